#!/bin/sh
# make_fixtures.sh - compiles kernels.cu into every input occ inspect reads, with the ptxas -v
# log of each compile, for tests/test_inspect.c. Run by CMake once per build directory.
#
# usage: make_fixtures.sh NVCC SOURCE OUT_DIR
# Writes into OUT_DIR:
#   all.fatbin, all.log        sm_75 80 86 89 90 90a 100 120 (+ compute_120 PTX), uncompressed
#   speed.fatbin, default.fatbin, size.fatbin
#                              sm_80 + sm_90, -Xfatbin -compress-all --compress-mode=MODE
#   sm90a.cubin, sm90a.log     one bare cubin (the "a" arch comes from .nv.compat)
#   sm75.cubin, sm75.log       the older ELF layout of sm_75..89 (registers also in sh_info)
#   rdc.cubin, rdc.log         a relocatable (-rdc) cubin
#   app, app.log               a host executable: .nv_fatbin with sm_90 and compute_120 PTX
#   app_rdc                    a -rdc host executable: __nv_relfatbin too
#   libextra.so                a library with containers outside .nv_fatbin too (as
#                              libcublasLt.so.13's .cask_resource): speed.fatbin in
#                              .nv_fatbin; all.fatbin, speed.fatbin and size.fatbin in
#                              .kernels_extra
set -eu
nvcc=$1
src=$2
out=$3
mkdir -p "$out"
cd "$out"
all_archs="-gencode arch=compute_75,code=sm_75 -gencode arch=compute_80,code=sm_80
 -gencode arch=compute_86,code=sm_86 -gencode arch=compute_89,code=sm_89
 -gencode arch=compute_90,code=sm_90 -gencode arch=compute_90a,code=sm_90a
 -gencode arch=compute_100,code=sm_100 -gencode arch=compute_120,code=[sm_120,compute_120]"
two_archs="-gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90"
# shellcheck disable=SC2086
"$nvcc" -fatbin -Xptxas -v $all_archs "$src" -o all.fatbin 2> all.log
for mode in speed default size; do
    # shellcheck disable=SC2086
    "$nvcc" -fatbin $two_archs -Xfatbin -compress-all --compress-mode=$mode "$src" \
        -o $mode.fatbin 2> $mode.err
done
"$nvcc" -cubin -Xptxas -v -arch=sm_90a "$src" -o sm90a.cubin 2> sm90a.log
"$nvcc" -cubin -Xptxas -v -arch=sm_75 "$src" -o sm75.cubin 2> sm75.log
"$nvcc" -cubin -rdc=true -Xptxas -v -arch=sm_90 "$src" -o rdc.cubin 2> rdc.log
"$nvcc" -DWITH_MAIN -Xptxas -v -gencode arch=compute_90,code=sm_90 \
    -gencode arch=compute_120,code=compute_120 "$src" -o app 2> app.log
"$nvcc" -DWITH_MAIN -rdc=true -gencode arch=compute_90,code=sm_90 "$src" -o app_rdc 2> rdc_app.err
printf '%s\n' '.section .nv_fatbin,"a"' '.balign 8' '.incbin "speed.fatbin"' \
    '.section .kernels_extra,"a"' '.balign 16' '.incbin "all.fatbin"' '.balign 8' \
    '.incbin "speed.fatbin"' '.balign 16' '.incbin "size.fatbin"' > extra.s
"${CC:-cc}" -shared -nostdlib extra.s -o libextra.so
touch stamp
