"""occ.regs: what each register cap costs in spills and buys in warps, by
libocc-inspect's engine of ``occ regs`` (include/occ_regs.h): the toolkit's
own ptxas at every cap where the launch's occupancy changes, and the
document ``occ regs --json`` writes."""

from __future__ import annotations

import ctypes
import json
import os
import re
from typing import Callable, Sequence, Union

from . import _native as n
from ._errors import OccError
from ._gpu import GpuLike, device_of
from ._inspect import _raise
from ._kernel import block_dims

_byref = ctypes.byref
_INT_MAX = 2**31 - 1

# One source: a path, or PTX / a binary already in memory, as bytes or
# (name, bytes); the name's extension still says whether it is a .cu.
Source = Union[str, "os.PathLike[str]", bytes, bytearray, memoryview, tuple]

# occ regs --arch: sm_90, sm_90a, sm_100f, compute_90, 90 (cli/regs/cmd_regs.c)
_ARCH = re.compile(r"(?:sm_|compute_)?([0-9]{2,4})([af]?)")


def _invalid(message: str, field: str) -> OccError:
    return OccError(message, status="invalid argument", code=1, field=field)


def _c_int(value, field: str, low: int = -(2**31)) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{field} must be an int, not {type(value).__name__}")
    if not low <= value <= _INT_MAX:
        raise _invalid(f"{field} {value} is outside {low}..{_INT_MAX}", field)
    return value


def _number(value, field: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"{field} must be a number, not {type(value).__name__}")
    return float(value)


def _c_text(value, field: str, keep: list, path: bool = False) -> bytes:
    if path:
        if not isinstance(value, (str, os.PathLike)):
            raise TypeError(f"{field} must be a str or os.PathLike, not {type(value).__name__}")
        raw = os.fsencode(value)
    else:
        if not isinstance(value, str):
            raise TypeError(f"{field} must be a str, not {type(value).__name__}")
        raw = value.encode("utf-8")
    if b"\0" in raw:  # C would read it up to the null
        raise _invalid(f"{field} {os.fsdecode(raw)!r}: embedded null byte", field)
    keep.append(raw)
    return raw


def _int_list(values, field: str, keep: list):
    """A C array of the ints of a sequence: (pointer, count). The engine
    checks each value's range and the count (it reads no further than
    its maximum)."""
    if isinstance(values, (str, bytes)) or not hasattr(values, "__iter__"):
        raise TypeError(f"{field} must be a sequence of ints, not {type(values).__name__}")
    items = [_c_int(v, field) for v in values]
    array = (ctypes.c_int * max(len(items), 1))(*items)
    keep.append(array)
    return ctypes.cast(array, ctypes.POINTER(ctypes.c_int)), len(items)


def _source(source: Source, keep: list) -> tuple[bytes, ctypes.c_void_p | None, int]:
    """(path or name, data, size) for occ_regs_run."""
    if isinstance(source, tuple):
        if len(source) != 2:
            raise TypeError("source must be a path, bytes or (name, bytes)")
        name, data = source
        raw = _c_text(str(name), "source", keep)
    elif isinstance(source, (bytes, bytearray, memoryview)):
        raw, data = b"<bytes>", source
    else:
        return _c_text(source, "source", keep, path=True), None, 0
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise TypeError(f"source's data must be bytes, not {type(data).__name__}")
    buf = (ctypes.c_char * len(data)).from_buffer_copy(bytes(data))
    keep.append(buf)
    return raw, ctypes.cast(buf, ctypes.c_void_p), len(data)


def regs(
    source: Source,
    *,
    gpu: GpuLike | None = None,
    threads: int | Sequence[int] | None = None,
    dyn_smem: int = 0,
    arch: str | None = None,
    kernel: str | None = None,
    caps: Sequence[int] | None = None,
    min_blocks: Sequence[int] | str | None = None,
    jobs: int = 0,
    ptxas: str | os.PathLike | None = None,
    nvcc: str | os.PathLike | None = None,
    nvcc_args: Sequence[str] = (),
    cache_dir: str | os.PathLike | None = None,
    cache: bool = True,
    bytes_loaded: float | None = None,
    ilp: float = 1,
    bytes_per_load: float = 4,
    progress: Callable[[int, int, bool], None] | None = None,
) -> dict:
    """What each register cap costs in spills and buys in warps, as
    ``occ regs --json`` computes it, and the same document (schema
    ``occ.regs``, docs/regs.md) as a dict.

    The toolkit's own ptxas compiles the kernels' PTX without a cap, at
    the occupancy staircase's steps (or ``caps``) and as the
    ``__launch_bounds__(threads, N)`` variants; each compile's registers,
    spills and stack come from ``ptxas -v``, its occupancy from libocc,
    and each kernel gets the recommended cap and why. No GPU is needed;
    ptxas is.

    Args:
        source: PTX, a ``.cu`` (compiled first with ``nvcc -ptx`` and
            ``nvcc_args``), or a fatbin, executable, shared library or
            object with PTX in it: a path, bytes, or (name, bytes), the
            name's extension telling a ``.cu``.
        gpu: the occupancy's GPU (``--gpu``); None: the generic GPU of the
            arch compiled for.
        threads: the block size, 256 or (16, 16); None: each kernel's
            .reqntid, else its .maxntid, else 256.
        dyn_smem: dynamic shared memory per block, bytes.
        arch: compile for "sm_90", "sm_90a", ... (also "compute_90", "90");
            None: the GPU's, else the PTX's .target. In a binary it picks
            the PTX.
        kernel: only kernels whose mangled or demangled name matches this
            fnmatch glob.
        caps: the caps to compile at (1..255, at or above ptxas's lowest);
            None: the staircase's steps.
        min_blocks: the ``__launch_bounds__`` minimum blocks to compile
            (1..32), or "none"; None: 1 to what the block size allows.
        jobs: compiles at once, 1..64; 0: every core.
        ptxas, nvcc: the tools; None: $CUDA_HOME/bin, PATH, then
            /usr/local/cuda/bin.
        nvcc_args: nvcc's arguments for a ``.cu`` (what follows ``--`` on
            the command line): ("-O3", "-DN=4").
        cache_dir: the compile cache; None: $OCC_CACHE_DIR,
            $XDG_CACHE_HOME/occ/regs, ~/.cache/occ/regs.
        cache: False: compile everything and store nothing (``--no-cache``).
        bytes_loaded: the global bytes a thread loads per pass of the loop
            where it spills: turns on the latency model's prediction
            (``predicted`` in each compile); None: no prediction.
        ilp, bytes_per_load: with bytes_loaded, the loads in flight per
            thread and their size (``--ilp``, ``--bytes-per-load``).
        progress: called as progress(done, total, cached) after each
            compile, from the engine's threads one at a time (what the
            CLI's progress line shows); an exception in it is printed and
            ignored.

    Raises:
        OccError: what ``occ regs`` refuses, with the line it prints after
            "occ regs: ": no ptxas or nvcc (where it looked), a source that
            cannot be read or holds no PTX, ptxas or nvcc refusing it (their
            first error line), a glob that matches nothing (the kernels'
            names), a cap below ptxas's lowest for the arch, an option out
            of range. ``field`` is "regs", or the argument at fault.
    """
    il = n.inspect_lib()
    keep: list = []  # what the options point into, alive until the run is done
    opts = n.RegsOptions()
    il.occ_regs_options_init(_byref(opts))
    path, data, size = _source(source, keep)
    if gpu is not None:
        device = n.Device.from_buffer_copy(device_of(gpu))
        keep.append(device)
        opts.device = ctypes.pointer(device)
    if threads is not None:
        dims = block_dims(threads)
        if min(dims) < 1:
            raise _invalid(f"threads {threads!r}: each dimension must be at least 1", "threads")
        total = dims[0] * dims[1] * dims[2]
        if total > _INT_MAX:  # the engine's words for what a C int can hold
            raise _invalid(f"threads: {total} is outside 0..1024", "threads")
        opts.threads = total  # above 1024 the engine refuses it
    opts.dyn_smem_bytes = _c_int(dyn_smem, "dyn_smem")
    if arch is not None:
        m = _ARCH.fullmatch(arch) if isinstance(arch, str) else None
        if m is None or int(m.group(1)) < 50:
            raise _invalid(f"arch {arch!r} is not an arch such as sm_90 or sm_90a", "arch")
        opts.arch_sm = int(m.group(1))
        opts.arch_suffix = m.group(2).encode() or b"\0"
    if kernel is not None:
        opts.kernel_glob = _c_text(kernel, "kernel", keep)
    if caps is not None:
        opts.caps, opts.cap_count = _int_list(caps, "caps", keep)
        if opts.cap_count == 0:
            raise _invalid("caps: give at least one cap, or None for the staircase's steps",
                           "caps")
    if isinstance(min_blocks, str):
        if min_blocks != "none":
            raise _invalid(f"min_blocks {min_blocks!r}: a list of 1..32, or 'none'",
                           "min_blocks")
        opts.min_blocks_count = -1
    elif min_blocks is not None:
        opts.min_blocks, opts.min_blocks_count = _int_list(min_blocks, "min_blocks", keep)
        if opts.min_blocks_count == 0:
            opts.min_blocks_count = -1  # no variants, as "none"
    opts.jobs = _c_int(jobs, "jobs")
    if ptxas is not None:
        opts.ptxas = _c_text(ptxas, "ptxas", keep, path=True)
    if nvcc is not None:
        opts.nvcc = _c_text(nvcc, "nvcc", keep, path=True)
    if isinstance(nvcc_args, str):
        raise TypeError("nvcc_args must be a sequence of str, such as ('-O3',), not a str")
    args = [_c_text(a, "nvcc_args", keep) for a in nvcc_args]
    if args:
        name = os.fsdecode(path)
        if len(name) > 3 and not name.endswith(".cu"):
            # occ regs: "arguments after -- are nvcc's, for a .cu FILE"
            raise _invalid(f"nvcc_args are nvcc's, for a .cu source; {name!r} is not one",
                           "nvcc_args")
        array = (ctypes.c_char_p * len(args))(*args)
        keep.append(array)
        opts.nvcc_args = ctypes.cast(array, ctypes.POINTER(ctypes.c_char_p))
        opts.nvcc_arg_count = len(args)
    if not cache:
        opts.cache_dir = b""
    elif cache_dir is not None:
        opts.cache_dir = _c_text(cache_dir, "cache_dir", keep, path=True)
    if bytes_loaded is not None:
        opts.bytes_loaded_per_thread = _number(bytes_loaded, "bytes_loaded")
        if opts.bytes_loaded_per_thread <= 0:  # 0 would turn the prediction off
            raise _invalid(f"bytes_loaded {bytes_loaded!r} is not above 0", "bytes_loaded")
    opts.loads_in_flight_per_thread = _number(ilp, "ilp")
    opts.bytes_per_load = _number(bytes_per_load, "bytes_per_load")
    if progress is not None:
        if not callable(progress):
            raise TypeError(f"progress must be callable, not {type(progress).__name__}")
        callback = n.REGS_PROGRESS_FN(lambda _context, done, total, cached:
                                      progress(done, total, bool(cached)))
        keep.append(callback)
        opts.progress = callback
    result = ctypes.c_void_p()
    err = n.InspectError()
    if il.occ_regs_run(path, data, size, _byref(opts), _byref(result), _byref(err)):
        _raise(err, field="regs")
    try:
        text = ctypes.c_void_p()
        length = ctypes.c_size_t()
        if il.occ_regs_json_text(result, _byref(text), _byref(length), _byref(err)):
            _raise(err, field="regs")
        try:
            return json.loads(ctypes.string_at(text, length.value).decode("utf-8"))
        finally:
            il.occ_inspect_text_free(text)
    finally:
        il.occ_regs_result_free(result)


__all__ = ["regs", "OccError"]
