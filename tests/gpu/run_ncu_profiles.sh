#!/usr/bin/env bash
# run_ncu_profiles.sh OUTDIR - Nsight Compute exports for `occ ncu` and the
# launch-time shared-memory configuration: the data in tests/data/ncu-*/.
#  1. smem_config_probe.cu: ~950 launches varying registers, static and
#     dynamic shared memory, block size and carveout preference, with the
#     inputs of each launch (smemcfg-launches.csv);
#  2. PyTorch (matmul, convolution, attention, layer norm, softmax) and
#     Triton kernels (ncu_workloads.py).
# Each is profiled once with the LaunchStats and Occupancy sections and
# exported as both the raw page (every metric a column) and the details
# page. Needs nvcc, ncu, a GPU, and python3 with torch and triton.
set -uo pipefail
out=${1:?usage: run_ncu_profiles.sh OUTDIR}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
command -v ncu >/dev/null || { echo "run_ncu_profiles: ncu not found" >&2; exit 77; }
sections=(--clock-control none --section LaunchStats --section Occupancy)
export_pages() { # REPORT NAME
    ncu --import "$1" --page raw --csv >"$out/$2-raw.csv" || return 1
    ncu --import "$1" --page details --csv >"$out/$2-details.csv" || return 1
}
nvcc -arch=sm_90 -Xptxas -v -o "$out/smem_config_probe" "$here/smem_config_probe.cu" \
    2>"$out/smemcfg-ptxas.txt" || exit 1
ncu "${sections[@]}" -o "$out/smemcfg" -f "$out/smem_config_probe" "$out/smemcfg-launches.csv" \
    >"$out/smemcfg-ncu.log" 2>&1 || { tail -5 "$out/smemcfg-ncu.log"; exit 1; }
export_pages "$out/smemcfg.ncu-rep" smemcfg || exit 1
for w in torch triton; do
    ncu "${sections[@]}" --launch-count 120 -o "$out/$w" -f python3 "$here/ncu_workloads.py" "$w" \
        >"$out/$w-ncu.log" 2>&1 || { tail -5 "$out/$w-ncu.log"; echo "$w: profiling failed"; continue; }
    export_pages "$out/$w.ncu-rep" "$w" || echo "$w: export failed"
done
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nvcc --version | tail -2
  ncu --version | tail -1; python3 -c 'import torch, triton; print("torch", torch.__version__, "triton", triton.__version__)'
  date -u; } >"$out/machine.txt" 2>&1
