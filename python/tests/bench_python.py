"""What a call costs from Python: occ.calc per call, and occ.calc_batch on
a million launches. docs/python.md records its output.

    python python/tests/bench_python.py

test_performance.py runs the same measurements, shorter, against the
targets: at most 5 us per occ.calc call (median), under 1 s per million
launches in a batch.
"""

from __future__ import annotations

import platform
import statistics
import sys
import time

import numpy as np

import occ

CALL_TARGET_US = 5.0
BATCH_TARGET_S = 1.0


def per_call_us(rounds: int = 15, calls: int = 20_000, timer=time.perf_counter) -> list[float]:
    """occ.calc's cost per call in each round, microseconds: the README's
    kernel, by name, as a caller would write it. time.process_time gives the
    CPU time the process spent, which other work on a shared machine
    inflates far less than the wall clock."""
    calc = occ.calc
    costs = []
    for _ in range(rounds):
        start = timer()
        for _ in range(calls):
            calc("H200", 256, regs=64, smem=16384)
        costs.append((timer() - start) / calls * 1e6)
    return costs


def random_launches(rows: int, seed: int = 1) -> dict:
    rng = np.random.default_rng(seed)
    return dict(threads=rng.integers(1, 1025, rows), regs=rng.integers(0, 256, rows),
                smem=rng.integers(0, 48 * 1024 + 1, rows),
                dyn_smem=rng.integers(0, 64 * 1024, rows))


def batch_seconds(gpu, launches: dict, runs: int = 5, timer=time.perf_counter) -> list[float]:
    times = []
    for _ in range(runs):
        start = timer()
        result = occ.calc_batch(gpu, **launches, errors="keep")
        times.append(timer() - start)
        assert len(result) == len(launches["threads"])
    return times


def main() -> int:
    print(f"occ {occ.__version__}, Python {platform.python_version()}, NumPy {np.__version__}, "
          f"{platform.machine()}, {platform.processor() or 'cpu'}")
    costs = per_call_us()
    call = statistics.median(costs)
    cpu = statistics.median(per_call_us(timer=time.process_time))
    print(f"occ.calc per call: median {call:.2f} us, best {min(costs):.2f} us (wall clock); "
          f"median {cpu:.2f} us CPU time (15 rounds of 20,000 calls; target {CALL_TARGET_US} us)")
    rows = 1_000_000
    launches = random_launches(rows)
    one = batch_seconds("H200", launches)
    one_cpu = batch_seconds("H200", launches, timer=time.process_time)
    print(f"occ.calc_batch, {rows:,} launches on one GPU: median {statistics.median(one):.3f} s, "
          f"best {min(one):.3f} s (wall clock); median {statistics.median(one_cpu):.3f} s CPU "
          f"time (5 runs; target {BATCH_TARGET_S} s)")
    names = np.random.default_rng(2).choice([g.name for g in occ.gpus()], rows)
    many = batch_seconds(names, launches, runs=3)
    many_cpu = batch_seconds(names, launches, runs=3, timer=time.process_time)
    print(f"occ.calc_batch, {rows:,} launches, one GPU name a row over the whole database "
          f"({len(occ.gpus())}): median {statistics.median(many):.3f} s (wall clock), "
          f"{statistics.median(many_cpu):.3f} s CPU time (3 runs)")
    as_lists = {key: value.tolist() for key, value in launches.items()}
    lists = batch_seconds("H200", as_lists, runs=3)
    lists_cpu = batch_seconds("H200", as_lists, runs=3, timer=time.process_time)
    print(f"occ.calc_batch, {rows:,} launches from Python lists: median "
          f"{statistics.median(lists):.3f} s (wall clock), {statistics.median(lists_cpu):.3f} s "
          f"CPU time (3 runs)")
    ok = cpu <= CALL_TARGET_US and statistics.median(one_cpu) < BATCH_TARGET_S
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
