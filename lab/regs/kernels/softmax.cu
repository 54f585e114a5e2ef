/*
 * softmax.cu - a row softmax, one block of 256 threads a row of 4,096
 * floats (n / 4096 rows): each thread keeps its 16 values in registers
 * through the max, the sum of exponentials and the scaling, with warp
 * shuffles and one shared-memory step per reduction. out has in's shape.
 */
#define SM_ROW 4096
#define SM_THREADS 256
#define SM_ITEMS (SM_ROW / SM_THREADS)
#define SM_WARPS (SM_THREADS / 32)

/* The block's max (MAX) or sum of v, the same value in every thread. */
template <bool MAX> static __device__ __forceinline__ float sm_block_reduce(float v, float *scratch)
{
#pragma unroll
    for (int offset = 16; offset > 0; offset /= 2) {
        const float o = __shfl_xor_sync(0xffffffffu, v, offset);
        v = MAX ? fmaxf(v, o) : v + o;
    }
    if (threadIdx.x % 32 == 0) {
        scratch[threadIdx.x / 32] = v;
    }
    __syncthreads();
    v = scratch[0];
#pragma unroll
    for (int w = 1; w < SM_WARPS; w++) {
        v = MAX ? fmaxf(v, scratch[w]) : v + scratch[w];
    }
    __syncthreads(); /* scratch is reused by the next reduction */
    return v;
}

extern "C" __global__ void kernel(const float *__restrict__ in, float *__restrict__ out, int n)
{
    __shared__ float scratch[SM_WARPS];
    const size_t row = (size_t)blockIdx.x * SM_ROW;
    if (row + SM_ROW > (size_t)n) {
        return;
    }
    float v[SM_ITEMS];
    float m = -INFINITY;
#pragma unroll
    for (int j = 0; j < SM_ITEMS; j++) {
        v[j] = in[row + threadIdx.x + j * SM_THREADS];
        m = fmaxf(m, v[j]);
    }
    m = sm_block_reduce<true>(m, scratch);
    float s = 0.0f;
#pragma unroll
    for (int j = 0; j < SM_ITEMS; j++) {
        v[j] = expf(v[j] - m);
        s += v[j];
    }
    s = sm_block_reduce<false>(s, scratch);
    const float inv = 1.0f / s;
#pragma unroll
    for (int j = 0; j < SM_ITEMS; j++) {
        out[row + threadIdx.x + j * SM_THREADS] = v[j] * inv;
    }
}
