"""occ.inspect: kernels' resources read from ptxas -v logs, cubins, fatbins
and host ELF files by libocc-inspect, with each kernel's occupancy."""

from __future__ import annotations

import contextlib
import ctypes
import os
import re
from dataclasses import dataclass
from typing import Sequence, Union

from . import _native as n
from ._calc import limiter_names
from ._errors import OccError
from ._gpu import GpuLike, device_of

_byref = ctypes.byref
_UNKNOWN = n.INSPECT_UNKNOWN

# One input: a path, bytes already in memory, or (name, bytes).
Input = Union[str, "os.PathLike[str]", bytes, bytearray, memoryview, tuple]
_SORTS = ("occupancy", "regs", "smem", "name")  # occ_inspect_order 0..3
_ARCH = re.compile(r"sm_([0-9]{1,3})([af]?)")


@dataclass
class InspectKernel:
    """One distinct function (occ_inspect_kernel). The first fields are the
    columns of ``occ inspect --csv``, in its order and with its names
    (docs/inspect.md); a value the input does not carry is None, and
    so is the occupancy of a function that has none (``limiter`` then says
    why). Dims are (x, y, z) tuples."""

    arch: str  # sm_90, sm_90a
    name: str  # demangled unless demangle=False
    regs: int
    smem: int  # static shared memory as ptxas and the driver count it
    stack: int  # local memory per thread
    frame: int
    spill_store_bytes: int | None  # ptxas logs
    spill_load_bytes: int | None
    spill_instructions: int | None  # cubins
    barriers: int | None
    max_threads: tuple[int, int, int] | None  # __launch_bounds__ / .maxntid
    req_threads: tuple[int, int, int] | None  # .reqntid
    max_regs: int | None
    cluster_dims: tuple[int, int, int] | None
    param_bytes: int | None
    kind: str  # kernel or function
    count: int  # identical copies merged into this one
    gpu: str | None  # the GPU of the occupancy
    threads: int | None  # the block size used
    blocks_per_sm: int | None
    warps_per_sm: int | None
    occupancy: float | None
    cluster: int | None  # blocks per cluster of its __cluster_dims__: the occupancy
    # above is then a cluster launch's (at most 8 blocks per SM); None without
    max_active_clusters: int | None  # on the GPU; None without cluster or SM count
    limiter: str  # "registers+warps", "none fits", or why there is no figure
    mangled: str
    # Beyond the CSV (``occ inspect --json``):
    limiters: tuple[str, ...]
    max_warps_per_sm: int | None
    zero_reason: str | None
    note: str | None  # why there is no occupancy ("device function", ...)
    smem_section_bytes: int | None  # raw .nv.shared.<k> size (cuobjdump's SHARED)
    relocatable: bool  # from an -rdc cubin: unlinked values
    from_log: bool  # read from a ptxas log (no launch bounds there)
    explicit_cluster: bool
    max_cluster_rank: int | None
    section: str | None  # host ELF section of the first copy
    file: str  # the input the first copy came from
    launch_fails: tuple[str, ...]  # why the launch at `threads` fails: "launch_bounds"
    # (above __launch_bounds__), "reqntid" (not .reqntid), "cluster_dims"; () when it runs
    launch_source: str  # where the launch comes from: "profile", "threads" or "api"
    launch_block: tuple[int, int, int] | None  # the launch's block dims
    launch_dyn_smem_bytes: int  # the launch's dynamic shared memory per block
    launch_cluster: tuple[int, int, int] | None  # cluster dims the launch asks for
    launch_carveout_percent: int | None  # the shared-memory carveout it prefers, 0..100


# occ_inspect.h's OCC_INSPECT_LAUNCH_* bits, by the names the CLI's flags use
_LAUNCH_FLAGS = ((n.INSPECT_LAUNCH_OVER_BOUNDS, "launch_bounds"),
                 (n.INSPECT_LAUNCH_NOT_REQNTID, "reqntid"), (n.INSPECT_LAUNCH_CLUSTER, "cluster_dims"))


def _known(v: int) -> int | None:
    return None if v == _UNKNOWN else v


def _dims(d) -> tuple[int, int, int] | None:
    if d[0] <= 0:
        return None
    return (d[0], d[1] if d[1] > 0 else 1, d[2] if d[2] > 0 else 1)


def _arch_name(il, sm: int, suffix: bytes) -> str:
    buf = ctypes.create_string_buffer(16)
    return il.occ_inspect_arch_name(sm, suffix, buf, len(buf)).decode()


def _kernel(il, k: n.InspectKernel, files: list[str]) -> InspectKernel:
    has = k.has_occupancy
    limiters = limiter_names(k.limiters) if has else ()
    note = n.text(k.note)
    if not has:
        limiter = note if note is not None else "-"
    elif k.blocks_per_sm == 0:
        limiter = "none fits"
    else:
        limiter = "+".join(limiters)
    zero = n.text(n.lib.occ_zero_reason_text(k.zero_reason)) if has else None
    return InspectKernel(
        arch=_arch_name(il, k.sm, k.arch_suffix),
        name=n.text(k.name) or "",
        regs=k.regs,
        smem=k.smem_bytes,
        stack=k.stack_bytes,
        frame=k.frame_bytes,
        spill_store_bytes=_known(k.spill_store_bytes),
        spill_load_bytes=_known(k.spill_load_bytes),
        spill_instructions=_known(k.spill_instructions),
        barriers=_known(k.barriers),
        max_threads=_dims(k.max_threads),
        req_threads=_dims(k.req_threads),
        max_regs=k.max_regs if k.max_regs > 0 else None,
        cluster_dims=_dims(k.cluster_dims),
        param_bytes=_known(k.param_bytes),
        kind="kernel" if k.is_kernel else "function",
        count=k.count,
        gpu=k.gpu.decode("utf-8", "replace") if has else None,
        threads=k.threads if has else None,
        blocks_per_sm=k.blocks_per_sm if has else None,
        warps_per_sm=k.warps_per_sm if has else None,
        occupancy=k.occupancy if has else None,
        cluster=k.cluster_size if has and k.cluster_size > 0 else None,
        max_active_clusters=(k.max_active_clusters if has and k.cluster_size > 0
                             and k.max_active_clusters >= 0 else None),
        limiter=limiter,
        mangled=n.text(k.mangled) or "",
        limiters=limiters,
        max_warps_per_sm=k.max_warps_per_sm if has else None,
        zero_reason=zero or None,
        note=note,
        smem_section_bytes=_known(k.smem_section_bytes),
        relocatable=k.relocatable,
        from_log=k.from_log,
        explicit_cluster=k.explicit_cluster,
        max_cluster_rank=k.max_cluster_rank if k.max_cluster_rank > 0 else None,
        section=n.text(k.section),
        file=files[k.input] if 0 <= k.input < len(files) else "",
        launch_fails=tuple(name for bit, name in _LAUNCH_FLAGS if k.launch_flags & bit),
        launch_source=n.text(il.occ_inspect_launch_source_name(k.launch_source)) or "",
        launch_block=_dims(k.launch_block),
        launch_dyn_smem_bytes=k.launch_dyn_smem_bytes,
        launch_cluster=_dims(k.launch_cluster),
        launch_carveout_percent=(k.launch_carveout_percent
                                 if k.launch_carveout_percent >= 0 else None),
    )


def _invalid(message: str, field: str) -> OccError:
    return OccError(message, status="invalid argument", code=1, field=field)


def _arch(arch: str, opts: n.InspectOptions) -> None:
    m = _ARCH.fullmatch(arch) if isinstance(arch, str) else None
    if m is None or not 10 <= int(m.group(1)) <= 999:
        raise _invalid(f"arch {arch!r} is not an arch such as sm_90, sm_90a or sm_100f", "arch")
    opts.arch_sm = int(m.group(1))
    opts.arch_suffix = m.group(2).encode() or b"\0"
    opts.arch_any_suffix = m.group(2) == ""


def inspect(
    inputs: Input | Sequence[Input],
    *,
    gpu: GpuLike | None = None,
    threads: int | None = None,
    dyn_smem: int = 0,
    arch: str | None = None,
    functions: bool = False,
    relfatbin: bool = False,
    demangle: bool = True,
    jobs: int = 0,
    sort: str = "occupancy",
    filter: str | None = None,
    launches: str | os.PathLike | None = None,
) -> list[InspectKernel]:
    """Every kernel of ``ptxas -v`` logs, cubins, fatbins, executables and
    shared libraries (compressed entries included), with its resources and
    its occupancy (libocc-inspect's occ_inspect_read; the rows of
    ``occ inspect --csv``).

    Args:
        inputs: a path, bytes already in memory (a cubin, a log), a
            (name, bytes) pair, or a sequence of those.
        gpu: the occupancy on this GPU; None: on the generic GPU of each
            kernel's own arch (sm_90 for an sm_90 cubin).
        threads: the block size; None: the occupancy API's pick per
            kernel, within its launch bounds.
        dyn_smem: dynamic shared memory per block, bytes.
        arch: only this arch: "sm_90" (also sm_90a), "sm_90a" (exactly).
        functions: device functions too, not only kernels.
        relfatbin: also __nv_relfatbin (pre-link -rdc code).
        demangle: C++ names demangled, as c++filt.
        jobs: threads to read with; 0: every core, at most 32.
        sort: "occupancy" (lowest first), "regs", "smem" (most first) or
            "name".
        filter: keep names that match this POSIX extended regular
            expression.
        launches: a profile ``occ profile`` reads (PyTorch profiler trace,
            Nsight Systems SQLite export or CSV) or a launch table (CSV with
            the header ``kernel,block,dyn_smem`` and optional ``cluster``,
            ``grid``, ``weight``, ``carveout``; docs/inspect.md): each
            kernel gets a row for each launch configuration recorded for it,
            at that launch (``occ inspect --launches``;
            occ_profile_launches_read, occ_inspect_apply_launches).

    Raises:
        OccError: a file that cannot be read, or is truncated, damaged or
            not a known format, with libocc-inspect's message (the file
            and the offset).
    """
    il = n.inspect_lib()
    keep: list = []  # what the C inputs point into, alive until the read is done
    array, count, _ = _c_inputs(inputs, keep, "inputs")
    files = [os.fsdecode(array[i].path) for i in range(count)]
    opts = _c_options(il, keep, gpu=gpu, threads=threads, dyn_smem=dyn_smem, arch=arch,
                      functions=functions, relfatbin=relfatbin, demangle=demangle, jobs=jobs)
    if sort not in _SORTS:
        raise _invalid(f"sort {sort!r} is not one of occupancy, regs, smem, name", "sort")
    result = ctypes.c_void_p()
    err = n.InspectError()
    status = il.occ_inspect_read(array, count, _byref(opts), _byref(result), _byref(err))
    if status:
        _raise(err)
    try:
        if launches is not None:
            _apply_launches(il, result, opts, launches)
        if filter is not None and il.occ_inspect_filter(result, filter.encode("utf-8"),
                                                        _byref(err)):
            _raise(err)
        if il.occ_inspect_sort(result, _SORTS.index(sort), _byref(err)):
            _raise(err)
        count = il.occ_inspect_kernel_count(result)
        return [_kernel(il, il.occ_inspect_kernel_at(result, i).contents, files)
                for i in range(count)]
    finally:
        il.occ_inspect_result_free(result)


def _c_inputs(inputs, keep: list, field: str):
    """The C inputs of a path, bytes, (name, bytes) or a sequence of those:
    (array, count, label), label the inputs' names joined by ", " (bytes),
    with what the array points into appended to keep."""
    if isinstance(inputs, (str, bytes, bytearray, memoryview, tuple, os.PathLike)):
        inputs = [inputs]
    items = list(inputs)
    if not items:
        raise _invalid(f"{field}: give at least one file or bytes", field)
    names = []
    array = (n.InspectInput * len(items))()
    for i, item in enumerate(items):
        data = None
        if isinstance(item, tuple):
            name, data = item
            name = str(name)
        elif isinstance(item, (bytes, bytearray, memoryview)):
            name, data = f"<bytes {i}>" if len(items) > 1 else "<bytes>", item
        else:
            name = os.fsdecode(item)
        names.append(name)
        encoded = os.fsencode(name)
        if data is None and b"\0" in encoded:  # C would read the path up to it
            raise _invalid(f"{name!r}: embedded null byte", field)
        keep.append(encoded)
        array[i].path = encoded
        if data is not None:
            buf = (ctypes.c_char * len(data)).from_buffer_copy(bytes(data))
            keep.append(buf)
            array[i].data = ctypes.cast(buf, ctypes.c_void_p)
            array[i].size = len(data)
    keep.append(array)
    return array, len(items), os.fsencode(", ".join(names))


def _c_options(il, keep: list, *, gpu, threads, dyn_smem, arch, functions, relfatbin, demangle,
               jobs) -> n.InspectOptions:
    """occ_inspect_options from occ.inspect's arguments."""
    opts = n.InspectOptions()
    il.occ_inspect_options_init(_byref(opts))
    if gpu is not None:
        device = n.Device.from_buffer_copy(device_of(gpu))
        keep.append(device)
        opts.device = ctypes.pointer(device)
    if threads is not None:
        opts.threads = threads
    opts.dyn_smem_bytes = dyn_smem
    if arch is not None:
        _arch(arch, opts)
    opts.functions = functions
    opts.relfatbin = relfatbin
    opts.demangle = demangle
    opts.jobs = jobs
    keep.append(opts)
    return opts


@contextlib.contextmanager
def _launch_list(launches):
    """The occ_inspect_launch_list of a profile or a launch table
    (libocc-profile's occ_profile_launches_read), alive inside the block;
    None for no launches."""
    if launches is None:
        yield None
        return
    if not isinstance(launches, (str, os.PathLike)):
        raise TypeError(f"launches must be a str or os.PathLike, not {type(launches).__name__}")
    raw = os.fsencode(launches)
    if b"\0" in raw:
        raise OccError(f"{os.fsdecode(raw)!r}: embedded null byte", status="invalid argument",
                       code=1, field="launches")
    pl = n.profile_lib()
    handle = ctypes.c_void_p()
    perr = n.ProfileError()
    if pl.occ_profile_launches_read(raw, _byref(handle), _byref(perr)):
        raise OccError("launches: " + perr.message.decode("utf-8", "replace"),
                       status=n.text(n.lib.occ_status_name(perr.status)) or "",
                       code=perr.status, field="launches")
    try:
        yield pl.occ_profile_launches_list(handle).contents
    finally:
        pl.occ_profile_launches_free(handle)


def _apply_launches(il, result, opts, launches) -> None:
    """The launch configurations of a profile or a launch table given to the
    kernels read, as ``occ inspect --launches`` does: libocc-profile reads
    them (occ_profile_launches_read), libocc-inspect applies them."""
    with _launch_list(launches) as chosen:
        err = n.InspectError()
        if il.occ_inspect_apply_launches(result, _byref(opts), chosen.launches, chosen.count,
                                         chosen.matched, _byref(chosen.match), _byref(err)):
            _raise(err)


def _raise(err: n.InspectError, field: str = "inspect") -> None:
    raise OccError(
        err.message.decode("utf-8", "replace"),
        status=n.text(n.lib.occ_status_name(err.status)) or "",
        code=err.status,
        field=field,
    )
