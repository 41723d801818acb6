# What this Pi's userland needs from Debian and from pip; sourced by install.sh.
#
# The userland's architecture decides, as dpkg tells it, not the kernel's: a Pi 4 or 5 on
# 32-bit Raspberry Pi OS boots a 64-bit kernel, so `uname -m`, and pip's platform_machine
# with it, say aarch64 while every program on the card is armhf. Asked by uname, install.sh
# left Debian's pygame out there and pip tried to build pygame-ce from source, which failed.
# tests/test_systemd.py runs this with stand-ins for dpkg, uname and python3.
#
# userland_route PYTHON sets
#   USERLAND_PACKAGES  the Debian packages this userland needs beyond install.sh's own
#   PIP_EXTRAS         the extras to install the package with
#   LGPIO_FROM_SOURCE  yes where PyPI has no lgpio wheel for PYTHON on this Pi
# or says in one line that Tabletop does not install here and exits 1.

userland_route() {
    userland="$(dpkg --print-architecture)"
    machine="$(uname -m)"
    case "$userland:$machine" in
        arm64:aarch64 | amd64:x86_64)
            # pygame-ce's wheels bundle an SDL with the KMS/DRM video driver.
            USERLAND_PACKAGES=""
            PIP_EXTRAS="screen,pi,web"
            ;;
        armhf:armv6l | armhf:armv7l | armhf:armv8l | armhf:aarch64 | \
        armel:armv6l | armel:armv7l | armel:armv8l | armel:aarch64)
            # No pygame-ce wheel for 32-bit ARM, and pip would take an aarch64 kernel for
            # a 64-bit userland: Debian's pygame, whose SDL is Debian's own and has
            # KMS/DRM, reaches the venv through --system-site-packages, and the [screen]
            # extra (pygame-ce alone) is left out.
            USERLAND_PACKAGES="python3-pygame"
            PIP_EXTRAS="pi,web"
            ;;
        *)
            echo "install.sh: Tabletop installs on Raspberry Pi OS, 64-bit (arm64) or 32-bit (armhf); this is a $userland userland on a $machine kernel" >&2
            exit 1
            ;;
    esac

    # lgpio 0.2.2.0, the latest, has wheels on PyPI for CPython 3.9 to 3.12 on aarch64,
    # x86_64 and armv7l (armhf, which a 32-bit Python on an aarch64 kernel takes too):
    # none for Python 3.13 (Debian trixie, Raspberry Pi OS trixie), none for armv6l
    # (a Pi Zero, Zero W or 1), and armel cannot load the armhf one. There pip builds it
    # from source, which runs swig.
    version="$("$1" -c 'import sys; print("%d.%d" % sys.version_info[:2])')"
    case "$userland:$machine:$version" in
        armel:*:* | *:armv6l:*) LGPIO_FROM_SOURCE=yes ;;
        *:*:3.9 | *:*:3.10 | *:*:3.11 | *:*:3.12) LGPIO_FROM_SOURCE=no ;;
        *) LGPIO_FROM_SOURCE=yes ;;
    esac
    if [ "$LGPIO_FROM_SOURCE" = yes ]; then
        USERLAND_PACKAGES="${USERLAND_PACKAGES:+$USERLAND_PACKAGES }swig"
    fi
}
