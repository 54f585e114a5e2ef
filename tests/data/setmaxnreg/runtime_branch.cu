// The role comes from a kernel parameter, not from the warp group: which
// group runs which setmaxnreg cannot be told from the PTX.
extern "C" __global__ void __launch_bounds__(384, 1) runtime_branch(float *out, const float *in, int n,
                                                         int producer)
{
    if (producer != 0) {
        asm volatile("setmaxnreg.dec.sync.aligned.u32 40;\n");
        out[threadIdx.x] = in[threadIdx.x];
    } else {
        asm volatile("setmaxnreg.inc.sync.aligned.u32 232;\n");
        float acc = 0;
        for (int i = 0; i < n; i++) {
            acc += in[i * 384 + threadIdx.x] * acc + 1.0f;
        }
        out[threadIdx.x] = acc;
    }
}
