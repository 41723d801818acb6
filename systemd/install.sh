#!/bin/sh
# Install Tabletop as a service on Raspberry Pi OS (Bookworm or later), or take it away
# again. Run as root from a checkout:
#   sudo systemd/install.sh [PROFILE]      (PROFILE defaults to kulami)
#   sudo systemd/install.sh --broker [PROFILE]
#   sudo systemd/install.sh --uninstall
# --broker also makes this board the MQTT broker (Debian's mosquitto) of the boards of
# one home that play each other (systemd/broker.sh): password accounts, TLS with an
# authority of the home's own, and this board's [remote] set to play through it.
# Running it again is safe: it replaces what it wrote before and adds nothing twice.
# Without a booted systemd (a chroot, as in make pi-check) it skips the steps that need
# one and says so.
set -eu

SOURCE="$(cd "$(dirname "$0")/.." && pwd)"
PREFIX=/opt/tabletop
GROUPS_WANTED="gpio spi dialout video render input"
UNIT=/etc/systemd/system/tabletop.service
# Its OnFailure= unit: one journal line when the service has stopped for good.
STOPPED_UNIT=/etc/systemd/system/tabletop-stopped.service
RULES=/etc/udev/rules.d/99-tabletop.rules
DEFAULTS=/etc/default/tabletop
CONFIG=/etc/tabletop/tabletop.toml
# The home's broker (--broker): mosquitto's own files, its settings in conf.d, and the
# home's authority where the tabletop user reads it.
BROKER_DIR=/etc/mosquitto/tabletop
BROKER_CONF=/etc/mosquitto/conf.d/tabletop.conf
BROKER_CA=/etc/tabletop/home-broker-ca.pem
BROKER_PORT=8883

usage() {
    echo "usage: sudo $0 [--broker] [PROFILE]   or   sudo $0 --uninstall"
}

BROKER=no
if [ "${1:-}" = --broker ]; then
    BROKER=yes
    shift
fi
case "${1:-}" in
    --uninstall) ACTION=uninstall ;;
    -h|--help) usage; exit 0 ;;
    -*) usage >&2; exit 2 ;;
    *) ACTION=install; PROFILE="${1:-kulami}" ;;
esac
if [ $# -gt 1 ]; then
    usage >&2
    exit 2
fi
if [ "$(id -u)" -ne 0 ]; then
    echo "install.sh: run as root (sudo $0)" >&2
    exit 1
fi
if [ "$BROKER" = yes ]; then
    # Refused before anything changes: the board plays through a broker of its own choosing.
    sh "$SOURCE/systemd/broker.sh" check "$CONFIG"
fi

booted() {
    [ -d /run/systemd/system ]
}

no_systemd() {
    echo "no booted systemd here (a chroot?): skipped $*"
}

if [ "$ACTION" = uninstall ]; then
    echo "== the service"
    if booted; then
        if [ -e "$UNIT" ]; then
            systemctl disable --now tabletop.service
        fi
    else
        no_systemd "systemctl disable --now tabletop"
    fi
    rm -f "$UNIT" "$STOPPED_UNIT" "$RULES" "$DEFAULTS"
    if booted; then
        systemctl daemon-reload
        udevadm control --reload-rules
    else
        no_systemd "systemctl daemon-reload, udevadm control --reload-rules"
    fi

    if [ -e "$BROKER_DIR" ] || [ -e "$BROKER_CONF" ]; then
        echo "== the home's broker"
        sh "$SOURCE/systemd/broker.sh" unremote "$CONFIG"
        WE_INSTALLED_MOSQUITTO=no
        [ ! -e "$BROKER_DIR/installed-mosquitto" ] || WE_INSTALLED_MOSQUITTO=yes
        rm -rf "$BROKER_DIR" "$BROKER_CONF" "$BROKER_CA"
        if [ "$WE_INSTALLED_MOSQUITTO" = yes ]; then
            apt-get remove -y mosquitto
        elif booted; then
            systemctl try-restart mosquitto.service
        else
            no_systemd "systemctl try-restart mosquitto"
        fi
    fi

    echo "== the Pi's boot configuration"
    # Status 3 only says that it changed them, which the next reboot applies.
    sh "$SOURCE/systemd/boot-config.sh" remove || [ $? -eq 3 ]

    echo "== the program in $PREFIX"
    rm -rf "$PREFIX"
    # The saved games belong to the tabletop user: with the user gone they would belong
    # to a bare number, which a later install's new user need not get.
    echo "Kept: /etc/tabletop/tabletop.toml (the settings), /var/lib/tabletop (the saved"
    echo "games) and the tabletop user who owns them; an install picks them up again."
    echo "To remove them too: rm -r /etc/tabletop /var/lib/tabletop && userdel tabletop"
    exit 0
fi

echo "== packages"
# A compiler and python3-dev build the Pi 5's NeoPixel driver, which comes as source
# only. SDL draws on the Pi's screen without a desktop through KMS/DRM, and loads these
# libraries for it when the screen opens, not when it is installed: a missing one shows
# only as a dark screen. KMS/DRM has no software framebuffer: SDL draws through GBM and
# EGL, and they load the GPU's own driver (vc4 or v3d) from libgl1-mesa-dri, which
# neither Debian's EGL and GBM packages pull in nor Raspberry Pi OS Lite ships (it has no
# Mesa). GPIO (lgpio, gpiod) comes from PyPI with the [pi] extra.
PACKAGES="python3-venv python3-dev build-essential libdrm2 libgbm1 libegl1 libgles2 libgl1-mesa-dri libudev1"
# Debian's pygame on a 32-bit userland, swig where lgpio has no wheel (userland.sh).
. "$SOURCE/systemd/userland.sh"
userland_route python3
PACKAGES="$PACKAGES${USERLAND_PACKAGES:+ $USERLAND_PACKAGES}"
if [ "$BROKER" = yes ]; then
    # mosquitto_passwd comes with mosquitto; openssl makes the home's authority. The board
    # plays through the broker with the [remote] extra.
    # --uninstall removes the package only where this script installed it.
    if dpkg -s mosquitto >/dev/null 2>&1; then
        MOSQUITTO_WAS_THERE=yes
    else
        MOSQUITTO_WAS_THERE=no
    fi
    PACKAGES="$PACKAGES mosquitto openssl"
    PIP_EXTRAS="$PIP_EXTRAS,remote"
fi
apt-get update
# shellcheck disable=SC2086 # one word per package
apt-get install -y $PACKAGES

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
mkdir "$PREFIX/src"
# The checkout without its hidden folders (.git, .venv, make pi-check's .cache) or what
# a build left: a stale build/ would end up in the installed package.
for entry in "$SOURCE"/*; do
    case "${entry##*/}" in
        build|*.egg-info) ;;
        *) cp -R "$entry" "$PREFIX/src/" ;;
    esac
done
python3 -m venv --system-site-packages "$PREFIX/venv"
if [ "$LGPIO_FROM_SOURCE" = yes ]; then
    # Built first, on its own: PYPI=1 is lgpio's own switch that compiles the C library
    # it carries into the module. Without it the build links a system liblgpio, which
    # Debian does not have (ld: cannot find -llgpio). The [pi] extra then finds it there.
    PYPI=1 "$PREFIX/venv/bin/pip" install --quiet --no-binary lgpio lgpio
fi
# Not editable: the service runs what was installed, with the screen (pygame-ce, or
# Debian's on a 32-bit userland), the Pi's libraries and the web page.
"$PREFIX/venv/bin/pip" install --quiet "$PREFIX/src[$PIP_EXTRAS]"

echo "== configuration"
install -d -m 0755 /etc/tabletop
if [ ! -e "$CONFIG" ]; then
    # The example ships inside the installed package; take it from there.
    "$PREFIX/venv/bin/python" -c 'import importlib.resources as r; print(r.files("app.table").joinpath("tabletop.example.toml").read_text(encoding="utf-8"), end="")' \
        > "$CONFIG.new"
    chmod 0644 "$CONFIG.new"
    mv "$CONFIG.new" "$CONFIG"
fi
# The kernel's SPI buffer and the library's chunk must both hold one frame of the
# profile's LEDs; the installed program knows how big that is (and refuses an unknown
# profile here, before anything below changes).
BUFSIZ="$("$PREFIX/venv/bin/python" -m app.hardware.spi "$PROFILE")"
# Ours alone, so written whole each time: one line of each, whatever ran before.
printf 'TABLETOP_PROFILE=%s\nSPI_BUFSIZE=%s\n' "$PROFILE" "$BUFSIZ" > "$DEFAULTS"

if [ "$BROKER" = yes ]; then
    echo "== the home's broker (mosquitto on port $BROKER_PORT)"
    HOST="$(hostname)"
    # Every name and address the boards may dial: the board's mDNS name first (it stays
    # when the router hands out another address; a second run adds new addresses).
    # shellcheck disable=SC2046 # one word per address
    sh "$SOURCE/systemd/broker.sh" config "$BROKER_DIR" "$BROKER_PORT" \
        "$HOST.local" "$HOST" localhost 127.0.0.1 ::1 $(hostname -I 2>/dev/null || true)
    [ "$MOSQUITTO_WAS_THERE" = yes ] || [ -e "$BROKER_DIR/installed-mosquitto" ] \
        || touch "$BROKER_DIR/installed-mosquitto"
    # mosquitto reads its files as its own user; the authority's key and the accounts
    # in words stay root's.
    chgrp -R mosquitto "$BROKER_DIR"
    chmod 0750 "$BROKER_DIR" "$BROKER_DIR/tls"
    chmod 0640 "$BROKER_DIR/passwd" "$BROKER_DIR/tls/server.key" "$BROKER_DIR/tls/server.pem" \
        "$BROKER_DIR/tls/ca.pem" "$BROKER_DIR/tabletop.conf"
    install -m 0644 "$BROKER_DIR/tabletop.conf" "$BROKER_CONF"
    install -m 0644 "$BROKER_DIR/tls/ca.pem" "$BROKER_CA"
    sh "$SOURCE/systemd/broker.sh" remote "$CONFIG" "localhost:$BROKER_PORT" board1 \
        "$(awk '$1 == "board1" { print $2 }' "$BROKER_DIR/accounts")" "$BROKER_CA"
    # The configuration holds a password now: the service's user reads it, nobody else.
    chgrp tabletop "$CONFIG"
    chmod 0640 "$CONFIG"
    if booted; then
        systemctl enable mosquitto.service
        systemctl restart mosquitto.service
    else
        no_systemd "systemctl enable and restart mosquitto"
    fi
fi

echo "== the Pi's boot configuration"
# SPI on, the core clock held where SPI's clock follows it, spidev.bufsiz=$BUFSIZ; no
# raspi-config needed.
REBOOT=no
sh "$SOURCE/systemd/boot-config.sh" apply "$BUFSIZ" "$PREFIX/venv/bin/python" || {
    status=$?
    [ "$status" -eq 3 ] || exit "$status"
    REBOOT=yes
}

echo "== udev rules and the service"
install -D -m 0644 "$SOURCE/systemd/99-tabletop.rules" "$RULES"
install -D -m 0644 "$SOURCE/systemd/tabletop.service" "$UNIT"
install -D -m 0644 "$SOURCE/systemd/tabletop-stopped.service" "$STOPPED_UNIT"
if command -v systemd-analyze >/dev/null; then
    systemd-analyze verify "$UNIT" "$STOPPED_UNIT"
else
    echo "no systemd-analyze here: skipped verifying the units"
fi
if booted; then
    udevadm control --reload-rules
    # The Pico's serial port and the Pi 5's PIO, if they are there already.
    udevadm trigger --subsystem-match=tty --subsystem-match='*-pio'
else
    no_systemd "udevadm control --reload-rules, udevadm trigger"
fi

echo "The command is $PREFIX/venv/bin/tabletop (not on the PATH)."
echo "A self-test needs the board to itself: stop the service first, then start it again:"
echo "  sudo systemctl stop tabletop"
echo "  sudo -u tabletop $PREFIX/venv/bin/tabletop selftest --profile $PROFILE"
echo "  sudo systemctl start tabletop"
if booted; then
    systemctl daemon-reload
    systemctl enable tabletop.service
    if [ "$REBOOT" = yes ]; then
        echo "The boot configuration changed: reboot (sudo reboot) and Tabletop starts with the Pi."
    else
        # restart, not start: a second install must run the program it just installed;
        # reset-failed first, or a service that had stopped at its start limit would
        # refuse to start again.
        systemctl reset-failed tabletop.service
        systemctl restart tabletop.service
        echo "Tabletop runs: journalctl -u tabletop -f to watch it."
    fi
else
    no_systemd "systemctl daemon-reload, enable and restart tabletop"
fi
if [ "$BROKER" = yes ]; then
    echo
    sh "$SOURCE/systemd/broker.sh" tell "$BROKER_DIR" "$(hostname).local:$BROKER_PORT"
fi
