#!/usr/bin/env bash
# Builds tests/gpu/cluster_probe.cu and runs it on the GPU present: the
# driver's cluster occupancy answers and the hardware's cluster placement,
# written to OUTDIR (see the probe's header comment and
# tests/data/h200-clusters/README.md).
# Usage: tests/gpu/run_cluster_probe.sh OUTDIR [ARCH] [all|sweep|placement|persistent]
# Exits 77 (skipped) without nvcc, without a GPU or on a GPU without clusters.
set -euo pipefail
out=${1:?usage: run_cluster_probe.sh OUTDIR [ARCH] [PART]}
arch=${2:-sm_90}
part=${3:-all}
root=$(cd "$(dirname "$0")/../.." && pwd)
if ! command -v nvcc >/dev/null 2>&1 && [ ! -x /usr/local/cuda/bin/nvcc ]; then
    echo "SKIPPED: nvcc not found (install the CUDA toolkit to build the cluster probe)"
    exit 77
fi
PATH=$PATH:/usr/local/cuda/bin
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"
nvcc -std=c++17 -O2 -arch="$arch" -Xptxas -v "$root/tests/gpu/cluster_probe.cu" \
    -o "$work/cluster_probe" 2> "$out/ptxas.txt"
"$work/cluster_probe" "$out" "$part"
