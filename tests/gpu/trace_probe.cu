// trace_probe.cu - a program whose launches occ lab trace records and occ
// profile checks (tests/gpu/run_lab_trace.sh): 3 kernels x dynamic shared
// memory 128 B..96 KB x carveout preferences none, 0, 50, 100 x 3 block sizes,
// each launched twice on 264 blocks, and a cluster launch of 2. Prints the
// number of launches it made.
#include <cstdio>

#define CHECK(call)                                                                                \
    do {                                                                                           \
        cudaError_t e_ = (call);                                                                   \
        if (e_ != cudaSuccess) {                                                                   \
            std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,                     \
                         cudaGetErrorString(e_));                                                  \
            return 1;                                                                              \
        }                                                                                          \
    } while (0)

__global__ void light(float *out)
{
    extern __shared__ float buf[];
    buf[threadIdx.x % 32] = threadIdx.x;
    __syncthreads();
    out[blockIdx.x] = buf[0];
}

// a second build with -DHEAVY_TILE_FLOATS=8192 is the "new build" of
// tests/gpu/run_diff_launches.sh: 32 KB of static shared memory instead of 16
#ifndef HEAVY_TILE_FLOATS
#define HEAVY_TILE_FLOATS 4096
#endif

__global__ void __launch_bounds__(256) heavy(float *out)
{
    __shared__ float tile[HEAVY_TILE_FLOATS];
    extern __shared__ float buf[];
    tile[threadIdx.x] = threadIdx.x;
    buf[threadIdx.x % 32] = tile[(threadIdx.x * 7) % 256];
    __syncthreads();
    out[blockIdx.x] = buf[1] + tile[2];
}

__global__ void __cluster_dims__(2, 1, 1) clustered(float *out)
{
    __shared__ float s[1024];
    s[threadIdx.x] = threadIdx.x;
    __syncthreads();
    out[blockIdx.x] = s[0];
}

int main()
{
    float *out;
    CHECK(cudaMalloc(&out, 1024 * sizeof(float)));
    const int dyn[] = {128, 8192, 49152, 98304}; // at least the 32 floats buf holds
    const int carveouts[] = {-1, 0, 50, 100};
    const int blocks[] = {64, 128, 256};
    CHECK(cudaFuncSetAttribute(light, cudaFuncAttributeMaxDynamicSharedMemorySize, 98304));
    CHECK(cudaFuncSetAttribute(heavy, cudaFuncAttributeMaxDynamicSharedMemorySize, 98304));
    int launches = 0;
    for (int c : carveouts) {
        if (c >= 0) {
            CHECK(cudaFuncSetAttribute(light, cudaFuncAttributePreferredSharedMemoryCarveout, c));
            CHECK(cudaFuncSetAttribute(heavy, cudaFuncAttributePreferredSharedMemoryCarveout, c));
        }
        for (int d : dyn) {
            for (int b : blocks) {
                for (int rep = 0; rep < 2; rep++) {
                    light<<<264, b, d>>>(out);
                    CHECK(cudaGetLastError());
                    heavy<<<264, b, d>>>(out);
                    CHECK(cudaGetLastError());
                    launches += 2;
                }
            }
        }
    }
    for (int rep = 0; rep < 2; rep++) {
        clustered<<<264, 256>>>(out);
        CHECK(cudaGetLastError());
        launches++;
    }
    CHECK(cudaDeviceSynchronize());
    std::printf("%d\n", launches);
    return 0;
}
