#!/usr/bin/env bash
# Compiles tests/cuda/occ_cuda_test.cu with nvcc against include/occ_cuda.h
# and libocc, and runs it: CUDA host code only, no GPU needed.
# Usage: tests/cuda/run_occ_cuda_test.sh LIBOCC_A OUTDIR
# Exits 77 (skipped) without nvcc.
set -euo pipefail
lib=${1:?usage: run_occ_cuda_test.sh LIBOCC_A OUTDIR}
out=${2:?usage: run_occ_cuda_test.sh LIBOCC_A OUTDIR}
root=$(cd "$(dirname "$0")/../.." && pwd)
nvcc=$(command -v nvcc || true)
if [ -z "$nvcc" ] && [ -x /usr/local/cuda/bin/nvcc ]; then
    nvcc=/usr/local/cuda/bin/nvcc
fi
if [ -z "$nvcc" ]; then
    echo "SKIPPED: nvcc not found (install the CUDA toolkit to compile occ_cuda.h)"
    exit 77
fi
mkdir -p "$out"
# warnings are errors: the header must compile clean as C++ host code
"$nvcc" -std=c++17 -Xcompiler -Wall,-Wextra,-Werror -I"$root/include" \
    "$root/tests/cuda/occ_cuda_test.cu" "$lib" -o "$out/occ_cuda_test"
"$out/occ_cuda_test"
# without cudaDeviceProp the header says what it needs instead of failing obscurely
if echo '#include "occ_cuda.h"' | "${CC:-cc}" -fsyntax-only -I"$root/include" -x c - 2>"$out/no_cuda.txt"; then
    echo "occ_cuda.h compiled without cuda_runtime.h"
    exit 1
fi
grep -q 'include <cuda_runtime.h> first' "$out/no_cuda.txt"
echo "occ_cuda.h without cuda_runtime.h: refused with the reason"
