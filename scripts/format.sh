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
        # clang-format over batches of files, as many at once as there are
        # cores (one process per file took 31 s on 2 cores; one per batch
        # takes a few). It names each unformatted file in its warnings.
        jobs=$(nproc 2>/dev/null || echo 2)
        out=$(printf '%s\0' "${files[@]}" |
            xargs -0 -P "$jobs" -n 64 "$tool" --dry-run --Werror 2>&1 >/dev/null) && rc=0 || rc=$?
        bad=$(grep -E '^[^:]+:[0-9]+:[0-9]+: error: code should be clang-formatted' <<< "$out" |
            sed -E 's/:[0-9]+:[0-9]+: error: .*$//' | sort -u || true)
        while read -r f; do
            [ -z "$f" ] || echo "format: $f differs from .clang-format (make format fixes it)" >&2
        done <<< "$bad"
        if [ "$rc" != 0 ] && [ -z "$bad" ]; then
            # clang-format failed for another reason: show what it said
            echo "format: $tool failed: $(head -5 <<< "$out")" >&2
        fi
        [ "$rc" = 0 ] ;;
    *) echo "usage: scripts/format.sh check|fix" >&2; exit 2 ;;
esac
