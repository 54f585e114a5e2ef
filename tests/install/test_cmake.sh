#!/usr/bin/env bash
# test_cmake.sh ROOT SOURCE - builds tests/install/cmake_consumer, a CMake
# project that finds the installed prefix with find_package(occ) (through
# CMAKE_PREFIX_PATH, as a user would) and links occ::occ and occ::inspect
# (shared) and occ::inspect_static; runs both, with no LD_LIBRARY_PATH: the
# shared one finds the prefix's libraries through its run path.
. "$(dirname "$0")/lib.sh"
root=${1:?usage: test_cmake.sh ROOT SOURCE}
source_dir=${2:?usage: test_cmake.sh ROOT SOURCE}
prefix=$root/prefix
dir=$root/cmake
rm -rf "$dir"
mkdir -p "$dir"
consumer_inputs "$dir" "$source_dir"
flags=${OCC_CONSUMER_FLAGS:-}

cmake -S "$source_dir/tests/install/cmake_consumer" -B "$dir/build" -DCMAKE_PREFIX_PATH="$prefix" \
    -DCMAKE_C_FLAGS="$flags" -DCMAKE_EXE_LINKER_FLAGS="$flags" > "$dir/configure.log" 2>&1 ||
    { cat "$dir/configure.log"; fail "configuring the consumer project (find_package(occ))"; }
found=$(sed -n 's/^occ_DIR:PATH=//p' "$dir/build/CMakeCache.txt")
[ "$found" = "$prefix/lib/cmake/occ" ] || fail "find_package(occ) found '$found', not $prefix/lib/cmake/occ"
cmake --build "$dir/build" -j 2 > "$dir/build.log" 2>&1 ||
    { cat "$dir/build.log"; fail "building the consumer project"; }

loaded=$(ldd "$dir/build/consumer")
echo "$loaded" | grep >/dev/null "libocc-inspect.so.0 => $prefix/lib/libocc-inspect.so.0" ||
    fail "occ::inspect: the consumer does not load $prefix/lib/libocc-inspect.so.0: $loaded"
echo "$loaded" | grep >/dev/null "libocc.so.0 => $prefix/lib/libocc.so.0" ||
    fail "occ::occ: the consumer does not load $prefix/lib/libocc.so.0"
run_consumer "$dir/build/consumer" "$dir"

needed=$(readelf -d "$dir/build/consumer_static" | grep NEEDED || true)
echo "$needed" | grep >/dev/null libocc && fail "occ::inspect_static: the consumer still needs $needed"
run_consumer "$dir/build/consumer_static" "$dir"
echo "test_cmake: find_package(occ): occ::occ, occ::inspect and occ::inspect_static consumers give the driver's answers"
