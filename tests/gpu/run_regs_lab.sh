#!/usr/bin/env bash
# Builds `occ lab regs` (issue 20) without a GPU: every kernel of
# lab/regs/kernels.tsv compiled to PTX, then by ptxas at no register cap and
# at every cap from ptxas's lowest (24 on sm_90) up to 255 in steps of 8 (and
# 255), with each compile's `ptxas -v` log beside its cubin, and the runner
# regs_bench, tested against a fake libcuda. The GPU machine then needs only
# this folder (carried: it is ignored by git, build-*/) and the table; from
# the repository root there (docs/lab.md, "occ lab regs"):
#
#   OCC_REGS_BENCH=build-regs-lab/regs_bench occ lab regs --distinct --rounds 7 \
#       --save $OUT/regs-times.jsonl
#
# (or the runner alone: ./build-regs-lab/regs_bench --distinct --rounds 7
# lab/regs/kernels.tsv build-regs-lab/cubins > $OUT/regs-times.jsonl), and
# back here:
#
#   occ lab regs --records regs-times.jsonl --ptx build-regs-lab/ptx --markdown
#
# Compiling stays here, not in occ lab regs: it needs the toolkit, and the
# GPU machine then needs only the cubins and a runner.
#
# regs_bench links libc (glibc 2.34 or later) and the driver's libcuda.so.1
# only. Where the GPU machine's glibc is older, build it there instead:
#   nvcc -x c++ -O2 -o regs_bench lab/regs/regs_bench.cu -L$CUDA_HOME/lib64/stubs -lcuda
#
# Usage: tests/gpu/run_regs_lab.sh [OUT_DIR]    (default build-regs-lab)
# Environment: CUDA_HOME (default /usr/local/cuda), NVCC, PTXAS, JOBS (parallel
# compiles, default 2), OCC (an occ with `occ regs`: its --json document for
# each kernel, at the row's block size on an H200, goes to
# OUT_DIR/occ-regs/NAME.json, occ lab regs's --recommended).
# A cubin newer than its PTX is kept, so a second run compiles only what
# changed. Exits 77 (skipped) without nvcc or ptxas, 1 when a compile fails
# or the folder grows past 40 MiB (too large to carry).
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-$root/build-regs-lab}
cuda=${CUDA_HOME:-/usr/local/cuda}
nvcc=${NVCC:-$cuda/bin/nvcc}
ptxas=${PTXAS:-$(dirname "$nvcc")/ptxas}
jobs=${JOBS:-2}
table=$root/lab/regs/kernels.tsv
kernels=$root/lab/regs/kernels

for tool in "$nvcc" "$ptxas"; do
    if [ ! -x "$tool" ]; then
        echo "SKIPPED: $tool not found (set CUDA_HOME, NVCC or PTXAS)"
        exit 77
    fi
done

started=$(date +%s)
rm -rf "$out/occ-regs"
mkdir -p "$out/ptx" "$out/cubins"

# The runner first, so that a broken one fails in seconds, not after the
# compiles. Only the driver API: compiled as host C++ (-x c++), so no CUDA
# runtime is linked; libcuda.so.1 comes from the GPU machine's driver (the
# stub here only links).
"$nvcc" -x c++ -O2 -Xcompiler -Wall,-Wextra,-Werror -o "$out/regs_bench" \
    "$root/lab/regs/regs_bench.cu" -L"$cuda/lib64/stubs" -lcuda
# Its hang, crash and restart paths, against a fake libcuda (no GPU needed).
"$root/lab/regs/test_regs_bench.sh" "$out/regs_bench" > "$out/test_regs_bench.txt" ||
    { cat "$out/test_regs_bench.txt"; echo "run_regs_lab.sh: the runner failed its test"; exit 1; }
tail -n 1 "$out/test_regs_bench.txt"

# The table's rows: name, file, threads, grid, dyn_smem_bytes, arch (columns
# found by the header's names, as regs_bench finds them).
rows=$(awk -F'\t' '
    /^#/ || NF == 0 { next }
    !header { for (i = 1; i <= NF; i++) col[$i] = i; header = 1; next }
    { print $col["name"], $col["file"], $col["threads"], $col["dyn_smem_bytes"], $col["arch"] }
' "$table")
[ -n "$rows" ] || { echo "run_regs_lab.sh: no kernels in $table"; exit 1; }

# 1. PTX, once a kernel: -arch=compute_90 or compute_90a, as the row's arch.
# A PTX file is replaced only when its text changed, so that step 3 can keep
# the cubins of unchanged kernels. (Arguments travel through xargs, so the
# paths must not hold spaces.)
ptx='
    name=$1 file=$2 arch=$3 nvcc=$4 kernels=$5 out=$6
    "$nvcc" -ptx -O3 -arch="compute_${arch#sm_}" -o "$out/ptx/$name.ptx.new" "$kernels/$file" ||
        { echo "nvcc -ptx failed: $file"; exit 1; }
    if cmp -s "$out/ptx/$name.ptx.new" "$out/ptx/$name.ptx"; then
        rm "$out/ptx/$name.ptx.new"
    else
        mv "$out/ptx/$name.ptx.new" "$out/ptx/$name.ptx"
    fi
'
echo "$rows" | awk -v n="$nvcc" -v k="$kernels" -v o="$out" '{print $1, $2, $5, n, k, o}' |
    xargs -P "$jobs" -L 1 bash -c "$ptx" _ || { echo "run_regs_lab.sh: nvcc -ptx failed"; exit 1; }

# 2. ptxas's lowest --maxrregcount for each arch: a cap of 1 is raised to it
# ("For profile sm_90 adjusting per thread register count of 1 to lower bound of 24").
declare -A min_cap
for arch in $(echo "$rows" | awk '{print $5}' | sort -u); do
    probe=$(echo "$rows" | awk -v a="$arch" '$5 == a {print $1; exit}')
    msg=$("$ptxas" -arch="$arch" --maxrregcount 1 "$out/ptx/$probe.ptx" -o /dev/null 2>&1 || true)
    low=$(echo "$msg" | sed -n 's/.*lower bound of \([0-9][0-9]*\).*/\1/p' | head -n 1)
    if [ -z "$low" ]; then
        echo "run_regs_lab.sh: ptxas -arch=$arch did not say its lowest register count: $msg"
        exit 1
    fi
    min_cap[$arch]=$low
done

# 3. Every kernel at no cap and at each cap, two compiles at a time; a
# cubin newer than its PTX and than ptxas is kept.
caps_for() {
    local low=$1 caps
    caps=$(seq "$low" 8 255)
    [ "$(echo "$caps" | tail -n 1)" = 255 ] || caps="$caps 255"
    echo $caps
}
list=$out/compiles.txt
: > "$list"
while read -r name _file _threads _dyn arch; do
    echo "$name $arch none" >> "$list"
    for cap in $(caps_for "${min_cap[$arch]}"); do
        echo "$name $arch $cap" >> "$list"
    done
done <<< "$rows"
compile='
    name=$1 arch=$2 cap=$3 ptxas=$4 out=$5
    if [ "$cap" = none ]; then
        base=$out/cubins/$name.none; flag=
    else
        base=$out/cubins/$name.cap$(printf %03d "$cap"); flag="--maxrregcount $cap"
    fi
    if [ "$base.cubin" -nt "$out/ptx/$name.ptx" ] && [ "$base.cubin" -nt "$ptxas" ] &&
        [ -s "$base.log" ]; then
        exit 0
    fi
    rm -f "$base.cubin"
    "$ptxas" -v -arch="$arch" $flag "$out/ptx/$name.ptx" -o "$base.cubin" > "$base.log" 2>&1 ||
        { rm -f "$base.cubin"; echo "ptxas failed: $name at cap $cap (see $base.log)"; exit 1; }
'
# Cubins and logs of kernels or caps no longer listed go.
find "$out/cubins" -type f | sed 's|.*/||; s/\.\(cubin\|log\)$//' | sort -u |
    comm -23 - <(awk '{ if ($3 == "none") print $1 ".none"; else printf "%s.cap%03d\n", $1, $3 }' \
        "$list" | sort -u) |
    while read -r stale; do rm -f "$out/cubins/$stale.cubin" "$out/cubins/$stale.log"; done
status=0
xargs -P "$jobs" -L 1 bash -c "$compile" _ < <(sed "s|\$| $ptxas $out|" "$list") || status=$?
compiles=$(wc -l < "$list")
cubins=$(find "$out/cubins" -name '*.cubin' | wc -l)
if [ "$status" -ne 0 ] || [ "$cubins" -ne "$compiles" ]; then
    echo "run_regs_lab.sh: $cubins of $compiles compiles made a cubin"
    exit 1
fi

# 4. Optional: occ regs's recommendations, one document a kernel.
if [ -n "${OCC:-}" ]; then
    mkdir -p "$out/occ-regs"
    while read -r name _file threads dyn arch; do
        "$OCC" regs "$out/ptx/$name.ptx" --gpu H200 --arch "$arch" --threads "$threads" \
            --dyn-smem "$dyn" --json > "$out/occ-regs/$name.json" ||
            echo "run_regs_lab.sh: occ regs failed on $name (continuing)"
    done <<< "$rows"
fi

{
    "$nvcc" --version | tail -n 2
    "$ptxas" --version | tail -n 1
    for arch in "${!min_cap[@]}"; do echo "$arch: caps $(caps_for "${min_cap[$arch]}")"; done
} > "$out/toolchain.txt"

elapsed=$(( $(date +%s) - started ))
kernel_count=$(echo "$rows" | wc -l)
size=$(du -sb "$out" | cut -f1)
echo "run_regs_lab.sh: $kernel_count kernels, $cubins cubins and logs, the runner: $out"
echo "run_regs_lab.sh: ${elapsed} s with $jobs jobs; $(( size / 1024 )) KiB in all"
if [ "$size" -gt $(( 40 * 1024 * 1024 )) ]; then
    echo "run_regs_lab.sh: more than 40 MiB: too large to carry to the GPU machine"
    exit 1
fi
rel=${out#"$root"/}
echo "On the GPU machine (from the repository root, carrying $rel):"
echo "  OCC_REGS_BENCH=$rel/regs_bench occ lab regs --cubins $rel/cubins --distinct --rounds 7" \
    "--save \$OUT/regs-times.jsonl"
echo "Then here:"
echo "  occ lab regs --records regs-times.jsonl --ptx $rel/ptx --markdown > regs-regret.md"
