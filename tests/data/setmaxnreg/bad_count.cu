// A setmaxnreg count the PTX ISA refuses, chosen with -DCOUNT=...: nvcc
// passes inline PTX through unchecked; ptxas (and occ) refuse it.
#define STR2(x) #x
#define STR(x) STR2(x)
extern "C" __global__ void __launch_bounds__(384, 1) bad_count(float *out, const float *in)
{
    if (threadIdx.x / 128 == 0) {
        asm volatile("setmaxnreg.dec.sync.aligned.u32 40;\n");
    } else {
        asm volatile("setmaxnreg.inc.sync.aligned.u32 " STR(COUNT) ";\n");
    }
    out[threadIdx.x] = in[threadIdx.x];
}
