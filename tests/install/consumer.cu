/*
 * consumer.cu - CUDA code that calls the installed libocc from host code,
 * compiled by nvcc against the installed prefix (tests/install/test_nvcc.sh):
 * the occ.h a CUDA project includes must build as CUDA C++ next to the
 * toolkit's headers and link from nvcc.
 *
 * Its answers are held against the toolkit's own calculator,
 * cuda_occupancy.h, included in the same file: on the H200, for block sizes
 * 32..1024, registers 16..255 and four static shared-memory sizes, libocc's
 * blocks per SM must equal cudaOccMaxActiveBlocksPerMultiprocessor's.
 * Host code only: it needs no GPU.
 */
#include <cstdio>
#include <cuda_occupancy.h>

#include "occ.h"
// tests/header_bridge.h: an occ device and kernel in cuda_occupancy.h's terms.
#include "header_bridge.h"

// A kernel, so that this is CUDA code as a user has it; it is never launched.
__global__ void scale(float *x, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        x[i] *= a;
    }
}

int main()
{
    occ_device gpu;
    occ_error err;
    if (occ_gpu_find("H200", &gpu, &err) != OCC_OK) {
        std::fprintf(stderr, "occ_gpu_find: %s\n", err.message);
        return 1;
    }
    long configurations = 0;
    long mismatches = 0;
    for (int threads = 32; threads <= 1024; threads += 32) {
        for (int regs = 16; regs <= 255; regs += 7) {
            for (int smem_kb = 0; smem_kb <= 48; smem_kb += 16) {
                occ_kernel k;
                occ_kernel_init(&k);
                k.block_x = threads;
                k.regs_per_thread = regs;
                k.static_smem_bytes = smem_kb * 1024;
                occ_result got;
                occ_status ours = occ_calc(&gpu, &k, &got, &err);

                cudaOccDeviceProp prop = bridge_device(&gpu);
                cudaOccFuncAttributes attr = bridge_kernel(&gpu, &k);
                cudaOccDeviceState state = bridge_state(&k);
                cudaOccResult want;
                cudaOccError theirs =
                    cudaOccMaxActiveBlocksPerMultiprocessor(&want, &prop, &attr, &state, threads, 0);
                configurations++;
                bool same = ours == OCC_OK && theirs == CUDA_OCC_SUCCESS &&
                            got.blocks_per_sm == want.activeBlocksPerMultiprocessor;
                if (!same && mismatches++ < 5) {
                    std::fprintf(stderr,
                                 "%d threads, %d regs, %d KB: libocc %d (status %d), "
                                 "cuda_occupancy.h %d (status %d)\n",
                                 threads, regs, smem_kb, got.blocks_per_sm, (int)ours,
                                 want.activeBlocksPerMultiprocessor, (int)theirs);
                }
            }
        }
    }
    std::printf("%s: %ld configurations, %ld differ from cuda_occupancy.h\n", occ_version(),
                configurations, mismatches);
    return mismatches == 0 ? 0 : 1;
}
