// kernels.cu - the kernels occ inspect's tests compile for every arch: each one exercises
// one resource the readers must report (tests/test_inspect.c compares them to ptxas -v).
#include <cooperative_groups.h>

// Plain: registers only.
__global__ void plain(float *a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] *= 2.0f;
}

// __launch_bounds__(128, 4): max threads 128; the min-blocks hint caps registers.
__global__ void __launch_bounds__(128, 4) bounded(float *a)
{
    __shared__ float tile[1024];
    tile[threadIdx.x] = a[threadIdx.x];
    __syncthreads();
    a[threadIdx.x] = tile[(threadIdx.x + 1) % 128];
}

// Dynamic shared memory and one barrier; a template, so the name demangles.
extern __shared__ float dynamic_buffer[];
template <typename T> __global__ void dynamic_smem(T *a)
{
    dynamic_buffer[threadIdx.x] = a[threadIdx.x];
    __syncthreads();
    a[threadIdx.x] = dynamic_buffer[blockDim.x - 1 - threadIdx.x];
}
template __global__ void dynamic_smem<float>(float *);

// A local array indexed at run time lives in local memory (stack); capped registers spill.
__global__ void __launch_bounds__(1024) spills(double *out, const double *in, int n)
{
    double acc[48];
    for (int i = 0; i < 48; i++) acc[i] = in[(i * 7 + n) & 1023];
    for (int r = 0; r < 3; r++)
        for (int i = 0; i < 48; i++) acc[(i * 13 + r + n) % 48] += acc[i] * in[i];
    double s = 0;
    for (int i = 0; i < 48; i++) s += acc[i] * acc[(i + n) % 48];
    out[threadIdx.x] = s;
}

// A call to a non-inlined function: a stack frame and cumulative stack.
__device__ __noinline__ int callee(const int *p, int i)
{
    int buf[32];
    for (int k = 0; k < 32; k++) buf[k] = p[k + i];
    return buf[i & 31];
}
__global__ void calls(int *p, int i) { p[0] = callee(p, i); }

// An explicit register cap.
__global__ void __maxnreg__(40) capped(float *a) { a[threadIdx.x] += 1.0f; }

// Named barriers: two of them.
__global__ void named_barriers(float *a)
{
    a[threadIdx.x] += 1.0f;
    asm volatile("bar.sync 1, 64;");
    a[threadIdx.x] *= 2.0f;
    asm volatile("bar.sync 2, 64;");
}

#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900
// Clusters exist from sm_90: a compile-time cluster of 2x1x1.
__global__ void __cluster_dims__(2, 1, 1) clustered(float *a)
{
    cooperative_groups::cluster_group c = cooperative_groups::this_cluster();
    c.sync();
    a[threadIdx.x] = (float)c.block_rank();
}
#endif

#ifdef WITH_MAIN
int main()
{
    float *p = nullptr;
    cudaMalloc(&p, 4096);
    plain<<<1, 32>>>(p, 32);
    return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
#endif
