// setmaxnreg_probe.cu - runs one kernel of tests/data/setmaxnreg/ on the GPU
// present and says whether it finished: a kernel whose warp groups ask for
// more registers than the block holds at entry spins in setmaxnreg.inc
// (USETMAXREG.TRY_ALLOC) for ever, which is what occ's fits:false says.
// Built by tests/gpu/setmaxnreg_run.sh with -DKERNEL_FILE="NAME.cu",
// -DKERNEL=NAME and -DTHREADS=N; prints one line and exits 0 when the kernel
// finished, 3 when it had not finished after WAIT_SECONDS (the process then
// exits, and with it the context and the kernel).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>

#include KERNEL_FILE

#define CHECK(call)                                                                                \
    do {                                                                                           \
        cudaError_t e_ = (call);                                                                   \
        if (e_ != cudaSuccess) {                                                                   \
            std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,                     \
                         cudaGetErrorString(e_));                                                  \
            std::exit(1);                                                                          \
        }                                                                                          \
    } while (0)

#define STR2(x) #x
#define STR(x) STR2(x)
#define WAIT_SECONDS 10
#define ITERATIONS 64

int main()
{
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    int blocks_per_sm = 0;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, KERNEL, THREADS, 0));
    cudaFuncAttributes attr;
    CHECK(cudaFuncGetAttributes(&attr, KERNEL));
    size_t elements = (size_t)(ITERATIONS + 1) * 1024;
    float *in = nullptr, *out = nullptr;
    CHECK(cudaMalloc(&in, elements * sizeof(float)));
    CHECK(cudaMalloc(&out, 1024 * sizeof(float)));
    CHECK(cudaMemset(in, 0, elements * sizeof(float)));
    int blocks = prop.multiProcessorCount * (blocks_per_sm > 0 ? blocks_per_sm : 1);
    auto start = std::chrono::steady_clock::now();
    KERNEL<<<blocks, THREADS>>>(out, in, ITERATIONS);
    CHECK(cudaGetLastError());
    for (;;) {
        cudaError_t q = cudaStreamQuery(0);
        double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (q == cudaSuccess) {
            std::printf("%s: %s, %d registers at entry, %d threads, %d blocks per SM, %d blocks: "
                        "finished in %.3f ms\n",
                        STR(KERNEL), prop.name, attr.numRegs, THREADS, blocks_per_sm, blocks,
                        s * 1e3);
            return 0;
        }
        if (q != cudaErrorNotReady) {
            std::printf("%s: failed: %s\n", STR(KERNEL), cudaGetErrorString(q));
            return 1;
        }
        if (s > WAIT_SECONDS) {
            std::printf("%s: %s, %d registers at entry, %d threads, %d blocks per SM, %d blocks: "
                        "NOT FINISHED after %d s (deadlocked in setmaxnreg.inc)\n",
                        STR(KERNEL), prop.name, attr.numRegs, THREADS, blocks_per_sm, blocks,
                        WAIT_SECONDS);
            std::fflush(stdout);
            std::_Exit(3);
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
}
