// hungry.cu - a register-hungry kernel for occ regs' tests (tests/data/regs/README.md):
// 64 accumulators live across a loop, so ptxas wants about 72 registers and spills
// under a cap of 64. With -DOCC_MIN_BLOCKS=N the kernel carries
// __launch_bounds__(256, N), which tests/test_regs.c compares with occ regs' variant N.
#define ACCUMULATORS 64

#ifdef OCC_MIN_BLOCKS
#define BOUNDS __launch_bounds__(256, OCC_MIN_BLOCKS)
#else
#define BOUNDS
#endif

extern "C" __global__ void BOUNDS hungry(const float *in, float *out, int iterations)
{
    float acc[ACCUMULATORS];
    int t = blockIdx.x * blockDim.x + threadIdx.x;
#pragma unroll
    for (int i = 0; i < ACCUMULATORS; i++) {
        acc[i] = in[t + i * 1024];
    }
    for (int k = 0; k < iterations; k++) {
#pragma unroll
        for (int i = 0; i < ACCUMULATORS; i++) {
            acc[i] = acc[i] * acc[(i + 1) % ACCUMULATORS] + acc[(i + 7) % ACCUMULATORS];
        }
    }
    float sum = 0;
#pragma unroll
    for (int i = 0; i < ACCUMULATORS; i++) {
        sum += acc[i];
    }
    out[t] = sum;
}
