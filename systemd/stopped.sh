#!/bin/sh
# One journal line when tabletop.service has stopped for good: run once by
# tabletop-stopped.service, its OnFailure= unit, when it gives up restarting (or stops at
# a mistake the same start would make again), never at each automatic restart.
#
#   stopped.sh STARTS INTERVAL    tabletop.service's StartLimitBurst= and StartLimitIntervalSec=
#
# systemd says how the service ended in MONITOR_SERVICE_RESULT and MONITOR_EXIT_STATUS.
# At the start limit, systemd 252 (Debian and Raspberry Pi OS bookworm) passes the last
# failure's result (exit-code, exit status 1), not start-limit-hit: booted under make
# pi-boot, five failed starts got the mistake's line. Exit status 2 is the one failure
# the unit does not retry (RestartPreventExitStatus=2); every other failure reaches this
# script only once the restarts have run out.
# The line names tabletop.service as OBJECT_SYSTEMD_UNIT, and this runs as root: that is
# what `journalctl -u tabletop` (and `systemctl status tabletop`) show beside the unit's
# own lines, so the line sits right after systemd's own account of the last failure.
set -eu

[ $# -eq 2 ] || { echo "usage: stopped.sh STARTS INTERVAL" >&2; exit 2; }
UNIT="${MONITOR_UNIT:-tabletop.service}"

case "${MONITOR_SERVICE_RESULT:-}:${MONITOR_EXIT_STATUS:-}" in
    exit-code:2)
        MESSAGE="Tabletop stopped (${MONITOR_SERVICE_RESULT}, exit status 2) and is not restarted: the line above says what to change; then start it again with: sudo systemctl start tabletop"
        ;;
    *)
        MESSAGE="Tabletop stopped after $1 failed starts within $2 (the lines above say what failed): check that the LEDs' SPI bus is on (ls /dev/spidev0.0; a reboot after install.sh turns it on), the sensor board's cable and power, and the profile in /etc/default/tabletop; then start it again with: sudo systemctl reset-failed tabletop && sudo systemctl start tabletop"
        ;;
esac

printf 'MESSAGE=%s\nPRIORITY=3\nSYSLOG_IDENTIFIER=tabletop\nOBJECT_SYSTEMD_UNIT=%s\n' \
    "$MESSAGE" "$UNIT" | logger --journald || echo "$MESSAGE"
