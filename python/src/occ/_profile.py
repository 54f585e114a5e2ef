"""occ.profile: every kernel launch of a program's trace (PyTorch profiler
JSON, Nsight Systems SQLite export, nsys stats CSV), grouped by device,
kernel and launch configuration and computed with libocc, by libocc-profile
(include/occ_profile.h); and occ.from_torch_profiler for a live
torch.profiler.profile."""

from __future__ import annotations

import ctypes
import os
import tempfile
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Iterable, Union

from . import _native as n
from ._calc import limiter_names
from ._errors import OccError
from ._gpu import GpuLike, device_of

_byref = ctypes.byref
_UNKNOWN = n.PROFILE_UNKNOWN

PathLike = Union[str, "os.PathLike[str]"]


@dataclass
class ProfileInput:
    """One input file and the format its content was read as (the
    ``inputs`` entries of ``occ profile --json``)."""

    path: str
    format: str  # "kineto", "nsys-sqlite", "nsys-csv"


@dataclass
class ProfileGpu:
    """One GPU of the trace (occ_profile_device; an entry of the JSON's
    ``gpu`` list): what the trace recorded, and the GPU of occ's database
    the groups on it were computed with (None: none could be found)."""

    index: int  # the groups' ``gpu``
    input: int  # the input it came from
    trace_device: int  # the trace's device id
    trace_name: str | None  # "NVIDIA H200"; None where not recorded
    trace_sm_count: int | None
    trace_compute_capability: str | None  # "9.0"
    occ_gpu: str | None  # occ's name for it ("H200")
    sm_count: int | None  # occ's GPU's SMs
    launches: int
    gpu_time_us: float


@dataclass
class ProfileHistogramBin:
    """GPU time of the launches whose theoretical occupancy is in
    [from_percent, to_percent) percent (the last bin includes 100), as the
    JSON's histogram."""

    from_percent: int
    to_percent: int
    gpu_time_us: float


@dataclass
class ProfileSmemConfigCheck:
    """Launches whose trace records the shared-memory configuration the
    driver used (nsys's sharedMemoryExecuted), and those where it is not
    libocc's."""

    launches: int
    differ: int


@dataclass
class ProfileKinetoCheck:
    """Launches with Kineto's "est. achieved occupancy %", and how many of
    them fall under each cause (agrees, carveout, barriers, clusters, optin,
    threads, rounding, unexplained; docs/profile.md)."""

    launches: int
    by_cause: dict[str, int]


@dataclass
class ProfileChecks:
    """libocc against what the trace itself recorded (the JSON's ``checks``)."""

    smem_config: ProfileSmemConfigCheck
    kineto: ProfileKinetoCheck


@dataclass
class ProfileGroup:
    """The launches of one kernel with one launch configuration on one
    device, and libocc's answer for them (occ_profile_group; a ``groups``
    entry of ``occ profile --json``, same names, same order). A value the
    trace does not carry is None, and so is every computed figure of a group
    libocc did not compute (``note`` says why). ``limiters`` uses the
    package's names, as occ.calc's: "shared_mem" where the JSON writes
    "shared memory"."""

    index: int  # its place in Profile.groups (largest GPU time first)
    gpu: int  # index into Profile.gpu
    name: str  # demangled, as the trace gives it
    mangled: str | None
    block: tuple[int, int, int]
    grid: tuple[int, int, int]
    cluster: tuple[int, int, int] | None  # None: not a cluster launch (or not recorded)
    cluster_recorded: bool  # the trace records cluster dims (Kineto does not)
    registers_per_thread: int
    static_smem_bytes: int | None  # None where the trace has only the sum
    dyn_smem_bytes: int | None
    smem_bytes: int  # static + dynamic per block
    local_bytes_per_thread: int | None
    cache_preference: int | None  # the occ_cache_preference requested
    carveout_percent: int | None  # the carveout the kernel requested (CUPTI), 0..100
    launches: int
    gpu_time_us: float  # the sum of its launches' durations
    max_time_us: float  # the longest launch
    gpu_time_share: float  # of the whole program's GPU time
    computed: bool
    note: str | None  # why not computed, or a caution
    theoretical_occupancy: float | None
    limiters: tuple[str, ...]
    blocks_per_sm: int | None
    warps_per_sm: int | None
    smem_config_bytes: int | None  # libocc's launch-time shared-memory configuration
    smem_config_rule: str | None  # why that configuration (occ_smem_config_rule_name)
    trace_smem_config_bytes: int | None  # nsys's sharedMemoryExecuted
    trace_smem_config_differs: int  # launches whose sharedMemoryExecuted is not libocc's
    waves: float | None  # grid / (blocks per SM x SMs); None without SMs
    tail_idle_fraction: float | None  # block slots idle in the last wave
    grid_occupancy: float | None  # the occupancy the grid allows
    max_active_clusters: int | None  # cluster launches
    max_active_clusters_exact: bool | None  # False: an upper bound (no GPC layout)
    kineto_est_occupancy: float | None  # Kineto's estimate, 0..1 (the first launch's)
    kineto_model_occupancy: float | None  # Kineto's calculation redone by libocc
    kineto_cause: str | None  # why grid_occupancy and Kineto's estimate differ


@dataclass
class ProfileArrays:
    """The groups' numeric columns as NumPy arrays, one element per group
    in Profile.groups' order. Where a group has no value (not computed, no
    SM count, no Kineto estimate) a float column holds NaN and an int column
    -1; ``computed`` says which groups libocc computed."""

    gpu: Any  # int32
    launches: Any  # int64
    gpu_time_us: Any  # float64
    max_time_us: Any  # float64
    computed: Any  # bool
    theoretical_occupancy: Any  # float64, NaN where not computed
    blocks_per_sm: Any  # int32, -1 where not computed
    warps_per_sm: Any  # int32, -1 where not computed
    waves: Any  # float64, NaN where unknown
    tail_idle_fraction: Any  # float64
    grid_occupancy: Any  # float64
    registers_per_thread: Any  # int32
    smem_bytes: Any  # int32
    threads_per_block: Any  # int32: block x * y * z
    grid_blocks: Any  # int64: grid x * y * z
    smem_config_bytes: Any  # int32, -1 where not computed
    kineto_est_occupancy: Any  # float64, NaN where the trace has none


@dataclass
class Profile:
    """A whole program's launches (occ_profile_read; the document of
    ``occ profile --json``, same names). ``ranked`` lists the indices of
    the groups where more warps could matter most, by GPU time x (1 -
    occupancy), largest first (occ_profile_rank): every group with
    headroom, where the CLI's JSON keeps the first ``--explain`` + 20.
    ``arrays`` holds the groups' numeric columns as NumPy arrays."""

    inputs: list[ProfileInput]
    launches_read: int  # every kernel launch of every input
    launches_computed: int  # those libocc computed
    gpu_time_us: float  # the sum of all launches' durations
    weighted_occupancy: float | None  # theoretical occupancy weighted by GPU time
    gpu: list[ProfileGpu]
    histogram: list[ProfileHistogramBin]  # GPU time by occupancy decile
    checks: ProfileChecks
    ranked: list[int]
    groups: list[ProfileGroup]

    @cached_property
    def arrays(self) -> ProfileArrays:
        """The groups' numeric columns (NumPy needed)."""
        try:
            import numpy as np
        except ImportError:
            raise ImportError("occ.Profile.arrays needs NumPy: pip install numpy "
                              "(Debian: apt-get install python3-numpy)") from None
        g = self.groups

        def col(get, dtype):
            return np.fromiter((get(x) for x in g), dtype=dtype, count=len(g))

        def f(v):
            return np.nan if v is None else v

        def i(v):
            return -1 if v is None else v

        return ProfileArrays(
            gpu=col(lambda x: x.gpu, np.int32),
            launches=col(lambda x: x.launches, np.int64),
            gpu_time_us=col(lambda x: x.gpu_time_us, np.float64),
            max_time_us=col(lambda x: x.max_time_us, np.float64),
            computed=col(lambda x: x.computed, np.bool_),
            theoretical_occupancy=col(lambda x: f(x.theoretical_occupancy), np.float64),
            blocks_per_sm=col(lambda x: i(x.blocks_per_sm), np.int32),
            warps_per_sm=col(lambda x: i(x.warps_per_sm), np.int32),
            waves=col(lambda x: f(x.waves), np.float64),
            tail_idle_fraction=col(lambda x: f(x.tail_idle_fraction), np.float64),
            grid_occupancy=col(lambda x: f(x.grid_occupancy), np.float64),
            registers_per_thread=col(lambda x: x.registers_per_thread, np.int32),
            smem_bytes=col(lambda x: x.smem_bytes, np.int32),
            threads_per_block=col(lambda x: x.block[0] * x.block[1] * x.block[2], np.int32),
            grid_blocks=col(lambda x: x.grid[0] * x.grid[1] * x.grid[2], np.int64),
            smem_config_bytes=col(lambda x: i(x.smem_config_bytes), np.int32),
            kineto_est_occupancy=col(lambda x: f(x.kineto_est_occupancy), np.float64),
        )


def _known(v: int) -> int | None:
    return None if v < 0 else v


def _name(pl, fn: str, value: int) -> str:
    return n.text(getattr(pl, fn)(value)) or ""


def _device(i: int, d: n.ProfileDevice) -> ProfileGpu:
    known = d.gpu_known
    return ProfileGpu(
        index=i,
        input=d.input,
        trace_device=d.trace_id,
        trace_name=d.trace_name.decode("utf-8", "replace") or None,
        trace_sm_count=d.trace_sm_count if d.trace_sm_count > 0 else None,
        trace_compute_capability=(f"{d.trace_cc_major}.{d.trace_cc_minor}"
                                  if d.trace_cc_major >= 0 else None),
        occ_gpu=d.gpu.name.decode("utf-8", "replace") if known else None,
        sm_count=d.gpu.sm_count if known and d.gpu.sm_count > 0 else None,
        launches=d.launches,
        gpu_time_us=d.gpu_time_us,
    )


def _group(pl, i: int, g: n.ProfileGroup, total_us: float) -> ProfileGroup:
    computed = g.computed
    sized = computed and g.waves >= 0  # waves, tail and grid occupancy need SMs
    clusters = g.max_active_clusters >= 0
    kineto = g.kineto_est_occupancy > -1.5  # -2: the trace has no estimate
    return ProfileGroup(
        index=i,
        gpu=g.device,
        name=n.text(g.name) or "",
        mangled=n.text(g.mangled),
        block=tuple(g.block),
        grid=tuple(g.grid),
        cluster=tuple(g.cluster) if g.cluster[0] else None,
        cluster_recorded=g.cluster_known,
        registers_per_thread=g.regs_per_thread,
        static_smem_bytes=_known(g.static_smem_bytes),
        dyn_smem_bytes=_known(g.dyn_smem_bytes),
        smem_bytes=g.smem_bytes,
        local_bytes_per_thread=_known(g.local_bytes_per_thread),
        cache_preference=_known(g.cache_preference),
        carveout_percent=_known(g.carveout_percent),
        launches=g.launches,
        gpu_time_us=g.gpu_time_us,
        max_time_us=g.max_time_us,
        gpu_time_share=g.gpu_time_us / total_us if total_us > 0 else 0.0,
        computed=computed,
        note=n.text(g.note),
        theoretical_occupancy=g.occupancy if computed else None,
        limiters=limiter_names(g.limiters) if computed else (),
        blocks_per_sm=g.result.blocks_per_sm if computed else None,
        warps_per_sm=g.result.warps_per_sm if computed else None,
        smem_config_bytes=g.smem_config_bytes if computed else None,
        smem_config_rule=(n.text(n.lib.occ_smem_config_rule_name(g.smem_config_rule))
                          if computed else None),
        trace_smem_config_bytes=_known(g.trace_smem_config_bytes),
        trace_smem_config_differs=g.trace_smem_config_differs,
        waves=g.waves if sized else None,
        tail_idle_fraction=g.tail_idle_fraction if sized else None,
        grid_occupancy=g.grid_occupancy if sized else None,
        max_active_clusters=g.max_active_clusters if clusters else None,
        max_active_clusters_exact=g.clusters_exact if clusters else None,
        kineto_est_occupancy=g.kineto_est_occupancy if kineto else None,
        kineto_model_occupancy=g.kineto_model_occupancy if kineto and computed else None,
        kineto_cause=(_name(pl, "occ_profile_kineto_cause_name", g.kineto_cause)
                      if kineto and computed else None),
    )


def _ranked(groups: list[ProfileGroup]) -> list[int]:
    """occ_profile_rank's order over every group: computed, with GPU time x
    (1 - occupancy) above 0, largest first, ties in group order. Sorted here
    (n log n): the C function inserts into a buffer of the length asked
    for, which is quadratic when that is every group."""
    scores = [(g.index, g.gpu_time_us * (1.0 - g.theoretical_occupancy)) for g in groups
              if g.computed]
    return [i for i, s in sorted((x for x in scores if x[1] > 0), key=lambda x: -x[1])]


def _paths(path_or_paths: PathLike | Iterable[PathLike]) -> list[str | bytes]:
    if isinstance(path_or_paths, (str, os.PathLike)):
        items = [path_or_paths]
    elif isinstance(path_or_paths, (bytes, bytearray, memoryview)):
        raise TypeError("occ.profile reads traces by path: give a str or os.PathLike, "
                        f"not {type(path_or_paths).__name__}")
    else:
        try:
            items = list(path_or_paths)
        except TypeError:
            raise TypeError("path must be a str or os.PathLike, or a sequence of them, not "
                            f"{type(path_or_paths).__name__}") from None
    paths = []
    for item in items:
        if not isinstance(item, (str, os.PathLike)):
            raise TypeError(f"path must be a str or os.PathLike, not {type(item).__name__}")
        paths.append(os.fspath(item))
    if not paths:
        raise OccError("no input: give a PyTorch profiler trace (.json, .json.gz), an Nsight "
                       "Systems SQLite export or an nsys stats cuda_gpu_trace CSV",
                       status="invalid argument", code=1, field="path")
    return paths


def profile(path_or_paths: PathLike | Iterable[PathLike], gpu: GpuLike | None = None) -> Profile:
    """Every kernel launch of whole-program traces, grouped by device, kernel
    and launch configuration, each group computed with libocc
    (occ_profile_read; the document of ``occ profile --json``).

    Args:
        path_or_paths: a trace's path (str or os.PathLike), or a sequence of
            them: PyTorch profiler traces (torch.profiler's
            export_chrome_trace, .json or .json.gz), Nsight Systems SQLite
            exports (nsys export --type sqlite), ``nsys stats --report
            cuda_gpu_trace --format csv`` files; recognised by content.
        gpu: compute on this GPU (an occ.Gpu or a name, as occ.calc takes);
            None: the GPU each trace names. It must agree with the trace's
            (compute capability, SM count), as ``occ profile --gpu``.

    Returns:
        A Profile: the program's figures, the GPUs, the GPU-time histogram,
        the checks against the trace, the ranking, and the groups (largest
        GPU time first); ``.arrays`` has their numeric columns in NumPy.

    Raises:
        OccError: a file that cannot be read, is not a trace or is damaged,
            or a ``gpu`` the trace contradicts, with libocc-profile's
            message (the one ``occ profile`` prints, naming the file and
            the place); a path with a NUL byte (as open() refuses it).
        TypeError: a path that is not a str or os.PathLike.

    Example:
        >>> p = occ.profile("trace.json.gz")
        >>> p.weighted_occupancy, p.groups[p.ranked[0]].name
    """
    pl = n.profile_lib()
    paths = _paths(path_or_paths)
    encoded = []
    for p in paths:
        raw = os.fsencode(p)
        if b"\0" in raw:
            raise OccError(f"{p!r}: embedded null byte", status="invalid argument", code=1,
                           field="path")
        encoded.append(raw)
    array = (n.ProfileInput * len(encoded))()
    for i, raw in enumerate(encoded):
        array[i].path = raw
    opts = n.ProfileOptions()
    pl.occ_profile_options_init(_byref(opts))
    if gpu is not None:
        device = n.Device.from_buffer_copy(device_of(gpu))
        opts.device = ctypes.pointer(device)
    result = ctypes.c_void_p()
    err = n.ProfileError()
    if pl.occ_profile_read(array, len(encoded), _byref(opts), _byref(result), _byref(err)):
        _raise(err)
    try:
        return _result(pl, result, [os.fsdecode(p) for p in paths])
    finally:
        pl.occ_profile_result_free(result)


def _result(pl, r: ctypes.c_void_p, paths: list[str]) -> Profile:
    s = pl.occ_profile_summary_of(r).contents
    inputs = [ProfileInput(path=p, format=_name(pl, "occ_profile_format_name",
                                                   pl.occ_profile_input_format(r, i)))
              for i, p in enumerate(paths)]
    devices = [_device(i, pl.occ_profile_device_at(r, i).contents)
               for i in range(pl.occ_profile_device_count(r))]
    groups = [_group(pl, i, pl.occ_profile_group_at(r, i).contents, s.gpu_time_us)
              for i in range(pl.occ_profile_group_count(r))]
    bins = n.PROFILE_HISTOGRAM_BINS
    causes = {_name(pl, "occ_profile_kineto_cause_name", c): s.kineto_by_cause[c]
              for c in range(n.PROFILE_KINETO_CAUSES)}
    return Profile(
        inputs=inputs,
        launches_read=s.launches_read,
        launches_computed=s.launches_computed,
        gpu_time_us=s.gpu_time_us,
        weighted_occupancy=s.weighted_occupancy if s.launches_computed > 0 else None,
        gpu=devices,
        histogram=[ProfileHistogramBin(i * 100 // bins, (i + 1) * 100 // bins, s.histogram_us[i])
                   for i in range(bins)],
        checks=ProfileChecks(
            smem_config=ProfileSmemConfigCheck(s.smem_config_checked, s.smem_config_differs),
            kineto=ProfileKinetoCheck(s.kineto_checked, causes),
        ),
        ranked=_ranked(groups),
        groups=groups,
    )


def _raise(err: n.ProfileError) -> None:
    raise OccError(
        err.message.decode("utf-8", "replace"),
        status=n.text(n.lib.occ_status_name(err.status)) or "",
        code=err.status,
        field="profile",
    )


TORCH_INPUT = "<torch.profiler.profile>"  # Profile.inputs[0].path of from_torch_profiler


def from_torch_profiler(prof: Any, gpu: GpuLike | None = None) -> Profile:
    """occ.profile on a live ``torch.profiler.profile``: its trace is
    exported with ``prof.export_chrome_trace`` to a temporary .json file,
    read, and the file deleted (torch is not imported here).

    Args:
        prof: a torch.profiler.profile whose profiling has stopped (after
            its ``with`` block, or ``prof.stop()``), recorded with
            ProfilerActivity.CUDA so that its trace holds the kernels.
        gpu: as occ.profile's: None, the GPU the trace names.

    Returns:
        occ.profile's Profile; ``inputs[0].path`` is
        "<torch.profiler.profile>" (the temporary file is gone).

    Raises:
        TypeError: ``prof`` has no export_chrome_trace.
        OccError: as occ.profile (a trace without kernels is read as one
            with no launches, not refused).
    """
    export = getattr(prof, "export_chrome_trace", None)
    if not callable(export):
        raise TypeError("prof must be a torch.profiler.profile (with export_chrome_trace), not "
                        f"{type(prof).__name__}")
    fd, path = tempfile.mkstemp(prefix="occ-torch-", suffix=".json")
    os.close(fd)
    try:
        export(path)
        result = profile(path, gpu=gpu)
    finally:
        try:
            os.unlink(path)
        except FileNotFoundError:
            pass
    result.inputs[0].path = TORCH_INPUT
    return result
