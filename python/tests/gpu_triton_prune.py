"""occ.triton.prune on a GPU: what pruning a Triton matmul's autotune list
saves in compile and autotune time, and whether the winning config stays.

Run from the repository root on a machine with an NVIDIA GPU, torch with
CUDA and triton 3.x; occ from python/src with the libraries of a build
folder (occ.triton.prune needs only libocc.so.0, which links nothing but
libc, so a folder built on another Linux machine and carried along works):

    cmake -S . -B build-py20 -DCMAKE_BUILD_TYPE=RelWithDebInfo
    cmake --build build-py20 -j --target occ_shared
    PYTHONPATH=python/src OCC_LIBRARY_DIR=$PWD/build-py20 \\
        python3 python/tests/gpu_triton_prune.py --gpu H200 --out $OUT/triton-prune.json

(OCC_LIBRARY_DIR is where occ loads libocc.so.0 from, python/src/occ/_native.py;
an installed package, pip install ./python, needs neither variable. Where the
build folder is too big to carry to the GPU machine, a folder with a copy of
its libocc.so.0 is enough.)

The kernel is an fp16 matmul (C = A x B, fp32 accumulation, M = N = K = 4096
by default) autotuned by triton.autotune over the configs of
tests/data/triton-prune/matmul_configs.json that every Triton 3 tunes
without stopping (33: tutorial 03's list and others, six above the GPU's
shared memory, several wasteful). Each variant runs in a fresh process with
a fresh TRITON_CACHE_DIR, and its first call (pruning, compiling and
benchmarking every config left, then the launch) is timed:

  - none:   the whole list, as Triton tunes it (a config that fails to
            compile or load, OutOfResources, is timed inf and never wins:
            Triton's own handling);
  - prune:  prune_configs_by={"early_config_prune": occ.triton.pruner(gpu=...)};
  - keepK:  the same with keep=K (--keep, default 4 and 8).

Then, in one more process, each variant's winner is re-timed side by side
with triton.testing.do_bench (its median, --rounds rounds in rotating
order, the median of those), and every config is compiled once more from
the unpruned run's cache to read Triton's own numbers: metadata.shared, and
once loaded n_regs, n_spills, or the OutOfResources that stops it, beside
occ's estimates and verdict (the calibration of the estimates).

It prints a report and writes one JSON document (schema
occ.triton-prune-gpu) to --out, rewritten after each step so that a run cut
short keeps what it measured. It took 71 to 92 s on an H200 with 16 cores
(triton 3.6.0, torch 2.11.0; docs/results/h200/triton-prune.md).
Exit status: 0 done, 1 a step failed, 77 no GPU, torch or triton.
Not run by make test (it needs a GPU).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SKIP = 77
HERE = Path(__file__).resolve()
ROOT = HERE.parents[2]
CONFIGS = ROOT / "tests" / "data" / "triton-prune" / "matmul_configs.json"

try:  # the children need triton at module level: @triton.jit reads this file's source
    import triton
    import triton.language as tl
except ImportError:  # the parent reports it and exits 77
    triton = None

if triton is not None:

    @triton.jit
    def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn,
                      stride_cm, stride_cn, BLOCK_SIZE_M: tl.constexpr,
                      BLOCK_SIZE_N: tl.constexpr, BLOCK_SIZE_K: tl.constexpr,
                      GROUP_SIZE_M: tl.constexpr):
        # Program ids in groups of GROUP_SIZE_M rows of tiles, so that
        # neighbouring programs share A's rows in L2.
        pid = tl.program_id(axis=0)
        tiles_m = tl.cdiv(M, BLOCK_SIZE_M)
        tiles_n = tl.cdiv(N, BLOCK_SIZE_N)
        per_group = GROUP_SIZE_M * tiles_n
        first_m = (pid // per_group) * GROUP_SIZE_M
        rows = min(tiles_m - first_m, GROUP_SIZE_M)
        pid_m = first_m + ((pid % per_group) % rows)
        pid_n = (pid % per_group) // rows
        rm = (pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)) % M
        rn = (pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)) % N
        rk = tl.arange(0, BLOCK_SIZE_K)
        a_tile = a_ptr + rm[:, None] * stride_am + rk[None, :] * stride_ak
        b_tile = b_ptr + rk[:, None] * stride_bk + rn[None, :] * stride_bn
        acc = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
        for k in range(0, tl.cdiv(K, BLOCK_SIZE_K)):
            left = K - k * BLOCK_SIZE_K
            a = tl.load(a_tile, mask=rk[None, :] < left, other=0.0)
            b = tl.load(b_tile, mask=rk[:, None] < left, other=0.0)
            acc = tl.dot(a, b, acc)
            a_tile += BLOCK_SIZE_K * stride_ak
            b_tile += BLOCK_SIZE_K * stride_bk
        cm = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
        cn = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
        c_tile = c_ptr + cm[:, None] * stride_cm + cn[None, :] * stride_cn
        tl.store(c_tile, acc.to(tl.float16), mask=(cm[:, None] < M) & (cn[None, :] < N))

    @triton.jit
    def _touch_kernel(x_ptr, n, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) + 1, mask=offs < n)


# ----------------------------------------------------------------------------- the list


def recorded(all_configs: bool, limit: int = 0) -> tuple[dict, list[dict]]:
    doc = json.loads(CONFIGS.read_text())
    rows = [dict(c, index=i) for i, c in enumerate(doc["configs"])]
    if not all_configs:
        rows = [c for c in rows if c.get("gpu_script", True)]
    return doc, rows[:limit] if limit > 0 else rows


def label(c: dict) -> str:
    kw = c["kwargs"]
    text = (f"{kw['BLOCK_SIZE_M']}x{kw['BLOCK_SIZE_N']}x{kw['BLOCK_SIZE_K']} "
            f"w{c['num_warps']} s{c['num_stages']}")
    if c.get("num_ctas", 1) != 1:
        text += f" ctas{c['num_ctas']}"
    if c.get("maxnreg"):
        text += f" maxnreg{c['maxnreg']}"
    return text


def triton_configs(rows: list[dict]) -> list:
    import inspect

    has_maxnreg = "maxnreg" in inspect.signature(triton.Config).parameters
    out = []
    for c in rows:
        extra = {"num_ctas": c.get("num_ctas", 1)}
        if c.get("maxnreg"):
            if not has_maxnreg:
                raise SystemExit(f"this triton's Config has no maxnreg (config {c['index']}): "
                                 "give --all-configs off or a Triton 3.x with it")
            extra["maxnreg"] = c["maxnreg"]
        out.append(triton.Config(dict(c["kwargs"]), num_warps=c["num_warps"],
                                 num_stages=c["num_stages"], **extra))
    return out


class DuckTensor:
    """An fp16 operand as occ.triton reads a tensor, for the parent's checks."""

    def __init__(self, element_bytes: int) -> None:
        self._bytes = element_bytes

    def data_ptr(self) -> int:
        return 0

    def element_size(self) -> int:
        return self._bytes


def named_args(m: int, n: int, k: int, a, b, c) -> dict:
    return dict(a_ptr=a, b_ptr=b, c_ptr=c, M=m, N=n, K=k, stride_am=k, stride_ak=1, stride_bk=n,
                stride_bn=1, stride_cm=n, stride_cn=1)


def check_rows(checks) -> list[dict]:
    out = []
    for c in checks:
        out.append(dict(
            launches=c.launches, dropped=c.dropped, reason=c.reason, smem_bytes=c.smem_bytes,
            smem_from=c.smem_from, regs=c.regs, regs_from=c.regs_from,
            blocks_per_sm=c.blocks_per_sm, occupancy=c.occupancy, limiters=list(c.limiters),
            grid_blocks=c.grid_blocks,
            waves=c.waves.waves_per_sm if c.waves else None,
            tail_idle_fraction=c.waves.tail_idle_fraction if c.waves else None,
            occupancy_at_size=c.occupancy_at_size, rank=c.rank))
    return out


# ----------------------------------------------------------------------------- children


def _cuda_setup(size: int):
    import torch

    torch.manual_seed(0)
    a = torch.randn((size, size), device="cuda", dtype=torch.float16)
    b = torch.randn((size, size), device="cuda", dtype=torch.float16)
    c = torch.empty((size, size), device="cuda", dtype=torch.float16)
    # the CUDA context, cuBLAS and Triton's driver utilities, before any timing
    torch.matmul(a, b)
    x = torch.zeros(1024, device="cuda")
    _touch_kernel[(1,)](x, 1024, BLOCK=1024)
    torch.cuda.synchronize()
    return torch, a, b, c


def _launch_args(a, b, c, size: int) -> tuple:
    return (a, b, c, size, size, size, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
            c.stride(0), c.stride(1))


def _grid(size: int):
    return lambda meta: (triton.cdiv(size, meta["BLOCK_SIZE_M"]) *
                         triton.cdiv(size, meta["BLOCK_SIZE_N"]),)


def child_autotune(opts) -> dict:
    import occ
    import occ.triton

    _, rows = recorded(opts.all_configs, opts.limit)
    configs = triton_configs(rows)
    torch, a, b, c = _cuda_setup(opts.size)
    variant = opts.variant
    pruner = None
    prune_by = None
    if variant != "none":
        keep = int(variant[len("keep"):]) if variant.startswith("keep") else None
        pruner = occ.triton.pruner(gpu=opts.gpu, keep=keep)
        prune_by = {"early_config_prune": pruner}
    tuned = triton.autotune(configs=configs, key=["M", "N", "K"],
                            prune_configs_by=prune_by)(matmul_kernel)
    start = time.perf_counter()
    tuned[_grid(opts.size)](*_launch_args(a, b, c, opts.size))
    torch.cuda.synchronize()
    first_call_s = time.perf_counter() - start
    best = tuned.best_config
    winner = next((i for i, cfg in enumerate(configs) if cfg is best),
                  next((i for i, cfg in enumerate(configs) if str(cfg) == str(best)), None))
    timings = {}
    for cfg, t in (getattr(tuned, "configs_timings", None) or {}).items():
        i = next((j for j, x in enumerate(configs) if x is cfg), None)
        if i is not None:
            ms = t[0] if isinstance(t, (list, tuple)) else t
            timings[i] = None if ms == float("inf") else float(ms)
    ref = torch.matmul(a, b)
    err = ((c.float() - ref.float()).abs().max() / ref.float().abs().max()).item()
    return dict(variant=variant, first_call_s=first_call_s,
                bench_time_s=getattr(tuned, "bench_time", None), benchmarked=len(timings),
                winner=rows[winner]["index"] if winner is not None else None,
                winner_label=label(rows[winner]) if winner is not None else str(best),
                autotune_ms={rows[i]["index"]: ms for i, ms in timings.items()},
                failed=[rows[i]["index"] for i, ms in timings.items() if ms is None],
                max_relative_error=err,
                kept=[rows[i]["index"] for i, cfg in enumerate(configs)
                      if pruner is not None and any(cfg is k for k in pruner.kept)],
                checks=({rows[i]["index"]: r for i, r in enumerate(check_rows(pruner.checks))}
                        if pruner is not None else None))


def _out_of_resources():
    for where in ("triton.runtime.errors", "triton.runtime.autotuner", "triton.compiler.errors"):
        try:
            module = __import__(where, fromlist=["OutOfResources"])
            return module.OutOfResources
        except (ImportError, AttributeError):
            continue
    return RuntimeError


def child_calibrate(opts) -> dict:
    """Triton's own numbers for every config, from the unpruned run's cache."""
    import occ

    _, rows = recorded(opts.all_configs, opts.limit)
    configs = triton_configs(rows)
    torch, a, b, c = _cuda_setup(opts.size)
    out_of_resources = _out_of_resources()
    props = triton.runtime.driver.active.utils.get_device_properties(torch.cuda.current_device())
    found = {}
    for row, cfg in zip(rows, configs):
        entry = {}
        start = time.perf_counter()
        try:
            kernel = matmul_kernel.warmup(*_launch_args(a, b, c, opts.size), grid=(1,),
                                          **cfg.all_kwargs())
        except Exception as e:  # noqa: BLE001 - recorded, as the autotuner would skip it
            entry["compile_error"] = f"{type(e).__name__}: {str(e).splitlines()[0][:300]}"
            found[row["index"]] = entry
            continue
        entry["compile_s"] = time.perf_counter() - start
        md = kernel.metadata
        entry["shared"] = md.get("shared") if isinstance(md, dict) else getattr(md, "shared", None)
        try:
            kernel._init_handles()
            entry["loaded"] = True
            entry["n_regs"] = kernel.n_regs
            entry["n_spills"] = kernel.n_spills
            t = occ.from_triton(kernel, gpu=opts.gpu)
            entry["occ_blocks_per_sm"] = t.blocks_per_sm
            entry["occ_occupancy"] = t.occupancy
        except out_of_resources as e:
            entry["loaded"] = False
            entry["out_of_resources"] = str(e).splitlines()[0][:300]
        found[row["index"]] = entry
    return dict(configs=found, max_shared_mem=props.get("max_shared_mem"),
                multiprocessor_count=props.get("multiprocessor_count"))


def child_retime(opts) -> dict:
    """The winners side by side: do_bench's median, rounds in rotating order."""
    _, rows = recorded(True)
    by_index = {r["index"]: r for r in rows}
    wanted = [int(i) for i in opts.winners.split(",")]
    configs = dict(zip(wanted, triton_configs([by_index[i] for i in wanted])))
    torch, a, b, c = _cuda_setup(opts.size)
    grid = _grid(opts.size)
    calls = {}
    for i, cfg in configs.items():
        def call(cfg=cfg):
            matmul_kernel[grid](*_launch_args(a, b, c, opts.size), **cfg.all_kwargs())
        call()  # compile (from the cache) and load
        calls[i] = call
    torch.cuda.synchronize()
    times: dict[int, list[float]] = {i: [] for i in wanted}
    for r in range(opts.rounds):
        order = wanted[r % len(wanted):] + wanted[:r % len(wanted)]
        for i in order:
            ms = triton.testing.do_bench(calls[i], warmup=25, rep=100, return_mode="median")
            times[i].append(float(ms))
    return dict(rounds=opts.rounds, ms={i: times[i] for i in wanted},
                median_ms={i: statistics.median(times[i]) for i in wanted})


def child_main(opts) -> int:
    if triton is None:
        print(json.dumps({"skip": "no triton"}))
        return SKIP
    import torch

    if not torch.cuda.is_available():
        print(json.dumps({"skip": "no CUDA GPU"}))
        return SKIP
    fn = {"autotune": child_autotune, "calibrate": child_calibrate, "retime": child_retime}
    doc = fn[opts.child](opts)
    with open(opts.child_out, "w") as f:
        json.dump(doc, f)
    return 0


# ----------------------------------------------------------------------------- parent


def run_child(kind: str, opts, cache: str, extra: list[str], timeout: int) -> dict:
    out = os.path.join(opts.work, f"{kind}-{len(os.listdir(opts.work))}.json")
    args = [sys.executable, str(HERE), "--child", kind, "--child-out", out, "--size",
            str(opts.size), *extra]
    if opts.gpu:
        args += ["--gpu", opts.gpu]
    if opts.all_configs:
        args.append("--all-configs")
    if opts.limit:
        args += ["--limit", str(opts.limit)]
    env = dict(os.environ, TRITON_CACHE_DIR=cache)
    start = time.perf_counter()
    proc = subprocess.run(args, env=env, capture_output=True, text=True, timeout=timeout)
    wall = time.perf_counter() - start
    if proc.returncode != 0:
        tail = (proc.stderr or proc.stdout).strip().splitlines()[-15:]
        raise RuntimeError(f"{kind} {' '.join(extra)}: exit {proc.returncode}\n  "
                           + "\n  ".join(tail))
    with open(out) as f:
        doc = json.load(f)
    doc["process_wall_s"] = wall
    return doc


def machine() -> dict:
    import torch

    info = dict(gpu=torch.cuda.get_device_name(0), torch=torch.__version__,
                torch_cuda=torch.version.cuda, triton=triton.__version__,
                python=platform.python_version(), cpus=os.cpu_count(), host=platform.node())
    smi = shutil.which("nvidia-smi")
    if smi:
        q = subprocess.run([smi, "--query-gpu=driver_version", "--format=csv,noheader"],
                           capture_output=True, text=True)
        info["driver"] = q.stdout.strip().splitlines()[0] if q.returncode == 0 else None
    return info


def write(opts, doc: dict) -> None:
    if opts.out:
        tmp = f"{opts.out}.tmp"
        with open(tmp, "w") as f:
            json.dump(doc, f, indent=1, sort_keys=False)
            f.write("\n")
        os.replace(tmp, opts.out)


def report(doc: dict) -> str:
    lines = []
    m = doc["machine"]
    lines.append(f"occ.triton.prune on {m['gpu']} (occ's GPU {doc['occ_gpu']}), driver "
                 f"{m.get('driver')}, torch {m['torch']} (CUDA {m['torch_cuda']}), triton "
                 f"{m['triton']}, Python {m['python']}, {m['cpus']} CPUs")
    p = doc["problem"]
    lines.append(f"fp16 matmul {p['M']} x {p['N']} x {p['K']}, {len(doc['configs'])} configs "
                 f"({CONFIGS.relative_to(ROOT)})")
    lines.append("")
    cal = (doc.get("calibration") or {}).get("configs", {})
    none = doc["variants"].get("none", {})
    lines.append("  #  config                      | occ: smem est  regs blk/SM occ@size rank"
                 " verdict      | triton: shared  regs spill loaded | tuned ms")
    for c in doc["configs"]:
        i = c["index"]
        k = c["occ"]
        t = cal.get(str(i), cal.get(i, {}))
        ms = (none.get("autotune_ms") or {}).get(str(i), (none.get("autotune_ms") or {}).get(i))
        verdict = "keep" if k["launches"] else f"drop:{k['dropped']}"
        if "compile_error" in t:
            tri = "compile error"
        elif t:
            tri = (f"{t.get('shared', '-'):>7} {t.get('n_regs', '-'):>5} "
                   f"{t.get('n_spills', '-'):>5} {'yes' if t.get('loaded') else 'NO':>6}")
        else:
            tri = "-"
        occ_at = f"{k['occupancy_at_size']:.3f}" if k["occupancy_at_size"] is not None else "-"
        timed = none.get("autotune_ms") or {}
        tuned = f"{ms:.4f}" if ms is not None else ("inf" if str(i) in timed else "-")
        blocks = k["blocks_per_sm"] if k["blocks_per_sm"] is not None else "-"
        lines.append(f"{i:>3}  {label(c):<27} | {k['smem_bytes'] or 0:>13} {k['regs']:>5} "
                     f"{blocks:>6} {occ_at:>8} {k['rank'] or '-':>4} {verdict:<12} | {tri} | "
                     f"{tuned}")
    lines.append("")
    lines.append("variant  configs  first call (s)  autotune (s)  winner                       "
                 "re-timed ms  vs none")
    rt = (doc.get("retime") or {}).get("median_ms", {})
    base = None
    if none.get("winner") is not None:
        base = rt.get(str(none["winner"]), rt.get(none["winner"]))
    for name, v in doc["variants"].items():
        w = v.get("winner")
        ms = rt.get(str(w), rt.get(w)) if w is not None else None
        vs = f"{ms / base - 1:+.1%}" if ms and base else "-"
        bench = v.get("bench_time_s")
        lines.append(f"{name:<8} {v.get('benchmarked', '-'):>7}  {v['first_call_s']:>14.1f}  "
                     f"{bench if bench is None else f'{bench:.1f}':>12}  "
                     f"{v.get('winner_label', '-'):<28} {ms if ms is None else f'{ms:.4f}':>11}"
                     f"  {vs}")
    s = doc.get("summary", {})
    if s:
        lines.append("")
        for key, value in s.items():
            lines.append(f"{key}: {value}")
    return "\n".join(lines)


def summarize(doc: dict) -> dict:
    s = {}
    v = doc["variants"]
    none = v.get("none")
    cal = (doc.get("calibration") or {}).get("configs", {})
    if none:
        for name, other in v.items():
            if name == "none":
                continue
            s[f"{name}: first call saved"] = (
                f"{none['first_call_s'] - other['first_call_s']:.1f} s of "
                f"{none['first_call_s']:.1f} s "
                f"({1 - other['first_call_s'] / none['first_call_s']:.0%}); "
                f"{other.get('benchmarked')} configs benchmarked of {none.get('benchmarked')}")
            s[f"{name}: winner"] = ("the same" if other.get("winner") == none.get("winner")
                                    else f"{other.get('winner_label')} against "
                                         f"{none.get('winner_label')}")
        failed = set(none.get("failed") or [])
        dropped = {c["index"] for c in doc["configs"] if not c["occ"]["launches"]}
        ran = {int(i) for i, ms in (none.get("autotune_ms") or {}).items() if ms is not None}
        s["Triton failed (timed inf)"] = sorted(failed)
        s["occ dropped"] = sorted(dropped)
        s["dropped by occ, run by Triton (false drops)"] = sorted(dropped & ran)
        s["kept by occ, failed in Triton (misses)"] = sorted(failed - dropped)
        w = none.get("winner")
        rank = next((c["occ"]["rank"] for c in doc["configs"] if c["index"] == w), None)
        s["the unpruned winner's rank by occ's occupancy at the size"] = rank
    if cal:
        diffs = []
        for c in doc["configs"]:
            t = cal.get(str(c["index"]), cal.get(c["index"], {}))
            if t.get("shared") is not None and c["occ"]["smem_bytes"] is not None:
                diffs.append((t["shared"] - c["occ"]["smem_bytes"], c["index"]))
        if diffs:
            s["Triton's shared minus occ's estimate, bytes (min, median, max)"] = (
                min(d for d, _ in diffs), statistics.median(d for d, _ in diffs),
                max(d for d, _ in diffs))
        regs = [(t["n_regs"], c["occ"]["regs"]) for c in doc["configs"]
                for t in [cal.get(str(c["index"]), cal.get(c["index"], {}))] if "n_regs" in t]
        if regs:
            s["Triton's n_regs minus occ's estimate (min, median, max)"] = (
                min(a - b for a, b in regs), statistics.median(a - b for a, b in regs),
                max(a - b for a, b in regs))
        blocks = [(t["occ_blocks_per_sm"], c["occ"]["blocks_per_sm"]) for c in doc["configs"]
                  for t in [cal.get(str(c["index"]), cal.get(c["index"], {}))]
                  if "occ_blocks_per_sm" in t and c["occ"]["blocks_per_sm"] is not None]
        if blocks:
            s["blocks per SM: predicted = from the compiled kernel"] = (
                f"{sum(a == b for a, b in blocks)} of {len(blocks)}")
    return s


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--gpu", help="occ's GPU (default: torch's device name, as occ reads it)")
    ap.add_argument("--out", help="write the JSON document here")
    ap.add_argument("--size", type=int, default=4096, help="M = N = K (default 4096)")
    ap.add_argument("--keep", default="4,8", help="the keep=K variants (default 4,8; '' none)")
    ap.add_argument("--rounds", type=int, default=5, help="re-timing rounds (default 5)")
    ap.add_argument("--all-configs", action="store_true",
                    help="also the configs marked gpu_script false (64 warps, num_ctas)")
    ap.add_argument("--limit", type=int, default=0,
                    help="only the first N configs (a quick check of the script)")
    ap.add_argument("--no-calibration", action="store_true",
                    help="skip reading Triton's numbers for every config")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    ap.add_argument("--child-out", help=argparse.SUPPRESS)
    ap.add_argument("--variant", help=argparse.SUPPRESS)
    ap.add_argument("--winners", help=argparse.SUPPRESS)
    opts = ap.parse_args()
    if opts.child:
        return child_main(opts)
    if triton is None:
        print("skipped: triton is not installed")
        return SKIP
    try:
        import torch
    except ImportError:
        print("skipped: torch is not installed")
        return SKIP
    if not torch.cuda.is_available():
        print("skipped: no CUDA GPU")
        return SKIP
    import occ
    import occ.triton

    gpu = occ.gpu(opts.gpu) if opts.gpu else occ.gpu(torch.cuda.get_device_name(0))
    opts.gpu = gpu.name
    _, rows = recorded(opts.all_configs, opts.limit)
    keeps = [int(k) for k in opts.keep.split(",") if k.strip()]
    checks = occ.triton.check(
        [type("C", (), dict(kwargs=r["kwargs"], num_warps=r["num_warps"],
                            num_stages=r["num_stages"], num_ctas=r.get("num_ctas", 1),
                            maxnreg=r.get("maxnreg")))() for r in rows],
        named_args(opts.size, opts.size, opts.size, DuckTensor(2), DuckTensor(2), DuckTensor(2)),
        gpu=gpu)
    doc = dict(schema="occ.triton-prune-gpu", version=1, machine=machine(), occ_gpu=gpu.name,
               occ_version=occ.__version__,
               problem=dict(M=opts.size, N=opts.size, K=opts.size, dtype="float16"),
               configs=[dict(r, occ=o) for r, o in zip(rows, check_rows(checks))],
               variants={}, calibration=None, retime=None, summary={}, errors=[],
               command=" ".join([os.path.basename(sys.executable), *sys.argv]))
    write(opts, doc)
    started = time.perf_counter()
    status = 0
    with tempfile.TemporaryDirectory(prefix="occ-triton-prune-") as work:
        opts.work = work
        caches = {}

        def fresh(name: str) -> str:
            caches[name] = tempfile.mkdtemp(prefix=f"cache-{name}-", dir=work)
            return caches[name]

        try:
            # one throwaway run first: the page cache of ptxas, Triton's and
            # CUDA's libraries warm for every timed variant alike
            print("warming up (one config, a cache thrown away) ...", file=sys.stderr)
            run_child("autotune", opts, fresh("warmup"), ["--variant", "keep1"], 300)
            for name in ["none", "prune", *[f"keep{k}" for k in keeps]]:
                print(f"autotune: {name} ...", file=sys.stderr)
                v = run_child("autotune", opts, fresh(name), ["--variant", name], 420)
                doc["variants"][name] = v
                print(f"  first call {v['first_call_s']:.1f} s, {v['benchmarked']} configs, "
                      f"winner {v['winner_label']}", file=sys.stderr)
                write(opts, doc)
            winners = sorted({v["winner"] for v in doc["variants"].values()
                              if v.get("winner") is not None})
            print(f"re-timing the winners {winners} ...", file=sys.stderr)
            doc["retime"] = run_child("retime", opts, caches["none"],
                                      ["--winners", ",".join(map(str, winners)),
                                       "--rounds", str(opts.rounds)], 300)
            write(opts, doc)
            if not opts.no_calibration:
                print("calibration: Triton's numbers for every config ...", file=sys.stderr)
                doc["calibration"] = run_child("calibrate", opts, caches["none"], [], 420)
        except (RuntimeError, subprocess.TimeoutExpired) as e:
            doc["errors"].append(str(e))
            print(f"gpu_triton_prune: {e}", file=sys.stderr)
            status = 1
    doc["wall_s"] = time.perf_counter() - started
    doc["summary"] = summarize(doc)
    write(opts, doc)
    print(report(doc))
    return status


if __name__ == "__main__":
    sys.exit(main())
