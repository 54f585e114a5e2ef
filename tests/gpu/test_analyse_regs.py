#!/usr/bin/env python3
"""test_analyse_regs.py - analyse_regs.py on small hand-made records (no GPU).

The expected regrets are worked out by hand from the times below, not taken
from the script: alpha's best is cap 64 at 0.90 ms, so no cap (1.00 ms)
regrets 1.00 / 0.90 - 1 = 11.1 % and the 8-block cap 24 (5.00 ms) 455.6 %.

    python3 -m unittest tests/gpu/test_analyse_regs.py    (or run it)
"""
import contextlib
import io
import json
import math
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import analyse_regs as ar  # noqa: E402


def time_record(kernel, cap, median, blocks, regs=32, checked=True, min_ms=None):
    return {"record": "regs_time", "kernel": kernel, "cap": cap, "regs": regs, "local_bytes": 0,
            "blocks_per_sm": blocks, "median_ms": median,
            "min_ms": median if min_ms is None else min_ms, "runs": 21, "checksum": 1.0,
            "checked": checked}


RECORDS = [
    {"record": "regs_header", "device": "NVIDIA H200", "sm_count": 132, "driver": "580.65.06",
     "cuda_driver_version": 13000, "n": 16777216, "warmups": 3, "runs": 21},
    # alpha: a cap below the unconstrained compile's 96 registers adds a block
    # without spilling (64) and is the best; the most blocks (cap 24) spill.
    time_record("alpha", None, 1.00, 2, regs=96),
    time_record("alpha", 24, 5.00, 8, regs=24),
    time_record("alpha", 64, 0.90, 3, regs=64, min_ms=0.88),
    time_record("alpha", 96, 0.98, 2, regs=96),
    time_record("alpha", 255, 1.00, 2, regs=96),
    # beta: every cap has 4 blocks: the occupancy choice is the highest, 40.
    time_record("beta", None, 0.50, 4),
    time_record("beta", 32, 0.50, 4),
    time_record("beta", 40, 0.52, 4),
    # gamma: the cap with the most blocks hangs (a setmaxnreg budget).
    time_record("gamma", None, 2.00, 1, regs=194),
    {"record": "regs_error", "kernel": "gamma", "cap": 24, "stage": "hang", "regs": 24,
     "blocks_per_sm": 4, "error": "launch 1 did not finish within 2 s"},
    time_record("gamma", 168, 2.10, 1, regs=168),
    # delta: the faster cap computed something else: it does not count.
    time_record("delta", None, 1.00, 2),
    time_record("delta", 32, 0.50, 4, checked=False),
    # epsilon: nothing ran correctly.
    time_record("epsilon", None, 1.00, 2, checked=False),
    {"record": "regs_done", "cubins": 14},
]

RECOMMENDED = {"alpha": 64, "beta": None, "gamma": 168, "delta": 40}

LOG_NONE = """ptxas info    : 0 bytes gmem
ptxas info    : Compiling entry function 'kernel' for 'sm_90'
ptxas info    : Function properties for kernel
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 96 registers, used 1 barriers, 8192 bytes smem
"""
LOG_CAP24 = """ptxas info    : Overriding maximum register limit 256 for 'kernel' with  24 of maxrregcount option
ptxas info    : (C7508) Potential Performance Loss: 'setmaxnreg' ignored; unable to determine register count at entry.
ptxas info    : Function properties for kernel
    1144 bytes stack frame, 1144 bytes spill stores, 1188 bytes spill loads
ptxas info    : Used 24 registers, used 0 barriers, 1144 bytes cumulative stack size
"""
LOG_OVERRIDDEN = """ptxas info    : Overriding global maxrregcount 64 with entry-specific value 168 computed using thread count
ptxas info    : Function properties for kernel
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 168 registers, used 5 barriers, 49152 bytes smem
"""


class Files:
    """A temporary folder holding the records, logs and recommendations."""

    def __init__(self):
        self.dir = tempfile.TemporaryDirectory()
        self.path = self.dir.name

    def write(self, name, text):
        p = os.path.join(self.path, name)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "w", encoding="utf-8") as f:
            f.write(text)
        return p

    def records(self, records=RECORDS):
        return self.write("records.jsonl", "".join(json.dumps(r) + "\n" for r in records))

    def close(self):
        self.dir.cleanup()


class AnalyseTest(unittest.TestCase):
    def setUp(self):
        self.files = Files()
        self.records = self.files.records()
        self.rec = self.files.write("rec.json", json.dumps(RECOMMENDED))
        _, _, _, rows, self.summaries, self.missed = ar.analyse(self.records, None, self.rec)
        self.rows = {r["kernel"]: r for r in rows}

    def tearDown(self):
        self.files.close()

    def test_best_and_no_cap_regret(self):  # regret-1
        a = self.rows["alpha"]
        self.assertEqual(a["best_cap"], 64)
        self.assertAlmostEqual(a["best_ms"], 0.90)
        self.assertAlmostEqual(a["none"]["regret"], 1.00 / 0.90 - 1)

    def test_occupancy_cap_spills(self):  # regret-2
        occ = self.rows["alpha"]["occupancy"]
        self.assertEqual((occ["cap"], occ["blocks_per_sm"]), (24, 8))
        self.assertAlmostEqual(occ["regret"], 5.00 / 0.90 - 1)

    def test_occupancy_tie_takes_highest_cap(self):  # regret-3
        occ = self.rows["beta"]["occupancy"]
        self.assertEqual(occ["cap"], 40)
        self.assertAlmostEqual(occ["regret"], 0.52 / 0.50 - 1)

    def test_best_tie_prefers_no_cap(self):  # regret-4
        self.assertIsNone(self.rows["beta"]["best_cap"])

    def test_occupancy_cap_that_hangs(self):  # regret-5
        occ = self.rows["gamma"]["occupancy"]
        self.assertEqual((occ["cap"], occ["blocks_per_sm"], occ["failure"]), (24, 4, "hangs"))
        self.assertTrue(math.isinf(occ["regret"]))

    def test_blocks_read_from_an_error_message(self):  # regret-8
        # the first H200 run's hang records said it only in words
        old = [time_record("k", None, 2.00, 1),
               {"record": "regs_error", "kernel": "k", "cap": 40, "stage": "hang",
                "error": "launch 1 did not finish within 2 s (40 registers a thread, 4 blocks "
                         "an SM): the kernel hangs, and its context is abandoned"},
               time_record("k", 168, 1.90, 1)]
        _, _, _, rows, _, _ = ar.analyse(self.files.records(old))
        occ = rows[0]["occupancy"]
        self.assertEqual((occ["cap"], occ["blocks_per_sm"], occ["regs"], occ["failure"]),
                         (40, 4, 40, "hangs"))

    def test_unchecked_time_does_not_count(self):  # regret-6
        d = self.rows["delta"]
        self.assertIsNone(d["best_cap"])
        self.assertAlmostEqual(d["best_ms"], 1.00)

    def test_kernel_without_a_correct_run(self):  # regret-7
        e = self.rows["epsilon"]
        self.assertIsNone(e["best_ms"])
        self.assertIn("no cap measured correctly", e["note"])

    def test_recommended_regret(self):  # rec-1
        self.assertAlmostEqual(self.rows["alpha"]["recommended"]["regret"], 0.0)
        self.assertAlmostEqual(self.rows["alpha"]["recommended"]["vs_none"], 0.90 / 1.00 - 1)
        self.assertAlmostEqual(self.rows["beta"]["recommended"]["regret"], 0.0)
        self.assertAlmostEqual(self.rows["gamma"]["recommended"]["regret"], 2.10 / 2.00 - 1)

    def test_recommended_cap_not_measured_scores_the_cap_below(self):  # rec-2
        r = self.rows["delta"]["recommended"]
        self.assertEqual((r["asked"], r["cap"], r["approximate"]), (40, 32, True))
        self.assertEqual(r["failure"], "wrong output")
        self.assertTrue(math.isinf(r["regret"]))

    def test_summary_and_goals(self):  # rec-3
        s = self.summaries["recommended"]
        # regrets: alpha 0, beta 0, gamma 5 %, delta inf
        self.assertEqual(s["kernels"], 4)
        self.assertAlmostEqual(s["median"], (0.0 + 0.05) / 2)
        self.assertTrue(math.isinf(s["max"]))
        self.assertFalse(s["goal_median"])
        self.assertFalse(s["goal_max"])
        self.assertEqual(sorted(s["worse_than_none"]), ["delta", "gamma"])
        none = self.summaries["none"]
        self.assertEqual(none["kernels"], 4)  # epsilon has no best
        self.assertAlmostEqual(none["max"], 1.00 / 0.90 - 1)

    def test_misses_name_the_reason(self):  # rec-4
        missed = dict(self.missed)
        self.assertEqual(sorted(missed), ["delta", "gamma"])
        self.assertIn("5.0% slower than no cap", missed["gamma"])
        self.assertIn("cap 32 wrong output", missed["delta"])

    def test_goals_met(self):  # rec-5
        rec = self.files.write("good.json", json.dumps({"alpha": 64, "beta": None}))
        _, _, _, rows, summaries, missed = ar.analyse(self.records, None, rec)
        s = summaries["recommended"]
        self.assertEqual(s["kernels"], 2)
        self.assertTrue(s["goal_median"] and s["goal_max"] and s["goal_vs_none"])
        self.assertEqual(missed, [])

    def test_min_metric(self):  # metric-1
        _, _, _, rows, _, _ = ar.analyse(self.records, None, None, metric="min_ms")
        alpha = [r for r in rows if r["kernel"] == "alpha"][0]
        self.assertAlmostEqual(alpha["best_ms"], 0.88)
        self.assertNotIn("recommended", alpha)


class ToleranceTest(unittest.TestCase):
    """A cap whose outputs differ in the last bits (another FMA fusion)."""

    def setUp(self):
        self.files = Files()
        base = {"outputs": 100, "finite_outputs": 100, "reference_cap": None}
        ref = dict(time_record("k", None, 1.00, 2), checksum=10.0, abs_checksum=1000.0, **base)
        near = dict(time_record("k", 32, 0.80, 4, checked=False), checksum=10.005,
                    abs_checksum=1000.0, **base)
        far = dict(time_record("k", 24, 0.70, 5, checked=False), checksum=12.0,
                   abs_checksum=1000.0, **base)
        nan = dict(time_record("k", 40, 0.60, 3, checked=False), checksum=10.0,
                   abs_checksum=1000.0, **dict(base, finite_outputs=99))
        self.records = self.files.records([ref, near, far, nan])

    def tearDown(self):
        self.files.close()

    def best(self, tolerance):
        _, _, _, rows, summaries, _ = ar.analyse(self.records, tolerance=tolerance)
        return rows[0], summaries["outputs"]

    def test_bit_equal_only_by_default(self):  # tol-1
        row, outputs = self.best(0.0)
        self.assertEqual((row["best_cap"], outputs["not_checked"], outputs["tolerated"]),
                         (None, 3, 0))

    def test_within_tolerance_counts(self):  # tol-2
        # |10.005 - 10.0| = 0.005 <= 1e-5 x 1000 = 0.01; |12 - 10| = 2 is not
        row, outputs = self.best(1e-5)
        self.assertEqual((row["best_cap"], row["best"]["tolerated"]), (32, True))
        self.assertEqual(outputs["tolerated"], 1)

    def test_non_finite_never_counts(self):  # tol-3
        row, _ = self.best(1.0)
        self.assertEqual(row["best_cap"], 24)  # cap 40's 0.60 ms has a NaN: never counted


class RecommendedFormatsTest(unittest.TestCase):
    def setUp(self):
        self.files = Files()

    def tearDown(self):
        self.files.close()

    def doc(self, cap, name="kernel"):
        return {"schema": "occ.regs", "version": 1,
                "kernels": [{"name": name, "recommended_cap": cap, "caps": []}]}

    def test_plain_mapping(self):  # format-1
        p = self.files.write("m.json", json.dumps({"a": 64, "b": None, "c": 0}))
        self.assertEqual(ar.load_recommended(p), {"a": 64, "b": None, "c": None})

    def test_folder_of_documents(self):  # format-2
        self.files.write("docs/alpha.json", json.dumps(self.doc(64)))
        self.files.write("docs/beta.json", json.dumps(self.doc(None)))
        self.files.write("docs/notes.txt", "ignored")
        got = ar.load_recommended(os.path.join(self.files.path, "docs"))
        self.assertEqual(got, {"alpha": 64, "beta": None})

    def test_mapping_of_documents(self):  # format-3
        p = self.files.write("m.json", json.dumps({"alpha": self.doc(72),
                                                   "beta": {"recommended_cap": 40}}))
        self.assertEqual(ar.load_recommended(p), {"alpha": 72, "beta": 40})

    def test_one_document_with_named_kernels(self):  # format-4
        doc = {"schema": "occ.regs", "kernels": [{"name": "alpha", "recommended_cap": 64},
                                                 {"name": "beta", "recommended_cap": None}]}
        p = self.files.write("d.json", json.dumps(doc))
        self.assertEqual(ar.load_recommended(p), {"alpha": 64, "beta": None})

    def test_one_document_of_kernel_named_kernel_is_refused(self):  # format-5
        p = self.files.write("d.json", json.dumps(self.doc(64)))
        with self.assertRaisesRegex(ar.InputError, "one document a kernel"):
            ar.load_recommended(p)

    def test_bad_cap_is_refused(self):  # format-6
        p = self.files.write("m.json", json.dumps({"a": 300}))
        with self.assertRaisesRegex(ar.InputError, "300 is not null or 1..255"):
            ar.load_recommended(p)

    def test_not_json(self):  # format-7
        p = self.files.write("m.json", "{")
        with self.assertRaisesRegex(ar.InputError, "not JSON"):
            ar.load_recommended(p)


class PtxasLogTest(unittest.TestCase):
    def test_unconstrained(self):  # log-1
        got = ar.parse_ptxas_log(LOG_NONE)
        self.assertEqual((got["regs"], got["spill_store_bytes"], got["spill_load_bytes"],
                          got["stack_bytes"], got["messages"]), (96, 0, 0, 0, []))

    def test_spills_and_messages(self):  # log-2
        got = ar.parse_ptxas_log(LOG_CAP24)
        self.assertEqual((got["regs"], got["spill_store_bytes"], got["spill_load_bytes"],
                          got["stack_bytes"]), (24, 1144, 1188, 1144))
        self.assertEqual(got["messages"], ["C7508"])
        self.assertFalse(got["cap_overridden"])

    def test_cap_overridden(self):  # log-3
        got = ar.parse_ptxas_log(LOG_OVERRIDDEN)
        self.assertTrue(got["cap_overridden"])
        self.assertEqual(got["regs"], 168)

    def test_folder(self):  # log-4
        files = Files()
        try:
            files.write("cubins/alpha.none.log", LOG_NONE)
            files.write("cubins/alpha.cap024.log", LOG_CAP24)
            files.write("cubins/alpha.cap024.cubin", "binary")
            logs = ar.load_logs(os.path.join(files.path, "cubins"))
            self.assertEqual(sorted(logs["alpha"], key=ar.cap_order), [24, None])
            self.assertEqual(logs["alpha"][24]["spill_store_bytes"], 1144)
        finally:
            files.close()


class CommandLineTest(unittest.TestCase):
    def setUp(self):
        self.files = Files()

    def tearDown(self):
        self.files.close()

    def run_main(self, argv):
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = ar.main(argv)
            except SystemExit as e:
                code = e.code
        return code, out.getvalue(), err.getvalue()

    def test_table_and_markdown(self):  # cli-1
        records = self.files.records()
        self.files.write("cubins/alpha.cap024.log", LOG_CAP24)
        rec = self.files.write("rec.json", json.dumps(RECOMMENDED))
        md = os.path.join(self.files.path, "out.md")
        code, out, _ = self.run_main([records, "--logs", os.path.join(self.files.path, "cubins"),
                                      "--recommended", rec, "--markdown", md, "--per-cap"])
        self.assertEqual(code, 0)
        self.assertRegex(out, r"alpha\s+64\s+0\.9000\s+2\s+1\.0000\s+11\.1%\s+24\s+8\s+5\.0000"
                              r"\s+455\.6%\s+64\s+3\s+0\.9000\s+0\.0%")
        self.assertIn("goal: median <= 1.5% MISSED", out)
        self.assertIn("gamma: 5.0% from the best (cap none); 5.0% slower than no cap", out)
        with open(md, encoding="utf-8") as f:
            text = f.read()
        self.assertIn("Measured on NVIDIA H200 (132 SMs, driver 580.65.06", text)
        self.assertIn("| kernel | best | best ms |", text)
        self.assertIn("| 24 | 24 | 2332 | 8 | 5.0000 | yes |", text)  # spill bytes from the log
        self.assertIn("| 24 | 24 | - | 4 | hangs | no |", text)

    def test_missing_records(self):  # cli-2
        code, _, err = self.run_main([os.path.join(self.files.path, "nothing.jsonl")])
        self.assertEqual(code, 1)
        self.assertIn("nothing.jsonl: No such file or directory", err)

    def test_malformed_line(self):  # cli-3
        p = self.files.write("bad.jsonl", json.dumps(RECORDS[1]) + "\n{oops\n")
        code, _, err = self.run_main([p])
        self.assertEqual(code, 1)
        self.assertIn("bad.jsonl: line 2: not JSON", err)

    def test_no_kernel_records(self):  # cli-4
        p = self.files.records([RECORDS[0]])
        code, _, err = self.run_main([p])
        self.assertEqual(code, 1)
        self.assertIn("no regs_time or regs_error records", err)

    def test_usage(self):  # cli-5
        code, _, _ = self.run_main(["--metric", "mean_ms", "x.jsonl"])
        self.assertEqual(code, 2)


if __name__ == "__main__":
    unittest.main()
