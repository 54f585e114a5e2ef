// Two kernels in one compile: `bounded` has __launch_bounds__ and keeps its
// setmaxnreg; `unbounded` has none and ptxas drops its setmaxnreg with a
// C7508 that names no kernel. Only the cubin tells which kernel lost them.
__device__ __forceinline__ void produce_or_consume(float *out, const float *in, int n)
{
    if (threadIdx.x / 128 == 0) {
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

extern "C" __global__ void __launch_bounds__(384, 1) bounded(float *out, const float *in, int n)
{
    produce_or_consume(out, in, n);
}

extern "C" __global__ void unbounded(float *out, const float *in, int n)
{
    produce_or_consume(out, in, n);
}
