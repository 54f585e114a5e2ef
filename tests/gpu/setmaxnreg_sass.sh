#!/usr/bin/env bash
# Holds occ's reading of USETMAXREG from a cubin (docs/setmaxnreg.md, "Reading
# USETMAXREG from the cubin") to NVIDIA's own disassembler, in one command:
#
#   tests/gpu/setmaxnreg_sass.sh [CUBIN...]
#
# Without arguments it reads tests/data/setmaxnreg/*.cubin and, where ptxas is
# found, the reproducers' PTX compiled again for sm_90a, sm_100a and sm_120a.
# For every instruction cuobjdump -sass (else nvdisasm -hex) prints, it checks
# what occ assumes:
#   - bits 0-11 of the first 64-bit word are 0x9c8 exactly for USETMAXREG;
#   - bits 32-40 of that word are the register count the text shows;
#   - bits 8-9 of the second word are 2 for TRY_ALLOC (setmaxnreg.inc) and 1
#     for DEALLOC (setmaxnreg.dec).
# It prints each USETMAXREG with both words (what to compare by eye) and a
# count per file; exits 1 on any disagreement, 77 without cuobjdump or
# nvdisasm. Needs no GPU: the disassembler reads files.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
PATH=$PATH:${CUDA_HOME:-/usr/local/cuda}/bin:/usr/local/cuda/bin
if command -v cuobjdump >/dev/null 2>&1; then
    disassemble() { cuobjdump -sass "$1"; }
    tool="cuobjdump -sass ($(cuobjdump --version | tail -1))"
elif command -v nvdisasm >/dev/null 2>&1; then
    disassemble() { nvdisasm -hex "$1"; }
    tool="nvdisasm -hex ($(nvdisasm --version | tail -1))"
else
    echo "SKIPPED: neither cuobjdump nor nvdisasm found (install the CUDA toolkit)"
    exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
files=("$@")
if [ ${#files[@]} -eq 0 ]; then
    files=("$root"/tests/data/setmaxnreg/*.cubin)
    if command -v ptxas >/dev/null 2>&1; then
        data=$root/tests/data/setmaxnreg
        for arch in sm_90a sm_100a sm_120a; do
            for ptx in fits cutlass_style tid_compare oversubscribed idle_group plain; do
                src=$data/$ptx.ptx
                [ "$arch" = sm_90a ] || src=$work/$ptx.$arch.ptx
                [ "$arch" = sm_90a ] || sed "s/^\.target sm_90a/.target $arch/" "$data/$ptx.ptx" >"$src"
                ptxas -arch=$arch "$src" -o "$work/$ptx.$arch.cubin"
                files+=("$work/$ptx.$arch.cubin")
            done
        done
    fi
fi
echo "disassembler: $tool"
echo "ptxas: $(command -v ptxas >/dev/null 2>&1 && ptxas --version | tail -1 || echo none)"
status=0
with_code=0
for f in "${files[@]}"; do
    disassemble "$f" >"$work/sass.txt"
    rc=0
    python3 - "$f" "$work/sass.txt" <<'EOF' || rc=$?
import re, sys
name, path = sys.argv[1], sys.argv[2]
lines = open(path).read().splitlines()
instr = re.compile(r'/\*([0-9a-f]{4,})\*/\s+(.*?)\s*/\*\s*(0x[0-9a-f]{16})\s*\*/')
word = re.compile(r'^\s*/\*\s*(0x[0-9a-f]{16})\s*\*/\s*$')
count = found = bad = 0
for i, line in enumerate(lines):
    m = instr.search(line)
    if not m or i + 1 >= len(lines) or not word.match(lines[i + 1]):
        continue
    text = m.group(2).rstrip(' ;')
    lo, hi = int(m.group(3), 16), int(word.match(lines[i + 1]).group(1), 16)
    count += 1
    is_usetmaxreg = re.search(r'\bUSETMAXREG\b', text) is not None
    opcode_says = (lo & 0xfff) == 0x9c8
    problems = []
    if is_usetmaxreg != opcode_says:
        problems.append('bits 0-11 are 0x%03x' % (lo & 0xfff))
    if is_usetmaxreg:
        found += 1
        numbers = re.findall(r'(0x[0-9a-f]+|\b\d+\b)\s*$', text)
        shown = int(numbers[0], 0) if numbers else None
        if shown != (lo >> 32) & 0x1ff:
            problems.append('bits 32-40 hold %d, the text %s' % ((lo >> 32) & 0x1ff, shown))
        form = (hi >> 8) & 3
        want = 2 if 'TRY_ALLOC' in text else 1 if 'DEALLOC' in text else None
        if form != want:
            problems.append('second word bits 8-9 are %d' % form)
        print('  %s @%s %-44s %016x %016x %s' % (name.split('/')[-1], m.group(1), text, lo, hi,
                                                  'ok' if not problems else 'MISMATCH'))
    if problems:
        bad += 1
        print('MISMATCH %s @%s: %s: %s' % (name, m.group(1), text, '; '.join(problems)))
print('%s: %d instructions, %d USETMAXREG, %d disagreements' % (name.split('/')[-1], count, found, bad))
# 2: no code in it (a library's cubin may hold only data): not a failure alone
sys.exit(1 if bad else 2 if count == 0 else 0)
EOF
    case $rc in
    0) with_code=$((with_code + 1)) ;;
    1) with_code=$((with_code + 1)); status=1 ;;
    2) ;;
    *) status=1 ;;
    esac
done
if [ $with_code -eq 0 ]; then
    echo "USETMAXREG: no instructions read in any file: is the disassembler's format another?"
    status=1
fi
[ $status -eq 0 ] && echo "USETMAXREG: occ's reading agrees with the disassembler on every file" \
    || echo "USETMAXREG: DISAGREEMENTS above"
exit $status
