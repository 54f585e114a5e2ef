#!/usr/bin/env bash
# lab_regs_fake_gpu.sh OCC OCC_REGS_BENCH - `occ lab regs` driving the real
# runner (lab/regs/regs_bench.cu, built by CMake as occ-regs-bench) against
# lab/regs/fake_libcuda.c, a stand-in libcuda.so.1 whose "cubins" say what
# their kernel does: the options reach the runner (--rounds, --distinct),
# its records (round, code_hash, regs_same) are read and scored, --save
# keeps them, and a machine without a GPU is one line and exit 1. No GPU
# needed; exits 77 (skipped) without cuda.h, a C compiler or python3.
set -euo pipefail
occ=$(realpath "${1:?usage: lab_regs_fake_gpu.sh OCC OCC_REGS_BENCH}")
bench=$(realpath "${2:?usage: lab_regs_fake_gpu.sh OCC OCC_REGS_BENCH}")
root=$(cd "$(dirname "$0")/../.." && pwd)
cuda=${CUDA_HOME:-/usr/local/cuda}
cc=${CC:-cc}
if [ ! -f "$cuda/include/cuda.h" ] || ! command -v "$cc" > /dev/null ||
    ! command -v python3 > /dev/null; then
    echo "SKIPPED: no $cuda/include/cuda.h, C compiler or python3"
    exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "lab_regs_fake_gpu: $*"; exit 1; }

"$cc" -std=c11 -shared -fPIC -I"$cuda/include" -o "$tmp/libcuda.so.1" \
    "$root/lab/regs/fake_libcuda.c"
# ELF64 cubins whose .text holds the fake's words: k.none and k.cap024 are
# one code (only the function's .nv.info.kernel, where the cap is, differs),
# k.cap032 another code, faster, with more blocks.
mkdir "$tmp/cubins"
python3 - "$tmp/cubins" <<'PY'
import struct, sys
def elf(path, text, regs, cap):
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
    sections = (sh(0, 0, 0, 0) + sh(1, 3, 64, len(names)) + sh(11, 1, at, len(text), 4)
                + sh(24, 0x70000000, at + len(text), len(function_info))
                + sh(40, 0x70000000, at + len(text) + len(function_info), len(module_info)))
    open(path, "wb").write(header + body + sections)
d = sys.argv[1]
elf(f"{d}/k.none.cubin", b"\n regs=40 blocks=6 ms=0.5 value=1 \n", 40, "none")
elf(f"{d}/k.cap024.cubin", b"\n regs=40 blocks=6 ms=0.5 value=1 \n", 40, "24")
elf(f"{d}/k.cap032.cubin", b"\n regs=32 blocks=8 ms=0.4 value=1 \n", 32, "32")
PY
printf 'name\tfile\tthreads\tgrid\tdyn_smem_bytes\tarch\toutputs\tlimiter\n' > "$tmp/kernels.tsv"
printf 'k\tk.cu\t256\tn/threads\t0\tsm_90\t1024\ttest\n' >> "$tmp/kernels.tsv"
printf '{"k": {"recommended_cap": 24, "candidates": [null, 32]}}\n' > "$tmp/rec.json"

export LD_LIBRARY_PATH="$tmp${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export OCC_REGS_BENCH=$bench
status=0
"$occ" lab regs --cubins "$tmp/cubins" --kernels "$tmp/kernels.tsv" --rounds 2 --distinct \
    --save "$tmp/saved.jsonl" --recommended "$tmp/rec.json" --json > "$tmp/out.json" \
    2> "$tmp/err.txt" || status=$?
[ "$status" -eq 0 ] || { cat "$tmp/err.txt"; fail "exit status $status"; }
python3 - "$tmp" <<'PY' || exit 1
import json, sys
tmp = sys.argv[1]
doc = json.load(open(f"{tmp}/out.json"))
saved = [json.loads(line) for line in open(f"{tmp}/saved.jsonl")]
failures = []
def check(case, ok, detail=""):
    print(("ok   " if ok else "FAIL ") + case + (f": {detail}" if not ok else ""))
    if not ok:
        failures.append(case)
check("schema", doc["schema"] == "occ.lab.regs" and doc["version"] == 1)
header = doc["header"]
check("header-rounds-distinct", header["rounds"] == 2 and header["distinct"] is True, header)
check("saved-regs-same", any(r["record"] == "regs_same" and r["cap"] == 24
                             and r["same_as_cap"] is None for r in saved),
      [r["record"] for r in saved])
check("saved-rounds", sorted(r["round"] for r in saved if r["record"] == "regs_time")
      == [1, 1, 2, 2])
k = doc["kernels"][0]
caps = {c["cap"]: c for c in k["caps"]}
check("none-two-timings", caps[None]["timings"] == 2 and caps[None]["timed"], caps[None])
check("cap24-not-timed", not caps[24]["timed"] and caps[24]["code_of_cap"] is None
      and caps[24]["ms"] == caps[None]["ms"], caps[24])
check("best-32", k["best_cap"] == 32 and k["none"]["regret"] > 0, k["best_cap"])
check("recommended-24-scored-as-none", k["recommended"]["cap"] == 24
      and k["recommended"]["ms"] == caps[None]["ms"], k["recommended"])
check("candidates-best-32", k["candidates"]["cap"] == 32 and k["candidates"]["regret"] == 0,
      k["candidates"])
check("grouped", doc["grouped"] is True and doc["codes"] == 2, doc["codes"])
sys.exit(1 if failures else 0)
PY
status=0
FAKE_CUDA_NO_GPU=1 "$occ" lab regs --cubins "$tmp/cubins" --kernels "$tmp/kernels.tsv" \
    > /dev/null 2> "$tmp/err.txt" || status=$?
[ "$status" -eq 1 ] || fail "without a GPU: exit status $status, not 1"
grep -q '^occ lab regs: no CUDA GPU present (no CUDA GPU to measure on' "$tmp/err.txt" ||
    fail "without a GPU: $(cat "$tmp/err.txt")"
echo "lab_regs_fake_gpu: occ lab regs ran occ-regs-bench and scored its records"
