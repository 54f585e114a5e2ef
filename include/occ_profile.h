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
#include "occ_inspect.h" /* the launch list's types only: no libocc-inspect link */

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
 * The launch configurations a program makes, for occ_inspect_apply_launches
 * (include/occ_inspect.h; `occ inspect --launches`, `occ diff --launches`),
 * read from either of:
 *
 *   - a profile occ_profile_read reads: each group is a launch, with its
 *     names, block, shared memory (static + dynamic only, from a PyTorch
 *     trace), cluster, grid and carveout, weighed by its GPU time (us);
 *   - a launch table: CSV whose first record starts with the column
 *     `kernel` (docs/inspect.md, docs/diff.md):
 *
 *       kernel,block,dyn_smem,cluster,grid,weight,carveout
 *       *gemm_kernel*,256,96K,2,,3.5,
 *       "scale(float*, int)",16x16,0,,,1,50
 *
 *     kernel (a name, or a glob with * ? [...]: occ_inspect_launch.glob),
 *     block (X or XxYxZ, each 1..1024) and dyn_smem (bytes: 4096, 48K,
 *     1.5KiB) are required; cluster (X or XxYxZ), grid (X or XxYxZ blocks:
 *     x 1..2^31-1, y and z 1..65535, CUDA's grid limits; grid_blocks is the
 *     product), weight (a number of 0 or more, 1 by default) and carveout
 *     (0..100) may be given or left empty. The columns after kernel come in
 *     any order; a row may leave out the cells at its end, and has no more
 *     fields than the header has columns. Gzip is read as it is.
 *
 *   occ_profile_launches *set;
 *   occ_profile_error err;
 *   if (occ_profile_launches_read("launches.csv", &set, &err) != OCC_OK) puts(err.message);
 *   occ_inspect_launch_list *l = occ_profile_launches_list(set);
 *   occ_inspect_apply_launches(r, &opts, l->launches, l->count, l->matched, &l->match, &ierr);
 *   occ_profile_launches_free(set);
 *
 * A bad table is refused at its first bad cell, in one line naming the file,
 * the line, the column, the value and the limit: "t.csv: line 2: block:
 * '2048' is above the maximum, 1024" (OCC_ERR_BAD_FORMAT); an unknown,
 * unnamed, repeated or missing column names the header's line. A record
 * over OCC_PROFILE_LAUNCH_TABLE_MAX_RECORD_BYTES, with a NUL byte, with a
 * quote left open or with more fields than the header ("line 3: row: 4
 * fields, but the header has 3 columns: field 4, '2', is in none ...") is
 * refused the same way; more rows than the limit below is OCC_ERR_LIMIT.
 */

/* A launch table's most rows: each costs about 100 bytes besides its name,
   and a program makes thousands of launch configurations, not millions. */
#define OCC_PROFILE_LAUNCH_TABLE_MAX_ROWS 1000000
/* A launch table's longest record (a kernel name, a glob, the numbers). */
#define OCC_PROFILE_LAUNCH_TABLE_MAX_RECORD_BYTES 4096

/* A set of launches and everything they point into (names, the profile). */
typedef struct occ_profile_launches occ_profile_launches;

/* Reads the launches at `path`: a launch table when its first record starts
   with `kernel`, else a profile (occ_profile_read's errors, OCC_ERR_IO for a
   file that cannot be opened). A table may be a pipe ("/dev/stdin"); a
   profile is read by path again after the look for a table, so from a pipe,
   socket or character device it is OCC_ERR_IO, "PATH: not a launch table
   (...), and a profile is read from a file, not a pipe: ...". *out is NULL
   on an error. */
occ_status occ_profile_launches_read(const char *path, occ_profile_launches **out,
                                     occ_profile_error *err);

/* The same for a launch table from a stream the caller opened and closes
   (stdin, a pipe, memory; the fuzzer's); `name` names it in messages and in
   the list's path. A stream that is not a launch table is OCC_ERR_BAD_FORMAT
   (a profile is read by path: SQLite needs a file). Declared where
   <stdio.h> was included first. */
#ifdef EOF
occ_status occ_profile_launches_read_stream(FILE *in, const char *name, occ_profile_launches **out,
                                            occ_profile_error *err);
#endif

/* The set's launches, as occ_inspect_apply_launches takes them: path, kind
   ("profile" or "table"), launches, count, and `matched` (count entries,
   false until applied) and `match`, which the caller passes to
   occ_inspect_apply_launches to fill. Owned by the set; NULL for NULL. */
occ_inspect_launch_list *occ_profile_launches_list(occ_profile_launches *set);

/* Frees the set and everything the list points into; NULL is allowed. */
void occ_profile_launches_free(occ_profile_launches *set);

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

/*
 * Nsight Compute exports (`ncu --csv --page raw` or `--page details`, plain
 * or gzip), read launch by launch in bounded memory, each launch computed
 * with libocc and compared with Nsight's own figures (`occ ncu`;
 * docs/ncu.md). Errors are one line, "PATH: line N: ...", with status
 * OCC_ERR_BAD_FORMAT (OCC_ERR_IO: cannot open; OCC_ERR_OUT_OF_MEMORY).
 */

/* The longest record read: a raw page row holds every metric of a launch
   and its kernel's demangled name (a --set full export is a few times the
   H200 exports' 10,596 bytes). */
#define OCC_PROFILE_NCU_MAX_RECORD_BYTES (1 << 20)
/* The most columns read: the raw page of --set full has about 2,000. */
#define OCC_PROFILE_NCU_MAX_FIELDS 65536
/* What may precede the header and is skipped (the application's output and
   ncu's ==PROF== lines); a file with no header in this much is refused. */
#define OCC_PROFILE_NCU_MAX_SKIPPED_LINES 1000000LL
#define OCC_PROFILE_NCU_MAX_SKIPPED_BYTES (64LL << 20)
/* The most SMs an export may claim: four times the largest GPU in occ's
   database, so that the next generations read while 0, -1 or 10^9 do not. */
#define OCC_PROFILE_NCU_MAX_SM_COUNT 1024

/* Which page of `ncu --csv` a file holds. */
typedef enum occ_profile_ncu_page {
    OCC_PROFILE_NCU_PAGE_RAW = 0,    /* one row per launch, a units row under the header */
    OCC_PROFILE_NCU_PAGE_DETAILS = 1 /* one row per metric per launch */
} occ_profile_ncu_page;

/* The numbers read from a launch (occ_profile_ncu_launch.v). */
typedef enum occ_profile_ncu_field {
    OCC_PROFILE_NCU_BLOCK_SIZE,
    OCC_PROFILE_NCU_GRID_SIZE,
    OCC_PROFILE_NCU_REGS,
    OCC_PROFILE_NCU_STATIC_SMEM,
    OCC_PROFILE_NCU_DYN_SMEM,
    OCC_PROFILE_NCU_DRIVER_SMEM,
    OCC_PROFILE_NCU_SMEM_CONFIG,
    OCC_PROFILE_NCU_BARRIERS,
    OCC_PROFILE_NCU_CLUSTER_X,
    OCC_PROFILE_NCU_CLUSTER_Y,
    OCC_PROFILE_NCU_CLUSTER_Z,
    OCC_PROFILE_NCU_CLUSTER_SIZE,
    OCC_PROFILE_NCU_MAX_ACTIVE_CLUSTERS,
    OCC_PROFILE_NCU_SM_COUNT,
    OCC_PROFILE_NCU_WAVES,
    OCC_PROFILE_NCU_DURATION,
    OCC_PROFILE_NCU_LIMIT_WARPS,
    OCC_PROFILE_NCU_LIMIT_BLOCKS,
    OCC_PROFILE_NCU_LIMIT_REGISTERS,
    OCC_PROFILE_NCU_LIMIT_SHARED_MEM,
    OCC_PROFILE_NCU_LIMIT_BARRIERS,
    OCC_PROFILE_NCU_THEORETICAL_PCT,
    OCC_PROFILE_NCU_THEORETICAL_WARPS,
    OCC_PROFILE_NCU_ACHIEVED_PCT,
    OCC_PROFILE_NCU_FIELD_COUNT
} occ_profile_ncu_field;

/* A number from an export in occ's unit (bytes, microseconds, percent,
   counts), with half a unit of its last printed digit: the true value lies
   within value +- tolerance. */
typedef struct occ_profile_ncu_number {
    bool present;
    double value;
    double tolerance;
} occ_profile_ncu_number;

/* Parses an Nsight number: "1,024", "32.768000", "-3", "1.5e3", and the raw
   page's "167.94 (0: 167.94)" (the value before the parenthesis). False for
   anything else ("n/a", "", "3,2"). */
bool occ_profile_ncu_parse_number(const char *text, occ_profile_ncu_number *out);

#define OCC_PROFILE_NCU_DEVICE_NAME_BYTES 96
#define OCC_PROFILE_NCU_WORD_BYTES 32

/* One profiled launch, as the export gives it. */
typedef struct occ_profile_ncu_launch {
    long long id;     /* the export's ID column */
    long long line;   /* the line of its record (raw), or its first row (details) */
    const char *name; /* the kernel's name, owned by the reader: valid until the next
                         occ_profile_ncu_next or occ_profile_ncu_free */
    char device_name[OCC_PROFILE_NCU_DEVICE_NAME_BYTES]; /* "" where not exported */
    int cc_major, cc_minor;                              /* -1 where not exported */
    int block_dims[3]; /* from "(256, 1, 1)"; 0 where not exported */
    int grid_dims[3];
    char cluster_policy[OCC_PROFILE_NCU_WORD_BYTES]; /* "PolicySpread"; "" where not exported */
    occ_profile_ncu_number v[OCC_PROFILE_NCU_FIELD_COUNT];
} occ_profile_ncu_launch;

/* Reads launches from one export, streaming, in bounded memory. */
typedef struct occ_profile_ncu_reader occ_profile_ncu_reader;

/* Opens the export at `path` (gzip is read as it is) and reads its header
   (and the raw page's units row); lines before the header that are not one
   are skipped, up to the limits above. */
occ_status occ_profile_ncu_open(const char *path, occ_profile_ncu_reader **out,
                                occ_profile_error *err);

/* The same from a stream the caller opened and closes after
   occ_profile_ncu_free (stdin, a pipe); `name` names it in messages and
   must outlive the reader. Declared where <stdio.h> was included first. */
#ifdef EOF
occ_status occ_profile_ncu_open_stream(FILE *in, const char *name, occ_profile_ncu_reader **out,
                                       occ_profile_error *err);
#endif

/* The next launch: OCC_OK with *out filled and *done false, or OCC_OK with
 *done true after the last; a bad record fails with its line. */
occ_status occ_profile_ncu_next(occ_profile_ncu_reader *r, occ_profile_ncu_launch *out, bool *done,
                                occ_profile_error *err);

/* The page the export holds, and the lines skipped before its header. */
occ_profile_ncu_page occ_profile_ncu_page_of(const occ_profile_ncu_reader *r);
long long occ_profile_ncu_skipped_lines(const occ_profile_ncu_reader *r);

/* Frees the reader (and closes the file occ_profile_ncu_open opened); NULL
   is allowed. */
void occ_profile_ncu_free(occ_profile_ncu_reader *r);

/* The Block Limit rows, in Nsight's order ("warps", "blocks", ...). */
enum { OCC_PROFILE_NCU_LIMIT_COUNT = 5 };
extern const char *const occ_profile_ncu_limit_names[OCC_PROFILE_NCU_LIMIT_COUNT];

/* What differs between libocc and Nsight (bits of occ_profile_ncu_check.mismatches). */
typedef enum occ_profile_ncu_mismatch {
    OCC_PROFILE_NCU_MISMATCH_THEORETICAL = 1 << 0,
    OCC_PROFILE_NCU_MISMATCH_WARPS = 1 << 1,
    OCC_PROFILE_NCU_MISMATCH_BLOCKS = 1 << 2,
    OCC_PROFILE_NCU_MISMATCH_REGISTERS = 1 << 3,
    OCC_PROFILE_NCU_MISMATCH_SHARED_MEM = 1 << 4,
    OCC_PROFILE_NCU_MISMATCH_BARRIERS = 1 << 5,
    OCC_PROFILE_NCU_MISMATCH_CLUSTERS = 1 << 6,
    OCC_PROFILE_NCU_MISMATCH_WAVES = 1 << 7,
    OCC_PROFILE_NCU_MISMATCH_SMEM_CONFIG = 1 << 8,
    OCC_PROFILE_NCU_MISMATCH_DRIVER_SMEM = 1 << 9
} occ_profile_ncu_mismatch;
#define OCC_PROFILE_NCU_MISMATCH_KINDS 10

/* The JSON field name of a mismatch bit ("limits.registers"). */
const char *occ_profile_ncu_mismatch_name(unsigned bit);

/* libocc's view of one launch, next to Nsight's. */
typedef struct occ_profile_ncu_check {
    occ_device device;
    occ_kernel kernel; /* as libocc computed it (sizes as printed, rounded) */
    occ_result result;
    bool exact_inputs;                       /* every size was exported to the byte */
    int limits[OCC_PROFILE_NCU_LIMIT_COUNT]; /* libocc's, in Nsight's convention */
    int ncu_limits[OCC_PROFILE_NCU_LIMIT_COUNT];
    double theoretical;     /* libocc's, 0..1 */
    double ncu_theoretical; /* Nsight's, 0..1 */
    bool has_achieved;
    double achieved; /* Nsight's, 0..1 */
    int smem_config_bytes;
    int sm_count;      /* Nsight's SMs, else the device's; 0 unknown */
    bool has_clusters; /* a cluster launch */
    int cluster_size;
    int max_active_clusters;     /* libocc's; -1: not computed */
    bool clusters_exact;         /* libocc's count is exact, not an upper bound */
    int ncu_max_active_clusters; /* Nsight's; -1: not exported */
    bool barriers_inferred;      /* the export has no barrier count (details page) */
    double waves;                /* libocc's waves per SM; < 0: not computed */
    unsigned mismatches;         /* occ_profile_ncu_mismatch bits */
} occ_profile_ncu_check;

/* The GPU the launches are computed on: a forced one (refused where it
   contradicts the export's device), else the export's device, looked up
   once for each device and compute capability met. Zero it, set the forced
   fields, and pass the same one to every check of a file. */
typedef struct occ_profile_ncu_gpu {
    bool forced;
    occ_device forced_device;
    bool forced_named;     /* a named GPU of the database (not sm_90, not a file) */
    const char *forced_by; /* "--gpu A100": in messages; the caller's */
    /* the last export device looked up, and the answer */
    bool cached;
    char cached_name[OCC_PROFILE_NCU_DEVICE_NAME_BYTES];
    int cached_cc_major, cached_cc_minor;
    bool cached_ok;
    occ_device cached_device;
    bool cached_named;
} occ_profile_ncu_gpu;

/* Computes the launch with libocc on gpu's device and compares (`file`
   names it in messages). OCC_ERR_BAD_FORMAT when the launch cannot be
   computed at all: an unknown GPU, a forced GPU that is not the export's,
   values no GPU allows. */
occ_status occ_profile_ncu_check_launch(const occ_profile_ncu_launch *l, occ_profile_ncu_gpu *gpu,
                                        const char *file, occ_profile_ncu_check *out,
                                        occ_profile_error *err);

/* Why the achieved occupancy is below the theoretical: libocc's model
   (occ_achieved_gap in include/occ.h; docs/ncu.md) for one checked launch,
   its grid, SMs and clusters taken from the export and the check. Returns
   occ_achieved_gap's status, with its message in err. */
occ_status occ_profile_ncu_gap_compute(const occ_profile_ncu_launch *l,
                                       const occ_profile_ncu_check *c, occ_gap_result *out,
                                       occ_profile_error *err);

#ifdef __cplusplus
}
#endif

#endif /* OCC_PROFILE_H */
