/*
 * occ_lab.h - what the experiments of occ-lab share: the checked CUDA call, the
 * record writer, the present GPU as libocc sees it, and the experiments.
 *
 * occ-lab only measures. It prints one JSON object per line on stdout (a
 * "record", docs/lab.md lists every kind and field) and progress on stderr;
 * `occ lab` reads the records and does the analysis and presentation.
 * Host code is plain C in style; kernels are CUDA C (templates only where a
 * compile-time constant must vary).
 */
#ifndef OCC_LAB_H
#define OCC_LAB_H

#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#include "occ.h"

/* Exit codes of occ-lab; `occ lab` turns each into one line and exit 1. */
enum {
    LAB_EXIT_OK = 0,
    LAB_EXIT_FAILED = 1, /* a check failed: wrong output, driver and libocc disagree */
    LAB_EXIT_USAGE = 2,  /* bad command line */
    LAB_EXIT_NO_GPU = 3  /* no CUDA device (or no driver) */
};

/* Every CUDA call goes through LAB_CHECK: on failure it names the file, the
   line and the call, and ends the run (a half-measured table is worse than
   none). */
#define LAB_CHECK(call)                                                                            \
    do {                                                                                           \
        cudaError_t lab_err_ = (call);                                                             \
        if (lab_err_ != cudaSuccess) {                                                             \
            lab_cuda_fail(__FILE__, __LINE__, #call, lab_err_);                                    \
        }                                                                                          \
    } while (0)

/* After a kernel launch: the launch itself, then (in debug runs) nothing
   more; errors inside the kernel surface at the next checked sync. */
#define LAB_CHECK_LAUNCH() LAB_CHECK(cudaGetLastError())

void lab_cuda_fail(const char *file, int line, const char *call, cudaError_t err);

/* A check of the lab's own (wrong output, disagreement): one line, exit 1. */
void lab_fail(const char *file, int line, const char *format, ...)
    __attribute__((format(printf, 3, 4)));
#define LAB_FAIL(...) lab_fail(__FILE__, __LINE__, __VA_ARGS__)

/* Progress on stderr ("occ-lab: residency 12/43 ilp4-b2"). */
void lab_progress(const char *format, ...) __attribute__((format(printf, 1, 2)));

/* --- records (record.cu) ------------------------------------------------ */

/* One JSON object on one line of stdout. Begin, add fields, end. */
typedef struct lab_record {
    char text[2048];
    size_t used;
    int fields;
} lab_record;

void lab_record_begin(lab_record *r, const char *kind);
void lab_record_str(lab_record *r, const char *key, const char *value);
void lab_record_int(lab_record *r, const char *key, long long value);
void lab_record_num(lab_record *r, const char *key, double value);
void lab_record_bool(lab_record *r, const char *key, int value);
/* A JSON array of ints (an SM list); the record must stay under 2048 bytes. */
void lab_record_ints(lab_record *r, const char *key, const int *values, int count);
void lab_record_end(lab_record *r);

/* --- the GPU (gpu.cu) ---------------------------------------------------- */

typedef struct lab_gpu {
    cudaDeviceProp prop;
    occ_device device;  /* libocc's limits for prop's compute capability,
                           with the product facts filled from prop */
    int driver_version; /* cudaDriverGetVersion: 13000 is 13.0 */
    int runtime_version;
    int sm_clock_khz;  /* cudaDevAttrClockRate */
    int mem_clock_khz; /* cudaDevAttrMemoryClockRate */
    int mem_bus_bits;  /* cudaDevAttrGlobalMemoryBusWidth */
} lab_gpu;

/* Opens device 0 and checks libocc's limits against its properties (exits
   LAB_EXIT_NO_GPU without one, LAB_EXIT_FAILED when they disagree). */
void lab_gpu_open(lab_gpu *gpu);

/* Prints the "device" record. */
void lab_gpu_record(const lab_gpu *gpu);

/* occ_kernel for a compiled kernel: its attributes, block size and
   dynamic shared memory, opted in to the maximum as the lab always does. */
void lab_kernel_from_attributes(const cudaFuncAttributes *attr, int block_threads,
                                int dyn_smem_bytes, occ_kernel *out);

/* occ_calc or exit naming the kernel. */
void lab_occ_calc(const lab_gpu *gpu, const occ_kernel *k, const char *name, occ_result *out);

/* --- timing (timing.cu) -------------------------------------------------- */

/* Median and minimum of `count` times in ms (sorts `ms` in place). */
typedef struct lab_times {
    double median_ms;
    double min_ms;
    int runs;
} lab_times;
lab_times lab_times_of(float *ms, int count);

/* Runs launch(context) `warmups` times, then times `runs` launches, each
   between its own pair of CUDA events. */
typedef void (*lab_launch_fn)(void *context);
lab_times lab_time_launches(lab_launch_fn launch, void *context, int warmups, int runs);

#define LAB_WARMUPS 3
#define LAB_RUNS 15

/* --- the experiments ----------------------------------------------------- */

typedef struct lab_options {
    int quick; /* smaller arrays and fewer rows: the test suite's run */
} lab_options;

void lab_ceiling(const lab_gpu *gpu, const lab_options *opt);
void lab_latency(const lab_gpu *gpu, const lab_options *opt);
void lab_residency(const lab_gpu *gpu, const lab_options *opt);
void lab_blocksize(const lab_gpu *gpu, const lab_options *opt);
void lab_spill(const lab_gpu *gpu, const lab_options *opt);
void lab_timeline(const lab_gpu *gpu, const lab_options *opt);
void lab_verify(const lab_gpu *gpu, const lab_options *opt);
void lab_verify_clusters(const lab_gpu *gpu, const lab_options *opt); /* verify_clusters.cu */
/* verify.cu's kernels, for verify_clusters.cu. */
int lab_verify_kernel_count(void);
const void *lab_verify_kernel(int index, const char **name);
void lab_gpcs(const lab_gpu *gpu, const lab_options *opt);
void lab_clusters(const lab_gpu *gpu, const lab_options *opt);

/* cudaOccupancyMaxActiveClusters for a 1-D cluster of `size` blocks of the
   kernel (gpcs.cu); -1 when the driver refuses. */
int lab_driver_active_clusters(const void *func, int size, int block_threads, int dyn_smem_bytes);
/* Launches clusters x size blocks in 1-D clusters of `size` (gpcs.cu). */
void lab_launch_clusters(const void *func, void **args, int size, int clusters, int block_threads,
                         int dyn_smem_bytes);

/* --- streams of the a*x + y experiments (saxpy.cu) ----------------------- */

/* x, y and out on the device, out's reference on the host. */
typedef struct lab_saxpy {
    size_t n; /* floats per array */
    float a;
    float *x, *y, *out; /* device */
    float *reference;   /* host: fmaf(a, x[i], y[i]) */
    float *check;       /* host (pinned): out copied back */
} lab_saxpy;

/* Arrays of at least 8x the L2 (and 512 MiB unless quick). */
void lab_saxpy_open(const lab_gpu *gpu, const lab_options *opt, lab_saxpy *s);
void lab_saxpy_close(lab_saxpy *s);
/* Fills out with a NaN pattern so a missed element cannot pass. */
void lab_saxpy_poison(lab_saxpy *s);
/* Copies out back and compares it bit for bit with the reference; exits
   naming the first bad index. */
void lab_saxpy_check(lab_saxpy *s, const char *row);
/* Bytes one pass moves: x and y read, out written. */
double lab_saxpy_bytes(const lab_saxpy *s);

#endif /* OCC_LAB_H */
