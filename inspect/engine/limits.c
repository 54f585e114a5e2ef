/*
 * limits.c - a function whose numbers no architecture allows comes from a
 * damaged file (or a hand-edited log), and occ says so rather than show the
 * numbers as facts. The limits (CUDA C++ Programming Guide, "Technical
 * Specifications per Compute Capability", CUDA 13.0) hold on every
 * architecture occ knows; where the database knows the function's arch, its
 * own per-thread register limit is used.
 */
#include <stdio.h>

#include "engine.h"

#define MAX_REGS_PER_THREAD 255 /* every compute capability [PG] */
#define MAX_NAMED_BARRIERS 16   /* per block, every compute capability [PG] */
#define MAX_STATIC_SMEM_BYTES                                                                      \
    (48 << 10)                      /* static __shared__ per block: larger needs                   \
                                       dynamic memory [PG]; ptxas refuses more */
#define MAX_LOCAL_BYTES (512 << 10) /* local memory per thread [PG] */
#define MAX_THREADS_PER_BLOCK 1024  /* every compute capability [PG] */

/* x*y*z, each dimension capped at 2^20 first: a damaged file may give three
   of up to 2^24 (read_dims' cap), whose product does not fit a long long.
   Any capped dimension is far above the limit anyway. */
static long long threads_of(const int dims[3])
{
    long long p = 1;
    for (int d = 0; d < 3; d++) {
        long long v = dims[d] > 0 ? dims[d] : 1;
        p *= v < (1 << 20) ? v : (1 << 20);
    }
    return p;
}

bool inspect_function_plausible(const insp_function *f, char *msg, size_t cap)
{
    char arch[16];
    occ_inspect_arch_name(f->sm, f->arch_suffix, arch, sizeof arch);
    int max_regs = MAX_REGS_PER_THREAD;
    occ_device d;
    if (occ_arch_find(f->sm / 10, f->sm % 10, &d, NULL) == OCC_OK) {
        max_regs = d.max_regs_per_thread;
    }
    const char *what = NULL;
    long long value = 0;
    long long limit = 0;
    const int *dims = NULL; /* threads: shown as given, x*y*z may be capped */
    if (f->regs < 0 || f->regs > max_regs) {
        what = "registers per thread";
        value = f->regs;
        limit = max_regs;
    } else if (f->barriers != INSP_UNKNOWN &&
               (f->barriers < 0 || f->barriers > MAX_NAMED_BARRIERS)) {
        what = "barriers";
        value = f->barriers;
        limit = MAX_NAMED_BARRIERS;
    } else if (f->smem_bytes < 0 || f->smem_bytes > MAX_STATIC_SMEM_BYTES) {
        what = "bytes of static shared memory per block";
        value = f->smem_bytes;
        limit = MAX_STATIC_SMEM_BYTES;
    } else if (!f->relocatable && (f->stack_bytes < 0 || f->stack_bytes > MAX_LOCAL_BYTES)) {
        /* -rdc code holds unlinked estimates; only linked code is held to it */
        what = "bytes of local memory (stack) per thread";
        value = f->stack_bytes;
        limit = MAX_LOCAL_BYTES;
    } else if (threads_of(f->max_threads) > MAX_THREADS_PER_BLOCK) {
        what = "threads per block in __launch_bounds__";
        value = threads_of(f->max_threads);
        dims = f->max_threads;
        limit = MAX_THREADS_PER_BLOCK;
    } else if (threads_of(f->req_threads) > MAX_THREADS_PER_BLOCK) {
        what = "threads per block in .reqntid";
        value = threads_of(f->req_threads);
        dims = f->req_threads;
        limit = MAX_THREADS_PER_BLOCK;
    }
    if (what == NULL) {
        return true;
    }
    char shown[64];
    if (dims != NULL) {
        snprintf(shown, sizeof shown, "%dx%dx%d", dims[0], dims[1] > 0 ? dims[1] : 1,
                 dims[2] > 0 ? dims[2] : 1);
    } else {
        snprintf(shown, sizeof shown, "%lld", value);
    }
    char name[512];
    insp_message_text(f->name, f->name_len, 120, name, sizeof name);
    snprintf(msg, cap, "%s function %s: %s %s is %s (the limit is %lld): the file is damaged", arch,
             name, shown, what, value < 0 ? "negative" : "beyond what the architecture allows",
             limit);
    return false;
}
