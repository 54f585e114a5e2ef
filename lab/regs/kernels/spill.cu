/*
 * spill.cu - the course's launch-bounds experiment kernel (lab/spill.cu's
 * spill_kernel: the launch-bounds comparison of "Occupancy is not the goal",
 * docs/sources.md) without __launch_bounds__: here
 * the register cap does the bounding. A thread keeps 64 floats live through
 * 8 rounds of FMAs that need them all: 77 registers unconstrained (ptxas
 * 13.0, sm_90), and caps of 72 and below spill to local memory, so
 * occupancy rises while the time gets worse.
 *
 * Thread t of T reads in[t + j*T] for j < 64, so the grid is n / (256 x 64)
 * blocks; it writes out[t]. Inputs are halved to [-0.5, 0.5], the lab's
 * range, so the rounds stay finite.
 */
#define SPILL_VALUES 64 /* live floats a thread keeps */
#define SPILL_ROUNDS 8  /* passes over them: FMAs that need them all live */

extern "C" __global__ void kernel(const float *__restrict__ in, float *__restrict__ out, int n)
{
    const size_t total = (size_t)gridDim.x * blockDim.x;
    const size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (total * SPILL_VALUES > (size_t)n) {
        return;
    }
    float v[SPILL_VALUES];
#pragma unroll
    for (int j = 0; j < SPILL_VALUES; j++) {
        v[j] = 0.5f * in[t + (size_t)j * total];
    }
#pragma unroll 1
    for (int r = 0; r < SPILL_ROUNDS; r++) {
#pragma unroll
        for (int j = 0; j < SPILL_VALUES; j++) {
            v[j] = __fmaf_rn(v[j], v[(j + 7) % SPILL_VALUES], 0.125f);
        }
    }
    float sum = 0.0f;
#pragma unroll
    for (int j = 0; j < SPILL_VALUES; j++) {
        sum += v[j];
    }
    out[t] = sum;
}
