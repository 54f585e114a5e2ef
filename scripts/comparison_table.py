#!/usr/bin/env python3
"""comparison_table.py - one table of run_cuobjdump_comparison.sh's per-library reports.

usage: comparison_table.py REPORT.md... > table.md

Each report (inspect_vs_cuobjdump.py's report.md of one library) gives one row: the library's
size, cuobjdump's and occ's median wall seconds and the report's speed-up (cuobjdump's
median over occ's, from the unrounded times),
the larger peak RSS of the two occ runs on every core, and the per-function comparison's counts: cuobjdump's
distinct (arch, function) pairs, how many have equal REG, STACK and SHARED in occ, how many
differ, and those only on one side. Rows are sorted by library name.
"""
import re
import sys

TOOLS = {
    "`cuobjdump --dump-resource-usage`": "cuobjdump",
    "`occ inspect --json`": "inspect",
    "`occ inspect --json --functions --all --mangled`": "functions",
    "`occ inspect --json --jobs 1`": "jobs1",
}


def parse(path):
    text = open(path, encoding="utf-8").read()
    row = {"library": None, "mb": None}
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 7 and cells[2] in TOOLS:
            row["library"] = cells[0]
            row["mb"] = cells[1].split()[0]
            speedup = cells[6].rstrip("x")
            row[TOOLS[cells[2]]] = (float(cells[3]), int(cells[5]), speedup)

    def count(pattern):
        m = re.search(pattern, text)
        return int(m.group(1)) if m else None

    row["pairs"] = count(r"- cuobjdump: \d+ function lines, (\d+) distinct")
    raw = count(r"equal with SHARED = occ's raw \.nv\.shared size: (\d+)")
    driver = count(r"equal only with SHARED = occ's driver-sense size: (\d+)")
    row["equal"] = None if raw is None else raw + (driver or 0)
    row["differ"] = count(r"- mismatched: (\d+)")
    row["only_cuobjdump"] = count(r"only in cuobjdump: (\d+)")
    row["only_occ"] = count(r"only in occ: (\d+)")
    return row


def main(paths):
    rows = [r for r in (parse(p) for p in paths) if r["library"] and "cuobjdump" in r]
    print("| library | MB | cuobjdump s | occ inspect s | speed-up | occ --functions --all s "
          "| speed-up | occ peak RSS MiB | cuobjdump (arch, function) | equal | differ "
          "| only cuobjdump | only occ |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in sorted(rows, key=lambda r: r["library"]):
        base = r["cuobjdump"][0]
        cells = [r["library"], r["mb"], f"{base:.3f}"]
        for tool in ("inspect", "functions"):
            cells += [f"{r[tool][0]:.3f}", r[tool][2]] if tool in r else ["", ""]
        rss = [r[t][1] for t in ("inspect", "functions") if t in r]
        cells.append(str(max(rss)) if rss else "")
        cells += ["" if r[k] is None else str(r[k])
                  for k in ("pairs", "equal", "differ", "only_cuobjdump", "only_occ")]
        print("| " + " | ".join(cells) + " |")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: comparison_table.py REPORT.md... > table.md")
    main(sys.argv[1:])
