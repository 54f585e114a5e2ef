/*
 * scan.cu - an inclusive prefix sum of each 4,096-float segment of in, one
 * block of 1,024 threads a segment: a thread scans its 4 consecutive
 * values in registers, warps scan the thread totals with shuffles, warp 0
 * scans the 32 warp totals, and each thread adds what precedes it. A fixed
 * order, so every cap gives the same bits. At 1,024 threads a block, every
 * 32 registers a thread is one block an SM: caps move occupancy in big steps.
 */
#define SCAN_THREADS 1024
#define SCAN_ITEMS 4
#define SCAN_SEGMENT (SCAN_THREADS * SCAN_ITEMS)

extern "C" __global__ void kernel(const float *__restrict__ in, float *__restrict__ out, int n)
{
    __shared__ float warp_totals[SCAN_THREADS / 32];
    const size_t base = (size_t)blockIdx.x * SCAN_SEGMENT;
    if (base + SCAN_SEGMENT > (size_t)n) {
        return;
    }
    const int lane = threadIdx.x % 32;
    const int warp = threadIdx.x / 32;
    const float4 q = *(const float4 *)&in[base + (size_t)threadIdx.x * SCAN_ITEMS];
    float v[SCAN_ITEMS] = {q.x, q.y, q.z, q.w};
#pragma unroll
    for (int j = 1; j < SCAN_ITEMS; j++) {
        v[j] += v[j - 1];
    }
    /* Inclusive scan of the thread totals within the warp. */
    float total = v[SCAN_ITEMS - 1];
#pragma unroll
    for (int offset = 1; offset < 32; offset *= 2) {
        const float o = __shfl_up_sync(0xffffffffu, total, offset);
        if (lane >= offset) {
            total += o;
        }
    }
    if (lane == 31) {
        warp_totals[warp] = total;
    }
    __syncthreads();
    if (warp == 0) {
        float w = warp_totals[lane];
#pragma unroll
        for (int offset = 1; offset < 32; offset *= 2) {
            const float o = __shfl_up_sync(0xffffffffu, w, offset);
            if (lane >= offset) {
                w += o;
            }
        }
        warp_totals[lane] = w;
    }
    __syncthreads();
    /* What precedes this thread: earlier warps, then earlier lanes. */
    const float before = (warp > 0 ? warp_totals[warp - 1] : 0.0f) + (total - v[SCAN_ITEMS - 1]);
    float4 r;
    r.x = before + v[0];
    r.y = before + v[1];
    r.z = before + v[2];
    r.w = before + v[3];
    *(float4 *)&out[base + (size_t)threadIdx.x * SCAN_ITEMS] = r;
}
