"""occ.calc_batch: occ.calc over NumPy arrays or lists, in C (occ_calc_batch)."""

from __future__ import annotations

import ctypes
from dataclasses import dataclass
from typing import Any, Sequence, Union

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


def _column(np, name: str, value: Any):
    """An int64 column from a scalar, a list or an array, checked: integer
    values only, each within a C int."""
    a = np.asarray(value)
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


def calc_batch(
    gpu: GpuLike | Sequence[GpuLike],
    threads: ArrayLike,
    regs: ArrayLike = 0,
    smem: ArrayLike = 0,
    dyn_smem: ArrayLike = 0,
    barriers: ArrayLike = 1,
    carveout: ArrayLike | None = None,
    max_threads: ArrayLike | None = None,
    optin: ArrayLike | str = "max",
    smem_config: ArrayLike | None = None,
    partitioned_gc: ArrayLike | str = "off",
    *,
    errors: str = "raise",
) -> BatchResult:
    """occ.calc for many launches at once: each argument a scalar (the same
    for every row) or a list or 1-D NumPy array of ints, one per row; the
    loop runs in C (libocc's occ_calc_batch): a million rows in about
    0.15 s (docs/python.md). ``gpu`` is one GPU, or one per row (names or
    occ.Gpu).

    ``threads`` may be 2-D, one (x, y, z) row per launch. In arrays, the
    special values are C's: carveout -1 (occ.CARVEOUT_DEFAULT) for no
    preference, max_threads 0 for no launch bounds, optin -1
    (occ.OPTIN_MAX) or -2 (occ.NO_OPTIN), smem_config 0 for the
    carveout's, partitioned_gc 0 off, 1 on, 2 strict. As scalars they take
    occ.calc's forms (None, "max", "off", ...).

    Args:
        errors: "raise" (default): OccError naming the first bad row
            ("row 12: threads 1100 exceed ..."); "keep": bad rows keep
            their place with ``status`` set and zeros.

    Returns:
        A BatchResult of NumPy arrays.
    """
    np = _numpy()
    if errors not in ("raise", "keep"):
        raise ValueError(f"errors must be 'raise' or 'keep', not {errors!r}")
    d = _kernel.DEFAULT
    t = np.asarray(threads)
    if t.dtype.kind not in "iu":
        raise TypeError(f"threads must hold integers, not {t.dtype}")
    if t.ndim == 2:
        if not 1 <= t.shape[1] <= 3:
            raise OccError(f"threads: rows of 1 to 3 dimensions, not {t.shape[1]}",
                           status="invalid argument", code=1, field="threads")
        dims = [_column(np, "threads", t[:, i]) for i in range(t.shape[1])]
    else:
        dims = [_column(np, "threads", t)]
    columns = {
        "block_x": dims[0],
        "block_y": dims[1] if len(dims) > 1 else 1,
        "block_z": dims[2] if len(dims) > 2 else 1,
        "regs_per_thread": _column(np, "regs", regs),
        "static_smem_bytes": _column(np, "smem", smem),
        "dyn_smem_bytes": _column(np, "dyn_smem", dyn_smem),
        "max_threads_per_block": _column(np, "max_threads",
                                         0 if max_threads is None else max_threads),
        "barriers": _column(np, "barriers", barriers),
        "carveout_percent": _column(np, "carveout", _kernel.carveout_value(carveout)
                                    if carveout is None or isinstance(carveout, str)
                                    else carveout),
        "max_dyn_smem_bytes": _column(np, "optin", _kernel.optin_value(optin)
                                      if isinstance(optin, str) else optin),
        "partitioned_gc": _column(np, "partitioned_gc",
                                  _kernel.partitioned_gc_value(partitioned_gc)
                                  if isinstance(partitioned_gc, str) else partitioned_gc),
        "smem_config_bytes": _column(np, "smem_config",
                                     0 if smem_config is None else smem_config),
    }
    many_gpus = not isinstance(gpu, (str, Gpu))
    shapes = [np.shape(c) for c in columns.values()]
    if many_gpus:
        # each row's GPU as an index into the distinct ones, in order of
        # first appearance: dict lookups in C (sorting a million strings, as
        # np.unique does, costs several times more)
        seq = gpu.tolist() if hasattr(gpu, "tolist") else list(gpu)
        distinct = {g: i for i, g in enumerate(dict.fromkeys(seq))}
        codes = np.fromiter(map(distinct.__getitem__, seq), dtype=np.int32, count=len(seq))
        names = [g.name if isinstance(g, Gpu) else g for g in distinct]
        shapes.append(codes.shape)
    try:
        (rows,) = np.broadcast_shapes(*shapes) or (1,)
    except ValueError:
        raise OccError("the arrays differ in length: " + ", ".join(
            f"{k} {np.shape(v)}" for k, v in columns.items() if np.ndim(v)),
            status="invalid argument", code=1, field="threads") from None
    kernels = np.empty(rows, dtype=np.dtype(n.Kernel))
    for field, _ in n.Kernel._fields_:
        # fields calc_batch does not take (a cluster shape, ...): occ_kernel_init's
        kernels[field] = columns[field] if field in columns else getattr(d, field)
    results = np.empty(rows, dtype=np.dtype(n.Result))
    status = np.zeros(rows, dtype=np.int32)
    if rows == 0:
        return BatchResult(results, status)
    if many_gpus:
        devices = (n.Device * len(names))(*(device_of(str(name)) for name in names))
        codes = np.ascontiguousarray(np.broadcast_to(codes, (rows,)), dtype=np.int32)
        index = codes.ctypes.data_as(ctypes.c_void_p)
    else:
        devices = device_of(gpu)
        index = None
    err = n.Error()
    # each row on its own device (devices[index[row]]), the loop in C
    rc = n.lib.occ_calc_batch(ctypes.addressof(devices), len(names) if many_gpus else 1, index,
                              kernels.ctypes.data_as(ctypes.c_void_p), rows,
                              results.ctypes.data_as(ctypes.c_void_p),
                              status.ctypes.data_as(ctypes.c_void_p), ctypes.byref(err))
    if rc and not status.any():  # not a row's failure (those are in status)
        n.raise_error(err)
    if errors == "raise" and status.any():
        first = int(np.flatnonzero(status)[0])
        _raise_row(names[codes[first]] if many_gpus else gpu, kernels[first], first)
    return BatchResult(results, status)


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
