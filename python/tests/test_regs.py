"""occ.regs against ``occ regs --json``: the same document, from the same
engine, on the PTX reproducers of tests/data/regs (docs/regs.md), and the
same refusals. Both compile with the toolkit's own ptxas, so without one
the tests skip (CONTRIBUTING.md: a missing toolkit is a reason to skip)."""

from __future__ import annotations

import json
import os
import shutil

import pytest

import occ
from conftest import ROOT, run_cli

DATA = ROOT / "tests" / "data" / "regs"


def toolkit_tool(name: str) -> str | None:
    """Where the engine finds ptxas or nvcc: $CUDA_HOME/bin, PATH, then
    /usr/local/cuda/bin (docs/regs.md)."""
    home = os.environ.get("CUDA_HOME")
    for path in ((os.path.join(home, "bin", name) if home else None), shutil.which(name),
                 f"/usr/local/cuda/bin/{name}"):
        if path and os.access(path, os.X_OK):
            return path
    return None


if toolkit_tool("ptxas") is None:
    pytest.skip("no ptxas ($CUDA_HOME/bin, PATH, /usr/local/cuda/bin): occ regs compiles with "
                "the CUDA toolkit's", allow_module_level=True)


def data(name: str) -> str:
    path = DATA / name
    assert path.is_file(), f"{path} is missing"
    return str(path)


@pytest.fixture(scope="module")
def cache(tmp_path_factory):
    """One compile cache for the module, the CLI's and the package's: each
    module is compiled once, by the CLI, and read from the cache after."""
    return tmp_path_factory.mktemp("regs-cache")


def cli_regs(args: list[str], cache_dir=None) -> dict:
    where = ["--cache-dir", str(cache_dir)] if cache_dir is not None else ["--no-cache"]
    return json.loads(run_cli(["regs", *where, "--json", *args]).stdout)


def same_from_the_cache(mine: dict, cli: dict) -> None:
    """The package's run, all from the cache the CLI's run filled, has the
    CLI's document but for the counts of ptxas runs and cache hits."""
    assert mine["cache_hits"] == mine["compiles"] and mine["ptxas_runs"] == 0
    counts = ("ptxas_runs", "cache_hits")
    assert {k: v for k, v in mine.items() if k not in counts} == {
        k: v for k, v in cli.items() if k not in counts}


# (CLI arguments, occ.regs arguments): every option the two share
CASES = [
    (["hungry.ptx"], {}),
    (["--gpu", "H200", "hungry.ptx"], dict(gpu="H200")),
    (["--gpu", "H200", "--threads", "128", "--min-blocks", "none", "hungry.ptx"],
     dict(gpu="H200", threads=128, min_blocks="none")),
    (["--gpu", "H200", "--threads", "16x16", "--caps", "64,40,32", "--min-blocks", "2,4",
      "--dyn-smem", "48K", "hungry.ptx"],
     dict(gpu="H200", threads=(16, 16), caps=[64, 40, 32], min_blocks=[2, 4],
          dyn_smem=48 * 1024)),
    (["--gpu", "a100-80gb", "--arch", "sm_90a", "--jobs", "2", "hungry_lb4.ptx"],
     dict(gpu="a100-80gb", arch="sm_90a", jobs=2)),
    (["--gpu", "H200", "--bytes-loaded", "64", "--ilp", "2", "--bytes-per-load", "8",
      "hungry.ptx"], dict(gpu="H200", bytes_loaded=64, ilp=2, bytes_per_load=8)),
    (["--gpu", "H100 SXM", "both.ptx"], dict(gpu="H100 SXM")),
    (["--gpu", "H100 SXM", "--kernel", "light*", "--min-blocks", "none", "both.ptx"],
     dict(gpu="H100 SXM", kernel="light*", min_blocks="none")),
    (["light.ptx"], {}),
    (["--gpu", "H200", "--arch", "sm_90", "hungry.fatbin"], dict(gpu="H200", arch="sm_90")),
]


@pytest.mark.parametrize("cli_args,kwargs", CASES, ids=[" ".join(c[0]) for c in CASES])
def test_the_document_is_the_clis(cli_args, kwargs, cache):
    *options, name = cli_args
    expected = cli_regs([*options, data(name)], cache)
    mine = occ.regs(data(name), cache_dir=cache, **kwargs)
    same_from_the_cache(mine, expected)
    assert mine["schema"] == "occ.regs" and mine["kernels"]


def test_without_the_cache_every_field_is_the_clis():
    expected = cli_regs(["--gpu", "H200", "--min-blocks", "1,3", data("light.ptx")])
    mine = occ.regs(data("light.ptx"), gpu="H200", min_blocks=(1, 3), cache=False)
    assert mine == expected
    assert mine["cache_dir"] is None and mine["ptxas_runs"] == mine["compiles"]


def test_bytes_and_a_name(cache):
    raw = (DATA / "hungry.ptx").read_bytes()
    expected = cli_regs(["--gpu", "H200", data("hungry.ptx")], cache)
    named = occ.regs(("kernels/hungry.ptx", raw), gpu="H200", cache_dir=cache)
    assert named["input"] == "kernels/hungry.ptx"
    same_from_the_cache({**named, "input": expected["input"]}, expected)
    assert occ.regs(bytearray(raw), gpu="H200", cache_dir=cache)["input"] == "<bytes>"


def test_a_cu_with_nvccs_arguments():
    if toolkit_tool("nvcc") is None:
        pytest.skip("no nvcc: a .cu is compiled to PTX with the toolkit's nvcc")
    expected = cli_regs(["--gpu", "H200", "--min-blocks", "none", data("hungry.cu"), "--",
                         "-DOCC_MIN_BLOCKS=4"])
    mine = occ.regs(data("hungry.cu"), gpu="H200", min_blocks="none", cache=False,
                    nvcc_args=["-DOCC_MIN_BLOCKS=4"])
    assert mine == expected and mine["input_kind"] == "cu"


def test_the_cache_and_progress(tmp_path):
    calls = []
    first = occ.regs(data("light.ptx"), gpu="H200", cache_dir=tmp_path,
                     progress=lambda done, total, cached: calls.append((done, total, cached)))
    assert first["ptxas_runs"] == first["compiles"] and first["cache_hits"] == 0
    # progress: after each compile, in order, none from the cache
    assert [c[0] for c in calls] == list(range(1, len(calls) + 1))
    assert calls[-1][1] == first["compiles"] == len(calls)
    assert not any(c[2] for c in calls)
    calls.clear()
    again = occ.regs(data("light.ptx"), gpu="H200", cache_dir=tmp_path,
                     progress=lambda done, total, cached: calls.append((done, total, cached)))
    assert again["cache_hits"] == again["compiles"] and again["ptxas_runs"] == 0
    assert again["cache_dir"] == str(tmp_path) and again["kernels"] == first["kernels"]
    assert len(calls) == again["compiles"] and all(c[2] for c in calls)


# refusals the engine makes: the message is the line the CLI prints after "occ regs: ",
# and an invalid argument is the CLI's usage error (exit 2)
REFUSALS = [
    (["--caps", "8"], dict(caps=[8]), "hungry.ptx"),
    (["--kernel", "nope*"], dict(kernel="nope*"), "hungry.ptx"),
    (["--ptxas", "/nonexistent/ptxas"], dict(ptxas="/nonexistent/ptxas"), "hungry.ptx"),
    (["--arch", "sm_80"], dict(arch="sm_80"), "hungry.ptx"),
    ([], {}, "README.md"),
    ([], {}, "missing.ptx"),
]


@pytest.mark.parametrize("cli_args,kwargs,name", REFUSALS,
                         ids=[" ".join(r[0] + [r[2]]) for r in REFUSALS])
def test_refusals_are_the_clis(cli_args, kwargs, name, cache):
    path = str(DATA / name)
    proc = run_cli(["regs", "--cache-dir", str(cache), *cli_args, path], check=False)
    assert proc.returncode in (1, 2), proc.stderr
    line = proc.stderr.splitlines()[0]
    assert line.startswith("occ regs: ")
    with pytest.raises(occ.OccError) as e:
        occ.regs(path, cache_dir=cache, **kwargs)
    assert str(e.value) == line[len("occ regs: "):]
    assert (e.value.status == "invalid argument") == (proc.returncode == 2)
    assert e.value.field == "regs"


def test_arguments_refused_before_the_engine(cache):
    path = data("hungry.ptx")
    with pytest.raises(occ.OccError, match="not an arch such as sm_90"):
        occ.regs(path, arch="sm_9")
    with pytest.raises(occ.OccError, match="nvcc_args are nvcc's, for a .cu source"):
        occ.regs(path, nvcc_args=["-O3"])
    with pytest.raises(occ.OccError, match="each dimension must be at least 1"):
        occ.regs(path, threads=(16, 0))
    with pytest.raises(occ.OccError, match="give at least one cap"):
        occ.regs(path, caps=[])
    with pytest.raises(occ.OccError, match="bytes_loaded 0 is not above 0"):
        occ.regs(path, bytes_loaded=0)
    with pytest.raises(occ.OccError, match="embedded null byte"):
        occ.regs(path, kernel="a\0b")
    with pytest.raises(TypeError):
        occ.regs(path, caps="64,48")
    with pytest.raises(TypeError):
        occ.regs(path, nvcc_args="-O3")
    # the engine's own range checks
    with pytest.raises(occ.OccError, match="cap 300 is outside 1..255"):
        occ.regs(path, caps=[300], cache_dir=cache)
    with pytest.raises(occ.OccError, match="threads: 2048 is outside 0..1024"):
        occ.regs(path, threads=2048, cache_dir=cache)
    with pytest.raises(occ.OccError, match="jobs: 65 is outside 0..64"):
        occ.regs(path, jobs=65, cache_dir=cache)
