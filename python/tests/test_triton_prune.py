"""occ.triton.prune and occ.triton.check on a recorded autotune list
(tests/data/triton-prune/matmul_configs.json, a realistic fp16 matmul list
with configs that cannot launch), with objects shaped as Triton's Config and
torch's tensors: no GPU, and neither triton nor torch imported. The numbers
are the CLI's (occ gpus --json, occ calc --json); the estimates are
recomputed here from their definitions in docs/python.md."""

from __future__ import annotations

import functools
import json
import math
import sys
import types

import pytest

import occ
import occ.triton
from conftest import ROOT, cli_json

DATA = ROOT / "tests" / "data" / "triton-prune" / "matmul_configs.json"


class Config:
    """The attributes of triton.Config (Triton 3.x) the autotuner has."""

    def __init__(self, kwargs, num_warps=4, num_stages=3, num_ctas=1, maxnreg=None,
                 pre_hook=None, **_):
        self.kwargs = kwargs
        self.num_warps = num_warps
        self.num_stages = num_stages
        self.num_ctas = num_ctas
        self.maxnreg = maxnreg
        self.pre_hook = pre_hook

    def all_kwargs(self):
        return {**self.kwargs, "num_warps": self.num_warps, "num_ctas": self.num_ctas,
                "num_stages": self.num_stages, "maxnreg": self.maxnreg}

    def __repr__(self):
        return f"Config({self.kwargs}, num_warps={self.num_warps}, num_stages={self.num_stages})"


class Tensor:
    """What the pruner reads of a torch tensor: data_ptr (a pointer argument
    to Triton) and element_size()."""

    def __init__(self, element_bytes):
        self._bytes = element_bytes

    def data_ptr(self):
        return 0

    def element_size(self):
        return self._bytes


@pytest.fixture(scope="module")
def recorded():
    assert DATA.is_file(), f"{DATA} is missing"
    doc = json.loads(DATA.read_text())
    return doc, [Config(**c) for c in doc["configs"]]


def matmul_args(a_bytes=2, b_bytes=2, m=4096, n=4096, k=4096):
    """The named arguments Triton passes for tutorial 03's matmul_kernel."""
    return dict(a_ptr=Tensor(a_bytes), b_ptr=Tensor(b_bytes), c_ptr=Tensor(2), M=m, N=n, K=k,
                stride_am=k, stride_ak=1, stride_bk=n, stride_bn=1, stride_cm=n, stride_cn=1)


@functools.lru_cache(maxsize=None)
def cli_gpu(name: str) -> dict:
    return next(g for g in cli_json(["gpus"])["gpus"] if g["name"] == name)


def tiles(c: Config):
    kw = c.kwargs
    return kw["BLOCK_SIZE_M"], kw["BLOCK_SIZE_N"], kw["BLOCK_SIZE_K"]


def smem_of(c: Config, a=2, b=2) -> int:
    m, n, k = tiles(c)
    return max(c.num_stages, 1) * (m * k * a + k * n * b)


def regs_of(c: Config, g: dict) -> int:
    """The documented estimate: the accumulator over the threads, plus 32,
    in 8s; what ptxas allows the block; maxnreg."""
    m, n, _ = tiles(c)
    threads = min(c.num_warps * 32, g["max_threads_per_block"])
    need = 8 * math.ceil((32 + math.ceil(m * n / threads)) / 8)
    fits = g["regs_per_block"] // threads // 8 * 8
    return min([need, g["max_regs_per_thread"], fits] + ([c.maxnreg] if c.maxnreg else []))


def expected_drop(c: Config, g: dict, a=2, b=2) -> str | None:
    if c.num_warps * 32 > g["max_threads_per_block"]:
        return "threads"
    if smem_of(c, a, b) > g["smem_per_block_optin_bytes"]:
        return "shared_mem"
    if c.num_ctas > 1 and (float(g["compute_capability"]) < 9.0 or c.num_ctas > 8):
        return "cluster"
    return None


def cli_launch(c: Config, gpu: str, regs: int, smem: int) -> dict:
    args = ["calc", "--gpu", gpu, "--threads", str(c.num_warps * 32), "--regs", str(regs),
            "--dyn-smem", str(smem), "--optin", "max" if smem > 48 * 1024 else "none"]
    if c.num_ctas > 1:
        args += ["--cluster", str(c.num_ctas)]
    return cli_json(args)["result"]


@pytest.mark.parametrize("gpu", ["H200", "A100 SXM 80GB"])
def test_drops_what_cannot_launch_and_keeps_the_rest_in_order(recorded, gpu):
    _, configs = recorded
    g = cli_gpu(gpu)
    kept = occ.triton.prune(configs, matmul_args(), gpu=gpu)
    expected = [c for c in configs if expected_drop(c, g) is None]
    assert len(kept) == len(expected) and all(a is b for a, b in zip(kept, expected))
    checks = occ.triton.check(configs, matmul_args(), gpu=gpu)
    assert [c.dropped for c in checks] == [expected_drop(c, g) for c in configs]
    assert all((c.reason is None) == c.launches for c in checks)
    dropped = {c.dropped for c in checks} - {None}
    # the list holds each kind of config that cannot launch
    assert dropped == ({"threads", "shared_mem", "cluster"})
    for c in checks:
        if c.dropped == "shared_mem":
            assert f"{c.smem_bytes:,} bytes" in c.reason
            assert f"{g['smem_per_block_optin_bytes']:,}-byte opt-in maximum" in c.reason
        if c.dropped == "threads":
            assert "2048 exceed the 1024 per block" in c.reason
    if gpu == "A100 SXM 80GB":  # no clusters below compute capability 9.0
        two = next(c for c in checks if c.num_ctas == 2)
        assert two.dropped == "cluster" and "compute capability 9.0" in two.reason


@pytest.mark.parametrize("gpu", ["H200", "A100 SXM 80GB"])
def test_each_launch_is_occ_calcs(recorded, gpu):
    _, configs = recorded
    g = cli_gpu(gpu)
    for c in occ.triton.check(configs, matmul_args(), gpu=gpu):
        assert c.smem_bytes == smem_of(c.config) and c.smem_from == "matmul estimate"
        assert c.regs == regs_of(c.config, g)
        assert c.regs_from == ("maxnreg" if c.config.maxnreg == c.regs else "estimate")
        assert c.threads == c.num_warps * 32
        if not c.launches:
            continue
        r = cli_launch(c.config, gpu, c.regs, c.smem_bytes)
        if c.num_ctas > 1:
            assert c.blocks_per_sm == r["cluster"]["blocks_per_sm"]
            assert c.cluster.max_active_clusters == r["cluster"]["max_active_clusters"]
        else:
            assert c.blocks_per_sm == r["blocks_per_sm"] > 0
            assert c.occupancy == r["occupancy"]
            assert list(c.limiters) == r["limiters"]


def occupancy_at_size(c, g: dict, grid: int, cluster: dict | None) -> tuple[float, float]:
    """The documented key: blocks resident in the first wave x warps per
    block over the SMs' warp slots; the tail: idle block slots over the
    launch (every block taking the same time)."""
    sms = g["sm_count"]
    warps = c.num_warps
    if cluster is not None:
        wave = cluster["max_active_clusters"]
        resident = min(grid, wave) * c.num_ctas
    else:
        wave = c.blocks_per_sm * sms
        resident = min(grid, wave)
    started = math.ceil(grid / wave)
    return resident * warps / (sms * g["max_warps_per_sm"]), 1 - grid / (wave * started)


@pytest.mark.parametrize("m,n", [(4096, 4096), (512, 384), (256, 8192)])
def test_keep_is_the_best_predicted_occupancy_at_the_problem_size(recorded, m, n):
    _, configs = recorded
    g = cli_gpu("H200")
    args = matmul_args(m=m, n=n)
    checks = occ.triton.check(configs, args, gpu="H200")
    order = []
    for c in checks:
        if not c.launches:
            assert c.rank is None and c.occupancy_at_size is None
            continue
        bm, bn, _ = tiles(c.config)
        grid = math.ceil(m / bm) * math.ceil(n / bn)
        assert c.grid_blocks == grid
        r = cli_launch(c.config, "H200", c.regs, c.smem_bytes)
        occ_at, tail = occupancy_at_size(c, g, grid, r.get("cluster"))
        assert c.occupancy_at_size == pytest.approx(occ_at, abs=1e-12)
        assert c.waves.tail_idle_fraction == pytest.approx(tail, abs=1e-12)
        order.append((-occ_at, tail, c.index))
    order.sort(key=lambda t: (round(t[0], 9), round(t[1], 9), t[2]))
    assert [c.index for c in sorted((c for c in checks if c.launches),
                                    key=lambda c: c.rank)] == [t[2] for t in order]
    for k in (1, 5, 12):
        kept = occ.triton.prune(configs, args, gpu="H200", keep=k)
        best = {t[2] for t in order[:k]}
        assert [c for c in configs if configs.index(c) in best] == kept
    everything = occ.triton.prune(configs, args, gpu="H200")
    assert occ.triton.prune(configs, args, gpu="H200", keep=1000) == everything


def test_a_small_problem_ranks_the_tiles_that_fill_the_gpu_first(recorded):
    _, configs = recorded
    # 512 x 384: a 128 x 256 tile gives 8 programs for 132 SMs
    checks = occ.triton.check(configs, matmul_args(m=512, n=384), gpu="H200")
    big = next(c for c in checks if tiles(c.config)[:2] == (128, 256) and c.launches)
    small = next(c for c in checks if tiles(c.config)[:2] == (32, 32))
    assert big.grid_blocks == 4 * 2 and small.grid_blocks == 16 * 12
    assert big.occupancy_at_size < small.occupancy_at_size
    assert small.rank < big.rank


def test_element_sizes_from_the_tensors(recorded):
    _, configs = recorded
    g = cli_gpu("H200")
    fp8 = occ.triton.check(configs, matmul_args(a_bytes=1, b_bytes=1), gpu="H200")
    mixed = occ.triton.check(configs, matmul_args(a_bytes=2, b_bytes=1), gpu="H200")
    fp32 = occ.triton.check(configs, matmul_args(a_bytes=4, b_bytes=4), gpu="H200")
    for i, c in enumerate(configs):
        assert fp8[i].smem_bytes == smem_of(c, 1, 1)
        assert mixed[i].smem_bytes == smem_of(c, 2, 1)
        assert fp32[i].smem_bytes == smem_of(c, 4, 4)
        assert fp8[i].dropped == expected_drop(c, g, 1, 1)
    # the fp8 configs of tutorial 03 fit at fp8, not at fp16
    assert sum(c.launches for c in fp8) > sum(c.launches for c in fp32)
    # a tensor with dtype.itemsize (no element_size), and no tensor at all: 2 bytes
    t = types.SimpleNamespace(data_ptr=lambda: 0, dtype=types.SimpleNamespace(itemsize=1))
    one = configs[0]
    assert occ.triton.matmul_smem_bytes(one, {"a": t, "b": t}) == smem_of(one, 1, 1)
    assert occ.triton.matmul_smem_bytes(one, {"M": 4096}) == smem_of(one, 2, 2)
    # one tensor: both operands its size
    assert occ.triton.matmul_smem_bytes(one, {"x": Tensor(4), "M": 1}) == smem_of(one, 4, 4)
    # BLOCK_M / BLOCK_N / BLOCK_K are read too; without the tiles, no estimate
    short = Config({"BLOCK_M": 64, "BLOCK_N": 32, "BLOCK_K": 16}, num_stages=2)
    assert occ.triton.matmul_smem_bytes(short, {}) == 2 * (64 * 16 + 16 * 32) * 2
    assert occ.triton.matmul_smem_bytes(Config({"BLOCK": 1024}), {}) is None


def test_callers_estimates_and_grid(recorded):
    _, configs = recorded
    calls = []

    def smem(config, args):
        calls.append(args)
        return 200_000 if config.num_warps == 8 else 10_000

    checks = occ.triton.check(configs, matmul_args(), gpu="H200", smem=smem, regs=64,
                              grid=lambda meta: (meta["M"] // meta["BLOCK_SIZE_M"], 4))
    assert all(a["M"] == 4096 for a in calls) and len(calls) == len(configs)
    for c in checks:
        assert c.smem_from == "given" and c.regs == 64 and c.regs_from == "given"
        if c.launches:
            assert c.grid_blocks == 4096 // tiles(c.config)[0] * 4
    # a config's estimate from a function of (config, args), the grid a number
    one = occ.triton.check(configs[:1], {}, gpu="H200", smem=lambda c, a: 1024,
                           regs=lambda c, a: 40, grid=264)[0]
    assert (one.smem_bytes, one.regs, one.grid_blocks) == (1024, 40, 264)
    r = cli_json(["calc", "--gpu", "H200", "--threads", "256", "--regs", "40", "--dyn-smem",
                  "1024", "--optin", "none"])["result"]
    assert one.blocks_per_sm == r["blocks_per_sm"]
    with pytest.raises(occ.OccError, match="a whole number"):
        occ.triton.check(configs[:1], {}, gpu="H200", smem=lambda c, a: -1)
    with pytest.raises(occ.OccError, match="1 to 3 whole numbers"):
        occ.triton.check(configs[:1], {}, gpu="H200", grid=lambda meta: (1.5,))


def test_as_tritons_early_config_prune(recorded):
    """Triton 3's Autotuner.prune_configs: early_config_prune(self.configs,
    self.nargs, **kwargs), with the call's keyword arguments, and an
    AutotunerError for an empty answer."""
    _, configs = recorded
    positional = matmul_args()
    keyword = {"M": positional.pop("M"), "N": positional.pop("N")}  # M, N given by keyword
    pruner = occ.triton.pruner(gpu="H200", keep=6)
    kept = pruner(configs, positional, **keyword)
    assert len(kept) == 6 and pruner.kept == kept and len(pruner.checks) == len(configs)
    assert [c.config for c in pruner.checks if c.rank is not None and c.rank <= 6] == kept
    assert repr(pruner) == "occ.triton.pruner(gpu='H200', keep=6)"
    # a kernel argument named as one of prune's own is the kernel's
    assert pruner(configs, positional, gpu="not a GPU", keep=1, **keyword) == kept
    partial = functools.partial(occ.triton.prune, gpu="H200")
    assert partial(configs, positional, **keyword) == occ.triton.prune(configs, matmul_args(),
                                                                        gpu="H200")
    # Triton 2.x's Config: no num_ctas, no maxnreg
    old = [types.SimpleNamespace(kwargs=c.kwargs, num_warps=c.num_warps,
                                 num_stages=c.num_stages) for c in configs[:8]]
    assert len(occ.triton.prune(old, matmul_args(), gpu="H200")) == 8


def test_never_an_empty_list(recorded):
    _, configs = recorded
    hopeless = [configs[8], configs[22], configs[33]]  # two over the opt-in, 64 warps
    with pytest.raises(occ.OccError) as e:
        occ.triton.prune(hopeless, matmul_args(), gpu="H200")
    text = str(e.value)
    assert text.startswith("occ.triton.prune: none of the 3 configs can launch: ")
    assert "2 for shared memory (config 0 and 1 more: shared memory 294,912 bytes" in text
    assert "; 1 for threads (config 2: num_warps 64: threads 2048 exceed" in text
    assert e.value.field == "configs"
    with pytest.raises(occ.OccError, match="none of the 1 configs can launch"):
        occ.triton.pruner(gpu="H200")([configs[35]], matmul_args())
    with pytest.raises(occ.OccError, match="no configs"):
        occ.triton.prune([], matmul_args(), gpu="H200")


def test_keep_needs_the_problem_size_and_an_sm_count(recorded):
    _, configs = recorded
    no_size = {k: v for k, v in matmul_args().items() if k not in ("M", "N")}
    launching = [c for c in configs if expected_drop(c, cli_gpu("H200")) is None]
    assert occ.triton.prune(configs, no_size, gpu="H200") == launching  # dropping needs neither
    with pytest.raises(occ.OccError, match="the problem size is unknown: give grid="):
        occ.triton.prune(configs, no_size, gpu="H200", keep=4)
    with pytest.raises(occ.OccError, match="no SM count"):
        occ.triton.prune(configs, matmul_args(), gpu="sm_90", keep=4)
    for bad in (0, -1, 2.5, True):
        with pytest.raises(occ.OccError, match="the number of configs to keep"):
            occ.triton.prune(configs, matmul_args(), gpu="H200", keep=bad)
    # a generic GPU still drops what cannot launch, clusters above 8 included
    generic = occ.triton.check(configs, matmul_args(), gpu="sm_90")
    assert [c.dropped for c in generic] == [expected_drop(c, cli_gpu("H200"))
                                            for c in configs]


def test_the_gpu_of_an_imported_torch(recorded, monkeypatch):
    _, configs = recorded
    fake = types.ModuleType("torch")
    fake.cuda = types.SimpleNamespace(is_available=lambda: True, current_device=lambda: 0,
                                      get_device_name=lambda i: "NVIDIA H200")
    monkeypatch.setitem(sys.modules, "torch", fake)
    assert occ.triton.prune(configs, matmul_args()) == occ.triton.prune(
        configs, matmul_args(), gpu="H200")
    monkeypatch.delitem(sys.modules, "torch")
    with pytest.raises(occ.OccError, match="give gpu="):
        occ.triton.prune(configs, matmul_args())


def test_the_module_imports_neither_triton_nor_torch():
    import subprocess

    code = ("import sys, occ, occ.triton; "
            "assert 'triton' not in sys.modules and 'torch' not in sys.modules; "
            "assert occ.triton.from_triton is occ.from_triton; print('ok')")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.stdout.strip() == "ok", out.stderr
