// fits.cu without __launch_bounds__: ptxas cannot tell the register count
// at entry and drops every setmaxnreg with C7508 ("'setmaxnreg' ignored;
// unable to determine register count at entry"), NVIDIA/cutlass#3406.
extern "C" __global__ void c7508(float *out, const float *in, int n)
{
    int warp_group = threadIdx.x / 128;
    if (warp_group == 0) {
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
