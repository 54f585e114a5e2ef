"""occ.gpu_from_file reads a GPU description (docs/gpu-file.md) as
``occ calc --gpu-file`` does, through the same reader (libocc-inspect's
occ_inspect_gpu_file): on the same files the CLI and the package describe
the same GPU, compute the same occupancy, and refuse with the same line."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

import occ
from conftest import ROOT, cli_json, run_cli

GOOD = {
    "base.json": {"name": "Mine", "base": "sm_90", "sm_count": 100},
    "half.json": {"name": "Half", "base": "H200", "regs_per_sm": 32768, "regs_per_block": 32768},
    "cc.json": {"name": "Amp", "cc_major": 8, "cc_minor": 0},
    "new-arch.json": {"name": "Next", "cc_major": 99, "max_threads_per_sm": 1536,
                      "max_blocks_per_sm": 24, "regs_per_sm": 65536,
                      "smem_per_sm_bytes": 102400, "smem_per_block_optin_bytes": 101376},
    "layout.json": {"name": "My H100", "base": "H100 SXM", "sm_count": 132,
                    "gpc_sms": [18, 18, 16, 16, 16, 16, 16, 8, 2, 2, 2, 2],
                    "mem_latency_ns": 500},
}

# The cases of tests/test_cli.c's gpu-file table, and a few more.
BAD = [
    '{"name": "Mine",\n "base": "sm_90",\n "sm_count" 100}',
    '{"name":"Mine","base":"sm_90","bogus":1}',
    '{"name":"Mine","base":"sm_90","sm_count":"many"}',
    '{"name":"Mine","base":"sm_90","regs_per_block":70000}',
    "[1, 2, 3]",
    '{"base":"sm_90"}',
    '{"name":"Mine","base":"Hopper9"}',
    '{"name":"Mine","base":90}',
    "",
    '{"name":"Mine","base":"sm_90","sm_count":1,"sm_count":2}',
    '{"name":"Mine","cc_major":99}',
    '{"name":"Mine","base":"sm_90","partitioned_gc":1}',
    '{"name":"Mine","base":"sm_90","carveout_steps_bytes":[0,8192]}',
    '{"name":"Mine","base":"sm_90","sm_count":1e3}',
    '{"name":"Mine","base":"sm_90","sm_count":99999999999}',
    '{"name":"","base":"sm_90"}',
    '{"name":"Mine","base":"sm_90","gpc_sms":[1,2],"sm_count":4}',
    '{"name":"Mine","base":"sm_90","gpc_sms":"x"}',
]

LAUNCHES = [(256, 64, 16384), (128, 32, 0), (1024, 255, 0), (96, 48, 8192)]


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def cli_error(path: Path) -> str:
    """The CLI's one line for a file it refuses, without "occ calc: "."""
    proc = run_cli(["calc", "--gpu-file", str(path), "--threads", "256"], check=False)
    assert proc.returncode == 1 and proc.stdout == "", proc
    assert proc.stderr.startswith("occ calc: ") and proc.stderr.count("\n") == 1, proc.stderr
    return proc.stderr[len("occ calc: "):-1]


@pytest.mark.parametrize("name", sorted(GOOD))
def test_the_gpu_and_its_occupancy_equal_the_cli(tmp_path, name):
    path = write(tmp_path, name, json.dumps(GOOD[name]))
    g = occ.gpu_from_file(path)
    assert g.name == GOOD[name]["name"] and g.aliases == ()
    assert occ.gpu_from_file(str(path)) == g
    for threads, regs, smem in LAUNCHES:
        doc = cli_json(["calc", "--gpu-file", str(path), "--threads", str(threads), "--regs",
                        str(regs), "--smem", str(smem), "--json"])
        compared = 0
        for key, value in doc["gpu"].items():
            if hasattr(g, key):
                want = tuple(value) if isinstance(value, list) else value
                assert getattr(g, key) == want, (name, key)
                compared += 1
        assert compared >= 20
        r = occ.calc(g, threads, regs=regs, smem=smem)
        assert r.blocks_per_sm == doc["result"]["blocks_per_sm"], (name, threads, regs, smem)
        assert r.warps_per_sm == doc["result"]["warps_per_sm"], (name, threads, regs, smem)


def test_a_copy_of_an_entry_computes_as_the_entry(tmp_path):
    g = occ.gpu_from_file(write(tmp_path, "h200.json", '{"name": "Copy", "base": "H200"}'))
    h200 = occ.gpu("H200")
    assert g.sm_count == h200.sm_count and g.regs_per_sm == h200.regs_per_sm
    assert occ.calc(g, 256, regs=64, smem=16384).occupancy == \
        occ.calc(h200, 256, regs=64, smem=16384).occupancy


def test_the_layout_occ_lab_gpcs_writes_reads(tmp_path):
    """occ lab gpcs --out writes DIR/gpu-layout.json, a --gpu-file of the
    measured GPU: the package reads it as the CLI does."""
    records = ROOT / "tests" / "data" / "h200-lab" / "lab-clusters.jsonl"
    run_cli(["lab", "gpcs", "--records", str(records), "--out", str(tmp_path)])
    path = tmp_path / "gpu-layout.json"
    g = occ.gpu_from_file(path)
    doc = cli_json(["calc", "--gpu-file", str(path), "--threads", "1024", "--regs", "64",
                    "--cluster", "7", "--json"])
    assert g.name == doc["gpu"]["name"] and g.sm_count == doc["gpu"]["sm_count"]
    c = occ.cluster(g, 1024, 7, regs=64)
    assert c.max_active_clusters == doc["result"]["cluster"]["max_active_clusters"] == 15


@pytest.mark.parametrize("index", range(len(BAD)))
def test_a_bad_file_is_refused_with_the_cli_line(tmp_path, index):
    path = write(tmp_path, "bad.json", BAD[index])
    with pytest.raises(occ.OccError) as e:
        occ.gpu_from_file(path)
    assert str(e.value) == cli_error(path)
    assert e.value.field == "gpu_file"
    assert e.value.status in ("bad format", "invalid device description"), e.value.status


def test_a_file_that_cannot_be_read_is_refused_with_the_cli_line(tmp_path):
    big = write(tmp_path, "big.json", " " * ((1 << 20) + 1))
    for path in (tmp_path / "does-not-exist.json", tmp_path, big):
        with pytest.raises(occ.OccError) as e:
            occ.gpu_from_file(path)
        assert str(e.value) == cli_error(path)


def test_a_path_with_nul_or_of_another_type_is_refused(tmp_path):
    with pytest.raises(occ.OccError, match="embedded null byte"):
        occ.gpu_from_file(str(tmp_path / "x.json") + "\0.ignored")
    with pytest.raises(TypeError):
        occ.gpu_from_file(3)


def test_its_fields_cannot_be_changed(tmp_path):
    g = occ.gpu_from_file(write(tmp_path, "g.json", '{"name": "G", "base": "sm_80"}'))
    with pytest.raises(TypeError, match="gpu_from_file"):
        dataclasses.replace(g, sm_count=10)
