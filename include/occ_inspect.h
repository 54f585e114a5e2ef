/*
 * occ_inspect.h - the public header of libocc-inspect: the resources and the
 * occupancy of every kernel in the files CUDA code arrives in (ptxas -v logs,
 * cubins, fatbins, executables and shared libraries), read offline, without
 * a GPU and without NVIDIA's binary tools.
 *
 * It reads files and allocates (libocc does neither); it prints nothing.
 * Files are read on several threads; identical functions found in several
 * places (containers, archs of one name, files) are merged and counted. Each
 * kernel's occupancy comes from libocc (occ_calc and
 * occ_max_potential_block_size), on a GPU you give or on a generic GPU of the
 * kernel's own arch.
 *
 *   occ_inspect_options opts;
 *   occ_inspect_options_init(&opts);
 *   occ_inspect_input in = {.path = "libfoo.so"};
 *   occ_inspect_result *r;
 *   occ_inspect_error err;
 *   if (occ_inspect_read(&in, 1, &opts, &r, &err) != OCC_OK) puts(err.message);
 *   for (size_t i = 0; i < occ_inspect_kernel_count(r); i++) {
 *       const occ_inspect_kernel *k = occ_inspect_kernel_at(r, i);
 *       printf("%s %d regs %.0f%%\n", k->name, k->regs, k->occupancy * 100);
 *   }
 *   occ_inspect_result_free(r);
 *
 * Limits (docs/inspect.md, "Limits"): a compressed entry may claim at most
 * OCC_INSPECT_MAX_ENTRY_BYTES decompressed, and at most
 * OCC_INSPECT_MAX_COMPRESSION_RATIO times its compressed size; an input that
 * cannot be mapped is read up to OCC_INSPECT_MAX_STREAM_BYTES; values beyond
 * an architecture's limits (registers per thread, barriers, shared memory,
 * local memory, threads per block) are refused as a damaged file, naming
 * the value and the limit. Conventions are occ.h's: an occ_status back, an
 * optional error out, names with units.
 */
#ifndef OCC_INSPECT_H
#define OCC_INSPECT_H

#include <stdbool.h>
#include <stddef.h>

#include "occ.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Largest decompressed size a fatbin entry may claim: above the largest
   cubin of any library measured (133,833,256 bytes in libnccl.so.2 of CUDA
   13.0), and low enough that one entry and the readers' other buffers stay
   under 256 MB. */
#define OCC_INSPECT_MAX_ENTRY_BYTES (160u << 20)
/* Largest decompressed / compressed size ratio an entry may claim: the
   highest measured over the 19,069 compressed cubins of the CUDA 13.0
   libraries is 134 (libcublasLt.so.13). */
#define OCC_INSPECT_MAX_COMPRESSION_RATIO 512
/* Largest input read from a stream (a pipe, /dev/stdin, a /proc file: what
   cannot be mapped): it is copied into memory, where a regular file is
   mapped. The limit is the process's, not each input's: every stream being
   read at once, by any occ_inspect_read of the process (occ_diff_read's two
   sides, a program's threads), holds at most this much in all. */
#define OCC_INSPECT_MAX_STREAM_BYTES ((size_t)128 << 20)
/* What libocc-inspect holds in bulk while reading, in all, for the whole
   process: the stream copies above and the buffers of entries decompressed
   larger than 2 MB (at most 128 MiB of those, shared by every read under
   way: a read waits for a buffer rather than pass it). It leaves room
   under 256 MB for the rows, the names and the threads' small buffers
   (docs/inspect.md, "Limits"). A stream that would pass it is refused
   (OCC_ERR_LIMIT); so is an entry that cannot get its buffer while streams
   hold the rest. */
#define OCC_INSPECT_MEMORY_BUDGET_BYTES ((size_t)160 << 20)
/* Most functions a baseline may hold (more is OCC_ERR_LIMIT, refused while
   its frame is checked, before any row is made). A function read costs
   about 500 bytes in memory (its row, its names, the merge), more than its
   text in the file, so the limit is on the functions: 150,000 keep occ diff
   of two such baselines, read at once, under 256 MB. The largest real one
   measured, libtorch_cuda.so of PyTorch 2.11 read with --functions, makes
   128,315. */
#define OCC_INSPECT_MAX_BASELINE_FUNCTIONS 150000

/* What an input holds, decided by its content alone. */
typedef enum occ_inspect_format {
    OCC_INSPECT_FORMAT_UNKNOWN = 0,
    OCC_INSPECT_FORMAT_PTXAS_LOG = 1, /* `ptxas -v` / `nvcc --resource-usage` text */
    OCC_INSPECT_FORMAT_CUBIN = 2,     /* NVIDIA ELF (e_machine 190) */
    OCC_INSPECT_FORMAT_FATBIN = 3,    /* fatbin container(s), magic 0xBA55ED50 */
    OCC_INSPECT_FORMAT_HOST_ELF = 4,  /* any other ELF: executable or shared library */
    OCC_INSPECT_FORMAT_ARCHIVE = 5,   /* static library (`ar`): every member is read */
    OCC_INSPECT_FORMAT_BASELINE = 6   /* `occ inspect --save` JSON (schema occ.baseline) */
} occ_inspect_format;

/* "ptxas log", "cubin", "fatbin", "host ELF", "archive", "baseline", "unknown". */
const char *occ_inspect_format_name(occ_inspect_format format);

/* One input: a file by path, or bytes already in memory (then `path` is only
   its name in messages and results). */
typedef struct occ_inspect_input {
    const char *path; /* a file, or the name of `data` ("<stdin>") */
    const void *data; /* NULL: read `path`; else `size` bytes, not copied */
    size_t size;
} occ_inspect_input;

typedef struct occ_inspect_options {
    const occ_device *device; /* occupancy on this GPU; NULL: on the generic GPU
                                 of each kernel's arch (sm_90 for an sm_90 cubin) */
    int threads;              /* block size; 0: the occupancy API's pick per kernel
                                 (within its __launch_bounds__) */
    int dyn_smem_bytes;       /* dynamic shared memory per block */
    int arch_sm;              /* read only this arch (90); 0: every arch */
    char arch_suffix;         /* with arch_sm: 0, 'a' or 'f' */
    bool arch_any_suffix;     /* with arch_sm: sm_90, sm_90a and sm_90f alike */
    bool functions;           /* device functions too, not only kernels */
    bool relfatbin;           /* also __nv_relfatbin (pre-link -rdc code) */
    bool demangle;            /* names demangled (default true) */
    int jobs;                 /* threads: 0 (every core, at most 32) to
                                 OCC_INSPECT_MAX_JOBS */
} occ_inspect_options;

/* The defaults: every arch, kernels only, demangled, the occupancy API's
   block size on each kernel's own arch, every core. */
void occ_inspect_options_init(occ_inspect_options *options);

/* The threads options.jobs = 0 means: every core, at most 32 (each thread
   keeps a decompression buffer, and the cap keeps memory under 256 MB). */
int occ_inspect_default_jobs(void);

/* The most threads options.jobs may ask for; more is OCC_ERR_INVALID_ARGUMENT. */
#define OCC_INSPECT_MAX_JOBS 64

/* A value the input does not carry. */
#define OCC_INSPECT_UNKNOWN (-1)

/* One distinct function and its occupancy. Strings live as long as the
   result. */
typedef struct occ_inspect_kernel {
    const char *name; /* as printed: demangled unless options.demangle
                         is false */
    const char *mangled;
    int sm;                 /* 90 for sm_90 */
    char arch_suffix;       /* 0, 'a' (sm_90a) or 'f' (sm_100f) */
    bool is_kernel;         /* an entry function (__global__) */
    bool relocatable;       /* from an -rdc cubin: unlinked values */
    bool from_log;          /* read from a ptxas log, which does not carry
                               __launch_bounds__, .reqntid, a register cap or
                               cluster dims: max_threads and the rest read 0,
                               and the occupancy (at the API's block size) may
                               differ from the same kernel read from its binary */
    int regs;               /* registers per thread */
    int smem_bytes;         /* static shared memory as ptxas and the driver
                               count it */
    int smem_section_bytes; /* raw .nv.shared.<k> size (cuobjdump's SHARED),
                               or OCC_INSPECT_UNKNOWN */
    int stack_bytes;        /* local memory per thread */
    int frame_bytes;        /* the function's own stack frame */
    int spill_store_bytes;  /* ptxas logs; OCC_INSPECT_UNKNOWN in binaries */
    int spill_load_bytes;   /* ptxas logs; OCC_INSPECT_UNKNOWN in binaries */
    int spill_instructions; /* cubins: instructions marked spill or refill */
    int barriers;           /* named barriers; OCC_INSPECT_UNKNOWN where the
                               input does not say (older ptxas logs) */
    int max_threads[3];     /* __launch_bounds__ / .maxntid; 0 if none */
    int req_threads[3];     /* .reqntid; 0 if none */
    int max_regs;           /* register cap (maxrreg, launch bounds); 0 if none */
    int cluster_dims[3];    /* __cluster_dims__; 0 if none */
    bool explicit_cluster;  /* must be launched as a cluster */
    int max_cluster_rank;   /* .maxclusterrank; 0 if none */
    int param_bytes;        /* kernel parameter bytes, or OCC_INSPECT_UNKNOWN */
    int count;              /* identical copies merged into this one */
    int input;              /* index of the input the first copy came from */
    const char *section;    /* host ELF section of the first copy, or NULL */

    /* Occupancy on the target GPU, valid when has_occupancy */
    bool has_occupancy;
    const char *note; /* why there is none ("device function", ...), or NULL */
    char gpu[OCC_DEVICE_NAME_BYTES];
    int threads; /* the block size used */
    int blocks_per_sm;
    int warps_per_sm;
    int max_warps_per_sm;
    double occupancy;
    unsigned limiters; /* occ_limiter bits; 0 when no block fits */
    occ_zero_reason zero_reason;
    int cluster_size;        /* blocks per cluster of the compiled __cluster_dims__, 0
                                without: then the occupancy above is a cluster
                                launch's (at most 8 blocks per SM, occ_cluster_calc) */
    int max_active_clusters; /* occ_max_active_clusters on the GPU, when cluster_size
                                is set; -1 without the GPU's SM count (sm_90) */
    unsigned launch_flags;   /* OCC_INSPECT_LAUNCH_* bits: why the launch the
                                occupancy was computed for would fail */

    /* The launch the occupancy is computed for (threads above is its block size) */
    int launch_source;           /* occ_inspect_launch_source */
    int launch_index;            /* the launch's index in occ_inspect_apply_launches'
                                    list; -1 for the options' block size */
    int launch_block[3];         /* block dims; {threads, 1, 1} from the options */
    int launch_dyn_smem_bytes;   /* dynamic shared memory per block */
    int launch_cluster[3];       /* cluster dims the launch asks for; 0s: none (the
                                    compiled __cluster_dims__ still apply) */
    int launch_carveout_percent; /* the shared-memory carveout it prefers, 0..100;
                                    OCC_CARVEOUT_DEFAULT: none */
} occ_inspect_kernel;

/* Where a row's launch configuration comes from. */
typedef enum occ_inspect_launch_source {
    OCC_INSPECT_LAUNCH_API = 0,     /* the block size the occupancy API picks */
    OCC_INSPECT_LAUNCH_THREADS = 1, /* options.threads (--threads) */
    OCC_INSPECT_LAUNCH_PROFILE = 2, /* a launch a profile recorded */
    OCC_INSPECT_LAUNCH_TABLE = 3,   /* a row of a launch table */
} occ_inspect_launch_source;

/* "api", "threads", "profile", "table"; "unknown" outside the enum. */
const char *occ_inspect_launch_source_name(int source);

/* One launch configuration a program makes: a profile's group, or a launch
   table's row (docs/diff.md, "Launch configurations"). */
typedef struct occ_inspect_launch {
    const char *name;      /* demangled, as a profile gives it; a table's name or glob */
    const char *mangled;   /* NULL where the source does not carry it */
    bool glob;             /* name may be a glob (a table's with * ? [): it is one
                              (fnmatch over printed names, white space ignored,
                              and mangled names) only where it names no kernel */
    int block[3];          /* 0 in y or z means 1 */
    int dyn_smem_bytes;    /* OCC_INSPECT_UNKNOWN where only the sum is known */
    int smem_total_bytes;  /* static + dynamic (a PyTorch profile's "shared
                              memory"); OCC_INSPECT_UNKNOWN where not given */
    int cluster[3];        /* 0s: none, or not recorded */
    long long grid_blocks; /* 0: unknown */
    double weight;         /* a profile's GPU time (us); a table's weight */
    int source;            /* OCC_INSPECT_LAUNCH_PROFILE or _TABLE */
    int carveout_percent;  /* the shared-memory carveout the launch prefers
                              (cudaFuncAttributePreferredSharedMemoryCarveout),
                              0..100; OCC_CARVEOUT_DEFAULT: none */
} occ_inspect_launch;

/* Launches that matched: the counts, and the weight on each side. */
typedef struct occ_inspect_launch_match {
    size_t launches;         /* given */
    size_t matched;          /* matched at least one kernel */
    size_t rows;             /* rows the result has now */
    size_t kernels_launched; /* kernels with at least one launch */
    double weight;           /* of every launch */
    double matched_weight;   /* of the matched launches */
} occ_inspect_launch_match;

/* A set of launches as given to a result: where it came from, and after
   occ_inspect_apply_launches(r, opts, l->launches, l->count, l->matched,
   &l->match, err), which matched. libocc-profile's occ_profile_launches_read
   makes one from a profile or a launch table; occ diff's report and the JSON
   documents' launch_match read it. */
typedef struct occ_inspect_launch_list {
    const char *path; /* as given */
    const char *kind; /* "profile" or "table" */
    const occ_inspect_launch *launches;
    size_t count;
    bool *matched;                  /* count entries: which matched a kernel */
    occ_inspect_launch_match match; /* filled by occ_inspect_apply_launches */
} occ_inspect_launch_list;

/* Why a kernel's launch fails (occ_inspect_kernel.launch_flags). The
   occupancy is still the one libocc computes for the block size, as
   cudaOccupancyMaxActiveBlocksPerMultiprocessor answers it, but the launch
   itself returns an error. */
enum {
    /* the block size is above __launch_bounds__ / .maxntid:
       cudaErrorInvalidValue */
    OCC_INSPECT_LAUNCH_OVER_BOUNDS = 1u << 0,
    /* the block size is not the kernel's .reqntid: cudaErrorInvalidValue */
    OCC_INSPECT_LAUNCH_NOT_REQNTID = 1u << 1,
    /* the compiled __cluster_dims__ cannot launch on the GPU (above 16
       blocks, or refused by occ_cluster_calc: then has_occupancy is false) */
    OCC_INSPECT_LAUNCH_CLUSTER = 1u << 2,
};

/* Why reading failed: the input (index, -1 for none), where in it (byte
   offset, -1 for none), the status, and one line. When `input` is not -1
   the line starts with that input's name and ": " ("k.cubin: offset 8:
   ..."), so it can be printed as it is. A line longer than the buffer
   keeps its start and its end (which says what is wrong), with "[...]"
   for the middle left out. */
#define OCC_INSPECT_ERROR_MESSAGE_BYTES 512
typedef struct occ_inspect_error {
    occ_status status; /* OCC_ERR_IO, OCC_ERR_BAD_FORMAT, OCC_ERR_LIMIT,
                          OCC_ERR_OUT_OF_MEMORY, OCC_ERR_INVALID_ARGUMENT */
    int input;
    long long offset;
    char message[OCC_INSPECT_ERROR_MESSAGE_BYTES];
} occ_inspect_error;

typedef struct occ_inspect_result occ_inspect_result;

/*
 * Gives each kernel the launches a program makes: a kernel matched by k
 * launches becomes k rows, each with the occupancy at its launch (block
 * size, dynamic shared memory, cluster dims); a kernel matched by none keeps
 * its row (the options' block size). A launch matches a kernel by mangled
 * name where it has one, else by its name as a mangled name ("_Z5scalePfi"),
 * else by printed name with white space ignored (a profile's demangler
 * spaces templates its own way). A glob launch is a glob only where its
 * name names no kernel (of any arch) these ways: "scale(float*,int)" is the
 * kernel scale(float*, int), and not scale(float const*, int) too. Where only
 * a launch's static + dynamic shared memory is known, the dynamic part is
 * the sum less the kernel's static shared memory. With options.device, only
 * kernels that run on it are matched. matched (count entries, or NULL) says
 * which launches matched. Call after occ_inspect_read, before sort and
 * filter. OCC_ERR_INVALID_ARGUMENT names a launch whose values no launch
 * can have; OCC_ERR_LIMIT above OCC_INSPECT_MAX_LAUNCH_ROWS rows.
 */
#define OCC_INSPECT_MAX_LAUNCH_ROWS 4000000
occ_status occ_inspect_apply_launches(occ_inspect_result *r, const occ_inspect_options *options,
                                      const occ_inspect_launch *launches, size_t count,
                                      bool *matched, occ_inspect_launch_match *out,
                                      occ_inspect_error *err);

/*
 * Reads every input and returns the distinct functions in *out (free with
 * occ_inspect_result_free), in no particular order: call occ_inspect_sort.
 * The first bad input stops the reading: OCC_ERR_IO (cannot open or read,
 * or a terminal, which would wait for typing), OCC_ERR_BAD_FORMAT (not a
 * known format, damaged, or values beyond an architecture's limits),
 * OCC_ERR_LIMIT (an entry above the decompression limits, a stream above
 * OCC_INSPECT_MAX_STREAM_BYTES), OCC_ERR_OUT_OF_MEMORY; *out is then NULL.
 */
occ_status occ_inspect_read(const occ_inspect_input *inputs, int input_count,
                            const occ_inspect_options *options, occ_inspect_result **out,
                            occ_inspect_error *err);

void occ_inspect_result_free(occ_inspect_result *result);

size_t occ_inspect_kernel_count(const occ_inspect_result *result);
/* Kernel `index` (0 .. count-1), NULL when out of range. */
const occ_inspect_kernel *occ_inspect_kernel_at(const occ_inspect_result *result, size_t index);

/* The orders of occ_inspect_sort; ties break by name, arch and numbers, so
   the order never depends on the threads. */
typedef enum occ_inspect_order {
    OCC_INSPECT_BY_OCCUPANCY = 0, /* lowest first; kernels without one last */
    OCC_INSPECT_BY_REGS = 1,      /* most registers first */
    OCC_INSPECT_BY_SMEM = 2,      /* most static shared memory first */
    OCC_INSPECT_BY_NAME = 3       /* by printed name */
} occ_inspect_order;

occ_status occ_inspect_sort(occ_inspect_result *result, occ_inspect_order order,
                            occ_inspect_error *err);

/* Keeps the kernels whose printed name matches a POSIX extended regular
   expression; OCC_ERR_INVALID_ARGUMENT when it does not compile. */
occ_status occ_inspect_filter(occ_inspect_result *result, const char *regex,
                              occ_inspect_error *err);

/* What was read, beside the kernels. */
typedef struct occ_inspect_totals {
    size_t functions_read; /* before merging identical ones */
    size_t distinct_names; /* mangled names */
    int entries_skipped;   /* fatbin entries of other archs (options.arch_sm) */
    int input_count;
    int no_data_count; /* occ_inspect_no_data_at's range */
} occ_inspect_totals;

void occ_inspect_totals_get(const occ_inspect_result *result, occ_inspect_totals *out);

/* Input `index`: its name and the format found. */
const char *occ_inspect_input_name(const occ_inspect_result *result, int index);
occ_inspect_format occ_inspect_input_format(const occ_inspect_result *result, int index);

/* Fatbin entries that carry no resource data (PTX, LTO-IR), by kind and arch. */
typedef struct occ_inspect_no_data {
    int kind; /* 1 PTX, 8 LTO-IR, or another kind number */
    int sm;
    char arch_suffix;
    int count;
} occ_inspect_no_data;

occ_inspect_no_data occ_inspect_no_data_at(const occ_inspect_result *result, int index);

/* "PTX", "LTO-IR", "cubin" or "kind N", into buf. */
const char *occ_inspect_entry_kind_name(int kind, char *buf, size_t cap);

/* "sm_90a", into buf. */
const char *occ_inspect_arch_name(int sm, char arch_suffix, char *buf, size_t cap);

/* ---- kernels at risk ------------------------------------------------------
 * At the register ceiling, spilling, a launch that fails, or a few registers
 * or bytes of shared memory from losing a resident block (the next occupancy
 * cliff). `occ inspect --summary` counts them; `occ diff` flags each changed
 * or added kernel. The cliffs come from libocc's occ_calc at the block size
 * the kernel's occupancy was computed at, with the registers or the shared
 * memory raised: resident blocks never rise as either grows, so a bisection
 * finds the first value that loses a block in a few calls. */

/* "Near" a cliff: within half a register allocation step. Registers are
   allocated per warp in units of 256 on every arch occ knows (8 per
   thread), so any register-bound kernel is within 8 of a step; 4 singles
   out those a small code change pushes over. */
#define OCC_INSPECT_RISK_NEAR_REGS 4
/* Within 1 KB of shared memory per block: eight allocation units of 128
   bytes (sm_80 to sm_120), one row of 256 floats of a tile. */
#define OCC_INSPECT_RISK_NEAR_SMEM_BYTES 1024

typedef struct occ_inspect_risk {
    bool at_ceiling;         /* registers at the kernel's own ceiling: its register
                                cap (__maxnreg__, -maxrregcount, or the one ptxas
                                derived from __launch_bounds__, as the cubin
                                records it), else the arch's maximum (255) */
    int ceiling;             /* that ceiling */
    bool own_cap;            /* the ceiling is the kernel's own cap */
    bool launch_bounds;      /* the block size is above __launch_bounds__: the launch fails */
    bool reqntid;            /* the block size is not the kernel's .reqntid: it fails */
    bool cluster_refused;    /* the compiled cluster dims cannot launch on the GPU */
    bool spilling;           /* spill stores or loads (a log), spill instructions (a cubin) */
    bool has_cliffs;         /* a block fits, so the cliffs below were computed */
    int blocks_per_sm;       /* at the kernel's own figures */
    int regs_to_cliff;       /* fewest registers per thread more that lose a block;
                                0: none does (up to the ceiling or the kernel's own
                                register cap, which ptxas keeps to by spilling) */
    int smem_to_cliff_bytes; /* fewest bytes of shared memory per block more that
                                lose a block (past the per-block maximum, the
                                block cannot launch); 0: none */
} occ_inspect_risk;

/* Only the flags that need no search: the ceiling, spills and the launch. */
void occ_inspect_risk_flags(const occ_inspect_kernel *k, const occ_inspect_options *options,
                            occ_inspect_risk *out);

/* The risk of one kernel read with `options` (the device, dynamic shared
   memory and block size its occupancy used). Device functions, kernels
   without an occupancy and kernels compiled with __cluster_dims__ (whose
   figure is a cluster launch's) get the ceiling and spill flags only. */
void occ_inspect_risk_of(const occ_inspect_kernel *k, const occ_inspect_options *options,
                         occ_inspect_risk *out);

/* Within OCC_INSPECT_RISK_NEAR_REGS / _NEAR_SMEM_BYTES of a cliff. */
bool occ_inspect_risk_near_regs(const occ_inspect_risk *r);
bool occ_inspect_risk_near_smem(const occ_inspect_risk *r);

/* A flag that says the launch fails: launch_bounds, reqntid, cluster_dims. */
bool occ_inspect_risk_fails(const occ_inspect_risk *r);

/* Any flag. */
bool occ_inspect_risk_any(const occ_inspect_risk *r);

/* The flags in words, into buf: "launch_bounds, reqntid, cluster_dims,
   ceiling, spills, regs+2, smem+512B"; "-" for none. */
const char *occ_inspect_risk_text(const occ_inspect_risk *r, char *buf, size_t cap);

/* "registers+warps" (the limiters of a kernel with an occupancy), "none
   fits", or the note that says why it has none; "-" without one. */
const char *occ_inspect_limiter_text(const occ_inspect_kernel *k, char *buf, size_t cap);

/* ---- the launch and risk parts of the JSON documents ----------------------
 * As occ inspect --json and occ diff --json write them (docs/json.md), for
 * callers that build their own documents around them. */

/* A row's launch object: {"block":[x,y,z],"dyn_smem_bytes":N,"cluster":...,
   "carveout_percent":...,"source":"profile"}; "null" for a device function.
   cap >= 192 holds any. */
const char *occ_inspect_launch_json(const occ_inspect_kernel *k, char *buf, size_t cap);

/* A row's launch in words: "[profile, block 16x16x1, 8192 B dynamic,
   cluster 2x1x1]" for a row at a recorded launch, "" for one at the
   options' block size. */
const char *occ_inspect_launch_text(const occ_inspect_kernel *k, char *buf, size_t cap);

/* The risk flags as a JSON array of strings: ["launch_bounds","regs+2"];
   "[]". cap >= 192 holds any. */
const char *occ_inspect_risk_json_flags(const occ_inspect_risk *r, char *buf, size_t cap);

/* The launches of l that matched no kernel, heaviest first: *order holds
 *count indices into l->launches (free with free()). */
occ_status occ_inspect_launch_unmatched(const occ_inspect_launch_list *l, size_t **order,
                                        size_t *count);

/* The launch_match object of the documents (source, file, launches,
   matched, kernels_launched, matched_time_share, unmatched heaviest first),
   or "null" for l NULL: *text (NUL-terminated, *size bytes) is freed with
   occ_inspect_text_free. */
occ_status occ_inspect_launch_match_json(const occ_inspect_launch_list *l, char **text,
                                         size_t *size);

/* Frees text that libocc-inspect returned (free(); for bindings that
   cannot reach the C library's own). */
void occ_inspect_text_free(char *text);

/* ---- documents ------------------------------------------------------------
 * A baseline (schema occ.baseline, docs/json.md) holds every function's
 * resources and no occupancy: occ_inspect_read reads it back as an input
 * (OCC_INSPECT_FORMAT_BASELINE), computing the occupancy afresh on whatever
 * GPU it is asked for, so a build can be compared with one saved earlier
 * (occ diff). The occ.inspect document is what `occ inspect --json` writes
 * (docs/inspect.md). */

/*
 * Writes r's functions as a baseline to `path`, through a temporary file
 * beside it that is renamed into place: a reader never sees half a
 * baseline. r is sorted by name first (occ_inspect_sort), so that baselines
 * of similar builds differ line by line where the builds do. `options` and
 * `filter` (the regular expression given to occ_inspect_filter, or NULL)
 * are those r was read with: the baseline records them, so that a new build
 * can be read alike. Call before occ_inspect_apply_launches, which makes a
 * kernel several rows (OCC_ERR_INVALID_ARGUMENT after it). OCC_ERR_IO: the
 * file cannot be created or written ("PATH: cannot create: REASON").
 */
occ_status occ_inspect_baseline_save(occ_inspect_result *r, const occ_inspect_options *options,
                                     const char *filter, const char *path, occ_inspect_error *err);

/* The same document written to out (OCC_ERR_IO when it cannot be).
   Declared where <stdio.h> was included first. */
#ifdef EOF
occ_status occ_inspect_baseline_write(occ_inspect_result *r, const occ_inspect_options *options,
                                      const char *filter, FILE *out, occ_inspect_error *err);
#endif

/* The occ.inspect document of r, in r's order, written to out: the GPU,
   block size and dynamic shared memory of `options` (what r was read
   with; options->jobs threads format the rows) and the launch_match of
   `launches` (NULL: none applied). OCC_ERR_IO when it cannot be written.
   Declared where <stdio.h> was included first. */
#ifdef EOF
occ_status occ_inspect_json_write(const occ_inspect_result *r, const occ_inspect_options *options,
                                  const occ_inspect_launch_list *launches, FILE *out,
                                  occ_inspect_error *err);
#endif

/*
 * A GPU described in JSON (docs/gpu-file.md; what `occ calc --gpu-file`
 * reads): a database entry or a compute capability to start from ("base",
 * or cc_major/cc_minor) and the fields of occ_device to override, checked
 * as the database is (occ_device_validate). On success *out is the device.
 * Otherwise one line that starts with `name` (the text's name for messages;
 * NULL: "<gpu description>") and names the field: OCC_ERR_BAD_FORMAT (not
 * JSON, not one object, an unknown or ill-typed field, empty),
 * OCC_ERR_INVALID_DEVICE (a description the checks refuse), OCC_ERR_LIMIT
 * (above OCC_INSPECT_GPU_FILE_MAX_BYTES), OCC_ERR_NULL_POINTER.
 */
#define OCC_INSPECT_GPU_FILE_MAX_BYTES (1 << 20) /* a description is a few hundred bytes */
occ_status occ_inspect_gpu_from_json(const char *text, size_t size, const char *name,
                                     occ_device *out, occ_inspect_error *err);

/* The same from a file (a regular file or a pipe; no "-": read stdin into
   occ_inspect_gpu_from_json), named by its path in messages; OCC_ERR_IO when
   it cannot be opened or read, or is a directory. */
occ_status occ_inspect_gpu_file(const char *path, occ_device *out, occ_inspect_error *err);

/* Seconds each step of the last occ_inspect_read took (for profiling). */
typedef struct occ_inspect_timing {
    double split_seconds;        /* mapping files, walking container and entry headers */
    double read_seconds;         /* the threads' round over entries and section scans */
    double scanned_seconds;      /* containers the scans found: walk and read */
    double merge_seconds;        /* merging the threads' rows and duplicates */
    double names_seconds;        /* demangling and ranking the distinct names */
    double pool_wait_seconds;    /* threads' seconds waiting for a large buffer */
    size_t entries_in_part;      /* large zstd cubins read in part (docs/inspect.md) */
    size_t entries_part_refused; /* of those tried in part, the ones read whole */
} occ_inspect_timing;

void occ_inspect_timing_get(const occ_inspect_result *result, occ_inspect_timing *out);

#ifdef __cplusplus
}
#endif

#endif /* OCC_INSPECT_H */
