"""occ.from_triton against a real Triton kernel, on a GPU: the numbers
Triton reports, occ's answer, ptxas -v on the same PTX, and the driver's
own occupancy for the loaded kernel.

    pip install ./python            # and triton, torch (with CUDA)
    python python/tests/gpu_triton_check.py [--gpu H200]

For each of two kernels (a vector add, and a matmul tile whose shared
memory needs the opt-in above 48 KB) it prints:
  - Triton: num_warps, shared, n_regs, n_spills, cluster dims;
  - occ.from_triton: the registers (from n_regs, and read from the cubin),
    blocks per SM, occupancy, limiters;
  - ptxas -v on the kernel's PTX (Triton's bundled ptxas, else the
    toolkit's), read by occ.inspect as well;
  - cuOccupancyMaxActiveBlocksPerMultiprocessor for the loaded kernel.
Exit status 0 when the registers agree (n_regs, cubin, ptxas) and occ's
blocks per SM equal the driver's; 1 otherwise; 77 without a GPU or Triton.
Not run by make test (it needs a GPU); docs/python.md says where its output
is kept.
"""

from __future__ import annotations

import argparse
import ctypes
import os
import re
import shutil
import subprocess
import sys
import tempfile

import occ

SKIP = 77


def find_ptxas() -> str | None:
    """Triton's bundled ptxas (what compiled the kernel), else the toolkit's."""
    candidates = [os.environ.get("TRITON_PTXAS_PATH")]
    try:
        import triton.backends.nvidia as nv

        candidates.append(os.path.join(os.path.dirname(nv.__file__), "bin", "ptxas"))
    except ImportError:
        pass
    candidates += [shutil.which("ptxas"), "/usr/local/cuda/bin/ptxas"]
    return next((c for c in candidates if c and os.access(c, os.X_OK)), None)


def ptxas_v(ptx: str) -> str | None:
    ptxas = find_ptxas()
    if ptxas is None:
        return None
    target = re.search(r"^\.target\s+(sm_\w+)", ptx, re.M)
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "kernel.ptx")
        with open(path, "w") as f:
            f.write(ptx)
        proc = subprocess.run([ptxas, "-v", f"--gpu-name={target.group(1) if target else 'sm_90a'}",
                               path, "-o", os.path.join(d, "kernel.cubin")],
                              capture_output=True, text=True)
    print(f"  $ {ptxas} -v --gpu-name={target.group(1) if target else 'sm_90a'} kernel.ptx")
    log = proc.stdout + proc.stderr
    for line in log.splitlines():
        print(f"    {line}")
    return log


def driver_blocks(function_handle: int, threads: int, dyn_smem: int) -> int | None:
    """cuOccupancyMaxActiveBlocksPerMultiprocessor for the loaded function."""
    try:
        cuda = ctypes.CDLL("libcuda.so.1")
    except OSError:
        return None
    blocks = ctypes.c_int()
    rc = cuda.cuOccupancyMaxActiveBlocksPerMultiprocessor(
        ctypes.byref(blocks), ctypes.c_void_p(function_handle), ctypes.c_int(threads),
        ctypes.c_size_t(dyn_smem))
    return blocks.value if rc == 0 else None


class NotLoaded:
    """The compiled kernel as Triton hands it over before a GPU loads it:
    no n_regs, so occ reads the cubin."""

    def __init__(self, compiled):
        self.metadata = compiled.metadata
        self.asm = compiled.asm


def check(label: str, compiled, gpu: str) -> bool:
    md = compiled.metadata
    get = (lambda k: md.get(k)) if isinstance(md, dict) else (lambda k: getattr(md, k, None))
    print(f"\n== {label}: {get('name')}")
    print(f"Triton: num_warps {get('num_warps')}, shared {get('shared')}, n_regs "
          f"{getattr(compiled, 'n_regs', None)}, n_spills {getattr(compiled, 'n_spills', None)}, "
          f"cluster_dims {get('cluster_dims')}, target {get('target')}")
    loaded = occ.from_triton(compiled, gpu=gpu)
    from_cubin = occ.from_triton(NotLoaded(compiled), gpu=gpu)
    for t in (loaded, from_cubin):
        print(f"occ.from_triton (regs from {t.regs_from}): {t.regs} registers, "
              f"{t.static_smem_bytes} static + {t.shared_bytes} dynamic bytes, {t.threads} "
              f"threads: {t.blocks_per_sm} blocks/SM, {t.warps_per_sm} warps, "
              f"{t.occupancy:.1%}, limited by {'+'.join(t.limiters) or 'nothing fits'}")
    ok = loaded.regs == from_cubin.regs
    log = ptxas_v(compiled.asm["ptx"])
    if log is not None:
        m = re.search(r"Used (\d+) registers", log)
        ptxas_regs = int(m.group(1)) if m else None
        rows = occ.inspect(("ptxas.log", log.encode()), gpu=gpu, threads=loaded.threads,
                           dyn_smem=loaded.shared_bytes)
        row = next((r for r in rows if r.mangled == get("name")), rows[0] if rows else None)
        if row is not None:
            print(f"occ.inspect of that log: {row.regs} registers, {row.blocks_per_sm} "
                  f"blocks/SM, {row.limiter}")
        print(f"ptxas -v registers: {ptxas_regs}")
        ok &= ptxas_regs == loaded.regs
    else:
        print("ptxas: not found (TRITON_PTXAS_PATH, triton/backends/nvidia/bin, PATH)")
    handle = getattr(compiled, "function", None)
    if handle:
        blocks = driver_blocks(handle, loaded.threads, loaded.shared_bytes)
        print(f"driver cuOccupancyMaxActiveBlocksPerMultiprocessor: {blocks} blocks/SM; "
              f"occ: {loaded.blocks_per_sm}")
        ok &= blocks == loaded.blocks_per_sm
    print("agree" if ok else "DISAGREE")
    return ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gpu", default="H200", help="the GPU occ computes for (default H200)")
    args = parser.parse_args()
    try:
        import torch
        import triton
        import triton.language as tl
    except ImportError as e:
        print(f"skipped: {e}")
        return SKIP
    if not torch.cuda.is_available():
        print("skipped: no CUDA GPU")
        return SKIP
    print(f"occ {occ.__version__}, triton {triton.__version__}, torch {torch.__version__}, "
          f"GPU {torch.cuda.get_device_name()}, occ's GPU {args.gpu}")

    @triton.jit
    def add(x, y, out, n, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        mask = offs < n
        tl.store(out + offs, tl.load(x + offs, mask=mask) + tl.load(y + offs, mask=mask),
                 mask=mask)

    @triton.jit
    def matmul(a, b, c, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
        pm, pn = tl.program_id(0), tl.program_id(1)
        rm = pm * BM + tl.arange(0, BM)
        rn = pn * BN + tl.arange(0, BN)
        rk = tl.arange(0, BK)
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for k in range(0, K, BK):
            x = tl.load(a + rm[:, None] * K + (k + rk)[None, :])
            y = tl.load(b + (k + rk)[:, None] * N + rn[None, :])
            acc += tl.dot(x, y)
        tl.store(c + rm[:, None] * N + rn[None, :], acc.to(tl.float16))

    n = 1 << 20
    x = torch.randn(n, device="cuda")
    y = torch.randn(n, device="cuda")
    out = torch.empty_like(x)
    added = add[(n // 1024,)](x, y, out, n, BLOCK=1024, num_warps=4)
    size = 1024
    a = torch.randn(size, size, device="cuda", dtype=torch.float16)
    b = torch.randn(size, size, device="cuda", dtype=torch.float16)
    c = torch.empty(size, size, device="cuda", dtype=torch.float16)
    tiled = matmul[(size // 128, size // 128)](a, b, c, size, size, size, BM=128, BN=128, BK=64,
                                              num_warps=8, num_stages=3)
    torch.cuda.synchronize()
    ok = check("vector add, 4 warps", added, args.gpu)
    ok &= check("matmul tile 128x128x64, 8 warps, 3 stages", tiled, args.gpu)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
