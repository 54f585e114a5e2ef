"""A kernel launch from keyword arguments: the occ_kernel every kernel-launch
function (calc, explain, sweep, suggest, latency) passes to libocc.

The struct is packed with the struct module, whose format follows the
ctypes declaration of occ_kernel: one C call packs every field and refuses a
value a C int cannot hold, which costs a third of filling a ctypes struct
field by field (occ.calc's budget is 5 us a call)."""

from __future__ import annotations

import ctypes
import operator
import struct
from typing import Sequence, Union

from . import _native as n
from ._errors import OccError

Threads = Union[int, Sequence[int]]

_INT_MIN = -(2**31)
_INT_MAX = 2**31 - 1

# The driver's defaults, from occ_kernel_init itself.
DEFAULT = n.Kernel()
n.lib.occ_kernel_init(ctypes.byref(DEFAULT))

_PGC = {"off": 0, "on": 1, "strict": 2}  # occ_partitioned_gc

# The fields make() sets, in occ_kernel's order; the ones after them (a
# cluster shape, ...) keep occ_kernel_init's values.
NAMES = ("threads", "threads", "threads", "regs", "smem", "dyn_smem", "max_threads", "barriers",
         "carveout", "optin", "partitioned_gc", "smem_config")
TAIL = tuple(getattr(DEFAULT, name) for name, _ in n.Kernel._fields_[len(NAMES):])

_CODES = {ctypes.c_int: "i", ctypes.c_bool: "?"}
_PACK = struct.Struct("@" + "".join(_CODES[t] for _, t in n.Kernel._fields_)).pack
if struct.calcsize("@" + "".join(_CODES[t] for _, t in n.Kernel._fields_)) > ctypes.sizeof(
        n.Kernel):
    raise ImportError("occ: occ_kernel's struct format is larger than its ctypes declaration")
_PAD = bytes(ctypes.sizeof(n.Kernel) - struct.calcsize(
    "@" + "".join(_CODES[t] for _, t in n.Kernel._fields_)))


def block_dims(threads: Threads) -> tuple[int, int, int]:
    """(x, y, z) from 256, (16, 16) or (8, 8, 4)."""
    if isinstance(threads, bool):  # an int to Python, never a block size
        raise TypeError("threads must be an int or a sequence of 1 to 3 ints, not bool")
    if isinstance(threads, int):
        return threads, 1, 1
    if hasattr(threads, "__index__"):  # a NumPy integer
        return operator.index(threads), 1, 1
    if isinstance(threads, str) or not hasattr(threads, "__iter__"):
        raise TypeError("threads must be an int or a sequence of 1 to 3 ints, such as (16, 16), "
                        f"not {type(threads).__name__}")
    dims = tuple(threads)
    for d in dims:
        if isinstance(d, bool) or not (isinstance(d, int) or hasattr(d, "__index__")):
            raise TypeError(f"threads {threads!r}: each dimension must be an int, not "
                            f"{type(d).__name__}")
    dims = tuple(operator.index(d) for d in dims)
    if not 1 <= len(dims) <= 3:
        raise OccError(
            f"threads {threads!r}: a block has 1 to 3 dimensions",
            status="invalid argument",
            code=1,
            field="threads",
        )
    return (dims + (1, 1))[:3]


def _invalid(message: str, field: str) -> OccError:
    return OccError(message, status="invalid argument", code=1, field=field)


def optin_value(optin: int | str) -> int:
    if optin == "max":
        return n.OPTIN_MAX
    if optin == "none":
        return n.NO_OPTIN
    if isinstance(optin, str):
        raise _invalid(f"optin '{optin}' is not 'max', 'none' or a size in bytes", "optin")
    return optin


def carveout_value(carveout: int | str | None) -> int:
    if carveout is None or carveout == "default":
        return DEFAULT.carveout_percent
    if isinstance(carveout, str):
        raise _invalid(f"carveout '{carveout}' is not 'default' or a percentage 0..100",
                       "carveout")
    return carveout


def partitioned_gc_value(mode: str) -> int:
    try:
        return _PGC[mode]
    except (KeyError, TypeError):
        raise _invalid(f"partitioned_gc {mode!r} is not one of 'off', 'on', 'strict'",
                       "partitioned_gc") from None


def pack(
    threads: Threads,
    regs: int,
    smem: int,
    dyn_smem: int,
    barriers: int,
    carveout: int | str | None,
    max_threads: int | None,
    optin: int | str,
    smem_config: int | None,
    partitioned_gc: str,
) -> bytes:
    """The occ_kernel's bytes. libocc checks every value when it is used (a
    value past a GPU's limit is its error, OccError with its message);
    Python ints a C int cannot hold are refused here, before C sees them."""
    if type(threads) is int:  # the common case, without the general path
        bx, by, bz = threads, 1, 1
    else:
        bx, by, bz = block_dims(threads)
    values = (
        bx,
        by,
        bz,
        regs,
        smem,
        dyn_smem,
        0 if max_threads is None else max_threads,
        barriers,
        DEFAULT.carveout_percent if carveout is None else carveout_value(carveout),
        n.OPTIN_MAX if optin == "max" else optin_value(optin),
        0 if partitioned_gc == "off" else partitioned_gc_value(partitioned_gc),
        0 if smem_config is None else smem_config,
    )
    try:
        return _PACK(*values, *TAIL) + _PAD
    except struct.error:
        _refuse(values)
        raise


def make(*args) -> n.Kernel:
    """pack()'s kernel as a ctypes struct, for the calls that take one."""
    return n.Kernel.from_buffer_copy(pack(*args))


def _refuse(values: tuple) -> None:
    """Why struct.pack refused a value: not an int, or beyond a C int."""
    for name, v in zip(NAMES, values):
        try:
            v = operator.index(v)
        except TypeError:
            raise TypeError(f"{name} must be an int, not {type(v).__name__}") from None
        if not _INT_MIN <= v <= _INT_MAX:
            raise OccError(
                f"{name} {v} is outside the range of a C int ({_INT_MIN} to {_INT_MAX})",
                status="invalid argument",
                code=1,
                field=name,
            )
