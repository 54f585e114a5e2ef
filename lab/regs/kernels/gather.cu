/*
 * gather.cu - a gather through a computed index: out[i] = in[h(i)] for a
 * fixed hash h onto [0, n) (a multiplicative hash, then a mask: n is a
 * power of two here, and the index is reduced modulo n otherwise). Each
 * thread issues its 4 gathers before using any (i = t + k T, T the grid's
 * threads, so the grid is n / (256 x 4) blocks): random 4-byte reads, each
 * its own 32-byte sector, latency-bound, hidden by warps and by the 4
 * loads in flight.
 */
#define GA_ITEMS 4

static __device__ __forceinline__ unsigned ga_hash(unsigned i, unsigned n)
{
    unsigned h = i * 2654435761u; /* Knuth's multiplicative constant */
    h ^= h >> 15;
    h *= 2246822519u;
    h ^= h >> 13;
    return (n & (n - 1)) == 0 ? h & (n - 1) : h % n;
}

extern "C" __global__ void kernel(const float *__restrict__ in, float *__restrict__ out, int n)
{
    const unsigned threads = gridDim.x * blockDim.x;
    const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    if ((size_t)threads * GA_ITEMS > (size_t)n) {
        return;
    }
    float v[GA_ITEMS];
#pragma unroll
    for (int k = 0; k < GA_ITEMS; k++) {
        v[k] = in[ga_hash(t + k * threads, (unsigned)n)];
    }
#pragma unroll
    for (int k = 0; k < GA_ITEMS; k++) {
        out[t + k * threads] = v[k];
    }
}
