#!/bin/sh
# The Pi's boot configuration for NeoPixels on SPI, as install.sh sets it and takes it
# away again. Kept apart from install.sh so that the edits, which touch the files a Pi
# boots from, can be tried on copies (tests/test_systemd.py, make pi-check).
#
#   boot-config.sh apply BUFSIZ PYTHON   SPI on, the core clock held, spidev.bufsiz=BUFSIZ
#   boot-config.sh remove                take all of that out again
#
# PYTHON is one that imports the installed program: the models' config.txt sections come
# from its app/hardware/pi_models.toml, so they follow that file. The firmware folder is
# /boot/firmware (Bookworm) or /boot, whichever has config.txt; TABLETOP_BOOT_DIR names
# another. Exit status 3 means a file changed and the Pi needs a reboot for it.
set -eu

BEGIN="# tabletop: begin"
END="# tabletop: end"

usage() {
    echo "usage: boot-config.sh apply BUFSIZ PYTHON | boot-config.sh remove" >&2
    exit 2
}

firmware_folder() {
    if [ -n "${TABLETOP_BOOT_DIR:-}" ]; then
        echo "$TABLETOP_BOOT_DIR"
        return
    fi
    for folder in /boot/firmware /boot; do
        if [ -f "$folder/config.txt" ]; then
            echo "$folder"
            return
        fi
    done
}

# config.txt without our block; refuses a begin without its end (or the other way
# round), since guessing where the block stops could cut the user's own lines.
without_block() {
    awk -v begin="$BEGIN" -v end="$END" '
        index($0, begin) == 1 { if (inside) exit 3; inside = 1; next }
        index($0, end) == 1   { if (!inside) exit 3; inside = 0; next }
        !inside               { print }
        END                   { if (inside) exit 3 }' "$1"
}

# The core-clock lines under each config.txt filter of the models whose SPI clock
# follows the core clock.
model_sections() {
    "$1" -c '
import importlib.resources, tomllib
data = (importlib.resources.files("app.hardware") / "pi_models.toml").read_text(encoding="utf-8")
for model in tomllib.loads(data).values():
    for name in model["config_filters"] if model["spi_core_clock"] else ():
        print(f"[{name}]", *model["spi_core_clock"], sep="\n")'
}

# The block: SPI on for every model, the models' sections, and [all] again so that
# whatever comes after the block applies to every model as before.
block() {
    printf '%s\n' "$BEGIN (systemd/install.sh wrote this; install.sh --uninstall removes it)" \
        "# SPI for the NeoPixels, and a steady core clock where the SPI clock follows it." \
        "[all]" "dtparam=spi=on"
    if [ -n "$SECTIONS" ]; then
        printf '%s\n' "$SECTIONS"
    fi
    printf '%s\n' "[all]" "$END"
}

# cmdline.txt, one line, without any spidev.bufsiz and then with "$1" added if given.
cmdline_with() {
    awk -v add="$1" '
        NR == 1 {
            line = ""
            for (i = 1; i <= NF; i++)
                if ($i !~ /^spidev\.bufsiz=/) line = line (line == "" ? "" : " ") $i
            if (add != "") line = line (line == "" ? "" : " ") add
            print line
            next
        }
        { print }' "$2"
}

# Put "$2" in place of "$1" if they differ, through a file beside it (one rename, on the
# firmware's FAT partition too); say which, and remember that something changed.
replace() {
    if cmp -s "$2" "$1"; then
        rm -f "$2"
        echo "$1: unchanged"
    else
        mv "$2" "$1"
        echo "$1: $3"
        CHANGED=yes
    fi
}

[ $# -ge 1 ] || usage
ACTION="$1"
case "$ACTION" in
    apply) [ $# -eq 3 ] || usage ;;
    remove) [ $# -eq 1 ] || usage ;;
    *) usage ;;
esac

FOLDER="$(firmware_folder)"
if [ -z "$FOLDER" ] || [ ! -f "$FOLDER/config.txt" ] || [ ! -f "$FOLDER/cmdline.txt" ]; then
    echo "no config.txt and cmdline.txt in /boot/firmware or /boot (not a Pi?): boot configuration skipped"
    exit 0
fi
CONFIG="$FOLDER/config.txt"
CMDLINE="$FOLDER/cmdline.txt"
CHANGED=no
if [ "$ACTION" = apply ]; then
    # Before any file is touched: a python that cannot say them changes nothing.
    SECTIONS="$(model_sections "$3")"
fi

if ! without_block "$CONFIG" > "$CONFIG.tabletop-new"; then
    rm -f "$CONFIG.tabletop-new"
    echo "boot-config.sh: $CONFIG has a '$BEGIN' line without its '$END' (or the other way round): mend it by hand" >&2
    exit 1
fi
if [ "$ACTION" = apply ]; then
    block >> "$CONFIG.tabletop-new"
    replace "$CONFIG" "$CONFIG.tabletop-new" "SPI on, the core clock held for it"
    cmdline_with "spidev.bufsiz=$2" "$CMDLINE" > "$CMDLINE.tabletop-new"
    replace "$CMDLINE" "$CMDLINE.tabletop-new" "spidev.bufsiz=$2"
else
    replace "$CONFIG" "$CONFIG.tabletop-new" "tabletop block removed"
    cmdline_with "" "$CMDLINE" > "$CMDLINE.tabletop-new"
    replace "$CMDLINE" "$CMDLINE.tabletop-new" "spidev.bufsiz removed"
fi

if [ "$CHANGED" = yes ]; then
    echo "the boot configuration changed: it takes effect at the next reboot"
    exit 3
fi
