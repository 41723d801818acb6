#!/bin/sh
# Install Tabletop as a service on Raspberry Pi OS (Bookworm or later). Run as root from
# a checkout:  sudo systemd/install.sh [PROFILE]   (PROFILE defaults to kulami)
set -eu

PROFILE="${1:-kulami}"
SOURCE="$(cd "$(dirname "$0")/.." && pwd)"
PREFIX=/opt/tabletop
GROUPS_WANTED="gpio spi dialout video render input"

if [ "$(id -u)" -ne 0 ]; then
    echo "install.sh: run as root (sudo $0)" >&2
    exit 1
fi

echo "== packages"
# A compiler and python3-dev build the Pi's NeoPixel drivers, which come as sources only.
apt-get install -y python3-venv python3-dev python3-lgpio build-essential

echo "== SPI for the NeoPixels"
if command -v raspi-config >/dev/null; then
    raspi-config nonint do_spi 0
fi

echo "== the tabletop user"
if ! id tabletop >/dev/null 2>&1; then
    useradd --system --home-dir /var/lib/tabletop --no-create-home \
            --shell /usr/sbin/nologin tabletop
fi
for group in $GROUPS_WANTED; do
    if getent group "$group" >/dev/null; then
        usermod -a -G "$group" tabletop
    else
        echo "install.sh: no group $group on this system; skipped" >&2
    fi
done

echo "== the program in $PREFIX"
mkdir -p "$PREFIX"
rm -rf "$PREFIX/src"
cp -r "$SOURCE" "$PREFIX/src"
rm -rf "$PREFIX/src/.venv" "$PREFIX/src/.git"
python3 -m venv --system-site-packages "$PREFIX/venv"
# Not editable: the service runs what was installed, with the screen and the Pi's libraries.
"$PREFIX/venv/bin/pip" install --quiet "$PREFIX/src[screen,pi]"

echo "== configuration"
install -d -m 0755 /etc/tabletop
if [ ! -e /etc/tabletop/tabletop.toml ]; then
    # The example ships inside the installed package; take it from there.
    "$PREFIX/venv/bin/python" -c 'import importlib.resources as r; print(r.files("app.table").joinpath("tabletop.example.toml").read_text(encoding="utf-8"), end="")' \
        > /etc/tabletop/tabletop.toml.new
    chmod 0644 /etc/tabletop/tabletop.toml.new
    mv /etc/tabletop/tabletop.toml.new /etc/tabletop/tabletop.toml
fi
printf 'TABLETOP_PROFILE=%s\n' "$PROFILE" > /etc/default/tabletop

echo "== udev rule and service"
install -m 0644 "$SOURCE/systemd/99-tabletop.rules" /etc/udev/rules.d/99-tabletop.rules
udevadm control --reload-rules
udevadm trigger --subsystem-match=tty
install -m 0644 "$SOURCE/systemd/tabletop.service" /etc/systemd/system/tabletop.service
systemd-analyze verify /etc/systemd/system/tabletop.service
systemctl daemon-reload
systemctl enable --now tabletop.service
echo "Tabletop runs: journalctl -u tabletop -f to watch it."
