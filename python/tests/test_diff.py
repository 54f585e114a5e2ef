"""occ.diff returns the document ``occ diff --json`` writes, for the two
ptxas logs of tests/data/diff/ (two builds of tests/diff/variants.cu): with
and without a gate, with an allow file and a launch table; and it refuses
what the CLI refuses, with the same line."""

from __future__ import annotations

import json

import pytest

import occ
from conftest import ROOT, run_cli

OLD = ROOT / "tests" / "data" / "diff" / "old.log"
NEW = ROOT / "tests" / "data" / "diff" / "new.log"


def cli_diff(args: list[str]) -> tuple[dict, int]:
    proc = run_cli(["diff", "--json", *args, str(OLD), str(NEW)], check=False)
    assert proc.returncode in (0, 1), proc.stderr
    return json.loads(proc.stdout), proc.returncode


CASES = [
    ({}, []),
    ({"gpu": "H200", "threads": 256}, ["--gpu", "H200", "--threads", "256"]),
    ({"gpu": "H200", "threads": 256, "fail_on": "occupancy-10%,regs+8,spills"},
     ["--gpu", "H200", "--threads", "256", "--fail-on", "occupancy-10%,regs+8,spills"]),
    ({"gpu": "A100", "dyn_smem": 4096, "fail_on": "added,removed,moved"},
     ["--gpu", "A100", "--dyn-smem", "4096", "--fail-on", "added,removed,moved"]),
    ({"filter": "grow|spill", "fail_on": "changed"},
     ["--filter", "grow|spill", "--fail-on", "changed"]),
]


@pytest.mark.parametrize("kwargs,args", CASES)
def test_same_document_as_the_cli(kwargs, args):
    doc = occ.diff(str(OLD), str(NEW), **kwargs)
    want, code = cli_diff(args)
    assert doc["schema"] == "occ.diff"
    # the sides are named as given: the CLI by its arguments, Python by its inputs
    assert doc == want
    if "fail_on" in kwargs:
        assert doc["gate"]["passed"] == (code == 0)


def test_gate_fails_as_a_result_not_an_exception():
    doc = occ.diff(OLD, NEW, gpu="H200", threads=256, fail_on="occupancy-10%")
    assert doc["gate"]["passed"] is False
    assert doc["gate"]["failed"] >= 1
    grow = [e for e in doc["changed"] if e["name"].startswith("regs_grow")]
    assert grow and grow[0]["fails"] == ["occupancy-10%"]
    assert grow[0]["blocks_per_sm"] == {"old": 8, "new": 5}


def test_allow_file(tmp_path):
    allow = tmp_path / "allow.txt"
    allow.write_text("occupancy: regs_grow* # the bigger tile pays for it\n")
    kwargs = {"gpu": "H200", "threads": 256, "fail_on": "occupancy-10%"}
    doc = occ.diff(OLD, NEW, allow=allow, **kwargs)
    want, code = cli_diff(["--gpu", "H200", "--threads", "256", "--fail-on", "occupancy-10%",
                           "--allow", str(allow)])
    assert doc == want
    assert doc["gate"]["allowed"] == 1 and doc["gate"]["passed"] is True and code == 0


def test_launch_table(tmp_path):
    table = tmp_path / "launches.csv"
    table.write_text("kernel,block,dyn_smem\nregs_grow*,512,0\nspiller*,128,1024\n")
    doc = occ.diff(OLD, NEW, gpu="H200", launches=table)
    want, _ = cli_diff(["--gpu", "H200", "--launches", str(table)])
    assert doc == want
    assert doc["launch_match"]["source"] == "table"
    assert doc["launch_match"]["matched"] == 2


@pytest.mark.parametrize("kwargs,args,words", [
    ({"fail_on": "ocupancy-10%"}, ["--fail-on", "ocupancy-10%"], "did you mean 'occupancy'?"),
    ({"fail_on": "regs-8"}, ["--fail-on", "regs-8"], "write regs+8"),
    ({"fail_on": ""}, ["--fail-on", ""], "an empty list"),
])
def test_refusals_say_what_the_cli_says(kwargs, args, words):
    with pytest.raises(occ.OccError) as e:
        occ.diff(OLD, NEW, **kwargs)
    assert words in str(e.value)
    proc = run_cli(["diff", *args, str(OLD), str(NEW)], check=False)
    assert proc.returncode == 2
    assert words in proc.stderr


def test_bad_allow_file_and_missing_side(tmp_path):
    allow = tmp_path / "allow.txt"
    allow.write_text(": regs_grow* # an empty item list\n")
    with pytest.raises(occ.OccError) as e:
        occ.diff(OLD, NEW, fail_on="regs", allow=allow)
    assert "line 1: no item before ':'" in str(e.value)
    with pytest.raises(occ.OccError) as e:
        occ.diff(tmp_path / "nope.log", NEW)
    assert "nope.log" in str(e.value)
    with pytest.raises(occ.OccError):
        occ.diff(OLD, NEW, fail_on="regs\0x")
    with pytest.raises(TypeError):
        occ.diff(OLD, NEW, fail_on=8)
