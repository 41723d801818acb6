#!/bin/sh
# A home's MQTT broker on one board, for boards that play each other (app/remote):
# install.sh --broker runs this with Debian's mosquitto; tests/test_broker_setup.py runs
# `config` into a temporary folder, as an ordinary user, and starts mosquitto on it.
#
#   broker.sh config DIR PORT NAME...
#       The broker's files in DIR: tabletop.conf (mosquitto's settings, for conf.d),
#       passwd (mosquitto_passwd's), accounts (each board's user and password, kept for
#       the next run), tls/ (an authority of this home's own and the broker's certificate
#       for every NAME: host names and addresses the boards dial). A second run keeps the
#       accounts and the authority (the other board has copies) and issues the broker's
#       certificate again, so that an address the board got since is in it.
#   broker.sh check FILE
#       Refuses (one line, status 1) a configuration FILE with a [remote] of its own,
#       which `remote` would not replace: install.sh asks before it changes anything.
#   broker.sh remote FILE BROKER USER PASSWORD CA
#       The [remote] table of a board's configuration FILE, between two marker lines:
#       replaced on a second run; FILE's own [remote], if it has one, is refused.
#   broker.sh unremote FILE
#       That table taken out again, FILE otherwise as it was.
#   broker.sh tell DIR BROKER
#       What the other board of the home needs to play through this broker.
#
# TLS within the home too: the boards' passwords would otherwise cross the home's Wi-Fi in
# the clear, to be read by any device on it (a guest's phone, a television), and a board's
# [remote] verifies its broker by default. The authority is the home's own, made here: no
# public authority issues a certificate for a name such as kitchen.local.
set -eu

# The boards' accounts: this board's, then the other board's.
BOARDS="board1 board2"
# Within the limits the boards themselves keep (app/remote): a sealed message is at most
# 16 KiB (sealing.MAX_MESSAGE) and a board asks for packets of at most 64 KiB
# (broker.MAX_PACKET). Two boards need two connections; a club's twenty, under 64.
MESSAGE_LIMIT=16384
PACKET_LIMIT=65536
CONNECTIONS=64
BEGIN="# >>> [remote] written by install.sh --broker (taken out by install.sh --uninstall)"
END="# <<< install.sh --broker"

die() {
    echo "broker.sh: $*" >&2
    exit 1
}

secret() {
    od -An -N18 -tx1 /dev/urandom | tr -d ' \n'
}

# The subjectAltName of NAMEs: an address is an IP entry, anything else a DNS one.
alt_names() {
    names=""
    for name in "$@"; do
        case "$name" in
            *:* | *[0-9].[0-9]*[0-9].[0-9]*) entry="IP:$name" ;;
            *) entry="DNS:$name" ;;
        esac
        names="${names:+$names,}$entry"
    done
    echo "$names"
}

config() {
    [ $# -ge 3 ] || die "usage: broker.sh config DIR PORT NAME..."
    dir=$1 port=$2
    shift 2
    umask 077
    mkdir -p "$dir/tls"
    if [ ! -s "$dir/accounts" ]; then
        for user in $BOARDS; do
            echo "$user $(secret)"
        done > "$dir/accounts.new"
        mv "$dir/accounts.new" "$dir/accounts"
    fi
    rm -f "$dir/passwd.new"
    touch "$dir/passwd.new"
    while read -r user password; do
        mosquitto_passwd -b "$dir/passwd.new" "$user" "$password"
    done < "$dir/accounts"
    mv "$dir/passwd.new" "$dir/passwd"

    tls="$dir/tls"
    if [ ! -s "$tls/ca.pem" ] || [ ! -s "$tls/ca.key" ]; then
        openssl req -x509 -new -noenc -newkey ec -pkeyopt ec_paramgen_curve:P-256 \
            -keyout "$tls/ca.key" -out "$tls/ca.pem" -days 7300 -subj "/CN=Tabletop home broker" \
            -addext "basicConstraints=critical,CA:TRUE" \
            -addext "keyUsage=critical,keyCertSign,cRLSign" 2>/dev/null
    fi
    printf '%s\n' "subjectAltName=$(alt_names "$@")" "basicConstraints=critical,CA:FALSE" \
        "keyUsage=critical,digitalSignature" "extendedKeyUsage=serverAuth" \
        "subjectKeyIdentifier=hash" "authorityKeyIdentifier=keyid" > "$tls/server.ext"
    openssl req -new -noenc -newkey ec -pkeyopt ec_paramgen_curve:P-256 \
        -keyout "$tls/server.key" -out "$tls/server.csr" -subj "/CN=$1" 2>/dev/null
    openssl x509 -req -in "$tls/server.csr" -CA "$tls/ca.pem" -CAkey "$tls/ca.key" \
        -set_serial "0x$(secret)" -days 825 -extfile "$tls/server.ext" \
        -out "$tls/server.pem" 2>/dev/null
    rm -f "$tls/server.csr" "$tls/server.ext"

    cat > "$dir/tabletop.conf" <<EOF
# Tabletop's broker for the boards of this home: written by install.sh --broker
# (systemd/broker.sh), written again by each run, taken out by install.sh --uninstall.
per_listener_settings false
allow_anonymous false
password_file $dir/passwd
persistence true
set_tcp_nodelay true
message_size_limit $MESSAGE_LIMIT
max_packet_size $PACKET_LIMIT

# Every address of this board: the boards of the home reach it on the home network.
listener $port
protocol mqtt
max_connections $CONNECTIONS
cafile $tls/ca.pem
certfile $tls/server.pem
keyfile $tls/server.key
tls_version tlsv1.2
EOF
}

# FILE without the block between BEGIN and END (the whole of FILE when it has none).
without_block() {
    awk -v begin="$BEGIN" -v end="$END" '
        $0 == begin { inside = 1; next }
        inside && $0 == end { inside = 0; next }
        !inside { print }' "$1"
}

# FILE's content replaced by standard input, keeping its owner and mode.
replace() {
    cat > "$1.new"
    chown --reference="$1" "$1.new" 2>/dev/null || true
    chmod --reference="$1" "$1.new"
    mv "$1.new" "$1"
}

check() {
    [ $# -eq 1 ] || die "usage: broker.sh check FILE"
    if [ -f "$1" ] && without_block "$1" \
            | grep -q '^[[:space:]]*\[[[:space:]]*remote[[:space:]]*\]'; then
        die "$1 has a [remote] table of its own: take it out, or leave out --broker"
    fi
}

remote() {
    [ $# -eq 5 ] || die "usage: broker.sh remote FILE BROKER USER PASSWORD CA"
    file=$1
    [ -f "$file" ] || die "no configuration file $file"
    check "$file"
    {
        without_block "$file"
        echo "$BEGIN"
        echo "[remote]"
        echo "broker = \"$2\""
        echo "user = \"$3\""
        echo "password = \"$4\""
        echo "ca = \"$5\""
        echo "tls = true"
        echo "$END"
    } | replace "$file"
}

unremote() {
    [ $# -eq 1 ] || die "usage: broker.sh unremote FILE"
    if [ -f "$1" ] && grep -qxF "$BEGIN" "$1"; then
        without_block "$1" | replace "$1"
    fi
}

tell() {
    [ $# -eq 2 ] || die "usage: broker.sh tell DIR BROKER"
    dir=$1
    password="$(awk '$1 == "board2" { print $2 }' "$dir/accounts")"
    cat <<EOF
The other board of this home plays through this one's broker. On that board, put this
certificate (this home's own authority) in /etc/tabletop/home-broker-ca.pem:
$(cat "$dir/tls/ca.pem")
and this at the end of its /etc/tabletop/tabletop.toml (replacing any [remote] there):
[remote]
broker = "$2"
user = "board2"
password = "$password"
ca = "/etc/tabletop/home-broker-ca.pem"
then restart it: sudo systemctl restart tabletop
EOF
}

case "${1:-}" in
    config | check | remote | unremote | tell) command=$1; shift; "$command" "$@" ;;
    *) die "usage: broker.sh config|check|remote|unremote|tell ..." ;;
esac
