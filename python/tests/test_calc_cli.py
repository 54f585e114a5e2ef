"""occ.calc and occ.calc_batch equal the CLI on random launches over the
whole database: 10,000 through ``occ calc --batch`` (one process), and a
few hundred through ``occ calc --json`` for the options the batch CSV does
not take (opt-in, partitioned caching, the shared-memory configuration)."""

from __future__ import annotations

import dataclasses
import json
import random

import numpy as np
import pytest

import occ
from conftest import cli_csv, run_cli

SEED = 20261202  # fixed: the same launches on every run
BATCH_ROWS = 10_000
JSON_ROWS = 250


def random_threads(rng: random.Random, gpu: dict) -> tuple[int, ...]:
    """A 1-D block mostly; 2-D and 3-D ones whose product stays in range."""
    limit = gpu["max_threads_per_block"]
    shape = rng.random()
    if shape < 0.7:
        return (rng.randint(1, limit),)
    x = rng.choice([1, 2, 4, 8, 16, 32, 64])
    if shape < 0.85:
        return (x, rng.randint(1, limit // x))
    y = rng.choice([1, 2, 4, 8])
    return (x, y, rng.randint(1, max(1, min(64, limit // (x * y)))))


def random_launch(rng: random.Random, gpu: dict) -> dict:
    """A launch the GPU takes, as the CLI and occ.calc name its parts; about
    one in twenty carries a value past a limit (static shared memory above
    48 KB, a block above the maximum), which both must refuse alike."""
    smem_cap = gpu["smem_per_block_bytes"]
    smem = rng.choice([0, 0, rng.randint(0, smem_cap), rng.randint(0, 48) * 1024])
    smem = min(smem, smem_cap)
    launch = {
        "gpu": gpu["name"],
        "threads": random_threads(rng, gpu),
        "regs": rng.randint(0, gpu["max_regs_per_thread"]),
        "smem": smem,
        "dyn_smem": rng.choice([0, rng.randint(0, gpu["smem_per_block_optin_bytes"])]),
        "carveout": rng.choice([None, None, rng.randint(0, 100)]),
        "max_threads": rng.choice([None, None, rng.randint(1, 1024)]),
        "barriers": rng.choice([None, rng.randint(0, 16)]),
    }
    bad = rng.random()
    if bad < 0.025:
        launch["smem"] = smem_cap + rng.randint(1, 4096)
    elif bad < 0.05:
        launch["threads"] = (32, 32, 2)  # 2048 threads: above every GPU's 1024
    return launch


def kwargs(launch: dict) -> dict:
    k = {key: launch[key] for key in ("regs", "smem", "dyn_smem", "carveout", "max_threads")}
    if launch["barriers"] is not None:
        k["barriers"] = launch["barriers"]
    return k


def csv_value(v) -> str:
    return "" if v is None else str(v)


@pytest.fixture(scope="module")
def batch(cli_gpus):
    rng = random.Random(SEED)
    launches = [random_launch(rng, rng.choice(cli_gpus)) for _ in range(BATCH_ROWS)]
    lines = ["gpu,threads,regs,smem,dyn_smem,carveout,max_threads,barriers"]
    for x in launches:
        lines.append(",".join([
            f'"{x["gpu"]}"',
            "x".join(map(str, x["threads"])),
            *(csv_value(x[key]) for key in ("regs", "smem", "dyn_smem", "carveout",
                                             "max_threads", "barriers")),
        ]))
    rows = cli_csv(["calc", "--batch", "-"], "\n".join(lines) + "\n", check=False)
    assert len(rows) == BATCH_ROWS
    return launches, rows


def check_row(result: occ.CalcResult, row: dict) -> None:
    assert result.blocks_per_sm == int(row["blocks_per_sm"])
    assert result.warps_per_sm == int(row["warps_per_sm"])
    # the CLI prints %.6g
    assert float(f"{result.occupancy:.6g}") == float(row["occupancy"])
    for name in ("warps", "blocks", "registers", "shared_mem", "barriers"):
        assert csv_value(result.limits[name]) == row[f"limit_{name}"], name
    assert "+".join(result.limiters) == row["limiter"]
    assert result.allocation.exceeds_launch_bounds == (row["warning"] != "")


def test_calc_equals_cli_batch(batch):
    launches, rows = batch
    refused = 0
    for i, (x, row) in enumerate(zip(launches, rows)):
        try:
            result = occ.calc(x["gpu"], x["threads"], **kwargs(x))
        except occ.OccError as e:
            refused += 1
            assert row["error"] == str(e), f"row {i}: {x}"
            assert row["blocks_per_sm"] == ""
            continue
        assert row["error"] == "", f"row {i}: {x}: the CLI refused: {row['error']}"
        check_row(result, row)
    # the mix holds refused launches, and mostly valid ones
    assert 0.02 * BATCH_ROWS < refused < 0.1 * BATCH_ROWS


def test_calc_batch_equals_cli_batch(batch):
    launches, rows = batch
    column = lambda key, none: [none if x[key] is None else x[key] for x in launches]  # noqa
    threads = np.array([(x["threads"] + (1, 1))[:3] for x in launches])
    result = occ.calc_batch(
        [x["gpu"] for x in launches], threads, column("regs", 0), column("smem", 0),
        column("dyn_smem", 0), column("barriers", 1),
        column("carveout", occ.CARVEOUT_DEFAULT), column("max_threads", 0), errors="keep")
    assert len(result) == BATCH_ROWS
    for i, row in enumerate(rows):
        if row["error"]:
            assert result.status[i] != 0 and result.blocks_per_sm[i] == 0
            continue
        assert result.status[i] == 0
        assert result.blocks_per_sm[i] == int(row["blocks_per_sm"])
        assert result.warps_per_sm[i] == int(row["warps_per_sm"])
        assert float(f"{result.occupancy[i]:.6g}") == float(row["occupancy"])
        for name, limit in result.limits.items():
            shown = "" if limit[i] == occ.UNLIMITED else str(limit[i])
            assert shown == row[f"limit_{name}"], (i, name)
        assert "+".join(result.limiter_names(i)) == row["limiter"]
        assert bool(result.exceeds_launch_bounds[i]) == (row["warning"] != "")


def json_launch(rng: random.Random, gpu: dict) -> tuple[list[str], dict]:
    """A launch with the options only the single-launch CLI takes, as CLI
    arguments and as occ.calc keywords."""
    x = random_launch(rng, gpu)
    while x["smem"] > gpu["smem_per_block_bytes"] or np.prod(x["threads"]) > 1024:
        x = random_launch(rng, gpu)
    k = kwargs(x)
    args = ["calc", "--gpu", gpu["name"], "--threads", "x".join(map(str, x["threads"]))]
    for key, option in (("regs", "--regs"), ("smem", "--smem"), ("dyn_smem", "--dyn-smem"),
                        ("carveout", "--carveout"), ("max_threads", "--max-threads"),
                        ("barriers", "--barriers")):
        if k.get(key) is not None:
            args += [option, str(k[key])]
    optin = rng.choice(["max", "none", rng.randint(0, gpu["smem_per_block_optin_bytes"])])
    k["optin"] = optin
    args += ["--optin", str(optin)]
    if gpu["partitioned_gc"]:
        k["partitioned_gc"] = rng.choice(["off", "on", "strict"])
        args += ["--partitioned-gc", k["partitioned_gc"]]
    if gpu["carveout_steps_bytes"] and rng.random() < 0.3:
        k["smem_config"] = rng.randint(1, gpu["smem_per_sm_bytes"])
        args += ["--smem-config", str(k["smem_config"])]
    return args, k


def subset(mine: dict, theirs: dict) -> dict:
    """theirs, cut to the keys mine has (the JSON may gain fields)."""
    return {key: theirs[key] for key in mine if key in theirs}


def test_calc_equals_cli_json(cli_gpus):
    rng = random.Random(SEED + 1)
    refused = 0
    for _ in range(JSON_ROWS):
        gpu = rng.choice(cli_gpus)
        args, k = json_launch(rng, gpu)
        proc = run_cli([*args, "--json"], check=False)
        threads = tuple(int(t) for t in args[4].split("x"))
        try:
            result = occ.calc(gpu["name"], threads, **k)
        except occ.OccError as e:
            refused += 1
            assert proc.returncode == 2, args
            assert str(e) in proc.stderr, args
            continue
        assert proc.returncode == 0, (args, proc.stderr)
        expected = json.loads(proc.stdout)
        mine = dataclasses.asdict(result)
        threads_per_block = mine.pop("threads_per_block")
        assert threads_per_block == expected["kernel"]["threads_per_block"]
        mine["limiters"] = list(mine["limiters"])
        assert mine == subset(mine, expected["result"]), args
        assert set(mine) <= set(expected["result"])
        assert mine["allocation"] == subset(mine["allocation"], expected["result"]["allocation"])
    assert refused < JSON_ROWS // 4


def test_defaults_are_the_drivers(cli_gpus):
    """Without options occ.calc is the CLI without options: occ_kernel_init's
    defaults (one barrier, no carveout preference, opted in to the maximum)."""
    for gpu in cli_gpus[::7]:
        expected = json.loads(
            run_cli(["calc", "--gpu", gpu["name"], "--threads", "256", "--json"]).stdout)
        mine = dataclasses.asdict(occ.calc(gpu["name"], 256))
        assert mine["limits"] == expected["result"]["limits"]
        assert mine["allocation"] == subset(mine["allocation"], expected["result"]["allocation"])
