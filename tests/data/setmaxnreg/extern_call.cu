// A consumer that calls a function of another compilation unit (-rdc):
// ptxas keeps the registers the call's ABI needs and drops setmaxnreg, with
// C7504 under -c and C7506 under -ewp.
extern __device__ float helper(float x);

extern "C" __global__ void __launch_bounds__(384, 1) extern_call(float *out, const float *in)
{
    if (threadIdx.x / 128 == 0) {
        asm volatile("setmaxnreg.dec.sync.aligned.u32 40;\n");
        out[threadIdx.x] = in[threadIdx.x];
    } else {
        asm volatile("setmaxnreg.inc.sync.aligned.u32 232;\n");
        out[threadIdx.x] = helper(in[threadIdx.x]);
    }
}
