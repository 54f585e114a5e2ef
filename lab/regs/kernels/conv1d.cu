/*
 * conv1d.cu - a 31-tap 1-D convolution of all of in with the filter held
 * in registers: each thread loads the 31 taps (in[0 .. 31) / 31) once and
 * keeps them live over 4 passes, each pass reading the 38-value window of
 * 8 consecutive outputs (edges clamped) and computing them tap-major. The
 * taps and the 8 sums stay live; ptxas 13.0 streams the window through a
 * few registers: 40 registers unconstrained, and caps of 32 and below
 * spill. A generous cap is not neutral: at 144 ptxas keeps the window too
 * and takes 128. Pass p of thread t covers outputs 8 (t + p T), T the
 * grid's threads, so the grid is n / (256 x 8 x 4) blocks. out has in's
 * shape.
 */
#define CV_TAPS 31
#define CV_RADIUS (CV_TAPS / 2)
#define CV_OUTPUTS 8 /* consecutive outputs a pass */
#define CV_PASSES 4
#define CV_WINDOW (CV_OUTPUTS + CV_TAPS - 1)

extern "C" __global__ void kernel(const float *__restrict__ in, float *__restrict__ out, int n)
{
    const long long threads = (long long)gridDim.x * blockDim.x;
    const long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (threads * CV_OUTPUTS * CV_PASSES > n || n < CV_TAPS) {
        return;
    }
    float w[CV_TAPS];
#pragma unroll
    for (int k = 0; k < CV_TAPS; k++) {
        w[k] = in[k] * (1.0f / CV_TAPS);
    }
#pragma unroll 1
    for (int p = 0; p < CV_PASSES; p++) {
        const long long first = (t + p * threads) * CV_OUTPUTS;
        float x[CV_WINDOW];
#pragma unroll
        for (int k = 0; k < CV_WINDOW; k++) {
            long long i = first + k - CV_RADIUS;
            i = i < 0 ? 0 : (i >= n ? n - 1 : i);
            x[k] = in[i];
        }
        float acc[CV_OUTPUTS];
#pragma unroll
        for (int o = 0; o < CV_OUTPUTS; o++) {
            acc[o] = 0.0f;
        }
#pragma unroll
        for (int k = 0; k < CV_TAPS; k++) {
#pragma unroll
            for (int o = 0; o < CV_OUTPUTS; o++) {
                acc[o] = __fmaf_rn(w[k], x[o + k], acc[o]);
            }
        }
#pragma unroll
        for (int o = 0; o < CV_OUTPUTS; o += 4) {
            *(float4 *)&out[first + o] = make_float4(acc[o], acc[o + 1], acc[o + 2], acc[o + 3]);
        }
    }
}
