"""A phone on the home network, for the network tests: run inside the client's network
namespace (``ip netns exec NS python -m tests.lan_client ...``), it looks the board up
as a phone would and prints what it found, one item a line.

- ``resolve NAME``: the IPv4 addresses mDNS answers for ``NAME`` (``tabletop.local``),
  asked afresh (this process has no cache), over a few seconds;
- ``get URL``: the page's ``/api/state`` at ``URL``: the game it shows.

Failures print nothing and exit 1: the test asks again until its deadline.
"""

import json
import sys
import urllib.request

#: How long one lookup listens for answers, in ms.
RESOLVE_MS = 3000


def resolve(name: str) -> list[str]:
    import ifaddr
    from zeroconf import AddressResolverIPv4, IPVersion, Zeroconf
    ours = [ip.ip for adapter in ifaddr.get_adapters() for ip in adapter.ips
            if ip.is_IPv4 and not ip.ip.startswith("127.")]
    zeroconf = Zeroconf(interfaces=ours, ip_version=IPVersion.V4Only)
    try:
        resolver = AddressResolverIPv4(name.rstrip(".") + ".")
        resolver.request(zeroconf, RESOLVE_MS)
        return sorted(resolver.parsed_addresses())
    finally:
        zeroconf.close()


def get(url: str) -> list[str]:
    with urllib.request.urlopen(url.rstrip("/") + "/api/state", timeout=5) as answer:
        return [json.load(answer)["game"]]


def main(argv: list[str]) -> int:
    command, argument = argv
    try:
        found = {"resolve": resolve, "get": get}[command](argument)
    except OSError:
        return 1
    print("\n".join(found))
    return 0 if found else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
