/*
 * gemv.cu - y = A x for A 4096 x 4096 row-major (all of in) and x the
 * first 4,096 floats of in: one warp a row, 8 rows a 256-thread block,
 * each lane reading 32 float4s of its row into 4 independent partial sums
 * (loads in flight), then a shuffle reduction; out[row] = y[row]. Bound by
 * memory bandwidth.
 */
#define GV_DIM 4096
#define GV_ROWS_PER_BLOCK 8

extern "C" __global__ void kernel(const float *__restrict__ in, float *__restrict__ out, int n)
{
    if ((size_t)n < (size_t)GV_DIM * GV_DIM) {
        return;
    }
    const int lane = threadIdx.x % 32;
    const int row = blockIdx.x * GV_ROWS_PER_BLOCK + threadIdx.x / 32;
    const float4 *a = (const float4 *)(in + (size_t)row * GV_DIM);
    const float4 *x = (const float4 *)in;
    float part[4] = {0.0f, 0.0f, 0.0f, 0.0f};
#pragma unroll 8
    for (int c = lane; c < GV_DIM / 4; c += 32) {
        const float4 av = a[c];
        const float4 xv = x[c];
        part[0] = __fmaf_rn(av.x, xv.x, part[0]);
        part[1] = __fmaf_rn(av.y, xv.y, part[1]);
        part[2] = __fmaf_rn(av.z, xv.z, part[2]);
        part[3] = __fmaf_rn(av.w, xv.w, part[3]);
    }
    float sum = (part[0] + part[1]) + (part[2] + part[3]);
#pragma unroll
    for (int offset = 16; offset > 0; offset /= 2) {
        sum += __shfl_down_sync(0xffffffffu, sum, offset);
    }
    if (lane == 0) {
        out[row] = sum;
    }
}
