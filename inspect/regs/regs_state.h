/*
 * regs_state.h - one occ_regs_run while it runs, shared by its files:
 * regs_run.c (the steps in order, the plans, the result), regs_input.c (the
 * input to PTX, and the arch) and regs_sweep.c (the caps and variants
 * compiled and read into each kernel's points). Internal.
 */
#ifndef OCC_REGS_STATE_H
#define OCC_REGS_STATE_H

#include "regs_internal.h"
#include "setmaxnreg.h"

/* What the result owns of each kernel (its occ_regs_kernel points here). */
typedef struct regs_kernel_owned {
    char *name, *mangled, *why, *notes;
    insp_setmaxnreg *smr; /* the setmaxnreg findings; NULL: none */
    occ_regs_setmaxnreg smr_view;
    occ_regs_setmaxnreg_region *smr_regions;
    occ_regs_setmaxnreg_message *smr_messages;
    char *smr_errors;
    int *candidates;
} regs_kernel_owned;

struct occ_regs_result {
    occ_regs_kernel *kernels;
    regs_kernel_owned *owned; /* one per kernel */
    size_t count;
    occ_regs_totals totals;
    char *input;
    char *ptxas;
    char ptxas_release[32];
    char *cache_dir;
    char *notes;
};

/* A growing text of note lines. */
typedef struct regs_notes {
    char *text;
    size_t size;
} regs_notes;

/* Adds a line (out of memory: the line is lost, the run goes on). */
void regs_note(regs_notes *n, const char *format, ...) __attribute__((format(printf, 2, 3)));

/* The text, "" for none (malloc'd; NULL out of memory); n is empty after. */
char *regs_notes_take(regs_notes *n);

typedef struct regs_run_state {
    const occ_regs_options *o;
    const char *path;
    char tmp_dir[512]; /* the run's own temporary directory */
    regs_notes run_notes;
    char *ptx;
    size_t ptx_size;
    const char *kind; /* "ptx", "cu", "fatbin", "host ELF" */
    ptx_module module;
    int sm;
    char suffix;
    char arch[16];
    occ_device device;
    regs_toolkit tk;
    char *cache_dir;
    regs_compile_counts counts;
    int compiles;
    int min_cap;
    char *unconstrained_log; /* kept for the setmaxnreg checks */
    size_t unconstrained_log_size;
    char *unconstrained_cubin; /* the same compile's cubin */
    size_t unconstrained_cubin_size;
} regs_run_state;

/* One selected kernel while it is planned. */
typedef struct regs_plan {
    size_t entry; /* in the module */
    char *mangled;
    regs_launch launch;
    int caps[OCC_REGS_MAX_CAPS];
    int cap_count;
    int max_blocks;
    regs_notes kernel_notes;
} regs_plan;

/* The progress of a second round of compiles, counted after the first. */
typedef struct regs_progress_offset {
    const occ_regs_options *o;
    int before;
    int all;
} regs_progress_offset;

void regs_progress_shifted(void *context, int done, int total, bool cached);

/* TMP_DIR/NAME, malloc'd. */
char *regs_tmp_path(const regs_run_state *s, const char *name);

/* regs_input.c: the input as PTX text in s->ptx (nvcc for a .cu, the fatbin
   entry of a binary), then the arch and the GPU from the module. */
occ_status regs_load_ptx(regs_run_state *s, const void *data, size_t size, occ_inspect_error *err);
occ_status regs_choose_arch(regs_run_state *s, occ_inspect_error *err);

/* The block size of an entry and where it comes from ("threads",
   "reqntid", "maxntid", "default"). */
int regs_threads_for(const occ_regs_options *o, const ptx_entry *e, const char **source);

/* regs_sweep.c: one compile's log read by libocc-inspect; a kernel in it by
   its mangled name. */
occ_inspect_result *regs_read_log(const regs_compile *c, occ_inspect_error *err);
const occ_inspect_kernel *regs_find_kernel(const occ_inspect_result *r, const char *mangled);

/* Sorts highest first and drops repeats; returns the count left. */
int regs_unique_desc(int *v, int n);

/* Compiles every kernel's caps and variants at once and fills
   result->kernels from them and from the unconstrained compile (first). */
occ_status regs_sweep(regs_run_state *s, regs_plan *plans, size_t n, occ_regs_result *result,
                      const occ_inspect_result *first, occ_inspect_error *err);

/* regs_setmaxnreg.c: the kernel's setmaxnreg findings at the unconstrained
   compile (k->caps[0] filled), into owned and k->setmaxnreg (NULL where it
   has none; a PTX the check cannot read is a note); then one point's fit
   from its compile's log, where the kernel has setmaxnreg. */
occ_status regs_setmaxnreg_kernel(const regs_run_state *s, const char *mangled, occ_regs_kernel *k,
                                  regs_kernel_owned *owned, regs_notes *notes,
                                  occ_inspect_error *err);
void regs_setmaxnreg_point(const regs_run_state *s, const char *mangled, int threads,
                           const char *log, size_t log_size, occ_regs_point *p);
void regs_setmaxnreg_free(regs_kernel_owned *owned);

/* The latency model's figures for each point of k, where options ask. */
void regs_predict(const occ_regs_options *o, const occ_device *device, occ_regs_kernel *k,
                  regs_notes *run_notes, bool *noted);

#endif /* OCC_REGS_STATE_H */
