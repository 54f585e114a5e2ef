"""occ.calc_batch: every row equals occ.calc of that row (whose equality
with the CLI test_calc_cli.py checks); lists and arrays alike; bad rows
named or kept; values NumPy or C cannot hold refused."""

from __future__ import annotations

import numpy as np
import pytest

import occ


def one_by_one(gpus, threads, regs, smem, dyn):
    return [occ.calc(g, t, regs=r, smem=s, dyn_smem=d)
            for g, t, r, s, d in zip(gpus, threads, regs, smem, dyn)]


def test_rows_equal_calc_one_gpu_and_many():
    rng = np.random.default_rng(5)
    rows = 3000
    names = [g.name for g in occ.gpus()]
    gpus = rng.choice(names, rows)
    threads = rng.integers(1, 1025, rows)
    regs = rng.integers(0, 256, rows)
    smem = rng.integers(0, 48 * 1024 + 1, rows) // 1024 * 1024
    dyn = rng.integers(0, 64 * 1024, rows)
    for g in ("H200", occ.gpu("T4"), gpus, list(gpus), [occ.gpu(x) for x in gpus[:rows]]):
        one = g if isinstance(g, (str, occ.Gpu)) else None
        b = occ.calc_batch(g, threads, regs, smem, dyn, errors="keep")
        expected = one_by_one([one] * rows if one is not None else list(map(str, g)), threads,
                              regs, smem, dyn)
        for i, r in enumerate(expected):
            assert b.status[i] == 0
            assert b.blocks_per_sm[i] == r.blocks_per_sm
            assert b.warps_per_sm[i] == r.warps_per_sm
            assert b.occupancy[i] == r.occupancy
            assert b.limiter_names(i) == r.limiters
            for name, limit in b.limits.items():
                assert (None if limit[i] == occ.UNLIMITED else limit[i]) == r.limits[name]


def test_scalars_lists_and_2d_blocks():
    b = occ.calc_batch("H200", [256, 512, 1024], regs=64, smem=[16384, 0, 0])
    assert list(b.blocks_per_sm) == [occ.calc("H200", t, regs=64, smem=s).blocks_per_sm
                                     for t, s in ((256, 16384), (512, 0), (1024, 0))]
    b = occ.calc_batch("A100", [[16, 16, 1], [8, 8, 4], [32, 4, 1]], regs=[32, 40, 48])
    for i, (t, r) in enumerate((((16, 16), 32), ((8, 8, 4), 40), ((32, 4), 48))):
        assert b.blocks_per_sm[i] == occ.calc("A100", t, regs=r).blocks_per_sm
    one = occ.calc_batch("H200", 128, regs=32)
    assert len(one) == 1 and one.blocks_per_sm[0] == occ.calc("H200", 128, regs=32).blocks_per_sm
    empty = occ.calc_batch("H200", np.array([], dtype=np.int64))
    assert len(empty) == 0


def test_special_values_as_calc_takes_them():
    k = dict(dyn_smem=60_000)
    for batch_kw, calc_kw in (
        (dict(optin=occ.NO_OPTIN), dict(optin="none")),
        (dict(optin="none"), dict(optin="none")),
        (dict(optin=[occ.OPTIN_MAX]), dict(optin="max")),
        (dict(carveout=[occ.CARVEOUT_DEFAULT]), dict(carveout=None)),
        (dict(carveout=[25]), dict(carveout=25)),
        (dict(max_threads=[128]), dict(max_threads=128)),
        (dict(smem_config=[102400]), dict(smem_config=102400)),
    ):
        b = occ.calc_batch("H200", [256], **k, **batch_kw)
        r = occ.calc("H200", 256, **k, **calc_kw)
        assert (b.blocks_per_sm[0], bool(b.exceeds_launch_bounds[0])) == (
            r.blocks_per_sm, r.allocation.exceeds_launch_bounds), batch_kw
        assert b.raw["smem_per_sm_bytes"][0] == r.allocation.smem_per_sm_bytes
    gc = occ.calc_batch("sm_61", [256, 256, 256], partitioned_gc=[0, 1, 2], regs=40)
    for i, mode in enumerate(("off", "on", "strict")):
        r = occ.calc("sm_61", 256, regs=40, partitioned_gc=mode)
        assert gc.raw["partitioned_gc_on"][i] == r.allocation.partitioned_gc_on
        assert gc.blocks_per_sm[i] == r.blocks_per_sm


def test_bad_rows_raise_or_keep_their_place():
    threads = [256, 256, 2048, 256]
    smem = [0, 50_000, 0, 0]
    with pytest.raises(occ.OccError) as e:
        occ.calc_batch("H200", threads, smem=smem)
    with pytest.raises(occ.OccError) as single:
        occ.calc("H200", 256, smem=50_000)
    assert str(e.value) == f"row 1: {single.value}"
    assert e.value.field == "smem"
    b = occ.calc_batch("H200", threads, smem=smem, errors="keep")
    assert list(b.ok) == [True, False, False, True]
    assert list(b.status[1:3]) == [1, 1]  # OCC_ERR_INVALID_ARGUMENT
    assert list(b.blocks_per_sm[1:3]) == [0, 0]
    assert b.blocks_per_sm[3] == occ.calc("H200", 256).blocks_per_sm
    with pytest.raises(occ.OccError, match="row 2: "):
        occ.calc_batch(["H200", "A100", "T4"], [256, 256, 2048])
    with pytest.raises(occ.OccError, match="unknown GPU"):
        occ.calc_batch(["H200", "H300"], [256, 256])
    with pytest.raises(ValueError):
        occ.calc_batch("H200", [256], errors="ignore")


def test_values_numpy_or_c_cannot_hold():
    with pytest.raises(TypeError):
        occ.calc_batch("H200", [256.0, 128.5])
    with pytest.raises(TypeError):
        occ.calc_batch("H200", [256], regs=[32.5])
    with pytest.raises(occ.OccError, match="outside the range of a C int"):
        occ.calc_batch("H200", [256], smem=[2**40])
    with pytest.raises(occ.OccError, match="differ in length"):
        occ.calc_batch("H200", [256, 512], regs=[1, 2, 3])
    with pytest.raises(occ.OccError):
        occ.calc_batch("H200", [[1, 2, 3, 4]])


def test_one_gpu_list_broadcasts_over_the_rows():
    b = occ.calc_batch(["A100"], [128, 256, 512], regs=32)
    assert list(b.blocks_per_sm) == [occ.calc("A100", t, regs=32).blocks_per_sm
                                     for t in (128, 256, 512)]


def test_empty_batches():
    for gpu in ("H200", []):
        b = occ.calc_batch(gpu, np.array([], dtype=np.int64))
        assert len(b) == 0 and len(b.status) == 0
