"""occ.from_triton: the occupancy of a kernel Triton compiled, without a GPU."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ._calc import CalcResult, calc
from ._cluster import Cluster, cluster
from ._errors import OccError
from ._gpu import GpuLike, gpu_of

# Triton's CUDA launcher opts a kernel in to more dynamic shared memory only
# when it needs more than the default 48 KB per block (load_binary in
# triton/backends/nvidia/driver.c); below that the kernel never opts in.
_OPTIN_ABOVE_BYTES = 48 * 1024


@dataclass
class TritonOccupancy:
    """A Triton kernel's occupancy, and the numbers it came from."""

    name: str | None  # the kernel's name (metadata.name)
    gpu: str
    regs: int  # registers per thread
    regs_from: str  # "n_regs" (the driver's, once loaded) or "cubin" (read by libocc-inspect)
    spills: int | None  # n_spills, or the cubin's spill instructions
    shared_bytes: int  # metadata.shared: dynamic shared memory per block
    static_smem_bytes: int  # the cubin's static shared memory (0 unless read)
    num_warps: int
    threads: int  # num_warps x warp size
    cluster_dims: tuple[int, int, int] | None  # where the kernel has them
    blocks_per_sm: int
    warps_per_sm: int
    occupancy: float
    limiters: tuple[str, ...]
    result: CalcResult  # occ.calc's, which ignores clusters as the occupancy API does
    cluster: Cluster | None  # the cluster launch's answer (occ.cluster), for a kernel
    # with clusters on a GPU occ can answer for; None otherwise (``note`` says why)
    note: str | None


def _meta(metadata: Any, key: str) -> Any:
    """A field of Triton's metadata: a namedtuple (Triton 3) or a dict (2.x)."""
    if isinstance(metadata, dict):
        return metadata.get(key)
    return getattr(metadata, key, None)


def _target_arch(metadata: Any, compiled: Any) -> str | None:
    """sm_90 from metadata.target (GPUTarget('cuda', 90, 32)), or the older
    capability fields; None when absent."""
    target = _meta(metadata, "target")
    if target is not None:
        backend = getattr(target, "backend", None)
        if backend is None and isinstance(target, dict):
            backend = target.get("backend")
        if backend not in (None, "cuda"):
            raise OccError(f"a {backend} kernel: occ computes CUDA occupancy only",
                           status="invalid argument", code=1, field="compiled_kernel")
        arch = getattr(target, "arch", None)
        if arch is None and isinstance(target, dict):
            arch = target.get("arch")
        if isinstance(arch, int):
            return f"sm_{arch}"
    capability = _meta(metadata, "capability") or getattr(compiled, "capability", None)
    return f"sm_{capability}" if isinstance(capability, int) else None


def _from_cubin(cubin: bytes, name: str | None) -> tuple[int, int, int | None]:
    from ._inspect import inspect

    kernels = inspect(("<triton cubin>", cubin), demangle=False)
    match = [k for k in kernels if k.mangled == name] if name else []
    if not match and len(kernels) == 1:
        match = kernels
    if not match:
        raise OccError(f"the cubin holds no kernel named {name!r}", status="not found", code=4,
                       field="compiled_kernel")
    k = match[0]
    return k.regs, k.smem, k.spill_instructions


def from_triton(compiled_kernel: Any, gpu: GpuLike | None = None) -> TritonOccupancy:
    """The occupancy of a Triton compiled kernel (``triton.compile(...)``, or
    what a JIT function's launch or warmup returns) and what limits it.

    It reads ``num_warps`` and ``shared`` (dynamic shared memory) from the
    kernel's metadata, ``cluster_dims`` where present, and the registers
    per thread from ``n_regs``, which Triton fills once the kernel is
    loaded on a GPU; before that (no GPU) from the kernel's cubin
    (``asm["cubin"]``), read by libocc-inspect: the number ptxas -v
    prints. The occupancy is the occupancy API's, per SM; for a kernel with
    clusters (``cluster_dims`` above one block) ``cluster`` adds the cluster
    launch's answer on the GPU's GPC layout (occ.cluster).

    Args:
        compiled_kernel: a triton.compiler.CompiledKernel, or any object with
            the same attributes.
        gpu: the GPU; None: the generic GPU of the kernel's target arch
            (sm_90 for a kernel compiled for sm_90).

    Raises:
        OccError: no registers to read, a non-CUDA kernel, or a GPU occ does
            not know.
    """
    md = getattr(compiled_kernel, "metadata", None)
    if md is None:
        raise OccError("the object has no Triton metadata (num_warps, shared)",
                       status="invalid argument", code=1, field="compiled_kernel")
    num_warps = _meta(md, "num_warps")
    shared = _meta(md, "shared") or 0
    if not isinstance(num_warps, int) or num_warps <= 0:
        raise OccError(f"metadata.num_warps {num_warps!r} is not a positive number of warps",
                       status="invalid argument", code=1, field="num_warps")
    name = _meta(md, "name") or getattr(compiled_kernel, "name", None)
    arch = _target_arch(md, compiled_kernel)  # refuses a kernel for another backend
    if gpu is None:
        if arch is None:
            raise OccError("the kernel's metadata names no target arch: give gpu",
                           status="invalid argument", code=1, field="gpu")
        gpu = arch
    g = gpu_of(gpu)
    warp_size = _meta(md, "warp_size") or g.warp_size_threads
    regs = getattr(compiled_kernel, "n_regs", None)
    spills = getattr(compiled_kernel, "n_spills", None)
    static_smem = 0
    regs_from = "n_regs"
    if not isinstance(regs, int):
        asm = getattr(compiled_kernel, "asm", None) or {}
        cubin = asm.get("cubin") if hasattr(asm, "get") else None
        if not cubin:
            raise OccError("the kernel has neither n_regs (set once loaded on a GPU) nor a "
                           "cubin in asm['cubin'] to read them from", status="not found",
                           code=4, field="n_regs")
        regs, static_smem, spills = _from_cubin(bytes(cubin), name)
        regs_from = "cubin"
    dims = _meta(md, "cluster_dims")
    cluster_dims = tuple(dims) + (1,) * (3 - len(tuple(dims))) if dims else None
    threads = num_warps * warp_size
    launch = dict(regs=regs, smem=static_smem, dyn_smem=shared,
                  optin="max" if shared > _OPTIN_ABOVE_BYTES else "none")
    r = calc(g, threads, **launch)
    clustered = None
    note = None
    if cluster_dims is not None and cluster_dims[0] * cluster_dims[1] * cluster_dims[2] > 1:
        try:
            clustered = cluster(g, threads, cluster_dims, **launch)
        except OccError as e:
            note = f"no cluster answer: {e}"
    return TritonOccupancy(
        name=name,
        gpu=g.name,
        regs=regs,
        regs_from=regs_from,
        spills=spills,
        shared_bytes=shared,
        static_smem_bytes=static_smem,
        num_warps=num_warps,
        threads=threads,
        cluster_dims=cluster_dims,
        blocks_per_sm=r.blocks_per_sm,
        warps_per_sm=r.warps_per_sm,
        occupancy=r.occupancy,
        limiters=r.limiters,
        result=r,
        cluster=clustered,
        note=note,
    )
