/*
 * ncu_sweep.cu - kernels whose Nsight Compute occupancy curves
 * ("Impact of Varying Register Count / Shared Memory / Block Size / Barriers",
 * metrics launch__occupancy_per_*) occ sweep is checked against. Each kernel
 * is launched once; the program prints every kernel's launch and attributes
 * so the same inputs can be given to occ. Run under ncu by run_ncu_sweep.sh.
 */
#include <stdio.h>
#include <stdlib.h>

#define CHECK(call)                                                                    \
    do {                                                                               \
        cudaError_t err_ = (call);                                                     \
        if (err_ != cudaSuccess) {                                                     \
            fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,      \
                    cudaGetErrorString(err_));                                         \
            exit(1);                                                                   \
        }                                                                              \
    } while (0)

/* A register-hungry body: N live accumulators. */
template <int N>
__device__ float churn(const float *in, int i)
{
    float acc[N];
#pragma unroll
    for (int j = 0; j < N; j++) acc[j] = in[(i + j * 97) & 4095];
#pragma unroll
    for (int r = 0; r < 8; r++) {
#pragma unroll
        for (int j = 0; j < N; j++) acc[j] = acc[j] * acc[(j + 1) % N] + 1.0f;
    }
    float s = 0.0f;
#pragma unroll
    for (int j = 0; j < N; j++) s += acc[j];
    return s;
}

/* 1: moderate registers, 16 KB static shared memory, 256 threads. */
__global__ void k_static_smem(const float *in, float *out)
{
    __shared__ float tile[4096];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    tile[threadIdx.x] = churn<24>(in, i);
    __syncthreads();
    out[i] = tile[(threadIdx.x + 1) % blockDim.x];
}

/* 2: many registers, dynamic shared memory, 128 threads. */
__global__ void k_dyn_smem(const float *in, float *out)
{
    extern __shared__ float dyn[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    dyn[threadIdx.x] = churn<56>(in, i);
    __syncthreads();
    out[i] = dyn[(threadIdx.x + 3) % blockDim.x];
}

/* 3: 768-thread blocks (warp slots stranded by block granularity). */
__global__ void k_768(const float *in, float *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = churn<8>(in, i);
}

/* 4: several named barriers: bar.sync 1..3 beside __syncthreads. */
__global__ void k_barriers(const float *in, float *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = churn<4>(in, i);
    asm volatile("bar.sync 1, 64;" ::: "memory");
    asm volatile("bar.sync 2, 64;" ::: "memory");
    asm volatile("bar.sync 3, 64;" ::: "memory");
    out[i] = v;
}

/* 5-7: static shared memory of 8 KB and 40 KB, and dynamic memory with an
   opt-in: where does Nsight's shared-memory curve stop? */
__global__ void k_static8(const float *in, float *out)
{
    __shared__ float tile[2048];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    tile[threadIdx.x] = in[i & 4095];
    __syncthreads();
    out[i] = tile[(threadIdx.x + 1) % blockDim.x];
}

__global__ void k_static40(const float *in, float *out)
{
    __shared__ float tile[10240];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    tile[threadIdx.x] = in[i & 4095];
    __syncthreads();
    out[i] = tile[(threadIdx.x + 1) % blockDim.x];
}

__global__ void k_optin(const float *in, float *out)
{
    extern __shared__ float dyn[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    dyn[threadIdx.x] = in[i & 4095];
    __syncthreads();
    out[i] = dyn[(threadIdx.x + 1) % blockDim.x];
}

static void describe(const char *name, const void *fn, int threads, int dyn)
{
    cudaFuncAttributes a;
    CHECK(cudaFuncGetAttributes(&a, fn));
    int blocks = 0;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, fn, threads, (size_t)dyn));
    printf("kernel=%s threads=%d regs=%d static_smem=%zu dyn_smem=%d blocks_per_sm=%d\n", name,
           threads, a.numRegs, a.sharedSizeBytes, dyn, blocks);
}

int main(void)
{
    const int n = 64 * 1024 * 1024 / 4;
    float *in, *out;
    CHECK(cudaMalloc(&in, 4096 * sizeof(float)));
    CHECK(cudaMemset(in, 0, 4096 * sizeof(float)));
    CHECK(cudaMalloc(&out, (size_t)n * sizeof(float)));
    const int dyn = 40 * 1024;
    describe("k_static_smem", (const void *)k_static_smem, 256, 0);
    describe("k_dyn_smem", (const void *)k_dyn_smem, 128, dyn);
    describe("k_768", (const void *)k_768, 768, 0);
    describe("k_barriers", (const void *)k_barriers, 64, 0);
    describe("k_static8", (const void *)k_static8, 256, 0);
    describe("k_static40", (const void *)k_static40, 256, 0);
    CHECK(cudaFuncSetAttribute((const void *)k_optin, cudaFuncAttributeMaxDynamicSharedMemorySize,
                               100 * 1024));
    describe("k_optin", (const void *)k_optin, 256, 20 * 1024);
    k_static_smem<<<n / 256 / 64, 256>>>(in, out);
    k_dyn_smem<<<n / 128 / 64, 128, dyn>>>(in, out);
    k_768<<<132 * 2, 768>>>(in, out);
    k_barriers<<<n / 64 / 64, 64>>>(in, out);
    k_static8<<<n / 256 / 64, 256>>>(in, out);
    k_static40<<<n / 256 / 64, 256>>>(in, out);
    k_optin<<<n / 256 / 64, 256, 20 * 1024>>>(in, out);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaFree(in));
    CHECK(cudaFree(out));
    return 0;
}
