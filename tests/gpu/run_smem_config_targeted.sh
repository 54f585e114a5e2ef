#!/usr/bin/env bash
# run_smem_config_targeted.sh OUTDIR - the second set of launches for the
# launch-time shared-memory configuration (docs/occupancy-rules.md, "The
# configuration at launch"): smem_config_probe.cu's targeted points (grids,
# 800..992-thread blocks, a few bytes of shared memory with and without the
# opt-in, one block by registers, carveouts without shared memory, cache
# preferences), about 90 launches, profiled as run_ncu_profiles.sh profiles
# the first set. Writes smemcfg2-launches.csv, smemcfg2-raw.csv and
# smemcfg2-details.csv, the ptxas output and machine.txt. Needs nvcc, ncu
# and a GPU.
set -uo pipefail
out=${1:?usage: run_smem_config_targeted.sh OUTDIR}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
command -v ncu >/dev/null || { echo "run_smem_config_targeted: ncu not found" >&2; exit 77; }
command -v nvcc >/dev/null || { echo "run_smem_config_targeted: nvcc not found" >&2; exit 77; }
nvcc -arch=sm_90 -Xptxas -v -o "$out/smem_config_probe" "$here/smem_config_probe.cu" \
    2>"$out/smemcfg2-ptxas.txt" || exit 1
ncu --clock-control none --section LaunchStats --section Occupancy -o "$out/smemcfg2" -f \
    "$out/smem_config_probe" "$out/smemcfg2-launches.csv" targeted \
    >"$out/smemcfg2-ncu.log" 2>&1 || { tail -5 "$out/smemcfg2-ncu.log"; exit 1; }
ncu --import "$out/smemcfg2.ncu-rep" --page raw --csv >"$out/smemcfg2-raw.csv" || exit 1
ncu --import "$out/smemcfg2.ncu-rep" --page details --csv >"$out/smemcfg2-details.csv" || exit 1
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nvcc --version | tail -2
  ncu --version | tail -1; date -u; } >"$out/machine.txt" 2>&1
wc -l "$out/smemcfg2-launches.csv"
