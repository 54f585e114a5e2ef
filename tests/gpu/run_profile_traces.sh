#!/usr/bin/env bash
# run_profile_traces.sh OUTDIR - whole-program traces of real work for
# `occ profile` (tests/data/profile-h200, docs/results/profile-h200):
# lab/trace/profile_workloads.py's five workloads, each run
#  1. under torch.profiler: a Kineto Chrome trace (kineto-W.json);
#  2. under occ's CUPTI recorder (lab/trace/occ_trace_inject.c, loaded by the
#     driver through CUDA_INJECTION64_PATH): every launch's CUpti_ActivityKernel
#     record (cupti-W.tsv), which `occ lab trace --convert` writes as Nsight
#     Systems' SQLite schema;
#  3. under Nsight Compute, the first launches only (ncu-W-raw.csv).
# Each step has its own time limit and everything is packed into
# OUTDIR/profile-traces.tar.gz after each, so a step that runs out of time
# leaves the others. Needs gcc, CUPTI's headers, ncu, python3 with torch.
set -uo pipefail
out=${1:?usage: run_profile_traces.sh OUTDIR}
here=$(cd "$(dirname "$0")" && pwd)
lab=$here/../../lab/trace
work=$(mktemp -d)
pack() { tar -C "$work" -czf "$out/profile-traces.tar.gz" . ; }
mkdir -p "$out"
workloads=(gemm attn conv reduce train)

{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nvcc --version | tail -2
  ncu --version | tail -1
  python3 -c 'import torch, triton; print("torch", torch.__version__, "triton", triton.__version__, "cudnn", torch.backends.cudnn.version())'
  date -u; } >"$work/machine.txt" 2>&1
cat "$work/machine.txt"

# CUPTI: the toolkit's, else the one in PyTorch's wheels.
inc=$(dirname "$(find /usr/local/cuda/ /usr/local/cuda*/extras -name cupti.h 2>/dev/null | head -1)")
[ -f "$inc/cupti.h" ] || inc=$(dirname "$(python3 -c 'import nvidia, os; print(os.path.dirname(nvidia.__path__[0]))' 2>/dev/null)" )
libdir=$(dirname "$(find /usr/local/cuda/ /usr/local/cuda*/extras -name 'libcupti.so*' 2>/dev/null | head -1)")
krec=$(grep -o 'CUpti_ActivityKernel[0-9]*' "$inc/cupti_activity.h" | sort -V | tail -1)
drec=$(grep -o 'CUpti_ActivityDevice[0-9]*' "$inc/cupti_activity.h" | sort -V | tail -1)
echo "cupti: $inc $libdir $krec $drec" | tee -a "$work/machine.txt"
if ! gcc -O2 -shared -fPIC -o "$work/libocc_trace.so" "$lab/occ_trace_inject.c" \
        -DOCC_KERNEL_RECORD="$krec" -DOCC_DEVICE_RECORD="$drec" -I"$inc" -I/usr/local/cuda/include \
        -L"$libdir" -lcupti -Wl,-rpath,"$libdir" 2>"$work/inject-build.log"; then
    cat "$work/inject-build.log"
    sed -n "/^typedef struct PACKED_ALIGNMENT {/,/} $krec;/p" "$inc/cupti_activity.h" | tail -160 \
        >"$work/kernel-record.h"
    echo "recorder build failed; the struct is in kernel-record.h"
fi
pack

for w in "${workloads[@]}"; do
    t0=$(date +%s)
    timeout 240 python3 "$lab/profile_workloads.py" --torch-profile "$work/kineto-$w.json" "$w" \
        >"$work/kineto-$w.log" 2>&1 || { echo "kineto $w failed"; tail -5 "$work/kineto-$w.log"; }
    echo "kineto $w: $(( $(date +%s) - t0 )) s"
    if [ -f "$work/libocc_trace.so" ]; then
        t0=$(date +%s)
        CUDA_INJECTION64_PATH="$work/libocc_trace.so" OCC_TRACE_OUT="$work/cupti-$w.tsv" \
            timeout 180 python3 "$lab/profile_workloads.py" "$w" >"$work/cupti-$w.log" 2>&1 ||
            { echo "cupti $w failed"; tail -5 "$work/cupti-$w.log"; }
        echo "cupti $w: $(( $(date +%s) - t0 )) s, $(grep -c '^K' "$work/cupti-$w.tsv" 2>/dev/null) launches"
    fi
    pack
done
for w in "${workloads[@]}"; do
    t0=$(date +%s)
    timeout 150 ncu --clock-control none --section LaunchStats --section Occupancy --launch-count 150 \
        -o "$work/ncu-$w" -f python3 "$lab/profile_workloads.py" "$w" >"$work/ncu-$w.log" 2>&1 &&
        ncu --import "$work/ncu-$w.ncu-rep" --page raw --csv >"$work/ncu-$w-raw.csv" ||
        { echo "ncu $w failed"; tail -3 "$work/ncu-$w.log"; }
    rm -f "$work/ncu-$w.ncu-rep"
    echo "ncu $w: $(( $(date +%s) - t0 )) s"
    pack
done
ls -la "$work"
