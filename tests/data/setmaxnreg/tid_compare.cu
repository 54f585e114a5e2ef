// The producer is the last warp group, told apart by comparing threadIdx.x
// itself (as TileLang writes it): group 2 gives back to 24, groups 0 and 1
// take 240. (24 + 2 x 240) x 128 = 64,512.
extern "C" __global__ void __launch_bounds__(384, 1) tid_compare(float *out, const float *in, int n)
{
    if (threadIdx.x >= 256) {
        asm volatile("setmaxnreg.dec.sync.aligned.u32 24;\n");
        out[threadIdx.x] = in[threadIdx.x];
    } else {
        asm volatile("setmaxnreg.inc.sync.aligned.u32 240;\n");
        float acc = 0;
        for (int i = 0; i < n; i++) {
            acc += in[i * 384 + threadIdx.x] * acc + 1.0f;
        }
        out[threadIdx.x] = acc;
    }
}
