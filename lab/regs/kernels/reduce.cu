/*
 * reduce.cu - a block sum: 256 threads add 8 floats each (coalesced, all 8
 * loads in flight), then warp shuffles and one shared-memory step; block b
 * writes out[b], the sum of in[2048 b .. 2048 b + 2048). A fixed order, so
 * every cap gives the same bits. Few registers: the memory system limits it.
 */
#define REDUCE_THREADS 256
#define REDUCE_ITEMS 8

extern "C" __global__ void kernel(const float *__restrict__ in, float *__restrict__ out, int n)
{
    __shared__ float warp_sums[REDUCE_THREADS / 32];
    const size_t base = (size_t)blockIdx.x * REDUCE_THREADS * REDUCE_ITEMS;
    if (base + REDUCE_THREADS * REDUCE_ITEMS > (size_t)n) {
        return;
    }
    float v[REDUCE_ITEMS];
#pragma unroll
    for (int j = 0; j < REDUCE_ITEMS; j++) {
        v[j] = in[base + threadIdx.x + (size_t)j * REDUCE_THREADS];
    }
    float sum = 0.0f;
#pragma unroll
    for (int j = 0; j < REDUCE_ITEMS; j++) {
        sum += v[j];
    }
#pragma unroll
    for (int offset = 16; offset > 0; offset /= 2) {
        sum += __shfl_down_sync(0xffffffffu, sum, offset);
    }
    const int lane = threadIdx.x % 32;
    const int warp = threadIdx.x / 32;
    if (lane == 0) {
        warp_sums[warp] = sum;
    }
    __syncthreads();
    if (warp == 0) {
        sum = lane < REDUCE_THREADS / 32 ? warp_sums[lane] : 0.0f;
#pragma unroll
        for (int offset = 16; offset > 0; offset /= 2) {
            sum += __shfl_down_sync(0xffffffffu, sum, offset);
        }
        if (lane == 0) {
            out[blockIdx.x] = sum;
        }
    }
}
