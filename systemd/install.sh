#!/usr/bin/env bash
# Install (or update) gametable as a systemd service on a Raspberry Pi. Run as root from a checkout:
#
#     sudo systemd/install.sh              # a table (--table): install or update, (re)start it
#     systemd/install.sh --dry-run         # print the commands instead of running them
#     sudo systemd/install.sh --prefix DIR # install under DIR (an image being built, a test)
#     sudo systemd/install.sh --hub        # the tournament hub and its broker config instead
#     sudo systemd/install.sh --hall CENTRAL_HOST[:PORT] --hall-name HALL --bridge-password FILE
#                                          # a hall's broker, bridged to the hub's (mosquitto only)
#
# Safe to run again: the user, directories and venv are reused, the code and unit are refreshed,
# and the operator's /etc/gametable/table.toml is never overwritten. The Debian packages it
# needs are apt-get installed first. docs/service.md explains it (the hub: docs/hub.md).
set -euo pipefail

readonly APP=gametable
readonly GROUPS_WANTED=(gpio i2c spi dialout) # GPIO chips, I2C, SPI, serial (udev gives these)
SOURCE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
readonly SOURCE

DRY_RUN=0
PREFIX=""
HUB=0 # 1: the tournament hub (gametable-hub.service, mosquitto's config) instead of a table
HALL=0 # 1: a hall's broker bridged to the central one (--hall): mosquitto's config only
CENTRAL="" HALL_NAME="" BRIDGE_PASSWORD_FILE=""

usage() {
    sed -n '2,13s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"
}

die() {
    echo "install.sh: $*" >&2
    exit 1
}

warn() {
    echo "install.sh: warning: $*" >&2
}

while (($# > 0)); do
    case $1 in
    --dry-run) DRY_RUN=1 ;;
    --table) HUB=0 ;;
    --hub) HUB=1 ;;
    --prefix)
        (($# >= 2)) || die "--prefix needs a directory"
        PREFIX=$2
        shift
        ;;
    --prefix=*) PREFIX=${1#--prefix=} ;;
    --hall | --hall-name | --bridge-password)
        if (($# < 2)) || [[ -z $2 || $2 == --* ]]; then
            die "$1 needs a value (try --help)"
        fi
        case $1 in
        --hall) HALL=1 CENTRAL=$2 ;;
        --hall-name) HALL_NAME=$2 ;;
        --bridge-password) BRIDGE_PASSWORD_FILE=$2 ;;
        esac
        shift
        ;;
    -h | --help)
        usage
        exit 0
        ;;
    *) die "unknown argument: $1 (try --help)" ;;
    esac
    shift
done

if [[ -n $PREFIX ]]; then
    [[ $PREFIX == /* ]] || PREFIX=$PWD/$PREFIX
    PREFIX=${PREFIX%/}
fi

# --hall's own options, each checked before anything is done (docs/hub.md, "Beyond one hall").
# A hall's name as `gametable hub users PASSWD HALL --bridge` takes it (R1000).
readonly HALL_NAME_PATTERN='^[a-z0-9]([a-z0-9-]{0,30}[a-z0-9])?$'
check_hall_options() {
    ((!HUB)) || die "--hall and --hub: a hall's broker is not the hub's; choose one"
    local port=1883
    [[ $CENTRAL == *:* ]] && port=${CENTRAL##*:}
    if ! [[ $CENTRAL =~ ^[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?(:[0-9]{1,5})?$ ]] ||
        ((10#$port < 1 || 10#$port > 65535)); then
        die "--hall $CENTRAL: expected the central broker's host name or IPv4 address," \
            "with :PORT if not 1883 (like hub.local or 10.0.0.2:8883)"
    fi
    [[ -n $HALL_NAME ]] ||
        die "--hall needs --hall-name HALL: the name its bridge's account was made with" \
            "(gametable hub users PASSWD HALL --bridge, on the hub's machine)"
    [[ $HALL_NAME =~ $HALL_NAME_PATTERN ]] ||
        die "--hall-name $HALL_NAME: expected 1 to 32 lowercase letters, digits and inner" \
            "hyphens, like east or hall-2"
    [[ -n $BRIDGE_PASSWORD_FILE ]] ||
        die "--hall needs --bridge-password FILE: the file gametable hub users ... --bridge" \
            "--generate FILE wrote on the hub's machine"
    [[ -f $BRIDGE_PASSWORD_FILE && -r $BRIDGE_PASSWORD_FILE ]] ||
        die "--bridge-password $BRIDGE_PASSWORD_FILE: no such readable file"
    local line
    IFS= read -r line <"$BRIDGE_PASSWORD_FILE" || [[ -n $line ]] || line=""
    # a word of mosquitto's config: printable ASCII without spaces, as --generate makes it
    [[ $line =~ ^[!-~]{1,256}$ ]] ||
        die "--bridge-password $BRIDGE_PASSWORD_FILE: expected the password on its first line," \
            "1 to 256 printable characters without spaces"
    BRIDGE_PASSWORD=$line
}
BRIDGE_PASSWORD=""
if ((HALL)); then
    check_hall_options
elif [[ -n $HALL_NAME || -n $BRIDGE_PASSWORD_FILE ]]; then
    die "--hall-name and --bridge-password are for a hall's broker: expected --hall CENTRAL_HOST"
fi
readonly DRY_RUN PREFIX HUB HALL CENTRAL HALL_NAME BRIDGE_PASSWORD

# Paths on the target system, and where this run writes them (the same unless --prefix).
readonly OPT=/opt/$APP STATE=/var/lib/$APP CONF_DIR=/etc/$APP
readonly CONF=$CONF_DIR/table.toml UNIT=/etc/systemd/system/$APP.service
readonly DROPIN_DIR=/etc/systemd/system/$APP.service.d
readonly GROUPS_DROPIN=$DROPIN_DIR/10-groups.conf
# The hub: its unit and record, and the broker's config beside Debian's mosquitto.conf.
readonly HUB_UNIT=/etc/systemd/system/$APP-hub.service HUB_STATE=/var/lib/$APP-hub
readonly HUB_PASSWORD=$CONF_DIR/hub-password
readonly MOSQUITTO_DIR=/etc/mosquitto
readonly BROKER_CONF=$MOSQUITTO_DIR/conf.d/$APP.conf BROKER_ACL=$MOSQUITTO_DIR/$APP.acl
readonly BROKER_PASSWD=$MOSQUITTO_DIR/$APP.passwd
# A hall's broker: its bridge to the central one, beside gametable.conf.
readonly HALL_CONF=$MOSQUITTO_DIR/conf.d/$APP-hall.conf
# Where the central ACL's bridges begin (firmware_py/director/hub/bridges.py ACL_HEADING): kept
# from the installed ACL when the shipped one is installed again.
readonly ACL_BRIDGES="# --- the halls' bridges: gametable hub users --bridge HALL (docs/hub.md) ---"

# Run a command, or with --dry-run print it, shell-quoted, instead.
run() {
    if ((DRY_RUN)); then
        local quoted
        printf -v quoted '%q ' "$@"
        echo "+ ${quoted% }"
    else
        "$@"
    fi
}

# Write stdin to a file (mode $2), or with --dry-run show what would be written (a secret $3,
# if given, shown as ********).
write_file() {
    local path=$1 mode=$2 secret=${3:-} content shown
    content=$(cat)
    if ((DRY_RUN)); then
        shown=$content
        [[ -z $secret ]] || shown=${shown//"$secret"/********}
        echo "+ write $path (mode $mode):"
        echo "|   ${shown//$'\n'/$'\n'|   }"
    else
        install -m "$mode" /dev/null "$path"
        printf '%s\n' "$content" >"$path"
    fi
}

note() {
    echo "==> $*"
}

# Users and groups are read from the target's own files so --prefix sees the image, not the host.
has_entry() { # FILE NAME
    [[ -r $1 ]] && grep -q "^$2:" "$1"
}
has_user() { has_entry "$PREFIX/etc/passwd" "$1"; }
has_group() { has_entry "$PREFIX/etc/group" "$1"; }

# Under --prefix, an id from the target's own files (the host may not know the name); the name
# itself otherwise, or while it does not exist yet (a dry run).
id_of() { # FILE NAME
    local id=""
    [[ -n $PREFIX && -r $1 ]] && id=$(awk -F: -v n="$2" '$1 == n { print $3 }' "$1")
    echo "${id:-$2}"
}

# The broker's config beside Debian's mosquitto.conf (a hub's, or a hall's for its own tables):
# the ACL's halls' bridges kept (R1001), the password file made once, then the operator's.
install_broker_config() {
    mosquitto_gid=$(id_of "$PREFIX/etc/group" mosquitto)
    note "broker config $BROKER_CONF"
    run install -d -m 0755 -o root -g root "$PREFIX$MOSQUITTO_DIR/conf.d"
    run install -m 0644 -o root -g root "$SOURCE/systemd/mosquitto/$APP.conf" "$PREFIX$BROKER_CONF"
    local bridges=""
    [[ -f $PREFIX$BROKER_ACL ]] &&
        bridges=$(grep -nxF -- "$ACL_BRIDGES" "$PREFIX$BROKER_ACL" | head -n 1 | cut -d: -f1)
    if [[ -n $bridges ]]; then
        echo "keeping the halls' bridges in $BROKER_ACL"
        {
            cat "$SOURCE/systemd/mosquitto/$APP.acl"
            echo
            tail -n "+$bridges" "$PREFIX$BROKER_ACL"
        } | write_file "$PREFIX$BROKER_ACL" 0644
    else
        run install -m 0644 -o root -g root "$SOURCE/systemd/mosquitto/$APP.acl" "$PREFIX$BROKER_ACL"
    fi
    if [[ -e $PREFIX$BROKER_PASSWD ]]; then
        echo "keeping the existing $BROKER_PASSWD"
    else # the broker reads it; `gametable hub users` (or mosquitto_passwd) adds the tables
        run install -m 0640 -o root -g "$mosquitto_gid" /dev/null "$PREFIX$BROKER_PASSWD"
    fi
}

# --hall: a hall's broker, its tables' as a hub's broker is (gametable.conf, gametable.acl), with
# the bridge to the central broker (gametable-hall.conf filled in: it holds the bridge's password,
# so the broker's group reads it and nobody else). No code, no venv: mosquitto is all it runs.
install_hall() {
    install_broker_config
    note "bridge to $CENTRAL as hall $HALL_NAME: $HALL_CONF"
    local conf
    conf=$(<"$SOURCE/systemd/mosquitto/$APP-hall.conf")
    conf=${conf//@CENTRAL@/"$CENTRAL"}
    conf=${conf//@HALL@/"$HALL_NAME"}
    conf=${conf//@PASSWORD@/"$BRIDGE_PASSWORD"} # quoted: taken as it is, '&' and '\' too
    write_file "$PREFIX$HALL_CONF" 0640 "$BRIDGE_PASSWORD" <<<"$conf"
    run chgrp "$mosquitto_gid" "$PREFIX$HALL_CONF"
    if [[ -n $PREFIX ]]; then
        echo "installed under $PREFIX: not started"
    elif ! systemd_running; then
        skipped "systemctl restart mosquitto.service"
    else # a bridge is read at the broker's start only: a reload would not start it
        run systemctl enable mosquitto.service
        run systemctl restart mosquitto.service
    fi
    note "done: add each table of hall $HALL_NAME (sudo mosquitto_passwd $BROKER_PASSWD 7, then" \
        "systemctl reload mosquitto) and point it at this machine; docs/hub.md, Beyond one hall"
}

# --hub, after the user, the code and the venv: the broker's config beside Debian's
# mosquitto.conf, the hub's account, the record's directory and the hub's unit. The broker's
# password file and the hub's password are made once, then they are the operator's.
install_hub() {
    install_broker_config

    note "hub account $HUB_PASSWORD"
    run install -d -m 0750 -o root -g "$app_gid" "$PREFIX$CONF_DIR"
    if [[ -e $PREFIX$HUB_PASSWORD ]]; then
        echo "keeping the existing $HUB_PASSWORD"
    else # a new password, in the hub's file and in the broker's
        run "$PREFIX$OPT/.venv/bin/$APP" hub users "$PREFIX$BROKER_PASSWD" hub \
            --generate "$PREFIX$HUB_PASSWORD"
        run chgrp "$app_gid" "$PREFIX$HUB_PASSWORD"
    fi

    note "record directory $HUB_STATE"
    run install -d -m 0750 -o "$app_uid" -g "$app_gid" "$PREFIX$HUB_STATE"

    note "unit $HUB_UNIT"
    run install -m 0644 -o root -g root "$SOURCE/systemd/$APP-hub.service" "$PREFIX$HUB_UNIT"
    if [[ -n $PREFIX ]]; then
        run systemctl --root="$PREFIX" enable "$APP-hub.service"
        echo "installed under $PREFIX: not started"
    elif ! systemd_running; then
        run systemctl enable "$APP-hub.service"
        skipped "systemctl daemon-reload; systemctl reload-or-restart mosquitto.service"
    else
        run systemctl daemon-reload
        run systemctl enable "$APP-hub.service"
        run systemctl reload-or-restart mosquitto.service # the broker config and the accounts
    fi
    note "done: make the tournament (sudo -u $APP $OPT/.venv/bin/$APP tournament new" \
        "--db $HUB_STATE/tournament.db ...), then systemctl start $APP-hub; docs/hub.md"
}

prefix_args=()
[[ -n $PREFIX ]] && prefix_args=(--prefix "$PREFIX")

# 0. Preconditions: fail before changing anything.
if ((!DRY_RUN)) && ((EUID != 0)); then
    die "run as root (sudo $0), or try --dry-run"
fi
[[ -f $SOURCE/pyproject.toml && -f $SOURCE/systemd/$APP.service ]] ||
    die "$SOURCE does not look like a gametable checkout"
# The userland's architecture (a 32-bit Raspberry Pi OS on a 64-bit kernel is armhf, though
# uname says aarch64): it decides what PyPI has wheels for.
arch=$(dpkg --print-architecture 2>/dev/null || uname -m)
if ((HUB)) && [[ $arch == armhf || $arch == armel ]]; then
    die "the hub's pairings need rustworkx, which PyPI has no build of for 32-bit ARM ($arch)" \
        "and a Pi has no Rust toolchain to build: install the hub on a 64-bit system" \
        "(Raspberry Pi OS 64-bit, or a laptop); docs/service.md"
fi

# The venv is built on this machine, so it needs what a source build of the Pi's libraries
# needs: a compiler and Python's headers (RPi.GPIO and spidev are C, published as source
# only) and the jpeg and zlib headers (PyPI has no Pillow wheel for 32-bit ARM). apt installs
# whichever is missing; --prefix never changes this machine, so there they must be installed.
readonly BUILD_PACKAGES=(rsync python3-venv python3-dev gcc libc6-dev libjpeg-dev zlib1g-dev)
deb_installed() { # PACKAGE: dpkg's own record says it is installed
    # shellcheck disable=SC2016 # ${...} is dpkg-query's format, not the shell's
    [[ $(dpkg-query --show --showformat='${db:Status-Status}' "$1" 2>/dev/null) == installed ]]
}
missing=()
if ((HALL)); then
    : # mosquitto is all a hall's broker needs (below): no venv is built
elif command -v dpkg-query >/dev/null; then
    for package in "${BUILD_PACKAGES[@]}"; do
        deb_installed "$package" || missing+=("$package")
    done
else # not Debian: the tools themselves
    command -v rsync >/dev/null || missing+=(rsync)
    python3 -c 'import venv, ensurepip' 2>/dev/null || missing+=("python3's venv")
fi
if ((HUB || HALL)); then
    if [[ -n $PREFIX ]]; then
        [[ -x $PREFIX/usr/sbin/mosquitto ]] || missing+=(mosquitto)
    elif ! deb_installed mosquitto; then
        missing+=(mosquitto)
    fi
fi
if ((${#missing[@]} > 0)); then
    if [[ -z $PREFIX ]] && command -v apt-get >/dev/null; then
        note "packages: ${missing[*]}"
        run apt-get update
        run env DEBIAN_FRONTEND=noninteractive apt-get install --yes --no-install-recommends \
            "${missing[@]}"
    elif ((DRY_RUN)); then
        warn "missing: ${missing[*]} (apt-get install them before a real run)"
    else
        die "missing: ${missing[*]}; apt-get install them first"
    fi
fi
((HALL)) || python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null ||
    die "python3 is missing or older than 3.11 (Raspberry Pi OS bookworm has 3.11)"

# systemd is the running init (sd_booted(3)); in a chroot, a container or an image being built
# the units can be enabled but systemd cannot load or start them: those steps are skipped.
systemd_running() {
    [[ -d /run/systemd/system ]]
}
skipped() {
    echo "skipped: $* (systemd is not running here: no /run/systemd/system)"
}

if ((HALL)); then
    install_hall # a hall's broker: mosquitto's config, no user, no code, no venv
    exit 0
fi

if ((!HUB)) && [[ -z $PREFIX && ! -e /dev/gpiochip0 ]]; then
    warn "no /dev/gpiochip0: the service will not start here (ConditionPathExists)"
fi

# 1. The service user: a system account, no login, home = the state directory.
note "user $APP"
if has_user "$APP"; then
    echo "user $APP exists"
else
    run useradd --system --user-group --home-dir "$STATE" --no-create-home \
        --shell /usr/sbin/nologin --comment "gametable daemon" "${prefix_args[@]}" "$APP"
fi
present=()
absent=()
# The hub drives no hardware: its user needs none of the device groups.
((HUB)) || for group in "${GROUPS_WANTED[@]}"; do
    if has_group "$group"; then present+=("$group"); else absent+=("$group"); fi
done
if ((${#present[@]} > 0)); then
    run usermod --append --groups "$(IFS=,; echo "${present[*]}")" "${prefix_args[@]}" "$APP"
fi
# The unit names all four groups; systemd refuses to start a service whose group does not
# exist, so a drop-in narrows SupplementaryGroups= to the groups this system has.
if ((${#absent[@]} > 0)); then
    warn "no group ${absent[*]}: the service runs without it (enable the interface with raspi-config)"
    run mkdir -p "$PREFIX$DROPIN_DIR"
    write_file "$PREFIX$GROUPS_DROPIN" 0644 <<EOF
# Written by install.sh: this system lacks the group(s) ${absent[*]}.
[Service]
SupplementaryGroups=
${present[*]:+SupplementaryGroups=${present[*]}}
EOF
elif [[ -e $PREFIX$GROUPS_DROPIN ]]; then
    run rm -f "$PREFIX$GROUPS_DROPIN"
fi

# 2. The code, owned by root so the service cannot change it. The venv survives updates.
note "code in $OPT"
run mkdir -p "$PREFIX$OPT"
run rsync --recursive --links --times --delete --chown=root:root --chmod=u+rwX,go+rX,go-w \
    --exclude=/.venv --exclude=.git --exclude=__pycache__ --exclude=.pytest_cache \
    --exclude=.mypy_cache --exclude=.ruff_cache --exclude=.hypothesis --exclude='*.egg-info' \
    --exclude=/build --exclude=/dist \
    "$SOURCE/" "$PREFIX$OPT/"

# 3. The virtual environment: a table's with the Pi's GPIO libraries (the [pi] extra), the hub's
# with its pairings (the [hub] extra).
note "venv in $OPT/.venv"
if [[ -x $PREFIX$OPT/.venv/bin/python ]]; then
    echo "venv exists"
else
    run python3 -m venv "$PREFIX$OPT/.venv"
fi
extra=pi
((HUB)) && extra=hub
# pip always reinstalls a local directory, so this also updates the code on a re-run. A wheel
# is preferred to a newer release published only as source: on a Pi that source would be
# built here, and some need a Rust toolchain (cbor2 6, which luma.core needs, on armhf).
echo "pip install (minutes on a Pi: RPi.GPIO and spidev are built here, on 32-bit ARM Pillow too)"
run "$PREFIX$OPT/.venv/bin/pip" install --quiet --prefer-binary "${PREFIX}${OPT}[$extra]"

app_uid=$(id_of "$PREFIX/etc/passwd" "$APP")
app_gid=$(id_of "$PREFIX/etc/group" "$APP")

if ((HUB)); then
    install_hub # below: the hub's record directory, its broker config, its unit
    exit 0
fi

# 4. The configuration: installed once, then it is the operator's.
note "config $CONF"
run install -d -m 0750 -o root -g "$app_gid" "$PREFIX$CONF_DIR"
if [[ -e $PREFIX$CONF ]]; then
    echo "keeping the existing $CONF"
else
    run install -m 0640 -o root -g "$app_gid" "$SOURCE/config/table.toml" "$PREFIX$CONF"
fi

# 5. The state directory (the journal); systemd's StateDirectory= would create it too, but an
# operator inspecting it before the first start should find it with the right owner.
note "state $STATE"
run install -d -m 0750 -o "$app_uid" -g "$app_gid" "$PREFIX$STATE"

# 6. A broken config stops the install here, before the running service is touched.
note "checking $CONF"
run "$PREFIX$OPT/.venv/bin/$APP" config check "$PREFIX$CONF"

# 7. The unit, then enable and (re)start it.
note "unit $UNIT"
run install -m 0644 -o root -g root "$SOURCE/systemd/$APP.service" "$PREFIX$UNIT"
if [[ -n $PREFIX ]]; then
    run systemctl --root="$PREFIX" enable "$APP.service"
    echo "installed under $PREFIX: not started"
elif ! systemd_running; then
    run systemctl enable "$APP.service"
    skipped "systemctl daemon-reload; systemctl start $APP.service"
elif ((!DRY_RUN)) && systemctl is-active --quiet "$APP.service"; then
    run systemctl daemon-reload
    run systemctl enable "$APP.service"
    run systemctl restart "$APP.service" # pick up the new code
else
    run systemctl daemon-reload
    run systemctl enable --now "$APP.service"
fi

note "done: systemctl status $APP; journalctl -u $APP -f"
