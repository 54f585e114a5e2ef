# lib.sh - sourced by the install tests (tests/install/*.sh).
#
# install_tree.sh installs the build directory into ROOT/prefix (a CTest
# fixture); the other tests read that tree and build consumers in ROOT/.
# Where a test compiles, OCC_CONSUMER_FLAGS holds the sanitizer flags of an
# ASan build: an instrumented library needs an instrumented program.
set -euo pipefail
# (A pipe into grep -q can fail under pipefail: grep exits at its first match and the writer
# gets SIGPIPE. The tests use grep >/dev/null, which reads the whole input.)
export LC_ALL=C

fail()
{
    echo "FAIL: $*" >&2
    exit 1
}

# The commands of the installed occ, as `occ --help` lists them.
occ_commands()
{
    "$1" --help | awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { print $1; next } on { exit }'
}

# Sorted lines of $1 that are not in $2 (two newline-separated lists).
missing_from()
{
    comm -23 <(printf '%s\n' "$1" | sort -u) <(printf '%s\n' "$2" | sort -u)
}

# Inputs for consumer.c in $1: rows.txt, every 97th row of the H200 driver
# table (measured on an H200; tests/data/h200-driver/README.md) as "regs
# static_smem max_threads block dyn_smem carveout driver_blocks"; kernels.log,
# a ptxas -v log of two kernels; kernels.expected, what consumer.c must print
# for it (names demangled, registers as the log says).
consumer_inputs()
{
    local dir=$1 source_dir=$2
    local table=$source_dir/tests/data/h200-driver/h200-driver-occupancy.csv.gz
    [ -f "$table" ] || fail "test data $table: missing"
    gzip -dc "$table" | awk -F, 'NR > 1 && NR % 97 == 2 { print $2, $3, $5, $6, $7, $8, $9 }' \
        > "$dir/rows.txt"
    cat > "$dir/kernels.log" <<'LOG'
ptxas info    : 0 bytes gmem
ptxas info    : Compiling entry function '_Z5scalePfif' for 'sm_90'
ptxas info    : Function properties for _Z5scalePfif
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 37 registers, 368 bytes cmem[0]
ptxas info    : Compiling entry function '_Z6reducePKfPfi' for 'sm_90'
ptxas info    : Function properties for _Z6reducePKfPfi
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 90 registers, 4096 bytes smem, 376 bytes cmem[0]
LOG
    printf '%s\n' 'reduce(float const*, float*, int) 90' 'scale(float*, int, float) 37' \
        > "$dir/kernels.expected"
}

# Runs consumer binary $1 on the inputs in $2 and checks its answers.
run_consumer()
{
    local binary=$1 dir=$2 out
    out=$("$binary" "$dir/kernels.log" < "$dir/rows.txt") || fail "$binary failed: $out"
    local rows
    rows=$(wc -l < "$dir/rows.txt")
    echo "$out" | grep >/dev/null -x "rows $rows mismatches 0" ||
        fail "$binary: expected 'rows $rows mismatches 0', got: $(echo "$out" | head -3)"
    diff <(echo "$out" | tail -n +2 | sort) "$dir/kernels.expected" ||
        fail "$binary: the kernels of kernels.log are not what the log says"
}
