/*
 * engine.h - what the files of libocc-inspect's engine share: the names
 * table, one row per distinct function, and the result behind the opaque
 * occ_inspect_result. Internal: the API is include/occ_inspect.h.
 *
 *   engine_base.c  the leaf helpers every file may call and that call
 *                nothing of the engine: inspect_fail, the clock, the
 *                default thread count (engine_base.h)
 *   collect.c    occ_inspect_read: maps the inputs, splits them into
 *                tasks, reads them on several threads with the readers of
 *                inspect/formats/, merges the rows; its parts:
 *     collector.c      the state of one read: tasks, the first failure
 *     input_file.c     an input mapped, or read where it cannot be
 *     task_split.c     an input split into tasks by its format
 *     archive_split.c  an archive's members split, in chunks on threads
 *     section_names.c  the host ELF sections' names, numbered once
 *     thread_pool.c    the rounds of tasks on the workers' threads
 *     entry_read.c     one fatbin entry, a large one in a pooled buffer
 *     row_sink.c       the readers' functions as rows
 *     row_identity.c   what makes two rows one function
 *     page_sweep.c     the pages of mapped inputs forgotten once read
 *     row_merge.c      the workers' rows gathered, duplicates merged
 *   budget.c     the reading budget the whole process shares: stream
 *                copies and the pool of large buffers (budget.h)
 *   names.c      one copy of each distinct name, demangled once
 *   occupancy.c  each kernel's occupancy through libocc
 *   limits.c     values beyond an architecture's limits are refused
 *   result.c     the result's accessors, sort and filter
 */
#ifndef OCC_INSPECT_ENGINE_H
#define OCC_INSPECT_ENGINE_H

#include <stdint.h>

#include "engine_base.h"
#include "formats.h"
#include "occ_inspect.h"

/* ---- names (names.c, demangle.c) ----------------------------------------- */

/* One distinct function name, kept once however many rows carry it. */
typedef struct inspect_name {
    const char *mangled; /* NUL-terminated */
    const char *printed; /* demangled, or `mangled` itself */
    char *demangled;     /* the demangler's copy, or NULL */
    uint64_t hash;       /* inspect_name_hash of mangled */
    uint32_t rank;       /* position of printed among all printed names */
    size_t length;       /* bytes of mangled */
} inspect_name;

typedef struct inspect_names inspect_names;

/* FNV-1a (64-bit) of a name. */
uint64_t inspect_name_hash(const char *name, size_t len);
inspect_names *inspect_names_create(void);
/* The one copy of `name` (len bytes, hash from inspect_name_hash), added if
   new; safe to call from several threads; NULL when out of memory. */
const inspect_name *inspect_names_add(inspect_names *t, const char *name, size_t len,
                                      uint64_t hash);
/* After the last add: demangles every name (if `demangle`) on `jobs`
   threads and ranks them by printed name. False when out of memory. */
bool inspect_names_finish(inspect_names *t, bool demangle, int jobs);
size_t inspect_names_count(const inspect_names *t);
void inspect_names_free(inspect_names *t);

/* The demangled form of a C++ name, malloc'd; NULL if `mangled` is not a
   mangled name (C names such as cuBLAS's stay as they are). */
char *inspect_demangle(const char *mangled);

/* ---- rows and the result ------------------------------------------------- */

/* One distinct function: the public kernel first (occ_inspect_kernel_at
   returns a pointer to it), then what merging and sorting need. */
typedef struct inspect_row {
    occ_inspect_kernel k;
    const inspect_name *interned; /* the names, and their rank */
    uint64_t identity;            /* hash of arch, mangled name and every number */
    int section_index;            /* occ_inspect_result.sections[] index, or -1 */
} inspect_row;

#define INSPECT_MAX_NO_DATA 64

struct occ_inspect_result {
    inspect_row *rows;
    size_t row_count;
    size_t functions_read;
    occ_inspect_no_data no_data[INSPECT_MAX_NO_DATA];
    int no_data_count;
    int entries_skipped;
    int input_count;
    char **input_names; /* copies of the inputs' names */
    occ_inspect_format *input_formats;
    char **sections; /* names of the host ELF sections read (".nv_fatbin") */
    int section_count;
    inspect_names *names; /* where the names live */
    occ_inspect_timing timing;
};

/* Where large zstd cubins are read in part (inspect/formats/fatbin.c): the
   INSP_PART_* defaults where 0. occ_inspect_read uses the defaults; tests
   read the small fixtures in part through inspect_read_tuned. */
typedef struct inspect_part_tuning {
    size_t min_bytes;
    size_t head_bytes;
    size_t tail_max_bytes;
} inspect_part_tuning;

occ_status inspect_read_tuned(const occ_inspect_input *inputs, int input_count,
                              const occ_inspect_options *options, const inspect_part_tuning *tuning,
                              occ_inspect_result **out, occ_inspect_error *err);

/* The note of a kernel whose cubin cannot run on options.device (one
   string, so that launches.c tells it by its address). */
extern const char inspect_note_wrong_arch[];

/* Fills the row's occupancy fields through libocc (occupancy.c), at the
   options' block size and dynamic shared memory. */
void inspect_compute_occupancy(occ_inspect_kernel *k, const occ_inspect_options *opts);

/* The same at a launch: `threads` (0: the API's pick), dynamic shared
   memory, cluster dims (NULL or 0s: the compiled ones) and the carveout
   preference (OCC_CARVEOUT_DEFAULT: none). Sets the row's
   launch_* fields but launch_source and launch_index, which are the
   caller's. */
void inspect_compute_occupancy_at(occ_inspect_kernel *k, const occ_inspect_options *opts,
                                  int threads, int dyn_smem_bytes, const int cluster[3],
                                  int carveout_percent);

/* False, with the value and the limit in msg, when a function's numbers are
   beyond what its architecture allows: a damaged file (limits.c). */
bool inspect_function_plausible(const insp_function *f, char *msg, size_t cap);

#endif /* OCC_INSPECT_ENGINE_H */
