#!/usr/bin/env bash
# run_lab_trace.sh OCC OUTDIR - `occ lab trace` and `occ profile` end to end on
# the GPU present: builds the CUPTI recorder (lab/trace/occ_trace_inject.c)
# and tests/gpu/trace_probe.cu, records every launch of the probe, and checks
# that `occ profile` reads every one and that libocc's launch-time
# shared-memory configuration equals the driver's sharedMemoryExecuted on
# every one. Exits 77 (skipped) without nvcc, CUPTI's headers or a GPU.
set -uo pipefail
occ=${1:?usage: run_lab_trace.sh OCC OUTDIR}
out=${2:?usage: run_lab_trace.sh OCC OUTDIR}
root=$(cd "$(dirname "$0")/../.." && pwd)
PATH=$PATH:/usr/local/cuda/bin
command -v nvcc >/dev/null 2>&1 || { echo "SKIPPED: nvcc not found"; exit 77; }
nvidia-smi -L >/dev/null 2>&1 || { echo "SKIPPED: no GPU (nvidia-smi -L failed)"; exit 77; }
inc=$(dirname "$(find /usr/local/cuda/ -name cupti.h 2>/dev/null | head -1)")
lib=$(dirname "$(find /usr/local/cuda/ -name 'libcupti.so*' 2>/dev/null | head -1)")
[ -f "$inc/cupti_activity.h" ] || { echo "SKIPPED: CUPTI's headers not found"; exit 77; }
krec=$(grep -o 'CUpti_ActivityKernel[0-9]*' "$inc/cupti_activity.h" | sort -V | tail -1)
drec=$(grep -o 'CUpti_ActivityDevice[0-9]*' "$inc/cupti_activity.h" | sort -V | tail -1)
mkdir -p "$out"
gcc -O2 -shared -fPIC -o "$out/libocc-trace.so" "$root/lab/trace/occ_trace_inject.c" \
    -DOCC_KERNEL_RECORD="$krec" -DOCC_DEVICE_RECORD="$drec" -I"$inc" -I/usr/local/cuda/include \
    -L"$lib" -lcupti -Wl,-rpath,"$lib" || exit 1
nvcc -std=c++17 -O2 -arch=sm_90 -o "$out/trace_probe" "$root/tests/gpu/trace_probe.cu" || exit 1
"$occ" lab trace --recorder "$out/libocc-trace.so" --output "$out/probe.sqlite" -- \
    "$out/trace_probe" >"$out/probe.txt" || exit 1
expected=$(cat "$out/probe.txt")
"$occ" profile --json "$out/probe.sqlite" >"$out/probe.json" || exit 1
"$occ" profile "$out/probe.sqlite" >"$out/probe-profile.txt" || exit 1
python3 - "$out/probe.json" "$expected" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
want = int(sys.argv[2])
smem = d["checks"]["smem_config"]
print(f"launches made {want}, read {d['launches_read']}, sharedMemoryExecuted checked "
      f"{smem['launches']}, differ {smem['differ']}")
clusters = [g for g in d["groups"] if g["cluster"]]
ok = (d["launches_read"] == want and smem["launches"] == want and smem["differ"] == 0
      and len(clusters) == 1 and clusters[0]["cluster"] == [2, 1, 1])
sys.exit(0 if ok else 1)
PY
