#!/usr/bin/env bash
# run_cuobjdump_comparison.sh OCC OUTDIR - occ inspect against cuobjdump on
# every library with device code of the CUDA toolkit (shared and static),
# PyTorch's and NCCL's, one library at a time (scripts/inspect_vs_cuobjdump.py
# per library, each under a time limit so that one slow library cannot lose
# the others' results), then occ diff's cost against one inspect on the
# largest library. Writes OUTDIR/<library>/report.md, OUTDIR/diff-speed.txt
# and OUTDIR/summary.txt. Needs cuobjdump, python3, and torch for its
# libraries.
set -uo pipefail
occ=$(readlink -f "${1:?usage: run_cuobjdump_comparison.sh OCC OUTDIR}")
out=${2:?usage: run_cuobjdump_comparison.sh OCC OUTDIR}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
per_lib_seconds=${PER_LIB_SECONDS:-90}
libs=()
for f in /usr/local/cuda/lib64/*.so.* /usr/local/cuda/lib64/*_static.a \
         /usr/local/cuda/lib64/libcudadevrt.a; do
    [ -f "$f" ] && [ ! -L "$f" ] || continue
    # only files that hold device code: a fatbin or relocatable fatbin section, or an archive
    case "$f" in
        *.a) libs+=("$f") ;;
        *) if readelf -S -W "$f" 2>/dev/null | grep >/dev/null 'nv_fatbin\|nv_relfatbin'; then libs+=("$f"); fi ;;
    esac
done
torch_lib=$(python3 -c 'import torch, os; print(os.path.join(os.path.dirname(torch.__file__), "lib"))' 2>/dev/null)
for f in "$torch_lib"/*.so*; do
    [ -f "$f" ] && readelf -S -W "$f" 2>/dev/null | grep >/dev/null 'nv_fatbin' && libs+=("$f")
done
nccl=$(python3 -c 'import nvidia.nccl, os; print(os.path.dirname(nvidia.nccl.__file__ or nvidia.nccl.__path__[0]))' 2>/dev/null)
for f in $(ls "$nccl"/lib/libnccl.so* 2>/dev/null) $(find / -name 'libnccl.so.2' -not -path '*/proc/*' 2>/dev/null | head -1); do
    [ -f "$f" ] && libs+=("$(readlink -f "$f")")
done
# the libraries the comparison is known by first, then the rest, smallest first
printf '%s\n' "${libs[@]}" | sort -u | awk '
    /libcublasLt|libtorch_cuda|libnccl|libcudadevrt|libcublas_static|libcusparse_static|libcufft_static|libcufft\.so|libcusparse\.so|libcublas\.so/ { print 0, $0; next }
    { print 1, $0 }' | sort -k1,1n -s | cut -d' ' -f2- > "$out/libraries.txt"
echo "libraries: $(wc -l < "$out/libraries.txt")"
deadline=$(( $(date +%s) + ${DEADLINE_SECONDS:-420} ))
while read -r lib; do
    name=$(basename "$lib")
    if [ "$(date +%s)" -ge "$deadline" ]; then
        echo "$name: not run (time limit of the run)" | tee -a "$out/summary.txt"
        continue
    fi
    start=$(date +%s)
    OCC_COMPARE_RUNS=${OCC_COMPARE_RUNS:-1} timeout "$per_lib_seconds" \
        python3 "$here/inspect_vs_cuobjdump.py" "$occ" "$out/$name" "$lib" >"$out/$name.log" 2>&1
    echo "$name: exit $? in $(( $(date +%s) - start )) s" | tee -a "$out/summary.txt"
done < "$out/libraries.txt"
# occ diff of two builds against one inspect: the largest library against itself
big=$(xargs ls -S < "$out/libraries.txt" | head -1)
python3 - "$occ" "$big" >"$out/diff-speed.txt" 2>&1 <<'PY'
import os, statistics, subprocess, sys, time
occ, lib = sys.argv[1], sys.argv[2]
print(f"library: {lib} ({os.path.getsize(lib)} bytes); median of 3 runs each, side by side")
def run(cmd):
    start = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(p.pid, 0)
    return time.perf_counter() - start, usage.ru_maxrss / 1024, os.waitstatus_to_exitcode(status)
rows = {"inspect": [occ, "inspect", "--json", lib], "diff": [occ, "diff", lib, lib]}
res = {k: [] for k in rows}
for _ in range(3):
    for k, cmd in rows.items():
        res[k].append(run(cmd))
for k, r in res.items():
    print(f"{k}: wall {statistics.median(x[0] for x in r):.3f} s, peak RSS "
          f"{max(x[1] for x in r):.0f} MiB, exit {r[-1][2]}, runs {[round(x[0], 3) for x in r]}")
ratio = statistics.median(x[0] for x in res["diff"]) / statistics.median(x[0] for x in res["inspect"])
print(f"diff / inspect: {ratio:.2f}")
PY
