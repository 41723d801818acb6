# The two commands of the README: `make run` plays, `make test` tests.
# Both build the local virtual environment first; nothing is installed by hand.
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test bench clean system-tools micropython axe pi-check pi-boot screenshots

# Everything: the screen, the Pi's libraries (those that install off a Pi) and the tests.
# A change to pyproject.toml (a dependency added) makes the stamp stale and reinstalls.
# setuptools announces every editable install with a notice it raises as a warning (its
# class is InformationOnly); PYTHONWARNINGS hides that notice and nothing else.
# The install also compiles the engines' C cores in place (setup.py), so a changed C
# source reinstalls too.
$(STAMP): pyproject.toml setup.py $(wildcard engines/*/_*.c)
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	PYTHONWARNINGS='ignore:Editable installation' $(PY) -m pip install --quiet -e '.[screen,pi,web,test]'
	touch $(STAMP)

run: $(STAMP)
	$(VENV)/bin/tabletop simulate

# The tests check the systemd unit with systemd-analyze; Debian ships it in `systemd`.
# The web page's test drives a real browser: Debian's Chromium and its chromium-driver.
# The far board's page test reads the invitation's QR code with ZBar's zbarimg (zbar-tools).
# The page's network tests build their boards and phone from network namespaces with
# iproute2's `ip` (tests/home_network.py), which minimal images leave out.
# The far boards' tests start their own mosquitto (Debian's broker; mosquitto_passwd
# comes with it, in /usr/bin where the broker is in /usr/sbin) on a free port.
system-tools:
	@command -v systemd-analyze >/dev/null || { \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  echo "installing systemd (for systemd-analyze)"; \
	  $$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq systemd >/dev/null; }
	@{ command -v chromium && command -v chromedriver; } >/dev/null || { \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  echo "installing chromium and chromium-driver (for the web page's browser test)"; \
	  $$SUDO apt-get update -qq && \
	  $$SUDO apt-get install -y -qq chromium chromium-driver >/dev/null; }
	@command -v ip >/dev/null || { \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  echo "installing iproute2 (for the web page's network tests)"; \
	  $$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq iproute2 >/dev/null; }
	@command -v zbarimg >/dev/null || { \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  echo "installing zbar-tools (to read the page's invitation QR code as a phone would)"; \
	  $$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq zbar-tools >/dev/null; }
	@{ command -v node && command -v npm; } >/dev/null || { \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  echo "installing node and npm (for axe-core, the page's accessibility checks)"; \
	  $$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq nodejs npm >/dev/null; }
	@command -v mosquitto_passwd >/dev/null || { \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  echo "installing mosquitto (for the far boards' tests)"; \
	  $$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq mosquitto >/dev/null; }
	@command -v openssl >/dev/null || { \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  echo "installing openssl (for install.sh --broker's authority, systemd/broker.sh)"; \
	  $$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq openssl >/dev/null; }

# The firmware's checks under real MicroPython (its WebAssembly port) need node and npm;
# without them those tests are skipped and say so.
MICROPYTHON := $(VENV)/micropython/node_modules/@micropython/micropython-webassembly-pyscript
micropython: $(STAMP)
	@if [ -e $(MICROPYTHON)/micropython.mjs ]; then :; \
	elif command -v npm >/dev/null && command -v node >/dev/null; then \
	  echo "installing MicroPython's WebAssembly port (for the firmware's checks)"; \
	  npm install --silent --no-audit --no-fund --prefix $(VENV)/micropython \
	    @micropython/micropython-webassembly-pyscript@1.27.0 >/dev/null \
	  || echo "npm could not install it: the firmware's checks under MicroPython will be skipped"; \
	else echo "no node and npm: the firmware's checks under MicroPython will be skipped"; fi

# The page's browser tests run axe-core (Deque's accessibility rules) in the page; it
# comes from the npm registry into the virtual environment, at a fixed version.
AXE := $(VENV)/axe/node_modules/axe-core/axe.min.js
axe: $(STAMP) system-tools
	@[ -e $(AXE) ] || { echo "installing axe-core (for the page's accessibility checks)"; \
	  npm install --silent --no-audit --no-fund --prefix $(VENV)/axe axe-core@4.10.3 >/dev/null; }

test: $(STAMP) system-tools micropython axe
	$(PY) -m pytest

# install.sh on an emulated Pi: an arm64 Debian bookworm root (debootstrap, run by qemu),
# cached in /var/cache/tabletop-pi-check (not in the checkout: a root has device files),
# then the checks that need no Pi (scripts/pi_check.py). Needs root and minutes, so it is
# not part of `make test`. PI_CHECK=--fresh installs into a clean copy of the root
# instead of over the last run's install.
pi-check:
	$$( [ "$$(id -u)" = 0 ] || echo sudo ) python3 scripts/pi_check.py $(PI_CHECK)

# An emulated Pi-like machine booted from power-on (qemu-system-aarch64 -M virt, TCG)
# from pi-check's root with a kernel and systemd added, Tabletop installed on it by
# install.sh, then checked as the service it is (scripts/pi_boot.py): READY at boot, the
# screen, a tap, a game on a virtual sensor board with its LEDs, the page and mDNS after
# a late network, the watchdog, a power cut, the self-test. The image is cached in
# /var/cache/tabletop-pi-boot; builds pi-check's root first if there is none. Needs root
# and a long time, so it is not part of `make test`.
pi-boot: $(STAMP)
	$$( [ "$$(id -u)" = 0 ] || echo sudo ) python3 scripts/pi_boot.py $(PI_BOOT)

# The README's pictures, each game's window and status screen: one `tabletop simulate`
# line a game sets out a position and saves it, with no window opened. The same line
# makes the same pictures; tests/test_screenshots.py runs these lines and checks the
# committed pictures are current. Akron's is a fixed game, as stacks come from moves
# above the board, which seeded play rarely builds: a small pyramid in the corner (3c3
# covers 1c3, 1c1 is pinned) and, in the middle, white's contact 1k9-1k11 cut by the
# overpass 2j10-2l10. The last line makes the live page's pictures at a phone's size
# (390x844) and a laptop's (1280x900) for each game, in docs/screenshots/page: the ones
# tests/test_web_browser_layout.py compares the page with, within a tolerance.
screenshots: $(STAMP) axe
	$(VENV)/bin/tabletop simulate kulami layout=square-1 scoring=0 --moves 17 --seed 11 --screenshot docs/screenshots/kulami.png --screen docs/screenshots/kulami-screen.png
	$(VENV)/bin/tabletop simulate conhex pie=true handicap=0 --moves 15 --seed 7 --screenshot docs/screenshots/conhex.png --screen docs/screenshots/conhex-screen.png
	$(VENV)/bin/tabletop simulate blokus-duo --moves 13 --seed 11 --screenshot docs/screenshots/blokus-duo.png --screen docs/screenshots/blokus-duo-screen.png
	$(VENV)/bin/tabletop simulate akron --play "1a1 1c1 1a3 1c3 1e1 1e3 1a5 1c5 1e5 1g3 1a7 1g3-2d4 1a7-2b4 1g3 1a7 1g3-2d2 1a7-2b2 1g3 1a7 1g3-3c3 1k9 1m9 1k11 1m11 1i9 1o11 1i11 1o11-2l10 1i13 1m13 1i13-2j10 1g13 1e7" --screenshot docs/screenshots/akron.png --screen docs/screenshots/akron-screen.png
	TABLETOP_REMAKE_PAGE_PICTURES=1 $(PY) -m pytest -q tests/test_web_browser_layout.py -k committed_picture

bench: $(STAMP)
	for b in bench/*.py; do $(PY) -m bench.$$(basename $$b .py) || exit 1; done

clean:
	rm -rf $(VENV)
