"""ncu_workloads.py torch|triton - ordinary GPU work whose launches Nsight
Compute profiles for `occ ncu`'s tests (run_ncu_profiles.sh runs it under
ncu). torch: bf16 and fp16 matmuls (cuBLAS, clustered nvjet kernels on
Hopper), a cuDNN convolution, scaled-dot-product attention, layer norm and
softmax. triton: a vector add and a blocked matmul, compiled for the GPU
present. Each workload runs once after one warm-up, so the profile holds
few launches."""
import sys

import torch


def torch_work():
    dev = "cuda"
    for dtype in (torch.bfloat16, torch.float16):
        for m, n, k in ((4096, 4096, 4096), (1024, 8192, 1024), (8192, 256, 4096)):
            a = torch.randn(m, k, device=dev, dtype=dtype)
            b = torch.randn(k, n, device=dev, dtype=dtype)
            (a @ b).sum().item()
    x = torch.randn(32, 64, 56, 56, device=dev, dtype=torch.float16)
    conv = torch.nn.Conv2d(64, 128, 3, padding=1).to(dev, torch.float16)
    conv(x).sum().item()
    q = torch.randn(8, 16, 1024, 128, device=dev, dtype=torch.bfloat16)
    torch.nn.functional.scaled_dot_product_attention(q, q, q, is_causal=True).sum().item()
    h = torch.randn(8192, 4096, device=dev, dtype=torch.bfloat16)
    torch.nn.functional.layer_norm(h, (4096,)).sum().item()
    torch.softmax(h, dim=-1).sum().item()
    torch.cuda.synchronize()


def triton_work():
    import triton
    import triton.language as tl

    @triton.jit
    def add(x, y, out, n, BLOCK: tl.constexpr):
        i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        m = i < n
        tl.store(out + i, tl.load(x + i, mask=m) + tl.load(y + i, mask=m), mask=m)

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

    n = 1 << 24
    x = torch.randn(n, device="cuda")
    y = torch.randn(n, device="cuda")
    out = torch.empty_like(x)
    for block in (256, 1024, 4096):
        add[(triton.cdiv(n, block),)](x, y, out, n, BLOCK=block)
    M = N = K = 2048
    a = torch.randn(M, K, device="cuda", dtype=torch.float16)
    b = torch.randn(K, N, device="cuda", dtype=torch.float16)
    c = torch.empty(M, N, device="cuda", dtype=torch.float16)
    for bm, bn, bk, warps, stages in ((128, 128, 64, 4, 3), (64, 256, 32, 8, 4), (128, 64, 64, 4, 2)):
        matmul[(M // bm, N // bn)](a, b, c, M, N, K, BM=bm, BN=bn, BK=bk,
                                   num_warps=warps, num_stages=stages)
    torch.cuda.synchronize()


if __name__ == "__main__":
    {"torch": torch_work, "triton": triton_work}[sys.argv[1]]()
