#!/usr/bin/env bash
# run_ncu_sweep.sh OUTDIR - profiles tests/gpu/ncu_sweep.cu's kernels with
# Nsight Compute's Occupancy section and exports every launch__ metric, the
# occupancy curves (launch__occupancy_per_*) with all their x points, as
# CSV: the data in tests/data/ncu-sweep/. Needs nvcc, ncu and a GPU.
set -uo pipefail
out=${1:?usage: run_ncu_sweep.sh OUTDIR}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
command -v ncu >/dev/null || { echo "run_ncu_sweep: ncu not found" >&2; exit 77; }
nvcc -arch=sm_90 -Xptxas -v -o "$out/ncu_sweep" "$here/ncu_sweep.cu" 2>"$out/ptxas.txt" || exit 1
"$out/ncu_sweep" >"$out/attributes.txt" || exit 1
ncu --clock-control none --section Occupancy -o "$out/sweep" -f "$out/ncu_sweep" \
    >"$out/ncu_section.txt" 2>&1 || exit 1
ncu --import "$out/sweep.ncu-rep" --page raw --csv --print-metric-instances details \
    >"$out/ncu_raw.csv" || exit 1
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nvcc --version | tail -2
  ncu --version | tail -1; date -u; } >"$out/machine.txt"
