// The warp-group index as CUTLASS computes it (canonical_warp_group_idx:
// __shfl_sync of threadIdx.x / 128, so that it is uniform), a switch on the
// role, and one elected warp of the producer doing its work.
__device__ __forceinline__ int warp_group_index()
{
    return __shfl_sync(0xffffffff, threadIdx.x / 128, 0);
}

extern "C" __global__ void __launch_bounds__(384, 1) cutlass_style(float *out, const float *in, int n)
{
    int role = warp_group_index();
    int warp_in_group = __shfl_sync(0xffffffff, threadIdx.x / 32, 0) % 4;
    if (role == 0) {
        asm volatile("setmaxnreg.dec.sync.aligned.u32 40;\n");
        if (warp_in_group == 0) {
            out[threadIdx.x] = in[threadIdx.x];
        }
    } else if (role == 1 || role == 2) {
        asm volatile("setmaxnreg.inc.sync.aligned.u32 232;\n");
        float acc = 0;
        for (int i = 0; i < n; i++) {
            acc += in[i * 384 + threadIdx.x] * acc + 1.0f;
        }
        out[threadIdx.x] = acc;
    }
}
