#!/usr/bin/env python3
"""inspect_memory.py - peak memory and time of `occ inspect` (or `occ diff`) on
one input at several thread counts, each run alone in a child process.

usage: bench/inspect_memory.py OCC FILE [--jobs 1,2,4,8,16] [--repeat 2]
                               [--diff] [-- EXTRA OCC ARGUMENTS]

For each --jobs value, runs `OCC inspect --functions --all --jobs N FILE --json`
(with --diff: `OCC diff --functions --jobs N FILE FILE --json`), --repeat
times, and prints one JSON line per run: jobs, the child's peak resident set
(its ru_maxrss from wait4), wall seconds, the exit status and the number
of functions, with this script's own peak (parent_rss_mb), the floor Linux carries
into a child across exec.
The peak must stay at or under 256 MB (README: memory stays bounded).
Standard library only.
"""
import json
import os
import subprocess
import resource
import sys
import tempfile
import time


def count_functions(path):
    """The rows of a JSON document, counted in a process of its own, so that
    this script's peak (which children inherit across exec) stays small."""
    code = ("import json, sys\n"
            "d = json.load(open(sys.argv[1]))\n"
            "print(len(d.get('functions', d.get('kernels', []))) if isinstance(d, dict) else -1)")
    out = subprocess.run([sys.executable, "-c", code, path], capture_output=True, text=True)
    return int(out.stdout) if out.returncode == 0 and out.stdout.strip() else None


def run_once(argv):
    start = time.monotonic()
    with tempfile.NamedTemporaryFile(prefix="inspect-memory-", suffix=".json") as out, \
            tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(argv, stdout=out, stderr=err)
        # The child's own rusage: ru_maxrss is its peak resident set in KiB.
        # Linux carries the forking process's peak across exec, so the figure
        # is at least this script's own (parent_rss_mb): a floor, not a cost.
        # The outputs go to files, never through this process's memory.
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        wall = time.monotonic() - start
        functions = (count_functions(out.name)
                     if proc.returncode == 0 and argv[1] == "inspect" else None)
        out_bytes = os.path.getsize(out.name)
        err.seek(0)
        stderr = err.read()[-300:].decode(errors="replace")
    return {"peak_rss_mb": round(usage.ru_maxrss / 1024, 1), "wall_s": round(wall, 2),
            "exit": proc.returncode, "functions": functions, "json_bytes": out_bytes,
            "stderr": stderr}


def main():
    args = sys.argv[1:]
    extra = []
    if "--" in args:
        extra = args[args.index("--") + 1:]
        args = args[:args.index("--")]
    if len(args) < 2:
        sys.exit(__doc__)
    occ, path = args[0], args[1]
    jobs = [1, 2, 4, 8, 16]
    repeat = 2
    diff = False
    i = 2
    while i < len(args):
        if args[i] == "--jobs":
            jobs = [int(x) for x in args[i + 1].split(",")]
            i += 2
        elif args[i] == "--repeat":
            repeat = int(args[i + 1])
            i += 2
        elif args[i] == "--diff":
            diff = True
            i += 1
        else:
            sys.exit(f"inspect_memory.py: unknown argument {args[i]!r}")
    for n in jobs:
        for r in range(repeat):
            if diff:
                argv = [occ, "diff", "--functions", "--jobs", str(n), path, path, "--json"] + extra
            else:
                argv = [occ, "inspect", "--functions", "--all", "--jobs", str(n), path,
                        "--json"] + extra
            result = run_once(argv)
            parent = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
            result.update({"command": "diff" if diff else "inspect", "jobs": n, "round": r + 1,
                           "parent_rss_mb": round(parent, 1),
                           "file": os.path.basename(path),
                           "file_bytes": os.path.getsize(path)})
            print(json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
