/*
 * bitonic.cu - a bitonic sort in shared memory: each block of 512 threads
 * sorts one 1,024-float segment of in (n / 1024 blocks) ascending, one
 * compare-exchange a thread per step, 55 steps each ending at a barrier,
 * and writes it to out. Barriers and shared-memory traffic limit it;
 * registers hardly matter. NaN-free input, so the result is one order.
 */
#define BS_SEGMENT 1024
#define BS_THREADS 512

extern "C" __global__ void kernel(const float *__restrict__ in, float *__restrict__ out, int n)
{
    __shared__ float key[BS_SEGMENT];
    const size_t base = (size_t)blockIdx.x * BS_SEGMENT;
    if (base + BS_SEGMENT > (size_t)n) {
        return;
    }
    key[threadIdx.x] = in[base + threadIdx.x];
    key[threadIdx.x + BS_THREADS] = in[base + threadIdx.x + BS_THREADS];
    __syncthreads();
    for (int size = 2; size <= BS_SEGMENT; size *= 2) {
        for (int stride = size / 2; stride > 0; stride /= 2) {
            /* Pair p of the 512: the lower index i has bit `stride` clear. */
            const int p = threadIdx.x;
            const int i = 2 * p - (p & (stride - 1));
            const int j = i + stride;
            const bool ascending = (i & size) == 0;
            const float a = key[i];
            const float b = key[j];
            if ((a > b) == ascending) {
                key[i] = b;
                key[j] = a;
            }
            __syncthreads();
        }
    }
    out[base + threadIdx.x] = key[threadIdx.x];
    out[base + threadIdx.x + BS_THREADS] = key[threadIdx.x + BS_THREADS];
}
