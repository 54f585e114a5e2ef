"""occ.explain, occ.explanation, occ.sweep, occ.suggest, occ.waves and
occ.latency equal the CLI's text and JSON."""

from __future__ import annotations

import dataclasses
import random

import pytest

import occ
from conftest import cli_json, run_cli

# (gpu, threads, calc keywords): the README's example, every binding
# resource, zero blocks, a 2-D block, launch bounds, a carveout, opt-in.
KERNELS = [
    ("H200", 256, dict(regs=64, smem=16384)),
    ("A100", 128, dict(regs=32, dyn_smem=100 * 1024)),
    ("H100", 768, dict(regs=40)),
    ("sm_90", (16, 16), dict(regs=255, barriers=16)),
    ("T4", 1024, dict(regs=64, smem=48 * 1024)),
    ("RTX 4090", 96, dict(regs=20, barriers=0, carveout=50)),
    ("sm_61", 192, dict(regs=33, smem=3000, dyn_smem=7000, optin="none")),
    ("B200", 512, dict(regs=128, max_threads=256)),
    ("H200", 64, dict(dyn_smem=300_000)),  # nothing fits
]

OPTION = {"regs": "--regs", "smem": "--smem", "dyn_smem": "--dyn-smem",
          "barriers": "--barriers", "carveout": "--carveout", "max_threads": "--max-threads",
          "optin": "--optin", "smem_config": "--smem-config",
          "partitioned_gc": "--partitioned-gc"}


def args_of(gpu: str, threads, k: dict) -> list[str]:
    t = threads if isinstance(threads, int) else "x".join(map(str, threads))
    args = ["--gpu", gpu, "--threads", str(t)]
    for key, value in k.items():
        args += [OPTION[key], str(value)]
    return args


def words(text: str) -> list[str]:
    return text.split()


@pytest.mark.parametrize("gpu,threads,k", KERNELS)
def test_explain_text_equals_cli(gpu, threads, k):
    printed = run_cli(["explain", *args_of(gpu, threads, k)]).stdout
    # The CLI puts a line naming the kernel above libocc's text and wraps
    # its lines to 100 columns: the same words, in the same order.
    heading, blank, body = printed.partition("\n\n")
    assert heading.startswith(occ.gpu(gpu).name)
    text = occ.explain(gpu, threads, **k)
    assert words(text) == words(body)
    # occ_explain_text's own layout: headed paragraphs, blank lines between
    assert "\n\nHow each resource limits the blocks per SM" in text
    assert max(len(line) for line in text.splitlines()) > 100  # not wrapped


@pytest.mark.parametrize("gpu,threads,k", KERNELS)
def test_explanation_equals_cli_json(gpu, threads, k):
    expected = cli_json(["explain", *args_of(gpu, threads, k)])
    e = dataclasses.asdict(occ.explanation(gpu, threads, **k))
    assert e["summary"] == expected["summary"]
    assert e["caution"] == expected["caution"]
    assert e["steps"] == expected["steps"]
    assert e["waste"] == expected["waste"]
    assert e["changes"] == expected["changes"]
    assert e["result"]["blocks_per_sm"] == expected["result"]["blocks_per_sm"]
    assert e["result"]["limits"] == expected["result"]["limits"]


@pytest.mark.parametrize("axis", occ._launch.AXES)
@pytest.mark.parametrize("gpu,threads,k", KERNELS[:6])
def test_sweep_equals_cli(axis, gpu, threads, k):
    expected = cli_json(["sweep", axis, *args_of(gpu, threads, k)])
    s = occ.sweep(axis, gpu, threads, **k)
    assert s.axis == expected["axis"]
    assert s.smem_config_bytes == expected["smem_config_bytes"]
    assert dataclasses.asdict(s.current) == expected["current"]
    assert [dataclasses.asdict(p) for p in s.points] == expected["points"]


def test_sweep_holds_a_given_smem_config():
    expected = cli_json(["sweep", "smem", *args_of("H200", 256, dict(regs=32,
                                                                       smem_config=102400))])
    s = occ.sweep("smem", "H200", 256, regs=32, smem_config=102400)
    assert s.smem_config_bytes == expected["smem_config_bytes"] == 102400
    assert [dataclasses.asdict(p) for p in s.points] == expected["points"]


SUGGEST = [
    ("H200", dict(regs=64), []),
    ("A100", dict(regs=32, smem=16384), ["--elements", "100000000", "--per-thread", "4"]),
    ("H100", dict(regs=40, max_threads=512), ["--blocks", "1000"]),
    ("T4", dict(regs=90, dyn_smem=20000), ["--elements", "12345", "--threads", "96"]),
    ("sm_90", dict(regs=16), ["--sms", "7", "--blocks", "50"]),
]


def suggest_kwargs(extra: list[str]) -> dict:
    names = {"--elements": "elements", "--per-thread": "per_thread", "--blocks": "blocks",
             "--threads": "threads", "--sms": "sms"}
    return {names[extra[i]]: int(extra[i + 1]) for i in range(0, len(extra), 2)}


@pytest.mark.parametrize("gpu,k,extra", SUGGEST)
def test_suggest_equals_cli(gpu, k, extra):
    cli_args = ["--gpu", gpu]
    for key, value in k.items():
        cli_args += [OPTION[key], str(value)]
    expected = cli_json(["suggest", *cli_args, *extra])
    s = occ.suggest(gpu, **k, **suggest_kwargs(extra))
    for key in ("block_size", "min_grid_size", "blocks_per_sm", "occupancy",
                "max_occupancy_warps_per_sm", "max_occupancy_block_sizes"):
        assert getattr(s, key) == expected[key], key
    if expected["launch"] is None:
        assert s.launch is None
        return
    launch = expected["launch"]
    assert (s.launch.grid_blocks, s.launch.block_size, s.launch.elements,
            s.launch.per_thread) == (launch["grid_blocks"], launch["block_size"],
                                     launch["elements"], launch["per_thread"])
    for key, value in dataclasses.asdict(s.launch.waves).items():
        assert value == launch[key], key


def test_suggest_with_a_smem_function_is_the_api_with_that_function():
    """cudaOccupancyMaxPotentialBlockSizeVariableSMem: dynamic shared memory
    a function of the block size. The pick must be the block size that
    occ.calc, given that function's bytes, finds the most resident threads
    at (the largest on a tie), scanning every whole warp."""
    def per_block(size: int) -> int:
        return size * 40  # 40 bytes a thread

    s = occ.suggest("A100", regs=48, dyn_smem=per_block)
    best = max(range(32, 1025, 32),
               key=lambda t: (occ.calc("A100", t, regs=48, dyn_smem=per_block(t))
                              .blocks_per_sm * t, t))
    assert s.block_size == best
    with pytest.raises(ZeroDivisionError):
        occ.suggest("A100", dyn_smem=lambda size: 1 // 0)
    with pytest.raises(occ.OccError, match="cannot be negative"):
        occ.suggest("A100", dyn_smem=lambda size: -1)


def test_waves_equal_the_cli():
    expected = cli_json(["suggest", "--gpu", "H200", "--regs", "64", "--blocks", "1000",
                         "--threads", "256"])["launch"]
    w = occ.waves(occ.calc("H200", 256, regs=64).blocks_per_sm, occ.gpu("H200").sm_count, 1000)
    for key, value in dataclasses.asdict(w).items():
        assert value == expected[key], key


def test_dyn_smem_available_fits():
    """Oracle: the largest dynamic size at which num_blocks blocks fit, found
    by asking occ.calc at every allocation unit."""
    for gpu, blocks, threads in (("H200", 2, 256), ("A100", 3, 128), ("T4", 1, 1024)):
        d = occ.dyn_smem_available(gpu, blocks, threads, regs=32)
        unit = occ.gpu(gpu).smem_alloc_unit_bytes
        fits = [b for b in range(0, occ.gpu(gpu).smem_per_sm_bytes + 1, unit)
                if occ.calc(gpu, threads, regs=32, dyn_smem=b).blocks_per_sm >= blocks]
        assert d.fitting_bytes == max(fits)
        assert d.driver_bytes >= d.fitting_bytes


LATENCY = [
    ("H200", dict(threads=256, regs=32, ilp=2), ["--threads", "256", "--regs", "32", "--ilp",
                                                  "2"]),
    ("A100", dict(warps=32, ilp=4, latency_ns=600), ["--warps", "32", "--ilp", "4",
                                                      "--latency-ns", "600"]),
    ("H100", dict(warps=8, bytes_per_load=16, traffic_ratio=1.5, active_sms=20,
                  loaded_latency_factor=0.4, warp_rate=1.3, spill_ratio=0.25),
     ["--warps", "8", "--bytes-per-load", "16", "--traffic-ratio", "1.5", "--active-sms", "20",
      "--loaded-latency-factor", "0.4", "--warp-rate", "1.3", "--spill-ratio", "0.25"]),
    ("sm_90", dict(warps=48, latency_ns=500, bandwidth=3000, sms=100, request_limit=32768),
     ["--warps", "48", "--latency-ns", "500", "--bandwidth", "3000", "--sms", "100",
      "--request-limit", "32768"]),
]


@pytest.mark.parametrize("gpu,k,args", LATENCY)
def test_latency_equals_cli(gpu, k, args):
    expected = cli_json(["latency", "--gpu", gpu, *args])
    r = occ.latency(gpu, **k)
    assert dataclasses.asdict(r.model) == expected["model"]
    assert dataclasses.asdict(r.input) == expected["input"]
    assert dataclasses.asdict(r.prediction) == expected["prediction"]
    assert r.kernel_blocks_per_sm == expected.get("kernel_blocks_per_sm")


def test_latency_refuses_what_the_cli_refuses():
    for k, args in ((dict(threads=64, dyn_smem=300_000), ["--threads", "64", "--dyn-smem",
                                                          "300000"]),
                    (dict(warps=65), ["--warps", "65"]),
                    (dict(warps=8, ilp=0), ["--warps", "8", "--ilp", "0"])):
        proc = run_cli(["latency", "--gpu", "H200", *args], check=False)
        assert proc.returncode != 0
        with pytest.raises(occ.OccError):
            occ.latency("H200", **k)
    with pytest.raises(occ.OccError, match="give one"):
        occ.latency("H200")
    with pytest.raises(occ.OccError, match="no memory latency"):
        occ.latency("sm_90", warps=8)


def test_random_explain_sweep_pairs(cli_gpus):
    """A few random kernels over the database, explain and one sweep each."""
    rng = random.Random(7)
    for _ in range(12):
        gpu = rng.choice(cli_gpus)
        k = dict(regs=rng.randint(0, 255), smem=rng.randint(0, 48) * 1024,
                 barriers=rng.randint(0, 16))
        threads = rng.choice([32, 64, 96, 128, 256, 384, 512, 640, 768, 1024])
        if k["smem"] > gpu["smem_per_block_bytes"]:
            k["smem"] = 0
        axis = rng.choice(occ._launch.AXES)
        expected = cli_json(["sweep", axis, *args_of(gpu["name"], threads, k)])
        got = occ.sweep(axis, gpu["name"], threads, **k)
        assert [dataclasses.asdict(p) for p in got.points] == expected["points"]
        body = run_cli(["explain", *args_of(gpu["name"], threads, k)]).stdout.partition(
            "\n\n")[2]
        assert words(occ.explain(gpu["name"], threads, **k)) == words(body)


def test_achieved_gap():
    """libocc's gap model (occ_achieved_gap): 100 blocks of 256 threads on an
    H200's 132 SMs hold one block on each of 100 SMs, 8 of 64 warps: 12.5%
    is all the grid allows; a partial last wave is a tail; bad input is
    refused with the field."""
    r = occ.calc("H200", 256)
    assert r.occupancy == 1.0 and r.blocks_per_sm == 8
    g = occ.achieved_gap(r, sm_count=132, grid_blocks=100, achieved=0.12)
    assert g.cause == "small_grid"
    assert g.wave_blocks == 1056 and g.active_sms == 100 and g.last_wave_blocks == 100
    assert g.grid_bound == pytest.approx(0.125)
    assert g.small_grid_loss == pytest.approx(0.875)
    assert g.in_kernel == pytest.approx(0.005)
    t = occ.achieved_gap(r, sm_count=132, grid_blocks=1056 + 132, achieved=0.55)
    assert t.cause == "tail" and t.full_waves == 1
    assert t.grid_bound == pytest.approx(0.5625)
    assert occ.achieved_gap(r, 132, 100).cause == "not_measured"
    c = occ.achieved_gap(r, 132, 800, achieved=0.7, cluster_size=2, active_clusters=400)
    assert c.cause == "clusters" and c.wave_blocks == 800
    with pytest.raises(occ.OccError, match="achieved"):
        occ.achieved_gap(r, 132, 100, achieved=1.5)
    with pytest.raises(occ.OccError, match="grid_blocks"):
        occ.achieved_gap(r, 132, -1)
    with pytest.raises(occ.OccError, match="sm_count must be an int"):
        occ.achieved_gap(r, 132.0, 100)
