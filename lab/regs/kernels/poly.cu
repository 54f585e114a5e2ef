/*
 * poly.cu - a compute-bound, high-ILP polynomial: each thread holds 8
 * independent values and applies a degree-16 polynomial to each 32 times
 * (Horner's rule, 16 dependent FMAs per value, 8 chains interleaved), then
 * writes them back. The coefficients keep |p(x)| <= 1 on [-1, 1], so the
 * iteration stays finite. Thread t of T works on in[t + j T], j < 8: the
 * grid is n / (256 x 8) blocks. Issue-bound: latency hidden by ILP, not by
 * warps, so extra blocks buy little and spills cost much.
 */
#define POLY_VALUES 8
#define POLY_DEGREE 16
#define POLY_ROUNDS 32

/* c[k] = (-1)^k / (k + 2)^2: sum |c| < 0.65 */
static __device__ __forceinline__ float poly_coefficient(int k)
{
    return (k % 2 ? -1.0f : 1.0f) / (float)((k + 2) * (k + 2));
}

extern "C" __global__ void kernel(const float *__restrict__ in, float *__restrict__ out, int n)
{
    const size_t threads = (size_t)gridDim.x * blockDim.x;
    const size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (threads * POLY_VALUES > (size_t)n) {
        return;
    }
    float v[POLY_VALUES];
#pragma unroll
    for (int j = 0; j < POLY_VALUES; j++) {
        v[j] = in[t + j * threads];
    }
#pragma unroll 1
    for (int r = 0; r < POLY_ROUNDS; r++) {
        float y[POLY_VALUES];
#pragma unroll
        for (int j = 0; j < POLY_VALUES; j++) {
            y[j] = poly_coefficient(POLY_DEGREE);
        }
#pragma unroll
        for (int k = POLY_DEGREE - 1; k >= 0; k--) {
#pragma unroll
            for (int j = 0; j < POLY_VALUES; j++) {
                y[j] = __fmaf_rn(y[j], v[j], poly_coefficient(k));
            }
        }
#pragma unroll
        for (int j = 0; j < POLY_VALUES; j++) {
            v[j] = y[j];
        }
    }
#pragma unroll
    for (int j = 0; j < POLY_VALUES; j++) {
        out[t + j * threads] = v[j];
    }
}
