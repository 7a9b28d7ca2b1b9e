#!/usr/bin/env bash
# What `make run` and `make test` need from Debian beyond pip's wheels, checked before anything
# else runs. Missing packages are installed with apt-get when this runs as root or with a sudo
# that asks no password; otherwise it stops with one line naming them in the one command to run.
#
#   run:  python3-venv (Debian's python3 keeps ensurepip there; without it there is no .venv).
#         Nothing else: pygame's wheel carries its own SDL, and the simulator draws in the
#         terminal.
#   test: that, and the suite's tools: shellcheck (systemd/install.sh), tmux (the simulator as a
#         person sees it), mosquitto (the hub's tests start their own broker), chromium (the web
#         pages in a real browser, driven by Playwright), openssl (the TLS tests' throw-away CA),
#         systemd (systemd-analyze verifies the shipped units) and poppler-utils (a round's
#         printed PDF counted and drawn: pdfinfo, pdftoppm).
#
# PYTHON names the interpreter the Makefile makes .venv with (python3 by default).
set -euo pipefail

SUITE_PACKAGES=(shellcheck tmux mosquitto chromium openssl systemd poppler-utils)

usage() {
    echo "usage: debian-packages.sh run|test" >&2
    exit 2
}

[ "$#" -eq 1 ] || usage
case "$1" in
    run) wanted=() ;;
    test) wanted=("${SUITE_PACKAGES[@]}") ;;
    *) usage ;;
esac
target=$1
python=${PYTHON:-python3}

missing=()
if ! "$python" -c 'import ensurepip, venv' >/dev/null 2>&1; then
    missing+=(python3-venv)
fi
if [ "${#wanted[@]}" -gt 0 ]; then
    if ! command -v dpkg-query >/dev/null 2>&1; then
        echo "make $target: not a Debian system; it needs ${wanted[*]} (Debian's names)" >&2
    else
        for package in "${wanted[@]}"; do
            status=$(dpkg-query -W -f='${db:Status-Status}' "$package" 2>/dev/null || true)
            [ "$status" = installed ] || missing+=("$package")
        done
    fi
fi
[ "${#missing[@]}" -eq 0 ] && exit 0

if [ "$(id -u)" -eq 0 ]; then
    as_root=()
elif command -v sudo >/dev/null 2>&1 && sudo -n true >/dev/null 2>&1; then
    as_root=(sudo -n)
else
    echo "make $target needs Debian packages that are not installed; run: sudo apt-get install ${missing[*]}" >&2
    exit 1
fi
echo "make $target: installing ${missing[*]} from Debian's packages" >&2
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
