#!/usr/bin/env python3
"""diff_speed.py OCC TRACE [LIB] - occ diff's and occ inspect --save's time
against one occ inspect of the same library (issue targets: each at most 1.5
times), median of 5 runs of each, run in turn so that the page cache and the
machine's load are alike for all; peak RSS from the last run. LIB defaults
to PyTorch's libtorch_cuda.so. docs/results/diff-speed-h200 has a run."""
import os
import statistics
import subprocess
import sys
import tempfile
import time


def timed(cmd):
    """Seconds and peak RSS (MB, /usr/bin/time's %M) of one run."""
    start = time.perf_counter()
    p = subprocess.run(["/usr/bin/time", "-f", "%M"] + cmd, stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, text=True)
    seconds = time.perf_counter() - start
    if p.returncode not in (0, 1):
        sys.exit(f"{' '.join(cmd)}: exit {p.returncode}: {p.stderr.strip()}")
    return seconds, int(p.stderr.strip().splitlines()[-1]) / 1024


def main():
    occ, trace = sys.argv[1], sys.argv[2]
    if len(sys.argv) > 3:
        lib = sys.argv[3]
    else:
        import torch
        lib = os.path.join(os.path.dirname(torch.__file__), "lib", "libtorch_cuda.so")
    tmp = tempfile.mkdtemp()
    base = os.path.join(tmp, "base.json")
    save = os.path.join(tmp, "save.json")
    subprocess.run([occ, "inspect", "--gpu", "H200", "--save", base, lib], check=True,
                   stdout=subprocess.DEVNULL)
    cmds = {
        "occ inspect LIB": [occ, "inspect", "--gpu", "H200", lib],
        "occ inspect --save FILE LIB": [occ, "inspect", "--gpu", "H200", "--save", save, lib],
        "occ diff --launches TRACE BASELINE LIB": [occ, "diff", "--gpu", "H200", "--launches",
                                                   trace, base, lib],
        "occ diff --launches TRACE LIB LIB": [occ, "diff", "--gpu", "H200", "--launches", trace,
                                              lib, lib],
    }
    runs = {k: [] for k in cmds}
    rss = {}
    for _ in range(5):
        for name, cmd in cmds.items():
            seconds, peak = timed(cmd)
            runs[name].append(seconds)
            rss[name] = max(rss.get(name, 0), peak)
    base_median = statistics.median(runs["occ inspect LIB"])
    print(f"{os.path.basename(lib)} ({os.path.getsize(lib) / 1e6:.0f} MB), launches from "
          f"{os.path.basename(trace)}; median of 5 runs each, {os.cpu_count()} cores")
    print("| command | median s | runs s | times one inspect | peak RSS MB |")
    print("|---|---|---|---|---|")
    for name in cmds:
        m = statistics.median(runs[name])
        print(f"| `{name}` | {m:.2f} | {', '.join(f'{x:.2f}' for x in runs[name])} | "
              f"{m / base_median:.2f} | {rss[name]:.0f} |")


if __name__ == "__main__":
    main()
