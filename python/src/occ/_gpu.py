"""GPUs from libocc's database, occ.gpu() and occ.gpus(), and described in
JSON: occ.gpu_from_file() (libocc-inspect's reader, what --gpu-file reads)."""

from __future__ import annotations

import ctypes
import os
from dataclasses import dataclass, field, fields
from functools import lru_cache
from typing import Union

from . import _native as n
from ._errors import OccError


@dataclass(frozen=True)
class Gpu:
    """One GPU of libocc's database (occ_device), or one described in a file
    (occ.gpu_from_file): its per-SM limits and, for a named product, its
    facts. The fields are those of an entry of ``occ gpus --json``
    (docs/json.md); a product fact occ does not know is None (a generic entry
    such as sm_90 has no SM count). ``named`` is False for a generic entry
    (named after its arch) and, as in ``occ calc --gpu-file --json``, for a
    file's GPU named so; True otherwise."""

    name: str
    arch: str
    compute_capability: str
    named: bool
    sm_count: int | None
    sm_clock_mhz: int | None
    mem_bandwidth_gb_per_s: int | None
    l2_bytes: int | None
    mem_latency_ns: int | None
    mem_latency_source: str
    mem_latency_citation: str | None
    warp_size_threads: int
    max_threads_per_block: int
    max_threads_per_sm: int
    max_warps_per_sm: int
    max_blocks_per_sm: int
    regs_per_sm: int
    regs_per_block: int
    max_regs_per_thread: int
    reg_alloc_unit: int
    sub_partitions_per_sm: int
    smem_per_sm_bytes: int
    smem_per_block_bytes: int
    smem_per_block_optin_bytes: int
    smem_reserved_per_block_bytes: int
    smem_alloc_unit_bytes: int
    carveout_steps_bytes: tuple[int, ...]
    barriers_per_block_slot: int
    partitioned_gc: bool
    aliases: tuple[str, ...] = ()
    _device: n.Device = field(default=None, repr=False, compare=False, hash=False)
    _address: int = field(default=0, repr=False, compare=False, hash=False)  # of _device

    def __post_init__(self) -> None:
        # The calculations use _device, so the fields must be its own: a Gpu
        # comes from the database (occ.gpu, occ.gpus), and a copy with a field
        # changed (dataclasses.replace) would describe one GPU and compute
        # with another.
        if self._device is None or _public(self._device) != {
                name: getattr(self, name) for name in _PUBLIC_FIELDS}:
            raise TypeError("an occ.Gpu comes from the database (occ.gpu, occ.gpus) or a file "
                            "(occ.gpu_from_file) and its fields cannot be changed; describe "
                            "another GPU in a file (docs/gpu-file.md); occ.suggest(sms=...) and "
                            "occ.latency(sms=..., latency_ns=..., bandwidth=...) take other "
                            "numbers")

    def __str__(self) -> str:
        return self.name


GpuLike = Union[Gpu, str]
_PUBLIC_FIELDS = tuple(f.name for f in fields(Gpu) if f.name not in ("named", "aliases")
                       and not f.name.startswith("_"))


def _known(value: int) -> int | None:
    return value if value > 0 else None


def _arch(d: n.Device) -> str:
    buf = ctypes.create_string_buffer(16)
    n.lib.occ_arch_name(d.cc_major, d.cc_minor, buf, len(buf))
    return buf.value.decode()


def _from_device(d: n.Device, named: bool, aliases: tuple[str, ...]) -> Gpu:
    return Gpu(named=named, aliases=aliases, _device=d, _address=ctypes.addressof(d),
               **_public(d))


def _public(d: n.Device) -> dict:
    """The Gpu fields an occ_device determines."""
    return dict(
        name=d.name.decode("utf-8", "replace"),
        arch=_arch(d),
        compute_capability=f"{d.cc_major}.{d.cc_minor}",
        sm_count=_known(d.sm_count),
        sm_clock_mhz=_known(d.sm_clock_mhz),
        mem_bandwidth_gb_per_s=_known(d.mem_bandwidth_gb_per_s),
        l2_bytes=_known(d.l2_bytes),
        mem_latency_ns=_known(d.mem_latency_ns),
        mem_latency_source=n.text(n.lib.occ_latency_source_name(d.mem_latency_source)) or "",
        mem_latency_citation=n.text(d.mem_latency_citation),
        warp_size_threads=d.warp_size_threads,
        max_threads_per_block=d.max_threads_per_block,
        max_threads_per_sm=d.max_threads_per_sm,
        max_warps_per_sm=n.lib.occ_device_max_warps_per_sm(ctypes.byref(d)),
        max_blocks_per_sm=d.max_blocks_per_sm,
        regs_per_sm=d.regs_per_sm,
        regs_per_block=d.regs_per_block,
        max_regs_per_thread=d.max_regs_per_thread,
        reg_alloc_unit=d.reg_alloc_unit,
        sub_partitions_per_sm=d.sub_partitions_per_sm,
        smem_per_sm_bytes=d.smem_per_sm_bytes,
        smem_per_block_bytes=d.smem_per_block_bytes,
        smem_per_block_optin_bytes=d.smem_per_block_optin_bytes,
        smem_reserved_per_block_bytes=d.smem_reserved_per_block_bytes,
        smem_alloc_unit_bytes=d.smem_alloc_unit_bytes,
        carveout_steps_bytes=tuple(d.carveout_steps_bytes[: d.carveout_step_count]),
        barriers_per_block_slot=d.barriers_per_block_slot,
        partitioned_gc=bool(d.partitioned_gc),
    )


def _entry(index: int) -> tuple[n.Device, bool, tuple[str, ...]]:
    d = n.Device()
    named = ctypes.c_bool()
    aliases = ctypes.POINTER(ctypes.c_char_p)()
    err = n.Error()
    if n.lib.occ_gpu_at(index, ctypes.byref(d), ctypes.byref(named), ctypes.byref(aliases),
                        ctypes.byref(err)) != 0:
        n.raise_error(err)
    names = []
    if aliases:
        i = 0
        while aliases[i] is not None:
            names.append(aliases[i].decode())
            i += 1
    return d, bool(named.value), tuple(names)


@lru_cache(maxsize=None)
def gpus() -> tuple[Gpu, ...]:
    """Every GPU of the database: one generic entry per compute capability
    (sm_50 .. sm_121) first, then the named products, as ``occ gpus``."""
    return tuple(_from_device(*_entry(i)) for i in range(n.lib.occ_gpu_count()))


@lru_cache(maxsize=None)
def _aliases_by_name() -> dict[str, tuple[str, ...]]:
    return {g.name: g.aliases for g in gpus()}


@lru_cache(maxsize=1024)
def gpu(name: str) -> Gpu:
    """The GPU a name, alias, arch or compute capability stands for, as
    ``occ calc --gpu`` reads it: "H200", "a100-80gb", "sm_90", "sm_90a",
    "compute_90" or "9.0" (case, spaces, '-' and '_' do not matter).

    Raises OccError for a name the database does not know, with the
    closest names in its message.
    """
    if not isinstance(name, str):
        raise TypeError(f"gpu name must be a str, not {type(name).__name__}")
    if "\0" in name:  # C would read the name up to it: refused, as open() refuses a path
        raise OccError(f"gpu name {name!r}: embedded null byte", status="invalid argument",
                       code=1, field="gpu")
    d = n.Device()
    err = n.Error()
    if n.lib.occ_gpu_find(name.encode("utf-8"), ctypes.byref(d), ctypes.byref(err)) != 0:
        n.raise_error(err)
    display = d.name.decode("utf-8", "replace")
    aliases = _aliases_by_name().get(display, ())
    # A generic entry is named after its arch; anything else is a product.
    return _from_device(d, display != _arch(d), aliases)


def gpu_from_file(path: str | os.PathLike) -> Gpu:
    """A GPU described in JSON (docs/gpu-file.md), read as ``occ calc
    --gpu-file PATH`` reads it, by the same code (libocc-inspect's
    occ_inspect_gpu_file): a database entry or compute capability to start
    from and the fields to override, checked as the database is. Every
    function that takes a GPU takes the result.

    Raises OccError with the CLI's line ("my.json: field 'sm_count': must be
    an integer"); ``field`` is "gpu_file".
    """
    if not isinstance(path, (str, bytes, os.PathLike)):
        raise TypeError(f"path must be a str or a path, not {type(path).__name__}")
    raw = os.fsencode(path)
    if b"\0" in raw:  # C would read the path up to it: refused, as open() refuses it
        raise OccError(f"{os.fsdecode(raw)!r}: embedded null byte", status="invalid argument",
                       code=1, field="gpu_file")
    il = n.inspect_lib()
    d = n.Device()
    err = n.InspectError()
    status = il.occ_inspect_gpu_file(raw, ctypes.byref(d), ctypes.byref(err))
    if status:
        raise OccError(err.message.decode("utf-8", "replace"),
                       status=n.text(n.lib.occ_status_name(status)) or "", code=status,
                       field="gpu_file")
    return _from_device(d, d.name.decode("utf-8", "replace") != _arch(d), ())


_by_name: dict[str, Gpu] = {}  # gpu()'s answers, for occ.calc's fast path


def named(g: GpuLike) -> Gpu:
    """gpu_of, with a dict lookup first for a name seen before."""
    found = _by_name.get(g) if type(g) is str else None
    if found is None:
        found = gpu_of(g)
        if type(g) is str and len(_by_name) < 1024:
            _by_name[g] = found
    return found


def device_of(g: GpuLike) -> n.Device:
    """The occ_device behind a Gpu or a name."""
    if isinstance(g, Gpu):
        return g._device
    if isinstance(g, str):
        return gpu(g)._device
    raise TypeError(f"gpu must be an occ.Gpu or a name, not {type(g).__name__}")


def gpu_of(g: GpuLike) -> Gpu:
    if isinstance(g, Gpu):
        return g
    if isinstance(g, str):
        return gpu(g)
    raise TypeError(f"gpu must be an occ.Gpu or a name, not {type(g).__name__}")
