/*
 * simd_bits.h - bit tricks the structural scans of kineto_json.c and csv.c
 * share (64 bytes at a time, a bit per byte).
 */
#ifndef OCC_PROF_SIMD_BITS_H
#define OCC_PROF_SIMD_BITS_H

#include <stdint.h>

/* Bit i set where an odd number of bits at or below i are set: with a
   block's quote bits, the bytes from an opening quote up to (not with) its
   closing one. */
static inline __attribute__((always_inline)) uint64_t prefix_xor(uint64_t x)
{
    x ^= x << 1;
    x ^= x << 2;
    x ^= x << 4;
    x ^= x << 8;
    x ^= x << 16;
    x ^= x << 32;
    return x;
}

#endif /* OCC_PROF_SIMD_BITS_H */
