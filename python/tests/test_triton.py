"""occ.from_triton on objects shaped as Triton's CompiledKernel (its
metadata a namedtuple in Triton 3, a dict in 2.x), held to the CLI given
the same numbers. A real Triton kernel: gpu_triton_check.py, on a GPU."""

from __future__ import annotations

import dataclasses
import json
from collections import namedtuple

import pytest

import occ
from conftest import cli_csv, inspect_fixtures, run_cli

GPUTarget = namedtuple("GPUTarget", "backend arch warp_size")
Metadata = namedtuple("Metadata", "name num_warps num_ctas shared cluster_dims target warp_size")


class FakeCompiledKernel:
    """The attributes occ.from_triton reads: metadata, n_regs and n_spills
    (set by Triton once the kernel is loaded on a GPU), asm["cubin"]."""

    def __init__(self, metadata, n_regs=None, n_spills=None, cubin=None):
        self.metadata = metadata
        if n_regs is not None:
            self.n_regs = n_regs
            self.n_spills = n_spills
        self.asm = {"ptx": "// ...", "cubin": cubin} if cubin is not None else {"ptx": ""}


def cli_result(gpu: str, threads: int, regs: int, smem: int, dyn: int, optin: str) -> dict:
    args = ["calc", "--gpu", gpu, "--threads", str(threads), "--regs", str(regs), "--smem",
            str(smem), "--dyn-smem", str(dyn), "--optin", optin, "--json"]
    return json.loads(run_cli(args).stdout)["result"]


def check(t: occ.TritonOccupancy, expected: dict) -> None:
    assert t.blocks_per_sm == expected["blocks_per_sm"]
    assert t.warps_per_sm == expected["warps_per_sm"]
    assert t.occupancy == expected["occupancy"]
    assert list(t.limiters) == expected["limiters"]
    # the whole launch, the opt-in's per-block limit included
    mine = dataclasses.asdict(t.result)["allocation"]
    assert mine == {key: expected["allocation"][key] for key in mine}


@pytest.mark.parametrize("num_warps,n_regs,shared", [(4, 32, 0), (8, 64, 16384),
                                                     (4, 128, 98304), (16, 40, 49152)])
def test_loaded_kernel_numbers(num_warps, n_regs, shared):
    md = Metadata("matmul_kernel", num_warps, 1, shared, (1, 1, 1), GPUTarget("cuda", 90, 32), 32)
    t = occ.from_triton(FakeCompiledKernel(md, n_regs=n_regs, n_spills=0), gpu="H200")
    # Triton opts in to more dynamic shared memory only above 48 KB
    optin = "max" if shared > 48 * 1024 else "none"
    check(t, cli_result("H200", num_warps * 32, n_regs, 0, shared, optin))
    assert (t.regs, t.regs_from, t.threads, t.shared_bytes) == (n_regs, "n_regs",
                                                                 num_warps * 32, shared)
    assert t.gpu == "H200" and t.cluster_dims == (1, 1, 1)


def test_opting_in_above_48k_is_what_makes_it_fit():
    md = Metadata("k", 4, 1, 100_000, None, GPUTarget("cuda", 90, 32), 32)
    t = occ.from_triton(FakeCompiledKernel(md, n_regs=32), gpu="H200")
    assert t.blocks_per_sm > 0
    assert occ.calc("H200", 128, regs=32, dyn_smem=100_000, optin="none").blocks_per_sm == 0


def test_default_gpu_is_the_target_arch():
    md = Metadata("k", 8, 1, 0, (2, 1, 1), GPUTarget("cuda", 90, 32), 32)
    t = occ.from_triton(FakeCompiledKernel(md, n_regs=72))
    assert t.gpu == "sm_90"
    check(t, cli_result("sm_90", 256, 72, 0, 0, "none"))
    assert t.cluster_dims == (2, 1, 1)


def test_triton_2_dict_metadata():
    md = {"name": "k", "num_warps": 4, "shared": 8192, "capability": 80}
    t = occ.from_triton(FakeCompiledKernel(md, n_regs=96, n_spills=3))
    assert (t.gpu, t.spills) == ("sm_80", 3)
    check(t, cli_result("sm_80", 128, 96, 0, 8192, "none"))


def test_registers_from_the_cubin_before_a_gpu_loads_it():
    fixtures = inspect_fixtures()
    if fixtures is None:
        pytest.skip("no nvcc: the build has no tests/inspect fixtures (sm90a.cubin)")
    cubin = (fixtures / "sm90a.cubin").read_bytes()
    row = [r for r in cli_csv(["inspect", "--csv", "--mangled", str(fixtures / "sm90a.cubin")])
           if r["mangled"] == "_Z7boundedPf"][0]
    md = Metadata("_Z7boundedPf", 4, 1, 2048, None, GPUTarget("cuda", 90, 32), 32)
    t = occ.from_triton(FakeCompiledKernel(md, cubin=cubin))
    assert t.regs_from == "cubin"
    assert (t.regs, t.static_smem_bytes) == (int(row["regs"]), int(row["smem"]))
    assert t.static_smem_bytes > 0  # this kernel has __shared__ data: it counts
    check(t, cli_result("sm_90", 128, t.regs, t.static_smem_bytes, 2048, "none"))


def test_what_cannot_be_read_is_said():
    with pytest.raises(occ.OccError, match="no Triton metadata"):
        occ.from_triton(object())
    md = Metadata("k", 4, 1, 0, None, GPUTarget("cuda", 90, 32), 32)
    with pytest.raises(occ.OccError, match="neither n_regs"):
        occ.from_triton(FakeCompiledKernel(md))
    with pytest.raises(occ.OccError, match="hip"):
        occ.from_triton(FakeCompiledKernel(md._replace(target=GPUTarget("hip", "gfx942", 64)),
                                           n_regs=32))
    with pytest.raises(occ.OccError, match="num_warps"):
        occ.from_triton(FakeCompiledKernel(md._replace(num_warps=0), n_regs=32))
    with pytest.raises(occ.OccError, match="no target arch"):
        occ.from_triton(FakeCompiledKernel({"num_warps": 4, "shared": 0}, n_regs=32))


def test_clusters_get_the_cluster_launchs_answer():
    md = Metadata("k", 4, 2, 0, (2, 1, 1), GPUTarget("cuda", 90, 32), 32)
    t = occ.from_triton(FakeCompiledKernel(md, n_regs=32), gpu="H200")
    expected = json.loads(run_cli(["calc", "--gpu", "H200", "--threads", "128", "--regs", "32",
                                   "--dyn-smem", "0", "--optin", "none", "--cluster", "2",
                                   "--json"]).stdout)["result"]
    assert dataclasses.asdict(t.cluster) == {**expected["cluster"],
                                             "dims": tuple(expected["cluster"]["dims"])}
    check(t, expected)  # the per-SM numbers stay the occupancy API's
    # a generic entry has no SM count: no cluster answer, and the reason
    t = occ.from_triton(FakeCompiledKernel(md, n_regs=32))
    assert t.cluster is None and "sm_count" in t.note
