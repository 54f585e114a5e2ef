#!/usr/bin/env bash
# run_diff_launches.sh OCC OUTDIR - `occ diff` of two builds at the launches a
# real run made (docs/results/diff-launches-h200): tests/gpu/trace_probe.cu
# built twice (the new build's heavy kernel has 32 KB of static shared memory
# instead of 16), the old build's run recorded by `occ lab trace` (CUPTI, as
# Nsight Systems' SQLite), then
#   occ diff --gpu H200 --launches probe.sqlite --fail-on occupancy-10% OLD NEW
# in text, Markdown and JSON, and the same at --threads 256 for comparison.
set -uo pipefail
occ=${1:?usage: run_diff_launches.sh OCC OUTDIR}
out=${2:?usage: run_diff_launches.sh OCC OUTDIR}
root=$(cd "$(dirname "$0")/../.." && pwd)
PATH=$PATH:/usr/local/cuda/bin
inc=$(dirname "$(find /usr/local/cuda/ -name cupti.h 2>/dev/null | head -1)")
lib=$(dirname "$(find /usr/local/cuda/ -name 'libcupti.so*' 2>/dev/null | head -1)")
krec=$(grep -o 'CUpti_ActivityKernel[0-9]*' "$inc/cupti_activity.h" | sort -V | tail -1)
drec=$(grep -o 'CUpti_ActivityDevice[0-9]*' "$inc/cupti_activity.h" | sort -V | tail -1)
mkdir -p "$out"
work=$(mktemp -d)
gcc -O2 -shared -fPIC -o "$work/libocc-trace.so" "$root/lab/trace/occ_trace_inject.c" \
    -DOCC_KERNEL_RECORD="$krec" -DOCC_DEVICE_RECORD="$drec" -I"$inc" -I/usr/local/cuda/include \
    -L"$lib" -lcupti -Wl,-rpath,"$lib" || exit 1
nvcc -std=c++17 -O2 -arch=sm_90 -o "$work/probe-old" "$root/tests/gpu/trace_probe.cu" || exit 1
nvcc -std=c++17 -O2 -arch=sm_90 -DHEAVY_TILE_FLOATS=8192 -o "$work/probe-new" \
    "$root/tests/gpu/trace_probe.cu" || exit 1
"$occ" lab trace --recorder "$work/libocc-trace.so" --output "$out/probe.sqlite" -- \
    "$work/probe-old" >"$out/launches-made.txt" || exit 1
cd "$work"
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nvcc --version | tail -1
  "$occ" --version; date -u; } >"$out/machine.txt"
for form in text markdown json; do
    flag=""; [ "$form" = text ] || flag="--$form"
    "$occ" diff --gpu H200 --launches "$out/probe.sqlite" --fail-on occupancy-10% $flag \
        probe-old probe-new >"$out/diff-launches.$form" 2>>"$out/diff-stderr.txt"
    echo "diff --launches ($form): exit $?" >>"$out/exit-codes.txt"
done
"$occ" diff --gpu H200 --threads 256 --fail-on occupancy-10% probe-old probe-new \
    >"$out/diff-threads-256.text" 2>>"$out/diff-stderr.txt"
echo "diff --threads 256: exit $?" >>"$out/exit-codes.txt"
cat "$out/exit-codes.txt"
head -40 "$out/diff-launches.text"
rm -rf "$work"
