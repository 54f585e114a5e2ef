#!/usr/bin/env bash
# The lab on the GPU present: `occ lab verify` (libocc against the driver,
# zero mismatches) and a quick `occ lab residency` (every row checked).
# Usage: tests/gpu/run_lab.sh OCC OCC_LAB
# Exits 77 (skipped) when occ-lab is not built or no GPU is present.
set -euo pipefail
occ=${1:?usage: run_lab.sh OCC OCC_LAB}
lab=${2:?usage: run_lab.sh OCC OCC_LAB}
if [ ! -x "$lab" ]; then
    echo "SKIPPED: occ-lab is not built (no CUDA compiler when CMake ran)"
    exit 77
fi
status=0
"$lab" probe > /dev/null || status=$?
if [ "$status" -eq 3 ]; then
    echo "SKIPPED: no CUDA GPU present"
    exit 77
fi
[ "$status" -eq 0 ] || { echo "occ-lab probe failed with status $status"; exit 1; }
export OCC_LAB="$lab"
"$occ" lab verify
"$occ" lab residency --quick
