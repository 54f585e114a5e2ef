// Four warp groups, one of which runs no setmaxnreg and keeps the count at
// entry (65536 / 512 = 128): 40 + 2 x 200 + 128 = 568 per thread-row,
// 72,704 per block, above the block's 65,536.
extern "C" __global__ void __launch_bounds__(512, 1) idle_group(float *out, const float *in, int n)
{
    int warp_group = threadIdx.x / 128;
    if (warp_group == 0) {
        asm volatile("setmaxnreg.dec.sync.aligned.u32 40;\n");
        out[threadIdx.x] = in[threadIdx.x];
    } else if (warp_group < 3) {
        asm volatile("setmaxnreg.inc.sync.aligned.u32 200;\n");
        float acc = 0;
        for (int i = 0; i < n; i++) {
            acc += in[i * 512 + threadIdx.x] * acc + 1.0f;
        }
        out[threadIdx.x] = acc;
    } else {
        out[threadIdx.x] = 0.0f;
    }
}
