/*
 * occ_profile.h - the public header of libocc-profile: the occupancy of every
 * kernel launch a program made, read from the whole-program traces teams
 * already have:
 *
 *   - PyTorch profiler traces (torch.profiler's Chrome-trace JSON, written by
 *     Kineto; .json or .json.gz), read by a streaming JSON parser;
 *   - Nsight Systems SQLite exports (`nsys export --type sqlite`), read with
 *     SQLite itself;
 *   - Nsight Systems' `nsys stats --report cuda_gpu_trace --format csv`.
 *
 * Launches are grouped by device, kernel and launch configuration; each group
 * is computed once with libocc: the theoretical occupancy and its limiters,
 * the shared-memory configuration the driver picks at launch, the grid's
 * waves and tail, and active clusters for cluster launches. Where the trace
 * records the driver's own figures (nsys's sharedMemoryExecuted, Kineto's
 * "est. achieved occupancy %") they are kept beside libocc's so callers can
 * list every difference (docs/profile.md).
 *
 *   occ_profile_options opts;
 *   occ_profile_options_init(&opts);
 *   occ_profile_input in = {.path = "trace.json.gz"};
 *   occ_profile_result *r;
 *   occ_profile_error err;
 *   if (occ_profile_read(&in, 1, &opts, &r, &err) != OCC_OK) puts(err.message);
 *   for (size_t i = 0; i < occ_profile_group_count(r); i++) {
 *       const occ_profile_group *g = occ_profile_group_at(r, i);
 *       printf("%s %lld launches %.0f%%\n", g->name, g->launches, g->occupancy * 100);
 *   }
 *   occ_profile_result_free(r);
 *
 * It reads files and allocates (libocc does neither); it prints nothing.
 * Inputs are streamed: memory grows with the distinct kernels and launch
 * configurations, not with the launches (limits below). Conventions are
 * occ.h's: an occ_status back, an optional error out, names with units.
 */
#ifndef OCC_PROFILE_H
#define OCC_PROFILE_H

#include <stdbool.h>
#include <stddef.h>

#include "occ.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The most distinct groups (device x kernel x launch configuration) one read
   keeps: a PyTorch training run has a few thousand; each costs about 400
   bytes, so the cap holds the groups under 100 MB. */
#define OCC_PROFILE_MAX_GROUPS 200000
/* The most bytes of distinct kernel names kept (names are interned once). */
#define OCC_PROFILE_MAX_NAME_BYTES ((size_t)64 << 20)
/* The longest kernel name kept whole; longer names are cut there (C++
   template names of CUTLASS kernels reach about 8 KB). */
#define OCC_PROFILE_MAX_NAME_LENGTH 16384
/* The most devices (GPUs) one read keeps apart. */
#define OCC_PROFILE_MAX_DEVICES 256
/* The bins of the GPU-time histogram over occupancy: [0,10%), ..., [90,100%]. */
#define OCC_PROFILE_HISTOGRAM_BINS 10

/* What an input holds, decided by its content. */
typedef enum occ_profile_format {
    OCC_PROFILE_FORMAT_UNKNOWN = 0,
    OCC_PROFILE_FORMAT_KINETO = 1,      /* torch.profiler / Kineto Chrome trace JSON */
    OCC_PROFILE_FORMAT_NSYS_SQLITE = 2, /* nsys export --type sqlite */
    OCC_PROFILE_FORMAT_NSYS_CSV = 3     /* nsys stats --report cuda_gpu_trace --format csv */
} occ_profile_format;

/* "kineto", "nsys-sqlite", "nsys-csv", "unknown". */
const char *occ_profile_format_name(occ_profile_format format);

/* A value the trace does not carry. */
#define OCC_PROFILE_UNKNOWN (-1)

/* One input file. Gzip-compressed JSON and CSV are read as they are. */
typedef struct occ_profile_input {
    const char *path;
} occ_profile_input;

typedef struct occ_profile_options {
    const occ_device *device; /* compute on this GPU; NULL: the trace's own. It must
                                 be consistent with every device the trace
                                 names (compute capability, SM count), else
                                 OCC_ERR_INVALID_DEVICE saying why */
} occ_profile_options;

void occ_profile_options_init(occ_profile_options *options);

/* One GPU of the trace, kept apart from the others. */
typedef struct occ_profile_device {
    int input;                              /* the input it came from */
    int trace_id;                           /* the trace's device id */
    char trace_name[OCC_DEVICE_NAME_BYTES]; /* "NVIDIA H200"; "" where not recorded */
    int trace_sm_count;                     /* 0 where not recorded */
    int trace_cc_major, trace_cc_minor;     /* -1 where not recorded */
    occ_device gpu;                         /* what libocc computes with */
    bool gpu_known;                         /* false: no GPU could be found */
    long long launches;
    double gpu_time_us; /* the sum of its launches' durations */
} occ_profile_device;

/* The first reason occ's figure and the trace's differ (bit values). */
typedef enum occ_profile_kineto_cause {
    OCC_PROFILE_KINETO_AGREES = 0,     /* libocc and Kineto agree */
    OCC_PROFILE_KINETO_CARVEOUT = 1,   /* Kineto assumes the largest shared memory;
                                          the launch ran with less */
    OCC_PROFILE_KINETO_BARRIERS = 2,   /* libocc counts block barriers, Kineto not */
    OCC_PROFILE_KINETO_CLUSTERS = 3,   /* a cluster launch: at most 8 blocks per SM */
    OCC_PROFILE_KINETO_OPTIN = 4,      /* above 48 KB of shared memory per block:
                                          Kineto's occupancy call assumes no opt-in,
                                          finds no block fits and prints 0 */
    OCC_PROFILE_KINETO_THREADS = 5,    /* Kineto counts threads, libocc whole warps */
    OCC_PROFILE_KINETO_ROUNDING = 6,   /* within Kineto's rounding to whole percent */
    OCC_PROFILE_KINETO_UNEXPLAINED = 7 /* none of the above: a bug to look at */
} occ_profile_kineto_cause;

/* "agrees", "carveout", "barriers", "clusters", "optin", "threads",
   "rounding", "unexplained". */
const char *occ_profile_kineto_cause_name(occ_profile_kineto_cause cause);

/* Launches of one kernel with one launch configuration on one device, and
   libocc's answer for them. Strings live as long as the result. */
typedef struct occ_profile_group {
    int device;          /* index into the result's devices */
    const char *name;    /* demangled, as the trace gives it */
    const char *mangled; /* NULL where the trace does not carry it */
    int grid[3];
    int block[3];
    int cluster[3];     /* 0,0,0: not a cluster launch (or not recorded) */
    bool cluster_known; /* the trace records cluster dims (Kineto does not) */
    int regs_per_thread;
    int static_smem_bytes;      /* OCC_PROFILE_UNKNOWN where the trace only has the sum */
    int dyn_smem_bytes;         /* likewise */
    int smem_bytes;             /* static + dynamic per block */
    int local_bytes_per_thread; /* OCC_PROFILE_UNKNOWN where not recorded */
    int cache_preference;       /* occ_cache_preference requested; -1 unknown */
    int carveout_percent;       /* the shared-memory carveout the kernel requested
                                   (CUPTI's sharedMemoryCarveoutRequested), 0..100;
                                   -1 none or not recorded */
    long long launches;
    double gpu_time_us; /* the sum of the launches' durations */
    double max_time_us; /* the longest launch */

    /* libocc, on the device's GPU */
    bool computed;         /* false: no GPU, or the launch cannot run (note says) */
    const char *note;      /* why not computed, or a caution; NULL when none */
    occ_result result;     /* at smem_config_bytes, as the launch ran */
    double occupancy;      /* result.occupancy */
    unsigned limiters;     /* result.limiters */
    int smem_config_bytes; /* libocc's launch-time shared-memory configuration */
    occ_smem_config_rule smem_config_rule;
    double waves;              /* grid / (blocks per SM x SMs); -1 without SMs */
    double tail_idle_fraction; /* block slots idle in the last wave */
    double grid_occupancy;     /* min(grid / SMs, blocks per SM) x warps per
                                  block / max warps: the occupancy the grid
                                  allows, the analogue of Kineto's estimate */
    int max_active_clusters;   /* cluster launches: libocc's; -1 otherwise */
    bool clusters_exact;       /* the GPU's GPC layout is measured */

    /* What the trace itself says, beside libocc */
    int trace_smem_config_bytes;           /* nsys's sharedMemoryExecuted (all launches
                                              agree); OCC_PROFILE_UNKNOWN where absent */
    long long trace_smem_config_differs;   /* launches whose sharedMemoryExecuted
                                              is not libocc's */
    double kineto_est_occupancy;           /* Kineto's estimate, 0..1 (the first launch's;
                                              negative values kept); -2 where absent */
    occ_profile_kineto_cause kineto_cause; /* why libocc's grid_occupancy and
                                              Kineto's estimate differ */
    double kineto_model_occupancy;         /* Kineto's calculation redone by libocc */
} occ_profile_group;

/* The whole program. */
typedef struct occ_profile_summary {
    long long launches_read;                         /* every kernel launch of every input */
    long long launches_computed;                     /* those libocc computed */
    double gpu_time_us;                              /* the sum of all launches' durations */
    double weighted_occupancy;                       /* theoretical occupancy weighted by GPU time,
                                                        over the computed launches */
    double histogram_us[OCC_PROFILE_HISTOGRAM_BINS]; /* GPU time by occupancy decile */
    long long smem_config_checked;                   /* launches with sharedMemoryExecuted */
    long long smem_config_differs;                   /* of those, not libocc's configuration */
    long long kineto_checked;                        /* launches with Kineto's estimate */
    long long kineto_by_cause[8];                    /* launches by occ_profile_kineto_cause */
} occ_profile_summary;

/* Why reading failed: the input (index, -1 for none), where in it (line or
   row, -1 for none), the status, and one line that starts with the input's
   name when there is one, so it can be printed as it is. */
#define OCC_PROFILE_ERROR_MESSAGE_BYTES 512
typedef struct occ_profile_error {
    occ_status status;
    int input;
    long long where; /* line (CSV), byte offset (JSON) or row (SQLite); -1 */
    char message[OCC_PROFILE_ERROR_MESSAGE_BYTES];
} occ_profile_error;

typedef struct occ_profile_result occ_profile_result;

/* The format of a file, by its content (gzip is looked through). OCC_OK
   with OCC_PROFILE_FORMAT_UNKNOWN when it is none of them; OCC_ERR_IO when
   it cannot be read. */
occ_status occ_profile_detect(const char *path, occ_profile_format *out, occ_profile_error *err);

/*
 * Reads every input, groups its launches and computes each group. The first
 * bad input stops the reading: OCC_ERR_IO (cannot open or read),
 * OCC_ERR_BAD_FORMAT (not a trace, damaged, or a value no launch can have,
 * named with its place), OCC_ERR_LIMIT (above the limits above),
 * OCC_ERR_INVALID_DEVICE (options.device contradicts the trace's GPU),
 * OCC_ERR_OUT_OF_MEMORY; *out is then NULL. Groups come sorted by GPU time,
 * largest first (then by name and configuration, so the order is stable).
 */
occ_status occ_profile_read(const occ_profile_input *inputs, int input_count,
                            const occ_profile_options *options, occ_profile_result **out,
                            occ_profile_error *err);

void occ_profile_result_free(occ_profile_result *result);

size_t occ_profile_group_count(const occ_profile_result *result);
const occ_profile_group *occ_profile_group_at(const occ_profile_result *result, size_t index);
size_t occ_profile_device_count(const occ_profile_result *result);
const occ_profile_device *occ_profile_device_at(const occ_profile_result *result, size_t index);
const occ_profile_summary *occ_profile_summary_of(const occ_profile_result *result);
/* The format input `index` was read as. */
occ_profile_format occ_profile_input_format(const occ_profile_result *result, int index);

/* The libocc kernel of group `index` as it was computed (its launch-time
   shared-memory configuration in smem_config_bytes), for occ_explain and the
   rest of occ.h. OCC_ERR_NOT_FOUND for an index out of range or a group not
   computed (no GPU). */
occ_status occ_profile_group_kernel(const occ_profile_result *result, size_t index, occ_kernel *out,
                                    occ_error *err);

/* The groups ranked by GPU time x headroom (1 - occupancy): where more warps
   could matter most. Writes up to `max` group indices, best first; returns
   how many. */
size_t occ_profile_rank(const occ_profile_result *result, size_t *indices, size_t max);

/*
 * The records of occ's CUPTI recorder (`occ lab trace`; lab/trace/
 * occ_trace_inject.c) written as an Nsight Systems SQLite export: the tables
 * and columns of Nsight Systems' "SQLite Export Schema Reference" that
 * occ_profile_read reads (CUPTI_ACTIVITY_KIND_KERNEL, StringIds,
 * TARGET_INFO_GPU), and META_DATA_EXPORT saying the database was written by
 * occ from CUPTI records, not by Nsight Systems. sqlite_path is replaced.
 * *launches (may be NULL) gets the launches written. A damaged or cut
 * record file is refused with its line, and no database is left behind.
 */
occ_status occ_profile_convert_cupti(const char *records_path, const char *sqlite_path,
                                     long long *launches, occ_profile_error *err);

#ifdef __cplusplus
}
#endif

#endif /* OCC_PROFILE_H */
