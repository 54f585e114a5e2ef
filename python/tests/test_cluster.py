"""occ.cluster equals the ``cluster`` object of ``occ calc --cluster ...
--json``, and refuses what the CLI refuses."""

from __future__ import annotations

import dataclasses
import json

import pytest

import occ
from conftest import run_cli

CASES = [
    ("H200", 128, 2, {}, dict(regs=32)),
    ("H200", 256, (4, 2), {}, dict(regs=64, smem=16384)),
    ("H100", 1024, 16, dict(non_portable=True), dict(regs=32)),
    ("H200", 96, 3, dict(policy="load-balancing"), dict(regs=40)),
    ("B200", 512, (2, 2, 2), dict(policy="spread"), dict(dyn_smem=100_000)),
]


def cli_args(gpu, threads, shape, c, k) -> list[str]:
    shape = shape if isinstance(shape, int) else "x".join(map(str, shape))
    args = ["calc", "--gpu", gpu, "--threads", str(threads), "--cluster", str(shape)]
    if c.get("non_portable"):
        args.append("--cluster-non-portable")
    if "policy" in c:
        args += ["--cluster-policy", c["policy"]]
    for key, value in k.items():
        args += ["--" + key.replace("_", "-"), str(value)]
    return args


@pytest.mark.parametrize("gpu,threads,shape,c,k", CASES)
def test_cluster_equals_cli(gpu, threads, shape, c, k):
    expected = json.loads(run_cli([*cli_args(gpu, threads, shape, c, k), "--json"]).stdout)
    mine = dataclasses.asdict(occ.cluster(gpu, threads, shape, **c, **k))
    mine["dims"] = list(mine["dims"])
    assert mine == expected["result"]["cluster"]


@pytest.mark.parametrize("gpu,shape,c", [("H200", 16, {}), ("A100", 2, {}),
                                         ("sm_90", 2, {}), ("H200", 2, dict(policy="pack"))])
def test_refused_alike(gpu, shape, c):
    with pytest.raises(occ.OccError):
        occ.cluster(gpu, 128, shape, **c)
    if "policy" not in c:
        proc = run_cli(cli_args(gpu, 128, shape, c, {}) + ["--json"], check=False)
        refused = proc.returncode != 0 or json.loads(proc.stdout)["result"]["cluster"] is None
        assert refused
