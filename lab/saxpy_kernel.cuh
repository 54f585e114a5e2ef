/*
 * saxpy_kernel.cuh - out = a*x + y with every load issued before the first
 * use (the TLP-vs-ILP kernel of seed 000, docs/sources.md): a thread holds
 * 2 x ITEMS independent loads in flight. Grid-stride by whole grids, so any
 * grid covers the array.
 */
#ifndef OCC_LAB_SAXPY_KERNEL_CUH
#define OCC_LAB_SAXPY_KERNEL_CUH

#include <stddef.h>

template <int ITEMS>
__device__ __forceinline__ void scale_add_body(float a, const float *__restrict__ x,
                                               const float *__restrict__ y,
                                               float *__restrict__ out, size_t n)
{
    const size_t step = (size_t)gridDim.x * blockDim.x;
    const size_t base = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    /* Literal indices after unrolling keep both arrays in registers. */
    float xv[ITEMS];
    float yv[ITEMS];
#pragma unroll
    for (int j = 0; j < ITEMS; j++) {
        const size_t i = base + (size_t)j * step;
        xv[j] = i < n ? x[i] : 0.0f;
        yv[j] = i < n ? y[i] : 0.0f;
    }
#pragma unroll
    for (int j = 0; j < ITEMS; j++) {
        const size_t i = base + (size_t)j * step;
        if (i < n) {
            out[i] = __fmaf_rn(a, xv[j], yv[j]);
        }
    }
}

/* The residency knob needs no code: dynamic shared memory the kernel never
   declares or reads, set by the third launch argument. */
template <int ITEMS>
__global__ void scale_add(float a, const float *__restrict__ x, const float *__restrict__ y,
                          float *__restrict__ out, size_t n)
{
    scale_add_body<ITEMS>(a, x, y, out, n);
}

template <int ITEMS, int MIN_BLOCKS>
__global__ void __launch_bounds__(256, MIN_BLOCKS)
    scale_add_bounded(float a, const float *__restrict__ x, const float *__restrict__ y,
                      float *__restrict__ out, size_t n)
{
    scale_add_body<ITEMS>(a, x, y, out, n);
}

typedef void (*scale_add_fn)(float, const float *, const float *, float *, size_t);

#endif /* OCC_LAB_SAXPY_KERNEL_CUH */
