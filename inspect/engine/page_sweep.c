/*
 * page_sweep.c - forgets the pages of mapped inputs once read
 * (page_sweep.h): behind the running tasks, and behind the walks that split
 * an input into tasks.
 */
/* madvise(MADV_DONTNEED) is a Linux/BSD call, not POSIX (whose
   posix_madvise(POSIX_MADV_DONTNEED) glibc ignores). */
#define _DEFAULT_SOURCE 1

#include <stdint.h>
#include <sys/mman.h>

#include "page_sweep.h"

/* A drop also covers this much before its span: a fault maps the pages
   around it (64 KiB, or a 2 MiB huge page of the page cache), and so maps
   again some that an earlier drop forgot. */
#define DROP_LOOKBACK_BYTES (2u << 20)
/* A task that reads this much (decompressed) forgets its own pages; the
   smaller ones are swept (collect_drop_started_tasks). */
#define LARGE_TASK_WORK_BYTES (1u << 20)

void collect_drop_pages(const collector *c, const input_file *file, size_t offset, size_t size)
{
    if (!file->mapped) {
        return;
    }
    size_t page = (size_t)c->page_bytes;
    size_t start = (offset + page - 1) / page * page;
    size_t end = (offset + size) / page * page;
    if (end > start) {
        /* the mapping is read-only and private: forgetting pages changes nothing */
        madvise((void *)(uintptr_t)(file->data + start), end - start, MADV_DONTNEED);
    }
}

/* Forgets the pending span of swept file bytes, and the DROP_LOOKBACK_BYTES
   before it. Called with drop_lock held. */
static void drop_swept(collector *c)
{
    if (c->sweep_to > c->sweep_from) {
        size_t from = c->sweep_from > DROP_LOOKBACK_BYTES ? c->sweep_from - DROP_LOOKBACK_BYTES : 0;
        collect_drop_pages(c, &c->files[c->sweep_file], from, c->sweep_to - from);
    }
    c->sweep_from = c->sweep_to;
}

static bool is_large(const task *t)
{
    return t->work >= LARGE_TASK_WORK_BYTES;
}

/*
 * Forgets the pages of started tasks, in file order, DROP_STEP_BYTES
 * at a time. One madvise per task cost a TLB shootdown on every core per
 * task (most of libcufft.so.12's time, its 24,000 small containers), and
 * left each task's partial first and last pages mapped, which over the
 * ~60,000 entries of libcublasLt_static.a added up to hundreds of MB. Swept
 * in file order, the spans between tasks (entry headers) go too. A task not
 * yet started stops the sweep; one that started does not (what the sweep
 * drops under it is mapped again as it reads: waiting for each task to
 * finish let one thread off its core hold the whole sweep up), and a large
 * one forgets its own pages when done. The tasks run in file order but for
 * a few very large ones (compare_work), so the sweep keeps up.
 */
void collect_drop_started_tasks(collector *c, bool all)
{
    if (all) {
        pthread_mutex_lock(&c->drop_lock);
    } else if (pthread_mutex_trylock(&c->drop_lock) != 0) {
        return; /* another thread sweeps */
    }
    for (; c->sweep_next < c->task_count && atomic_load(&c->tasks[c->sweep_next].started);
         c->sweep_next++) {
        const task *t = &c->tasks[c->sweep_next];
        size_t end = t->offset + t->size;
        /* The span is the hull of the tasks swept since the last drop: the
           tasks of an archive member are not in file order (its data
           sections' scans, then its .nv_fatbin's entries), and a span
           restarted at each step back would never cover a whole page. */
        if (t->file != c->sweep_file || end + DROP_STEP_BYTES < c->sweep_from ||
            t->offset > c->sweep_to + DROP_STEP_BYTES) {
            /* another file, or far from the span: not this span's */
            drop_swept(c);
            c->sweep_file = t->file;
            c->sweep_from = t->offset;
            c->sweep_to = end;
        }
        if (t->offset < c->sweep_from) {
            c->sweep_from = t->offset;
        }
        if (end > c->sweep_to) {
            c->sweep_to = end;
        }
        if (c->sweep_to - c->sweep_from >= DROP_STEP_BYTES) {
            drop_swept(c);
        }
    }
    if (all) {
        drop_swept(c);
    }
    pthread_mutex_unlock(&c->drop_lock);
}

/* A task starts: the sweep may pass it from now on. */
void collect_start_task(collector *c, task *t)
{
    if (!atomic_load(&t->started)) {
        atomic_store(&t->started, true);
        collect_drop_started_tasks(c, false);
    }
}

/* A task is finished: a large one forgets its own pages (the sweep may have
   passed it long ago; one set aside is large, and forgets them when it is
   run at last). */
void collect_finish_task(collector *c, const task *t)
{
    if (is_large(t)) {
        collect_drop_pages(c, &c->files[t->file], t->offset, t->size);
    }
}

/* Forgets the walked pages before `offset` once DROP_STEP_BYTES have
   gathered, or at once when `now`. */
void collect_drop_walked(collector *c, size_t offset, bool now)
{
    if (c->walk_drops_swept) {
        return; /* an archive member's: split_members forgets them per chunk */
    }
    const input_file *file = &c->files[c->file];
    size_t to = offset < file->size ? offset : file->size;
    if (to > c->drop_from && (now || to - c->drop_from >= DROP_STEP_BYTES)) {
        collect_drop_pages(c, file, c->drop_from, to - c->drop_from);
        c->drop_from = to;
    }
}
