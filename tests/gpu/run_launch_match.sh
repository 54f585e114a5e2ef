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
# the binaries PyTorch loads once cuBLAS, cuDNN and friends are in use: as
# /proc/self/maps names them (cuDNN's engines are loaded on first use)
mapfile -t libs < <(python3 - <<'PY'
import torch
a = torch.randn(256, 256, device="cuda", dtype=torch.bfloat16)
(a @ a).sum().item()
x = torch.randn(8, 16, 32, 32, device="cuda", dtype=torch.bfloat16)
w = torch.randn(32, 16, 3, 3, device="cuda", dtype=torch.bfloat16, requires_grad=True)
torch.nn.functional.conv2d(x, w).sum().backward()
q = torch.randn(2, 4, 128, 64, device="cuda", dtype=torch.bfloat16, requires_grad=True)
torch.nn.functional.scaled_dot_product_attention(q, q, q).sum().backward()
torch.cuda.synchronize()
keys = ("cublas", "cudnn", "cufft", "curand", "cusparse", "cusolver", "nccl", "torch_cuda",
        "c10_cuda", "nvrtc", "nvjitlink")
seen = set()
for line in open("/proc/self/maps"):
    path = line.split()[-1] if "/" in line else ""
    if (".so" in path and any(k in path.rsplit("/", 1)[-1] for k in keys)):
        seen.add(path)
print("\n".join(sorted(seen)))
PY
)
printf '%s\n' "${libs[@]}" >"$out/binaries.txt"
for w in $workloads; do
    [ -s "$out/kineto-$w.json" ] || continue
    /usr/bin/time -v "$occ" inspect --gpu H200 --json --launches "$out/kineto-$w.json" \
        "${libs[@]}" "$TRITON_CACHE_DIR" >"$out/inspect-$w.json" 2>"$out/inspect-$w.err" ||
        { echo "occ inspect failed on $w"; tail -3 "$out/inspect-$w.err"; }
    grep -E 'Elapsed|Maximum resident' "$out/inspect-$w.err"
done
python3 "$here/analyse_launch_match.py" "$out" | tee "$out/summary.txt"
# what is kept: the summary, the machine, the binaries and occ's time and memory
rm -rf "$TRITON_CACHE_DIR" "$out"/kineto-*.json "$out"/inspect-*.json
