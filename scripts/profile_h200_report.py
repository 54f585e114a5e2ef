#!/usr/bin/env python3
"""profile_h200_report.py OCC DATA_DIR [REPORT.md]

The H200 traces of tests/data/profile-h200 held to their oracles, with the
table docs/results/profile-h200/README.md shows:

  1. every kernel launch the CUPTI recorder wrote is read by `occ profile`
     (launches_read equals the records' K lines);
  2. libocc's launch-time shared-memory configuration equals CUPTI's
     sharedMemoryExecuted on every recorded launch;
  3. libocc's theoretical occupancy for each launch configuration equals
     Nsight Compute's for every launch Nsight Compute profiled in the same
     workload (matched by block, grid, registers and shared memory);
  4. Kineto's est. achieved occupancy against libocc's, each difference
     given a cause, none unexplained.

Exits 1 on any difference (CTest runs it: tests/CMakeLists.txt); writes the
Markdown table to REPORT.md when given. Python 3 standard library only.
"""
import gzip
import json
import subprocess
import sys
import tempfile
from pathlib import Path

WORKLOADS = ("gemm", "attn", "conv", "reduce", "train")


def occ_json(occ, args):
    out = subprocess.run([occ, *args, "--json"], capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit(f"occ {' '.join(args)}: exit {out.returncode}: {out.stderr.strip()}")
    return json.loads(out.stdout)


def main():
    if len(sys.argv) not in (3, 4):
        raise SystemExit(__doc__)
    occ, data = sys.argv[1], Path(sys.argv[2])
    report = Path(sys.argv[3]) if len(sys.argv) == 4 else None
    failures = []
    rows = []
    totals = {"records": 0, "read": 0, "smem": 0, "smem_differ": 0, "ncu": 0, "ncu_equal": 0,
              "kineto": 0, "causes": {}}
    with tempfile.TemporaryDirectory() as tmp:
        for w in WORKLOADS:
            records = data / f"cupti-{w}.tsv.gz"
            with gzip.open(records, "rt") as f:
                k_lines = sum(1 for line in f if line.startswith("K\t"))
            db = Path(tmp) / f"cupti-{w}.sqlite"
            conv = subprocess.run([occ, "lab", "trace", "--convert", str(records), "--output",
                                   str(db)], capture_output=True, text=True)
            if conv.returncode != 0:
                raise SystemExit(f"occ lab trace --convert {records}: {conv.stderr.strip()}")
            prof = occ_json(occ, ["profile", str(db)])
            kin = occ_json(occ, ["profile", str(data / f"kineto-{w}.json.gz")])
            ncu_csv = Path(tmp) / f"ncu-{w}-raw.csv"
            with gzip.open(data / f"ncu-{w}-raw.csv.gz", "rb") as f:
                ncu_csv.write_bytes(f.read())
            ncu = occ_json(occ, ["ncu", str(ncu_csv)])
            if prof["launches_read"] != k_lines:
                failures.append(f"{w}: {k_lines} records, {prof['launches_read']} read")
            smem = prof["checks"]["smem_config"]
            if smem["differ"]:
                failures.append(f"{w}: {smem['differ']} launches differ from sharedMemoryExecuted")
            # Nsight Compute's theoretical occupancy against the profile's, by configuration
            by_config = {}
            for g in prof["groups"]:
                grid = g["grid"][0] * g["grid"][1] * g["grid"][2]
                key = (tuple(g["block"]), grid, g["registers_per_thread"], g["static_smem_bytes"],
                       g["dyn_smem_bytes"])
                by_config.setdefault(key, set()).add(g["theoretical_occupancy"])
            ncu_equal = ncu_matched = 0
            for k in ncu["kernels"]:
                key = (tuple(k["block"]), k["grid_size"], k["registers_per_thread"],
                       k["static_smem_bytes"], k["dyn_smem_bytes"])
                if key not in by_config:
                    continue  # a launch of the warm-up the recorder saw differently
                ncu_matched += 1
                values = by_config[key]
                if values == {k["ncu_theoretical_occupancy"]}:
                    ncu_equal += 1
                else:
                    failures.append(f"{w}: ncu launch {k['id']} {k['name'][:60]}: ncu "
                                    f"{k['ncu_theoretical_occupancy']}, occ profile {sorted(values)}")
            causes = kin["checks"]["kineto"]["by_cause"]
            if causes.get("unexplained"):
                failures.append(f"{w}: {causes['unexplained']} Kineto launches unexplained")
            rows.append((w, k_lines, prof["launches_read"], smem["launches"], smem["differ"],
                         len(ncu["kernels"]), ncu_matched, ncu_equal,
                         kin["launches_read"], kin["checks"]["kineto"]["launches"], causes))
            totals["records"] += k_lines
            totals["read"] += prof["launches_read"]
            totals["smem"] += smem["launches"]
            totals["smem_differ"] += smem["differ"]
            totals["ncu"] += ncu_matched
            totals["ncu_equal"] += ncu_equal
            totals["kineto"] += kin["checks"]["kineto"]["launches"]
            for c, n in causes.items():
                totals["causes"][c] = totals["causes"].get(c, 0) + n
        # the second run's databases, written by `occ lab trace` on the H200
        for label, name in (("sweep (occ lab trace)", "sweep.sqlite"),
                            ("train (occ lab trace)", "train-lab-trace.sqlite.gz")):
            db = data / name
            if name.endswith(".gz"):
                db = Path(tmp) / name[:-3]
                with gzip.open(data / name, "rb") as f:
                    db.write_bytes(f.read())
            prof = occ_json(occ, ["profile", str(db)])
            smem = prof["checks"]["smem_config"]
            if smem["differ"] or smem["launches"] != prof["launches_read"]:
                failures.append(f"{label}: {smem['differ']} of {smem['launches']} launches differ")
            kin_causes = {}
            kin_n = ""
            if name == "sweep.sqlite":
                kin = occ_json(occ, ["profile", str(data / "kineto-sweep.json.gz")])
                kin_causes = kin["checks"]["kineto"]["by_cause"]
                kin_n = kin["checks"]["kineto"]["launches"]
                if kin_causes.get("unexplained"):
                    failures.append(f"{label}: {kin_causes['unexplained']} Kineto launches unexplained")
                totals["kineto"] += kin_n
                for c, n in kin_causes.items():
                    totals["causes"][c] = totals["causes"].get(c, 0) + n
            rows.append((label, "", prof["launches_read"], smem["launches"], smem["differ"], "", "",
                         "", kin_n, kin_n, kin_causes))
            totals["read"] += prof["launches_read"]
            totals["smem"] += smem["launches"]
            totals["smem_differ"] += smem["differ"]
    lines = ["| workload | CUPTI launches | read | sharedMemoryExecuted checked | differ | "
             "ncu launches | matched to a trace configuration | theoretical equal | "
             "Kineto launches | Kineto: agree / optin / carveout / clusters / threads / "
             "rounding / unexplained |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    order = ("agrees", "optin", "carveout", "clusters", "threads", "rounding", "unexplained")
    for r in rows:
        causes = " / ".join(str(r[10].get(c, 0)) for c in order) if r[10] else ""
        lines.append(f"| {r[0]} | {r[1]} | {r[2]} | {r[3]} | {r[4]} | {r[5]} | {r[6]} | {r[7]} "
                     f"| {r[8]} | {causes} |")
    t = totals
    lines.append(f"| all | {t['records']} | {t['read']} | {t['smem']} | {t['smem_differ']} | | "
                 f"{t['ncu']} | {t['ncu_equal']} | | {t['kineto']}: "
                 + " / ".join(str(t['causes'].get(c, 0)) for c in order) + " |")
    text = "\n".join(lines) + "\n"
    print(text)
    if report:
        report.write_text(text)
    for f in failures:
        print("FAIL", f, file=sys.stderr)
    print(f"{len(failures)} failed, {t['read']} launches read", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
