"""occ.calc_batch: occ.calc over NumPy arrays or lists, in C (occ_calc_batch)."""

from __future__ import annotations

import ctypes
import operator
from dataclasses import dataclass
from typing import Any, Callable, Sequence, Union

from . import _kernel
from . import _native as n
from ._calc import limiter_names
from ._errors import OccError
from ._gpu import Gpu, GpuLike, device_of

_INT_MIN = -(2**31)
_INT_MAX = 2**31 - 1

ArrayLike = Union[int, Sequence[int], Any]  # an int, a list, or a NumPy array


def _numpy():
    try:
        import numpy
    except ImportError:  # pragma: no cover - the tests run with NumPy
        raise ImportError("occ.calc_batch needs NumPy: pip install numpy "
                          "(Debian: apt-get install python3-numpy)") from None
    return numpy


@dataclass
class BatchResult:
    """occ.calc's answer for every row, as NumPy arrays (one element a row).

    ``raw`` is the occ_result of every row as a structured array (every
    field of include/occ.h's occ_result, allocation included); the
    properties are views of it. A limit that cannot bind holds
    occ.UNLIMITED (2147483647), as in C, so that ``min`` over the limits
    still gives ``blocks_per_sm``. With errors="keep", ``status`` is each
    row's occ_status (0: ok) and a bad row's numbers are all 0.
    """

    raw: Any
    status: Any

    def __len__(self) -> int:
        return len(self.raw)

    @property
    def ok(self):
        """True for each row libocc accepted."""
        return self.status == 0

    @property
    def blocks_per_sm(self):
        return self.raw["blocks_per_sm"]

    @property
    def warps_per_sm(self):
        return self.raw["warps_per_sm"]

    @property
    def threads_per_sm(self):
        return self.raw["threads_per_sm"]

    @property
    def occupancy(self):
        return self.raw["occupancy"]

    @property
    def limits(self) -> dict[str, Any]:
        """Blocks per SM each resource allows, keyed as occ.calc's limits."""
        r = self.raw
        return {
            "warps": r["limit_warps"],
            "blocks": r["limit_blocks"],
            "registers": r["limit_registers"],
            "shared_mem": r["limit_shared_mem"],
            "barriers": r["limit_barriers"],
        }

    @property
    def limiters(self):
        """The occ_limiter bits of each row (occ.limiter_names turns one
        into names)."""
        return self.raw["limiters"]

    def limiter_names(self, row: int) -> tuple[str, ...]:
        return limiter_names(int(self.raw["limiters"][row]))

    @property
    def exceeds_launch_bounds(self):
        return self.raw["exceeds_launch_bounds"]


# Rows computed per call of occ_calc_batch: the kernels and the per-row GPU
# indexes exist for one chunk at a time (72 + 4 bytes a row), so that beside
# the inputs only the result (raw and status: 100 bytes a row) grows with the
# count; made whole, they took 1.79 GB for 10 million rows where the result
# is 1 GB. 65,536 rows keep the chunk's arrays in the cache (about 5 MB) and the
# per-call cost in Python a few percent of the work.
CHUNK_ROWS = 65536


def _column(np, name: str, value: Any):
    """An integer column from a scalar, a list or an array, checked: integer
    values only, each within a C int. An empty list is an empty column."""
    a = np.asarray(value)
    if a.size == 0 and a.dtype.kind == "f":  # [] reads as float64: no value to refuse
        a = a.astype(np.int64)
    if a.dtype.kind not in "iub":
        raise TypeError(f"{name} must hold integers, not {a.dtype}")
    if a.ndim > 1:
        raise OccError(f"{name}: a 1-D array or a scalar, not shape {a.shape}",
                       status="invalid argument", code=1, field=name)
    if a.size and a.dtype.kind != "b" and (a.min() < _INT_MIN or a.max() > _INT_MAX):
        bad = a[(a < _INT_MIN) | (a > _INT_MAX)][0]
        raise OccError(f"{name} {bad} is outside the range of a C int ({_INT_MIN} to "
                       f"{_INT_MAX})", status="invalid argument", code=1, field=name)
    return a


def _word_column(np, name: str, value: Any, word: Callable[[Any], int]):
    """_column for an argument that also takes words (or None), in a list or
    array as alone: partitioned_gc=["off", "on", 2] is [0, 1, 2]. ``word``
    turns a word or None into its C value, or raises."""
    if value is None or isinstance(value, str):
        return _column(np, name, word(value))
    a = np.asarray(value)
    if a.dtype.kind in "US" and not hasattr(value, "dtype") and not all(
            isinstance(v, str) for v in value):
        a = np.asarray(value, dtype=object)  # NumPy made ["on", 2] two strings
    if a.dtype.kind not in "USO":
        return _column(np, name, a)
    if a.ndim > 1:
        raise OccError(f"{name}: a 1-D array or a scalar, not shape {a.shape}",
                       status="invalid argument", code=1, field=name)
    if a.dtype.kind in "US":  # words alone: each distinct one converted once
        distinct, index = np.unique(a, return_inverse=True)
        return _column(np, name, np.array([word(str(w)) for w in distinct],
                                          dtype=np.int64)[index])
    values = []  # words, None and integers mixed
    for v in a.tolist():
        if v is None or isinstance(v, str):
            values.append(word(v))
        elif isinstance(v, bool) or not (isinstance(v, int) or hasattr(v, "__index__")):
            raise TypeError(f"{name} must hold integers or {name}'s words, not "
                            f"{type(v).__name__} {v!r}")
        else:
            values.append(operator.index(v))
    return _column(np, name, np.array(values) if values else np.zeros(0, dtype=np.int64))


def _none_is(name: str, default: int) -> Callable[[Any], int]:
    """The word function of an argument whose only word is None."""
    def word(v: Any) -> int:
        if v is None:
            return default
        raise TypeError(f"{name} must hold integers or None, not {v!r}")
    return word


class _GpuIndex(dict):
    """Each distinct GPU of a per-row list, looked up once, in order of first
    appearance: name or occ.Gpu -> its index in ``devices``, or -1 - i for
    the i-th unknown one (``errors[i]`` its OccError)."""

    def __init__(self) -> None:
        super().__init__()
        self.devices: list = []
        self.names: list = []
        self.errors: list[OccError] = []

    def __missing__(self, g):
        if isinstance(g, Gpu):
            code = len(self.devices)
            self.devices.append(g._device)
            self.names.append(g)
        elif isinstance(g, str):
            try:
                device = device_of(g)
            except OccError as e:  # the row's error: errors= decides
                code = -1 - len(self.errors)
                self.errors.append(e)
            else:
                code = len(self.devices)
                self.devices.append(device)
                self.names.append(g)
        else:
            raise TypeError(f"gpu must be an occ.Gpu or a name, not {type(g).__name__}")
        self[g] = code
        return code


def _length(value: Any) -> int | None:
    """The rows a list or array argument gives (None for a scalar)."""
    shape = getattr(value, "shape", None)
    return shape[0] if shape else None


def calc_batch(
    gpu: GpuLike | Sequence[GpuLike],
    threads: ArrayLike,
    regs: ArrayLike = 0,
    smem: ArrayLike = 0,
    dyn_smem: ArrayLike = 0,
    barriers: ArrayLike = 1,
    carveout: ArrayLike | str | None = None,
    max_threads: ArrayLike | None = None,
    optin: ArrayLike | str = "max",
    smem_config: ArrayLike | None = None,
    partitioned_gc: ArrayLike | str = "off",
    *,
    errors: str = "raise",
) -> BatchResult:
    """occ.calc for many launches at once: each argument a scalar (the same
    for every row) or a list or 1-D NumPy array, one value per row; the
    loop runs in C (libocc's occ_calc_batch): a million rows in about
    0.15 s (docs/python.md). ``gpu`` is one GPU, or one per row (names or
    occ.Gpu). A list of one value stands for every row; lists of other
    lengths must all have the same one (an empty list: no rows, an empty
    result).

    ``threads`` may be 2-D, one (x, y, z) row per launch. The arguments take
    the same values in a list as alone: occ.calc's words ("max", "none",
    "default", "off", "on", "strict") and None, or C's numbers for them:
    carveout -1 (occ.CARVEOUT_DEFAULT) for no preference, max_threads 0 for
    no launch bounds, optin -1 (occ.OPTIN_MAX) or -2 (occ.NO_OPTIN),
    smem_config 0 for the carveout's, partitioned_gc 0 off, 1 on, 2 strict.

    Memory: beside the inputs, the result (``raw``, one occ_result a row,
    96 bytes, and ``status``, 4); the rows go through C CHUNK_ROWS (65,536)
    at a time, so nothing else grows with the count (10 million rows from
    one int64 array: a peak of about 1.1 GB, the result's 1 GB and the
    array's 80 MB).

    Args:
        errors: "raise" (default): OccError naming the first bad row
            ("row 12: threads 1100 exceed ..."); "keep": bad rows keep
            their place with ``status`` set and zeros, as ``occ calc
            --batch`` keeps them, an unknown GPU name in a per-row list
            included (status 3, occ_status's OCC_ERR_UNKNOWN_GPU). One GPU
            given for every row is checked once: an unknown one raises.

    Returns:
        A BatchResult of NumPy arrays.
    """
    np = _numpy()
    if errors not in ("raise", "keep"):
        raise ValueError(f"errors must be 'raise' or 'keep', not {errors!r}")
    d = _kernel.DEFAULT
    t = np.asarray(threads)
    if t.size == 0 and t.dtype.kind == "f":  # [] reads as float64
        t = t.astype(np.int64)
    if t.dtype.kind not in "iu":
        raise TypeError(f"threads must hold integers, not {t.dtype}")
    if t.ndim == 2:
        if not 1 <= t.shape[1] <= 3:
            raise OccError(f"threads: rows of 1 to 3 dimensions, not {t.shape[1]}",
                           status="invalid argument", code=1, field="threads")
        dims = [_column(np, "threads", t[:, i]) for i in range(t.shape[1])]
    else:
        dims = [_column(np, "threads", t)]
    # the arguments by the names the caller gave them, for the length check
    given = {
        "threads": t,
        "regs": _column(np, "regs", regs),
        "smem": _column(np, "smem", smem),
        "dyn_smem": _column(np, "dyn_smem", dyn_smem),
        "barriers": _column(np, "barriers", barriers),
        "carveout": _word_column(np, "carveout", carveout, _kernel.carveout_value),
        "max_threads": _word_column(np, "max_threads", max_threads,
                                    _none_is("max_threads", 0)),
        "optin": _word_column(np, "optin", optin, _kernel.optin_value),
        "smem_config": _word_column(np, "smem_config", smem_config,
                                    _none_is("smem_config", 0)),
        "partitioned_gc": _word_column(np, "partitioned_gc", partitioned_gc,
                                       _kernel.partitioned_gc_value),
    }
    columns = {
        "block_x": dims[0],
        "block_y": dims[1] if len(dims) > 1 else 1,
        "block_z": dims[2] if len(dims) > 2 else 1,
        "regs_per_thread": given["regs"],
        "static_smem_bytes": given["smem"],
        "dyn_smem_bytes": given["dyn_smem"],
        "max_threads_per_block": given["max_threads"],
        "barriers": given["barriers"],
        "carveout_percent": given["carveout"],
        "max_dyn_smem_bytes": given["optin"],
        "partitioned_gc": given["partitioned_gc"],
        "smem_config_bytes": given["smem_config"],
    }
    lengths = {name: _length(v) for name, v in given.items()}
    many_gpus = not isinstance(gpu, (str, Gpu))
    if many_gpus:
        if hasattr(gpu, "shape") and len(gpu.shape) != 1:
            raise OccError(f"gpu: a name, an occ.Gpu or a 1-D list of them, not shape "
                           f"{gpu.shape}", status="invalid argument", code=1, field="gpu")
        if not (hasattr(gpu, "__len__") and hasattr(gpu, "__getitem__")):
            if not hasattr(gpu, "__iter__"):
                raise TypeError("gpu must be an occ.Gpu, a name or a list of them, not "
                                f"{type(gpu).__name__}")
            gpu = list(gpu)  # an iterator's names, to take by chunks
        lengths = {"gpu": len(gpu), **lengths}
    rows = _rows(lengths)
    one_device = None if many_gpus else device_of(gpu)  # checked, rows or none
    results = np.empty(rows, dtype=np.dtype(n.Result))
    status = np.zeros(rows, dtype=np.int32)
    if rows == 0:
        return BatchResult(results, status)
    chunk = min(rows, CHUNK_ROWS)
    kernels = np.empty(chunk, dtype=np.dtype(n.Kernel))
    per_row = []  # (field, column) of the columns that hold a value a row
    for field, _ in n.Kernel._fields_:
        # fields calc_batch does not take (a cluster shape, ...): occ_kernel_init's
        value = columns.get(field, getattr(d, field))
        if np.ndim(value) and len(value) > 1:
            per_row.append((field, value))
        else:
            kernels[field] = value  # the same in every chunk
    index = _GpuIndex() if many_gpus else None
    devices = None
    known = -1  # the GPUs in devices
    err = n.Error()
    for start in range(0, rows, chunk):
        stop = min(start + chunk, rows)
        k = kernels[:stop - start]
        for field, value in per_row:
            k[field] = value[start:stop]
        if many_gpus:
            part = gpu[start:stop] if len(gpu) > 1 else [gpu[0]] * (stop - start)
            if hasattr(part, "tolist"):
                part = part.tolist()
            codes = np.fromiter(map(index.__getitem__, part), dtype=np.int32,
                                count=stop - start)
            if len(index.devices) != known:
                # a GPU new in this chunk (none known yet: a stand-in that no
                # row names, every index being negative)
                known = len(index.devices)
                devices = (n.Device * max(known, 1))(*(index.devices or [n.Device()]))
            device_ptr, device_count = ctypes.addressof(devices), len(devices)
            index_ptr = codes.ctypes.data_as(ctypes.c_void_p)
        else:
            device_ptr, device_count, index_ptr = ctypes.addressof(one_device), 1, None
        st = status[start:stop]
        rc = n.lib.occ_calc_batch(device_ptr, device_count, index_ptr,
                                  k.ctypes.data_as(ctypes.c_void_p), stop - start,
                                  results[start:stop].ctypes.data_as(ctypes.c_void_p),
                                  st.ctypes.data_as(ctypes.c_void_p), ctypes.byref(err))
        if rc and not st.any():  # not a row's failure (those are in status)
            n.raise_error(err)
        if many_gpus and index.errors:
            unknown = codes < 0  # C answered "index out of range": the name's error instead
            if unknown.any():
                codes_of = np.array([e.code for e in index.errors], dtype=np.int32)
                st[unknown] = codes_of[-1 - codes[unknown]]
        if errors == "raise" and st.any():
            first = int(np.flatnonzero(st)[0])
            if many_gpus and codes[first] < 0:
                e = index.errors[-1 - int(codes[first])]
                raise OccError(f"row {start + first}: {e}", status=e.status, code=e.code,
                               field="gpu")
            g = index.names[codes[first]] if many_gpus else gpu
            _raise_row(g, k[first], start + first)
    return BatchResult(results, status)


def _rows(lengths: dict[str, int | None]) -> int:
    """The rows the arguments give, from each one's length (None: a scalar):
    every list of more than one value has the same length, and one value,
    or a scalar, stands for every row. OccError naming each list and its
    length where they differ."""
    lists = {name: length for name, length in lengths.items() if length is not None}
    counts = {length for length in lists.values() if length != 1}
    if len(counts) > 1:
        first = next(length for length in lists.values() if length != 1)
        odd = next(name for name, length in lists.items() if length not in (1, first))
        raise OccError("the lists differ in length: " + ", ".join(
            f"{name} has {length:,}" for name, length in lists.items()) +
            " (each takes one value a row, or one for every row)",
            status="invalid argument", code=1, field=odd)
    return counts.pop() if counts else 1


def _raise_row(gpu: GpuLike, kernel_row, row: int) -> None:
    """OccError for one bad row, with libocc's message for it."""
    k = n.Kernel.from_buffer_copy(kernel_row.tobytes())
    r = n.Result()
    err = n.Error()
    n.lib.occ_calc(ctypes.byref(device_of(gpu)), ctypes.byref(k), ctypes.byref(r),
                   ctypes.byref(err))
    raise OccError(f"row {row}: {n.text(err.message)}",
                   status=n.text(n.lib.occ_status_name(err.status)) or "", code=err.status,
                   field=n.text(err.field))
