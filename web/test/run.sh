#!/usr/bin/env bash
# run.sh BUILD_DIR OCC_BINARY WEB_AVAILABLE - the page's browser tests (CTest
# web_page): builds build/web/, then runs web/test/*.test.mjs with node's test
# runner against Debian's chromium. node, npm and chromium are test
# dependencies (scripts/deps.sh test installs them): without one the test fails
# and says which.
set -euo pipefail
build_dir=$1
occ_binary=$2
web_available=$3
here=$(cd "$(dirname "$0")" && pwd)
chromium=${OCC_CHROMIUM:-/usr/bin/chromium}

if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
    echo "web_page: node and npm are not installed (run scripts/deps.sh test, or apt-get install nodejs npm)" >&2
    exit 1
fi
if [ ! -x "$chromium" ]; then
    echo "web_page: no chromium at $chromium (run scripts/deps.sh test, or apt-get install chromium)" >&2
    exit 1
fi
if [ "$web_available" != "ON" ]; then
    echo "web_page: the page cannot be built: cmake found no clang for wasm32 (clang-14, lld-14)" >&2
    exit 1
fi

cmake --build "$build_dir" --target web
mkdir -p "$build_dir/web-test-artifacts"
export OCC_WEB_DIR="$build_dir/web"
export OCC_BINARY="$occ_binary"
export OCC_CHROMIUM="$chromium"
export OCC_WEB_ARTIFACTS="$build_dir/web-test-artifacts"
# One file at a time: each drives its own browser, and the machine may have two cores.
# The output (with the repaint times) is kept beside the screenshots.
node --test --test-concurrency=1 "$here"/*.test.mjs 2>&1 | tee "$OCC_WEB_ARTIFACTS/test-output.txt"
