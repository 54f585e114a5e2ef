"""Launch configuration: occ.sweep (Nsight's staircases), occ.suggest (the
occupancy API's block size), occ.waves and occ.dyn_smem_available."""

from __future__ import annotations

import ctypes
import operator
from dataclasses import dataclass
from typing import Callable, Union

from . import _native as n
from ._calc import calc
from ._errors import OccError
from ._gpu import GpuLike, device_of, gpu_of
from ._kernel import Threads, block_dims, make

_byref = ctypes.byref

AXES = ("regs", "smem", "threads", "barriers")  # occ_sweep_axis 0..3


@dataclass
class SweepPoint:
    """One x of a sweep and the residency there."""

    value: int  # registers, bytes per block as allocated, threads or barriers
    blocks_per_sm: int
    warps_per_sm: int
    occupancy: float


@dataclass
class Sweep:
    """Resident warps per SM as one input varies (occ_sweep; ``occ sweep AXIS
    --json``): Nsight Compute's "Impact of Varying ..." chart, at its x
    points with its values."""

    axis: str  # regs, smem, threads, barriers
    smem_config_bytes: int  # the shared-memory configuration held fixed
    current: SweepPoint  # the kernel as given
    points: list[SweepPoint]


def _axis(axis: str) -> int:
    try:
        return AXES.index(axis)
    except ValueError:
        raise OccError(
            f"axis {axis!r} is not one of regs, smem, threads, barriers",
            status="invalid argument",
            code=1,
            field="axis",
        ) from None


def sweep(
    axis: str,
    gpu: GpuLike,
    threads: Threads,
    *,
    regs: int = 0,
    smem: int = 0,
    dyn_smem: int = 0,
    barriers: int = 1,
    carveout: int | str | None = None,
    max_threads: int | None = None,
    optin: int | str = "max",
    smem_config: int | None = None,
    partitioned_gc: str = "off",
) -> Sweep:
    """Resident warps per SM as one input varies and the others stay as
    given, at the x points Nsight Compute draws (libocc's occ_sweep):

    - "regs": 0 .. 256 registers per thread;
    - "smem": 0, 512, ... bytes per block as allocated (static + dynamic +
      the driver's reserve), below the SM's shared memory;
    - "threads": 1, 16, 32, 48, ... the GPU's maximum block size;
    - "barriers": 0 .. 64.

    The SM's shared-memory configuration stays fixed along the curve, as
    Nsight holds the launch's: pass Nsight's in ``smem_config`` to
    reproduce its chart. The other arguments are occ.calc's.

    Raises:
        OccError: an unknown axis, or a kernel occ.calc refuses.
    """
    a = _axis(axis)
    dev = device_of(gpu)
    k = make(threads, regs, smem, dyn_smem, barriers, carveout, max_threads, optin, smem_config,
             partitioned_gc)
    err = n.Error()
    r = n.Result()
    if n.lib.occ_calc(_byref(dev), _byref(k), _byref(r), _byref(err)):
        n.raise_error(err)
    cap = n.lib.occ_sweep_point_count(_byref(dev), a)
    points = (n.SweepPoint * cap)()
    count = ctypes.c_int()
    current = ctypes.c_int()
    if n.lib.occ_sweep(_byref(dev), _byref(k), a, points, cap, _byref(count), _byref(err)) or \
            n.lib.occ_sweep_current_value(_byref(dev), _byref(k), a, _byref(current),
                                          _byref(err)):
        n.raise_error(err)
    return Sweep(
        axis,
        r.smem_per_sm_bytes,
        SweepPoint(current.value, r.blocks_per_sm, r.warps_per_sm, r.occupancy),
        [SweepPoint(p.value, p.blocks_per_sm, p.warps_per_sm, p.occupancy)
         for p in points[: count.value]],
    )


@dataclass
class Waves:
    """How a grid fills the GPU (occ_waves_result)."""

    waves_per_sm: float  # grid / (blocks per SM x SMs): Nsight's launch__waves_per_multiprocessor
    full_waves: int  # waves in which every block slot is used
    last_wave_blocks: int  # blocks of the last wave
    last_wave_fraction: float  # how full the last wave is, 0..1
    persistent_grid_blocks: int  # blocks per SM x SMs: one full wave
    tail_idle_fraction: float  # block slots idle over the launch, equal-time blocks


def waves(blocks_per_sm: int, sm_count: int, grid_blocks: int) -> Waves:
    """The waves of a grid of ``grid_blocks`` blocks at ``blocks_per_sm``
    resident blocks on ``sm_count`` SMs (libocc's occ_launch_waves).

    Raises:
        OccError: a count that is not positive.
    """
    w = n.WavesResult()
    err = n.Error()
    if n.lib.occ_launch_waves(blocks_per_sm, sm_count, grid_blocks, _byref(w), _byref(err)):
        n.raise_error(err)
    return Waves(w.waves_per_sm, w.full_waves, w.last_wave_blocks, w.last_wave_fraction,
                 w.persistent_grid_blocks, w.tail_idle_fraction)


@dataclass
class Launch:
    """A grid of ``grid_blocks`` blocks of ``block_size`` threads, and its waves."""

    grid_blocks: int
    block_size: int
    elements: int  # 0 when the grid was given in blocks
    per_thread: int
    waves: Waves


@dataclass
class Suggestion:
    """The occupancy API's launch advice (``occ suggest --json``)."""

    block_size: int  # cudaOccupancyMaxPotentialBlockSize's blockSize
    min_grid_size: int  # and its minGridSize: one full wave (0 on a GPU without an SM count)
    blocks_per_sm: int  # at block_size
    occupancy: float  # at block_size
    max_occupancy_warps_per_sm: int  # the most warps any whole-warp block size reaches
    max_occupancy_block_sizes: list[int]  # every whole-warp block size that reaches them
    launch: Launch | None  # with elements or blocks


DynSmem = Union[int, Callable[[int], int]]


def _callback_bytes(value: object, block_size: int) -> int:
    """A dynamic shared-memory size a dyn_smem function returned, checked."""
    v = operator.index(value)  # TypeError for a float or None
    if v < 0:
        raise OccError(f"dyn_smem({block_size}) returned {v}: bytes cannot be negative",
                       status="invalid argument", code=1, field="dyn_smem")
    return v


def suggest(
    gpu: GpuLike,
    *,
    regs: int = 0,
    smem: int = 0,
    dyn_smem: DynSmem = 0,
    barriers: int = 1,
    carveout: int | str | None = None,
    max_threads: int | None = None,
    optin: int | str = "max",
    smem_config: int | None = None,
    partitioned_gc: str = "off",
    block_size_limit: int = 0,
    threads: Threads | None = None,
    elements: int | None = None,
    per_thread: int = 1,
    blocks: int | None = None,
    sms: int | None = None,
) -> Suggestion:
    """The block size cudaOccupancyMaxPotentialBlockSize picks (the largest
    with the most resident threads, within ``max_threads`` and
    ``block_size_limit``) and its minimum grid, one full wave (libocc's
    occ_max_potential_block_size); every whole-warp block size that reaches
    the maximum occupancy; and with ``elements`` (``per_thread`` each) or
    ``blocks``, the grid's waves (occ_launch_waves) at ``threads`` or, by
    default, at the pick.

    ``dyn_smem`` may be a function of the block size returning bytes, as
    cudaOccupancyMaxPotentialBlockSizeVariableSMem takes. ``sms`` gives a
    generic entry (sm_90) an SM count. The pick maximises occupancy, which
    is not the same as minimising time: time a few sizes. The other
    arguments are occ.calc's.

    Raises:
        OccError: a kernel occ.calc refuses, no block size that fits, or a
            grid on a GPU without an SM count.
    """
    g = gpu_of(gpu)
    dev = n.Device.from_buffer_copy(g._device)
    if sms is not None:
        dev.sm_count = sms
    callback = None
    dyn_bytes = 0
    failures: list[BaseException] = []
    if callable(dyn_smem):
        def smem_for(block_size: int, _context: object) -> int:
            # An exception cannot cross the C frames: keep it, raise it after.
            try:
                return _callback_bytes(dyn_smem(block_size), block_size)
            except BaseException as e:  # noqa: B902 - re-raised below
                failures.append(e)
                return 0
        callback = n.SMEM_FOR_BLOCK_FN(smem_for)
    else:
        dyn_bytes = dyn_smem
    # kernel.block_* is ignored by the pick; a valid 32 keeps the checks quiet
    k = make(threads if threads is not None else 32, regs, smem, dyn_bytes, barriers, carveout,
             max_threads, optin, smem_config, partitioned_gc)
    pick = n.BlockSizeResult()
    err = n.Error()
    if n.lib.occ_max_potential_block_size(_byref(dev), _byref(k), block_size_limit,
                                          callback or n.SMEM_FOR_BLOCK_FN(), None, _byref(pick),
                                          _byref(err)):
        if failures:
            raise failures[0]
        n.raise_error(err)
    if failures:
        raise failures[0]
    kw = dict(regs=regs, smem=smem, barriers=barriers, carveout=carveout,
              max_threads=max_threads, optin=optin, smem_config=smem_config,
              partitioned_gc=partitioned_gc)

    def at(size: int):
        dyn = dyn_smem(size) if callable(dyn_smem) else dyn_bytes
        return calc(g, size, dyn_smem=dyn, **kw)

    name = g.name
    if pick.block_size <= 0 or pick.blocks_per_sm <= 0:
        raise OccError(f"no block size fits on {name}: {at(32).zero_reason}",
                       status="not found", code=4, field="threads")
    limit = dev.max_threads_per_block
    if max_threads and max_threads < limit:
        limit = max_threads
    warps = {size: at(size).warps_per_sm for size in range(32, limit + 1, 32)}
    best = max(warps.values(), default=0)
    launch = None
    if elements is not None or blocks is not None:
        if elements is not None and blocks is not None:
            raise OccError("elements and blocks: give one", status="invalid argument", code=1,
                           field="blocks")
        if dev.sm_count <= 0:
            raise OccError(f"GPU {name}: has no SM count (a generic entry); name a GPU or give "
                           "sms", status="invalid argument", code=1, field="sms")
        if threads is not None:
            x, y, z = block_dims(threads)
            size = x * y * z
        else:
            size = pick.block_size
        grid = blocks if blocks is not None else -(-elements // (size * per_thread))
        resident = at(size)
        if resident.blocks_per_sm <= 0:
            raise OccError(f"{size} threads per block cannot run on {name}: "
                           f"{resident.zero_reason}", status="not found", code=4,
                           field="threads")
        launch = Launch(grid, size, elements or 0, per_thread,
                        waves(resident.blocks_per_sm, dev.sm_count, grid))
    return Suggestion(pick.block_size, pick.min_grid_size, pick.blocks_per_sm, pick.occupancy,
                      best, [s for s, w in warps.items() if best > 0 and w == best], launch)


@dataclass
class DynSmemAvailable:
    """Dynamic shared memory per block at which ``num_blocks`` blocks fit."""

    driver_bytes: int  # what cudaOccupancyAvailableDynamicSMemPerBlock returns
    fitting_bytes: int  # the largest that really fits (the driver's answer
    # ignores the reserved shared memory, so it can let one block fewer fit)


def dyn_smem_available(
    gpu: GpuLike,
    num_blocks: int,
    block_size: int,
    *,
    regs: int = 0,
    smem: int = 0,
    barriers: int = 1,
    carveout: int | str | None = None,
    max_threads: int | None = None,
    optin: int | str = "max",
    smem_config: int | None = None,
    partitioned_gc: str = "off",
) -> DynSmemAvailable:
    """cudaOccupancyAvailableDynamicSMemPerBlock(num_blocks, block_size) for
    the kernel, and the value that truly fits (libocc's
    occ_dyn_smem_available). The other arguments are occ.calc's.

    Raises:
        OccError: ``num_blocks`` blocks cannot be resident even without
            dynamic shared memory ("not found"), or a kernel occ.calc
            refuses.
    """
    k = make(block_size, regs, smem, 0, barriers, carveout, max_threads, optin, smem_config,
             partitioned_gc)
    out = n.DynSmemResult()
    err = n.Error()
    if n.lib.occ_dyn_smem_available(_byref(device_of(gpu)), _byref(k), num_blocks, block_size,
                                    _byref(out), _byref(err)):
        n.raise_error(err)
    return DynSmemAvailable(out.driver_bytes, out.fitting_bytes)
