"""occ.gpus() is ``occ gpus --json``; names resolve as ``--gpu`` resolves
them; every bad input raises OccError with the core's message."""

from __future__ import annotations

import dataclasses

import pytest

import occ
from conftest import cli_csv, run_cli


def test_gpus_equal_cli_json(cli_gpus):
    mine = occ.gpus()
    assert [g.name for g in mine] == [g["name"] for g in cli_gpus]
    for g, expected in zip(mine, cli_gpus):
        fields = {f.name for f in dataclasses.fields(g) if not f.name.startswith("_")}
        assert fields <= set(expected), fields - set(expected)
        for name in fields:
            value = getattr(g, name)
            value = list(value) if isinstance(value, tuple) else value
            assert value == expected[name], (g.name, name)


def test_every_name_and_alias_resolves_as_the_cli(cli_gpus):
    for entry in cli_gpus:
        for name in [entry["name"], *entry["aliases"]]:
            g = occ.gpu(name)
            assert g.name == entry["name"], name
            assert g == occ.gpus()[[e["name"] for e in cli_gpus].index(entry["name"])]
    assert occ.gpu("compute_90").name == occ.gpu("9.0").name == "sm_90"
    assert occ.gpu("nvidia h200").name == "H200"


def test_unknown_gpu_names_the_closest_as_the_core_does():
    rows = cli_csv(["calc", "--batch", "-"],
                   "gpu,threads,regs,smem,dyn_smem,carveout\nH300,1,0,0,0,\n", check=False)
    with pytest.raises(occ.OccError) as e:
        occ.gpu("H300")
    assert rows[0]["error"] == f"gpu: {e.value}"
    assert e.value.status == "unknown GPU"
    with pytest.raises(occ.OccError):
        occ.calc("H300", 256)
    with pytest.raises(TypeError):
        occ.gpu(90)


# Launches the core refuses, each with the field it names. The CLI, given
# the same launch, prints the same message (its own parser lets them by).
REFUSED = [
    (dict(threads=(32, 32, 2)), "--threads", "32x32x2", "threads"),
    (dict(threads=256, smem=50000), "--smem", "50000", "smem"),
    (dict(threads=(1, 1, 65)), "--threads", "1x1x65", "block_z"),
    (dict(threads=256, carveout=101), None, None, "carveout"),
    (dict(threads=256, barriers=17), None, None, "barriers"),
    (dict(threads=256, regs=256), None, None, "regs"),
    (dict(threads=0), None, None, "threads"),
    (dict(threads=256, dyn_smem=-5), None, None, "dyn_smem"),
    (dict(threads=256, optin=300_000), None, None, None),
]


@pytest.mark.parametrize("k,option,value,field", REFUSED)
def test_refused_launches_raise_the_cores_message(k, option, value, field):
    threads = k.pop("threads")
    with pytest.raises(occ.OccError) as e:
        occ.calc("H200", threads, **k)
    assert e.value.status == "invalid argument"
    assert e.value.code == 1
    if field is not None:
        assert e.value.field == field
    assert str(e.value) and "\n" not in str(e.value)
    if option is not None:
        args = ["calc", "--gpu", "H200", "--threads", "256", option, value]
        if option == "--threads":
            args = ["calc", "--gpu", "H200", option, value]
        proc = run_cli(args, check=False)
        assert proc.returncode == 2
        assert f"occ calc: {e.value}\n" in proc.stderr
    # every launch function refuses it alike
    for f in (occ.explain, occ.explanation, lambda *a, **kw: occ.sweep("regs", *a, **kw)):
        with pytest.raises(occ.OccError):
            f("H200", threads, **k)


def test_python_values_a_c_int_cannot_hold():
    with pytest.raises(occ.OccError, match="outside the range of a C int") as e:
        occ.calc("H200", 256, smem=2**40)
    assert e.value.field == "smem"
    with pytest.raises(occ.OccError, match="outside the range of a C int"):
        occ.calc("H200", 2**32 + 256)
    with pytest.raises(TypeError):
        occ.calc("H200", 256, regs=32.5)
    with pytest.raises(TypeError):
        occ.calc("H200", "256")
    with pytest.raises(occ.OccError, match="1 to 3 dimensions"):
        occ.calc("H200", (1, 2, 3, 4))


def test_word_options():
    base = occ.calc("H200", 256, dyn_smem=60_000)
    assert occ.calc("H200", 256, dyn_smem=60_000, optin="max") == base
    assert occ.calc("H200", 256, carveout="default") == occ.calc("H200", 256, carveout=None)
    # 60,000 bytes need the opt-in: without it nothing fits
    assert occ.calc("H200", 256, dyn_smem=60_000, optin="none").blocks_per_sm == 0
    for bad in (dict(optin="most"), dict(carveout="half"), dict(partitioned_gc="yes")):
        with pytest.raises(occ.OccError):
            occ.calc("H200", 256, **bad)
    with pytest.raises(occ.OccError, match="axis"):
        occ.sweep("warps", "H200", 256)
    with pytest.raises(occ.OccError):
        occ.waves(0, 132, 1000)
    with pytest.raises(occ.OccError):
        occ.suggest("H200", elements=10, blocks=10)
    with pytest.raises(occ.OccError, match="no SM count"):
        occ.suggest("sm_90", blocks=10)
    with pytest.raises(occ.OccError, match="no block size fits"):
        occ.suggest("H200", dyn_smem=300_000)
    with pytest.raises(occ.OccError):
        occ.dyn_smem_available("H200", 40, 1024)


def test_occ_error_is_a_value_error():
    with pytest.raises(ValueError):
        occ.calc("H200", 2048)


def test_a_gpu_cannot_be_changed_into_another():
    """The calculations use the database entry behind a Gpu: a copy with a
    field changed would compute with the original, so it is refused."""
    h200 = occ.gpu("H200")
    with pytest.raises(TypeError, match="cannot be changed"):
        dataclasses.replace(h200, sm_count=100)
    with pytest.raises(TypeError):
        occ.Gpu(**{f.name: getattr(h200, f.name) for f in dataclasses.fields(h200)
                   if not f.name.startswith("_")})
    assert dataclasses.replace(h200) == h200  # an unchanged copy is the same GPU


def test_nul_and_types_refused(tmp_path):
    """An embedded NUL is refused, as open() refuses it, rather than cut off in
    C ('H200\\0garbage' once computed for an H200); a block size must be ints."""
    with pytest.raises(occ.OccError, match="embedded null byte"):
        occ.calc("H200\0garbage", 256)
    ok = tmp_path / "ok.log"
    ok.write_text("ptxas info    : Compiling entry function '_Z1kv' for 'sm_90'\n"
                  "ptxas info    : Used 32 registers, used 0 barriers\n")
    with pytest.raises(occ.OccError, match="embedded null byte"):
        occ.inspect(str(ok) + "\0.ignored")
    for bad in (256.0, None, True, (16, 16.0), (16, True)):
        with pytest.raises(TypeError, match="threads"):
            occ.calc("H200", bad)
    assert occ.calc("H200", (16, 16)).threads_per_block == 256
