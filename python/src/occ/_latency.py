"""occ.latency: Little's law for a kernel's loads (docs/latency-model.md)."""

from __future__ import annotations

import ctypes
from dataclasses import dataclass

from . import _native as n
from ._calc import calc
from ._errors import OccError
from ._gpu import GpuLike, gpu_of
from ._kernel import Threads

_byref = ctypes.byref


@dataclass
class LatencyModel:
    """The memory system (occ_memory_model), and where its latency comes from."""

    latency_ns: float  # unloaded latency of one load (a DRAM round trip)
    peak_gb_per_s: float  # reachable bandwidth
    loaded_latency_factor: float  # latency growth at full load; 0: none
    max_bytes_in_flight_per_sm: float  # a per-SM request limit; 0: none
    sm_count: int
    max_gb_per_s_per_warp: float  # the most one warp's loads move; 0: no limit
    latency_source: str  # measured, published, architecture, given
    latency_citation: str | None  # where the figure comes from (docs/hardware.md)


@dataclass
class LatencyInput:
    """The kernel's memory behaviour (occ_latency_input)."""

    warps_per_sm: float
    occupancy: float
    loads_in_flight_per_thread: float  # independent loads before the first use (ILP)
    bytes_per_load: float
    active_sms: int
    bytes_moved_per_byte_loaded: float
    spill_bytes_per_byte_loaded: float


@dataclass
class LatencyPrediction:
    """What Little's law predicts (occ_latency_result)."""

    bytes_in_flight_per_sm: float
    bytes_in_flight_needed_per_sm: float  # to saturate the reachable bandwidth
    predicted_gb_per_s: float
    fraction_of_peak: float
    loaded_latency_ns: float
    bound: str  # latency, bandwidth, request limit, warp rate
    warps_needed_per_sm: float  # at this ILP, to saturate
    occupancy_needed: float
    loads_per_thread_needed: float  # at these warps, to saturate


@dataclass
class Latency:
    """``occ latency --json``'s content: the model, the input and the
    prediction; ``kernel_blocks_per_sm`` when the warps came from a kernel."""

    model: LatencyModel
    input: LatencyInput
    prediction: LatencyPrediction
    kernel_blocks_per_sm: int | None


def _fail(message: str, field: str) -> OccError:
    return OccError(message, status="invalid argument", code=1, field=field)


def latency(
    gpu: GpuLike,
    *,
    warps: float | None = None,
    threads: Threads | None = None,
    regs: int = 0,
    smem: int = 0,
    dyn_smem: int = 0,
    barriers: int = 1,
    carveout: int | str | None = None,
    max_threads: int | None = None,
    optin: int | str = "max",
    smem_config: int | None = None,
    partitioned_gc: str = "off",
    ilp: float = 1.0,
    bytes_per_load: float = 4.0,
    traffic_ratio: float = 1.0,
    latency_ns: float | None = None,
    bandwidth: float | None = None,
    sms: int | None = None,
    active_sms: int | None = None,
    loaded_latency_factor: float = 0.0,
    request_limit: float = 0.0,
    warp_rate: float = 0.0,
    spill_ratio: float = 0.0,
) -> Latency:
    """Whether a kernel's loads in flight saturate memory, by Little's law
    (libocc's occ_latency_predict; ``occ latency --json``).

    Resident warps per SM come from ``warps``, or from the kernel
    (``threads``, ``regs``, ... as occ.calc takes them): give one.

    Args:
        ilp: independent loads in flight per thread.
        bytes_per_load: bytes per thread per load (4 for a float).
        traffic_ratio: all bytes moved per byte loaded (1.5 for
            out = a*x + y).
        latency_ns, bandwidth, sms: the memory system; None takes the
            GPU's database entry (its latency measured, published or its
            architecture's: ``model.latency_source`` says which).
        active_sms: SMs holding warps, for grids smaller than the GPU.
        loaded_latency_factor, request_limit, warp_rate: calibrated terms
            (docs/latency-model.md); 0 leaves each out.
        spill_ratio: local-memory (spill) bytes per byte loaded.

    Raises:
        OccError: a value out of range, a GPU without a latency, bandwidth
            or SM count (give them), or a kernel of which no block fits.
    """
    g = gpu_of(gpu)
    if (warps is None) == (threads is None):
        raise _fail("warps or threads: give one (resident warps, or the kernel to compute "
                    "them)", "warps")
    max_warps = g.max_warps_per_sm
    if warps is not None and warps > max_warps:
        raise _fail(f"warps {warps:g} exceed the {max_warps} warps an SM of {g.name} holds",
                    "warps")
    model = n.MemoryModel(
        latency_ns if latency_ns is not None else (g.mem_latency_ns or 0),
        bandwidth if bandwidth is not None else (g.mem_bandwidth_gb_per_s or 0),
        loaded_latency_factor,
        request_limit,
        sms if sms is not None else (g.sm_count or 0),
        warp_rate,
    )
    if model.latency_ns <= 0:
        raise _fail(f"GPU {g.name}: has no memory latency in the database; give latency_ns",
                    "latency_ns")
    if model.peak_gb_per_s <= 0:
        raise _fail(f"GPU {g.name}: has no memory bandwidth in the database; give bandwidth",
                    "bandwidth")
    if model.sm_count <= 0:
        raise _fail(f"GPU {g.name}: has no SM count in the database; give sms", "sms")
    blocks = None
    if threads is not None:
        r = calc(g, threads, regs=regs, smem=smem, dyn_smem=dyn_smem, barriers=barriers,
                 carveout=carveout, max_threads=max_threads, optin=optin,
                 smem_config=smem_config, partitioned_gc=partitioned_gc)
        if r.warps_per_sm <= 0:
            raise OccError(f"nothing fits: no block of this kernel is resident on {g.name} "
                           f"({r.zero_reason})", status="not found", code=4, field="threads")
        warps = r.warps_per_sm
        blocks = r.blocks_per_sm
    given = n.LatencyInput(warps, ilp, bytes_per_load, active_sms or 0, traffic_ratio,
                           spill_ratio)
    out = n.LatencyResult()
    err = n.Error()
    if n.lib.occ_latency_predict(_byref(model), _byref(given), _byref(out), _byref(err)):
        n.raise_error(err)
    source = "given" if latency_ns is not None else g.mem_latency_source
    return Latency(
        LatencyModel(model.latency_ns, model.peak_gb_per_s, model.loaded_latency_factor,
                     model.max_bytes_in_flight_per_sm, model.sm_count,
                     model.max_gb_per_s_per_warp, source,
                     None if latency_ns is not None else g.mem_latency_citation),
        LatencyInput(given.warps_per_sm, given.warps_per_sm / max_warps,
                     given.loads_in_flight_per_thread, given.bytes_per_load,
                     given.active_sms if given.active_sms > 0 else model.sm_count,
                     traffic_ratio, spill_ratio),
        LatencyPrediction(out.bytes_in_flight_per_sm, out.bytes_in_flight_needed_per_sm,
                          out.predicted_gb_per_s, out.fraction_of_peak, out.loaded_latency_ns,
                          n.text(n.lib.occ_latency_bound_name(out.bound)) or "",
                          out.warps_needed_per_sm, out.warps_needed_per_sm / max_warps,
                          out.loads_per_thread_needed),
        blocks,
    )


@dataclass
class AchievedGap:
    """Why achieved occupancy is below theoretical (occ_gap_result; the
    ``gap`` object of ``occ ncu --json``). Occupancies are 0..1."""

    cause: str  # none, small_grid, tail, clusters, in_kernel, not_measured, no_grid
    gap: float  # theoretical - achieved; 0 when not measured
    grid_bound: float  # the occupancy the grid allows
    cluster_loss: float  # block slots clusters leave empty
    small_grid_loss: float  # a grid below one wave
    tail_loss: float  # a partial last wave
    in_kernel: float  # grid_bound - achieved (negative: above the model)
    wave_blocks: int  # blocks resident at once on the GPU
    grid_blocks: int
    full_waves: int
    last_wave_blocks: int
    active_sms: int  # SMs holding a block in the first wave


def achieved_gap(result, sm_count: int, grid_blocks: int, achieved: float | None = None,
                 cluster_size: int = 0, active_clusters: int = 0) -> AchievedGap:
    """libocc's model of achieved against theoretical occupancy
    (occ_achieved_gap; docs/ncu.md): ``result`` is a :class:`CalcResult`
    (``occ.calc``), ``achieved`` Nsight Compute's achieved occupancy (0..1)
    or None where it was not measured. Blocks of equal duration run in
    waves; what the grid leaves empty (a grid below one wave, a partial
    last wave, clusters) is split from what happens inside the kernel.

    Raises:
        OccError: a negative count, or an occupancy outside 0..1.
    """
    for name, value in (("sm_count", sm_count), ("grid_blocks", grid_blocks),
                        ("cluster_size", cluster_size), ("active_clusters", active_clusters)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise OccError(f"{name} must be an int, not {type(value).__name__}")
    given = n.GapInput()
    given.blocks_per_sm = result.blocks_per_sm
    given.warps_per_block = result.warps_per_block
    given.max_warps_per_sm = result.max_warps_per_sm
    given.sm_count = sm_count
    given.grid_blocks = grid_blocks
    given.cluster_size = cluster_size
    given.active_clusters = active_clusters
    given.theoretical = result.occupancy
    given.achieved_measured = achieved is not None
    given.achieved = float(achieved) if achieved is not None else 0.0
    out = n.GapResult()
    err = n.Error()
    if n.lib.occ_achieved_gap(_byref(given), _byref(out), _byref(err)):
        n.raise_error(err)
    return AchievedGap(n.lib.occ_gap_cause_name(out.cause).decode(), out.gap, out.grid_bound,
                       out.cluster_loss, out.small_grid_loss, out.tail_loss, out.in_kernel,
                       out.wave_blocks, out.grid_blocks, out.full_waves, out.last_wave_blocks,
                       out.active_sms)
