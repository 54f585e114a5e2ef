#!/usr/bin/env python3
"""inspect_sweep.py - occ inspect builds side by side on the same libraries.

usage: inspect_sweep.py [--runs N] --occ LABEL=PATH [--occ LABEL=PATH ...] LIB...

For each library (read once, untimed, so the page cache is warm), runs
`OCC_INSPECT_TIMING=1 PATH inspect --json LIB` N times (default 3) for every build, the
builds interleaved run by run so that drift in the machine hits them alike, and prints one
markdown row per (library, build): median wall seconds, each run's seconds, the largest
peak RSS (the child's ru_maxrss), and the timing line of the median run (occ's own steps).
The builds differ in what was compiled into them (e.g. -DOCC_LARGE_SCRATCH_BUDGET_MB); the
labels say how.
"""
import argparse
import os
import statistics
import subprocess
import time


def run(path, lib):
    env = dict(os.environ, OCC_INSPECT_TIMING="1")
    start = time.perf_counter()
    proc = subprocess.Popen([path, "inspect", "--json", lib], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, env=env)
    err = proc.stderr.read().decode(errors="replace")
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    timing = next((l for l in err.splitlines() if l.startswith("occ inspect: seconds")), err.strip())
    return wall, usage.ru_maxrss / 1024, os.waitstatus_to_exitcode(status), timing


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--occ", action="append", required=True, metavar="LABEL=PATH")
    ap.add_argument("libs", nargs="+")
    a = ap.parse_args()
    builds = [b.split("=", 1) for b in a.occ]
    print("| library | build | wall s (median) | runs | peak RSS MiB | exit | occ's steps (median run) |")
    print("|---|---|---|---|---|---|---|")
    for lib in a.libs:
        with open(lib, "rb") as f:
            while f.read(1 << 24):
                pass
        results = {label: [] for label, _ in builds}
        for _ in range(a.runs):
            for label, path in builds:
                results[label].append(run(path, lib))
        for label, _ in builds:
            r = sorted(results[label], key=lambda x: x[0])
            median = r[len(r) // 2]
            runs = ", ".join(f"{x[0]:.3f}" for x in results[label])
            print(f"| {os.path.basename(lib)} | {label} | {statistics.median(x[0] for x in r):.3f} "
                  f"| {runs} | {max(x[1] for x in r):.0f} | {median[2]} | {median[3]} |", flush=True)


if __name__ == "__main__":
    main()
