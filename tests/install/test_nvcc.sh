#!/usr/bin/env bash
# test_nvcc.sh ROOT SOURCE - compiles consumer.cu with nvcc against
# the installed prefix (-I PREFIX/include, -L PREFIX/lib -locc: libocc.so.0
# from CUDA host code), runs it, and again with the static libocc.a.
# nvcc: $OCC_NVCC (CMake's find), else on PATH, else /usr/local/cuda/bin.
# Skips (exit 77) where nvcc is absent.
. "$(dirname "$0")/lib.sh"
root=${1:?usage: test_nvcc.sh ROOT SOURCE}
source_dir=${2:?usage: test_nvcc.sh ROOT SOURCE}
nvcc=${OCC_NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
if [ ! -x "$nvcc" ]; then
    echo "SKIPPED: no nvcc (looked on PATH and in /usr/local/cuda/bin)"
    exit 77
fi
prefix=$root/prefix
dir=$root/nvcc
rm -rf "$dir"
mkdir -p "$dir"
# An ASan build's library needs the sanitizer runtime in the program too.
host_flags=()
[ -n "${OCC_CONSUMER_FLAGS:-}" ] && host_flags=(-Xcompiler "${OCC_CONSUMER_FLAGS// /,}")

"$nvcc" -arch=sm_90 "${host_flags[@]}" -I "$prefix/include" -I "$source_dir/tests" \
    -c -o "$dir/consumer.o" "$source_dir/tests/install/consumer.cu" || fail "nvcc -c consumer.cu"

# shared: -locc, with the prefix as run path
"$nvcc" "${host_flags[@]}" -o "$dir/consumer" "$dir/consumer.o" -L "$prefix/lib" -locc \
    -Xlinker -rpath -Xlinker "$prefix/lib" || fail "nvcc consumer.o -locc"
ldd "$dir/consumer" | grep >/dev/null "libocc.so.0 => $prefix/lib/libocc.so.0" ||
    fail "the nvcc-built consumer does not load $prefix/lib/libocc.so.0"
out=$("$dir/consumer") || fail "the nvcc-built consumer (shared): $out"
echo "$out" | grep >/dev/null ', 0 differ from cuda_occupancy.h$' || fail "nvcc consumer (shared): $out"
echo "shared: $out"

# static: libocc.a
"$nvcc" "${host_flags[@]}" -o "$dir/consumer-static" "$dir/consumer.o" "$prefix/lib/libocc.a" ||
    fail "nvcc consumer.o libocc.a"
readelf -d "$dir/consumer-static" | grep >/dev/null 'NEEDED.*libocc' && fail "the static nvcc consumer needs libocc.so"
out=$("$dir/consumer-static") || fail "the nvcc-built consumer (static): $out"
echo "$out" | grep >/dev/null ', 0 differ from cuda_occupancy.h$' || fail "nvcc consumer (static): $out"
echo "static: $out"
