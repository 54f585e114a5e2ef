"""occ.profile equals ``occ profile --json``: on the five PyTorch profiler
traces recorded on an H200 (tests/data/profile-h200/kineto-*.json.gz), on an
Nsight Systems SQLite database written by ``occ lab trace --convert`` from
the CUPTI records of the same training run, with and without ``gpu=``, and
on several inputs at once; refusals carry the library's message, the one
the CLI prints. occ.from_torch_profiler on an object shaped as
torch.profiler.profile; Profile.arrays against the groups."""

from __future__ import annotations

import ctypes
import dataclasses
import gzip
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import occ
from occ import _native as n
from conftest import ROOT, cli_json, run_cli

DATA = ROOT / "tests" / "data" / "profile-h200"
# the five workloads recorded on an H200 (tests/gpu/run_profile_traces.sh),
# and any trace added beside them
RECORDED = ["kineto-attn", "kineto-conv", "kineto-gemm", "kineto-reduce", "kineto-train"]
KINETO = sorted(set(RECORDED) | {p.name[: -len(".json.gz")]
                                 for p in DATA.glob("kineto-*.json.gz")})
# the keys of the CLI's document that describe the run, not the trace
RUN_KEYS = ("schema", "version", "occ_version")
# the package names limiters as occ.calc does; the profile JSON writes
# occ_limiter_name's words
JSON_LIMITER = {"shared_mem": "shared memory"}


def kineto(name: str) -> Path:
    path = DATA / f"{name}.json.gz"
    assert path.is_file(), f"{path} is missing"
    return path


@pytest.fixture(scope="module")
def train_sqlite(tmp_path_factory) -> Path:
    """The training run's CUPTI records as an Nsight Systems SQLite export."""
    records = DATA / "cupti-train.tsv.gz"
    assert records.is_file(), f"{records} is missing"
    out = tmp_path_factory.mktemp("profile") / "cupti-train.sqlite"
    run_cli(["lab", "trace", "--convert", str(records), "--output", str(out)])
    return out


def group_doc(g: occ.ProfileGroup) -> dict:
    """One group as profile_json.c writes it."""
    d = dataclasses.asdict(g)
    for key in ("block", "grid", "cluster"):
        d[key] = None if d[key] is None else list(d[key])
    d["limiters"] = [JSON_LIMITER.get(name, name) for name in g.limiters]
    return d


def doc_of(p: occ.Profile) -> dict:
    """The Profile as the document of ``occ profile --json``, ranked aside."""
    return {
        "inputs": [dataclasses.asdict(i) for i in p.inputs],
        "launches_read": p.launches_read,
        "launches_computed": p.launches_computed,
        "gpu_time_us": p.gpu_time_us,
        "weighted_occupancy": p.weighted_occupancy,
        "gpu": [dataclasses.asdict(g) for g in p.gpu],
        "histogram": [{"from_percent": b.from_percent, "to_percent": b.to_percent,
                       "gpu_time_us": b.gpu_time_us} for b in p.histogram],
        "checks": dataclasses.asdict(p.checks),
        "groups": [group_doc(g) for g in p.groups],
    }


def c_ranking(paths: list[str]) -> list[int]:
    """occ_profile_rank over every group, straight from the library."""
    pl = n.profile_lib()
    inputs = (n.ProfileInput * len(paths))(*[n.ProfileInput(os.fsencode(p)) for p in paths])
    result = ctypes.c_void_p()
    err = n.ProfileError()
    assert pl.occ_profile_read(inputs, len(paths), None, ctypes.byref(result),
                               ctypes.byref(err)) == 0, err.message
    try:
        count = pl.occ_profile_group_count(result)
        out = (ctypes.c_size_t * max(count, 1))()
        return list(out[: pl.occ_profile_rank(result, out, count)])
    finally:
        pl.occ_profile_result_free(result)


def same_as_cli(p: occ.Profile, args: list[str], paths: list[str]) -> None:
    expected = cli_json(["profile", *args, *paths])
    ranked = expected.pop("ranked")
    for key in RUN_KEYS:
        del expected[key]
    mine = doc_of(p)
    assert list(mine) == list(expected)  # the JSON's fields, in its order
    for key in expected:
        if key == "groups":
            continue
        assert mine[key] == expected[key], key
    assert len(mine["groups"]) == len(expected["groups"])
    assert expected["groups"], "no groups to compare"
    for g, e in zip(mine["groups"], expected["groups"]):
        assert list(g) == list(e), e["index"]
        assert g == e, (e["index"], e["name"])
    # the CLI keeps the first --explain + 20 of the ranking; the binding all
    assert p.ranked[: len(ranked)] == ranked
    assert len(ranked) == min(len(p.ranked), 23)
    if not args:
        assert p.ranked == c_ranking(paths)


@pytest.mark.parametrize("name", KINETO)
def test_kineto_traces_equal_cli_json(name):
    path = str(kineto(name))
    same_as_cli(occ.profile(path), [], [path])


def test_sqlite_export_equals_cli_json(train_sqlite):
    path = str(train_sqlite)
    p = occ.profile(train_sqlite)  # a pathlib.Path
    assert p.inputs[0].format == "nsys-sqlite"
    same_as_cli(p, [], [path])
    # the trace records the driver's shared-memory configuration: checked
    assert p.checks.smem_config.launches == p.launches_read > 0


GPUS = [("H200", ["--gpu", "H200"]), ("sm_90", ["--gpu", "sm_90"]),
        (lambda: occ.gpu("h200"), ["--gpu", "H200"])]


@pytest.mark.parametrize("gpu,args", GPUS)
def test_gpu_option_equals_cli(gpu, args, train_sqlite):
    gpu = gpu() if callable(gpu) else gpu
    for path in (str(kineto("kineto-attn")), str(train_sqlite)):
        same_as_cli(occ.profile(path, gpu=gpu), args, [path])


def test_several_inputs_equal_cli_json(train_sqlite):
    paths = [str(kineto("kineto-gemm")), str(train_sqlite), str(kineto("kineto-conv"))]
    p = occ.profile([Path(x) for x in paths])
    assert [i.format for i in p.inputs] == ["kineto", "nsys-sqlite", "kineto"]
    assert [g.input for g in p.gpu] == [0, 1, 2]
    same_as_cli(p, [], paths)
    assert occ.profile(tuple(paths)) == p


@pytest.mark.parametrize("gpu", ["A100", "H100 PCIe", "sm_80"])
def test_gpu_contradicting_the_trace_is_refused_as_by_the_cli(gpu, train_sqlite):
    for path in (str(kineto("kineto-gemm")), str(train_sqlite)):
        proc = run_cli(["profile", "--gpu", gpu, path], check=False)
        assert proc.returncode == 1
        with pytest.raises(occ.OccError) as e:
            occ.profile(path, gpu=gpu)
        assert proc.stderr == f"occ profile: {e.value}\n"
        assert e.value.code == 2 and e.value.status == "invalid device description"


def test_bad_gpu_is_refused_before_reading():
    with pytest.raises(occ.OccError) as e:
        occ.profile(kineto("kineto-gemm"), gpu="H300")
    assert e.value.status == "unknown GPU"
    with pytest.raises(TypeError):
        occ.profile(kineto("kineto-gemm"), gpu=90)


def unreadable_inputs(d: Path) -> dict[str, Path]:
    text = d / "notes.json"
    text.write_text('{"hello": "world"}\n')
    cut = d / "cut.json.gz"
    cut.write_bytes(kineto("kineto-gemm").read_bytes()[:3000])
    damaged = d / "damaged.json"
    with gzip.open(kineto("kineto-gemm"), "rb") as f:
        damaged.write_bytes(f.read().replace(b'"block": [', b'"block": [-', 1))
    return {"missing": d / "missing.json", "not a trace": text, "cut gzip": cut,
            "damaged": damaged}


def test_errors_carry_the_librarys_message(tmp_path):
    for why, path in unreadable_inputs(tmp_path).items():
        proc = run_cli(["profile", str(path)], check=False)
        assert proc.returncode == 1, why
        with pytest.raises(occ.OccError) as e:
            occ.profile(path)
        assert proc.stderr == f"occ profile: {e.value}\n", why
        assert str(e.value).startswith(str(path)), why
        assert e.value.field == "profile"
    # the first bad input stops the reading, named as the CLI names it
    good, bad = str(kineto("kineto-gemm")), str(tmp_path / "missing.json")
    proc = run_cli(["profile", good, bad], check=False)
    with pytest.raises(occ.OccError) as e:
        occ.profile([good, bad])
    assert proc.stderr == f"occ profile: {e.value}\n"
    assert e.value.code == 7 and e.value.status == "input/output error"


def test_paths_are_checked_as_open_checks_them():
    # a NUL byte: refused as open() refuses it (a ValueError), not cut short
    with pytest.raises(ValueError) as opened:
        open("trace\0.json")
    with pytest.raises(occ.OccError) as e:
        occ.profile(str(kineto("kineto-gemm")) + "\0.txt")
    assert isinstance(e.value, ValueError)
    assert str(opened.value) in str(e.value)
    for bad in (3, None, b"trace.json", [str(kineto("kineto-gemm")), 3]):
        with pytest.raises(TypeError):
            occ.profile(bad)
    with pytest.raises(occ.OccError):
        occ.profile([])


class FakeProfiler:
    """What occ.from_torch_profiler uses of torch.profiler.profile:
    export_chrome_trace(path) writes the Chrome trace JSON there."""

    def __init__(self, trace: Path | None, fail: bool = False):
        self.trace = trace
        self.fail = fail
        self.exported: list[str] = []

    def export_chrome_trace(self, path: str) -> None:
        self.exported.append(path)
        if self.fail:
            raise RuntimeError("the profiler recorded nothing")
        with gzip.open(self.trace, "rb") as f, open(path, "wb") as out:
            shutil.copyfileobj(f, out)


def labelled(p: occ.Profile) -> occ.Profile:
    p.inputs[0].path = "<torch.profiler.profile>"
    return p


def test_from_torch_profiler_reads_the_exported_trace():
    trace = kineto("kineto-train")
    fake = FakeProfiler(trace)
    p = occ.from_torch_profiler(fake)
    assert len(fake.exported) == 1 and fake.exported[0].endswith(".json")
    assert not os.path.exists(fake.exported[0])  # the temporary file is gone
    assert p.inputs[0].path == "<torch.profiler.profile>"
    assert p == labelled(occ.profile(trace)) and p.launches_read > 0
    on_h200 = occ.from_torch_profiler(FakeProfiler(trace), gpu="H200")
    assert on_h200 == labelled(occ.profile(trace, gpu="H200"))
    with pytest.raises(occ.OccError):
        occ.from_torch_profiler(FakeProfiler(trace), gpu="A100")


def test_from_torch_profiler_cleans_up_and_refuses_other_objects():
    fake = FakeProfiler(None, fail=True)
    with pytest.raises(RuntimeError):
        occ.from_torch_profiler(fake)
    assert not os.path.exists(fake.exported[0])
    with pytest.raises(TypeError):
        occ.from_torch_profiler(object())


def test_torch_is_not_imported(tmp_path):
    """`import occ` and from_torch_profiler never import torch: a torch that
    fails on import changes nothing."""
    (tmp_path / "torch").mkdir()
    (tmp_path / "torch" / "__init__.py").write_text("raise ImportError('torch imported')\n")
    code = ("import sys, shutil, gzip, occ\n"
            "class P:\n"
            "    def export_chrome_trace(self, path):\n"
            f"        shutil.copyfileobj(gzip.open({str(kineto('kineto-gemm'))!r}),"
            " open(path, 'wb'))\n"
            "p = occ.from_torch_profiler(P())\n"
            "assert p.launches_read > 0 and 'torch' not in sys.modules\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(tmp_path), *filter(None, [os.environ.get("PYTHONPATH")])]))
    proc = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                          text=True)
    assert proc.returncode == 0, proc.stderr


@pytest.mark.parametrize("name", ["kineto-train", "kineto-attn"])
def test_arrays_are_the_groups_columns(name):
    p = occ.profile(kineto(name))
    a = p.arrays
    assert a is p.arrays  # computed once
    groups = p.groups
    assert any(g.computed for g in groups)

    def col(get, missing):
        return [missing if get(g) is None else get(g) for g in groups]

    for field in ("gpu", "launches", "gpu_time_us", "max_time_us", "computed",
                  "registers_per_thread", "smem_bytes"):
        assert getattr(a, field).tolist() == [getattr(g, field) for g in groups], field
    for field in ("blocks_per_sm", "warps_per_sm", "smem_config_bytes"):
        assert getattr(a, field).tolist() == col(lambda g: getattr(g, field), -1), field
    for field in ("theoretical_occupancy", "waves", "tail_idle_fraction", "grid_occupancy",
                  "kineto_est_occupancy"):
        values = getattr(a, field)
        assert values.dtype == np.float64
        assert np.isnan(values).tolist() == [getattr(g, field) is None for g in groups]
        assert values[~np.isnan(values)].tolist() == [
            getattr(g, field) for g in groups if getattr(g, field) is not None], field
    assert a.threads_per_block.tolist() == [int(np.prod(g.block)) for g in groups]
    assert a.grid_blocks.tolist() == [int(np.prod(g.grid)) for g in groups]
    # the program's figures follow from the columns
    assert a.launches.sum() == p.launches_read
    done = a.computed
    assert a.launches[done].sum() == p.launches_computed
    weighted = (a.theoretical_occupancy[done] * a.gpu_time_us[done]).sum() / \
        a.gpu_time_us[done].sum()
    assert weighted == pytest.approx(p.weighted_occupancy, rel=1e-12)


def test_empty_trace_has_no_groups(tmp_path):
    path = tmp_path / "empty.json"
    path.write_text(json.dumps({"schemaVersion": 1, "traceEvents": []}))
    p = occ.profile(path)
    assert p.launches_read == 0 and p.groups == [] and p.ranked == []
    assert p.weighted_occupancy is None
    assert p.arrays.launches.shape == (0,)
    same_as_cli_empty = cli_json(["profile", str(path)])
    assert same_as_cli_empty["weighted_occupancy"] is None
    assert same_as_cli_empty["groups"] == [] and same_as_cli_empty["launches_read"] == 0
