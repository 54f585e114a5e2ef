/*
 * mandelbrot.cu - escape times of the Mandelbrot set on a 4096 x 4096
 * grid over [-2, 0.5] x [-1.25, 1.25] (n pixels), at most 256 iterations,
 * each point nudged by in[i] x 1e-4 so the input matters. A block is a
 * 16 x 16 tile of pixels, so a warp's iteration counts stay close. Few
 * registers, no memory traffic to speak of: divergence and the FMA pipe
 * limit it. out[i] is the iteration count as a float.
 */
#define MB_DIM 4096
#define MB_TILE 16
#define MB_MAX_ITER 256

extern "C" __global__ void kernel(const float *__restrict__ in, float *__restrict__ out, int n)
{
    if ((size_t)n < (size_t)MB_DIM * MB_DIM) {
        return;
    }
    const int tiles = MB_DIM / MB_TILE;
    const int px = (blockIdx.x % tiles) * MB_TILE + threadIdx.x % MB_TILE;
    const int py = (blockIdx.x / tiles) * MB_TILE + threadIdx.x / MB_TILE;
    const size_t i = (size_t)py * MB_DIM + px;
    const float nudge = in[i] * 1e-4f;
    const float cx = -2.0f + 2.5f * ((float)px / MB_DIM) + nudge;
    const float cy = -1.25f + 2.5f * ((float)py / MB_DIM) + nudge;
    float x = 0.0f;
    float y = 0.0f;
    int iter = 0;
    while (iter < MB_MAX_ITER && x * x + y * y <= 4.0f) {
        const float xt = __fmaf_rn(x, x, __fmaf_rn(-y, y, cx));
        y = __fmaf_rn(2.0f * x, y, cy);
        x = xt;
        iter++;
    }
    out[i] = (float)iter;
}
