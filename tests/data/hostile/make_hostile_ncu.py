#!/usr/bin/env python3
"""make_hostile_ncu.py - writes the Nsight Compute exports of tests/test_ncu.c's hostile
cases into this directory (README.md says what each one is). The files are checked in; run
this only to make them again:  python3 tests/data/hostile/make_hostile_ncu.py

ncu-baseline.csv is a raw page of two launches of tests/data/ncu-h200/torch-raw.csv.gz
(launches 0 and 2: PyTorch's normal fill and cuBLAS's nvjet in clusters of 2), with only
the columns occ ncu reads; libocc agrees with both. ncu-details-baseline.csv is the details
page of the fill launch (torch-details.csv.gz, launch 0). Every other file is one of the
two with one thing made hostile. The gzip files are compressed with mtime 0; another zlib
may compress to other bytes, which the tests do not depend on.
"""
import gzip
import os

HERE = os.path.dirname(os.path.abspath(__file__))

RAW_COLUMNS = [
    ("ID", ""), ("Kernel Name", ""), ("Block Size", ""), ("Grid Size", ""), ("Device", ""),
    ("CC", ""), ("device__attribute_display_name", ""), ("gpu__time_duration.sum", "us"),
    ("launch__barrier_count", ""), ("launch__block_size", ""), ("launch__cluster_dim_x", ""),
    ("launch__cluster_dim_y", ""), ("launch__cluster_dim_z", ""),
    ("launch__cluster_max_active", "cluster"), ("launch__cluster_scheduling_policy", ""),
    ("launch__cluster_size", ""), ("launch__grid_size", ""),
    ("launch__occupancy_limit_barriers", "block"), ("launch__occupancy_limit_blocks", "block"),
    ("launch__occupancy_limit_registers", "block"),
    ("launch__occupancy_limit_shared_mem", "block"), ("launch__occupancy_limit_warps", "block"),
    ("launch__registers_per_thread", "register/thread"),
    ("launch__shared_mem_config_size", "Kbyte"),
    ("launch__shared_mem_per_block_driver", "Kbyte/block"),
    ("launch__shared_mem_per_block_dynamic", "Kbyte/block"),
    ("launch__shared_mem_per_block_static", "Kbyte/block"), ("launch__sm_count", "SM"),
    ("launch__waves_per_multiprocessor", ""), ("sm__maximum_warps_avg_per_active_cycle", "warp"),
    ("sm__maximum_warps_per_active_cycle_pct", "%"),
    ("sm__warps_active.avg.pct_of_peak_sustained_active", "%"),
]

FILL = ["0", "void at::native::fill_kernel<float>(float *, float, long)", "(256, 1, 1)",
        "(1056, 1, 1)", "0", "9.0", "NVIDIA H200", "42.848000", "1", "256", "0", "0", "0", "0",
        "PolicySpread", "0", "1,056", "32.000000", "32.000000", "5.000000", "32.000000",
        "8.000000", "44", "32.768000", "1.024000", "0.000000", "0.000000", "132", "1.60",
        "40.000000", "62.500000", "50.584379"]
NVJET = ["2", "nvjet_sm90_tst_256x128_64x4_1x2_h_bz_coopA_NNT", "(384, 1, 1)", "(2, 66, 1)",
         "0", "9.0", "NVIDIA H200", "174.016000", "3", "384", "2", "1", "1", "66",
         "PolicySpread", "2", "132", "21.000000", "32.000000", "1.000000", "1.000000",
         "5.000000", "168", "233.472000", "1.024000", "213.188000", "0.000000", "132", "1",
         "12.000000", "18.750000", "14.639194"]

DETAILS_HEAD = ["ID", "Process ID", "Process Name", "Host Name", "Kernel Name", "Context",
                "Stream", "Block Size", "Grid Size", "Device", "CC", "Section Name",
                "Metric Name", "Metric Unit", "Metric Value"]
DETAILS_LAUNCH = ["0", "1528", "python3.12", "127.0.0.1",
                  "void at::native::fill_kernel<float>(float *, float, long)", "1", "7",
                  "(256, 1, 1)", "(1056, 1, 1)", "0", "9.0"]
DETAILS_ROWS = [
    ("Launch Statistics", "Block Size", "", "256"),
    ("Launch Statistics", "Cluster Scheduling Policy", "", "PolicySpread"),
    ("Launch Statistics", "Cluster Size", "", "0"),
    ("Launch Statistics", "Grid Size", "", "1,056"),
    ("Launch Statistics", "Registers Per Thread", "register/thread", "44"),
    ("Launch Statistics", "Shared Memory Configuration Size", "Kbyte", "32.77"),
    ("Launch Statistics", "Driver Shared Memory Per Block", "Kbyte/block", "1.02"),
    ("Launch Statistics", "Dynamic Shared Memory Per Block", "byte/block", "0"),
    ("Launch Statistics", "Static Shared Memory Per Block", "byte/block", "0"),
    ("Launch Statistics", "# SMs", "SM", "132"),
    ("Launch Statistics", "Waves Per SM", "", "1.60"),
    ("Occupancy", "Max Active Clusters", "cluster", "0"),
    ("Occupancy", "Block Limit Barriers", "block", "32"),
    ("Occupancy", "Block Limit SM", "block", "32"),
    ("Occupancy", "Block Limit Registers", "block", "5"),
    ("Occupancy", "Block Limit Shared Mem", "block", "32"),
    ("Occupancy", "Block Limit Warps", "block", "8"),
    ("Occupancy", "Theoretical Active Warps per SM", "warp", "40"),
    ("Occupancy", "Theoretical Occupancy", "%", "62.50"),
    ("Occupancy", "Achieved Occupancy", "%", "50.58"),
]


def line(fields):
    return ",".join('"' + f.replace('"', '""') + '"' for f in fields) + "\n"


def raw(rows, units=None):
    names = [c for c, _ in RAW_COLUMNS]
    return line(names) + line(units or [u for _, u in RAW_COLUMNS]) + "".join(map(line, rows))


def changed(row, column, value):
    out = list(row)
    out[[c for c, _ in RAW_COLUMNS].index(column)] = value
    return out


def details(rows):
    return line(DETAILS_HEAD) + "".join(line(DETAILS_LAUNCH + list(r)) for r in rows)


def write(name, text):
    data = text.encode() if isinstance(text, str) else text
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(data)


def main():
    base = raw([FILL, NVJET])
    write("ncu-baseline.csv", base)
    write("ncu-app-output-before-header.csv",
          "Epoch 1: loss 0.3127, \"best\" so far\n"
          "==PROF== Connected to process 1528 (/usr/bin/python3.12)\n"
          "\n"
          "ID,step,loss\n"
          "done\n" + base)
    write("ncu-no-header.csv", "Epoch 1: loss 0.3127\ndone\n")
    write("ncu-achieved-negative.csv", raw([
        changed(FILL, "sm__warps_active.avg.pct_of_peak_sustained_active", "-50.000000"), NVJET]))
    write("ncu-achieved-150.csv", raw([
        changed(FILL, "sm__warps_active.avg.pct_of_peak_sustained_active", "150.000000"), NVJET]))
    write("ncu-duration-negative.csv",
          raw([changed(FILL, "gpu__time_duration.sum", "-42.848000"), NVJET]))
    write("ncu-sm-count-0.csv", raw([changed(FILL, "launch__sm_count", "0"), NVJET]))
    write("ncu-sm-count-minus-1.csv", raw([changed(FILL, "launch__sm_count", "-1"), NVJET]))
    write("ncu-sm-count-1e9.csv",
          raw([changed(FILL, "launch__sm_count", "1,000,000,000"), NVJET]))
    nvjet17 = changed(changed(NVJET, "launch__cluster_dim_x", "17"), "launch__cluster_size", "17")
    write("ncu-cluster-dim-17.csv", raw([FILL, nvjet17]))
    write("ncu-cluster-size-0.csv", raw([FILL, changed(NVJET, "launch__cluster_size", "0")]))
    write("ncu-cluster-size-3.csv", raw([FILL, changed(NVJET, "launch__cluster_size", "3")]))
    write("ncu-grid-3-comma-2.csv", raw([changed(FILL, "launch__grid_size", "3,2"), NVJET]))
    units = [u for _, u in RAW_COLUMNS]
    units[[c for c, _ in RAW_COLUMNS].index("launch__registers_per_thread")] = "furlong"
    write("ncu-raw-unit-furlong.csv", raw([FILL, NVJET], units))
    write("ncu-details-baseline.csv", details(DETAILS_ROWS))
    twice = DETAILS_ROWS[:5] + [("Launch Statistics", "Registers Per Thread", "register/thread",
                                 "32")] + DETAILS_ROWS[5:]
    write("ncu-details-duplicate-metric.csv", details(twice))
    furlong = [(s, m, "furlong" if m == "Registers Per Thread" else u, v)
               for s, m, u, v in DETAILS_ROWS]
    write("ncu-details-unit-furlong.csv", details(furlong))
    packed = gzip.compress(base.encode(), mtime=0)
    write("ncu-baseline.csv.gz", packed)
    write("ncu-gzip-cut.csv.gz", packed[:len(packed) // 2])
    damaged = bytearray(packed)
    for i in range(len(damaged) // 2, len(damaged) // 2 + 8):
        damaged[i] ^= 0x55
    write("ncu-gzip-damaged.csv.gz", bytes(damaged))
    write("ncu-gzip-trailing.csv.gz", packed + b"trailing text\n")


if __name__ == "__main__":
    main()
