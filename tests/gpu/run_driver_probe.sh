#!/usr/bin/env bash
# Builds tests/gpu/driver_probe.cu against libocc and runs it on the GPU
# present. Usage: tests/gpu/run_driver_probe.sh OUTDIR [ARCH]
# Exits 77 (skipped) without nvcc or without a GPU, 1 on any disagreement.
set -euo pipefail
out=${1:?usage: run_driver_probe.sh OUTDIR [ARCH]}
arch=${2:-sm_90}
root=$(cd "$(dirname "$0")/../.." && pwd)
if ! command -v nvcc >/dev/null 2>&1 && [ ! -x /usr/local/cuda/bin/nvcc ]; then
    echo "SKIPPED: nvcc not found (install the CUDA toolkit to build the GPU probe)"
    exit 77
fi
PATH=$PATH:/usr/local/cuda/bin
work=$(mktemp -d)
mkdir -p "$out"
for f in "$root"/src/*.c; do
    gcc -std=c11 -O2 -I"$root/include" -I"$root/src" -c "$f" -o "$work/$(basename "$f" .c).o"
done
nvcc -std=c++17 -O2 -arch="$arch" -Xptxas -v -I"$root/include" \
    "$root/tests/gpu/driver_probe.cu" "$work"/*.o -o "$work/driver_probe" 2> "$out/ptxas.txt"
"$work/driver_probe" "$out"
