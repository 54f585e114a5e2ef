/*
 * kernel_args.h - the options that describe one kernel launch on one GPU,
 * shared by calc, explain, sweep and suggest: each command's option table
 * starts with KERNEL_OPTIONS and hands indexes below KOPT_COUNT to
 * kernel_args_apply().
 */
#ifndef OCC_KERNEL_ARGS_H
#define OCC_KERNEL_ARGS_H

#include "cli.h"

#define KERNEL_OPTIONS                                                                        \
    {"gpu", true, "NAME", "GPU name, alias or arch: H200, a100-80gb, sm_90, 9.0"},            \
        {"gpu-file", true, "FILE", "a GPU described in JSON (docs/gpu-file.md)"},             \
        {"threads", true, "N", "threads per block: 256, or 16x16, or 8x8x4"},                 \
        {"regs", true, "N", "registers per thread (ptxas: Used N registers)"},                \
        {"smem", true, "BYTES", "static shared memory per block: 4096, 48K, 1.5KiB"},         \
        {"dyn-smem", true, "BYTES", "dynamic shared memory per block (launch argument)"},     \
        {"carveout", true, "PCT", "shared memory carveout preference: default, or 0..100"},   \
        {"max-threads", true, "N", "the kernel's __launch_bounds__ maximum threads per block"}, \
        {"barriers", true, "N", "block barriers the kernel uses (default 1)"},                \
        {"optin", true, "BYTES",                                                              \
         "cudaFuncAttributeMaxDynamicSharedMemorySize: max (default), none, or bytes"},       \
        {"partitioned-gc", true, "MODE", "partitioned global caching: off (default), on, strict"}, \
    {                                                                                         \
        "smem-config", true, "BYTES",                                                         \
            "the SM's shared memory configuration, as Nsight shows it (default: the carveout's)" \
    }

enum {
    KOPT_GPU, KOPT_GPU_FILE, KOPT_THREADS, KOPT_REGS, KOPT_SMEM, KOPT_DYN_SMEM, KOPT_CARVEOUT,
    KOPT_MAX_THREADS, KOPT_BARRIERS, KOPT_OPTIN, KOPT_PGC, KOPT_SMEM_CONFIG, KOPT_COUNT
};

typedef struct kernel_args {
    occ_kernel kernel;
    const char *gpu;
    const char *gpu_file;
    bool threads_given;
} kernel_args;

void kernel_args_init(kernel_args *a);

/* Applies option `index` (< KOPT_COUNT); EXIT_USAGE after a message naming
   the option and value when the value is bad. */
int kernel_args_apply(const char *command, int index, const char *value, kernel_args *a,
                      const cli_io *io);

/* Finds the GPU and checks the kernel against it (--threads required when
   `need_threads`); EXIT_USAGE / EXIT_DATA after a message. */
int kernel_args_resolve(const char *command, kernel_args *a, bool need_threads,
                        occ_device *dev, const cli_io *io);

/* Parses "256", "16x16" or "8x8x4" into the kernel's block dimensions. */
bool calc_parse_threads(const char *text, occ_kernel *kernel);

#endif /* OCC_KERNEL_ARGS_H */
