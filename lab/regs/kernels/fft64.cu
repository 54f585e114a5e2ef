/*
 * fft64.cu - radix-4 butterflies in registers: each thread transforms 64
 * complex values (128 floats, all live) with a 64-point decimation-in-
 * frequency FFT of three radix-4 stages, twiddles from a constant table,
 * and writes the result in base-4 digit-reversed order. Thread g of T
 * holds element j at in[2 (j T + g)] (re, im): coalesced float2 loads. The
 * grid is n / (128 x 128) blocks of 128. The most register-hungry kernel
 * of the set: 157 registers unconstrained (ptxas 13.0), and every cap up to
 * 136 spills.
 */
#define FFT_POINTS 64

/* exp(-2 pi i k / 64) for k < 48, the largest exponent a stage needs (3 x 15). */
static __constant__ float2 fft_twiddle[48] = {
    {1.000000000e+00f, -0.000000000e+00f},  {9.951847267e-01f, -9.801714033e-02f},
    {9.807852804e-01f, -1.950903220e-01f},  {9.569403357e-01f, -2.902846773e-01f},
    {9.238795325e-01f, -3.826834324e-01f},  {8.819212643e-01f, -4.713967368e-01f},
    {8.314696123e-01f, -5.555702330e-01f},  {7.730104534e-01f, -6.343932842e-01f},
    {7.071067812e-01f, -7.071067812e-01f},  {6.343932842e-01f, -7.730104534e-01f},
    {5.555702330e-01f, -8.314696123e-01f},  {4.713967368e-01f, -8.819212643e-01f},
    {3.826834324e-01f, -9.238795325e-01f},  {2.902846773e-01f, -9.569403357e-01f},
    {1.950903220e-01f, -9.807852804e-01f},  {9.801714033e-02f, -9.951847267e-01f},
    {6.123233996e-17f, -1.000000000e+00f},  {-9.801714033e-02f, -9.951847267e-01f},
    {-1.950903220e-01f, -9.807852804e-01f}, {-2.902846773e-01f, -9.569403357e-01f},
    {-3.826834324e-01f, -9.238795325e-01f}, {-4.713967368e-01f, -8.819212643e-01f},
    {-5.555702330e-01f, -8.314696123e-01f}, {-6.343932842e-01f, -7.730104534e-01f},
    {-7.071067812e-01f, -7.071067812e-01f}, {-7.730104534e-01f, -6.343932842e-01f},
    {-8.314696123e-01f, -5.555702330e-01f}, {-8.819212643e-01f, -4.713967368e-01f},
    {-9.238795325e-01f, -3.826834324e-01f}, {-9.569403357e-01f, -2.902846773e-01f},
    {-9.807852804e-01f, -1.950903220e-01f}, {-9.951847267e-01f, -9.801714033e-02f},
    {-1.000000000e+00f, -1.224646799e-16f}, {-9.951847267e-01f, 9.801714033e-02f},
    {-9.807852804e-01f, 1.950903220e-01f},  {-9.569403357e-01f, 2.902846773e-01f},
    {-9.238795325e-01f, 3.826834324e-01f},  {-8.819212643e-01f, 4.713967368e-01f},
    {-8.314696123e-01f, 5.555702330e-01f},  {-7.730104534e-01f, 6.343932842e-01f},
    {-7.071067812e-01f, 7.071067812e-01f},  {-6.343932842e-01f, 7.730104534e-01f},
    {-5.555702330e-01f, 8.314696123e-01f},  {-4.713967368e-01f, 8.819212643e-01f},
    {-3.826834324e-01f, 9.238795325e-01f},  {-2.902846773e-01f, 9.569403357e-01f},
    {-1.950903220e-01f, 9.807852804e-01f},  {-9.801714033e-02f, 9.951847267e-01f}};

static __device__ __forceinline__ float2 fft_mul(float2 a, float2 w)
{
    return make_float2(a.x * w.x - a.y * w.y, a.x * w.y + a.y * w.x);
}

/* One stage: butterflies of span SPAN over groups of 4 SPAN; output m of
   butterfly q is multiplied by W64^(q m 64 / (4 SPAN)) and stays at
   q + m SPAN, so the result ends in digit-reversed order. Constant
   indices throughout: x stays in registers. */
template <int SPAN> static __device__ __forceinline__ void fft_stage(float2 (&x)[FFT_POINTS])
{
    const int stride = FFT_POINTS / (4 * SPAN);
#pragma unroll
    for (int group = 0; group < FFT_POINTS; group += 4 * SPAN) {
#pragma unroll
        for (int q = 0; q < SPAN; q++) {
            const int i0 = group + q;
            const float2 x0 = x[i0];
            const float2 x1 = x[i0 + SPAN];
            const float2 x2 = x[i0 + 2 * SPAN];
            const float2 x3 = x[i0 + 3 * SPAN];
            const float2 a0 = make_float2(x0.x + x2.x, x0.y + x2.y);
            const float2 a1 = make_float2(x0.x - x2.x, x0.y - x2.y);
            const float2 a2 = make_float2(x1.x + x3.x, x1.y + x3.y);
            /* (x1 - x3) x (-i) */
            const float2 a3 = make_float2(x1.y - x3.y, x3.x - x1.x);
            float2 y1 = make_float2(a1.x + a3.x, a1.y + a3.y);
            float2 y2 = make_float2(a0.x - a2.x, a0.y - a2.y);
            float2 y3 = make_float2(a1.x - a3.x, a1.y - a3.y);
            if (q > 0) {
                y1 = fft_mul(y1, fft_twiddle[q * stride]);
                y2 = fft_mul(y2, fft_twiddle[2 * q * stride]);
                y3 = fft_mul(y3, fft_twiddle[3 * q * stride]);
            }
            x[i0] = make_float2(a0.x + a2.x, a0.y + a2.y);
            x[i0 + SPAN] = y1;
            x[i0 + 2 * SPAN] = y2;
            x[i0 + 3 * SPAN] = y3;
        }
    }
}

extern "C" __global__ void kernel(const float *__restrict__ in, float *__restrict__ out, int n)
{
    const size_t threads = (size_t)gridDim.x * blockDim.x;
    const size_t g = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (threads * FFT_POINTS * 2 > (size_t)n) {
        return;
    }
    const float2 *src = (const float2 *)in;
    float2 *dst = (float2 *)out;
    float2 x[FFT_POINTS];
#pragma unroll
    for (int j = 0; j < FFT_POINTS; j++) {
        x[j] = src[j * threads + g];
    }
    fft_stage<FFT_POINTS / 4>(x);
    fft_stage<FFT_POINTS / 16>(x);
    fft_stage<FFT_POINTS / 64>(x);
#pragma unroll
    for (int j = 0; j < FFT_POINTS; j++) {
        dst[j * threads + g] = x[j];
    }
}
