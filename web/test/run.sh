#!/usr/bin/env bash
# run.sh BUILD_DIR OCC_BINARY WEB_AVAILABLE [PART] - the page's browser tests:
# web/test/*.test.mjs with node's test runner against Debian's chromium, over
# build/web/. PART is `page` (every file but the timing test; CTest web_page),
# `repaint` (repaint.test.mjs, which CTest runs alone: web_repaint), `build`
# (only builds build/web/: the fixture both need), or `all` (the default:
# build, then every file). node, npm and chromium are test dependencies
# (scripts/deps.sh test installs them): without one the test fails and says
# which.
set -euo pipefail
build_dir=$1
occ_binary=$2
web_available=$3
part=${4:-all}
here=$(cd "$(dirname "$0")" && pwd)
chromium=${OCC_CHROMIUM:-/usr/bin/chromium}

if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
    echo "occ web tests: node and npm are not installed (run scripts/deps.sh test, or apt-get install nodejs npm)" >&2
    exit 1
fi
if [ ! -x "$chromium" ]; then
    echo "occ web tests: no chromium at $chromium (run scripts/deps.sh test, or apt-get install chromium)" >&2
    exit 1
fi
if [ "$web_available" != "ON" ]; then
    echo "occ web tests: the page cannot be built: cmake found no clang for wasm32 (clang-14, lld-14)" >&2
    exit 1
fi

case "$part" in
    build) exec cmake --build "$build_dir" --target web ;;
    all) cmake --build "$build_dir" --target web ;;
    page | repaint) ;;
    *) echo "run.sh: '$part' is not a part; parts are page, repaint, build, all" >&2; exit 2 ;;
esac
mkdir -p "$build_dir/web-test-artifacts"
export OCC_WEB_DIR="$build_dir/web"
export OCC_BINARY="$occ_binary"
export OCC_CHROMIUM="$chromium"
export OCC_WEB_ARTIFACTS="$build_dir/web-test-artifacts"
# One file at a time: each drives its own browser, and the machine may have two cores.
# The output (with the repaint times) is kept beside the screenshots.
files=()
for f in "$here"/*.test.mjs; do
    case "$part:$(basename "$f")" in
        page:repaint.test.mjs | repaint:*) ;;
        *) files+=("$f") ;;
    esac
done
[ "$part" != repaint ] || files=("$here/repaint.test.mjs")
node --test --test-concurrency=1 "${files[@]}" 2>&1 | tee "$OCC_WEB_ARTIFACTS/test-output-$part.txt"
