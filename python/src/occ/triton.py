"""occ.triton: Triton with occ, without importing Triton.

- ``prune(configs, named_args, gpu=...)``: the configs of a
  ``triton.autotune`` list that can launch on the GPU (and, with
  ``keep=k``, the k of them with the best predicted occupancy at the
  problem size), for ``prune_configs_by={"early_config_prune": ...}``;
- ``pruner(gpu=..., keep=...)``: the same as the one-argument-list function
  Triton calls, which remembers what it dropped and why;
- ``check(configs, named_args, gpu=...)``: what prune decides, config by
  config, with the numbers it decides on;
- ``from_triton(compiled_kernel, gpu=)``: the occupancy of a compiled
  kernel (also ``occ.from_triton``).

Triton calls ``early_config_prune(configs, named_args, **kwargs)`` with
its ``triton.Config`` list, the kernel's positional arguments by name and
its keyword arguments (python/triton/runtime/autotuner.py, Triton 3).
Only the attributes of a Config are read (``kwargs``, ``num_warps``,
``num_stages``, ``num_ctas``, ``maxnreg``), and of a tensor argument
``data_ptr`` (what makes it a tensor to Triton) and ``element_size()`` or
``dtype.itemsize``; the package never imports triton or torch.
docs/python.md, "Triton", defines each estimate and the ranking.
"""

from __future__ import annotations

import math
import sys
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence, Union

from ._calc import CalcResult, calc
from ._cluster import Cluster, cluster
from ._errors import OccError
from ._gpu import Gpu, GpuLike, gpu_of
from ._launch import Waves, waves
from ._triton import _OPTIN_ABOVE_BYTES, TritonOccupancy, from_triton

# The meta-parameter names of a matmul's tiles, as Triton's tutorials and
# most kernels spell them.
_TILE_NAMES = {
    "M": ("BLOCK_SIZE_M", "BLOCK_M"),
    "N": ("BLOCK_SIZE_N", "BLOCK_N"),
    "K": ("BLOCK_SIZE_K", "BLOCK_K"),
}
# Element size where no argument is a tensor: fp16 / bf16.
_DEFAULT_ELEMENT_BYTES = 2
# Registers a thread of a Triton kernel needs beside a matmul's accumulator:
# addresses, offsets, masks and the loop's state.
_OVERHEAD_REGS = 32

SmemFn = Callable[[Any, Mapping[str, Any]], int]
RegsFn = Callable[[Any, Mapping[str, Any]], int]
Grid = Union[int, Sequence[int], Callable[[Mapping[str, Any]], Union[int, Sequence[int]]]]


@dataclass
class ConfigCheck:
    """What occ.triton.check finds for one config of an autotune list."""

    index: int  # in the list given
    config: Any  # the triton.Config itself
    num_warps: int
    num_stages: int
    num_ctas: int  # blocks per cluster (Triton launches clusters of num_ctas above 1)
    maxnreg: int | None
    threads: int  # num_warps x the warp size
    smem_bytes: int | None  # dynamic shared memory per block, estimated or given; None:
    # not known (no smem function and no BLOCK_M/N/K), so not checked
    smem_from: str  # "given" (smem=), "matmul estimate", or "unknown"
    regs: int  # registers per thread the occupancy is computed with
    regs_from: str  # "given" (regs=), "maxnreg", "estimate"
    launches: bool  # False: Triton's launch would fail (``dropped`` says why)
    dropped: str | None  # "threads", "shared_mem", "cluster", "no_block"; None: launches
    reason: str | None  # the one line saying why
    blocks_per_sm: int | None  # resident blocks per SM (occ.calc; with clusters, occ.cluster's)
    occupancy: float | None  # resident warps / the SM's warp slots at full load (a cluster
    # launch's: its active blocks over the SMs)
    limiters: tuple[str, ...]
    result: CalcResult | None  # occ.calc's answer at this launch
    cluster: Cluster | None  # occ.cluster's, for num_ctas above 1 on a GPU it can answer for
    grid_blocks: int | None  # programs (clusters, with num_ctas above 1) at the problem size
    waves: Waves | None  # of the grid; None where the grid or the SM count is unknown
    occupancy_at_size: float | None  # the ranking's key (docs/python.md, "Triton")
    rank: int | None  # 1 = best of the configs that launch; None: not ranked


def _meta(config: Any, name: str, default: Any) -> Any:
    value = getattr(config, name, default)
    return default if value is None else value


def _kwargs(config: Any) -> Mapping[str, Any]:
    kw = getattr(config, "kwargs", None)
    if not isinstance(kw, Mapping):
        raise TypeError(f"a config must be a triton.Config (with .kwargs), not "
                        f"{type(config).__name__}")
    return kw


def _tile(kw: Mapping[str, Any], axis: str) -> int | None:
    for name in _TILE_NAMES[axis]:
        value = kw.get(name)
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    return None


def _element_bytes(arg: Any) -> int | None:
    """The element size of a tensor argument: what Triton passes as a
    pointer (an object with data_ptr)."""
    if not hasattr(arg, "data_ptr"):
        return None
    size = getattr(arg, "element_size", None)
    if callable(size):
        return int(size())
    itemsize = getattr(getattr(arg, "dtype", None), "itemsize", None)
    return int(itemsize) if isinstance(itemsize, int) else None


def matmul_smem_bytes(config: Any, named_args: Mapping[str, Any]) -> int | None:
    """The default shared-memory estimate, for a matmul loop that stages
    its two operand tiles: num_stages x (BLOCK_M x BLOCK_K x A's element
    size + BLOCK_K x BLOCK_N x B's element size), A and B the first and
    second tensor among the arguments (the first for both when there is
    one; 2 bytes, fp16, when there is none). The tile sizes are the
    config's BLOCK_SIZE_M or BLOCK_M (and N, K); None where one is missing
    (not a matmul: give smem=)."""
    kw = _kwargs(config)
    m, n, k = _tile(kw, "M"), _tile(kw, "N"), _tile(kw, "K")
    if m is None or n is None or k is None:
        return None
    sizes = [s for s in (_element_bytes(v) for v in named_args.values()) if s is not None]
    a = sizes[0] if sizes else _DEFAULT_ELEMENT_BYTES
    b = sizes[1] if len(sizes) > 1 else a
    stages = max(int(_meta(config, "num_stages", 3)), 1)
    return stages * (m * k * a + k * n * b)


def estimate_regs(config: Any, threads: int, gpu: GpuLike) -> int:
    """The default register estimate: one fp32 register per element of a
    BLOCK_M x BLOCK_N accumulator spread over the block's threads, plus 32
    (addresses, offsets, masks, the loop), rounded up to the allocation's
    8 per thread; 32 for a config without BLOCK_M and BLOCK_N. Then what
    ptxas allows the block (Triton declares .maxntid, so ptxas keeps a
    block within the register file; at most 255) and config.maxnreg."""
    g = gpu_of(gpu)
    kw = _kwargs(config)
    m, n = _tile(kw, "M"), _tile(kw, "N")
    need = _OVERHEAD_REGS + (math.ceil(m * n / threads) if m and n else 0)
    unit = max(g.reg_alloc_unit // g.warp_size_threads, 1)
    need = -(-need // unit) * unit
    fits = (g.regs_per_block // threads) // unit * unit
    regs = min(need, g.max_regs_per_thread, fits)
    maxnreg = getattr(config, "maxnreg", None)
    if isinstance(maxnreg, int) and maxnreg > 0:
        regs = min(regs, maxnreg)
    return regs


def _grid_blocks(grid: Grid | None, config: Any, args: Mapping[str, Any]) -> int | None:
    """Programs at the problem size: grid(META) as Triton calls a grid
    function, else cdiv(M, BLOCK_M) x cdiv(N, BLOCK_N) from the arguments
    M and N; None where neither is known."""
    if grid is None:
        kw = _kwargs(config)
        m, n = args.get("M"), args.get("N")
        bm, bn = _tile(kw, "M"), _tile(kw, "N")
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in (m, n, bm, bn)):
            return None
        return -(-m // bm) * -(-n // bn)
    if callable(grid):
        meta = {**args, **_kwargs(config), "num_warps": _meta(config, "num_warps", 4),
                "num_stages": _meta(config, "num_stages", 3),
                "num_ctas": _meta(config, "num_ctas", 1)}
        grid = grid(meta)
    dims = (grid,) if isinstance(grid, int) else tuple(grid)
    if not 1 <= len(dims) <= 3 or not all(isinstance(d, int) for d in dims):
        raise OccError(f"grid {grid!r}: 1 to 3 whole numbers of programs",
                       status="invalid argument", code=1, field="grid")
    return math.prod(dims)


def _current_gpu() -> Gpu:
    """The GPU torch runs on, where the program has imported torch
    already (occ never imports it)."""
    torch = sys.modules.get("torch")
    cuda = getattr(torch, "cuda", None)
    if cuda is None or not cuda.is_available():
        raise OccError("give gpu= (\"H200\"): no GPU named, and no CUDA device through an "
                       "imported torch to ask", status="invalid argument", code=1, field="gpu")
    return gpu_of(cuda.get_device_name(cuda.current_device()))


def _value(fn: Any, config: Any, args: Mapping[str, Any], field: str) -> int | None:
    value = fn(config, args) if callable(fn) else fn
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise OccError(f"{field} {value!r} for config {config!r}: a whole number of at least 0",
                       status="invalid argument", code=1, field=field)
    return value


def check(
    configs: Sequence[Any],
    named_args: Mapping[str, Any] | None = None,
    *,
    gpu: GpuLike | None = None,
    smem: SmemFn | int | None = None,
    regs: RegsFn | int | None = None,
    grid: Grid | None = None,
    **kwargs: Any,
) -> list[ConfigCheck]:
    """What prune decides for each config of a Triton autotune list: whether
    it can launch on the GPU and, where the problem size is known, its
    predicted occupancy at that size and its rank.

    A config cannot launch when (in this order) its block has more threads
    than the GPU allows (num_warps x 32 above 1,024), its shared memory is
    above the GPU's opt-in maximum per block (Triton's OutOfResources),
    occ.calc fits no block, or its cluster (num_ctas above 1) cannot launch
    (compute capability below 9.0, above 8 blocks, or no active cluster:
    occ.cluster).

    Args:
        configs: the triton.Config list (or objects with its attributes).
        named_args: the kernel's arguments by name, as Triton passes them to
            early_config_prune.
        gpu: an occ.Gpu or a name; None: the device of an already imported
            torch (torch.cuda.get_device_name).
        smem: dynamic shared memory per block: a function of (config, args)
            or bytes; None: matmul_smem_bytes.
        regs: registers per thread: a function of (config, args) or a
            number; None: estimate_regs (at most config.maxnreg).
        grid: the programs at the problem size: Triton's grid function of
            META (the arguments and the config's meta-parameters), or an
            int or tuple; None: cdiv(M, BLOCK_M) x cdiv(N, BLOCK_N) from the
            arguments M and N.
        kwargs: the kernel's keyword arguments (Triton passes them), read as
            named_args are.

    Returns:
        One ConfigCheck per config, in the list's order.

    Raises:
        OccError: no GPU, or a function's value that is not a size.
    """
    return _check_all(configs, {**(named_args or {}), **kwargs}, gpu, smem, regs, grid)


def _check_all(configs: Sequence[Any], args: Mapping[str, Any], gpu: GpuLike | None, smem,
               regs, grid) -> list[ConfigCheck]:
    g = gpu_of(gpu) if gpu is not None else _current_gpu()
    checks = [_check_one(index, config, args, g, smem, regs, grid)
              for index, config in enumerate(configs)]
    _rank(checks)
    return checks


def _check_one(index: int, config: Any, args: Mapping[str, Any], g: Gpu, smem, regs,
               grid) -> ConfigCheck:
    num_warps = _meta(config, "num_warps", 4)
    num_stages = _meta(config, "num_stages", 3)
    num_ctas = _meta(config, "num_ctas", 1)
    maxnreg = getattr(config, "maxnreg", None)
    for name, value in (("num_warps", num_warps), ("num_stages", num_stages),
                        ("num_ctas", num_ctas)):
        if isinstance(value, bool) or not isinstance(value, int) or value < (
                0 if name == "num_stages" else 1):
            raise OccError(f"config {index} ({config!r}): {name} {value!r} is not a count",
                           status="invalid argument", code=1, field=name)
    threads = num_warps * g.warp_size_threads
    if smem is None:
        smem_bytes = matmul_smem_bytes(config, args)
        smem_from = "matmul estimate" if smem_bytes is not None else "unknown"
    else:
        smem_bytes = _value(smem, config, args, "smem")
        smem_from = "given" if smem_bytes is not None else "unknown"
    if regs is not None:
        reg_count = _value(regs, config, args, "regs") or 0
        regs_from = "given"
    else:
        reg_count = estimate_regs(config, max(min(threads, g.max_threads_per_block), 1), g)
        regs_from = "maxnreg" if isinstance(maxnreg, int) and reg_count == maxnreg else "estimate"
    c = ConfigCheck(index=index, config=config, num_warps=num_warps, num_stages=num_stages,
                    num_ctas=num_ctas, maxnreg=maxnreg, threads=threads, smem_bytes=smem_bytes,
                    smem_from=smem_from, regs=reg_count, regs_from=regs_from, launches=False,
                    dropped=None, reason=None, blocks_per_sm=None, occupancy=None, limiters=(),
                    result=None, cluster=None, grid_blocks=None, waves=None,
                    occupancy_at_size=None, rank=None)
    dyn = smem_bytes or 0
    launch = dict(regs=reg_count, dyn_smem=dyn, optin="max" if dyn > _OPTIN_ABOVE_BYTES else "none")
    if threads > g.max_threads_per_block:
        c.dropped = "threads"
        try:
            calc(g, threads, **launch)
            c.reason = f"{threads} threads exceed the {g.max_threads_per_block} per block"
        except OccError as e:  # libocc's words
            c.reason = f"num_warps {num_warps}: {e}"
        return c
    if smem_bytes is not None and smem_bytes > g.smem_per_block_optin_bytes:
        c.dropped = "shared_mem"
        c.reason = (f"shared memory {smem_bytes:,} bytes ({smem_from}) above the "
                    f"{g.smem_per_block_optin_bytes:,}-byte opt-in maximum per block of {g.name}")
        return c
    r = calc(g, threads, **launch)
    c.result, c.blocks_per_sm, c.occupancy, c.limiters = (r, r.blocks_per_sm, r.occupancy,
                                                          r.limiters)
    if r.blocks_per_sm == 0:
        c.dropped = "no_block"
        c.reason = f"no block fits an SM of {g.name}: {r.zero_reason}"
        return c
    if num_ctas > 1:
        try:
            cl = cluster(g, threads, num_ctas, **launch)
        except OccError as e:
            if g.sm_count is None and "SM count" in str(e):
                cl = None  # a generic entry: the size was checked, the count cannot be
                if num_ctas > 8:
                    c.dropped, c.reason = "cluster", (
                        f"num_ctas {num_ctas}: clusters of more than 8 blocks are not portable")
                    return c
            else:
                c.dropped, c.reason = "cluster", f"num_ctas {num_ctas}: {e}"
                return c
        if cl is not None:
            c.cluster = cl
            if cl.launch_refused or cl.max_active_clusters == 0:
                c.dropped, c.reason = "cluster", (
                    f"num_ctas {num_ctas}: no cluster of {num_ctas} blocks can be active on "
                    f"{g.name}")
                return c
            c.blocks_per_sm = cl.blocks_per_sm
            if g.sm_count:
                c.occupancy = cl.active_blocks * r.warps_per_block / (g.sm_count *
                                                                       r.max_warps_per_sm)
    c.launches = True
    c.grid_blocks = _grid_blocks(grid, config, args)
    if c.grid_blocks is not None and c.grid_blocks > 0 and g.sm_count:
        warps_per_block = r.warps_per_block
        if c.cluster is not None:  # a wave is every active cluster
            c.waves = waves(c.cluster.max_active_clusters, 1, c.grid_blocks)
            resident = min(c.grid_blocks, c.cluster.max_active_clusters) * num_ctas
        else:
            c.waves = waves(r.blocks_per_sm, g.sm_count, c.grid_blocks)
            resident = min(c.grid_blocks, r.blocks_per_sm * g.sm_count)
        c.occupancy_at_size = resident * warps_per_block / (g.sm_count * r.max_warps_per_sm)
    return c


def _rank(checks: list[ConfigCheck]) -> None:
    """Ranks the configs that launch, where each has an occupancy at the
    problem size: the most first, then the least tail (idle block slots
    of the last wave), then the list's order."""
    ranked = [c for c in checks if c.launches]
    if not ranked or any(c.occupancy_at_size is None for c in ranked):
        return
    ranked.sort(key=lambda c: (-round(c.occupancy_at_size, 12),
                               round(c.waves.tail_idle_fraction, 12), c.index))
    for i, c in enumerate(ranked, 1):
        c.rank = i


def _summary(checks: list[ConfigCheck]) -> str:
    """Dropped configs counted by reason, with the first of each."""
    by: dict[str, list[ConfigCheck]] = {}
    for c in checks:
        by.setdefault(c.dropped or "", []).append(c)
    words = {"threads": "threads", "shared_mem": "shared memory", "no_block": "no block",
             "cluster": "the cluster"}
    parts = []
    for kind, items in by.items():
        first = items[0]
        more = f" and {len(items) - 1} more" if len(items) > 1 else ""
        parts.append(f"{len(items)} for {words.get(kind, kind)} (config {first.index}{more}: "
                     f"{first.reason})")
    return "; ".join(parts)


def prune(
    configs: Sequence[Any],
    named_args: Mapping[str, Any] | None = None,
    *,
    gpu: GpuLike | None = None,
    keep: int | None = None,
    smem: SmemFn | int | None = None,
    regs: RegsFn | int | None = None,
    grid: Grid | None = None,
    **kwargs: Any,
) -> list:
    """The configs of a Triton autotune list that can launch on the GPU, in
    the list's order; with ``keep=k``, of those the k with the best
    predicted occupancy at the problem size. Usable as Triton's
    early_config_prune (Triton passes the kernel's keyword arguments as
    kwargs): ``functools.partial(occ.triton.prune, gpu="H200")``, or
    ``occ.triton.pruner(gpu="H200")``, which also keeps its checks.

    occ.triton.check says what is dropped and why, and defines the
    estimates; the ranking is by the occupancy at the problem size (the
    blocks resident in the grid's first wave, at most blocks per SM x SMs,
    x warps per block, over SMs x the SM's warp slots), the least tail
    (idle block slots of the last wave, occ.waves) on a tie, then the
    list's order.

    Args:
        configs, named_args, gpu, smem, regs, grid, kwargs: as occ.triton.check.
        keep: keep at most this many (1 or more); None: every config that
            launches.

    Returns:
        The config objects themselves, never an empty list.

    Raises:
        OccError: every config dropped (the message counts them by reason,
            with the first of each), an empty list, keep below 1, or keep
            where the problem size or the GPU's SM count is unknown.
    """
    if keep is not None and (isinstance(keep, bool) or not isinstance(keep, int) or keep < 1):
        raise OccError(f"keep {keep!r}: the number of configs to keep, at least 1",
                       status="invalid argument", code=1, field="keep")
    if not configs:
        raise OccError("occ.triton.prune: no configs to prune", status="invalid argument",
                       code=1, field="configs")
    checks = check(configs, named_args, gpu=gpu, smem=smem, regs=regs, grid=grid, **kwargs)
    return _kept(checks, keep)


def _kept(checks: list[ConfigCheck], keep: int | None) -> list:
    launching = [c for c in checks if c.launches]
    if not launching:
        raise OccError(f"occ.triton.prune: none of the {len(checks)} configs can launch: "
                       + _summary(checks), status="invalid argument", code=1,
                       field="configs")
    if keep is None or keep >= len(launching):
        return [c.config for c in launching]
    if any(c.rank is None for c in launching):
        missing = next(c for c in launching if c.rank is None)
        why = ("the GPU has no SM count (a generic entry): name a product"
               if missing.grid_blocks is not None else
               "the problem size is unknown: give grid= (Triton's grid function), or name "
               "the sizes M and N among the kernel's arguments")
        raise OccError(f"occ.triton.prune: keep={keep} ranks by the occupancy at the problem "
                       f"size, and {why}", status="invalid argument", code=1, field="keep")
    best = {c.index for c in sorted(launching, key=lambda c: c.rank)[:keep]}
    return [c.config for c in launching if c.index in best]


class Pruner:
    """occ.triton.prune with its arguments bound, called as Triton calls
    early_config_prune: ``pruner(configs, named_args, **kwargs)``. After
    each call ``checks`` holds occ.triton.check's answer for every config
    and ``kept`` the configs returned."""

    def __init__(self, *, gpu: GpuLike | None = None, keep: int | None = None,
                 smem: SmemFn | int | None = None, regs: RegsFn | int | None = None,
                 grid: Grid | None = None) -> None:
        if keep is not None and (isinstance(keep, bool) or not isinstance(keep, int)
                                 or keep < 1):
            raise OccError(f"keep {keep!r}: the number of configs to keep, at least 1",
                           status="invalid argument", code=1, field="keep")
        self.gpu = gpu_of(gpu) if gpu is not None else None
        self.keep = keep
        self.smem, self.regs, self.grid = smem, regs, grid
        self.checks: list[ConfigCheck] = []
        self.kept: list = []

    def __call__(self, configs: Sequence[Any], named_args: Mapping[str, Any] | None = None,
                 **kwargs: Any) -> list:
        if not configs:
            raise OccError("occ.triton.prune: no configs to prune", status="invalid argument",
                           code=1, field="configs")
        self.checks = _check_all(configs, {**(named_args or {}), **kwargs}, self.gpu,
                                 self.smem, self.regs, self.grid)
        self.kept = _kept(self.checks, self.keep)
        return self.kept

    def __repr__(self) -> str:
        return f"occ.triton.pruner(gpu={self.gpu and self.gpu.name!r}, keep={self.keep!r})"


def pruner(
    *,
    gpu: GpuLike | None = None,
    keep: int | None = None,
    smem: SmemFn | int | None = None,
    regs: RegsFn | int | None = None,
    grid: Grid | None = None,
) -> Pruner:
    """occ.triton.prune as the function Triton's autotuner calls:

        @triton.autotune(configs=CONFIGS, key=["M", "N", "K"],
                         prune_configs_by={"early_config_prune":
                                           occ.triton.pruner(gpu="H200", keep=8)})

    The arguments are prune's; the kernel's own keyword arguments never
    collide with them (Triton passes those as the call's kwargs). The
    pruner keeps the last call's checks (``.checks``) and result (``.kept``).

    Raises:
        OccError: a GPU occ does not know, keep below 1.
    """
    return Pruner(gpu=gpu, keep=keep, smem=smem, regs=regs, grid=grid)


__all__ = [
    "ConfigCheck",
    "OccError",
    "Pruner",
    "TritonOccupancy",
    "check",
    "estimate_regs",
    "from_triton",
    "matmul_smem_bytes",
    "prune",
    "pruner",
]
