/*
 * occ.h - the one public header of libocc.
 *
 * libocc computes CUDA occupancy exactly as the CUDA driver does: how many
 * blocks of a kernel stay resident on one SM, which per-SM resource limits
 * them, and what launch configuration the occupancy API would pick.
 *
 * The library is pure computation: no I/O, no allocation, no mutable global
 * state (the GPU database is read-only constant data). It builds as C11 for
 * hosts, for CUDA host code, and freestanding for WebAssembly.
 *
 * Conventions
 *  - Functions return an occ_status and fill results through out-pointers.
 *  - Every function that can fail takes an optional occ_error*; pass NULL
 *    when the reason is not needed. On failure it names the offending field
 *    and says why in one line ("threads 1100 exceed the 1024 per block of
 *    sm_90").
 *  - Sizes are in bytes (`_bytes`), counts carry their unit in the name
 *    (`_per_sm`, `_per_block`, `_per_thread`).
 *  - If a function is not declared here, it is not part of the API.
 */
#ifndef OCC_H
#define OCC_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define OCC_VERSION_MAJOR 0
#define OCC_VERSION_MINOR 1
#define OCC_VERSION_PATCH 0
#define OCC_VERSION_STRING "0.1.0"

/* Status codes. Append-only: values are never renumbered. */
typedef enum occ_status {
    OCC_OK = 0,
    OCC_ERR_INVALID_ARGUMENT = 1, /* a kernel or launch field is out of range */
    OCC_ERR_INVALID_DEVICE = 2,   /* a device description is inconsistent */
    OCC_ERR_UNKNOWN_GPU = 3,      /* no GPU in the database matches the name */
    OCC_ERR_NOT_FOUND = 4,        /* no configuration satisfies the request */
    OCC_ERR_NULL_POINTER = 5,     /* a required pointer argument was NULL */
    OCC_ERR_TEXT_TRUNCATED = 6,   /* a text did not fit its buffer; it was cut */
    OCC_ERR_IO = 7,               /* a file could not be opened or read */
    OCC_ERR_BAD_FORMAT = 8,       /* a file is not what it claims, or is damaged */
    OCC_ERR_LIMIT = 9,            /* an input is beyond a documented limit */
    OCC_ERR_OUT_OF_MEMORY = 10    /* an allocation failed */
} occ_status;

/* Why a call failed: the field at fault, the status returned and one
   human-readable line (functions that return something other than an
   occ_status, such as occ_explain_text, report their status here). */
#define OCC_ERROR_MESSAGE_BYTES 256
typedef struct occ_error {
    const char *field;                     /* e.g. "threads"; static string */
    char message[OCC_ERROR_MESSAGE_BYTES]; /* NUL-terminated, no newline */
    occ_status status;                     /* what the failing call returned */
} occ_error;

/* A short name for a status code ("invalid argument"). Never NULL. */
const char *occ_status_name(occ_status status);

/* The library version, OCC_VERSION_STRING. */
const char *occ_version(void);

/* ------------------------------------------------------------------------ */
/* Device description                                                       */
/* ------------------------------------------------------------------------ */

#define OCC_MAX_CARVEOUT_STEPS 12
#define OCC_DEVICE_NAME_BYTES 64

/* Where a device's memory latency comes from. Append-only. */
typedef enum occ_latency_source {
    OCC_LATENCY_UNKNOWN = 0,      /* no latency (mem_latency_ns is 0) */
    OCC_LATENCY_MEASURED = 1,     /* occ measured it on that GPU (occ lab latency) */
    OCC_LATENCY_PUBLISHED = 2,    /* a published measurement of that product */
    OCC_LATENCY_ARCHITECTURE = 3, /* a sibling product's figure, applied to this
                                     product of the same architecture */
    OCC_LATENCY_GIVEN = 4         /* the user gave it (e.g. in a --gpu-file) */
} occ_latency_source;

/* Where a device's GPC layout comes from. Append-only. */
typedef enum occ_gpc_source {
    OCC_GPC_UNKNOWN = 0,   /* no layout (gpc_count is 0): cluster counts are upper bounds */
    OCC_GPC_MEASURED = 1,  /* occ measured it on that GPU (tests/gpu/cluster_probe.cu) */
    OCC_GPC_PUBLISHED = 2, /* taken from published material, cited */
    OCC_GPC_GIVEN = 3      /* the user gave it (e.g. in a --gpu-file) */
} occ_gpc_source;

/* GPCs a layout may list (a full GH100 has 8; the H200's cluster scheduler
   sees 12 groups, tests/data/h200-clusters). */
#define OCC_MAX_GPCS 32

/*
 * Everything the occupancy calculation needs to know about one GPU, plus the
 * facts of a named product (SM count, clocks, memory) where known.
 *
 * Fill one from the database with occ_gpu_find() or occ_arch_find(); a
 * hand-written description (e.g. from a JSON file) must pass
 * occ_device_validate() before use.
 */
typedef struct occ_device {
    char name[OCC_DEVICE_NAME_BYTES]; /* "H200" or "sm_90" for a generic entry */
    int cc_major;                     /* compute capability, major */
    int cc_minor;                     /* compute capability, minor */

    /* Per-SM and per-block limits */
    int warp_size_threads;             /* threads per warp: 32 on every CUDA GPU */
    int max_threads_per_block;         /* 1024 */
    int max_threads_per_sm;            /* resident threads per SM (warps x 32) */
    int max_blocks_per_sm;             /* resident block slots per SM */
    int regs_per_sm;                   /* 32-bit registers per SM */
    int regs_per_block;                /* registers one block may hold */
    int max_regs_per_thread;           /* 255 */
    int reg_alloc_unit;                /* registers are allocated per warp in this unit */
    int sub_partitions_per_sm;         /* warp schedulers sharing the register file */
    int reg_fit_sub_partitions;        /* 0, or a second sub-partition count a block
                                          must also fit (GP100 refuses kernels that
                                          cannot run on GP10x) */
    int smem_per_sm_bytes;             /* shared memory per SM at the largest carveout */
    int smem_per_block_bytes;          /* per-block limit without opt-in (48 KB) */
    int smem_per_block_optin_bytes;    /* per-block limit with opt-in */
    int smem_reserved_per_block_bytes; /* taken by the driver from every block */
    int smem_alloc_unit_bytes;         /* shared memory allocation granularity */
    int carveout_step_count;           /* 0: fixed shared memory, no carveout */
    int carveout_steps_bytes[OCC_MAX_CARVEOUT_STEPS]; /* ascending; the last
                                                         equals smem_per_sm_bytes */
    int barriers_per_block_slot;                      /* block barriers per block slot that limit
                                                         residency; 0 where barriers never limit */
    bool partitioned_gc;                              /* supports partitioned global caching */

    /* Product facts; 0 where unknown (always 0 for generic entries) */
    int sm_count;                          /* streaming multiprocessors */
    int sm_clock_mhz;                      /* boost clock */
    int mem_bandwidth_gb_per_s;            /* peak DRAM bandwidth, 1e9 bytes/s */
    int l2_bytes;                          /* L2 cache size */
    int mem_latency_ns;                    /* DRAM load latency: one dependent load over a
                                              buffer far past L2; 0 where unknown */
    occ_latency_source mem_latency_source; /* where mem_latency_ns comes from */
    const char *mem_latency_citation;      /* static string: the source in a few
                                              words (docs/hardware.md); NULL: none */

    /* The GPC layout as the cluster scheduler sees it (CC >= 9.0): the SMs of
       each group whose SMs can hold the blocks of one cluster. gpc_count 0:
       unknown, and occ's cluster answers are upper bounds (docs/occupancy-rules.md) */
    int gpc_count;             /* 0 (unknown) .. OCC_MAX_GPCS */
    int gpc_sms[OCC_MAX_GPCS]; /* SMs of each GPC; they add up to sm_count */
    occ_gpc_source gpc_source; /* where the layout comes from */
    const char *gpc_citation;  /* static string: the source in a few words; NULL: none */
} occ_device;

/*
 * Checks that a device description is complete and self-consistent (every
 * limit positive, carveout steps ascending and ending at smem_per_sm_bytes,
 * a compute capability occ knows). Returns OCC_OK or OCC_ERR_INVALID_DEVICE
 * with the field named in *err.
 */
occ_status occ_device_validate(const occ_device *device, occ_error *err);

/* "sm_90" for compute capability 9.0; writes at most `bytes` incl. NUL. */
void occ_arch_name(int cc_major, int cc_minor, char *out, size_t bytes);

/* Resident warps per SM at full occupancy (max_threads_per_sm / warp size). */
int occ_device_max_warps_per_sm(const occ_device *device);

/* ------------------------------------------------------------------------ */
/* GPU database                                                             */
/* ------------------------------------------------------------------------ */

/* Number of entries: generic compute capabilities first, then named GPUs. */
int occ_gpu_count(void);

/*
 * Entry `index` (0 .. occ_gpu_count()-1). *is_named (optional) tells a named
 * product from a generic compute-capability entry. *aliases (optional)
 * receives a NULL-terminated list of the other names the entry answers to.
 * OCC_ERR_NOT_FOUND for an index outside the database.
 */
occ_status occ_gpu_at(int index, occ_device *out, bool *is_named, const char *const **aliases,
                      occ_error *err);

/*
 * Looks a GPU up by name, alias ("h100", "A100-80GB"), architecture name
 * ("sm_90", "sm_90a", "compute_90") or compute capability ("9.0"), ignoring
 * case, spaces, '-' and '_' and a leading "NVIDIA"/"GeForce"/"Tesla".
 * An unknown name returns OCC_ERR_UNKNOWN_GPU and lists the closest
 * matches in err->message.
 */
occ_status occ_gpu_find(const char *query, occ_device *out, occ_error *err);

/*
 * The generic entry for a compute capability (5.0 .. 12.1), named after it
 * ("sm_90"): the limits and rules every GPU of that architecture shares. It
 * is no product, so its product facts are 0, sm_count included: with it,
 * occ_max_potential_block_size's min_grid_size is 0, occ_cluster_calc
 * refuses (field "sm_count") and occ_memory_model_from_device has no
 * latency, bandwidth or SMs to use. For the GPU a program runs on, set
 * out->sm_count to its SM count (cudaDeviceProp.multiProcessorCount), or in
 * CUDA host code build the device with occ_device_from_cuda_prop
 * (include/occ_cuda.h), which does that and takes the runtime's limits.
 * OCC_ERR_UNKNOWN_GPU for a compute capability occ does not know.
 */
occ_status occ_arch_find(int cc_major, int cc_minor, occ_device *out, occ_error *err);

/*
 * Up to `max` database names closest to `query` (edit distance on the
 * normalised names), best first, among those close enough to be a typo (one
 * edit, or a quarter of the query's letters in a longer name); generic
 * entries (sm_90) only for a query that looks like an architecture. Returns
 * how many were written: 0 when nothing is close.
 */
int occ_gpu_closest(const char *query, const char **names, int max);

/* ------------------------------------------------------------------------ */
/* Kernel and launch description                                            */
/* ------------------------------------------------------------------------ */

/* Partitioned global caching (CC 5.2, 5.3, 6.1, 6.2), as cudaOccFuncAttributes */
typedef enum occ_partitioned_gc {
    OCC_PGC_OFF = 0,      /* disabled (the runtime's default) */
    OCC_PGC_ON = 1,       /* preferred; dropped if the block cannot fit */
    OCC_PGC_ON_STRICT = 2 /* forced, even if it lowers occupancy */
} occ_partitioned_gc;

/* Value of occ_kernel.max_dyn_smem_bytes meaning "opted in to the maximum". */
#define OCC_DYN_SMEM_OPTIN_MAX (-1)
/* Value of occ_kernel.max_dyn_smem_bytes meaning "never opted in". */
#define OCC_DYN_SMEM_NO_OPTIN (-2)
/* occ_kernel.carveout_percent for "no preference" (the driver's default). */
#define OCC_CARVEOUT_DEFAULT (-1)

/* cudaClusterSchedulingPolicy, as the launch attribute
   cudaLaunchAttributeClusterSchedulingPolicyPreference sets it. */
typedef enum occ_cluster_policy {
    OCC_CLUSTER_POLICY_DEFAULT = 0,       /* the driver's default */
    OCC_CLUSTER_POLICY_SPREAD = 1,        /* a cluster's blocks on distinct SMs */
    OCC_CLUSTER_POLICY_LOAD_BALANCING = 2 /* the hardware may put several on one SM */
} occ_cluster_policy;

/*
 * One kernel and its launch. Initialise with occ_kernel_init(), which sets
 * the driver's defaults, then set the fields you know.
 */
typedef struct occ_kernel {
    int block_x, block_y, block_z;     /* threads per block in each dimension */
    int regs_per_thread;               /* ptxas "Used N registers" / numRegs */
    int static_smem_bytes;             /* __shared__ arrays (sharedSizeBytes) */
    int dyn_smem_bytes;                /* third launch argument */
    int max_threads_per_block;         /* __launch_bounds__ maximum; 0 = none */
    int barriers;                      /* block barriers the kernel uses (default 1) */
    int carveout_percent;              /* OCC_CARVEOUT_DEFAULT or 0..100 */
    int max_dyn_smem_bytes;            /* cudaFuncAttributeMaxDynamicSharedMemorySize:
                                          OCC_DYN_SMEM_OPTIN_MAX (default),
                                          OCC_DYN_SMEM_NO_OPTIN, or bytes */
    occ_partitioned_gc partitioned_gc; /* default OCC_PGC_OFF */
    int smem_config_bytes;             /* the SM's shared-memory configuration, when
                                          known (Nsight Compute's "Shared Memory
                                          Configuration Size"): overrides the
                                          carveout preference; aligned up to a
                                          carveout step. 0 = from the preference */
    /* Thread-block clusters (CC >= 9.0): blocks per cluster in each dimension
       (cudaLaunchAttributeClusterDimension or __cluster_dims__); cluster_x 0
       (and y, z 1, the defaults): the launch has no clusters. occ_calc ignores them, as
       cudaOccupancyMaxActiveBlocksPerMultiprocessor does; occ_cluster_calc
       uses them. */
    int cluster_x, cluster_y, cluster_z;
    bool cluster_non_portable;         /* cudaFuncAttributeNonPortableClusterSizeAllowed:
                                          clusters above 8 blocks, up to 16 */
    occ_cluster_policy cluster_policy; /* default OCC_CLUSTER_POLICY_DEFAULT */
    int max_blocks_per_cluster;        /* __launch_bounds__'s third value
                                          (.maxclusterrank); 0 = none */
} occ_kernel;

/* Sets the driver's defaults: a 1x1x1 block, 1 barrier, default carveout,
   opted in to the maximum dynamic shared memory, partitioned caching off,
   no clusters. */
void occ_kernel_init(occ_kernel *kernel);

/* ------------------------------------------------------------------------ */
/* Occupancy                                                                */
/* ------------------------------------------------------------------------ */

/* Limits that can bind; a bit set in occ_result.limiters. (Named OCC_LIMITER_*
   so occ.h and the toolkit's cuda_occupancy.h can be included together.) */
typedef enum occ_limiter {
    OCC_LIMITER_WARPS = 1 << 0,      /* warp slots per SM */
    OCC_LIMITER_REGISTERS = 1 << 1,  /* register file */
    OCC_LIMITER_SHARED_MEM = 1 << 2, /* shared memory */
    OCC_LIMITER_BLOCKS = 1 << 3,     /* block slots per SM */
    OCC_LIMITER_BARRIERS = 1 << 4    /* block barriers (CC >= 9.0) */
} occ_limiter;

/* Why zero blocks fit, when they do not. */
typedef enum occ_zero_reason {
    OCC_ZERO_NONE = 0,           /* at least one block fits */
    OCC_ZERO_REGS_PER_BLOCK = 1, /* block needs more registers than a block may hold */
    OCC_ZERO_SMEM_PER_BLOCK = 2, /* block needs more shared memory than a block may have */
    OCC_ZERO_DYN_SMEM_OPTIN = 3, /* dynamic shared memory above the kernel's opt-in */
    OCC_ZERO_REGS_PER_SM = 4     /* the block's warps do not fit the register file */
} occ_zero_reason;

/* "Unlimited": the value of a per-limit block count for a resource the
   kernel does not use (as INT_MAX in the driver's header). */
#define OCC_UNLIMITED 2147483647

typedef struct occ_result {
    int threads_per_block; /* block_x * block_y * block_z */
    int warps_per_block;   /* ceil(threads / warp size) */
    int blocks_per_sm;     /* resident blocks per SM: the answer */
    int warps_per_sm;      /* blocks_per_sm * warps_per_block */
    int threads_per_sm;    /* blocks_per_sm * threads_per_block */
    int max_warps_per_sm;  /* the occupancy denominator */
    double occupancy;      /* warps_per_sm / max_warps_per_sm, 0..1 */

    /* The block count each resource allows (OCC_UNLIMITED if unused) */
    int limit_warps;             /* Nsight "Block Limit Warps" */
    int limit_blocks;            /* "Block Limit SM" */
    int limit_registers;         /* "Block Limit Registers" */
    int limit_shared_mem;        /* "Block Limit Shared Mem" */
    int limit_barriers;          /* "Block Limit Barriers" */
    unsigned limiters;           /* every occ_limiter whose limit equals
                                    blocks_per_sm (ties are reported) */
    occ_zero_reason zero_reason; /* why blocks_per_sm is 0 */

    /* Allocation */
    int regs_per_warp_allocated;        /* regs x 32 rounded up to the allocation unit */
    int regs_per_block_allocated;       /* per warp x warps per block */
    int warps_per_sm_by_regs;           /* warps the register file holds, by sub-partition */
    int smem_per_block_allocated_bytes; /* static + dynamic + reserved, rounded up */
    int smem_per_block_limit_bytes;     /* largest allocation one block may have */
    int smem_per_sm_bytes;              /* shared memory configured: the carveout used */
    int smem_preferred_bytes;           /* what the carveout preference asked for */
    bool partitioned_gc_on;             /* partitioned global caching in effect */
    bool needs_optin;           /* launch needs cudaFuncAttributeMaxDynamicSharedMemorySize */
    bool exceeds_launch_bounds; /* more threads than the kernel's __launch_bounds__:
                                   the launch fails, although the driver's occupancy
                                   API (and so blocks_per_sm) ignores the bound */
} occ_result;

/*
 * Resident blocks per SM for `kernel` on `device`: the driver's
 * cudaOccupancyMaxActiveBlocksPerMultiprocessor, with every limit and the
 * allocation behind it. Zero blocks is a valid answer (see zero_reason).
 * Returns OCC_ERR_INVALID_ARGUMENT for out-of-range input (threads above the
 * device's per-block maximum, registers above 255, negative sizes, ...).
 */
occ_status occ_calc(const occ_device *device, const occ_kernel *kernel, occ_result *result,
                    occ_error *err);

/* Checks a kernel description against a device without computing. */
occ_status occ_kernel_validate(const occ_device *device, const occ_kernel *kernel, occ_error *err);

/* ------------------------------------------------------------------------ */
/* Launch configuration                                                     */
/* ------------------------------------------------------------------------ */

/* Dynamic shared memory a block of `block_size` threads needs. */
typedef size_t (*occ_smem_for_block_fn)(int block_size, void *context);

typedef struct occ_block_size_result {
    int block_size;    /* threads per block with the most resident threads */
    int min_grid_size; /* blocks_per_sm x sm_count: one full wave */
    int blocks_per_sm; /* at block_size */
    double occupancy;  /* at block_size */
} occ_block_size_result;

/*
 * cudaOccupancyMaxPotentialBlockSize: tries block sizes from the limit down
 * in warp steps and keeps the largest with the most resident threads.
 * `block_size_limit` 0 means the device's maximum; the kernel's
 * max_threads_per_block also caps it. kernel->block_* are ignored. If
 * `smem_for_block` is non-NULL it gives the dynamic shared memory for each
 * block size; otherwise kernel->dyn_smem_bytes is used for all.
 * min_grid_size uses device->sm_count (0 for generic entries).
 */
occ_status occ_max_potential_block_size(const occ_device *device, const occ_kernel *kernel,
                                        int block_size_limit, occ_smem_for_block_fn smem_for_block,
                                        void *context, occ_block_size_result *out, occ_error *err);

typedef struct occ_dyn_smem_result {
    int driver_bytes;  /* what cudaOccupancyAvailableDynamicSMemPerBlock returns */
    int fitting_bytes; /* the largest dynamic size at which num_blocks blocks
                          really fit (the driver's answer ignores the reserved
                          shared memory, so it can let one block fewer fit) */
} occ_dyn_smem_result;

/*
 * cudaOccupancyAvailableDynamicSMemPerBlock(num_blocks, block_size) for the
 * kernel (its dyn_smem_bytes and block_* are ignored), plus the value that
 * truly fits. OCC_ERR_NOT_FOUND when num_blocks blocks cannot be resident
 * even without dynamic shared memory.
 */
occ_status occ_dyn_smem_available(const occ_device *device, const occ_kernel *kernel,
                                  int num_blocks, int block_size, occ_dyn_smem_result *out,
                                  occ_error *err);

/* ------------------------------------------------------------------------ */
/* Sweeps: the staircase of residency as one input varies                   */
/* ------------------------------------------------------------------------ */

/*
 * Nsight Compute's "Impact of Varying Register Count / Shared Memory Usage /
 * Block Size / Barrier Count" charts (metrics launch__occupancy_per_*), at
 * the same x points with the same values (checked against ncu 2025.3 on an
 * H200: tests/data/ncu-sweep/). The other inputs stay as in the kernel, and
 * so does the SM's shared-memory configuration, as Nsight holds the
 * launch's: pass it in kernel->smem_config_bytes (Nsight's "Shared Memory
 * Configuration Size"), or leave 0 for the configuration occ_calc picks.
 *
 * The x points, as Nsight draws them:
 *   OCC_SWEEP_REGS      0 .. 256 registers per thread (256 is past the
 *                       hardware's 255; the arithmetic is the same)
 *   OCC_SWEEP_SMEM      0, 512, ... below the SM's shared memory: bytes per
 *                       block as allocated (static + dynamic + the driver's
 *                       reserve), divided into the configuration as is;
 *                       the per-block cap is the opt-in maximum when the
 *                       kernel has static shared memory or opted in, else
 *                       the default 48 KB
 *   OCC_SWEEP_THREADS   1, 16, 32, 48 ... max threads per block
 *   OCC_SWEEP_BARRIERS  0 .. 64 (past the 16 a block can use)
 */
typedef enum occ_sweep_axis {
    OCC_SWEEP_REGS = 0,
    OCC_SWEEP_SMEM = 1,
    OCC_SWEEP_THREADS = 2,
    OCC_SWEEP_BARRIERS = 3
} occ_sweep_axis;

typedef struct occ_sweep_point {
    int value; /* x: registers, bytes, threads or barriers */
    int blocks_per_sm;
    int warps_per_sm;
    double occupancy; /* warps_per_sm / max warps per SM */
} occ_sweep_point;

/* The number of x points occ_sweep writes for this axis on this device
   (0 for an unknown axis). */
int occ_sweep_point_count(const occ_device *device, occ_sweep_axis axis);

/* The kernel's own x on the axis (where Nsight marks the current point); for
   shared memory occ_calc's allocation per block. The kernel must pass
   occ_calc (its error otherwise). */
occ_status occ_sweep_current_value(const occ_device *device, const occ_kernel *kernel,
                                   occ_sweep_axis axis, int *value, occ_error *err);

/* Fills points[0 .. *count-1]; OCC_ERR_INVALID_ARGUMENT naming "points" when
   max_points is below occ_sweep_point_count(). The kernel must pass
   occ_kernel_validate(). */
occ_status occ_sweep(const occ_device *device, const occ_kernel *kernel, occ_sweep_axis axis,
                     occ_sweep_point *points, int max_points, int *count, occ_error *err);

/* "registers", "shared memory", "block size", "barriers"; NULL if unknown. */
const char *occ_sweep_axis_name(occ_sweep_axis axis);

/* ------------------------------------------------------------------------ */
/* Explanations: the derivation in words, what is wasted, what would help   */
/* ------------------------------------------------------------------------ */

/* Bytes of each text of an explanation. The longest text of any kernel on any
   GPU of the database is well under half this (tests/test_explain_text.c
   measures it); a text that does not fit is never cut silently: occ_explain
   returns OCC_ERR_TEXT_TRUNCATED. A test build shrinks it to prove that. */
#ifndef OCC_EXPLAIN_TEXT_BYTES
#define OCC_EXPLAIN_TEXT_BYTES 1024
#endif

/* One resource's limit, worked with this kernel's numbers. */
typedef struct occ_explain_step {
    occ_limiter resource;
    int limit_blocks;                  /* as in occ_result (OCC_UNLIMITED) */
    bool binds;                        /* equals the resident blocks */
    char text[OCC_EXPLAIN_TEXT_BYTES]; /* one paragraph, no newline */
} occ_explain_step;

/* A configuration one change away, and what it gives. */
typedef struct occ_explain_option {
    int value; /* registers, bytes, threads or barriers */
    int blocks_per_sm;
    int warps_per_sm;
    double occupancy;
} occ_explain_option;

/* The smallest change of one input that gains a block, and the most that
   input alone can give. */
typedef struct occ_explain_change {
    occ_sweep_axis input;    /* which input changes */
    int current_value;       /* as on the sweep's axis (smem: static + dynamic) */
    bool helps;              /* false: changing this input alone changes nothing */
    occ_explain_option next; /* the nearest value that gains residency */
    occ_explain_option best; /* the value nearest the current one that reaches
                                the most this input alone can give */
    char text[OCC_EXPLAIN_TEXT_BYTES];
} occ_explain_change;

typedef struct occ_explanation {
    occ_result result;
    char summary[OCC_EXPLAIN_TEXT_BYTES];
    occ_explain_step steps[5]; /* warps, blocks, registers, shared memory, barriers */
    int step_count;
    /* What is allocated or reserved but does not host another block. */
    int regs_unallocated_per_sm;  /* registers left in the file */
    int regs_rounding_per_warp;   /* allocated beyond regs x 32 */
    int smem_unused_per_sm_bytes; /* configured shared memory left over */
    int warp_slots_unused;        /* max warps - resident warps */
    int warp_slots_stranded;      /* of those, lost to block granularity
                                     when warp slots bind (768 threads: 16) */
    int idle_lanes_per_block;     /* threads short of whole warps */
    char waste[OCC_EXPLAIN_TEXT_BYTES * 2];
    occ_explain_change changes[4]; /* registers, shared memory, block size, barriers */
    int change_count;
    char caution[OCC_EXPLAIN_TEXT_BYTES * 2];
} occ_explanation;

/* The explanation of occ_calc's answer; every number in it comes from
   occ_calc (for the changes, occ_calc of the changed kernel). Returns
   OCC_ERR_TEXT_TRUNCATED, with *out filled but a text cut, if a text did not
   fit its OCC_EXPLAIN_TEXT_BYTES (never with the default size). */
occ_status occ_explain(const occ_device *device, const occ_kernel *kernel, occ_explanation *out,
                       occ_error *err);

/* The whole explanation as plain text: headed paragraphs separated by blank
   lines, lines unwrapped (what `occ explain` prints before wrapping).
   Returns the length written. A buffer of OCC_EXPLAIN_TEXT_MAX bytes always
   holds it (the sum of every text at its largest and the headings; explain.c
   checks the bound at compile time). 0 on error, with *err set:
   OCC_ERR_TEXT_TRUNCATED when cap is too small (buf then holds the text cut
   and NUL-terminated). */
#define OCC_EXPLAIN_TEXT_MAX (14 * OCC_EXPLAIN_TEXT_BYTES + 256)
size_t occ_explain_text(const occ_device *device, const occ_kernel *kernel, char *buf, size_t cap,
                        occ_error *err);

/* ------------------------------------------------------------------------ */
/* The shared-memory configuration the driver picks at launch               */
/* ------------------------------------------------------------------------ */

/* cudaFuncSetCacheConfig's preference, with cudaFuncCache's values (Nsight's
   launch__func_cache_config: CachePreferNone, ...). */
typedef enum occ_cache_preference {
    OCC_CACHE_PREFER_NONE = 0,   /* the default */
    OCC_CACHE_PREFER_SHARED = 1, /* Triton sets it on kernels above 48 KB */
    OCC_CACHE_PREFER_L1 = 2,     /* the API reads it as a 0% carveout */
    OCC_CACHE_PREFER_EQUAL = 3   /* a 50% carveout, to the API and the driver */
} occ_cache_preference;

/* Which part of the rule decided (docs/occupancy-rules.md). Append-only. */
typedef enum occ_smem_config_rule {
    OCC_SMEM_CONFIG_FIXED = 0,         /* no carveout: shared memory is fixed */
    OCC_SMEM_CONFIG_CARVEOUT = 1,      /* the kernel's carveout preference (or
                                          cudaFuncCachePreferEqual's 50%) */
    OCC_SMEM_CONFIG_PREFER_SHARED = 2, /* cudaFuncCachePreferShared: the largest */
    OCC_SMEM_CONFIG_RESIDENT = 3,      /* one resident block, or blocks too large
                                          to double (1024 threads; 32 - warps per
                                          block at most): the smallest step
                                          holding them */
    OCC_SMEM_CONFIG_NO_SMEM = 4,       /* no shared memory of its own */
    OCC_SMEM_CONFIG_TWICE = 5          /* twice the resident blocks, at most
                                          32 - warps per block, capped */
} occ_smem_config_rule;

typedef struct occ_smem_config_result {
    int config_bytes;          /* Nsight's "Shared Memory Configuration Size"
                                  (launch__shared_mem_config_size) */
    int target_bytes;          /* what the rule asked for, before the step up */
    int resident_bytes;        /* resident blocks x allocation per block */
    int sized_blocks;          /* the blocks the rule sized it for (0: not by blocks) */
    int limit_shared_mem;      /* Nsight's Block Limit Shared Mem at config_bytes */
    int blocks_per_sm;         /* resident blocks at config_bytes (Nsight's) */
    int api_blocks_per_sm;     /* occ_calc's for the kernel as given, the cache
                                  preference read as a carveout (the API's) */
    int unified_cache_bytes;   /* L1 + shared memory per SM; 0 where unknown */
    int l1_bytes;              /* the L1 the configuration leaves; 0 where unknown */
    occ_smem_config_rule rule; /* which part of the rule decided */
    bool measured;             /* the rule was measured for this case: compute
                                  capability 9.0 (an H200), any cache
                                  preference */
} occ_smem_config_result;

/*
 * The shared-memory configuration the driver chooses when it launches the
 * kernel, which the occupancy API does not model (it assumes the largest
 * without a preference). Derived from 944 launches on an H200 and exact on
 * all of them, then refined on 88 targeted launches that it missed 15 of,
 * and now exact on all (docs/occupancy-rules.md, "The configuration at
 * launch"); elsewhere a prediction (measured false). kernel->smem_config_bytes is
 * ignored: this is what predicts it. Returns OCC_ERR_NOT_FOUND when no
 * block fits (the launch fails), and occ_kernel_validate's errors.
 */
occ_status occ_launch_smem_config(const occ_device *device, const occ_kernel *kernel,
                                  occ_cache_preference cache, occ_smem_config_result *out,
                                  occ_error *err);

/* "fixed", "carveout", "prefer_shared", "resident", "no_smem", "twice";
   "unknown" outside the enum. */
const char *occ_smem_config_rule_name(occ_smem_config_rule rule);

/* ------------------------------------------------------------------------ */
/* Waves: how a grid fills the GPU                                          */
/* ------------------------------------------------------------------------ */

typedef struct occ_waves_result {
    double waves_per_sm;              /* grid / (blocks per SM x SMs): Nsight's
                                         launch__waves_per_multiprocessor */
    long long full_waves;             /* waves in which every block slot is used */
    long long last_wave_blocks;       /* blocks of the last wave (a full wave's
                                         worth when the grid divides evenly) */
    double last_wave_fraction;        /* how full the last wave is, 0..1 */
    long long persistent_grid_blocks; /* blocks per SM x SMs: one full wave */
    double tail_idle_fraction;        /* block slots idle over the launch, if every
                                         block takes the same time: 1 - waves /
                                         ceil(waves) */
} occ_waves_result;

/* The waves of a grid of grid_blocks blocks at blocks_per_sm resident
   blocks on sm_count SMs. OCC_ERR_INVALID_ARGUMENT naming the field when a
   count is not positive (zero resident blocks: the launch cannot run). */
occ_status occ_launch_waves(int blocks_per_sm, int sm_count, long long grid_blocks,
                            occ_waves_result *out, occ_error *err);

/* ------------------------------------------------------------------------ */
/* Thread-block clusters: active clusters on the GPC layout                 */
/* ------------------------------------------------------------------------ */

/*
 * The driver's cluster occupancy (cudaOccupancyMaxActiveClusters and
 * cudaOccupancyMaxPotentialClusterSize), derived from an H200's answers and
 * its measured GPC layout and held to them (tests/data/h200-clusters,
 * docs/occupancy-rules.md "Clusters"):
 *
 *   b        = min(occ_calc's blocks per SM, 8): a cluster launch counts at
 *              most 8 resident blocks per SM
 *   clusters = sum over GPCs g of floor(SMs(g) x b / cluster size), counting
 *              only GPCs with at least as many SMs as the cluster has blocks
 *              (every GPC under OCC_CLUSTER_POLICY_LOAD_BALANCING)
 *
 * No cap of 16 applies: with cluster_non_portable the driver answers for
 * clusters of up to 64 blocks by the same rule, though it refuses to launch
 * one above 16 (launch_refused).
 * A cluster's blocks share one GPC; the shape (1-D, 2-D, 3-D), the grid size
 * and the carveout matter only through the size and the blocks per SM.
 * Without a GPC layout (gpc_count 0) every SM counts as one GPC and the
 * answers are upper bounds (exact false).
 */

/* Cluster sizes: the portable maximum, and the most with
   cluster_non_portable [PG "Thread Block Clusters"; measured on an H200]. */
#define OCC_CLUSTER_PORTABLE_MAX 8
#define OCC_CLUSTER_NON_PORTABLE_MAX 16
/* The largest cluster occ answers for: with cluster_non_portable the
   driver's occupancy API answers up to 64 blocks (measured on an H200; the
   launch refuses above 16, so occ flags launch_refused). */
#define OCC_CLUSTER_OCCUPANCY_MAX 64

typedef struct occ_cluster_result {
    int cluster_x, cluster_y, cluster_z; /* the kernel's cluster shape */
    int cluster_size;                    /* blocks per cluster: x * y * z */
    bool launch_refused;                 /* above 16 blocks: the occupancy API answers,
                                            but the launch fails with
                                            cudaErrorInvalidClusterSize */
    int blocks_per_sm;                   /* resident blocks per SM a cluster launch
                                            counts: occ_calc's, at most 8 */
    int max_active_clusters;             /* cudaOccupancyMaxActiveClusters */
    int max_potential_cluster_size;      /* cudaOccupancyMaxPotentialClusterSize */
    int active_blocks;                   /* max_active_clusters x cluster_size */
    int active_sms;                      /* SMs that hold a block of an active cluster */
    int sm_count;                        /* the device's SMs */
    bool exact;                          /* false: the GPC layout is unknown and the
                                            counts above are upper bounds */
    occ_gpc_source gpc_source;           /* the device's */
    int gpc_count;                       /* GPCs in the layout (1 when unknown: all SMs) */
    int gpc_sms[OCC_MAX_GPCS];           /* SMs of each GPC, as the device lists them */
    int gpc_clusters[OCC_MAX_GPCS];      /* active clusters in each GPC */
    int gpc_active_sms[OCC_MAX_GPCS];    /* SMs of each GPC holding a block */
} occ_cluster_result;

/*
 * Everything about the kernel's cluster launch on the device. The kernel
 * must pass occ_kernel_validate and have a cluster shape (cluster_x, _y,
 * _z all at least 1). OCC_ERR_INVALID_ARGUMENT, as the driver refuses the
 * query (cudaErrorInvalidClusterSize), for a compute capability below 9.0,
 * a cluster above 8 blocks without cluster_non_portable or above the
 * kernel's max_blocks_per_cluster, and for one above 64 blocks (beyond what
 * occ checked; sizes 17 to 64 are answered, flagged launch_refused);
 * OCC_ERR_INVALID_DEVICE naming
 * "sm_count" for a device without an SM count (a generic entry).
 */
occ_status occ_cluster_calc(const occ_device *device, const occ_kernel *kernel,
                            occ_cluster_result *out, occ_error *err);

/* cudaOccupancyMaxActiveClusters: occ_cluster_calc's max_active_clusters. */
occ_status occ_max_active_clusters(const occ_device *device, const occ_kernel *kernel,
                                   int *clusters, occ_error *err);

/*
 * cudaOccupancyMaxPotentialClusterSize: the largest cluster, up to 8 (16
 * with cluster_non_portable), of which at least one can be active; 0 when no
 * block fits. Like the driver it ignores the kernel's cluster shape and
 * max_blocks_per_cluster (so it may name a size the launch refuses). Needs
 * compute capability 9.0 and an SM count, as occ_cluster_calc.
 */
occ_status occ_max_potential_cluster_size(const occ_device *device, const occ_kernel *kernel,
                                          int *size, occ_error *err);

/* One point of the cluster-size curve (Nsight Compute's
   launch__occupancy_per_cluster_size). */
typedef struct occ_cluster_sweep_point {
    int cluster_size;        /* x: blocks per cluster (1-D) */
    int max_active_clusters; /* at this size */
    int blocks_per_sm;       /* the cluster launch's resident blocks per SM */
    double warps_per_sm;     /* resident warps per SM over the whole GPU with
                                every active cluster resident: clusters x size
                                x warps per block / SMs */
    double occupancy;        /* warps_per_sm / max warps per SM */
    int active_sms;          /* SMs holding a block */
} occ_cluster_sweep_point;

/* Sizes 1 .. 8 (16 with cluster_non_portable) for the kernel as it is
   otherwise (its cluster shape is ignored; max_blocks_per_cluster, when set,
   ends the curve). OCC_ERR_INVALID_ARGUMENT naming "points" when max_points
   is below OCC_CLUSTER_NON_PORTABLE_MAX and the curve needs more. */
occ_status occ_cluster_sweep(const occ_device *device, const occ_kernel *kernel,
                             occ_cluster_sweep_point *points, int max_points, int *count,
                             occ_error *err);

/* The waves of a grid of grid_clusters clusters: occ_launch_waves with the
   active clusters as one wave (persistent_grid_blocks then counts clusters:
   multiply by cluster_size for blocks). */
occ_status occ_cluster_waves(const occ_cluster_result *cluster, long long grid_clusters,
                             occ_waves_result *out, occ_error *err);

/* Bytes of occ_cluster_explain's text: far above the longest (a layout of
   OCC_MAX_GPCS distinct GPCs; tests/test_clusters.c checks). */
#define OCC_CLUSTER_TEXT_BYTES 2048

/*
 * The cluster answer in words, one paragraph without newlines: active
 * clusters and SMs, which GPCs leave SMs idle at this size and how many,
 * and the nearby sizes that keep more SMs busy; says when the counts are
 * bounds. Returns the length; 0 on error with *err set
 * (OCC_ERR_TEXT_TRUNCATED when cap is too small: buf holds the text cut).
 */
size_t occ_cluster_explain(const occ_device *device, const occ_kernel *kernel, char *buf,
                           size_t cap, occ_error *err);

/* "measured", "published", "given", "unknown" (also outside the enum). */
const char *occ_gpc_source_name(occ_gpc_source source);

/* ------------------------------------------------------------------------ */
/* Latency model: Little's law for loads in flight                          */
/* ------------------------------------------------------------------------ */

/*
 * A memory system seen through Little's law: throughput = bytes in flight /
 * latency. A kernel keeps bytes in flight = resident warps x 32 threads x
 * independent loads in flight per thread x bytes per load, per SM; resident
 * warps (occupancy) and instruction-level parallelism are interchangeable
 * sources of it. The model is deliberately small and every term can be
 * calibrated from measurements (occ lab ceiling, occ lab latency and one
 * residency row; see occ_memory_model_fit and docs/latency-model.md):
 *
 *   demand per SM   N_sm = min(warps x 32 x loads x bytes, request limit)
 *   loaded latency  L(u) = latency_ns x (1 + loaded_latency_factor x u),
 *                   u = achieved load bandwidth / reachable load bandwidth
 *   achieved        X = N_sm x active SMs / L(u), solved for X, capped at
 *                   the reachable bandwidth and at resident warps x active
 *                   SMs x the per-warp rate, when one is set.
 *
 * Units: ns and GB/s (1e9 bytes/s) make bytes/ns = GB/s. The arithmetic is
 * unit-agnostic: cycles and loads per cycle work as well (Example 7 of the
 * seeds: 400 cycles x 4 issues/cycle = 1600 loads in flight).
 */
typedef struct occ_memory_model {
    double latency_ns;                 /* unloaded latency of one load (DRAM round trip) */
    double peak_gb_per_s;              /* reachable bandwidth: the datasheet peak, or
                                          better the measured device-to-device copy */
    double loaded_latency_factor;      /* latency growth at full load; 0: none */
    double max_bytes_in_flight_per_sm; /* a per-SM request limit; 0: none */
    int sm_count;                      /* SMs of the GPU */
    double max_gb_per_s_per_warp;      /* the most one resident warp's loads
                                          move, GB/s; 0: no limit. Few warps
                                          per SM fall short of what their
                                          loads in flight promise (an H200
                                          with one 8-warp block per SM: about
                                          1.3; docs/latency-model.md) */
} occ_memory_model;

/* The memory model of a named GPU from the database: latency, peak
   bandwidth and SM count; OCC_ERR_INVALID_DEVICE naming the field when the
   database does not know one (pass your own numbers then). */
occ_status occ_memory_model_from_device(const occ_device *device, occ_memory_model *out,
                                        occ_error *err);

/* One kernel's memory behaviour. */
typedef struct occ_latency_input {
    double warps_per_sm;                /* resident warps per SM (occ_result) */
    double loads_in_flight_per_thread;  /* independent loads issued before the
                                           first result is used (ILP) */
    double bytes_per_load;              /* per thread and load: 4 for float */
    int active_sms;                     /* SMs holding warps; 0: all */
    double bytes_moved_per_byte_loaded; /* all traffic over load traffic: 1.5
                                           for out = a*x + y; 0 means 1 */
    double spill_bytes_per_byte_loaded; /* local-memory (spill) traffic per
                                           byte loaded: it takes bandwidth
                                           but is not in the prediction,
                                           which counts the kernel's own
                                           traffic; 0: none */
} occ_latency_input;

/* What bounds the predicted bandwidth. */
typedef enum occ_latency_bound {
    OCC_BOUND_LATENCY = 0,       /* too few bytes in flight: more warps or
                                    more loads per thread would help */
    OCC_BOUND_BANDWIDTH = 1,     /* enough in flight: memory is saturated */
    OCC_BOUND_REQUEST_LIMIT = 2, /* the per-SM request limit caps demand */
    OCC_BOUND_WARP_RATE = 3      /* too few warps: each moves at most
                                    max_gb_per_s_per_warp */
} occ_latency_bound;

typedef struct occ_latency_result {
    double bytes_in_flight_per_sm;        /* demand, after the request limit */
    double bytes_in_flight_needed_per_sm; /* to saturate the reachable bandwidth */
    double loaded_latency_ns;             /* latency at the predicted load */
    double predicted_gb_per_s;            /* all traffic (loads x bytes moved) */
    double fraction_of_peak;              /* predicted / peak_gb_per_s, 0..1 */
    double warps_needed_per_sm;           /* at this ILP, to saturate */
    double loads_per_thread_needed;       /* at these warps, to saturate */
    occ_latency_bound bound;
} occ_latency_result;

occ_status occ_latency_predict(const occ_memory_model *model, const occ_latency_input *input,
                               occ_latency_result *out, occ_error *err);

/*
 * Calibrates loaded_latency_factor from one measured point below saturation:
 * the kernel `input` moved measured_gb_per_s of all traffic. The model's
 * latency_ns and peak_gb_per_s must already be set (from measurements). The
 * factor is what makes N / L(u) pass through the point; it is 0 when the
 * point is at or above the constant-latency prediction. OCC_ERR_INVALID_ARGUMENT
 * when the point is saturated (measured >= 0.98 of peak: no information).
 */
occ_status occ_memory_model_fit(occ_memory_model *model, const occ_latency_input *input,
                                double measured_gb_per_s, occ_error *err);

/*
 * Calibrates max_gb_per_s_per_warp from one measured point that the warps'
 * own rate limits: a row with few warps and many loads in flight per thread
 * (one block per SM), which moved measured_gb_per_s of all traffic. The
 * rate is its load bandwidth per resident warp.
 */
occ_status occ_memory_model_fit_warp_rate(occ_memory_model *model, const occ_latency_input *input,
                                          double measured_gb_per_s, occ_error *err);

/* How much longer one iteration takes when spills add loads:
   (work_cycles + spill_loads x spill_latency_cycles) / work_cycles. */
double occ_spill_slowdown(double work_cycles, double spill_loads, double spill_latency_cycles);

/* ------------------------------------------------------------------------ */
/* Achieved against theoretical occupancy: the grid's share of the gap      */
/* ------------------------------------------------------------------------ */

/*
 * Nsight Compute's achieved occupancy counts resident warps over the cycles
 * each SM is active. Blocks of equal duration run in waves of wave_blocks
 * (blocks per SM x SMs, or fewer where clusters cannot fill every slot);
 * then the grid alone allows
 *
 *   grid_bound = grid x warps per block
 *                / ((waves - 1) x min(SMs, wave) + min(SMs, last wave))
 *                / max warps per SM,
 *
 * and theoretical - achieved splits into cluster_loss (slots clusters leave
 * empty), small_grid_loss (a grid below one wave) or tail_loss (a partial
 * last wave), and in_kernel (grid_bound - achieved: warps and blocks ending
 * at different times). On the H200's exports grid_bound is within 1.74
 * points of the achieved occupancy wherever the grid explains the gap
 * (docs/ncu.md). `occ ncu` explains each launch with it.
 */
typedef enum occ_gap_cause {
    OCC_GAP_NONE = 0,         /* a gap below 2 points: within the model's error */
    OCC_GAP_SMALL_GRID = 1,   /* fewer blocks than one wave */
    OCC_GAP_TAIL = 2,         /* the last wave is partial */
    OCC_GAP_CLUSTERS = 3,     /* clusters leave block slots empty */
    OCC_GAP_IN_KERNEL = 4,    /* the rest: warps and blocks ending unevenly */
    OCC_GAP_NOT_MEASURED = 5, /* no achieved occupancy was given */
    OCC_GAP_NO_GRID = 6       /* no grid, no SM count or no resident block: no model */
} occ_gap_cause;

typedef struct occ_gap_input {
    int blocks_per_sm;      /* resident blocks per SM (occ_result); 0: none fits */
    int warps_per_block;    /* occ_result's */
    int max_warps_per_sm;   /* the device's */
    int sm_count;           /* SMs of the GPU; 0: unknown */
    long long grid_blocks;  /* blocks in the grid; 0: unknown */
    int cluster_size;       /* blocks per cluster; 0 or 1: no clusters */
    int active_clusters;    /* clusters resident at once on the GPU
                               (occ_cluster_calc, or Nsight's
                               launch__occupancy_cluster_max_active_clusters) */
    double theoretical;     /* 0..1 (occ_result's occupancy) */
    double achieved;        /* 0..1, measured; read only when achieved_measured */
    bool achieved_measured; /* false: no measurement; the losses are still computed */
} occ_gap_input;

typedef struct occ_gap_result {
    occ_gap_cause cause;        /* the largest part, or NONE, NOT_MEASURED, NO_GRID */
    double gap;                 /* theoretical - achieved; 0 when not measured */
    double grid_bound;          /* the occupancy the grid allows */
    double cluster_loss;        /* block slots clusters leave empty */
    double small_grid_loss;     /* a grid below one wave */
    double tail_loss;           /* a partial last wave */
    double in_kernel;           /* grid_bound - achieved (negative: above the model) */
    long long wave_blocks;      /* blocks resident at once on the GPU */
    long long grid_blocks;      /* the input's */
    long long full_waves;       /* waves with every slot used */
    long long last_wave_blocks; /* blocks of the last wave */
    int active_sms;             /* SMs holding a block in the first wave */
} occ_gap_result;

/* The model for one launch. OCC_ERR_INVALID_ARGUMENT naming the field for a
   negative count, warps_per_block outside 1..max_warps_per_sm, or an
   occupancy outside 0..1 (NaN included); OCC_ERR_NULL_POINTER for a NULL in
   or out. A grid, SM count or resident block count of 0 is not an error:
   the cause is then OCC_GAP_NO_GRID (or NOT_MEASURED) and the rest 0. */
occ_status occ_achieved_gap(const occ_gap_input *in, occ_gap_result *out, occ_error *err);

/* "none", "small_grid", "tail", "clusters", "in_kernel", "not_measured",
   "no_grid"; "unknown" outside the enum. Never NULL. */
const char *occ_gap_cause_name(occ_gap_cause cause);

/* ------------------------------------------------------------------------ */
/* Words                                                                    */
/* ------------------------------------------------------------------------ */

/* "registers", "shared memory", "warps", "blocks", "barriers". */
const char *occ_limiter_name(occ_limiter limiter);

/* Nsight Compute's row name: "Block Limit Registers", ... */
const char *occ_limiter_nsight_name(occ_limiter limiter);

/* The limiter's key in occ's JSON and CSV: "warps", "blocks", "registers",
   "shared_mem", "barriers"; "unknown" outside the enum. */
const char *occ_limiter_key(occ_limiter limiter);

/* The keys of every limiter set in `limiters` (occ_result.limiters), joined
   by '+' in the order warps, blocks, registers, shared_mem, barriers:
   "registers+warps" -> "warps+registers"; "" for none. Returns buf; a list
   longer than cap is cut at a whole key. */
const char *occ_limiter_list(unsigned limiters, char *buf, size_t cap);

/* One line on why zero blocks fit (empty string for OCC_ZERO_NONE). */
const char *occ_zero_reason_text(occ_zero_reason reason);

/* "latency", "bandwidth", "request limit", "warp rate". */
const char *occ_latency_bound_name(occ_latency_bound bound);

/* "measured", "published", "architecture", "given", "unknown" (also for a
   value outside the enum). Never NULL. */
const char *occ_latency_source_name(occ_latency_source source);

/* ------------------------------------------------------------------------ */
/* Batches: many kernels on one device in one call                          */
/* ------------------------------------------------------------------------ */

/*
 * occ_calc(&devices[d], &kernels[i], &results[i]) for i in 0 .. count-1, in
 * one call (for bindings whose per-call cost exceeds occ_calc's own), where
 * d is device_index[i], or 0 for every kernel when device_index is NULL. A
 * kernel that fails validation, or whose index is outside 0 ..
 * device_count-1 (OCC_ERR_INVALID_ARGUMENT), gets an all-zero result and,
 * when `statuses` is not NULL, its status in statuses[i]; the other kernels
 * are still computed. Returns OCC_OK when every kernel passed, else the
 * first failure's status, with *err naming its index ("kernel 12: threads
 * 1100 exceed the 1024 per block of sm_90"). OCC_ERR_NULL_POINTER when
 * devices is NULL, or kernels or results is NULL with count > 0;
 * OCC_ERR_INVALID_ARGUMENT when device_count is below 1.
 */
occ_status occ_calc_batch(const occ_device *devices, int device_count, const int *device_index,
                          const occ_kernel *kernels, size_t count, occ_result *results,
                          occ_status *statuses, occ_error *err);

#ifdef __cplusplus
}
#endif

#endif /* OCC_H */
