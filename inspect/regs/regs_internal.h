/*
 * regs_internal.h - the parts of occ regs' engine (include/occ_regs.h), each
 * in its own file: the PTX module reader and its rewriting (ptx_module.c),
 * PTX out of binaries (ptx_extract.c), the toolkit's programs
 * (toolkit.c), the content cache (cache.c, sha256.c), the parallel
 * compiles (compile.c), the caps to compile (plan.c), the rule
 * (recommend.c), the run (regs_run.c) and the document (regs_json.c).
 * Internal to libocc-inspect and its tests.
 */
#ifndef OCC_REGS_INTERNAL_H
#define OCC_REGS_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "occ_regs.h"

/* occ_regs.h declares it only where <stdio.h> came first, which the shared
   build's -include of public_api_visibility.h does not do: exported here by
   hand, as inspect/diff/diff_internal.h does for occ diff's. */
__attribute__((visibility("default"))) occ_status
occ_regs_json_write(const occ_regs_result *result, FILE *out, occ_inspect_error *err);

/* Fills *err (when not NULL) with the status and one line; returns the status. */
occ_status regs_fail(occ_inspect_error *err, occ_status status, const char *format, ...)
    __attribute__((format(printf, 3, 4)));

/* ---- PTX (ptx_module.c) -------------------------------------------------- */

/* One .entry of a PTX module and the performance-tuning directives between
   its parameter list and its body (PTX ISA, "Performance-Tuning
   Directives"). Offsets are into the module's text. */
typedef struct ptx_entry {
    size_t name_at, name_len;
    size_t body_at;     /* the '{' that opens its body */
    int maxntid[3];     /* 0s: none */
    int reqntid[3];     /* 0s: none */
    int minnctapersm;   /* 0: none */
    int maxnreg;        /* 0: none */
    size_t minncta_at;  /* the ".minnctapersm N" directive, to replace */
    size_t minncta_len; /* 0: none */
} ptx_entry;

typedef struct ptx_module {
    int version_major, version_minor; /* .version */
    int target_sm;                    /* .target sm_90a: 90 */
    char target_suffix;               /* 'a', 'f' or 0 */
    ptx_entry *entries;               /* entries with a body, in order */
    size_t entry_count;
} ptx_module;

/* Whether text looks like PTX: after white space and comments, .version. */
bool regs_ptx_probe(const char *text, size_t size);

/* Reads the module's .version, .target and entries. A text that is not PTX
   (no .version first), an entry whose name, parameter list or directives
   run off the end, or a directive value out of range is OCC_ERR_BAD_FORMAT
   naming the line. */
occ_status regs_ptx_parse(const char *text, size_t size, ptx_module *out, occ_inspect_error *err);

void regs_ptx_module_free(ptx_module *m);

/* The product of a directive's dims (0s count as 1; all 0: 0). */
int regs_ptx_dims_product(const int dims[3]);

/*
 * The module with __launch_bounds__(threads[i], min_blocks) on each entry i
 * where selected[i]: the count of the entry's own .minnctapersm becomes
 * min_blocks (or ".minnctapersm min_blocks" is added before its body), and
 * ".maxntid threads[i], 1, 1" is added where the entry has neither .maxntid
 * nor .reqntid (ptxas ignores .minnctapersm without one).
 * Returns malloc'd text (*out_size bytes, NUL-terminated) or NULL when out of
 * memory.
 */
char *regs_ptx_with_min_blocks(const char *text, size_t size, const ptx_module *m,
                               const bool *selected, const int *threads, int min_blocks,
                               size_t *out_size);

/* A module of one empty entry, for asking ptxas about the arch alone (its
   lowest --maxrregcount): malloc'd, NUL-terminated. */
char *regs_ptx_probe_module(const ptx_module *like, int sm, char suffix, size_t *out_size);

/* ---- PTX out of binaries (ptx_extract.c) ---------------------------------- */

/* The PTX of a fatbin or a host ELF file (executable, shared library,
   object): the entry of the highest arch at or below want_sm (with
   want_suffix, a suffixed entry of that arch first), or the highest of all
   when want_sm is 0. *ptx is malloc'd and NUL-terminated; *kind_name says
   what the input was ("fatbin", "host ELF"). OCC_ERR_NOT_FOUND lists the PTX
   archs there are (or says there is none); OCC_ERR_BAD_FORMAT for a damaged
   container or another format. */
occ_status regs_ptx_extract(const uint8_t *data, size_t size, int want_sm, char want_suffix,
                            char **ptx, size_t *ptx_size, int *found_sm, char *found_suffix,
                            const char **kind_name, occ_inspect_error *err);

/* ---- the toolkit (toolkit.c) --------------------------------------------- */

/* Where a program of the toolkit is: `given` (checked), else
   $CUDA_HOME/bin/NAME, else the first NAME on `path_list` (PATH's form),
   else fallback_dir/NAME. NULL arguments skip that place. *out is malloc'd.
   OCC_ERR_IO says where it looked and how to point to it. */
occ_status regs_find_tool(const char *name, const char *given, const char *cuda_home,
                          const char *path_list, const char *fallback_dir, char **out,
                          occ_inspect_error *err);

/* Runs argv (argv[0] a path) with stdin from /dev/null and stdout and
   stderr into output_path; *exit_status is its exit status (128 + N for a
   signal). OCC_ERR_IO when it cannot be started. */
occ_status regs_run_program(const char *const argv[], const char *output_path, int *exit_status,
                            occ_inspect_error *err);

/* Reads a whole file (at most max_bytes) into malloc'd, NUL-terminated text. */
occ_status regs_read_file(const char *path, size_t max_bytes, char **text, size_t *size,
                          occ_inspect_error *err);

/* Writes bytes to a new file at path (mode 0644). */
occ_status regs_write_file(const char *path, const void *data, size_t size, occ_inspect_error *err);

/* The first line of `log` that says "error" or "fatal" (else its first
   line), without its newline, into buf. */
const char *regs_first_error_line(const char *log, size_t size, char *buf, size_t cap);

/* ---- hashing and the cache (sha256.c, cache.c) ---------------------------- */

typedef struct regs_sha256 {
    uint32_t state[8];
    uint64_t bytes;
    uint8_t block[64];
    size_t used;
} regs_sha256;

void regs_sha256_init(regs_sha256 *h);
void regs_sha256_update(regs_sha256 *h, const void *data, size_t size);
/* The digest as 64 lowercase hex digits and a NUL. */
void regs_sha256_hex(regs_sha256 *h, char hex[65]);

/* The cache directory: `given` ("" none), else $OCC_CACHE_DIR, else
   $XDG_CACHE_HOME/occ/regs, else $HOME/.cache/occ/regs, created (with its
   parents) as needed. NULL when there is none or it cannot be created; then
   *why says so. */
char *regs_cache_dir(const char *given, char *why, size_t why_cap);

/* An entry: a compile's exit status, its log and, where it was kept, its
   cubin. The log and the cubin are malloc'd (the log NUL-terminated). */
typedef struct regs_cache_entry {
    char *log;
    size_t log_size;
    int exit_status;
    char *cubin; /* NULL: not kept */
    size_t cubin_size;
} regs_cache_entry;

/* Reads an entry's text (size bytes, with a NUL after them, as
   regs_read_file gives it) in place: on success out->log is `text` itself,
   moved down over the header (the caller's to free), and out->cubin a copy.
   False for an entry whose header, key or lengths do not hold, or that has
   no cubin where want_cubin asks for one. */
bool regs_cache_entry_parse(char *text, size_t size, const char key[65], bool want_cubin,
                            regs_cache_entry *out);

/* A missing, unreadable or damaged entry, or one without the cubin
   want_cubin asks for, is a miss. */
bool regs_cache_get(const char *dir, const char key[65], bool want_cubin, regs_cache_entry *out);

/* Stores an entry through a temporary file renamed into place, so that a
   reader never sees half of one; false when it cannot (the run goes on). */
bool regs_cache_put(const char *dir, const char key[65], const regs_cache_entry *e);

/* ---- compiles (compile.c) ------------------------------------------------- */

/* One ptxas run over a whole module. */
typedef struct regs_compile {
    const char *ptx_path; /* the module's file */
    const char *ptx;      /* its bytes, for the cache key */
    size_t ptx_size;
    int cap;                       /* --maxrregcount; 0: none */
    int min_blocks;                /* the variant it compiles (for messages); 0: none */
    bool want_cubin;               /* keep the cubin (the unconstrained compile) */
    char *owned_text, *owned_path; /* a variant's module and its file: freed
                                      with the compile */
    /* out */
    char *log;
    size_t log_size;
    int exit_status;
    char *cubin; /* with want_cubin and exit status 0 */
    size_t cubin_size;
    bool cached;
} regs_compile;

typedef struct regs_toolkit {
    char *ptxas;         /* path */
    char *ptxas_version; /* the whole --version text (the cache key's part) */
    char release[32];    /* "V13.0.88" */
} regs_toolkit;

/* Finds ptxas (options->ptxas or the search) and asks its version. */
occ_status regs_toolkit_open(regs_toolkit *tk, const char *given, occ_inspect_error *err);
void regs_toolkit_close(regs_toolkit *tk);

typedef struct regs_compile_counts {
    int ptxas_runs;
    int cache_hits;
} regs_compile_counts;

/* Runs every compile, `jobs` at once, each from the cache where it holds
   it; ptxas writes into tmp_dir. A compile ptxas refuses is not a failure
   here (its exit status and log say so); a ptxas that cannot be run is
   OCC_ERR_IO. */
occ_status regs_compile_all(const regs_toolkit *tk, const char *arch, regs_compile *compiles,
                            int count, int jobs, const char *cache_dir, const char *tmp_dir,
                            occ_regs_progress_fn progress, void *progress_context,
                            regs_compile_counts *counts, occ_inspect_error *err);

/* The cache key of one compile. */
void regs_compile_key(const regs_toolkit *tk, const char *arch, const regs_compile *c,
                      char key[65]);

/* ptxas's lowest --maxrregcount from a log of a compile at cap 1
   ("adjusting per thread register count of 1 to lower bound of 24"); 0
   when the log does not say. */
int regs_min_cap_from_log(const char *log, size_t size);

/* ---- the caps (plan.c) ---------------------------------------------------- */

/* What occupancy needs of one compile of a kernel. */
typedef struct regs_launch {
    const occ_device *device;
    int threads;
    int dyn_smem_bytes;
    int smem_bytes;  /* static */
    int barriers;    /* OCC_INSPECT_UNKNOWN: the driver's default */
    int max_threads; /* the bound the launch must keep to; 0: none */
} regs_launch;

/* Blocks and warps per SM and occupancy at `regs` registers per thread;
   false when libocc refuses the launch. */
bool regs_occupancy(const regs_launch *l, int regs, occ_result *out);

/*
 * The staircase's caps for one kernel: for each block count k above what
 * `regs` registers give, the largest register count at which k blocks fit
 * (occ_calc), highest first, into caps (at most cap_max). Counts that no
 * register count reaches (another limit binds) end the list.
 */
int regs_staircase_caps(const regs_launch *l, int regs, int *caps, int cap_max);

/*
 * The staircase's step tops above `regs` registers: for each block count k
 * from what `regs` gives down to 1, the largest register count (up to the
 * ISA's, the device's max_regs_per_thread) at which k blocks fit, where it
 * is above regs; highest first, into caps (at most cap_max).
 */
int regs_step_tops_above(const regs_launch *l, int regs, int *caps, int cap_max);

/* The most blocks per SM the launch allows with any registers: the
   __launch_bounds__ variants to compile, 1 .. this. */
int regs_max_blocks(const regs_launch *l);

/* ---- the rule (recommend.c) ----------------------------------------------- */

/* The cliff: the highest cap at which the kernel spills (caps highest
   first after [0]); 0 when none does. */
int regs_cliff_cap(const occ_regs_point *caps, int count);

/* The recommendation at caps[index] and why, in words, into buf;
   max_blocks is the most blocks the launch allows with any registers, and
   threads its block. */
const char *regs_why(const occ_regs_point *caps, int count, int index, int max_blocks, int threads,
                     char *buf, size_t cap);

#endif /* OCC_REGS_INTERNAL_H */
