#!/usr/bin/env python3
"""inspect_vs_cuobjdump.py - occ inspect against cuobjdump on large CUDA libraries.

For each library: times `cuobjdump --dump-resource-usage LIB` and `occ inspect --json LIB`
side by side (wall time and the child's peak RSS from wait4), then compares every function's
registers, stack and shared memory between the two (occ run with --functions --mangled so
device functions and raw names line up with cuobjdump's). cuobjdump reads the containers of
.nv_fatbin; occ also reads containers kept in other sections (each JSON row names its
section), so the comparison is over occ's .nv_fatbin rows, and the others are counted apart.
occ runs with OCC_INSPECT_TIMING=1: the report keeps its per-step seconds.

usage: inspect_vs_cuobjdump.py OCC OUT_DIR [LIB...]
  OCC_COMPARE_RUNS=N sets the timed runs per tool (default 3).
  Functions are read with `occ inspect --functions --all`; its __nv_relfatbin rows (pre-link
  -rdc copies, which cuobjdump lists only with -all) are counted apart from the comparison.
  default LIBs: /usr/local/cuda/lib64/libcublasLt.so.13 and torch's lib/libtorch_cuda.so
Writes OUT_DIR/report.md (timings, match counts, first mismatches) and prints it.
"""
import collections
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import time

RUNS = int(os.environ.get("OCC_COMPARE_RUNS", "3"))


def run_timed(cmd, stdout_path):
    """Runs cmd with stdout to a file; returns (wall seconds, peak RSS MiB, exit code, stderr)."""
    env = dict(os.environ, OCC_INSPECT_TIMING="1")
    with open(stdout_path, "wb") as out:
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.PIPE, env=env)
        # wait4 gives this child's own rusage, so the peak RSS is the tool's alone.
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        err = proc.stderr.read().decode(errors="replace")
        proc.stderr.close()
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        print(f"{cmd[0]} exited {code}: {err[-2000:]}", file=sys.stderr)
    return wall, usage.ru_maxrss / 1024.0, code, err


def parse_cuobjdump(path):
    """Counter of (arch, name, REG, STACK, SHARED) over every function cuobjdump lists."""
    functions = collections.Counter()
    arch = None
    name = None
    func_re = re.compile(r"^\s*Function (\S+):\s*$")
    res_re = re.compile(r"REG:(\d+) STACK:(\d+) SHARED:(\d+)")
    with open(path, errors="replace") as f:
        for line in f:
            if line.startswith("arch = "):
                arch = line.split("=", 1)[1].strip()
                continue
            m = func_re.match(line)
            if m:
                name = m.group(1)
                continue
            m = res_re.search(line)
            if m and name is not None:
                functions[(arch, name, int(m.group(1)), int(m.group(2)), int(m.group(3)))] += 1
                name = None
    return functions


def parse_occ(path):
    """Distinct functions from occ inspect --json: (arch, mangled) -> list of records."""
    with open(path) as f:
        doc = json.load(f)
    return doc


def compare(lib, cuob, occ_doc, report):
    # cuobjdump prints one line per function per cubin; occ merges identical copies and
    # says how many. Compare the distinct records, and the totals.
    cuob_keys = collections.defaultdict(set)
    for (arch, name, reg, stack, shared), n in cuob.items():
        cuob_keys[(arch, name)].add((reg, stack, shared))
    occ_keys = collections.defaultdict(set)
    occ_total = 0
    elsewhere = collections.Counter()   # (section, arch) -> functions outside .nv_fatbin
    elsewhere_keys = set()
    for fn in occ_doc["functions"]:
        section = fn.get("section") or ".nv_fatbin"
        # cuobjdump without -all skips __nv_relfatbin of a linked library (pre-link -rdc
        # copies kept beside the linked code): occ's rows from it are counted apart, with
        # other sections'. An archive's members are objects, never linked: cuobjdump lists
        # the __nv_relfatbin code of some (libcudadevrt.a's, whose members have no
        # .nv_fatbin) and not of others (846 sm_100a kernels of libcublasLt_static.a), so
        # there the rows of functions cuobjdump lists are compared and the rest counted apart.
        compared = section == ".nv_fatbin" or (
            section == "__nv_relfatbin" and lib.endswith(".a")
            and (fn["arch"], fn["mangled"]) in cuob_keys)
        if not compared:
            elsewhere[(section, fn["arch"])] += 1
            elsewhere_keys.add((fn["arch"], fn["mangled"]))
            continue
        occ_total += fn["count"]
        raw = fn["smem_section_bytes"]
        occ_keys[(fn["arch"], fn["mangled"])].add((fn["regs"], fn["stack_bytes"], raw,
                                                   fn["smem_bytes"]))
    both = set(cuob_keys) & set(occ_keys)
    only_cuob = sorted(set(cuob_keys) - set(occ_keys))
    only_occ = sorted(set(occ_keys) - set(cuob_keys))
    equal_raw = 0      # cuobjdump SHARED == occ's raw .nv.shared size
    equal_driver = 0   # cuobjdump SHARED == occ's driver-sense size only (raw differs)
    mismatches = []
    for key in sorted(both):
        c = cuob_keys[key]
        o = occ_keys[key]
        c_set = {(r, s, sh) for (r, s, sh) in c}
        o_raw = {(r, s, raw) for (r, s, raw, drv) in o}
        o_drv = {(r, s, drv) for (r, s, raw, drv) in o}
        if c_set == o_raw:
            equal_raw += 1
        elif c_set == o_drv:
            equal_driver += 1
        else:
            mismatches.append((key, sorted(c), sorted(o)))
    arch_counts = collections.Counter(a for a, _ in both)
    report.append(f"\n### Per-function comparison: {lib}\n")
    report.append(f"- cuobjdump: {sum(cuob.values())} function lines, "
                  f"{len(cuob_keys)} distinct (arch, name)")
    compared_sections = ".nv_fatbin, __nv_relfatbin" if lib.endswith(".a") else ".nv_fatbin"
    report.append(f"- occ inspect --functions, {compared_sections}: {occ_total} functions read into "
                  f"{sum(len(v) for v in occ_keys.values())} distinct records, "
                  f"{len(occ_keys)} distinct (arch, name)")
    report.append(f"- occ, other sections (not read by cuobjdump): "
                  f"{sum(elsewhere.values())} distinct records: "
                  + (", ".join(f"{sec} {a} {n}" for (sec, a), n in sorted(elsewhere.items()))
                     or "none")
                  + f"; of their (arch, name), {len(elsewhere_keys & set(cuob_keys))} are in "
                  f"cuobjdump's list and {len({n for _, n in elsewhere_keys} & {n for _, n in occ_keys})} "
                  f"of their names are among occ's .nv_fatbin names (any arch)")
    report.append(f"- (arch, name) in both: {len(both)}; archs: "
                  + ", ".join(f"{a} {n}" for a, n in sorted(arch_counts.items())))
    report.append(f"- REG, STACK and SHARED equal with SHARED = occ's raw .nv.shared size: "
                  f"{equal_raw}")
    report.append(f"- equal only with SHARED = occ's driver-sense size: {equal_driver}")
    report.append(f"- mismatched: {len(mismatches)}")
    report.append(f"- only in cuobjdump: {len(only_cuob)}; only in occ: {len(only_occ)}")
    for key, c, o in mismatches[:15]:
        report.append(f"  - mismatch {key}: cuobjdump {c} occ (reg, stack, raw, driver) {o}")
    for key in only_cuob[:10]:
        report.append(f"  - only cuobjdump: {key} {sorted(cuob_keys[key])}")
    for key in only_occ[:10]:
        report.append(f"  - only occ: {key} {sorted(occ_keys[key])}")
    # the reserved-prefix rule, by arch: how cuobjdump's SHARED relates to occ's raw size
    rule = collections.Counter()
    for key in both:
        arch = key[0]
        for (r, s, raw, drv) in occ_keys[key]:
            for (cr, cs, csh) in cuob_keys[key]:
                if cr == r and cs == s:
                    rule[(arch, "raw" if csh == raw else "driver" if csh == drv else "other")] += 1
    report.append("- SHARED rule by arch (cuobjdump SHARED equals occ's raw / driver size): "
                  + ", ".join(f"{a}:{k} {n}" for (a, k), n in sorted(rule.items())))
    return len(mismatches) == 0 and not only_cuob


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    occ = os.path.abspath(sys.argv[1])
    out_dir = sys.argv[2]
    os.makedirs(out_dir, exist_ok=True)
    libs = sys.argv[3:]
    if not libs:
        libs = ["/usr/local/cuda/lib64/libcublasLt.so.13"]
        try:
            torch_dir = subprocess.check_output(
                [sys.executable, "-c", "import torch,os;print(os.path.dirname(torch.__file__))"],
                text=True).strip()
            libs.append(os.path.join(torch_dir, "lib", "libtorch_cuda.so"))
        except (subprocess.CalledProcessError, OSError):
            print("torch not found: libtorch_cuda.so skipped", file=sys.stderr)
    cuobjdump = shutil.which("cuobjdump") or "/usr/local/cuda/bin/cuobjdump"
    scratch = "/tmp/occ-vs-cuobjdump"
    os.makedirs(scratch, exist_ok=True)
    report = ["# occ inspect vs cuobjdump --dump-resource-usage", ""]
    report.append(f"- date: {time.strftime('%Y-%m-%d %H:%M:%S %Z')}")
    report.append(f"- command: {' '.join(sys.argv)}")
    report.append(f"- CPU cores: {os.cpu_count()}")
    for cmd in (["nvidia-smi", "--query-gpu=name,driver_version", "--format=csv,noheader"],
                [cuobjdump, "--version"], [occ, "--version"]):
        try:
            text = subprocess.check_output(cmd, text=True, stderr=subprocess.STDOUT).strip()
            report.append(f"- `{' '.join(os.path.basename(c) for c in cmd[:1])}`: "
                          + text.splitlines()[-1])
        except (subprocess.CalledProcessError, OSError) as e:
            report.append(f"- `{cmd[0]}`: unavailable ({e})")
    try:
        model = [l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo")
                 if l.startswith("model name")][0]
        report.append(f"- CPU: {model}")
    except (OSError, IndexError):
        pass
    report.append("")
    report.append(f"Timings: median of {RUNS} runs each after one untimed read of the file "
                  "(page cache warm); peak RSS is the child's ru_maxrss.")
    report.append("")
    report.append("| library | size | tool | wall s (median) | runs | peak RSS MiB | speed-up |")
    report.append("|---|---|---|---|---|---|---|")
    all_ok = True
    details = []
    step_lines = []
    for lib in libs:
        if not os.path.exists(lib):
            report.append(f"| {lib} | missing | | | | | |")
            all_ok = False
            continue
        with open(lib, "rb") as f:
            while f.read(1 << 24):
                pass
        size_mb = os.path.getsize(lib) / 1e6
        base = os.path.join(scratch, os.path.basename(lib))
        tools = [
            ("cuobjdump --dump-resource-usage", [cuobjdump, "--dump-resource-usage", lib],
             base + ".cuobjdump.txt"),
            ("occ inspect --json", [occ, "inspect", "--json", lib], base + ".occ.json"),
            ("occ inspect --json --functions --all --mangled",
             [occ, "inspect", "--json", "--functions", "--all", "--mangled", lib],
             base + ".occ-all.json"),
            ("occ inspect --json --jobs 1", [occ, "inspect", "--json", "--jobs", "1", lib],
             base + ".occ-1.json"),
        ]
        cuob_median = None
        for label, cmd, out_path in tools:
            walls, rss = [], []
            code = 0
            runs = 1 if "--jobs 1" in label else RUNS
            for _ in range(runs):
                w, r, code, err = run_timed(cmd, out_path)
                walls.append(w)
                rss.append(r)
                steps = [l for l in err.splitlines() if "seconds:" in l]
                if steps and label.startswith("occ"):
                    step_lines.append(f"- {os.path.basename(lib)}, `{label}`, "
                                      f"{w:.3f} s: {steps[-1].split('seconds:', 1)[1].strip()}")
            med = statistics.median(walls)
            if cuob_median is None:
                cuob_median = med
            speed = f"{cuob_median / med:.1f}x" if med > 0 else ""
            report.append(f"| {os.path.basename(lib)} | {size_mb:.0f} MB | `{label}` | {med:.3f}"
                          f" | {', '.join(f'{w:.3f}' for w in walls)} | {max(rss):.0f} | "
                          f"{speed if not label.startswith('cuobjdump') else ''} |")
            all_ok = all_ok and code == 0
        try:
            ok = compare(os.path.basename(lib), parse_cuobjdump(base + ".cuobjdump.txt"),
                         parse_occ(base + ".occ-all.json"), details)
        except (OSError, ValueError, KeyError) as e:
            details.append(f"\ncomparison for {lib} failed: {e}")
            ok = False
        all_ok = all_ok and ok
    if step_lines:
        details.append("\n### occ's steps (OCC_INSPECT_TIMING), seconds of each run\n")
        details.extend(step_lines)
    text = "\n".join(report + details) + "\n"
    with open(os.path.join(out_dir, "report.md"), "w") as f:
        f.write(text)
    print(text)
    # keep a sample of cuobjdump's output: the format occ is compared against
    for lib in libs:
        path = os.path.join(scratch, os.path.basename(lib) + ".cuobjdump.txt")
        if os.path.exists(path):
            with open(path, errors="replace") as f, \
                    open(os.path.join(out_dir, os.path.basename(lib) + ".cuobjdump-head.txt"),
                         "w") as g:
                for i, line in enumerate(f):
                    if i >= 200:
                        break
                    g.write(line)
    return 0 if all_ok else 1


if __name__ == "__main__":
    sys.exit(main())
