/*
 * occ_regs.h - what each register cap costs in spills and buys in warps:
 * the engine of `occ regs`, part of libocc-inspect. It compiles a kernel's
 * PTX with the toolkit's own ptxas at every cap where the launch's
 * occupancy changes (or at the caps given), and at the __launch_bounds__
 * minimum-blocks variants, reads each `ptxas -v` log with libocc-inspect's
 * reader, and computes the occupancy of each with libocc.
 *
 *   occ_regs_options opts;
 *   occ_regs_options_init(&opts);
 *   opts.device = &h200;                       (occ_gpu_find("H200", ...))
 *   opts.kernel_glob = "gemm*";
 *   occ_regs_result *r;
 *   occ_inspect_error err;
 *   if (occ_regs_run("k.ptx", &opts, &r, &err) != OCC_OK) puts(err.message);
 *   for (size_t i = 0; i < occ_regs_kernel_count(r); i++) {
 *       const occ_regs_kernel *k = occ_regs_kernel_at(r, i);
 *       for (int c = 0; c < k->cap_count; c++)
 *           printf("%d %d %d\n", k->caps[c].cap, k->caps[c].regs, k->caps[c].blocks_per_sm);
 *   }
 *   occ_regs_json_write(r, stdout, &err);      (schema occ.regs)
 *   occ_regs_result_free(r);
 *
 * Inputs: PTX text, a .cu file (compiled to PTX with nvcc -ptx and the
 * caller's arguments), or a binary that embeds PTX (a fatbin, or an
 * executable, shared library or object with one), where the arch picks the
 * PTX. Compiles run in parallel (options.jobs) and are cached by content
 * (docs/regs.md, "The cache"). Errors come back as an occ_status and an
 * occ_inspect_error whose message is one line naming the value and the
 * limit; nothing is printed.
 */
#ifndef OCC_REGS_H
#define OCC_REGS_H

#include "occ_inspect.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The version of the occ.regs JSON document (docs/regs.md). */
#define OCC_REGS_SCHEMA_VERSION 1

/* Most caps one run compiles (--caps, or the staircase's steps), and most
   minimum-blocks variants. */
#define OCC_REGS_MAX_CAPS 64
#define OCC_REGS_MAX_MIN_BLOCKS 32

/* Most compiles run at once (options.jobs). */
#define OCC_REGS_MAX_JOBS 64

/* The largest PTX read (a module of the CUDA 13.0 libraries is at most a
   few tens of MB). */
#define OCC_REGS_MAX_PTX_BYTES ((size_t)256 << 20)

/* Called after each compile, from the thread that ran it (calls never
   overlap): compiles done and to do, and whether it came from the cache. */
typedef void (*occ_regs_progress_fn)(void *context, int done, int total, bool cached);

typedef struct occ_regs_options {
    const occ_device *device; /* occupancy on this GPU; NULL: the generic GPU of
                                 the arch compiled for */
    int arch_sm;              /* ptxas -arch=sm_<arch_sm><suffix>; 0: the
                                 device's compute capability, else the PTX's
                                 .target. In a binary it picks the PTX: the
                                 entry of the highest arch at or below it */
    char arch_suffix;         /* 0, 'a' or 'f' (with arch_sm) */
    int threads;              /* block size; 0: each kernel's .reqntid, else its
                                 .maxntid, else 256 */
    int dyn_smem_bytes;       /* dynamic shared memory per block */
    const int *caps;          /* cap_count register caps to compile at, besides the
                                 unconstrained compile; NULL: the staircase's steps */
    int cap_count;
    const int *min_blocks;        /* __launch_bounds__(threads, N) variants to compile;
                                     NULL: 1 .. the blocks the block size allows */
    int min_blocks_count;         /* with min_blocks; -1: no variants */
    const char *kernel_glob;      /* fnmatch glob on the mangled or demangled name;
                                     NULL: every kernel */
    int jobs;                     /* compiles at once: 0 (every core) ..
                                     OCC_REGS_MAX_JOBS */
    const char *ptxas;            /* path; NULL: $CUDA_HOME/bin, then PATH, then
                                     /usr/local/cuda/bin */
    const char *nvcc;             /* path for .cu inputs; NULL: found as ptxas is */
    const char *const *nvcc_args; /* the caller's nvcc arguments (after `--`) */
    int nvcc_arg_count;
    const char *cache_dir; /* NULL: $OCC_CACHE_DIR, $XDG_CACHE_HOME/occ/regs
                              or ~/.cache/occ/regs; "": no cache */
    /* The latency model's inputs (docs/latency-model.md); bytes_loaded_per_thread
       0: no prediction */
    double bytes_loaded_per_thread;    /* global bytes a thread loads per pass of
                                          the loop the spills sit in */
    double loads_in_flight_per_thread; /* ILP (default 1) */
    double bytes_per_load;             /* default 4 */
    occ_regs_progress_fn progress;
    void *progress_context;
} occ_regs_options;

/* The defaults: every kernel, the staircase, the minimum-blocks variants,
   every core, the cache, no prediction. */
void occ_regs_options_init(occ_regs_options *options);

/* A yes or no that may not be told. Zero, the value of a zeroed point, is
   "not told": the kernel has no setmaxnreg, or the answer cannot be told. */
typedef enum occ_regs_answer {
    OCC_REGS_UNTOLD = 0,
    OCC_REGS_YES = 1,
    OCC_REGS_NO = 2
} occ_regs_answer;

/* One compile of one kernel: at a register cap, or a __launch_bounds__
   variant. */
typedef struct occ_regs_point {
    int cap;               /* --maxrregcount; 0: none (the unconstrained compile) */
    int min_blocks;        /* __launch_bounds__(threads, min_blocks) variant; 0: none */
    int regs;              /* registers per thread ptxas used */
    int spill_store_bytes; /* as `ptxas -v` prints them */
    int spill_load_bytes;
    int stack_bytes;   /* cumulative stack size (local memory per thread) */
    int blocks_per_sm; /* at the launch */
    int warps_per_sm;
    double occupancy;                  /* 0..1 */
    bool predicted;                    /* the latency model's figures below are set */
    double predicted_gb_per_s;         /* the kernel's own traffic, with the spills
                                          sharing the bandwidth */
    double predicted_vs_unconstrained; /* predicted / the unconstrained compile's */
    occ_latency_bound predicted_bound;
    occ_regs_answer setmaxnreg_fits; /* a kernel with setmaxnreg: whether its warp groups'
                                        budgets fit this compile's block (its registers x
                                        threads at entry) and the SM's register file at its
                                        blocks; NO: setmaxnreg.inc can wait forever, and the
                                        compile is never recommended (docs/setmaxnreg.md) */
} occ_regs_point;

/* Spill bytes of a point, stores and loads. */
int occ_regs_point_spill_bytes(const occ_regs_point *p);

/* Whether a point's compile can run: at least one block per SM, and a
   setmaxnreg budget that is not known not to fit. */
bool occ_regs_point_runs(const occ_regs_point *p);

/* A region of a warp-specialized kernel: what follows one setmaxnreg (or
   the entry, for the warp groups that run none), and the groups that run it
   (docs/setmaxnreg.md, "What is reported"). */
typedef struct occ_regs_setmaxnreg_region {
    const char *action;   /* "entry", "inc" or "dec" */
    int line;             /* of the setmaxnreg in the PTX, from 1; 0 for "entry" */
    int regs_per_thread;  /* its count (at entry: ptxas's); 0 unknown */
    unsigned warp_groups; /* bit g: warp group g (threads 128g ..) runs it; 0 unknown */
    int warp_group_count; /* 0 unknown */
    long long regs;       /* regs_per_thread x those groups' threads; -1 unknown */
} occ_regs_setmaxnreg_region;

/* What ptxas said about the kernel's registers. */
typedef struct occ_regs_setmaxnreg_message {
    const char *code; /* "C7508", or "maxrregcount-ignored", "minnctapersm-out-of-range", ... */
    const char *text; /* the line as ptxas wrote it, after "ptxas info    : " */
} occ_regs_setmaxnreg_message;

/* The setmaxnreg findings of one kernel, from the unconstrained compile: its
   PTX, ptxas's log and cubin. */
typedef struct occ_regs_setmaxnreg {
    int block_threads;    /* the block the budgets are for */
    int warp_group_count; /* 0 unknown */
    int regs_at_entry;    /* ptxas's count for the kernel */
    int blocks_per_sm;    /* at the launch (0: none fits; one block is checked) */
    const occ_regs_setmaxnreg_region *regions;
    int region_count;
    long long block_budget_regs; /* what the warp groups ask for per block; -1 unknown */
    long long budget_regs;       /* x the blocks per SM (at least 1); -1 unknown */
    long long pool_regs;         /* the block's registers at entry; -1 unknown */
    int regs_per_sm;             /* the SM's register file */
    occ_regs_answer fits;        /* NO: an error, setmaxnreg.inc can wait forever */
    const occ_regs_setmaxnreg_message *messages;
    int message_count;
    occ_regs_answer honoured; /* the code still reconfigures registers (SASS USETMAXREG) */
    int usetmaxreg_count;     /* USETMAXREG in the kernel's code in the cubin; -1 not read */
    const char *note;         /* why fits or honoured is what it is; "" */
    const char *errors;       /* what the user must hear, lines separated by '\n': a budget
                                 that does not fit, each of ptxas's messages (C7508, ...),
                                 setmaxnreg dropped without one; "" none */
} occ_regs_setmaxnreg;

/* One kernel, its compiles and the recommendation. Strings live as long as
   the result. */
typedef struct occ_regs_kernel {
    const char *name;           /* demangled */
    const char *mangled;        /* the PTX entry's name */
    int threads;                /* the block size the occupancy is computed at */
    const char *threads_source; /* "threads" (given), "reqntid", "maxntid", "default" */
    int smem_bytes;             /* static shared memory (the unconstrained compile) */
    int ptx_max_regs;           /* the entry's own .maxnreg (__maxnreg__); 0: none,
                                   and --maxrregcount does not change it */
    occ_regs_point *caps;       /* [0] the unconstrained compile, then the caps, highest first
                                   (by default the staircase's step tops above the unconstrained
                                   registers, then its steps below them) */
    int cap_count;
    occ_regs_point *launch_bounds; /* the minimum-blocks variants, 1 first */
    int launch_bounds_count;
    int recommended;   /* index into caps: 0 is no cap */
    int cliff_cap;     /* the highest cap at which spills start; 0: none spills */
    const char *why;   /* the recommendation in words (one paragraph) */
    const char *notes; /* what was skipped and why, lines separated by '\n'; "" */
    const occ_regs_setmaxnreg *setmaxnreg; /* NULL: the kernel has no setmaxnreg */
    const int *candidates; /* the compiles worth timing, as indexes into caps (0: no cap):
                              occ_regs_candidates */
    int candidate_count;
} occ_regs_kernel;

typedef struct occ_regs_result occ_regs_result;

/*
 * Compiles the PTX of `path` (or of data[0..size) when data is not NULL;
 * path is then its name, and its extension still says whether it is .cu) at
 * every cap and variant options ask for, and returns each selected kernel
 * in *out, in the PTX's order (free with occ_regs_result_free).
 * OCC_ERR_IO: no ptxas (or nvcc) found, or it cannot run, or the file
 * cannot be read; OCC_ERR_BAD_FORMAT: not PTX, a .cu or a binary with PTX,
 * or ptxas or nvcc refused it (its first error line); OCC_ERR_NOT_FOUND: no
 * PTX of the arch in a binary, or the glob matches no kernel (their names
 * follow); OCC_ERR_INVALID_ARGUMENT: a cap outside ptxas's range for the
 * arch, an option out of range.
 */
occ_status occ_regs_run(const char *path, const void *data, size_t size,
                        const occ_regs_options *options, occ_regs_result **out,
                        occ_inspect_error *err);

void occ_regs_result_free(occ_regs_result *result);

size_t occ_regs_kernel_count(const occ_regs_result *result);
/* Kernel `index` (0 .. count-1), NULL when out of range. */
const occ_regs_kernel *occ_regs_kernel_at(const occ_regs_result *result, size_t index);

/* What the run did, beside the kernels. */
typedef struct occ_regs_totals {
    const char *input;               /* as given */
    const char *input_kind;          /* "ptx", "cu", "fatbin", "host ELF" */
    char arch[16];                   /* "sm_90a": what ptxas compiled for */
    char gpu[OCC_DEVICE_NAME_BYTES]; /* the occupancy's GPU */
    const char *ptxas;               /* its path */
    const char *ptxas_version;       /* "V13.0.88" */
    int min_cap;                     /* the lowest --maxrregcount ptxas honours on the
                                        arch; 0: unknown */
    int compiles;                    /* module compiles the run needed */
    int ptxas_runs;                  /* of them, run now (not from the cache) */
    int cache_hits;
    const char *cache_dir; /* NULL: no cache */
    const char *notes;     /* for the whole run, lines separated by '\n'; "" */
} occ_regs_totals;

void occ_regs_totals_get(const occ_regs_result *result, occ_regs_totals *out);

/* The v1 rule (docs/regs.md): among caps[0 .. count), the index to
   recommend: 0 (no cap) unless a cap adds resident blocks with no spill
   bytes and a stack no larger than caps[0]'s, then the one of those with
   the most blocks (the highest such cap on a tie). */
int occ_regs_recommend(const occ_regs_point *caps, int count);

/* The caps worth timing (docs/regs.md, "Candidates"): no cap, and for each
   blocks-per-SM count a compile reaches without spills the highest cap
   giving it, leaving out a compile whose registers an earlier one has; only
   compiles that run (occ_regs_point_runs). Indexes into caps[0 .. count),
   no cap first, then highest first, into out (at most max); returns how
   many. */
int occ_regs_candidates(const occ_regs_point *caps, int count, int *out, int max);

/* The occ.regs JSON document (docs/regs.md). Declared where <stdio.h> was
   included first. */
#ifdef EOF
occ_status occ_regs_json_write(const occ_regs_result *result, FILE *out, occ_inspect_error *err);
#endif

/* The same document in memory: *text (NUL-terminated, *size bytes) is freed
   with occ_inspect_text_free. */
occ_status occ_regs_json_text(const occ_regs_result *result, char **text, size_t *size,
                              occ_inspect_error *err);

#ifdef __cplusplus
}
#endif

#endif /* OCC_REGS_H */
