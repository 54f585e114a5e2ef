"""occ.calc and occ.explain: one kernel launch's occupancy, and the
derivation in words."""

from __future__ import annotations

import ctypes
import struct
from dataclasses import dataclass

from . import _kernel
from . import _native as n
from . import _gpu
from ._gpu import Gpu as _Gpu
from ._gpu import GpuLike, device_of
from ._kernel import Threads

_byref = ctypes.byref
_UNLIMITED = n.UNLIMITED

# occ_result read in one struct.unpack rather than field by field: the
# format follows the ctypes declaration, so it cannot drift from it.
_CODES = {ctypes.c_int: "i", ctypes.c_uint: "I", ctypes.c_double: "d", ctypes.c_bool: "?"}
_RESULT_FORMAT = struct.Struct("@" + "".join(_CODES[t] for _, t in n.Result._fields_))
_unpack_result = _RESULT_FORMAT.unpack_from


def limiter_names(mask: int) -> tuple[str, ...]:
    """The names of the occ_limiter bits in ``mask``, in the CLI's order:
    warps, blocks, registers, shared_mem, barriers."""
    return tuple(name for name, bit in n.LIMITER_BITS if mask & bit)


_LIMITER_NAMES = tuple(limiter_names(mask) for mask in range(32))
_ZERO_REASONS = tuple(n.text(n.lib.occ_zero_reason_text(z)) or None for z in range(8))


@dataclass(slots=True)
class Allocation:
    """What the launch allocates (occ_result's allocation fields; the
    ``allocation`` object of ``occ calc --json``)."""

    regs_per_warp: int  # registers x 32, rounded up to the allocation unit
    regs_per_block: int
    warps_per_sm_by_regs: int  # warps the register file holds, by sub-partition
    smem_per_block_bytes: int | None  # static + dynamic + reserved, rounded up
    smem_per_block_limit_bytes: int  # the most one block may have
    smem_per_sm_bytes: int  # the configuration the carveout gives
    smem_preferred_bytes: int  # what the carveout preference asked for
    partitioned_gc_on: bool
    needs_optin: bool  # more than 48 KB: cudaFuncSetAttribute needed
    exceeds_launch_bounds: bool  # the launch fails; blocks_per_sm is still the API's


@dataclass(slots=True)
class CalcResult:
    """The occupancy of one launch (occ_result; the ``result`` object of
    ``occ calc --json``).

    ``limits`` gives the blocks per SM each resource allows, keyed warps,
    blocks, registers, shared_mem and barriers (Nsight Compute's Block
    Limit rows), None for a resource the kernel does not use, which
    cannot bind. ``limiters`` names every limit equal to ``blocks_per_sm``
    (a tie names several). ``zero_reason`` says why no block fits, or is
    None.
    """

    blocks_per_sm: int  # cudaOccupancyMaxActiveBlocksPerMultiprocessor
    warps_per_sm: int
    threads_per_sm: int
    max_warps_per_sm: int
    warps_per_block: int
    threads_per_block: int
    occupancy: float  # warps_per_sm / max_warps_per_sm, 0..1
    limits: dict[str, int | None]
    limiters: tuple[str, ...]
    zero_reason: str | None
    allocation: Allocation


def _limit(v: int) -> int | None:
    return None if v == _UNLIMITED else v


def result_from(r) -> CalcResult:
    """A CalcResult from an occ_result (a ctypes struct or its bytes)."""
    (
        threads_per_block,
        warps_per_block,
        blocks_per_sm,
        warps_per_sm,
        threads_per_sm,
        max_warps_per_sm,
        occupancy,
        lw,
        lb,
        lr,
        ls,
        lbar,
        limiters,
        zero_reason,
        regs_per_warp,
        regs_per_block,
        warps_by_regs,
        smem_block,
        smem_block_limit,
        smem_sm,
        smem_preferred,
        gc_on,
        needs_optin,
        exceeds,
    ) = _unpack_result(r)
    return CalcResult(
        blocks_per_sm,
        warps_per_sm,
        threads_per_sm,
        max_warps_per_sm,
        warps_per_block,
        threads_per_block,
        occupancy,
        {
            "warps": None if lw == _UNLIMITED else lw,
            "blocks": None if lb == _UNLIMITED else lb,
            "registers": None if lr == _UNLIMITED else lr,
            "shared_mem": None if ls == _UNLIMITED else ls,
            "barriers": None if lbar == _UNLIMITED else lbar,
        },
        _LIMITER_NAMES[limiters & 31],
        _ZERO_REASONS[zero_reason] if 0 <= zero_reason < len(_ZERO_REASONS) else None,
        Allocation(
            regs_per_warp,
            regs_per_block,
            warps_by_regs,
            None if smem_block == _UNLIMITED else smem_block,
            smem_block_limit,
            smem_sm,
            smem_preferred,
            gc_on,
            needs_optin,
            exceeds,
        ),
    )


_make = _kernel.make
_pack = _kernel.pack
_named = _gpu.named
# occ_calc with plain pointers: the device's address, the packed kernel's
# bytes and a result buffer (the ctypes struct conversions cost as much as
# the rest of the call).
_calc_raw = n.lib["occ_calc"]
_calc_raw.restype = ctypes.c_int
_calc_raw.argtypes = (ctypes.c_void_p,) * 4
_ResultBuffer = ctypes.c_char * ctypes.sizeof(n.Result)


def _refused(g, kernel_bytes: bytes) -> None:
    """OccError for a kernel occ_calc refused, with its message (asked
    again with an occ_error: the fast path passes none)."""
    err = n.Error()
    _calc_raw(g._address, kernel_bytes, _ResultBuffer(), ctypes.addressof(err))
    n.raise_error(err)


def calc(
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
) -> CalcResult:
    """Resident blocks per SM of one kernel launch, as the CUDA driver's
    cudaOccupancyMaxActiveBlocksPerMultiprocessor computes them, with every
    limit and the allocation behind them (libocc's occ_calc; the same
    answer as ``occ calc --json``).

    Args:
        gpu: an occ.Gpu, or a name: "H200", "a100-80gb", "sm_90", "9.0".
        threads: threads per block: 256, or (16, 16), or (8, 8, 4).
        regs: registers per thread, as ptxas -v reports them (0..255).
        smem: static shared memory per block, bytes (__shared__ arrays).
        dyn_smem: dynamic shared memory per block, bytes (the launch's
            third argument).
        barriers: block barriers the kernel uses (ptxas: "used N
            barriers"), 0..16; the driver assumes 1.
        carveout: cudaFuncAttributePreferredSharedMemoryCarveout, 0..100;
            None (or "default") for no preference.
        max_threads: the kernel's __launch_bounds__ maximum threads per
            block; None for none. A larger block still gets the driver's
            answer, and ``allocation.exceeds_launch_bounds`` says the
            launch would fail.
        optin: cudaFuncAttributeMaxDynamicSharedMemorySize: "max" (opted
            in to the GPU's maximum), "none" (never opted in), or bytes.
        smem_config: the SM's shared-memory configuration, bytes, as
            Nsight Compute shows it; None for the one the carveout gives.
        partitioned_gc: partitioned global caching (CC 5.2 to 6.2): "off",
            "on" or "strict".

    Returns:
        A CalcResult: ``blocks_per_sm``, ``warps_per_sm``, ``occupancy``,
        ``limits`` (None where a limit cannot bind), ``limiters``, ...

    Raises:
        OccError: a value the GPU cannot take (threads above its maximum,
            registers above 255, ...), with libocc's message.

    Example:
        >>> occ.calc("H200", 256, regs=64, smem=16384).blocks_per_sm
        4
    """
    g = gpu if type(gpu) is _Gpu else _named(gpu)
    k = _pack(threads, regs, smem, dyn_smem, barriers, carveout, max_threads, optin,
              smem_config, partitioned_gc)
    r = _ResultBuffer()
    if _calc_raw(g._address, k, r, None):
        _refused(g, k)
    return result_from(r)


def explain(
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
) -> str:
    """The occupancy worked out in words: each resource's limit with this
    kernel's numbers, what is left over, the smallest change of each input
    that gains residency, and when more occupancy buys nothing.

    The text ``occ explain`` prints, from libocc's occ_explain_text:
    headed paragraphs separated by blank lines, lines not wrapped (the CLI
    wraps them to 100 columns and puts a line naming the kernel above).
    The arguments are occ.calc's.

    Raises:
        OccError: as occ.calc.
    """
    k = _make(threads, regs, smem, dyn_smem, barriers, carveout, max_threads, optin,
              smem_config, partitioned_gc)
    buf = ctypes.create_string_buffer(n.EXPLAIN_TEXT_MAX)
    err = n.Error()
    length = n.lib.occ_explain_text(_byref(device_of(gpu)), _byref(k), buf, len(buf),
                                    _byref(err))
    if length == 0:
        n.raise_error(err)
    return buf.raw[:length].decode("utf-8")


@dataclass
class ExplainStep:
    """One resource's limit, worked with the kernel's numbers."""

    resource: str  # occ_limiter_name: warps, blocks, registers, shared memory, barriers
    limit_blocks: int | None  # None: the resource cannot bind
    binds: bool
    text: str


@dataclass
class ExplainOption:
    """A configuration one change away, and what it gives."""

    value: int
    blocks_per_sm: int
    warps_per_sm: int
    occupancy: float


@dataclass
class ExplainChange:
    """The nearest value of one input that gains residency (``next``) and the
    value nearest the current one that reaches the most that input alone
    can give (``best``); both None when changing it alone changes nothing."""

    input: str  # regs, smem, threads, barriers
    current_value: int
    helps: bool
    next: ExplainOption | None
    best: ExplainOption | None
    text: str


@dataclass
class Waste:
    """What is allocated or reserved but hosts no further block."""

    regs_unallocated_per_sm: int
    regs_rounding_per_warp: int
    smem_unused_per_sm_bytes: int
    warp_slots_unused: int
    warp_slots_stranded: int  # lost to block granularity when warp slots bind
    idle_lanes_per_block: int
    text: str


@dataclass
class Explanation:
    """occ_explain's parts (``occ explain --json``, docs/json.md)."""

    result: CalcResult
    summary: str
    steps: list[ExplainStep]
    waste: Waste
    changes: list[ExplainChange]
    caution: str


_INPUTS = ("regs", "smem", "threads", "barriers")  # occ_sweep_axis order


def _s(raw: bytes) -> str:
    return raw.decode("utf-8")


def _option(o: n.ExplainOption) -> ExplainOption:
    return ExplainOption(o.value, o.blocks_per_sm, o.warps_per_sm, o.occupancy)


def explanation(
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
) -> Explanation:
    """occ.explain's content in parts (libocc's occ_explain): the result, the
    summary, one step per resource, the waste, one change per input and the
    caution; the fields of ``occ explain --json``. The arguments are
    occ.calc's.

    Raises:
        OccError: as occ.calc.
    """
    k = _make(threads, regs, smem, dyn_smem, barriers, carveout, max_threads, optin,
              smem_config, partitioned_gc)
    e = n.Explanation()
    err = n.Error()
    if n.lib.occ_explain(_byref(device_of(gpu)), _byref(k), _byref(e), _byref(err)):
        n.raise_error(err)
    steps = [
        ExplainStep(n.text(n.lib.occ_limiter_name(s.resource)) or "", _limit(s.limit_blocks),
                    s.binds, _s(s.text))
        for s in e.steps[: e.step_count]
    ]
    changes = [
        ExplainChange(
            _INPUTS[c.input],
            c.current_value,
            c.helps,
            _option(c.next) if c.helps else None,
            _option(c.best) if c.helps else None,
            _s(c.text),
        )
        for c in e.changes[: e.change_count]
    ]
    waste = Waste(
        e.regs_unallocated_per_sm,
        e.regs_rounding_per_warp,
        e.smem_unused_per_sm_bytes,
        e.warp_slots_unused,
        e.warp_slots_stranded,
        e.idle_lanes_per_block,
        _s(e.waste),
    )
    return Explanation(result_from(e.result), _s(e.summary), steps, waste, changes,
                       _s(e.caution))
