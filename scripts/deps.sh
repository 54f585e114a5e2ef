#!/usr/bin/env bash
# deps.sh - installs the Debian packages occ needs to build and test.
# As root it installs what is missing; otherwise it prints the command.
#   scripts/deps.sh build   what `make` and `make run` need
#   scripts/deps.sh web     what `make web` needs as well (the occupancy page)
#   scripts/deps.sh test    what `make test` needs as well (web included)
set -euo pipefail

build_pkgs=(gcc make cmake pkg-config libjansson-dev liblz4-dev libzstd-dev libiberty-dev
    libsqlite3-dev libyajl-dev zlib1g-dev)
test_pkgs=(libcmocka-dev zlib1g-dev clang-14 clang-format-14 lld-14 libclang-rt-14-dev chromium git
    groff-base man-db python3-venv python3-pip python3-setuptools python3-wheel python3-pytest python3-numpy)
web_pkgs=(clang-14 lld-14)

want=("${build_pkgs[@]}")
case "${1:-build}" in
    test) want+=("${test_pkgs[@]}") ;;
    web) want+=("${web_pkgs[@]}") ;;
esac
# node and npm may come from elsewhere than Debian (NodeSource ships both in
# one package): ask for Debian's only where the commands are missing.
if [ "${1:-build}" != "build" ]; then
    command -v node >/dev/null 2>&1 || want+=(nodejs)
    command -v npm >/dev/null 2>&1 || want+=(npm)
fi

missing=()
for p in "${want[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep >/dev/null "install ok installed"; then
        missing+=("$p")
    fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -eq 0 ]; then
    echo "deps: installing ${missing[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
    echo "deps: missing Debian packages; run:" >&2
    echo "  sudo apt-get update && sudo apt-get install -y ${missing[*]}" >&2
    exit 1
fi
