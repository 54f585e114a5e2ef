#!/usr/bin/env python3
"""analyse_launch_match.py OUTDIR - from run_launch_match.sh's inspect-W.json:
per workload, the GPU time `occ inspect --launches` matched, and of what it
did not match, how much is of kernels that exist in the binaries all the
same (the matcher's misses: a kernel of that base name is among the
binaries' kernels) and how much is of kernels in no binary read (Triton's
and cuDNN's run-time kernels, or libraries not given).

The base name is the demangled name without its return type, template
arguments and parameters ("void at::native::foo<float>(int)" -> "foo"), the
most a difference in demangling style can leave alike."""
import json
import re
import sys
from pathlib import Path


def base(name):
    s = name
    depth = 0
    out = []
    for c in s:  # drop template arguments
        if c == '<':
            depth += 1
        elif c == '>':
            depth = max(depth - 1, 0)
        elif depth == 0:
            out.append(c)
    s = ''.join(out)
    s = s.split('(')[0].strip()
    s = s.split(' ')[-1]
    return s.split('::')[-1]


def main():
    out = Path(sys.argv[1])
    for path in sorted(out.glob("inspect-*.json")):
        try:
            doc = json.loads(path.read_text())
        except ValueError as e:
            print(f"{path.name}: not JSON ({e})")
            continue
        m = doc["launch_match"]
        bases = {base(f["name"]) for f in doc["functions"]}
        share = m["matched_time_share"]
        missed = [u for u in m["unmatched"] if base(u["name"]) in bases]
        absent = [u for u in m["unmatched"] if base(u["name"]) not in bases]
        missed_share = sum(u["time_share"] for u in missed)
        absent_share = sum(u["time_share"] for u in absent)
        exists = share + missed_share
        rate = share / exists if exists > 0 else 1.0
        print(f"{path.stem[8:]}: {m['launches']} configurations, {m['matched']} matched; GPU time "
              f"matched {100 * share:.2f}%, in no binary read {100 * absent_share:.2f}%, "
              f"in the binaries but missed {100 * missed_share:.2f}%: "
              f"{100 * rate:.2f}% of the time of kernels that exist is matched")
        for u in sorted(missed, key=lambda u: -u["time_share"])[:10]:
            print(f"    missed  {100 * u['time_share']:6.2f}%  {u['name'][:160]}")
        for u in sorted(absent, key=lambda u: -u["time_share"])[:5]:
            print(f"    absent  {100 * u['time_share']:6.2f}%  {u['name'][:160]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
