#!/usr/bin/env python3
"""analyse_regs.py - the regret table of `occ lab regs` (issue 20).

Reads the records lab/regs/regs_bench wrote (one JSON object a line) and,
optionally, the `ptxas -v` logs beside the cubins and a recommended cap for
each kernel, and scores the caps against the measured best:

    regret(cap) = time at cap / best time - 1

for three choices a kernel: "no cap"; the cap that maximises occupancy
(the most blocks an SM, the highest such cap on a tie); and the recommended
cap (`occ regs --json`, or a plain mapping). The issue's goal for the
recommendation: a median regret of at most 1.5 %, a maximum of at most 5 %,
and never more than 1 % slower than no cap on any kernel.

    analyse_regs.py RECORDS.jsonl [--logs CUBIN_DIR] [--recommended FILE|DIR]
                    [--metric median_ms|min_ms] [--tolerance REL]
                    [--markdown OUT.md] [--per-cap]

A time counts only when the record is "checked" (finite outputs, bit-equal
to the kernel's reference cubin); a cap that hung, failed or computed
something else has no time and an infinite regret. --tolerance REL also
counts a cap whose outputs are all finite but not bit-equal when its
checksum is within REL x the reference's sum of magnitudes (ptxas may fuse
a multiply and an add differently at another cap); such times carry a '*'. --recommended takes a
mapping {"kernel": cap or null}, an occ.regs document (its kernels'
"recommended_cap"), a mapping of kernel names to occ.regs documents, or a
directory of NAME.json occ.regs documents, one a kernel (regs_bench's
kernels are all named `kernel`, so a document is matched to the table's
name by its file name). A recommended cap that was not measured is scored
at the highest measured cap below it, and marked.

Python 3 standard library only. Exit status: 0, 1 on an unreadable or
malformed input, 2 on a usage error.
"""
import argparse
import json
import math
import os
import re
import statistics
import sys

GOAL_MEDIAN = 0.015  # issue 20: median regret at most 1.5 %
GOAL_MAX = 0.05  # ... maximum at most 5 %
GOAL_VS_NONE = 0.01  # ... never more than 1 % slower than no cap

NONE = None  # the no-cap compile's cap


class InputError(Exception):
    """An input that cannot be read: one line, naming the file."""


def cap_label(cap):
    return "none" if cap is None else str(cap)


def cap_order(cap):
    """No cap sorts above every cap (it is the unconstrained compile)."""
    return 256 if cap is None else cap


# --- reading -------------------------------------------------------------------


def load_records(path):
    """(header or None, {kernel: {"times": {cap: record}, "errors": {cap: record}}})."""
    header = None
    kernels = {}
    try:
        with open(path, encoding="utf-8") as f:
            for number, line in enumerate(f, 1):
                line = line.strip()
                if not line:
                    continue
                try:
                    r = json.loads(line)
                except json.JSONDecodeError as e:
                    raise InputError(f"{path}: line {number}: not JSON: {e.msg}") from None
                kind = r.get("record") if isinstance(r, dict) else None
                if kind == "regs_header":
                    header = r
                elif kind in ("regs_time", "regs_error") and "kernel" in r:
                    k = kernels.setdefault(r["kernel"], {"times": {}, "errors": {}})
                    cap = r.get("cap")
                    if cap is not None and not isinstance(cap, int):
                        raise InputError(f"{path}: line {number}: cap {cap!r} is not a number")
                    (k["times"] if kind == "regs_time" else k["errors"])[cap] = r
    except OSError as e:
        raise InputError(f"{path}: {e.strerror}") from None
    return header, kernels


LOG_NAME = re.compile(r"^(?P<kernel>.+)\.(?:none|cap(?P<cap>\d+))\.log$")
LOG_MESSAGE = re.compile(r"\((C\d{4})\)")


def parse_ptxas_log(text):
    """The figures `ptxas -v` prints for the one kernel of a log."""
    out = {"regs": None, "spill_store_bytes": 0, "spill_load_bytes": 0, "stack_bytes": 0,
           "messages": sorted(set(LOG_MESSAGE.findall(text))),
           "cap_overridden": "computed using thread count" in text}
    m = re.search(r"Used (\d+) registers", text)
    if m:
        out["regs"] = int(m.group(1))
    m = re.search(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads",
                  text)
    if m:
        out["stack_bytes"] = int(m.group(1))
        out["spill_store_bytes"] = int(m.group(2))
        out["spill_load_bytes"] = int(m.group(3))
    return out


def load_logs(directory):
    """{kernel: {cap: parsed log}} from NAME.none.log and NAME.capNNN.log."""
    logs = {}
    try:
        names = os.listdir(directory)
    except OSError as e:
        raise InputError(f"{directory}: {e.strerror}") from None
    for name in names:
        m = LOG_NAME.match(name)
        if not m:
            continue
        cap = int(m.group("cap")) if m.group("cap") else None
        with open(os.path.join(directory, name), encoding="utf-8", errors="replace") as f:
            logs.setdefault(m.group("kernel"), {})[cap] = parse_ptxas_log(f.read())
    return logs


def _doc_caps(doc, where):
    """{kernel name: cap} from one occ.regs document."""
    entries = doc.get("kernels")
    if isinstance(entries, dict):
        entries = [dict(v, name=k) for k, v in entries.items()]
    if not isinstance(entries, list):
        raise InputError(f"{where}: an occ.regs document without a list of kernels")
    caps = {}
    for e in entries:
        if not isinstance(e, dict) or "recommended_cap" not in e:
            raise InputError(f"{where}: a kernel without recommended_cap")
        caps[e.get("name") or e.get("mangled")] = _cap_value(e["recommended_cap"], where)
    return caps


def _cap_value(v, where):
    if v is None or v == 0:  # occ regs: null (and the C API's 0) is no cap
        return None
    if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= 255:
        raise InputError(f"{where}: recommended cap {v!r} is not null or 1..255")
    return v


def _single(doc_caps, name, where):
    """The cap a one-kernel document gives kernel `name`."""
    if name in doc_caps:
        return doc_caps[name]
    if len(doc_caps) == 1:
        return next(iter(doc_caps.values()))
    raise InputError(f"{where}: {len(doc_caps)} kernels and none named {name}")


def _is_doc(v):
    return isinstance(v, dict) and "kernels" in v


def load_recommended(path):
    """{kernel: cap (None: no cap)}."""
    def read(p):
        try:
            with open(p, encoding="utf-8") as f:
                return json.load(f)
        except OSError as e:
            raise InputError(f"{p}: {e.strerror}") from None
        except json.JSONDecodeError as e:
            raise InputError(f"{p}: not JSON: {e.msg}") from None

    if os.path.isdir(path):
        caps = {}
        for name in sorted(os.listdir(path)):
            if name.endswith(".json"):
                p = os.path.join(path, name)
                doc = read(p)
                if not _is_doc(doc):
                    raise InputError(f"{p}: not an occ.regs document")
                kernel = name[: -len(".json")]
                caps[kernel] = _single(_doc_caps(doc, p), kernel, p)
        return caps
    data = read(path)
    if _is_doc(data):
        caps = _doc_caps(data, path)
        if list(caps) == ["kernel"]:
            raise InputError(f"{path}: one occ.regs document names its kernel 'kernel'; give one "
                             "document a kernel (a directory of NAME.json, or a mapping)")
        return caps
    if not isinstance(data, dict):
        raise InputError(f"{path}: neither a mapping of kernels nor an occ.regs document")
    caps = {}
    for kernel, v in data.items():
        where = f"{path}: {kernel}"
        if _is_doc(v):
            caps[kernel] = _single(_doc_caps(v, where), kernel, where)
        elif isinstance(v, dict) and "recommended_cap" in v:
            caps[kernel] = _cap_value(v["recommended_cap"], where)
        else:
            caps[kernel] = _cap_value(v, where)
    return caps


# --- scoring -------------------------------------------------------------------


def _within_tolerance(kernel, record, tolerance):
    """Finite outputs whose checksum is within tolerance of the reference's."""
    if tolerance <= 0 or record.get("finite_outputs") != record.get("outputs"):
        return False
    ref = kernel["times"].get(record.get("reference_cap"))
    if ref is None or not ref.get("checked"):
        return False
    try:
        scale = ref.get("abs_checksum") or abs(ref["checksum"])
        return abs(record["checksum"] - ref["checksum"]) <= tolerance * scale
    except (KeyError, TypeError):
        return False


def _counts(kernel, record, tolerance):
    """"ok" (checked), "tolerated" (--tolerance), or None: the time does not count."""
    if record is None:
        return None
    if record.get("checked"):
        return "ok"
    return "tolerated" if _within_tolerance(kernel, record, tolerance) else None


def _time(kernel, record, metric, tolerance=0.0):
    """The record's time when it counts, else None."""
    if _counts(kernel, record, tolerance) is None:
        return None
    t = record.get(metric)
    return t if isinstance(t, (int, float)) and t > 0 else None


def _failure(kernel, cap):
    """Why a cap has no time, in a few words."""
    t = kernel["times"].get(cap)
    if t is not None:
        return "wrong output" if not t.get("checked") else "no time"
    e = kernel["errors"].get(cap)
    if e is not None:
        return {"hang": "hangs", "occupancy": "cannot launch"}.get(e.get("stage"), "failed")
    return "not measured"


def score_kernel(name, kernel, metric, recommended=None, has_recommendation=False, logs=None,
                 tolerance=0.0):
    """One kernel's row of the regret table (a dict)."""
    times = {cap: _time(kernel, r, metric, tolerance) for cap, r in kernel["times"].items()}
    valid = {cap: t for cap, t in times.items() if t is not None}
    tolerated = {cap for cap in valid
                 if _counts(kernel, kernel["times"][cap], tolerance) == "tolerated"}
    row = {"kernel": name, "caps_measured": len(valid), "caps_tolerated": len(tolerated),
           "best_cap": None, "best_ms": None}
    logs = logs or {}

    def choice(cap, key, approx=False):
        t = valid.get(cap)
        row[key] = {
            "cap": cap,
            "ms": t,
            "regret": (t / row["best_ms"] - 1.0) if t is not None and row["best_ms"] else math.inf,
            "failure": None if t is not None else _failure(kernel, cap),
            "blocks_per_sm": _blocks(kernel, cap),
            "regs": _regs(kernel, cap, logs),
            "spill_bytes": _spill(logs, cap),
            "approximate": approx,
            "tolerated": cap in tolerated,
        }

    if not valid:
        row["note"] = "no cap measured correctly"
        return row
    best_cap = min(valid, key=lambda c: (valid[c], -cap_order(c)))
    row["best_cap"], row["best_ms"] = best_cap, valid[best_cap]
    choice(best_cap, "best")
    choice(NONE, "none")
    # The occupancy choice sees every cap the driver reported blocks for,
    # also those that then hung or computed wrong: a planner picks it blind.
    blocks = {cap: _blocks(kernel, cap) for cap in set(kernel["times"]) | set(kernel["errors"])}
    blocks = {c: b for c, b in blocks.items() if c is not None and b is not None}
    if blocks:
        most = max(blocks.values())
        choice(max(c for c, b in blocks.items() if b == most), "occupancy")
    if has_recommendation:
        cap, approx = recommended, False
        if cap is not None and cap not in kernel["times"] and cap not in kernel["errors"]:
            below = [c for c in set(kernel["times"]) | set(kernel["errors"])
                     if c is not None and c < cap]
            cap, approx = (max(below), True) if below else (cap, False)
        choice(cap, "recommended", approx)
        row["recommended"]["asked"] = recommended
        none_ms = row["none"]["ms"]
        rec_ms = row["recommended"]["ms"]
        row["recommended"]["vs_none"] = (rec_ms / none_ms - 1.0
                                         if rec_ms is not None and none_ms is not None
                                         else math.inf if rec_ms is None else None)
    return row


# An error record of the first H200 run carries these only in its words:
# "(40 registers a thread, 4 blocks an SM)".
ERROR_BLOCKS = re.compile(r"(\d+) blocks an SM")
ERROR_REGS = re.compile(r"(\d+) registers a thread")


def _from_record(kernel, cap, field, words):
    r = kernel["times"].get(cap) or kernel["errors"].get(cap) or {}
    v = r.get(field)
    if isinstance(v, int) and v >= 0:
        return v
    m = words.search(r.get("error") or "")
    return int(m.group(1)) if m else None


def _blocks(kernel, cap):
    return _from_record(kernel, cap, "blocks_per_sm", ERROR_BLOCKS)


def _regs(kernel, cap, logs):
    regs = _from_record(kernel, cap, "regs", ERROR_REGS)
    return regs if regs is not None else (logs.get(cap) or {}).get("regs")


def _spill(logs, cap):
    log = logs.get(cap)
    return None if log is None else log["spill_store_bytes"] + log["spill_load_bytes"]


def summarise(rows, key):
    """Median and max regret of choice `key` over the rows that have it."""
    regrets = [r[key]["regret"] for r in rows if key in r]
    if not regrets:
        return None
    out = {"kernels": len(regrets), "median": statistics.median(regrets), "max": max(regrets)}
    if key == "recommended":
        worse = [r["kernel"] for r in rows if key in r and r[key]["vs_none"] is not None
                 and r[key]["vs_none"] > GOAL_VS_NONE]
        out["worse_than_none"] = worse
        out["goal_median"] = out["median"] <= GOAL_MEDIAN
        out["goal_max"] = out["max"] <= GOAL_MAX
        out["goal_vs_none"] = not worse
    return out


def misses(rows):
    """Kernels whose recommendation misses: above the median goal's regret,
    or more than 1 % slower than no cap, with the reason."""
    out = []
    for r in rows:
        rec = r.get("recommended")
        if rec is None:
            continue
        reasons = []
        if rec["failure"]:
            reasons.append(f"cap {cap_label(rec['cap'])} {rec['failure']}")
        elif rec["regret"] > GOAL_MEDIAN:
            reasons.append(f"{pct(rec['regret'])} from the best (cap {cap_label(r['best_cap'])})")
        if rec.get("vs_none") is not None and rec["vs_none"] > GOAL_VS_NONE and not rec["failure"]:
            reasons.append(f"{pct(rec['vs_none'])} slower than no cap")
        if reasons:
            out.append((r["kernel"], "; ".join(reasons)))
    return out


# --- output --------------------------------------------------------------------


def pct(x):
    if x is None:
        return "-"
    if math.isinf(x):
        return "inf"
    return f"{100.0 * x:+.1f}%" if x < 0 else f"{100.0 * x:.1f}%"


def ms(x):
    return "-" if x is None else f"{x:.4f}"


def _cell(choice):
    if choice is None:
        return ["-", "-", "-", "-"]
    cap = cap_label(choice["cap"]) + ("~" if choice.get("approximate") else "")
    blocks = "-" if choice["blocks_per_sm"] is None else str(choice["blocks_per_sm"])
    time = (ms(choice["ms"]) + ("*" if choice.get("tolerated") else "")
            if choice["ms"] is not None else choice["failure"])
    return [cap, blocks, time, pct(choice["regret"])]


COLUMNS = ["kernel", "best", "best ms", "none blk", "none ms", "none regret",
           "occ cap", "occ blk", "occ ms", "occ regret", "rec cap", "rec blk", "rec ms",
           "rec regret"]


def table_rows(rows):
    out = []
    for r in rows:
        if r["best_ms"] is None:
            out.append([r["kernel"], "-", r.get("note", "-")] + ["-"] * (len(COLUMNS) - 3))
            continue
        none = _cell(r.get("none"))[1:]
        out.append([r["kernel"], cap_label(r["best_cap"]), ms(r["best_ms"])] + none
                   + _cell(r.get("occupancy")) + _cell(r.get("recommended")))
    return out


def render_text(rows, summaries, missed):
    cells = [COLUMNS] + table_rows(rows)
    widths = [max(len(str(row[i])) for row in cells) for i in range(len(COLUMNS))]
    lines = ["  ".join(str(c).ljust(w) for c, w in zip(row, widths)).rstrip() for row in cells]
    lines.append("")
    lines.extend(summary_lines(summaries, missed))
    return "\n".join(lines) + "\n"


def summary_lines(summaries, missed):
    names = {"none": "no cap", "occupancy": "the cap that maximises occupancy",
             "recommended": "the recommended cap"}
    lines = []
    outputs = summaries.get("outputs") or {}
    if outputs.get("not_checked"):
        lines.append(f"{outputs['not_checked']} measured caps did not pass the output check "
                     f"(not all finite, or not bit-equal to the reference cubin); "
                     f"{outputs['tolerated']} of them count within --tolerance "
                     f"{outputs['tolerance']:g} (times marked *)")
    for key in ("none", "occupancy", "recommended"):
        s = summaries.get(key)
        if s is None:
            continue
        lines.append(f"{names[key]}: median regret {pct(s['median'])}, max {pct(s['max'])} "
                     f"over {s['kernels']} kernels")
    rec = summaries.get("recommended")
    if rec is not None:
        def verdict(ok):
            return "met" if ok else "MISSED"
        lines.append(f"goal: median <= {pct(GOAL_MEDIAN)} {verdict(rec['goal_median'])}; "
                     f"max <= {pct(GOAL_MAX)} {verdict(rec['goal_max'])}; never more than "
                     f"{pct(GOAL_VS_NONE)} slower than no cap {verdict(rec['goal_vs_none'])}"
                     + (f" ({', '.join(rec['worse_than_none'])})" if rec["worse_than_none"]
                        else ""))
        if missed:
            lines.append("recommendations that miss (the model's next work):")
            lines.extend(f"  {k}: {why}" for k, why in missed)
        else:
            lines.append("no recommendation misses")
    return lines


def render_markdown(rows, summaries, missed, header, metric, kernels=None, logs=None,
                    per_cap=False, tolerance=0.0):
    out = ["# `occ lab regs`: register caps measured", ""]
    if header:
        out.append(f"Measured on {header.get('device', '?')} "
                   f"({header.get('sm_count', '?')} SMs, driver {header.get('driver') or '?'}, "
                   f"CUDA driver API {header.get('cuda_driver_version', '?')}); "
                   f"{header.get('runs', '?')} timed launches a cap after "
                   f"{header.get('warmups', '?')} warm-ups, n = {header.get('n', '?')} floats.")
        out.append("")
    out.append(f"Times are the {metric.replace('_ms', '')} in ms; regret = time / best - 1. "
               "`occ` is the cap with the most blocks an SM (the highest on a tie); `rec` the "
               "recommended cap (`~`: not measured, scored at the cap below). blk: blocks an SM.")
    out.append("")
    out.append("| " + " | ".join(COLUMNS) + " |")
    out.append("|" + "|".join("---" for _ in COLUMNS) + "|")
    for row in table_rows(rows):
        out.append("| " + " | ".join(str(c) for c in row) + " |")
    out.append("")
    out.extend(f"- {line}" if not line.startswith("  ") else f"  - {line.strip()}"
               for line in summary_lines(summaries, missed))
    if per_cap and kernels:
        out.extend(["", "## Every cap", ""])
        for name in sorted(kernels):
            k = kernels[name]
            klogs = (logs or {}).get(name, {})
            out.extend([f"### {name}", "", "| cap | regs | spill bytes | blocks | "
                        f"{metric} | checked |", "|---|---|---|---|---|---|"])
            caps = sorted(set(k["times"]) | set(k["errors"]), key=cap_order, reverse=True)
            for cap in caps:
                t = k["times"].get(cap)
                spill = _spill(klogs, cap)
                regs = _regs(k, cap, klogs)
                counted = _time(k, t, metric, tolerance)
                time = (ms(counted) + ("*" if t and not t.get("checked") else "")
                        if counted is not None else _failure(k, cap))
                out.append(f"| {cap_label(cap)} | {'-' if regs is None else regs} | "
                           f"{'-' if spill is None else spill} | "
                           f"{'-' if _blocks(k, cap) is None else _blocks(k, cap)} | {time} | "
                           f"{'yes' if t and t.get('checked') else 'no'} |")
            out.append("")
    return "\n".join(out).rstrip() + "\n"


def analyse(records_path, logs_dir=None, recommended_path=None, metric="median_ms",
            tolerance=0.0):
    header, kernels = load_records(records_path)
    logs = load_logs(logs_dir) if logs_dir else {}
    recommended = load_recommended(recommended_path) if recommended_path else {}
    rows = [score_kernel(name, kernels[name], metric, recommended.get(name),
                         name in recommended, logs.get(name), tolerance)
            for name in sorted(kernels)]
    summaries = {key: summarise(rows, key) for key in ("none", "occupancy", "recommended")}
    records = [r for k in kernels.values() for r in k["times"].values()]
    summaries["outputs"] = {
        "not_checked": sum(1 for r in records if not r.get("checked")),
        "tolerated": sum(r["caps_tolerated"] for r in rows if "caps_tolerated" in r),
        "tolerance": tolerance,
    }
    return header, kernels, logs, rows, summaries, misses(rows)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("records", help="regs_bench's records (JSON lines)")
    p.add_argument("--logs", help="the cubin folder, with NAME.none.log and NAME.capNNN.log")
    p.add_argument("--recommended", help="a recommended cap a kernel: a JSON file or a folder")
    p.add_argument("--metric", choices=("median_ms", "min_ms"), default="median_ms")
    p.add_argument("--tolerance", type=float, default=0.0, metavar="REL",
                   help="also count finite outputs whose checksum is within REL of the "
                        "reference's (default 0: bit-equal only)")
    p.add_argument("--markdown", help="write the table and the summary here as markdown")
    p.add_argument("--per-cap", action="store_true", help="in the markdown, every cap's row")
    args = p.parse_args(argv)
    try:
        header, kernels, logs, rows, summaries, missed = analyse(
            args.records, args.logs, args.recommended, args.metric, args.tolerance)
    except InputError as e:
        print(f"analyse_regs.py: {e}", file=sys.stderr)
        return 1
    if not rows:
        print(f"analyse_regs.py: {args.records}: no regs_time or regs_error records",
              file=sys.stderr)
        return 1
    sys.stdout.write(render_text(rows, summaries, missed))
    if args.markdown:
        try:
            with open(args.markdown, "w", encoding="utf-8") as f:
                f.write(render_markdown(rows, summaries, missed, header, args.metric, kernels,
                                        logs, args.per_cap, args.tolerance))
        except OSError as e:
            print(f"analyse_regs.py: {args.markdown}: {e.strerror}", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
