#!/usr/bin/env bash
# run_launch_match.sh OCC OUTDIR - how much of a real PyTorch profile's GPU
# time `occ inspect --launches` matches to the kernels of the binaries it
# ran (docs/results/launch-match-h200): lab/trace/profile_workloads.py's
# workloads under torch.profiler, with Triton's cache in a fresh directory,
# then occ inspect --json --launches TRACE over libtorch_cuda.so, the CUDA
# libraries PyTorch loads (its nvidia-* wheels) and that cache.
# analyse_launch_match.py then says which unmatched kernels exist in the
# binaries all the same (the matcher's misses) and which do not (compiled at
# run time, or in a binary not given). Needs python3 with torch and triton.
set -uo pipefail
occ=${1:?usage: run_launch_match.sh OCC OUTDIR}
out=${2:?usage: run_launch_match.sh OCC OUTDIR}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
export TRITON_CACHE_DIR=$out/triton-cache
rm -rf "$TRITON_CACHE_DIR"
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  python3 -c 'import torch, triton; print("torch", torch.__version__, "triton", triton.__version__)'
  "$occ" --version; date -u; } >"$out/machine.txt" 2>&1
cat "$out/machine.txt"
workloads=${WORKLOADS:-train gemm attn conv reduce}
for w in $workloads; do
    timeout 300 python3 "$here/../../lab/trace/profile_workloads.py" \
        --torch-profile "$out/kineto-$w.json" "$w" >"$out/workload-$w.log" 2>&1 ||
        { echo "workload $w failed"; tail -5 "$out/workload-$w.log"; }
done
torch_lib=$(python3 -c 'import torch, os; print(os.path.join(os.path.dirname(torch.__file__), "lib"))')
nvidia_dir=$(python3 -c 'import nvidia, os; print(os.path.dirname(nvidia.__file__))' 2>/dev/null || true)
libs=("$torch_lib/libtorch_cuda.so")
if [ -n "$nvidia_dir" ]; then
    while IFS= read -r f; do libs+=("$f"); done < <(find "$nvidia_dir" -name 'lib*.so*' \
        \( -path '*cublas*' -o -path '*cudnn*' -o -path '*cufft*' -o -path '*curand*' \
           -o -path '*cusparse*' -o -path '*cusolver*' -o -path '*nccl*' \) -type f | sort)
fi
printf '%s\n' "${libs[@]}" >"$out/binaries.txt"
for w in $workloads; do
    [ -s "$out/kineto-$w.json" ] || continue
    /usr/bin/time -v "$occ" inspect --gpu H200 --json --launches "$out/kineto-$w.json" \
        "${libs[@]}" "$TRITON_CACHE_DIR" >"$out/inspect-$w.json" 2>"$out/inspect-$w.err" ||
        { echo "occ inspect failed on $w"; tail -3 "$out/inspect-$w.err"; }
    grep -E 'Elapsed|Maximum resident' "$out/inspect-$w.err"
done
python3 "$here/analyse_launch_match.py" "$out" | tee "$out/summary.txt"
# the traces are large: keep them gzipped
gzip -f "$out"/kineto-*.json 2>/dev/null
rm -rf "$TRITON_CACHE_DIR"
