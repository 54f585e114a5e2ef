#!/bin/sh
# make_fixtures.sh - the nvcc-made inputs of tests/test_archive.c (static archives, objects
# and a diff of two cubins), from tests/diff/variants.cu. Run by CMake once per build
# directory where nvcc exists (five nvcc calls, a few seconds).
#
# usage: make_fixtures.sh NVCC SOURCE OUT_DIR
# Writes into OUT_DIR:
#   old.cubin, old.log           SOURCE for sm_90, and its ptxas -v log
#   new.cubin, new.log           the same with -DNEW_BUILD
#   variants_relocatable_device_code.o
#                                SOURCE as an -rdc object: its code only in __nv_relfatbin
#   whole.o                      SOURCE -DNEW_BUILD as a whole-program object (.nv_fatbin)
#   small.fatbin                 SOURCE for sm_80, a fatbin file
#   extra.o                      an object holding small.fatbin in .kernels_extra, outside
#                                .nv_fatbin (as libcublasLt.so.13 keeps containers)
#   note.txt                     3 bytes of text: a member without code, which also puts
#                                the next member's data off an 8-byte boundary
#   libvariants.a                ar rc of note.txt, the -rdc object (a long name: GNU's
#                                "//" table), whole.o and extra.o
#   libsections.a                130 objects: the first names .kernels_extra (one byte, no
#                                container); 56 of the next chunk of 64 members name five
#                                data sections of their own each (280 names), and the
#                                chunk's last holds small.fatbin in .kernels_extra: a
#                                chunk met more than 256 names before the one the
#                                collector knew (inspect/engine/collect.c, archive chunks)
set -eu
nvcc=$1
src=$2
out=$3
mkdir -p "$out"
cd "$out"
"$nvcc" -cubin -arch=sm_90 -Xptxas -v "$src" -o old.cubin 2> old.log
"$nvcc" -cubin -arch=sm_90 -DNEW_BUILD -Xptxas -v "$src" -o new.cubin 2> new.log
"$nvcc" -arch=sm_90 -rdc=true -c "$src" -o variants_relocatable_device_code.o
"$nvcc" -arch=sm_90 -DNEW_BUILD -c "$src" -o whole.o
"$nvcc" -fatbin -arch=sm_80 "$src" -o small.fatbin
printf '%s\n' '.section .kernels_extra,"a"' '.balign 8' '.incbin "small.fatbin"' > extra.s
"${CC:-cc}" -c extra.s -o extra.o
printf 'abc' > note.txt
rm -f libvariants.a
ar rc libvariants.a note.txt variants_relocatable_device_code.o whole.o extra.o
mkdir -p sections
i=0
while [ $i -lt 130 ]; do
    {
        if [ $i -eq 0 ]; then
            printf '%s\n' '.section .kernels_extra,"a"' '.byte 0'
        elif [ $i -eq 127 ]; then
            printf '%s\n' '.section .kernels_extra,"a"' '.balign 8' '.incbin "small.fatbin"'
        elif [ $i -ge 64 ] && [ $i -lt 120 ]; then
            for k in 1 2 3 4 5; do printf '.section .rodata.m%d_%d,"a"\n.byte %d\n' $i $k $k; done
        else
            printf '%s\n' '.section .rodata,"a"' '.byte 1'
        fi
    } > sections/m$i.s
    "${CC:-cc}" -c sections/m$i.s -o sections/m$i.o
    i=$((i + 1))
done
rm -f libsections.a
i=0
while [ $i -lt 130 ]; do ar q libsections.a sections/m$i.o; i=$((i + 1)); done
touch stamp
