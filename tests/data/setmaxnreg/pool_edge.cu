// At the pool's edge: (48 + 2 x 232) x 128 = 65,536 registers, the whole
// register file, but 1,024 more than the block holds at entry (168 x 384 =
// 64,512). The pool is the block's (PTX ISA, "setmaxnreg"), not the SM's:
// setmaxnreg.inc waits for registers that never come back.
extern "C" __global__ void __launch_bounds__(384, 1) pool_edge(float *out, const float *in, int n)
{
    int warp_group = threadIdx.x / 128;
    if (warp_group == 0) {
        asm volatile("setmaxnreg.dec.sync.aligned.u32 48;\n");
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
