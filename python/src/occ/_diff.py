"""occ.diff: what a build changed in its kernels' resources and occupancy,
and a CI gate over it, by libocc-inspect's diff engine (include/occ_diff.h,
occ_diff_run_json): the document ``occ diff --json`` writes."""

from __future__ import annotations

import ctypes
import json
import os

from . import _native as n
from ._errors import OccError
from ._gpu import GpuLike
from ._inspect import Input, _c_inputs, _c_options, _invalid, _launch_list, _raise

_byref = ctypes.byref


def diff(
    old: Input | list,
    new: Input | list,
    *,
    gpu: GpuLike | None = None,
    threads: int | None = None,
    dyn_smem: int = 0,
    arch: str | None = None,
    functions: bool = False,
    relfatbin: bool = False,
    demangle: bool = True,
    jobs: int = 0,
    filter: str | None = None,
    launches: str | os.PathLike | None = None,
    fail_on: str | None = None,
    allow: str | os.PathLike | None = None,
) -> dict:
    """Compares the kernels of two builds, as ``occ diff --json`` does, and
    returns the same document (schema ``occ.diff``, docs/json.md).

    Kernels are matched by arch and mangled name (and launch, with
    ``launches``); a renamed kernel with the same base name and resources is
    ``moved``. The gate's verdict is ``doc["gate"]["passed"]``: a failed
    gate is a result, not an exception.

    Args:
        old, new: what ``occ.inspect`` reads (a path, bytes, (name, bytes),
            or a list of those), or a baseline ``occ inspect --save`` wrote.
        gpu, threads, dyn_smem, arch, functions, relfatbin, demangle, jobs,
            filter, launches: as ``occ.inspect``; both sides are read alike
            and given the same launches.
        fail_on: what fails the gate, as ``--fail-on``:
            ``"occupancy-10%,regs+8,spills,launch-bounds"``; None: nothing.
        allow: an allow file, as ``--allow``: ``[ITEM, ITEM: ]PATTERN #
            REASON`` a line.

    Raises:
        OccError: an input that cannot be read or is damaged (the message
            names it), a gate item or threshold that is not one, an allow
            file that cannot be read or has a bad line.
    """
    il = n.inspect_lib()
    keep: list = []
    old_array, old_count, old_label = _c_inputs(old, keep, "old")
    new_array, new_count, new_label = _c_inputs(new, keep, "new")
    opts = _c_options(il, keep, gpu=gpu, threads=threads, dyn_smem=dyn_smem, arch=arch,
                      functions=functions, relfatbin=relfatbin, demangle=demangle, jobs=jobs)
    q = n.DiffRequest()
    q.old_inputs, q.old_count = old_array, old_count
    q.new_inputs, q.new_count = new_array, new_count
    q.old_label = old_label
    q.new_label = new_label
    keep += [old_label, new_label]
    q.read = ctypes.pointer(opts)
    if filter is not None:
        q.filter = _text(filter, "filter", keep)
    if fail_on is not None:
        q.fail_on = _text(fail_on, "fail_on", keep)
    if allow is not None:
        if not isinstance(allow, (str, os.PathLike)):
            raise TypeError(f"allow must be a str or os.PathLike, not {type(allow).__name__}")
        raw = os.fsencode(allow)
        if b"\0" in raw:
            raise _invalid(f"{os.fsdecode(raw)!r}: embedded null byte", "allow")
        keep.append(raw)
        q.allow_path = raw
    text = ctypes.c_void_p()
    size = ctypes.c_size_t()
    failed = ctypes.c_size_t()
    err = n.InspectError()
    with _launch_list(launches) as chosen:
        if chosen is not None:
            q.launches = ctypes.pointer(chosen)
        status = il.occ_diff_run_json(_byref(q), _byref(text), _byref(size), _byref(failed),
                                      _byref(err))
    if status:
        _raise(err, field="diff")
    try:
        return json.loads(ctypes.string_at(text, size.value).decode("utf-8"))
    finally:
        il.occ_inspect_text_free(text)


def _text(value, field: str, keep: list) -> bytes:
    if not isinstance(value, str):
        raise TypeError(f"{field} must be a str, not {type(value).__name__}")
    raw = value.encode("utf-8")
    if b"\0" in raw:
        raise _invalid(f"{field} {value!r}: embedded null byte", field)
    keep.append(raw)
    return raw


__all__ = ["diff", "OccError"]
