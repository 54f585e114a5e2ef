/*
 * dot32.cu - a dot product of in[0 .. n/2) and in[n/2 .. n) with 32
 * accumulators a thread: each pass issues 32 loads of x and 32 of y and
 * adds each product into its own accumulator (no dependent adds between
 * loads), over n / (2 x 32 T) passes, T the grid's threads; then the
 * accumulators are summed in a fixed order, the block's sums reduced with
 * shuffles and shared memory, and block b writes out[b]. As written, 64
 * loads in flight and 32 accumulators; ptxas 13.0 interleaves them into 48
 * registers unconstrained (caps of 40 and below spill) and uses up to 108
 * when a cap allows, so caps trade loads in flight for warps.
 */
#define DOT_ACC 32
#define DOT_THREADS 256

extern "C" __global__ void kernel(const float *__restrict__ in, float *__restrict__ out, int n)
{
    __shared__ float warp_sums[DOT_THREADS / 32];
    const size_t half = (size_t)n / 2;
    const size_t threads = (size_t)gridDim.x * DOT_THREADS;
    const size_t t = (size_t)blockIdx.x * DOT_THREADS + threadIdx.x;
    if (blockDim.x != DOT_THREADS || half % (threads * DOT_ACC) != 0) {
        return;
    }
    const float *x = in;
    const float *y = in + half;
    float acc[DOT_ACC];
#pragma unroll
    for (int j = 0; j < DOT_ACC; j++) {
        acc[j] = 0.0f;
    }
    for (size_t base = 0; base < half; base += threads * DOT_ACC) {
        float xv[DOT_ACC];
        float yv[DOT_ACC];
#pragma unroll
        for (int j = 0; j < DOT_ACC; j++) {
            xv[j] = x[base + j * threads + t];
            yv[j] = y[base + j * threads + t];
        }
#pragma unroll
        for (int j = 0; j < DOT_ACC; j++) {
            acc[j] = __fmaf_rn(xv[j], yv[j], acc[j]);
        }
    }
    float sum = 0.0f;
#pragma unroll
    for (int j = 0; j < DOT_ACC; j++) {
        sum += acc[j];
    }
#pragma unroll
    for (int offset = 16; offset > 0; offset /= 2) {
        sum += __shfl_down_sync(0xffffffffu, sum, offset);
    }
    if (threadIdx.x % 32 == 0) {
        warp_sums[threadIdx.x / 32] = sum;
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        float s = 0.0f;
#pragma unroll
        for (int w = 0; w < DOT_THREADS / 32; w++) {
            s += warp_sums[w];
        }
        out[blockIdx.x] = s;
    }
}
