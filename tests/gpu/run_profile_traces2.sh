#!/usr/bin/env bash
# run_profile_traces2.sh OCC OUTDIR - `occ lab trace` end to end on a GPU
# machine, and held-out launches for the launch-time shared-memory rule:
#  1. builds the CUPTI recorder (lab/trace/occ_trace_inject.c) with gcc;
#  2. `occ lab trace -- python3 lab/trace/sweep_workloads.py` (Triton tiles,
#     attention head sizes, cuBLAS shapes) and of profile_workloads.py train;
#  3. torch.profiler's trace of the sweep (CUDA activity only).
# OCC is an occ executable that runs there (a static build: the machine has
# no development packages). Everything lands in OUTDIR/profile-traces2.tar.gz.
set -uo pipefail
occ=${1:?usage: run_profile_traces2.sh OCC OUTDIR}
out=${2:?usage: run_profile_traces2.sh OCC OUTDIR}
here=$(cd "$(dirname "$0")" && pwd)
lab=$here/../../lab/trace
work=$(mktemp -d)
pack() { tar -C "$work" -czf "$out/profile-traces2.tar.gz" . ; }
mkdir -p "$out"
inc=$(dirname "$(find /usr/local/cuda/ -name cupti.h 2>/dev/null | head -1)")
libdir=$(dirname "$(find /usr/local/cuda/ -name 'libcupti.so*' 2>/dev/null | head -1)")
krec=$(grep -o 'CUpti_ActivityKernel[0-9]*' "$inc/cupti_activity.h" | sort -V | tail -1)
drec=$(grep -o 'CUpti_ActivityDevice[0-9]*' "$inc/cupti_activity.h" | sort -V | tail -1)
gcc -O2 -shared -fPIC -o "$work/libocc-trace.so" "$lab/occ_trace_inject.c" \
    -DOCC_KERNEL_RECORD="$krec" -DOCC_DEVICE_RECORD="$drec" -I"$inc" -I/usr/local/cuda/include \
    -L"$libdir" -lcupti -Wl,-rpath,"$libdir" || exit 1
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  python3 -c 'import torch, triton; print("torch", torch.__version__, "triton", triton.__version__)'
  echo "cupti $krec $drec"; date -u; } >"$work/machine.txt" 2>&1
t0=$(date +%s)
timeout 300 "$occ" lab trace --recorder "$work/libocc-trace.so" --output "$work/sweep.sqlite" -- \
    python3 "$lab/sweep_workloads.py" >"$work/sweep.log" 2>&1 || echo "sweep trace failed"
echo "lab trace sweep: $(( $(date +%s) - t0 )) s"; tail -3 "$work/sweep.log"
"$occ" profile "$work/sweep.sqlite" >"$work/sweep-profile.txt" 2>&1; tail -4 "$work/sweep-profile.txt"
pack
t0=$(date +%s)
timeout 200 "$occ" lab trace --recorder "$work/libocc-trace.so" --output "$work/train.sqlite" -- \
    python3 "$lab/profile_workloads.py" train >"$work/train.log" 2>&1 || echo "train trace failed"
echo "lab trace train: $(( $(date +%s) - t0 )) s"; tail -2 "$work/train.log"
"$occ" profile "$work/train.sqlite" >"$work/train-profile.txt" 2>&1; tail -3 "$work/train-profile.txt"
pack
t0=$(date +%s)
timeout 200 python3 "$lab/sweep_workloads.py" --torch-profile "$work/kineto-sweep.json" \
    >"$work/kineto-sweep.log" 2>&1 || echo "kineto sweep failed"
gzip -9 "$work/kineto-sweep.json"
echo "kineto sweep: $(( $(date +%s) - t0 )) s"
"$occ" profile "$work/kineto-sweep.json.gz" | tail -3
pack
ls -la "$work"
