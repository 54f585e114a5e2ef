/*
 * entry_read.c - reads one fatbin entry for a worker (entry_read.h): in its
 * own buffer up to SCRATCH_KEEP_BYTES, above that in one lent by the pool.
 *
 * Entries larger than SCRATCH_KEEP_BYTES share this many bytes of buffers
 * between all threads: a thread waits rather than push the peak memory past
 * it. Such entries hold most of the work: 385 of libcublasLt.so.13's 5,832
 * zstd cubins (up to 16 MB each) and 596 of libtorch_cuda.so's 2,789 (up to
 * 64 MB) are above 2 MB. The budget sets how many are decompressed at once;
 * measured on the H200 machine (16 cores, docs/results/inspect-h200-all/
 * sweep.md, four builds side by side), 96/128/160 MB gave libcublasLt.so.13
 * 0.36/0.31/0.27 s at 169/203/230 MiB and libtorch_cuda.so 0.91/0.76/0.63 s
 * at 215/248/274 MiB: 128 MB is the largest that keeps libtorch_cuda.so
 * under 256 MB. A build may set another (-D). The pool and its budget are
 * the process's, shared by every read under way (budget.c).
 */
#include "budget.h"
#include "bytes.h"
#include "entry_read.h"
#include "row_sink.h"

/* Reads one fatbin entry with a pooled buffer of `need` bytes lent to the
   worker's scratch (its zstd context stays); *deferred where the pool is
   full and `wait` is not set. */
static bool read_entry_lent(worker *w, const uint8_t *data, size_t size, size_t need, bool wait,
                            bool *deferred, insp_error *err)
{
    collector *c = w->c;
    insp_sink sink = {collect_on_function, collect_on_entry, w};
    uint8_t *lent = NULL;
    size_t lent_capacity = 0;
    int index = insp_pool_acquire(need, wait, &w->pool_wait_seconds, &lent, &lent_capacity);
    if (index == INSP_POOL_BUSY) {
        *deferred = true;
        return true;
    }
    if (index == INSP_POOL_OVER_BUDGET) {
        return insp_fail_limit(err, 0,
                               "entry needs a %zu MiB buffer, but streams read at once hold %zu "
                               "MiB of the %zu MiB reading budget; give regular files, which "
                               "are read without copying",
                               (need + (1u << 20) - 1) >> 20, insp_budget_stream_bytes() >> 20,
                               (size_t)OCC_INSPECT_MEMORY_BUDGET_BYTES >> 20);
    }
    if (index < 0) {
        w->failed = true;
        return true;
    }
    uint8_t *own = w->scratch.data;
    size_t own_capacity = w->scratch.capacity;
    w->scratch.data = lent;
    w->scratch.capacity = lent_capacity;
    w->scratch.fixed = true; /* never reallocated: it is the pool's */
    bool ok = insp_fatbin_entry_parse(data, size, &c->filter, &w->scratch, &sink, err);
    w->scratch.fixed = false;
    w->scratch.data = own;
    w->scratch.capacity = own_capacity;
    insp_pool_release(index);
    return ok;
}

bool collect_read_entry(worker *w, const uint8_t *data, size_t size, bool wait, bool *deferred,
                        insp_error *err)
{
    collector *c = w->c;
    insp_sink sink = {collect_on_function, collect_on_entry, w};
    *deferred = false;
    size_t need = insp_fatbin_entry_scratch_bytes(data, size, &c->filter, &w->scratch);
    if (need <= SCRATCH_KEEP_BYTES) {
        return insp_fatbin_entry_parse(data, size, &c->filter, &w->scratch, &sink, err);
    }
    bool ok = read_entry_lent(w, data, size, need, wait, deferred, err);
    if (ok || !err->missing) {
        return ok;
    }
    /* the part read gave up and reported no function: read it whole,
       waiting for the buffer now (the entry itself is reported again, which
       collect_on_entry counts only for entries not read) */
    w->scratch.whole_only = true;
    need = insp_fatbin_entry_scratch_bytes(data, size, &c->filter, &w->scratch);
    ok = read_entry_lent(w, data, size, need, true, deferred, err);
    w->scratch.whole_only = false;
    return ok;
}
