#!/usr/bin/env bash
# Runs the setmaxnreg reproducers on the GPU present (tests/gpu/setmaxnreg_probe.cu):
# the kernels occ finds fit must finish, the over-subscribed ones must not.
# Usage: tests/gpu/setmaxnreg_run.sh OUTDIR [ARCH]   (ARCH: the GPU's own, sm_90a on Hopper)
# Each kernel runs in its own process; one that has not finished after 10 s
# is left to its process's exit. Exits 77 without nvcc or a GPU, 1 when a
# kernel does other than occ's fits says (tests/test_setmaxnreg.c's cases).
set -uo pipefail
out=${1:?usage: setmaxnreg_run.sh OUTDIR [ARCH]}
arch=${2:-}
root=$(cd "$(dirname "$0")/../.." && pwd)
PATH=$PATH:${CUDA_HOME:-/usr/local/cuda}/bin:/usr/local/cuda/bin
if ! command -v nvcc >/dev/null 2>&1; then
    echo "SKIPPED: nvcc not found"
    exit 77
fi
if ! nvidia-smi -L >/dev/null 2>&1; then
    echo "SKIPPED: no GPU"
    exit 77
fi
if [ -z "$arch" ]; then
    # setmaxnreg needs an arch-specific target: sm_90a, sm_100a, sm_103a, sm_110a, sm_12Xa
    cc=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d ' .')
    case $cc in
    90 | 100 | 103 | 110 | 120 | 121) arch=sm_${cc}a ;;
    *)
        echo "SKIPPED: the GPU's compute capability ($cc) has no setmaxnreg"
        exit 77
        ;;
    esac
fi
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0
# kernel, threads, occ's fits at the launch's blocks per SM (the test's cases)
for row in "fits 384 true" "cutlass_style 384 true" "tid_compare 384 true" \
           "pool_edge 384 false" "oversubscribed 512 false" "idle_group 512 false"; do
    set -- $row
    nvcc -std=c++17 -O2 -gencode arch=compute_${arch#sm_},code=$arch -I"$root/tests/data/setmaxnreg" \
        -DKERNEL_FILE="\"$1.cu\"" -DKERNEL="$1" -DTHREADS="$2" \
        "$root/tests/gpu/setmaxnreg_probe.cu" -o "$work/$1" || { status=1; continue; }
    line=$(timeout 60 "$work/$1")
    rc=$?
    echo "$line (occ: fits $3)" | tee -a "$out/setmaxnreg_run.txt"
    if { [ "$3" = true ] && [ $rc -ne 0 ]; } || { [ "$3" = false ] && [ $rc -ne 3 ]; }; then
        echo "DISAGREES: $1 exit $rc, occ says fits $3" | tee -a "$out/setmaxnreg_run.txt"
        status=1
    fi
done
exit $status
