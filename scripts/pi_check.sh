#!/usr/bin/env bash
# Install gametable on fresh Debian bookworm userlands of both Raspberry Pi kinds, arm64 (64-bit
# Raspberry Pi OS) and armhf (32-bit), run under qemu-user-static, and check that it works:
#
#     sudo scripts/pi_check.sh                # arm64, then armhf (make pi-check)
#     sudo scripts/pi_check.sh --arch armhf   # one of them
#     sudo scripts/pi_check.sh --prepare      # only build and cache the base userlands
#     options: --work DIR (default /var/tmp/gametable-pi-check), --mirror URL (default: this
#     machine's Debian mirror), --fresh (rebuild the cached base userlands), --keep (leave
#     each userland in WORK/ARCH-root to look around in)
#
# For each kind: a minimal bookworm userland with python3 and systemd, as on a fresh Pi
# (debootstrap --foreign, its second stage under qemu; cached as WORK/bookworm-ARCH.tar.gz and
# unpacked afresh for every run); this checkout copied in as /root/gametable; then, as on a Pi,
# `systemd/install.sh` (which apt-installs what it needs), `gametable config check`, `gametable
# selftest` on the mock pin factory, a headless match, the daemon up to "ready" on the mock
# factory, install.sh again (an update), then install.sh --hub (refused on armhf). Needs root,
# debootstrap and qemu-user-static (Debian's packages) with their binfmt_misc entries. Logs:
# WORK/ARCH.log; a summary at the end. docs/service.md: what this covers, what only a Pi can.
# shellcheck disable=SC2317 # build_base and the check_* functions are called through step()
set -euo pipefail

readonly SUITE=bookworm
# What a fresh Raspberry Pi OS Lite has that install.sh relies on: Python 3.11 and systemd.
# Everything else (rsync, python3-venv, a compiler, headers) install.sh must install itself.
readonly BASE_PACKAGES=python3,systemd,systemd-sysv,ca-certificates
SOURCE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
readonly SOURCE

ARCHES=()
WORK=/var/tmp/gametable-pi-check
MIRROR=""
PREPARE=0
FRESH=0
KEEP=0

usage() {
    sed -n '2,19s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"
}

die() {
    echo "pi_check.sh: $*" >&2
    exit 1
}

while (($# > 0)); do
    case $1 in
    --arch)
        (($# >= 2)) || die "--arch needs arm64 or armhf"
        ARCHES+=("$2")
        shift
        ;;
    --work)
        (($# >= 2)) || die "--work needs a directory"
        WORK=$2
        shift
        ;;
    --mirror)
        (($# >= 2)) || die "--mirror needs a URL"
        MIRROR=$2
        shift
        ;;
    --prepare) PREPARE=1 ;;
    --fresh) FRESH=1 ;;
    --keep) KEEP=1 ;;
    -h | --help)
        usage
        exit 0
        ;;
    *) die "unknown argument: $1 (try --help)" ;;
    esac
    shift
done
((${#ARCHES[@]} > 0)) || ARCHES=(arm64 armhf)
for arch in "${ARCHES[@]}"; do
    [[ $arch == arm64 || $arch == armhf ]] || die "--arch: expected arm64 or armhf, got $arch"
done
[[ $WORK == /* ]] || WORK=$PWD/$WORK

# The first Debian mirror this machine's apt uses for $SUITE (deb822 .sources, then one-line
# .list files): the userland's apt must reach the same one.
machine_mirror() {
    local file
    for file in /etc/apt/sources.list.d/*.sources; do
        [[ -r $file ]] || continue
        awk -v suite="$SUITE" 'BEGIN { RS = ""; FS = "\n" }
            {
                uri = ""; ok = 0; deb = 0; off = 0
                for (i = 1; i <= NF; i++) {
                    split($i, kv, /:[ \t]*/)
                    if (kv[1] == "URIs") { split(substr($i, length(kv[1]) + 2), u, " "); uri = u[1] }
                    if (kv[1] == "Types" && $i ~ /(^|[ \t])deb([ \t]|$)/) deb = 1
                    if (kv[1] == "Suites" && $i ~ ("[ \t]" suite "([ \t]|$)")) ok = 1
                    if (kv[1] == "Enabled" && $i ~ /no/) off = 1
                }
                if (uri != "" && ok && deb && !off) { print uri; exit }
            }' "$file"
    done | head -n 1 | grep . && return 0
    cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
        awk -v suite="$SUITE" '$1 == "deb" && $0 !~ /\[/ && $3 == suite { print $2; exit }
            $1 == "deb" && $0 ~ /\[/ { sub(/\[[^]]*\][ \t]*/, ""); if ($3 == suite) { print $2; exit } }' |
        grep .
}

qemu_name() { # ARCH: binfmt_misc's name for its emulator
    case $1 in
    arm64) echo aarch64 ;;
    armhf) echo arm ;;
    esac
}

# --- preconditions -------------------------------------------------------------------------------

((EUID == 0)) || die "run as root (sudo $0): debootstrap and chroot need it"
command -v debootstrap >/dev/null || die "no debootstrap: apt-get install debootstrap qemu-user-static"
[[ -n $MIRROR ]] || MIRROR=$(machine_mirror) ||
    die "no Debian $SUITE mirror in /etc/apt/sources.list*: give one with --mirror URL"
if [[ ! -e /proc/sys/fs/binfmt_misc/status ]]; then
    mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc 2>/dev/null ||
        die "binfmt_misc is not mounted and cannot be (mount -t binfmt_misc failed): this" \
            "machine cannot run ARM programs in a chroot"
fi
for arch in "${ARCHES[@]}"; do
    entry=/proc/sys/fs/binfmt_misc/qemu-$(qemu_name "$arch")
    if [[ ! -e $entry ]] && command -v update-binfmts >/dev/null; then
        update-binfmts --enable "qemu-$(qemu_name "$arch")" >/dev/null 2>&1 || true
    fi
    [[ -e $entry ]] || die "no binfmt_misc entry $entry: apt-get install qemu-user-static" \
        "(its update-binfmts registers it)"
    [[ $(head -n 1 "$entry") == enabled ]] || die "$entry is disabled: update-binfmts --enable" \
        "qemu-$(qemu_name "$arch")"
done
mkdir -p "$WORK"

# --- mounts, undone on any exit ------------------------------------------------------------------

MOUNTS=() # mount points, in the order they were mounted

mount_in() { # mount ARGS... TARGET
    mount "$@"
    MOUNTS+=("${*: -1}")
}

unmount_all() {
    local i
    for ((i = ${#MOUNTS[@]} - 1; i >= 0; i--)); do
        umount -l "${MOUNTS[i]}" 2>/dev/null || true
    done
    MOUNTS=()
}
trap unmount_all EXIT

# A directory of ours, removed only when nothing is mounted under it (never the host's /dev).
remove_tree() { # DIR
    [[ -e $1 ]] || return 0
    if findmnt --list --noheadings --output TARGET | grep -q "^$1\(/\|$\)"; then
        die "$1 still has something mounted under it: not removing it"
    fi
    rm -rf --one-file-system "$1"
}

# /proc, /sys and the few device nodes a userland needs, the nodes bound one by one onto a
# tmpfs so that nothing of the host's /dev is reachable to be changed.
mount_system() { # ROOT
    local root=$1 node
    mount_in -t proc proc "$root/proc"
    mount_in -t sysfs -o ro sysfs "$root/sys"
    mount_in -t tmpfs -o mode=0755,size=16m tmpfs "$root/dev"
    for node in null zero full random urandom tty; do
        touch "$root/dev/$node"
        mount_in --bind "/dev/$node" "$root/dev/$node"
    done
    mkdir -p "$root/dev/pts" "$root/dev/shm"
    mount_in -t devpts -o newinstance,ptmxmode=0666 devpts "$root/dev/pts"
    ln -sf pts/ptmx "$root/dev/ptmx"
    mount_in -t tmpfs -o mode=1777 tmpfs "$root/dev/shm"
    ln -sf /proc/self/fd "$root/dev/fd"
}

# A binfmt_misc entry without the F flag opens its interpreter when a program starts, inside
# the chroot: put it there at the same path.
interpreter_in() { # ROOT ARCH
    local entry interpreter
    entry=/proc/sys/fs/binfmt_misc/qemu-$(qemu_name "$2")
    grep -q '^flags:.*F' "$entry" && return 0
    interpreter=$(awk '$1 == "interpreter" { print $2 }' "$entry")
    install -D -m 0755 "$interpreter" "$1$interpreter"
}

# --- the base userland ---------------------------------------------------------------------------

build_base() { # ARCH TARBALL
    local arch=$1 tarball=$2 root="$WORK/$1-base"
    echo "building the $SUITE $arch base userland from $MIRROR (debootstrap, then under qemu)"
    unmount_all
    remove_tree "$root"
    debootstrap --foreign --arch="$arch" --variant=minbase --include="$BASE_PACKAGES" \
        "$SUITE" "$root" "$MIRROR" || return 1
    interpreter_in "$root" "$arch"
    # the second stage mounts /proc and /dev/pts itself, and unmounts them when it ends
    chroot "$root" /debootstrap/debootstrap --second-stage || return 1
    echo "deb $MIRROR $SUITE main" >"$root/etc/apt/sources.list"
    echo raspberrypi >"$root/etc/hostname"
    rm -rf "$root/var/cache/apt/archives/"*.deb
    tar --numeric-owner -C "$root" -czf "$tarball.partial" . || return 1
    mv "$tarball.partial" "$tarball"
    remove_tree "$root"
}

# --- checking one kind of Pi ---------------------------------------------------------------------

RESULTS=() # "ARCH|STEP|passed/FAILED|seconds|note"

# The environment of a command in the userland: a Pi's plain one plus this machine's way to
# PyPI (its index and certificate settings, a proxy) and nothing else of the caller's.
plain_environment() {
    local name
    PLAIN=(PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root
        LANG=C.UTF-8 TERM=dumb)
    for name in PIP_INDEX_URL PIP_EXTRA_INDEX_URL PIP_TRUSTED_HOST PIP_CERT PIP_DEFAULT_TIMEOUT \
        PIP_RETRIES http_proxy https_proxy no_proxy HTTP_PROXY HTTPS_PROXY NO_PROXY; do
        [[ -n ${!name:-} ]] && PLAIN+=("$name=${!name}")
    done
    return 0
}
PLAIN=()
plain_environment

in_root() { # ROOT COMMAND...: run a command as root in the userland
    local root=$1
    shift
    chroot "$root" /usr/bin/env -i "${PLAIN[@]}" "$@"
}

# Copy this machine's pip configuration (and the certificate bundle it names) into the userland,
# so pip there reaches PyPI the way pip here does.
copy_pip_config() { # ROOT
    local root=$1 cert
    if [[ -r /etc/pip.conf ]]; then
        install -m 0644 /etc/pip.conf "$root/etc/pip.conf"
    fi
    for cert in "${PIP_CERT:-}" "$(awk -F' *= *' '$1 == "cert" { print $2 }' /etc/pip.conf 2>/dev/null)"; do
        [[ -n $cert && -r $cert ]] && install -D -m 0644 "$cert" "$root$cert"
    done
    install -m 0644 /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
}

step() { # ARCH NAME NOTE-ON-SUCCESS COMMAND...: run, time and record one step
    local arch=$1 name=$2 note=$3 start status
    shift 3
    echo "=== $arch: $name"
    start=$SECONDS
    if "$@"; then status=passed; else status=FAILED; fi
    RESULTS+=("$arch|$name|$status|$((SECONDS - start))|$note")
    echo "=== $arch: $name: $status ($((SECONDS - start)) s)"
    [[ $status == passed ]]
}

CONF=/etc/gametable/table.toml
GT=/opt/gametable/.venv/bin/gametable

check_install() { # ROOT
    local out
    out=$(mktemp)
    in_root "$1" bash -c 'cd /root/gametable && systemd/install.sh' 2>&1 | tee "$out"
    local status=${PIPESTATUS[0]}
    # without systemd as init the unit is enabled, and loading and starting it reported skipped
    grep -q '^skipped: systemctl daemon-reload; systemctl start gametable.service' "$out" &&
        [[ -L $1/etc/systemd/system/multi-user.target.wants/gametable.service ]] &&
        ((status == 0))
}

check_config() { # ROOT
    in_root "$1" "$GT" config check "$CONF"
}

# The installed config names lgpio and an I2C OLED; GPIOZERO_PIN_FACTORY=mock must win (R750),
# and with no panel on the bus here the OLED is switched off in a copy. Nobody presses a button,
# so selftest ends with "never pressed: ..." and status 1.
check_selftest() { # ROOT
    local out status
    sed '/^\[oled\]/,/^\[/ s/^enabled = true/enabled = false/' "$1$CONF" >"$1/root/no-oled.toml"
    out=$(in_root "$1" env GPIOZERO_PIN_FACTORY=mock "$GT" selftest --config /root/no-oled.toml \
        --seconds 1 2>&1) && status=0 || status=$?
    echo "$out"
    ((status == 1)) &&
        grep -q "^pin factory mock (from GPIOZERO_PIN_FACTORY; gpio.pin_factory 'lgpio' is overridden)" <<<"$out" &&
        grep -q '^led A standing' <<<"$out" && grep -q '^never pressed: A.stand' <<<"$out"
}

check_match() { # ROOT
    local out
    out=$(in_root "$1" "$GT" sim --headless --script /root/gametable/docs/scripts/combo4-match.jsonl) ||
        return 1
    tail -n 3 <<<"$out"
    grep -q '"event": "match_result"' <<<"$out"
}

# The daemon as the service runs it (its user, its state directory), on the mock factory,
# without the OLED and the scoreboard: it must come up ("event=ready") and stop on SIGTERM.
check_daemon() { # ROOT
    local root=$1 log=$1/root/daemon.log status waited=0
    sed '/^\[scoreboard\]/,/^\[/ s/^enabled = true/enabled = false/' "$root/root/no-oled.toml" \
        >"$root/tmp/mock-table.toml"
    chmod 0644 "$root/tmp/mock-table.toml"
    # chroot, env and setpriv each exec the next: $! ends up being the daemon itself
    chroot "$root" /usr/bin/env -i "${PLAIN[@]}" GPIOZERO_PIN_FACTORY=mock \
        STATE_DIRECTORY=/var/lib/gametable setpriv --reuid=gametable --regid=gametable \
        --init-groups "$GT" run --config /tmp/mock-table.toml >"$log" 2>&1 &
    local pid=$!
    while ! grep -q 'event=ready' "$log" && kill -0 "$pid" 2>/dev/null && ((waited < 180)); do
        sleep 2
        waited=$((waited + 2))
    done
    kill -TERM "$pid" 2>/dev/null || true
    wait "$pid" && status=0 || status=$?
    cat "$log"
    echo "exit status after SIGTERM: $status"
    grep -q 'event=pin_factory name=mock source=GPIOZERO_PIN_FACTORY' "$log" &&
        grep -q 'event=ready' "$log" && ((status == 0))
}

# The hub on the same userland: on arm64 it installs (mosquitto from apt, the [hub] extra's
# wheels) and pairs a round; on armhf it is refused in one line before anything changes (R752).
check_hub() { # ROOT ARCH
    local root=$1 out status
    out=$(in_root "$root" bash -c 'cd /root/gametable && systemd/install.sh --hub' 2>&1) &&
        status=0 || status=$?
    echo "$out"
    if [[ $2 == armhf ]]; then
        ((status == 1)) && grep -q "^install.sh: the hub's pairings need rustworkx" <<<"$out"
        return
    fi
    ((status == 0)) &&
        grep -q '^skipped: systemctl daemon-reload; systemctl reload-or-restart mosquitto' <<<"$out" &&
        printf 'name,school,players\nA,S1,Ann\nB,S2,Bo\nC,S3,Cy\nD,S4,Di\n' >"$root/tmp/teams.csv" &&
        in_root "$root" "$GT" tournament new --format combo4 --teams /tmp/teams.csv --db /tmp/t.db &&
        in_root "$root" "$GT" tournament pair --db /tmp/t.db --round 1
}

check_update() { # ROOT
    in_root "$1" bash -c 'cd /root/gametable && systemd/install.sh' 2>&1 | tail -n 5
    ((PIPESTATUS[0] == 0))
}

check_arch() { # ARCH
    local arch=$1 root="$WORK/$1-root" tarball="$WORK/$SUITE-$1.tar.gz"
    if ((FRESH)) || [[ ! -f $tarball ]]; then
        step "$arch" "base userland (debootstrap)" "$SUITE minbase + $BASE_PACKAGES" \
            build_base "$arch" "$tarball" || return 1
    fi
    ((PREPARE)) && return 0
    unmount_all
    remove_tree "$root"
    mkdir -p "$root"
    tar --numeric-owner -C "$root" -xzf "$tarball" || return 1
    interpreter_in "$root" "$arch"
    mount_system "$root"
    copy_pip_config "$root"
    # apt must not start daemons in a chroot: they would run on this machine's network
    printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d"
    chmod 0755 "$root/usr/sbin/policy-rc.d"
    # the checkout as a clone would have it: tracked files and new ones, nothing ignored
    mkdir -p "$root/root/gametable"
    git -C "$SOURCE" ls-files -z --cached --others --exclude-standard |
        (cd "$SOURCE" && tar --null --files-from=- --ignore-failed-read -cf -) |
        tar -C "$root/root/gametable" -xf -
    echo "$arch userland: $(in_root "$root" uname -m), $(in_root "$root" python3 --version)"

    step "$arch" "systemd/install.sh" "systemd steps skipped: no init in a chroot" \
        check_install "$root" || return 1
    if in_root "$root" sh -c 'command -v cargo || command -v rustc' >/dev/null; then
        RESULTS+=("$arch|no Rust toolchain|FAILED|0|cargo or rustc is installed")
    else
        RESULTS+=("$arch|no Rust toolchain|passed|0|none installed, none needed")
    fi
    in_root "$root" /opt/gametable/.venv/bin/pip list --format=freeze 2>/dev/null |
        sed "s/^/$arch venv: /"
    step "$arch" "gametable config check" "" check_config "$root" || true
    step "$arch" "gametable selftest (mock)" "exit 1: nobody pressed" check_selftest "$root" || true
    step "$arch" "headless match" "combo4-match.jsonl" check_match "$root" || true
    step "$arch" "gametable run (mock) to ready" "as user gametable" check_daemon "$root" || true
    step "$arch" "install.sh again (update)" "" check_update "$root" || true
    if [[ $arch == armhf ]]; then
        step "$arch" "install.sh --hub" "refused: no rustworkx for 32-bit ARM" \
            check_hub "$root" "$arch" || true
    else
        step "$arch" "install.sh --hub" "mosquitto, [hub]; round 1 paired" \
            check_hub "$root" "$arch" || true
    fi
    unmount_all
    ((KEEP)) || remove_tree "$root"
}

overall=0
for arch in "${ARCHES[@]}"; do
    echo "##### $arch: log $WORK/$arch.log"
    check_arch "$arch" >"$WORK/$arch.log" 2>&1 || overall=1
    grep -E '^=== .*: (passed|FAILED) \(' "$WORK/$arch.log" || true
done

echo
printf '%-6s  %-32s  %-7s  %6s  %s\n' arch step result seconds note
for row in "${RESULTS[@]}"; do
    IFS='|' read -r arch name status seconds note <<<"$row"
    printf '%-6s  %-32s  %-7s  %6s  %s\n' "$arch" "$name" "$status" "$seconds" "$note"
    [[ $status == passed ]] || overall=1
done
exit "$overall"
