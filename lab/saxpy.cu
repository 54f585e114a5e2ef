/*
 * saxpy.cu - the arrays of the out = a*x + y experiments (residency,
 * blocksize): sized well past the L2, filled with non-trivial values, the
 * output poisoned before each row and checked bit for bit afterwards.
 */
#include <math.h>
#include <string.h>

#include "occ_lab.h"

/* 512 MiB per array: with three arrays, 26x the H200's 60 MB L2 (cudaDeviceProp
   l2CacheSize on the H200: 62,914,560 bytes), so no pass is served by L2. */
#define SAXPY_MIN_BYTES (512ull << 20)
/* The issue asks for arrays of at least 8x the L2 on any GPU. */
#define SAXPY_L2_MULTIPLE 8ull
#define SAXPY_ALIGN_BYTES (64ull << 20)

/* A 32-bit mix (the finaliser of MurmurHash3, a public-domain constant
   pair) so x and y look random but the host can reproduce them. */
static unsigned mix32(unsigned h)
{
    h ^= h >> 16;
    h *= 0x85ebca6bu;
    h ^= h >> 13;
    h *= 0xc2b2ae35u;
    h ^= h >> 16;
    return h;
}

/* A value in [-1, 1) with 24 significant bits: exact as a float. */
static float value_of(size_t i, unsigned seed)
{
    unsigned h = mix32((unsigned)i * 2654435761u ^ seed ^ (unsigned)(i >> 32));
    return (float)(int)(h >> 8) * (1.0f / 8388608.0f) - 1.0f;
}

void lab_saxpy_open(const lab_gpu *gpu, const lab_options *opt, lab_saxpy *s)
{
    (void)opt;
    unsigned long long bytes = SAXPY_L2_MULTIPLE * (unsigned long long)gpu->prop.l2CacheSize;
    if (bytes < SAXPY_MIN_BYTES) {
        bytes = SAXPY_MIN_BYTES;
    }
    bytes = (bytes + SAXPY_ALIGN_BYTES - 1) / SAXPY_ALIGN_BYTES * SAXPY_ALIGN_BYTES;
    memset(s, 0, sizeof *s);
    s->n = (size_t)(bytes / sizeof(float));
    s->a = 1.7320508f; /* sqrt(3): no power of two, so every product rounds */
    lab_progress("saxpy arrays: 3 x %llu MiB", bytes >> 20);

    float *x = (float *)malloc(bytes);
    float *y = (float *)malloc(bytes);
    s->reference = (float *)malloc(bytes);
    if (x == NULL || y == NULL || s->reference == NULL) {
        LAB_FAIL("cannot allocate 3 x %llu bytes of host memory", bytes);
    }
    for (size_t i = 0; i < s->n; i++) {
        x[i] = value_of(i, 0x1234567u);
        y[i] = value_of(i, 0x89abcdefu);
        /* The kernel computes __fmaf_rn(a, x, y): one rounding, as fmaf. */
        s->reference[i] = fmaf(s->a, x[i], y[i]);
    }
    LAB_CHECK(cudaMalloc((void **)&s->x, bytes));
    LAB_CHECK(cudaMalloc((void **)&s->y, bytes));
    LAB_CHECK(cudaMalloc((void **)&s->out, bytes));
    LAB_CHECK(cudaMemcpy(s->x, x, bytes, cudaMemcpyHostToDevice));
    LAB_CHECK(cudaMemcpy(s->y, y, bytes, cudaMemcpyHostToDevice));
    LAB_CHECK(cudaMallocHost((void **)&s->check, bytes));
    free(x);
    free(y);
}

void lab_saxpy_close(lab_saxpy *s)
{
    LAB_CHECK(cudaFree(s->x));
    LAB_CHECK(cudaFree(s->y));
    LAB_CHECK(cudaFree(s->out));
    LAB_CHECK(cudaFreeHost(s->check));
    free(s->reference);
    memset(s, 0, sizeof *s);
}

void lab_saxpy_poison(lab_saxpy *s)
{
    /* 0xFF bytes: the float 0xFFFFFFFF is a NaN, which never equals a
       reference value, so an element the kernel skipped cannot pass. */
    LAB_CHECK(cudaMemset(s->out, 0xFF, s->n * sizeof(float)));
}

void lab_saxpy_check(lab_saxpy *s, const char *row)
{
    LAB_CHECK(cudaDeviceSynchronize());
    LAB_CHECK(cudaMemcpy(s->check, s->out, s->n * sizeof(float), cudaMemcpyDeviceToHost));
    if (memcmp(s->check, s->reference, s->n * sizeof(float)) == 0) {
        return;
    }
    for (size_t i = 0; i < s->n; i++) {
        if (memcmp(&s->check[i], &s->reference[i], sizeof(float)) != 0) {
            LAB_FAIL("row %s: out[%zu] is %.9g, expected %.9g (fmaf(%.9g, x, y)); the first "
                     "wrong element of %zu",
                     row, i, (double)s->check[i], (double)s->reference[i], (double)s->a, s->n);
        }
    }
}

double lab_saxpy_bytes(const lab_saxpy *s)
{
    return 3.0 * (double)s->n * sizeof(float);
}
