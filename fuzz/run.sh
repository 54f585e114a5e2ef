#!/bin/sh
# fuzz/run.sh - runs every libFuzzer binary of a build for a while; exits non-zero if any
# of them finds a crash, a sanitizer report, a timeout or a leak.
#
# usage: fuzz/run.sh BUILD_DIR [SECONDS [JOBS]]    (SECONDS per target, default 30; JOBS
#        targets at once, default 1: each target is one process on one core, so JOBS
#        up to the cores shortens the wall time and leaves each target its seconds)
# The build comes from: CC=clang-14 cmake -S . -B build-fuzz -DOCC_FUZZ=ON -DOCC_TESTS=OFF \
#                       -DOCC_BENCH=OFF && cmake --build build-fuzz --target fuzzers
#
# New interesting inputs go to a scratch directory, so the checked-in seeds stay small.
# A crash leaves its reproducer in BUILD_DIR/fuzz-artifacts/<target>/. Keeping it is a
# manual step, on purpose (a human names it and checks it is minimal): fix the bug, then
#   cp BUILD_DIR/fuzz-artifacts/<target>/crash-<hash> fuzz/corpus/<target>/crash-<what>
# so the replay test (ctest -L fuzz) guards against the bug from then on. Reproduce with
#   BUILD_DIR/fuzz_<target> BUILD_DIR/fuzz-artifacts/<target>/crash-<hash>
set -u

build=${1:?usage: fuzz/run.sh BUILD_DIR [SECONDS [JOBS]]}
seconds=${2:-30}
jobs=${3:-1}
here=$(cd "$(dirname "$0")" && pwd)
targets="gpu_file batch ptxas_log cubin fatbin host_elf archive baseline baseline_round_trip
regs_ptx setmaxnreg lab_regs lab_records diff_allow ncu kineto nsys_csv nsys_sqlite cupti launch_table"
case $jobs in
    ''|*[!0-9]*|0) echo "run.sh: JOBS '$jobs' is not a whole number of 1 or more" >&2; exit 2 ;;
esac

# One target: its summary on stdout, a failure's log tail on stderr; exit 1 on a failure.
run_one() {
    target=$1
    status=0
    binary="$build/fuzz_$target"
    scratch=$(mktemp -d "${TMPDIR:-/tmp}/occ-fuzz-$target-XXXXXX")
    artifacts="$build/fuzz-artifacts/$target"
    mkdir -p "$artifacts"
    echo "== fuzz_$target for ${seconds}s"
    # -max_len covers the batch reader's 4000-byte line limit; -timeout turns a hang into a
    # failure; the first corpus directory receives new inputs, the second is read only.
    # libFuzzer's progress goes to a log; the summary and any failure are shown.
    log="$build/fuzz-$target.log"
    # binary seeds (cubins, fatbins, ELF files, SQLite databases) are tens of KB: let
    # inputs be that long
    case $target in
        cubin|fatbin|host_elf|archive|nsys_sqlite) max_len=65536 ;;
        *) max_len=8192 ;;
    esac
    if "$binary" -max_total_time="$seconds" -max_len=$max_len -timeout=10 -rss_limit_mb=2048 \
            -print_final_stats=1 -artifact_prefix="$artifacts/" \
            "$scratch" "$here/corpus/$target" > "$log" 2>&1; then
        grep -E "^(Done|stat::number_of_executed_units|stat::peak_rss_mb)" "$log"
    else
        tail -n 40 "$log" >&2
        echo "run.sh: fuzz_$target failed; reproducer in $artifacts/, log in $log" >&2
        status=1
    fi
    rm -rf "$scratch"
    return $status
}

if [ "${FUZZ_RUN_ONE:-}" != "" ]; then
    run_one "$FUZZ_RUN_ONE"
    exit $?
fi
for target in $targets; do
    if [ ! -x "$build/fuzz_$target" ]; then
        echo "run.sh: $build/fuzz_$target is missing; configure the build with" \
            "CC=clang-14 -DOCC_FUZZ=ON" >&2
        exit 2
    fi
done
# JOBS targets at a time, each through this script again (FUZZ_RUN_ONE), so that one
# target's lines stay together: xargs -P starts the next as one ends and fails if any did.
# shellcheck disable=SC2086
printf '%s\n' $targets | xargs -P "$jobs" -I{} \
    sh -c 'FUZZ_RUN_ONE=$1 "$0" "$2" "$3" > "$2/fuzz-$1.summary" 2>&1; s=$?; cat "$2/fuzz-$1.summary"; exit $s' \
    "$0" {} "$build" "$seconds"
