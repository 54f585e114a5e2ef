#!/usr/bin/env python3
"""profile_bench.py [--occ PATH] [--launches N] [--runs R] [--big-gb G] [--out FILE]

`occ profile`'s speed and memory on synthetic traces, each format side by
side in one run: launches per second and MB per second (median of R runs),
and peak RSS. The traces copy the shape of the H200 traces in
tests/data/profile-h200 (their kernel names, launch configurations and
event layout): a Kineto trace in two mixes (CUDA activity only: every
kernel beside its runtime call; and a training step's mix of seven events
per kernel, CPU operators and flows included), gzipped too, the CUPTI
recorder's records as an Nsight Systems SQLite export, and an nsys stats
CSV. --big-gb G also writes one Kineto trace of G GB and reports its peak
RSS (the 256 MB bound). Python 3 standard library only; a benchmark, not a
test (make bench does not run it; docs/profile.md has the numbers).
"""
import argparse
import gzip
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "profile-h200"


def h200_kernels():
    """(name, grid, block, regs, smem, dur) of every kernel event of the H200 traces."""
    kernels = []
    for path in sorted(DATA.glob("kineto-*.json.gz")):
        with gzip.open(path, "rt") as f:
            doc = json.load(f)
        for e in doc["traceEvents"]:
            if e.get("cat") == "kernel":
                a = e["args"]
                kernels.append((e["name"], a["grid"], a["block"], a["registers per thread"],
                                a["shared memory"], e["dur"], a.get("est. achieved occupancy %", 0)))
    return kernels


HEAD = ('{\n  "schemaVersion": 1,\n  "deviceProperties": [\n    {\n      "id": 0, "name": "NVIDIA H200", '
        '"totalGlobalMem": 150109880320,\n      "computeMajor": 9, "computeMinor": 0,\n      '
        '"maxThreadsPerBlock": 1024, "maxThreadsPerMultiprocessor": 2048,\n      "regsPerBlock": 65536, '
        '"warpSize": 32,\n      "sharedMemPerBlock": 49152, "numSms": 132\n    }\n  ],\n'
        '  "displayTimeUnit": "ms",\n  "traceEvents": [\n')

KERNEL = ('  {{\n    "ph": "X", "cat": "kernel", "name": {name}, "pid": 0, "tid": 7,\n    "ts": {ts:.3f}, '
          '"dur": {dur:.3f},\n    "args": {{\n      "External id": {i},\n      "queued": 0, "device": 0, '
          '"context": 1,\n      "stream": 7, "correlation": {i},\n      "registers per thread": {regs},\n'
          '      "shared memory": {smem},\n      "blocks per SM": 1.0,\n      "warps per SM": 8.0,\n'
          '      "grid": [{g0}, {g1}, {g2}],\n      "block": [{b0}, {b1}, {b2}],\n'
          '      "est. achieved occupancy %": {est}\n    }}\n  }}')
RUNTIME = ('  {{\n    "ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 805, "tid": 805,\n'
           '    "ts": {ts:.3f}, "dur": 4.120,\n    "args": {{\n      "External id": {i},\n      "cbid": 211, '
           '"correlation": {i}\n    }}\n  }}')
CPU_OP = ('  {{\n    "ph": "X", "cat": "cpu_op", "name": "aten::{op}", "pid": 805, "tid": 848,\n    "ts": {ts:.3f}, '
          '"dur": 12.500,\n    "args": {{\n      "External id": {i},"Record function id": 0, "Ev Idx": {i}\n    }}\n  }}')
FLOW = ('  {{\n    "ph": "f", "id": {i}, "pid": 805, "tid": 848, "ts": {ts:.3f},\n    "cat": "ac2g", '
        '"name": "ac2g", "bp": "e"\n  }}')


def write_kineto(path, kernels, n, mix, opener=open):
    rng = random.Random(1)
    with opener(path, "wt") as f:
        f.write(HEAD)
        for i in range(n):
            name, grid, block, regs, smem, dur, est = kernels[i % len(kernels)]
            ts = 1e9 + i * 10.0
            parts = [RUNTIME.format(ts=ts, i=i)]
            if mix == "training":
                parts += [CPU_OP.format(op="addmm", ts=ts, i=i), CPU_OP.format(op="empty", ts=ts, i=i),
                          CPU_OP.format(op="view", ts=ts, i=i), FLOW.format(ts=ts, i=i),
                          FLOW.format(ts=ts, i=i + 1)]
            parts.append(KERNEL.format(name=json.dumps(name), ts=ts + 2, dur=dur, i=i, regs=regs,
                                       smem=smem, g0=grid[0], g1=grid[1], g2=grid[2], b0=block[0],
                                       b1=block[1], b2=block[2], est=est))
            f.write(",\n".join(parts))
            f.write(",\n" if i < n - 1 else "\n")
        f.write('  ],\n  "traceName": "bench"\n}\n')
    del rng


def write_records(path, kernels, n):
    with open(path, "w") as f:
        f.write("# occ-trace 1\nD\t0\tNVIDIA H200\t132\t9\t0\n")
        for i in range(n):
            name, grid, block, regs, smem, dur, _ = kernels[i % len(kernels)]
            start = 1000 + i * 10000
            f.write(f"K\t0\t1\t7\t{i}\t{start}\t{start + int(dur * 1000)}\t{grid[0]}\t{grid[1]}\t{grid[2]}\t"
                    f"{block[0]}\t{block[1]}\t{block[2]}\t{regs}\t0\t{smem}\t0\t233472\t0\t-1\t0\t0\t0\t0"
                    f"\t0\t0\t0\t{name}\n")
        f.write(f"E\t{n}\t0\n")


def write_csv(path, kernels, n):
    with open(path, "w") as f:
        f.write("Start (ns),Duration (ns),CorrId,GrdX,GrdY,GrdZ,BlkX,BlkY,BlkZ,Reg/Trd,StcSMem (MB),"
                "DymSMem (MB),Bytes (MB),Throughput (MBps),SrcMemKd,DstMemKd,Device,Ctx,GreenCtx,Strm,Name\n")
        for i in range(n):
            name, grid, block, regs, smem, dur, _ = kernels[i % len(kernels)]
            quoted = '"' + name.replace('"', '""') + '"'
            f.write(f"{1000 + i * 10000},{int(dur * 1000)},{i},{grid[0]},{grid[1]},{grid[2]},{block[0]},"
                    f"{block[1]},{block[2]},{regs},0.000,{smem / 1e6:.6f},,,,,NVIDIA H200 (0),1,,7,{quoted}\n")


def timed(cmd):
    """(seconds, peak RSS in MB) of one run of cmd, stdout dropped."""
    t0 = time.perf_counter()
    out = subprocess.run(["/usr/bin/time", "-f", "%M", *cmd], stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, text=True)
    seconds = time.perf_counter() - t0
    if out.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)}: exit {out.returncode}: {out.stderr.strip()[-300:]}")
    return seconds, int(out.stderr.strip().splitlines()[-1]) / 1024


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--occ", default=str(ROOT / "build" / "occ"))
    ap.add_argument("--launches", type=int, default=1_000_000)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--big-gb", type=float, default=0)
    ap.add_argument("--out")
    args = ap.parse_args()
    kernels = h200_kernels()
    n = args.launches
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        inputs = []
        p = tmp / "kineto-cuda.json"
        write_kineto(p, kernels, n, "cuda")
        inputs.append(("Kineto JSON, CUDA activity only", p))
        p = tmp / "kineto-cuda.json.gz"
        write_kineto(p, kernels, n, "cuda", opener=lambda q, m: gzip.open(q, m, compresslevel=6))
        inputs.append(("the same, gzipped", p))
        p = tmp / "kineto-training.json"
        write_kineto(p, kernels, n, "training")
        inputs.append(("Kineto JSON, a training step's mix (7 events a kernel)", p))
        rec = tmp / "records.tsv"
        write_records(rec, kernels, n)
        db = tmp / "nsys.sqlite"
        subprocess.run([args.occ, "lab", "trace", "--convert", str(rec), "--output", str(db)],
                       check=True, stderr=subprocess.DEVNULL)
        rec.unlink()
        inputs.append(("Nsight Systems SQLite", db))
        p = tmp / "gpu_trace.csv"
        write_csv(p, kernels, n)
        inputs.append(("nsys stats cuda_gpu_trace CSV", p))
        for label, path in inputs:
            runs = [timed([args.occ, "profile", "--json", str(path)]) for _ in range(args.runs)]
            secs = statistics.median(r[0] for r in runs)
            rss = max(r[1] for r in runs)
            mb = path.stat().st_size / 1e6
            rows.append((label, mb, secs, n / secs, mb / secs, rss))
            print(f"{label}: {secs:.3f} s, {n / secs / 1e6:.2f} M launches/s, {rss:.0f} MB", file=sys.stderr)
            if path.suffix != ".sqlite":
                path.unlink()
        big = None
        if args.big_gb:
            p = tmp / "big.json"
            per = (tmp / "x").write_text("") or 0
            # about 1.1 kB a launch in the CUDA-only mix
            big_n = int(args.big_gb * 1e9 / 1100)
            write_kineto(p, kernels, big_n, "cuda")
            secs, rss = timed([args.occ, "profile", "--json", str(p)])
            big = (p.stat().st_size / 1e9, big_n, secs, rss)
            print(f"big: {big}", file=sys.stderr)
    cpu = "unknown CPU"
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    lines = [f"`occ profile --json` on {n:,} kernel launches of the H200 traces' kernels, median of "
             f"{args.runs} runs each ({cpu}, {os.cpu_count()} cores, {platform.system()}, "
             f"{time.strftime('%Y-%m-%d')}; bench/profile_bench.py):", "",
             "| input | MB | seconds | launches per second | MB per second | peak RSS MB |",
             "|---|---|---|---|---|---|"]
    for label, mb, secs, lps, mbps, rss in rows:
        lines.append(f"| {label} | {mb:,.0f} | {secs:.3f} | {lps / 1e6:.2f} M | {mbps:,.0f} | {rss:.0f} |")
    if big:
        lines += ["", f"One Kineto trace of {big[0]:.2f} GB ({big[1]:,} launches): {big[2]:.1f} s, "
                      f"peak RSS {big[3]:.0f} MB."]
    text = "\n".join(lines) + "\n"
    print(text)
    if args.out:
        Path(args.out).write_text(text)


if __name__ == "__main__":
    main()
