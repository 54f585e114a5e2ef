#!/usr/bin/env bash
# regs_bench without a GPU: the runner against a fake libcuda.so.1
# (fake_libcuda.c), whose "cubins" are text files saying what their kernel
# does. Each way a cubin can fail must give its record and let the rest run:
# a hang (the child gives up on the launch), a sticky error and a crash (a
# new child goes on), a stall in the driver (the parent's watchdog kills the
# child), a kernel that cannot launch, one that does not load, one without
# cubins, outputs that differ across caps or are not all written, and no GPU.
# Usage: lab/regs/test_regs_bench.sh [REGS_BENCH]   (default build-regs-lab/regs_bench)
# Exits 77 (skipped) without cuda.h or a C compiler.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
bench=$(realpath "${1:-$root/build-regs-lab/regs_bench}")
cuda=${CUDA_HOME:-/usr/local/cuda}
cc=${CC:-cc}
if [ ! -f "$cuda/include/cuda.h" ] || ! command -v "$cc" > /dev/null; then
    echo "SKIPPED: no $cuda/include/cuda.h or no C compiler"
    exit 77
fi
if [ ! -x "$bench" ]; then
    echo "test_regs_bench.sh: no runner at $bench (tests/gpu/run_regs_lab.sh builds it)"
    exit 1
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$cc" -std=c11 -Wall -Wextra -Werror -shared -fPIC -I"$cuda/include" -o "$tmp/libcuda.so.1" \
    "$root/lab/regs/fake_libcuda.c"

mkdir "$tmp/cubins"
cubin() { echo "$2" > "$tmp/cubins/$1.cubin"; }
cubin good.none      "regs=40 blocks=4 ms=0.5 value=1.5"
cubin good.cap024    "regs=24 local=64 blocks=8 ms=0.9 value=1.5"
cubin good.cap032    "regs=32 blocks=6 ms=0.7 value=2.5"
cubin partial.none   "regs=40 value=1 behaviour=partial"
cubin partial.cap024 "regs=24 value=3"
cubin hang.none      "regs=40 value=1"
cubin hang.cap024    "regs=24 value=1 behaviour=hang"
cubin hang.cap032    "regs=32 value=1"
cubin sticky.none    "regs=40 value=1 behaviour=sticky"
cubin sticky.cap024  "regs=24 value=1"
cubin crash.none     "regs=40 value=1 behaviour=crash"
cubin crash.cap024   "regs=24 value=1"
cubin stall.none     "regs=40 value=1 behaviour=stall"
cubin stall.cap024   "regs=24 value=1"
cubin nolaunch.none  "regs=200 blocks=0 max_threads=320 value=1"
cubin nolaunch.cap024 "regs=24 value=1"
cubin badload.none   "behaviour=badload"
cubin good_more.cap008 "regs=8 value=1"
printf 'not a cubin of any kernel\n' > "$tmp/cubins/stray.cap024.cubin"
{
    printf 'name\tfile\tthreads\tgrid\tdyn_smem_bytes\tarch\toutputs\tlimiter\n'
    for k in good partial hang sticky crash stall nolaunch badload missing; do
        printf '%s\t%s.cu\t256\tn/threads\t0\tsm_90\t1024\ttest\n' "$k" "$k"
    done
    printf 'good_more\tgood.cu\t384\t512\t0\tsm_90a\tn/4\ttest\n'
} > "$tmp/kernels.tsv"

export LD_LIBRARY_PATH="$tmp${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
# The driver's version line, as the open kernel module writes it (the H200's
# of docs/results/regs-h200) and as the proprietary one does.
echo "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.159.04  Release Build" \
    "(dvs-builder@U22-I3-AM02-24-3)  Wed Jul 16 01:21:09 UTC 2025" > "$tmp/open-version"
echo "NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.65.06  Sun Jul 27 07:09:45 UTC 2025" \
    > "$tmp/proprietary-version"
status=0
REGS_BENCH_DRIVER_VERSION_FILE="$tmp/open-version" \
    "$bench" --launch-timeout 0.2 --watchdog 10 "$tmp/kernels.tsv" "$tmp/cubins" \
    > "$tmp/records.jsonl" 2> "$tmp/stderr.txt" || status=$?
REGS_BENCH_DRIVER_VERSION_FILE="$tmp/proprietary-version" \
    "$bench" "$tmp/kernels.tsv" "$tmp/cubins" good_more > "$tmp/proprietary.jsonl" 2> /dev/null ||
    true
FAKE_CUDA_NO_GPU=1 "$bench" "$tmp/kernels.tsv" "$tmp/cubins" good > "$tmp/nogpu.jsonl" \
    2> /dev/null && nogpu_status=0 || nogpu_status=$?
"$bench" "$tmp/kernels.tsv" "$tmp/cubins" nosuch > /dev/null 2>&1 && bad_name=0 || bad_name=$?
"$bench" --launch-timeout 0 "$tmp/kernels.tsv" "$tmp/cubins" > /dev/null 2>&1 && bad_opt=0 ||
    bad_opt=$?
mkdir "$tmp/empty"
"$bench" "$tmp/kernels.tsv" "$tmp/empty" good > "$tmp/empty.jsonl" 2> /dev/null && empty=0 ||
    empty=$?
# --distinct and --rounds, on ELF64 "cubins" whose .text section holds the
# fake's words: dup.none and dup.cap024 share their code and registers (only
# the function's .nv.info.kernel differs, as the cap ptxas was given does),
# dup.cap032 has other code, dup.cap040 the same code with other registers
# (the module's .nv.info, where REGCOUNT is), dup.cap048 the same code with
# other registers in the .text section's sh_info (older cubins).
mkdir "$tmp/elf"
python3 - "$tmp/elf" <<'PY'
import struct, sys
def elf(path, text, regs, cap, sh_regs=0):
    names = b"\0.shstrtab\0.text.kernel\0.nv.info.kernel\0.nv.info\0"
    module_info = struct.pack("<BBHII", 4, 0x2f, 8, 1, regs)  # REGCOUNT [symbol 1, regs]
    function_info = f"\n cap={cap} \n".encode()
    body = names + text + function_info + module_info
    shoff = 64 + len(body)
    def sh(name, typ, off, size, sh_info=0):
        return struct.pack("<IIQQQQIIQQ", name, typ, 0, 0, off, size, 0, sh_info, 1, 0)
    header = b"\x7fELF" + bytes([2, 1, 1]) + bytes(9) + struct.pack(
        "<HHIQQQIHHHHHH", 2, 190, 1, 0, 0, shoff, 0, 64, 0, 0, 64, 5, 1)
    at = 64 + len(names)
    sections = (sh(0, 0, 0, 0) + sh(1, 3, 64, len(names))
                + sh(11, 1, at, len(text), (sh_regs << 24) | 4)
                + sh(24, 0x70000000, at + len(text), len(function_info))
                + sh(40, 0x70000000, at + len(text) + len(function_info), len(module_info)))
    open(path, "wb").write(header + body + sections)
d = sys.argv[1]
elf(f"{d}/dup.none.cubin", b"\n regs=40 ms=0.5 value=1 \n", 40, "none")
elf(f"{d}/dup.cap024.cubin", b"\n regs=40 ms=0.5 value=1 \n", 40, "24")
elf(f"{d}/dup.cap032.cubin", b"\n regs=32 ms=0.7 value=1 \n", 32, "32")
elf(f"{d}/dup.cap040.cubin", b"\n regs=40 ms=0.5 value=1 \n", 48, "40")
elf(f"{d}/dup.cap048.cubin", b"\n regs=40 ms=0.5 value=1 \n", 40, "48", sh_regs=48)
PY
printf 'name\tfile\tthreads\tgrid\tdyn_smem_bytes\tarch\toutputs\tlimiter\n' > "$tmp/dup.tsv"
printf 'dup\tdup.cu\t256\tn/threads\t0\tsm_90\t1024\ttest\n' >> "$tmp/dup.tsv"
"$bench" --rounds 2 --distinct "$tmp/dup.tsv" "$tmp/elf" > "$tmp/distinct.jsonl" 2> /dev/null &&
    distinct=0 || distinct=$?
"$bench" --rounds 2 "$tmp/dup.tsv" "$tmp/elf" > "$tmp/rounds.jsonl" 2> /dev/null && rounds=0 ||
    rounds=$?
"$bench" --rounds 0 "$tmp/dup.tsv" "$tmp/elf" > /dev/null 2>&1 && bad_rounds=0 || bad_rounds=$?

printf 'name\tfile\n' > "$tmp/bad.tsv"
"$bench" "$tmp/bad.tsv" "$tmp/cubins" > "$tmp/badtable.jsonl" 2> /dev/null && bad_table=0 ||
    bad_table=$?

python3 - "$tmp" "$status" "$nogpu_status" "$bad_name" "$bad_opt" "$empty" "$bad_table" \
    "$distinct" "$rounds" "$bad_rounds" <<'EOF'
import json, sys
tmp = sys.argv[1]
(status, nogpu_status, bad_name, bad_opt, empty, bad_table, distinct, rounds,
 bad_rounds) = map(int, sys.argv[2:])
records = [json.loads(line) for line in open(f"{tmp}/records.jsonl")]
failures = []
def check(case, ok, detail=""):
    print(("ok   " if ok else "FAIL ") + case + (f": {detail}" if detail and not ok else ""))
    if not ok:
        failures.append(case)

def one(kind, kernel, cap):
    found = [r for r in records if r["record"] == kind and r.get("kernel") == kernel
             and r.get("cap") == cap]
    return found[0] if len(found) == 1 else None

check("exit-0", status == 0, f"exit status {status}")
check("header-first", records[0]["record"] == "regs_header" and records[0]["device"] == "Fake GPU"
      and records[0]["cubins"] == 18 and records[0]["runs"] == 21)
check("header-once", sum(r["record"] == "regs_header" for r in records) == 1)
check("driver-open-module", records[0]["driver"] == "580.159.04", str(records[0]["driver"]))
proprietary = json.loads(open(f"{tmp}/proprietary.jsonl").readline())
check("driver-proprietary-module", proprietary.get("driver") == "580.65.06",
      str(proprietary.get("driver")))
done = records[-1]
check("done-last", done["record"] == "regs_done" and done["cubins"] == 18, json.dumps(done))
check("done-counts", done.get("measured") == 12 and done.get("checked") == 10
      and done.get("errors") == 6, json.dumps(done))
times = [r for r in records if r["record"] == "regs_time"]
errors = [r for r in records if r["record"] == "regs_error"]
check("one-record-a-cubin", len(times) + len(errors) == 18 + 1,  # + missing's
      f"{len(times)} times, {len(errors)} errors")

r = one("regs_time", "good", None)
check("good-none", r is not None and r["regs"] == 40 and r["blocks_per_sm"] == 4
      and r["warps_per_sm"] == 32 and r["occupancy"] == 0.5 and r["median_ms"] == 0.5
      and r["min_ms"] == 0.5 and r["runs"] == 21 and r["checked"] is True
      and r["checksum"] == 1536 and r["abs_checksum"] == 1536 and r["reference_cap"] is None,
      json.dumps(r))
r = one("regs_time", "good", 24)
check("good-cap-same-output", r is not None and r["checked"] is True and r["local_bytes"] == 64
      and r["same_as_reference"] is True and r["reference_cap"] is None, json.dumps(r))
r = one("regs_time", "good", 32)
check("good-cap-other-output", r is not None and r["checked"] is False
      and r["same_as_reference"] is False and r["finite_outputs"] == 1024, json.dumps(r))
caps = [t["cap"] for t in times if t["kernel"] == "good"]
check("order-none-then-caps-up", caps == [None, 24, 32], str(caps))
r = one("regs_time", "partial", None)
check("partial-not-finite", r is not None and r["checked"] is False
      and r["finite_outputs"] == 1023, json.dumps(r))
r = one("regs_time", "partial", 24)
check("partial-reference-is-first-finite", r is not None and r["checked"] is True
      and r["reference_cap"] == 24, json.dumps(r))
r = one("regs_error", "hang", 24)
check("hang-reported", r is not None and r["stage"] == "hang" and "did not finish" in r["error"]
      and r["regs"] == 24 and r["blocks_per_sm"] == 1, json.dumps(r))
r = one("regs_time", "hang", 32)
check("hang-then-next-cap-with-reference", r is not None and r["checked"] is True
      and r["reference_cap"] is None, json.dumps(r))
r = one("regs_error", "sticky", None)
check("sticky-reported", r is not None and r["stage"] == "launch"
      and r.get("cuda_error") == "CUDA_ERROR_ILLEGAL_ADDRESS", json.dumps(r))
check("sticky-then-next", one("regs_time", "sticky", 24) is not None)
r = one("regs_error", "crash", None)
check("crash-reported", r is not None and r["stage"] == "child" and "signal 6" in r["error"],
      json.dumps(r))
check("crash-then-next", one("regs_time", "crash", 24) is not None)
r = one("regs_error", "stall", None)
check("stall-killed-by-watchdog", r is not None and r["stage"] == "hang"
      and "killed" in r["error"], json.dumps(r))
check("stall-then-next", one("regs_time", "stall", 24) is not None)
r = one("regs_error", "nolaunch", None)
check("nolaunch-reported", r is not None and r["stage"] == "occupancy"
      and "200 registers" in r["error"] and r["blocks_per_sm"] == 0, json.dumps(r))
check("nolaunch-then-next", one("regs_time", "nolaunch", 24) is not None)
r = one("regs_error", "badload", None)
check("badload-reported", r is not None and r["stage"] == "load", json.dumps(r))
r = one("regs_error", "missing", None)
check("missing-reported", r is not None and "no missing.none.cubin" in r["error"], json.dumps(r))
r = one("regs_time", "good_more", 8)
check("grid-and-outputs-rules", r is not None and r["grid"] == 512 and r["threads"] == 384
      and r["outputs"] == (1 << 24) // 4 and r["arch"] == "sm_90a", json.dumps(r))
check("stray-cubin-ignored", not any(t.get("kernel") == "stray" for t in records))

nogpu = [json.loads(line) for line in open(f"{tmp}/nogpu.jsonl")]
check("no-gpu-exit-1", nogpu_status == 1, str(nogpu_status))
check("no-gpu-record", nogpu[0]["record"] == "regs_error" and nogpu[0]["stage"] == "init"
      and nogpu[0]["cuda_error"] == "CUDA_ERROR_NO_DEVICE"
      and not any(r["record"] == "regs_time" for r in nogpu), json.dumps(nogpu[0]))
check("unknown-kernel-exit-1", bad_name == 1, str(bad_name))
check("bad-option-exit-2", bad_opt == 2, str(bad_opt))
empty_records = [json.loads(line) for line in open(f"{tmp}/empty.jsonl")]
check("no-cubins-exit-1", empty == 1, str(empty))
check("no-cubins-records", [r["record"] for r in empty_records] == ["regs_error", "regs_done"]
      and empty_records[0]["kernel"] == "good", str(empty_records))
bad = [json.loads(line) for line in open(f"{tmp}/badtable.jsonl")]
check("bad-table-record", bad_table == 1 and len(bad) == 1 and bad[0]["stage"] == "table"
      and "no column 'threads'" in bad[0]["error"], str(bad))

d = [json.loads(line) for line in open(f"{tmp}/distinct.jsonl")]
timed = [(r["cap"], r["round"]) for r in d if r["record"] == "regs_time"]
same = [r for r in d if r["record"] == "regs_same"]
check("distinct-exit-0", distinct == 0, str(distinct))
check("distinct-header", d[0]["record"] == "regs_header" and d[0]["rounds"] == 2
      and d[0]["distinct"] is True and d[0]["cubins"] == 5 and d[0]["timed"] == 4, json.dumps(d[0]))
check("distinct-times-each-code-once-a-round",
      timed == [(None, 1), (32, 1), (40, 1), (48, 1), (None, 2), (32, 2), (40, 2), (48, 2)],
      str(timed))
check("distinct-same-record", len(same) == 1 and same[0]["cap"] == 24
      and same[0]["same_as_cap"] is None and same[0]["same_as_cubin"] == "dup.none.cubin"
      and same[0]["cubin"] == "dup.cap024.cubin", str(same))
hashes = {r["cap"]: r["code_hash"] for r in d if r["record"] == "regs_time"}
check("code-hash-equal-for-equal-code", same and same[0]["code_hash"] == hashes.get(None)
      and len(set(hashes.values())) == 4 and all(len(h) == 16 for h in hashes.values()),
      str(hashes))
check("distinct-done", d[-1]["record"] == "regs_done" and d[-1]["cubins"] == 5
      and d[-1]["measured"] == 8, json.dumps(d[-1]))
r2 = [json.loads(line) for line in open(f"{tmp}/rounds.jsonl")]
check("rounds-without-distinct-time-all", rounds == 0
      and sum(r["record"] == "regs_time" for r in r2) == 10
      and not any(r["record"] == "regs_same" for r in r2), str(rounds))
check("fake-cubin-hash-zero", all(r.get("code_hash") == "0" * 16 for r in records
                                  if r["record"] == "regs_time"))
check("bad-rounds-exit-2", bad_rounds == 2, str(bad_rounds))
print(f"test_regs_bench: {len(failures)} failed" if failures else "test_regs_bench: all passed")
sys.exit(1 if failures else 0)
EOF
