/*
 * fake_libcuda.c - a stand-in libcuda.so.1 for testing regs_bench without a
 * GPU (lab/regs/test_regs_bench.sh): the driver API calls regs_bench makes,
 * on host memory, where each "cubin" is a text file saying what the kernel
 * in it does:
 *
 *   regs=40 local=0 smem=0 max_threads=1024 blocks=4 ms=0.5 value=1.5 behaviour=ok
 *
 * behaviour: ok (out[0 .. n/4) = value: the tests check no more), partial
 * (out[0] stays as it was, the NaN regs_bench poisons it with), hang (the launch never ends),
 * sticky (the launch fails with CUDA_ERROR_ILLEGAL_ADDRESS and the context stays broken), crash
 * (the process aborts in the launch), stall (cuModuleLoad never returns: only the parent's watchdog
 * can end it), badload (cuModuleLoad fails). FAKE_CUDA_NO_GPU=1 makes cuInit fail as on a machine
 * without a GPU. Nothing here is a model of a GPU; it only drives regs_bench's paths.
 */
#include <cuda.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct fake_module {
    int regs, local, smem, max_threads, blocks;
    float ms, value;
    char behaviour[32];
} fake_module;

static fake_module current;   /* the one loaded module (regs_bench loads one at a time) */
static int launched;          /* a launch of current is in flight */
static CUresult sticky_error; /* CUDA_SUCCESS until a sticky behaviour ran */

CUresult cuInit(unsigned int flags)
{
    (void)flags;
    const char *no_gpu = getenv("FAKE_CUDA_NO_GPU");
    return no_gpu != NULL && strcmp(no_gpu, "1") == 0 ? CUDA_ERROR_NO_DEVICE : CUDA_SUCCESS;
}

CUresult cuDeviceGet(CUdevice *device, int ordinal)
{
    *device = ordinal;
    return CUDA_SUCCESS;
}

CUresult cuDevicePrimaryCtxRetain(CUcontext *ctx, CUdevice dev)
{
    (void)dev;
    *ctx = (CUcontext)0x1;
    return CUDA_SUCCESS;
}

CUresult cuCtxSetCurrent(CUcontext ctx)
{
    (void)ctx;
    return CUDA_SUCCESS;
}

CUresult cuCtxSynchronize(void)
{
    return sticky_error;
}

CUresult cuDeviceGetAttribute(int *value, CUdevice_attribute attrib, CUdevice dev)
{
    (void)dev;
    switch (attrib) {
    case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR: *value = 2048; break;
    case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT: *value = 2; break;
    case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR: *value = 9; break;
    default: *value = 0;
    }
    return CUDA_SUCCESS;
}

CUresult cuDeviceGetName(char *name, int len, CUdevice dev)
{
    (void)dev;
    snprintf(name, (size_t)len, "Fake GPU");
    return CUDA_SUCCESS;
}

CUresult cuDriverGetVersion(int *version)
{
    *version = 13000;
    return CUDA_SUCCESS;
}

CUresult cuGetErrorName(CUresult error, const char **str)
{
    *str = error == CUDA_ERROR_ILLEGAL_ADDRESS  ? "CUDA_ERROR_ILLEGAL_ADDRESS"
           : error == CUDA_ERROR_NO_DEVICE      ? "CUDA_ERROR_NO_DEVICE"
           : error == CUDA_ERROR_FILE_NOT_FOUND ? "CUDA_ERROR_FILE_NOT_FOUND"
                                                : "CUDA_ERROR_UNKNOWN";
    return CUDA_SUCCESS;
}

CUresult cuGetErrorString(CUresult error, const char **str)
{
    (void)error;
    *str = "fake error";
    return CUDA_SUCCESS;
}

CUresult cuMemAlloc(CUdeviceptr *dptr, size_t bytes)
{
    void *p = malloc(bytes);
    *dptr = (CUdeviceptr)p;
    return p != NULL ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
}

CUresult cuMemcpyHtoD(CUdeviceptr dst, const void *src, size_t bytes)
{
    memcpy((void *)dst, src, bytes);
    return sticky_error;
}

CUresult cuMemcpyDtoH(void *dst, CUdeviceptr src, size_t bytes)
{
    memcpy(dst, (const void *)src, bytes);
    return sticky_error;
}

CUresult cuMemsetD8(CUdeviceptr dst, unsigned char value, size_t count)
{
    memset((void *)dst, value, count);
    return sticky_error;
}

CUresult cuEventCreate(CUevent *event, unsigned int flags)
{
    (void)flags;
    *event = (CUevent)malloc(1);
    return CUDA_SUCCESS;
}

CUresult cuEventRecord(CUevent event, CUstream stream)
{
    (void)event;
    (void)stream;
    return sticky_error;
}

CUresult cuEventQuery(CUevent event)
{
    (void)event;
    if (launched && strcmp(current.behaviour, "hang") == 0) {
        return CUDA_ERROR_NOT_READY;
    }
    if (launched && strcmp(current.behaviour, "sticky") == 0) {
        sticky_error = CUDA_ERROR_ILLEGAL_ADDRESS;
    }
    return sticky_error;
}

CUresult cuEventElapsedTime(float *ms, CUevent start, CUevent end)
{
    (void)start;
    (void)end;
    *ms = current.ms;
    return sticky_error;
}

CUresult cuModuleLoad(CUmodule *module, const char *path)
{
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        return CUDA_ERROR_FILE_NOT_FOUND;
    }
    memset(&current, 0, sizeof current);
    current.max_threads = 1024;
    current.blocks = 1;
    current.ms = 1.0f;
    snprintf(current.behaviour, sizeof current.behaviour, "ok");
    char word[64];
    while (fscanf(f, "%63s", word) == 1) {
        sscanf(word, "regs=%d", &current.regs);
        sscanf(word, "local=%d", &current.local);
        sscanf(word, "smem=%d", &current.smem);
        sscanf(word, "max_threads=%d", &current.max_threads);
        sscanf(word, "blocks=%d", &current.blocks);
        sscanf(word, "ms=%f", &current.ms);
        sscanf(word, "value=%f", &current.value);
        sscanf(word, "behaviour=%31s", current.behaviour);
    }
    fclose(f);
    launched = 0;
    if (strcmp(current.behaviour, "stall") == 0) {
        for (;;) {
            pause();
        }
    }
    if (strcmp(current.behaviour, "badload") == 0) {
        return CUDA_ERROR_INVALID_IMAGE;
    }
    *module = (CUmodule)&current;
    return CUDA_SUCCESS;
}

CUresult cuModuleGetFunction(CUfunction *f, CUmodule module, const char *name)
{
    (void)module;
    if (strcmp(name, "kernel") != 0) {
        return CUDA_ERROR_NOT_FOUND;
    }
    *f = (CUfunction)&current;
    return CUDA_SUCCESS;
}

CUresult cuModuleUnload(CUmodule module)
{
    (void)module;
    return CUDA_SUCCESS;
}

CUresult cuFuncGetAttribute(int *value, CUfunction_attribute attrib, CUfunction f)
{
    (void)f;
    switch (attrib) {
    case CU_FUNC_ATTRIBUTE_NUM_REGS: *value = current.regs; break;
    case CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES: *value = current.local; break;
    case CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES: *value = current.smem; break;
    case CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK: *value = current.max_threads; break;
    case CU_FUNC_ATTRIBUTE_BINARY_VERSION: *value = 90; break;
    default: *value = 0;
    }
    return CUDA_SUCCESS;
}

CUresult cuFuncSetAttribute(CUfunction f, CUfunction_attribute attrib, int value)
{
    (void)f;
    (void)attrib;
    (void)value;
    return CUDA_SUCCESS;
}

CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(int *blocks, CUfunction f, int threads,
                                                     size_t dyn_smem)
{
    (void)f;
    (void)threads;
    (void)dyn_smem;
    *blocks = current.blocks;
    return CUDA_SUCCESS;
}

CUresult cuLaunchKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                        unsigned by, unsigned bz, unsigned smem, CUstream stream, void **params,
                        void **extra)
{
    (void)f, (void)gx, (void)gy, (void)gz, (void)bx, (void)by, (void)bz, (void)smem;
    (void)stream, (void)extra;
    if (sticky_error != CUDA_SUCCESS) {
        return sticky_error;
    }
    if (strcmp(current.behaviour, "crash") == 0) {
        abort();
    }
    float *out = *(float **)params[1];
    const int n = *(int *)params[2];
    const int first = strcmp(current.behaviour, "partial") == 0 ? 1 : 0;
    for (int i = first; i < n / 4; i++) {
        out[i] = current.value;
    }
    launched = 1;
    return CUDA_SUCCESS;
}
