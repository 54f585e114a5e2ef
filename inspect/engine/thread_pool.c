/*
 * thread_pool.c - the threads of a read (thread_pool.h): each takes the
 * next task of the round in the order compare_work sets, and a large entry
 * met while the pool of buffers is full is set aside for the end of the
 * round, so that no thread idles while small entries are left.
 */
#include <stdlib.h>

#include "entry_read.h"
#include "page_sweep.h"
#include "row_sink.h"
#include "thread_pool.h"

/* A task that reads this much runs before all others, the largest first:
   started in file order, NCCL 2.28's six cubins of 50 to 134 MB (zstd
   decodes each on one thread, 0.1 s for the largest) would finish alone
   after the rest. Only these: running every large entry first held more
   of the file mapped and made the threads wait for large buffers together
   (libtorch_cuda.so 0.72 -> 0.95 s, 196 -> 276 MiB on the H200 machine,
   docs/results/inspect-h200-all/sweep.md). */
#define FIRST_TASK_WORK_BYTES (16u << 20)

static void add_candidate(void *context, size_t offset, size_t size, insp_region_kind kind)
{
    (void)kind;
    task *t = context;
    if (t->found_count == t->found_cap) {
        size_t cap = t->found_cap > 0 ? t->found_cap * 2 : 16;
        candidate *bigger = realloc(t->found, cap * sizeof *bigger);
        if (bigger == NULL) {
            t->found_cap = SIZE_MAX; /* marks the failure for run_task */
            return;
        }
        t->found = bigger;
        t->found_cap = cap;
    }
    t->found[t->found_count++] = (candidate){t->base + offset, size};
}

/* Sets a large entry aside while the pool is full, for after the small ones. */
static void defer_task(collector *c, size_t index)
{
    pthread_mutex_lock(&c->budget_lock);
    c->deferred[c->deferred_count++] = index;
    pthread_mutex_unlock(&c->budget_lock);
}

/* Runs one task; a large entry met while the pool is full is set aside
   (unless `wait`) for the end of the round, so that no thread idles while
   small entries are left. */
static void run_task(worker *w, task *t, bool wait)
{
    collector *c = w->c;
    const input_file *file = &c->files[t->file];
    const uint8_t *data = file->data + t->offset;
    insp_sink sink = {collect_on_function, collect_on_entry, w};
    insp_error err = {0, "", false, false};
    bool ok = true;
    w->section = t->section;
    w->file = t->file;
    w->task_offset = t->offset;
    w->exact_offsets = t->kind == TASK_WHOLE;
    collect_start_task(c, t);
    switch (t->kind) {
    case TASK_SCAN:
        /* offsets from the member's start: its alignment is the one that counts */
        insp_fatbin_candidates(file->data + t->base, t->section_offset - t->base, t->section_size,
                               t->offset - t->base, t->offset + t->size - t->base, add_candidate,
                               t);
        if (t->found_cap == SIZE_MAX) {
            w->failed = true;
        }
        break;
    case TASK_ENTRY: {
        bool deferred;
        ok = collect_read_entry(w, data, t->size, wait, &deferred, &err);
        if (deferred) {
            defer_task(c, (size_t)(t - c->tasks));
            return;
        }
        break;
    }
    default:
        if (file->format == INSP_FORMAT_PTXAS_LOG) {
            ok = insp_ptxas_log_parse((const char *)data, t->size, &sink, &err);
        } else if (file->format == INSP_FORMAT_BASELINE) {
            ok = insp_baseline_parse(data, t->size, &sink, &err);
        } else {
            ok = insp_cubin_parse(data, t->size, 0, &sink, &err);
        }
        break;
    }
    if (!ok) {
        collect_set_error(c, err.over_limit ? OCC_ERR_LIMIT : OCC_ERR_BAD_FORMAT, t->file,
                          t->offset + err.offset, err.message);
    }
    if (w->scratch.capacity > SCRATCH_KEEP_BYTES) {
        free(w->scratch.data);
        w->scratch.data = NULL;
        w->scratch.capacity = 0;
    }
    collect_finish_task(c, t);
}

static void *worker_main(void *context)
{
    worker *w = context;
    collector *c = w->c;
    for (;;) {
        size_t k = atomic_fetch_add(&c->next_task, 1);
        if (k >= c->task_count - c->round_start || atomic_load(&c->failed) || w->failed) {
            break;
        }
        run_task(w, &c->tasks[c->run_order[k]], false);
    }
    /* then the large entries set aside, waiting for the pool as needed */
    for (;;) {
        pthread_mutex_lock(&c->budget_lock);
        bool any = c->deferred_count > 0;
        size_t i = any ? c->deferred[--c->deferred_count] : 0;
        pthread_mutex_unlock(&c->budget_lock);
        if (!any || atomic_load(&c->failed) || w->failed) {
            break;
        }
        run_task(w, &c->tasks[i], true);
    }
    return NULL;
}

typedef struct ranked_task {
    size_t work;
    size_t index;
} ranked_task;

/* The tasks of FIRST_TASK_WORK_BYTES or more first, the largest first; then
   the rest in file order (which the sweep of their pages follows). */
static int compare_work(const void *a, const void *b)
{
    const ranked_task *x = a;
    const ranked_task *y = b;
    bool x_first = x->work >= FIRST_TASK_WORK_BYTES;
    bool y_first = y->work >= FIRST_TASK_WORK_BYTES;
    if (x_first != y_first) {
        return x_first ? -1 : 1;
    }
    if (x_first && x->work != y->work) {
        return x->work > y->work ? -1 : 1;
    }
    return (x->index > y->index) - (x->index < y->index);
}

occ_status collect_run_round(collector *c, worker *workers, int jobs, occ_inspect_error *err)
{
    size_t count = c->task_count - c->round_start;
    free(c->run_order);
    c->run_order = malloc((count > 0 ? count : 1) * sizeof *c->run_order);
    if (c->run_order == NULL) {
        return inspect_fail(err, OCC_ERR_OUT_OF_MEMORY, -1, -1, "out of memory");
    }
    ranked_task *ranked = malloc((count > 0 ? count : 1) * sizeof *ranked);
    if (ranked == NULL) {
        return inspect_fail(err, OCC_ERR_OUT_OF_MEMORY, -1, -1, "out of memory");
    }
    for (size_t i = 0; i < count; i++) {
        ranked[i] = (ranked_task){c->tasks[c->round_start + i].work, c->round_start + i};
    }
    qsort(ranked, count, sizeof *ranked, compare_work);
    for (size_t i = 0; i < count; i++) {
        c->run_order[i] = ranked[i].index;
    }
    free(ranked);
    if ((size_t)jobs > count) {
        jobs = count > 0 ? (int)count : 1;
    }
    atomic_store(&c->next_task, 0);
    free(c->deferred);
    c->deferred = malloc((count > 0 ? count : 1) * sizeof *c->deferred);
    c->deferred_count = 0;
    if (c->deferred == NULL) {
        return inspect_fail(err, OCC_ERR_OUT_OF_MEMORY, -1, -1, "out of memory");
    }
    int started = 0;
    /* worker 0 runs on this thread; the others on their own */
    for (int i = 1; i < jobs; i++) {
        if (pthread_create(&workers[i].thread, NULL, worker_main, &workers[i]) != 0) {
            break;
        }
        started = i;
    }
    worker_main(&workers[0]);
    for (int i = 1; i <= started; i++) {
        pthread_join(workers[i].thread, NULL);
    }
    collect_drop_started_tasks(c, true);
    bool oom = false;
    for (int i = 0; i < jobs; i++) {
        oom = oom || workers[i].failed;
    }
    if (atomic_load(&c->failed)) {
        return collect_failure(c, err);
    }
    if (oom) {
        return inspect_fail(err, OCC_ERR_OUT_OF_MEMORY, -1, -1, "out of memory");
    }
    return OCC_OK;
}
