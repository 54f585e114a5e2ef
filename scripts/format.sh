#!/usr/bin/env bash
# format.sh - the C sources under .clang-format.
#   scripts/format.sh check   lists the files that differ from their format; exit 1 if any
#   scripts/format.sh fix     rewrites them in place
set -euo pipefail
cd "$(dirname "$0")/.."
mode="${1:-check}"
tool=""
for t in clang-format-14 clang-format; do
    if command -v "$t" >/dev/null 2>&1; then tool="$t"; break; fi
done
if [ -z "$tool" ]; then
    echo "format: clang-format not found (scripts/deps.sh test installs it)" >&2
    exit 1
fi
# Tracked and new C files; the CUDA experiments follow the same style by hand.
# (A file deleted but not yet committed is still listed: keep those that exist.)
mapfile -t files < <(git ls-files --cached --others --exclude-standard -- '*.c' '*.h' |
    grep -v '^tests/data/' | while read -r f; do [ -f "$f" ] && echo "$f"; done || true)
case "$mode" in
    fix) "$tool" -i "${files[@]}" ;;
    check)
        bad=0
        for f in "${files[@]}"; do
            if ! "$tool" --dry-run --Werror "$f" >/dev/null 2>&1; then
                echo "format: $f differs from .clang-format (make format fixes it)" >&2
                bad=1
            fi
        done
        exit $bad ;;
    *) echo "usage: scripts/format.sh check|fix" >&2; exit 2 ;;
esac
