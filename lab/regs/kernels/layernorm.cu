/*
 * layernorm.cu - layer normalisation of rows of 1,024 floats (n / 1024
 * rows), one warp a row and 8 rows a 256-thread block: each lane keeps its
 * 32 values in registers for the mean, the variance (two passes over the
 * registers, not over memory) and the scaled output; gamma and beta are
 * fixed patterns of the column. out has in's shape. 32 live values a
 * thread, 64 registers unconstrained (ptxas 13.0): caps of 56 and below
 * spill them.
 */
#define LN_ROW 1024
#define LN_ITEMS (LN_ROW / 32)
#define LN_ROWS_PER_BLOCK 8
#define LN_EPSILON 1e-5f

static __device__ __forceinline__ float ln_warp_sum(float v)
{
#pragma unroll
    for (int offset = 16; offset > 0; offset /= 2) {
        v += __shfl_xor_sync(0xffffffffu, v, offset);
    }
    return v;
}

extern "C" __global__ void kernel(const float *__restrict__ in, float *__restrict__ out, int n)
{
    const int lane = threadIdx.x % 32;
    const size_t row = (size_t)blockIdx.x * LN_ROWS_PER_BLOCK + threadIdx.x / 32;
    if ((row + 1) * LN_ROW > (size_t)n) {
        return;
    }
    const float *src = in + row * LN_ROW;
    float v[LN_ITEMS];
    float sum = 0.0f;
#pragma unroll
    for (int j = 0; j < LN_ITEMS; j++) {
        v[j] = src[lane + 32 * j];
        sum += v[j];
    }
    const float mean = ln_warp_sum(sum) * (1.0f / LN_ROW);
    float sq = 0.0f;
#pragma unroll
    for (int j = 0; j < LN_ITEMS; j++) {
        const float d = v[j] - mean;
        sq = __fmaf_rn(d, d, sq);
    }
    const float inv_std = rsqrtf(ln_warp_sum(sq) * (1.0f / LN_ROW) + LN_EPSILON);
    float *dst = out + row * LN_ROW;
#pragma unroll
    for (int j = 0; j < LN_ITEMS; j++) {
        const int col = lane + 32 * j;
        const float gamma = 1.0f + 0.125f * (float)(col % 7);
        const float beta = 0.0625f * (float)(col % 5);
        dst[col] = __fmaf_rn((v[j] - mean) * inv_std, gamma, beta);
    }
}
