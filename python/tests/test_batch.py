"""occ.calc_batch: every row equals occ.calc of that row (whose equality
with the CLI test_calc_cli.py checks); lists and arrays alike; bad rows
named or kept; values NumPy or C cannot hold refused."""

from __future__ import annotations

import tracemalloc

import numpy as np
import pytest

import occ
from conftest import cli_csv


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


def test_an_empty_list_is_an_empty_batch():
    for gpu, threads, kw in (("H200", [], {}), ([], [], {}), ("H200", [], dict(regs=[])),
                             ("H200", [], dict(regs=5, partitioned_gc=[])),
                             ("H200", np.zeros((0, 3), dtype=np.int64), {})):
        b = occ.calc_batch(gpu, threads, **kw)
        assert len(b) == 0 and len(b.status) == 0 and len(b.blocks_per_sm) == 0, (gpu, kw)
    # an empty list is a length like any other: it does not stand for every row
    with pytest.raises(occ.OccError, match="threads has 0, regs has 2"):
        occ.calc_batch("H200", [], regs=[32, 64])
    # and the one GPU is still checked
    with pytest.raises(occ.OccError, match="unknown GPU 'H300'"):
        occ.calc_batch("H300", [])


@pytest.mark.parametrize("gpu, kw, message, field", [
    ("H200", dict(threads=[256, 512], regs=[1, 2, 3]), "threads has 2, regs has 3", "regs"),
    (["H200", "T4", "A100"], dict(threads=[256, 512]), "gpu has 3, threads has 2", "threads"),
    ("H200", dict(threads=np.arange(4), smem=[0] * 4, dyn_smem=np.zeros(5, dtype=int)),
     "threads has 4, smem has 4, dyn_smem has 5", "dyn_smem"),
    ("H200", dict(threads=[[16, 16]] * 3, partitioned_gc=["on"] * 2),
     "threads has 3, partitioned_gc has 2", "partitioned_gc"),
])
def test_a_length_mismatch_names_each_list_and_its_length(gpu, kw, message, field):
    with pytest.raises(occ.OccError) as e:
        occ.calc_batch(gpu, **kw)
    assert str(e.value).startswith(f"the lists differ in length: {message} ")
    assert e.value.field == field and e.value.code == 1


def test_an_unknown_gpu_in_a_list_is_that_rows_error():
    gpus = ["H200", "bogus", "T4", "bogus", "sm_90"]
    threads = [256, 256, 2048, 128, 512]
    b = occ.calc_batch(gpus, threads, regs=32, errors="keep")
    assert list(b.status) == [0, 3, 1, 3, 0]  # OCC_ERR_UNKNOWN_GPU, OCC_ERR_INVALID_ARGUMENT
    assert list(b.ok) == [True, False, False, False, True]
    for i in (0, 4):
        assert b.blocks_per_sm[i] == occ.calc(gpus[i], threads[i], regs=32).blocks_per_sm
    for i in (1, 2, 3):
        assert b.blocks_per_sm[i] == 0 and b.occupancy[i] == 0 and b.limits["warps"][i] == 0
    # the CLI's --batch keeps the same rows, and errs on the same ones
    csv = "gpu,threads,regs,smem,dyn_smem,carveout\n" + "".join(
        f"{g},{t},32,0,0,\n" for g, t in zip(gpus, threads))
    rows = cli_csv(["calc", "--batch", "-"], csv, check=False)
    assert [r["gpu"] for r in rows] == gpus
    assert [r["error"] != "" for r in rows] == [not ok for ok in b.ok]
    assert "unknown GPU 'bogus'" in rows[1]["error"]
    # errors="raise" names the first bad row, whichever its cause
    with pytest.raises(occ.OccError) as e:
        occ.calc_batch(gpus, threads, regs=32)
    assert str(e.value).startswith("row 1: unknown GPU 'bogus'")
    assert (e.value.code, e.value.field) == (3, "gpu")
    with pytest.raises(occ.OccError, match="^row 1: threads 2048 exceed"):
        occ.calc_batch(["T4", "T4", "bogus"], [256, 2048, 256])
    # a name alone in its list stands for every row, and keeps them all
    b = occ.calc_batch(["bogus"], [128, 256], errors="keep")
    assert list(b.status) == [3, 3]
    # a value of the wrong type is no row's error
    with pytest.raises(TypeError):
        occ.calc_batch(["H200", None], [256, 256], errors="keep")


def test_words_in_a_list_as_alone():
    threads = [256] * 3
    modes = ["off", "on", "strict"]
    words = occ.calc_batch("sm_61", threads, regs=40, partitioned_gc=modes)
    for gc in (np.array(modes), [0, 1, 2], ["off", 1, "strict"], np.array([0, 1, 2])):
        b = occ.calc_batch("sm_61", threads, regs=40, partitioned_gc=gc)
        assert list(b.raw["partitioned_gc_on"]) == list(words.raw["partitioned_gc_on"]), gc
    for i, mode in enumerate(modes):
        r = occ.calc("sm_61", 256, regs=40, partitioned_gc=mode)
        assert words.raw["partitioned_gc_on"][i] == r.allocation.partitioned_gc_on
        assert words.blocks_per_sm[i] == r.blocks_per_sm
    # the other arguments with words or None
    k = dict(dyn_smem=60_000)
    b = occ.calc_batch("H200", [256, 256, 512], **k, optin=["max", "none", 80_000],
                       carveout=[None, "default", 25], max_threads=[None, 128, None],
                       smem_config=[None, 0, 102400])
    expected = [occ.calc("H200", 256, **k),
                occ.calc("H200", 256, **k, optin="none", max_threads=128),
                occ.calc("H200", 512, **k, optin=80_000, carveout=25, smem_config=102400)]
    for i, r in enumerate(expected):
        assert b.blocks_per_sm[i] == r.blocks_per_sm
        assert bool(b.exceeds_launch_bounds[i]) == r.allocation.exceeds_launch_bounds
        assert b.raw["smem_per_sm_bytes"][i] == r.allocation.smem_per_sm_bytes
    with pytest.raises(occ.OccError, match="partitioned_gc 'sometimes' is not one of") as e:
        occ.calc_batch("sm_61", threads, partitioned_gc=["on", "sometimes", "off"])
    assert e.value.field == "partitioned_gc"
    with pytest.raises(TypeError):
        occ.calc_batch("sm_61", threads, partitioned_gc=["on", 1.5, "off"])
    with pytest.raises(TypeError):
        occ.calc_batch("H200", [256], max_threads=["none"])


def test_rows_past_one_chunk():
    """Rows go through C CHUNK_ROWS at a time: rows on either side of each
    chunk's edge, a GPU first named in a later chunk and a bad row there
    are what occ.calc says of each."""
    chunk = occ._batch.CHUNK_ROWS
    rows = 2 * chunk + 123
    rng = np.random.default_rng(11)
    threads = rng.integers(1, 1025, rows)
    regs = rng.integers(0, 256, rows)
    gpus = np.array(["H200", "A100"], dtype=object)[rng.integers(0, 2, rows)]
    gpus[chunk + 5] = "T4"  # first seen in the second chunk
    gpus[2 * chunk + 7] = "bogus"
    threads[2 * chunk + 9] = 4096
    b = occ.calc_batch(gpus, threads, regs, errors="keep")
    one = occ.calc_batch("H200", threads, regs, errors="keep")
    edges = [0, chunk - 1, chunk, chunk + 5, 2 * chunk - 1, 2 * chunk, rows - 1]
    for i in sorted(set(edges + list(range(0, rows, 997)))):
        for result, gpu in ((b, str(gpus[i])), (one, "H200")):
            if gpu == "bogus" or threads[i] > 1024:
                assert result.status[i] != 0 and result.blocks_per_sm[i] == 0
                continue
            r = occ.calc(gpu, int(threads[i]), regs=int(regs[i]))
            assert (result.status[i], result.blocks_per_sm[i]) == (0, r.blocks_per_sm), i
            assert result.occupancy[i] == r.occupancy
    assert b.status[2 * chunk + 7] == 3 and b.status[2 * chunk + 9] == 1
    assert np.count_nonzero(b.status) == 2 and np.count_nonzero(one.status) == 1
    with pytest.raises(occ.OccError, match=f"^row {2 * chunk + 7}: unknown GPU 'bogus'"):
        occ.calc_batch(gpus, threads, regs)


def test_memory_is_the_result_and_one_chunk():
    """Beside the inputs, calc_batch holds its result (an occ_result and a
    status a row) and one chunk of kernels, whatever the count: 600,000
    rows (43 MB of kernels, were they all made at once, and 37 MB of GPU
    names as Python strings) stay within 16 MiB of the result."""
    rows = 600_000
    threads = np.full(rows, 256)
    for gpu in ("H200", np.array(["H200", "T4", "A100"] * (rows // 3))):
        tracemalloc.start()
        b = occ.calc_batch(gpu, threads, regs=64)
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        result = b.raw.nbytes + b.status.nbytes
        assert peak - result < 16 * 2**20, f"{(peak - result) / 2**20:.0f} MiB beside the result"
