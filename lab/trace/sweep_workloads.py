"""sweep_workloads.py - launches chosen to spread over the launch-time
shared-memory configurations, held out from everything the rule was fitted
on: Triton matmuls at many tile shapes, warps and pipeline depths (shared
memory from a few KB to near 227 KB per block, the driver's cache
preference as Triton sets it), attention at several head sizes, cuBLAS at
many shapes and types. Each launch runs twice. Used by
tests/gpu/run_profile_traces2.sh under the CUPTI recorder (`occ lab trace`)
and torch.profiler.
"""
import argparse
import itertools
import sys

import torch
import torch.nn.functional as F
import triton
import triton.language as tl


@triton.jit
def matmul(a, b, c, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pm = tl.program_id(0)
    pn = tl.program_id(1)
    rm = pm * BM + tl.arange(0, BM)
    rn = pn * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k0 in range(0, K, BK):
        x = tl.load(a + rm[:, None] * K + (k0 + rk)[None, :])
        y = tl.load(b + (k0 + rk)[:, None] * N + rn[None, :])
        acc += tl.dot(x, y)
    tl.store(c + rm[:, None] * N + rn[None, :], acc.to(tl.float16))


def triton_sweep():
    M = N = K = 1024
    a = torch.randn(M, K, device="cuda", dtype=torch.float16)
    b = torch.randn(K, N, device="cuda", dtype=torch.float16)
    c = torch.empty(M, N, device="cuda", dtype=torch.float16)
    done = 0
    for bm, bn, bk, warps, stages in itertools.product((32, 64, 128), (64, 128, 256), (32, 64),
                                                      (4, 8), (2, 3, 4, 5)):
        grid = (M // bm, N // bn)
        try:
            for _ in range(2):
                matmul[grid](a, b, c, M, N, K, BM=bm, BN=bn, BK=bk, num_warps=warps,
                             num_stages=stages)
            done += 1
        except Exception as e:  # out of shared memory or registers: skipped, counted
            print(f"triton {bm}x{bn}x{bk} w{warps} s{stages}: {type(e).__name__}", file=sys.stderr)
    torch.cuda.synchronize()
    print(f"triton configurations launched: {done}")


def attention_sweep():
    for d in (32, 64, 96, 128, 256):
        for t in (512, 2048):
            q, k, v = (torch.randn(2, 8, t, d, device="cuda", dtype=torch.bfloat16,
                                   requires_grad=True) for _ in range(3))
            for causal in (False, True):
                y = F.scaled_dot_product_attention(q, k, v, is_causal=causal)
                y.sum().backward()
    torch.cuda.synchronize()


def gemm_sweep():
    for dtype in (torch.float16, torch.bfloat16, torch.float32):
        for m, n, k in itertools.product((64, 512, 4096), (128, 2048), (256, 8192)):
            x = torch.randn(m, k, device="cuda", dtype=dtype)
            y = torch.randn(k, n, device="cuda", dtype=dtype)
            for _ in range(2):
                (x @ y).sum()
    torch.cuda.synchronize()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--torch-profile", metavar="OUT.json")
    args = ap.parse_args()
    work = (triton_sweep, attention_sweep, gemm_sweep)
    if args.torch_profile:
        from torch.profiler import ProfilerActivity, profile
        for w in work:  # compile first, outside the profile
            w()
        with profile(activities=[ProfilerActivity.CUDA]) as prof:
            for w in work:
                w()
        prof.export_chrome_trace(args.torch_profile)
    else:
        for w in work:
            w()
    print("sweep done")


if __name__ == "__main__":
    main()
