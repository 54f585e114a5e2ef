/*
 * collect.c - occ_inspect_read: maps each input, splits it into
 * tasks (one per fatbin entry, so that one large container does not keep a
 * thread busy while the others wait, and parts of the data sections to scan
 * for containers kept outside .nv_fatbin), runs the tasks on --jobs threads,
 * computes each kernel's occupancy through libocc, and merges identical
 * functions found in several places.
 *
 * Memory stays small on large libraries: the input is memory-mapped and the
 * pages of each entry or scanned part are dropped once read (MADV_DONTNEED on
 * a read-only private file mapping only forgets them; a later read maps them
 * again from the page cache), each thread reuses one decompression buffer and
 * decompressor, and only the compact rows are kept, each distinct name once
 * (inspect_names.c).
 */
/* madvise(MADV_DONTNEED) is a Linux/BSD call, not POSIX (whose
   posix_madvise(POSIX_MADV_DONTNEED) glibc ignores). */
#define _DEFAULT_SOURCE 1

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "budget.h"
#include "bytes.h"
#include "engine.h"

/* A buffer larger than this is released after each task, so that sixteen
   threads do not each keep the largest entry they ever saw. */
#define SCRATCH_KEEP_BYTES (2u << 20)
/* Data sections are scanned for containers in parts of this size, in
   parallel (libcublasLt.so.13 has ~260 MB of them); small, since each
   thread holds its part's pages until it is scanned. */
#define SCAN_PART_BYTES (1u << 20)
/* Pages are forgotten in steps of this size (the walk over entry headers,
   the sweep behind the tasks) rather than one system call per entry: each
   call sends a TLB shootdown to every core. 8 MiB rather than 16: a 418 MB
   archive of 20,000 members peaked at 131 MB rather than 134 to 146 MB at
   --jobs 16 (2-core build machine), at no cost in time. */
#define DROP_STEP_BYTES (8u << 20)
/* A drop also covers this much before its span: a fault maps the pages
   around it (64 KiB, or a 2 MiB huge page of the page cache), and so maps
   again some that an earlier drop forgot. */
#define DROP_LOOKBACK_BYTES (2u << 20)
/* Section names kept (rows of sections beyond are shown without one). */
#define MAX_SECTIONS 256
/* An archive chunk keeps more, so that it never drops a name the
   collector would keep (take_chunk_tasks numbers them as a serial split
   does): 64 members with their own .rodata.* names can pass 256. */
#define CHUNK_MAX_SECTIONS 8192
/* A task that reads this much (decompressed) forgets its own pages; the
   smaller ones are swept (drop_started_tasks). */
#define LARGE_TASK_WORK_BYTES (1u << 20)
/* A task that reads this much runs before all others, the largest first:
   started in file order, NCCL 2.28's six cubins of 50 to 134 MB (zstd
   decodes each on one thread, 0.1 s for the largest) would finish alone
   after the rest. Only these: running every large entry first held more
   of the file mapped and made the threads wait for large buffers together
   (libtorch_cuda.so 0.72 -> 0.95 s, 196 -> 276 MiB on the H200 machine,
   docs/results/inspect-h200-all/sweep.md). */
#define FIRST_TASK_WORK_BYTES (16u << 20)
/* A baseline's functions are read in parts of about this size, in parallel
   (a baseline of libtorch_cuda.so is tens of MB). */
#define BASELINE_PART_BYTES (256u << 10)
/* Entries larger than SCRATCH_KEEP_BYTES share this many bytes of buffers
   between all threads: a thread waits rather than push the peak memory past
   it. Such entries hold most of the work: 385 of libcublasLt.so.13's 5,832
   zstd cubins (up to 16 MB each) and 596 of libtorch_cuda.so's 2,789 (up to
   64 MB) are above 2 MB. The budget sets how many are decompressed at once;
   measured on the H200 machine (16 cores, docs/results/inspect-h200-all/
   sweep.md, four builds side by side), 96/128/160 MB gave libcublasLt.so.13
   0.36/0.31/0.27 s at 169/203/230 MiB and libtorch_cuda.so 0.91/0.76/0.63 s
   at 215/248/274 MiB: 128 MB is the largest that keeps libtorch_cuda.so
   under 256 MB. A build may set another (-D). The pool and its budget are
   the process's, shared by every read under way (budget.c). */

typedef struct input_file {
    const char *path;
    const uint8_t *data;
    size_t size;
    bool mapped;         /* data is an mmap of the file */
    bool owned;          /* data was read into memory here: free it */
    size_t budget_bytes; /* of the reading budget, held while owned (budget.h) */
    insp_format format;
} input_file;

typedef enum task_kind {
    TASK_WHOLE = 0, /* a ptxas log or a cubin file */
    TASK_ENTRY = 1, /* one fatbin entry */
    TASK_SCAN = 2   /* part of a data section, to scan for containers */
} task_kind;

typedef struct candidate {
    size_t offset;
    size_t size;
} candidate;

typedef struct task {
    task_kind kind;
    int file;
    int section;   /* collector.section_names index, or -1 */
    size_t offset; /* file bytes [offset, offset + size) */
    size_t size;
    size_t section_offset; /* TASK_SCAN: the whole section */
    size_t section_size;
    size_t base;         /* where the archive member (or file) the task is in starts:
                            containers are scanned for at 8-byte steps from there */
    size_t work;         /* bytes it reads (decompressed size of a compressed
                            entry): sets the order of the run (compare_work) */
    atomic_bool started; /* the sweep may pass it (drop_started_tasks) */
    candidate *found;    /* TASK_SCAN: containers found, in file order */
    size_t found_count, found_cap;
} task;

typedef struct worker {
    struct collector *c;
    pthread_t thread;
    inspect_row *rows;
    size_t row_count, row_cap;
    size_t functions_read;
    double pool_wait_seconds;
    occ_inspect_no_data nodata[INSPECT_MAX_NO_DATA];
    int nodata_count;
    int entries_skipped;
    insp_scratch scratch;
    int section;        /* of the task being read */
    int file;           /* of the task being read */
    size_t task_offset; /* where the task's buffer starts in its file */
    bool exact_offsets; /* functions' offsets are in the file (not in a
                           decompressed entry): add them to task_offset */
    bool failed;        /* out of memory */
} worker;

/* An archive member with code, so that an error found later, on a thread,
   can name it. */
#define MEMBER_NAME_BYTES 80
typedef struct member_span {
    int file;
    size_t offset, size;
    char name[MEMBER_NAME_BYTES];
} member_span;

typedef struct collector {
    const occ_inspect_options *opts;
    insp_filter filter; /* the options' arch, as the readers take it */
    input_file *files;
    task *tasks;
    size_t task_count, task_cap;
    size_t round_start; /* tasks [round_start, task_count) are this round's */
    size_t *run_order;  /* this round's task indices, in the order compare_work sets */
    atomic_size_t next_task;
    /* Forgetting the pages of finished tasks (drop_started_tasks): */
    pthread_mutex_t drop_lock;
    size_t sweep_next; /* tasks before this (in file order) are swept */
    int sweep_file;    /* the pending span of file bytes, not yet forgotten */
    size_t sweep_from, sweep_to;
    atomic_bool failed;
    pthread_mutex_t error_lock;
    occ_inspect_error error; /* the first failure */
    long page_bytes;
    inspect_names *names;        /* every function name, once */
    pthread_mutex_t budget_lock; /* guards deferred */
    size_t *deferred;            /* task indices set aside this round (budget_lock) */
    size_t deferred_count;
    char **section_names; /* section_count of section_cap, at most section_limit */
    int section_count, section_cap, section_limit;
    int *section_slots; /* hash table of section_names indices (-1: empty) */
    size_t slot_count;  /* a power of two, at least twice section_cap */
    /* set while one file is split into tasks */
    int file;
    int section;
    size_t member_base;   /* where the archive member being split starts (0: a file) */
    member_span *members; /* archive members with code, in file order */
    size_t member_count, member_cap;
    size_t drop_from;      /* pages before this are already forgotten */
    int jobs;              /* threads */
    bool walk_drops_swept; /* splitting an archive member: its walked pages
                              are forgotten by split_members, per chunk */
} collector;

double inspect_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

const char *occ_inspect_arch_name(int sm, char suffix, char *buf, size_t cap)
{
    if (suffix != 0) {
        snprintf(buf, cap, "sm_%d%c", sm, suffix);
    } else {
        snprintf(buf, cap, "sm_%d", sm);
    }
    return buf;
}

occ_status inspect_fail(occ_inspect_error *err, occ_status status, int input, long long offset,
                        const char *format, ...)
{
    if (err != NULL) {
        va_list args;
        va_start(args, format);
        err->status = status;
        err->input = input;
        err->offset = offset;
        vsnprintf(err->message, sizeof err->message, format, args);
        va_end(args);
    }
    return status;
}

/* Keeps the first failure of any thread; the others stop at their next task. */
static void set_error(collector *c, occ_status status, int file, size_t offset, const char *message)
{
    pthread_mutex_lock(&c->error_lock);
    if (!atomic_load(&c->failed)) {
        inspect_fail(&c->error, status, file, (long long)offset, "%s", message);
        atomic_store(&c->failed, true);
    }
    pthread_mutex_unlock(&c->error_lock);
}

static occ_status task_failure(const collector *c, occ_inspect_error *err);

/* How many numbers identity_numbers gives. */
#define IDENTITY_NUMBERS 27

/* The numbers that, with arch and mangled name, make two functions the same:
   every field of the row but the name, the count and the interned pointers,
   so that a merge never loses what one copy said (test_inspect_documents'
   documents-4). */
static size_t identity_numbers(const occ_inspect_kernel *f, int out[IDENTITY_NUMBERS])
{
    const int v[] = {f->sm,
                     f->arch_suffix,
                     f->regs,
                     f->smem_bytes,
                     f->smem_section_bytes,
                     f->stack_bytes,
                     f->frame_bytes,
                     f->spill_store_bytes,
                     f->spill_load_bytes,
                     f->spill_instructions,
                     f->barriers,
                     f->max_threads[0],
                     f->max_threads[1],
                     f->max_threads[2],
                     f->req_threads[0],
                     f->req_threads[1],
                     f->req_threads[2],
                     f->max_regs,
                     f->cluster_dims[0],
                     f->cluster_dims[1],
                     f->cluster_dims[2],
                     f->param_bytes,
                     f->is_kernel,
                     f->relocatable,
                     f->from_log,
                     f->explicit_cluster,
                     f->max_cluster_rank};
    _Static_assert(sizeof v / sizeof v[0] == IDENTITY_NUMBERS, "identity_numbers' count");
    memcpy(out, v, sizeof v);
    return sizeof v / sizeof v[0];
}

/* FNV-1a (64-bit) over the mangled name (continued from the name's own
   hash) and the numbers: duplicates are found by it, comparing names only
   where hashes are equal. */
static uint64_t identity_hash(const inspect_row *row)
{
    uint64_t h = row->interned->hash;
    int numbers[IDENTITY_NUMBERS];
    size_t n = identity_numbers(&row->k, numbers);
    for (size_t i = 0; i < n; i++) {
        h = (h ^ (uint32_t)numbers[i]) * 1099511628211ull;
    }
    return h;
}

/* The reader's function as the row of the result (no name yet). */
static void fill_kernel(occ_inspect_kernel *k, const insp_function *f)
{
    k->sm = f->sm;
    k->arch_suffix = f->arch_suffix;
    k->is_kernel = f->is_kernel;
    k->relocatable = f->relocatable;
    k->from_log = f->from_log;
    k->regs = f->regs;
    k->smem_bytes = f->smem_bytes;
    k->smem_section_bytes = f->smem_section_bytes;
    k->stack_bytes = f->stack_bytes;
    k->frame_bytes = f->frame_bytes;
    k->spill_store_bytes = f->spill_store_bytes;
    k->spill_load_bytes = f->spill_load_bytes;
    k->spill_instructions = f->spill_instructions;
    k->barriers = f->barriers;
    memcpy(k->max_threads, f->max_threads, sizeof k->max_threads);
    memcpy(k->req_threads, f->req_threads, sizeof k->req_threads);
    k->max_regs = f->max_regs;
    memcpy(k->cluster_dims, f->cluster_dims, sizeof k->cluster_dims);
    k->explicit_cluster = f->explicit_cluster;
    k->max_cluster_rank = f->max_cluster_rank;
    k->param_bytes = f->param_bytes;
}

static void on_function(void *context, const insp_function *f)
{
    worker *w = context;
    const occ_inspect_options *opts = w->c->opts;
    w->functions_read++;
    if (w->failed || atomic_load(&w->c->failed)) {
        return;
    }
    char why[256];
    if (!inspect_function_plausible(f, why, sizeof why)) {
        /* a damaged file: say where, and stop */
        set_error(w->c, OCC_ERR_BAD_FORMAT, w->file,
                  w->task_offset + (w->exact_offsets ? f->offset : 0), why);
        return;
    }
    if (!f->is_kernel && !opts->functions) {
        return;
    }
    if (opts->arch_sm != 0 && (f->sm != opts->arch_sm ||
                               (!opts->arch_any_suffix && f->arch_suffix != opts->arch_suffix))) {
        return;
    }
    if (w->row_count == w->row_cap) {
        size_t cap = w->row_cap > 0 ? w->row_cap * 2 : 256;
        inspect_row *bigger = realloc(w->rows, cap * sizeof *bigger);
        if (bigger == NULL) {
            w->failed = true;
            return;
        }
        w->rows = bigger;
        w->row_cap = cap;
    }
    inspect_row *row = &w->rows[w->row_count];
    memset(row, 0, sizeof *row);
    fill_kernel(&row->k, f);
    row->k.count = f->count > 0 ? f->count : 1;
    row->k.input = w->file;
    row->section_index = w->section;
    /* demangled later, once per distinct name (inspect_names_finish) */
    row->interned = inspect_names_add(w->c->names, f->name, f->name_len,
                                      inspect_name_hash(f->name, f->name_len));
    if (row->interned == NULL) {
        w->failed = true;
        return;
    }
    row->k.mangled = row->interned->mangled;
    row->k.name = row->k.mangled;
    row->identity = identity_hash(row);
    inspect_compute_occupancy(&row->k, opts);
    w->row_count++;
}

static void on_entry(void *context, const insp_entry *e)
{
    worker *w = context;
    if (e->skipped) {
        w->entries_skipped++;
        return;
    }
    if (e->kind == INSP_ENTRY_CUBIN) {
        return;
    }
    for (int i = 0; i < w->nodata_count; i++) {
        occ_inspect_no_data *n = &w->nodata[i];
        if (n->kind == e->kind && n->sm == e->sm && n->arch_suffix == e->arch_suffix) {
            n->count++;
            return;
        }
    }
    if (w->nodata_count < INSPECT_MAX_NO_DATA) {
        w->nodata[w->nodata_count++] = (occ_inspect_no_data){e->kind, e->sm, e->arch_suffix, 1};
    }
}

/* Forgets the pages wholly inside [offset, offset + size) of a mapped file. */
static void drop_pages(const collector *c, const input_file *file, size_t offset, size_t size)
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

static void add_candidate(void *context, size_t offset, size_t size, insp_region_kind kind)
{
    (void)kind;
    task *t = context;
    if (t->found_count == t->found_cap) {
        size_t cap = t->found_cap > 0 ? t->found_cap * 2 : 16;
        candidate *bigger = realloc(t->found, cap * sizeof *bigger);
        if (bigger == NULL) {
            t->found_cap = SIZE_MAX; /* marks the failure for scan_part */
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

/* Reads one fatbin entry with a pooled buffer of `need` bytes lent to the
   worker's scratch (its zstd context stays); *deferred where the pool is
   full and `wait` is not set. */
static bool read_entry_lent(worker *w, const uint8_t *data, size_t size, size_t need, bool wait,
                            bool *deferred, insp_error *err)
{
    collector *c = w->c;
    insp_sink sink = {on_function, on_entry, w};
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

/* Reads one fatbin entry, a large one in a pooled buffer: the size of a
   part read where the entry is read in part (fatbin.c), and, should that
   find the entry must be read whole, then a whole one. Returns false with
   *deferred set where the pool is full and `wait` is not set. */
static bool read_entry_task(worker *w, const uint8_t *data, size_t size, bool wait, bool *deferred,
                            insp_error *err)
{
    collector *c = w->c;
    insp_sink sink = {on_function, on_entry, w};
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
       on_entry counts only for entries not read) */
    w->scratch.whole_only = true;
    need = insp_fatbin_entry_scratch_bytes(data, size, &c->filter, &w->scratch);
    ok = read_entry_lent(w, data, size, need, true, deferred, err);
    w->scratch.whole_only = false;
    return ok;
}

/* Forgets the pending span of swept file bytes, and the DROP_LOOKBACK_BYTES
   before it. Called with drop_lock held. */
static void drop_swept(collector *c)
{
    if (c->sweep_to > c->sweep_from) {
        size_t from = c->sweep_from > DROP_LOOKBACK_BYTES ? c->sweep_from - DROP_LOOKBACK_BYTES : 0;
        drop_pages(c, &c->files[c->sweep_file], from, c->sweep_to - from);
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
static void drop_started_tasks(collector *c, bool all)
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
static void start_task(collector *c, task *t)
{
    if (!atomic_load(&t->started)) {
        atomic_store(&t->started, true);
        drop_started_tasks(c, false);
    }
}

/* A task is finished: a large one forgets its own pages (the sweep may have
   passed it long ago; one set aside is large, and forgets them when it is
   run at last). */
static void finish_task(collector *c, const task *t)
{
    if (is_large(t)) {
        drop_pages(c, &c->files[t->file], t->offset, t->size);
    }
}

/* Runs one task; a large entry met while the pool is full is set aside
   (unless `wait`) for the end of the round, so that no thread idles while
   small entries are left. */
static void run_task(worker *w, task *t, bool wait)
{
    collector *c = w->c;
    const input_file *file = &c->files[t->file];
    const uint8_t *data = file->data + t->offset;
    insp_sink sink = {on_function, on_entry, w};
    insp_error err = {0, "", false, false};
    bool ok = true;
    w->section = t->section;
    w->file = t->file;
    w->task_offset = t->offset;
    w->exact_offsets = t->kind == TASK_WHOLE;
    start_task(c, t);
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
        ok = read_entry_task(w, data, t->size, wait, &deferred, &err);
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
        set_error(c, err.over_limit ? OCC_ERR_LIMIT : OCC_ERR_BAD_FORMAT, t->file,
                  t->offset + err.offset, err.message);
    }
    if (w->scratch.capacity > SCRATCH_KEEP_BYTES) {
        free(w->scratch.data);
        w->scratch.data = NULL;
        w->scratch.capacity = 0;
    }
    finish_task(c, t);
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

static task *add_task(collector *c, task_kind kind, size_t offset, size_t size)
{
    if (c->task_count == c->task_cap) {
        size_t cap = c->task_cap > 0 ? c->task_cap * 2 : 256;
        task *bigger = realloc(c->tasks, cap * sizeof *bigger);
        if (bigger == NULL) {
            set_error(c, OCC_ERR_OUT_OF_MEMORY, c->file, 0, "out of memory");
            return NULL;
        }
        c->tasks = bigger;
        c->task_cap = cap;
    }
    task *t = &c->tasks[c->task_count++];
    memset(t, 0, sizeof *t);
    t->kind = kind;
    t->file = c->file;
    t->section = c->section;
    t->offset = offset;
    t->size = size;
    t->base = c->member_base;
    t->work = size;
    return t;
}

/* Forgets the walked pages before `offset` once DROP_STEP_BYTES have
   gathered, or at once when `now`. */
static void drop_walked(collector *c, size_t offset, bool now)
{
    if (c->walk_drops_swept) {
        return; /* an archive member's: split_members forgets them per chunk */
    }
    const input_file *file = &c->files[c->file];
    size_t to = offset < file->size ? offset : file->size;
    if (to > c->drop_from && (now || to - c->drop_from >= DROP_STEP_BYTES)) {
        drop_pages(c, file, c->drop_from, to - c->drop_from);
        c->drop_from = to;
    }
}

static void add_entry(void *context, size_t offset, size_t size, insp_region_kind kind)
{
    (void)kind;
    collector *c = context;
    task *t = add_task(c, TASK_ENTRY, offset, size);
    if (t != NULL) {
        /* a compressed cubin's work is its decompressed size */
        size_t unpacked =
            insp_fatbin_entry_scratch_bytes(c->files[c->file].data + offset, size, NULL, NULL);
        t->work = unpacked > size ? unpacked : size;
    }
    drop_walked(c, offset, false);
}

/* Splits the container at file offset `offset` into entry tasks. */
static bool add_container(collector *c, size_t offset, size_t size, insp_error *err)
{
    const input_file *file = &c->files[c->file];
    if (!insp_fatbin_entries(file->data + offset, size, offset, add_entry, c, err)) {
        err->offset += offset;
        return false;
    }
    return true;
}

typedef struct region_walk {
    collector *c;
    insp_error *err;
    bool ok;
} region_walk;

static void add_region(void *context, size_t offset, size_t size, insp_region_kind kind)
{
    (void)kind;
    region_walk *walk = context;
    if (walk->ok) {
        walk->ok = add_container(walk->c, offset, size, walk->err);
    }
}

static uint64_t name_hash(const char *name, size_t len)
{
    uint64_t h = 14695981039346656037ull; /* FNV-1a */
    for (size_t i = 0; i < len; i++) {
        h = (h ^ (uint8_t)name[i]) * 1099511628211ull;
    }
    return h;
}

/* The slot of `name` in section_slots, or of the empty slot it would take. */
static size_t section_slot(const collector *c, const char *name, size_t len)
{
    size_t mask = c->slot_count - 1;
    size_t at = (size_t)name_hash(name, len) & mask;
    for (;; at = (at + 1) & mask) {
        int i = c->section_slots[at];
        if (i < 0 ||
            (strlen(c->section_names[i]) == len && memcmp(c->section_names[i], name, len) == 0)) {
            return at;
        }
    }
}

/* Rebuilds the hash table for `slots` slots; false if out of memory. */
static bool rehash_sections(collector *c, size_t slots)
{
    int *table = malloc(slots * sizeof *table);
    if (table == NULL) {
        return false;
    }
    memset(table, 0xFF, slots * sizeof *table); /* -1: empty */
    free(c->section_slots);
    c->section_slots = table;
    c->slot_count = slots;
    for (int i = 0; i < c->section_count; i++) {
        table[section_slot(c, c->section_names[i], strlen(c->section_names[i]))] = i;
    }
    return true;
}

/* The number of section `name`, given it at first sight while fewer than
   the limit are kept (a hash table: an archive chunk meets thousands). */
static int section_index(collector *c, const char *name, size_t len)
{
    if (c->slot_count > 0) {
        int found = c->section_slots[section_slot(c, name, len)];
        if (found >= 0) {
            return found;
        }
    }
    int limit = c->section_limit > 0 ? c->section_limit : MAX_SECTIONS;
    if (c->section_count == limit) {
        return -1;
    }
    if (c->section_count == c->section_cap) {
        int cap = c->section_cap > 0 ? c->section_cap * 2 : 16;
        char **bigger = realloc(c->section_names, (size_t)cap * sizeof *bigger);
        if (bigger == NULL) {
            return -1;
        }
        c->section_names = bigger;
        c->section_cap = cap;
        if (!rehash_sections(c, (size_t)cap * 2)) {
            return -1;
        }
    }
    char *copy = malloc(len + 1);
    if (copy == NULL) {
        return -1;
    }
    memcpy(copy, name, len);
    copy[len] = '\0';
    c->section_names[c->section_count] = copy;
    c->section_slots[section_slot(c, copy, len)] = c->section_count;
    return c->section_count++;
}

typedef struct section_walk {
    collector *c;
    insp_error *err;
    bool ok;
} section_walk;

/* A host ELF section: its containers' entries become tasks now, or, for a
   section to scan, its parts do. */
static void add_section(void *context, const char *name, size_t name_len, size_t offset,
                        size_t size, insp_region_kind kind)
{
    section_walk *walk = context;
    collector *c = walk->c;
    if (!walk->ok) {
        return;
    }
    offset += c->member_base; /* the reader counts from the member's start */
    c->section = section_index(c, name, name_len);
    if (kind == INSP_REGION_OTHER) {
        for (size_t at = 0; at < size; at += SCAN_PART_BYTES) {
            task *t = add_task(c, TASK_SCAN, offset + at,
                               size - at < SCAN_PART_BYTES ? size - at : SCAN_PART_BYTES);
            if (t != NULL) {
                t->section_offset = offset;
                t->section_size = size;
            }
        }
        return;
    }
    region_walk regions = {c, walk->err, true};
    c->drop_from = offset;
    walk->ok = insp_fatbin_regions(c->files[c->file].data + offset, size, offset, kind, add_region,
                                   &regions, walk->err) &&
               regions.ok;
    drop_walked(c, offset + size, true);
}

/* After the scan round: the containers found in each section (those inside
   an earlier one dropped, as insp_host_elf_fatbins does) become entry tasks.
   Scan tasks are in file order, so each section's parts follow each other. */
static bool add_scanned_containers(collector *c, size_t scan_end, insp_error *err, int *file)
{
    size_t next = 0;
    for (size_t i = 0; i < scan_end; i++) {
        task t = c->tasks[i]; /* a copy: add_task may move the array */
        if (t.kind != TASK_SCAN) {
            continue;
        }
        if (t.offset == t.section_offset) {
            next = 0;
        }
        c->file = t.file;
        c->section = t.section;
        c->drop_from = t.offset;
        size_t walked_end = t.offset + t.size;
        for (size_t k = 0; k < t.found_count; k++) {
            if (t.found[k].offset < next) {
                continue;
            }
            next = insp_fatbin_next_offset(t.found[k].offset, t.found[k].size);
            if (!add_container(c, t.found[k].offset, t.found[k].size, err)) {
                *file = t.file;
                return false;
            }
            if (t.found[k].offset + t.found[k].size > walked_end) {
                walked_end = t.found[k].offset + t.found[k].size;
            }
        }
        drop_walked(c, walked_end, true);
    }
    return true;
}

static bool split_region(collector *c, insp_format format, size_t base, size_t size,
                         insp_error *err);

typedef struct member_walk {
    size_t dropped_to; /* the archive's pages before this are forgotten */
    collector *c;
    insp_error *err;
    bool ok;
} member_walk;

/* Records an archive member; they are split after the walk (split_members). */
static void add_member(void *context, const char *name, size_t name_len, size_t offset, size_t size)
{
    member_walk *walk = context;
    collector *c = walk->c;
    if (!walk->ok || size == 0) {
        return;
    }
    if (c->member_count == c->member_cap) {
        size_t cap = c->member_cap > 0 ? c->member_cap * 2 : 64;
        member_span *bigger = realloc(c->members, cap * sizeof *bigger);
        if (bigger == NULL) {
            walk->ok = false;
            snprintf(walk->err->message, sizeof walk->err->message, "out of memory");
            return;
        }
        c->members = bigger;
        c->member_cap = cap;
    }
    member_span *m = &c->members[c->member_count++];
    *m = (member_span){c->file, offset, size, ""};
    snprintf(m->name, sizeof m->name, "%.*s", (int)(name_len < 79 ? name_len : 79), name);
    /* the walk maps each member's header, and with it what the kernel maps
       around it (a 2 MiB huge page of the page cache, at times): forgotten
       as it goes, or the walk alone maps most of the archive */
    if (offset - walk->dropped_to >= DROP_STEP_BYTES) {
        drop_pages(c, &c->files[c->file], walk->dropped_to, offset - walk->dropped_to);
        walk->dropped_to = offset;
    }
}

/* Archive members are split in chunks of this many, each chunk on one
   thread into a collector of its own (its tasks, its section names), the
   chunks merged into the real collector in member order. */
#define MEMBERS_PER_CHUNK 64

typedef struct member_chunk {
    collector local;
    size_t failed; /* the member (index into c->members) that failed, or SIZE_MAX */
    insp_error err;
} member_chunk;

typedef struct member_splitting {
    collector *c;
    member_chunk *chunks;
    size_t first, count; /* c->members[first, first + count) */
    size_t chunk_count;
    atomic_size_t next;
} member_splitting;

/* An archive member is read as the file it was. Only host objects, cubins
   and fatbins can hold device code; other members (text) are passed over, as
   the linker passes over what it cannot link. A nested archive is never a
   member here: insp_archive_members reports its members instead. */
static bool split_member(collector *c, collector *local, const member_span *m, insp_error *err)
{
    local->file = m->file;
    insp_format format = insp_detect(c->files[m->file].data + m->offset, m->size);
    if (format == INSP_FORMAT_HOST_ELF || format == INSP_FORMAT_CUBIN ||
        format == INSP_FORMAT_FATBIN) {
        return split_region(local, format, m->offset, m->size, err);
    }
    return true;
}

static void split_chunk(member_splitting *s, size_t index)
{
    collector *c = s->c;
    member_chunk *chunk = &s->chunks[index];
    collector *local = &chunk->local;
    local->opts = c->opts;
    local->filter = c->filter;
    local->files = c->files;
    local->page_bytes = c->page_bytes;
    local->walk_drops_swept = true;
    local->section_limit = CHUNK_MAX_SECTIONS;
    pthread_mutex_init(&local->error_lock, NULL);
    chunk->failed = SIZE_MAX;
    size_t from = s->first + index * MEMBERS_PER_CHUNK;
    size_t to = from + MEMBERS_PER_CHUNK < s->first + s->count ? from + MEMBERS_PER_CHUNK
                                                               : s->first + s->count;
    for (size_t m = from; m < to; m++) {
        if (!split_member(c, local, &c->members[m], &chunk->err)) {
            chunk->failed = m; /* a serial split stops at the first failure too */
            break;
        }
    }
}

static void *member_splitter_main(void *context)
{
    member_splitting *s = context;
    for (;;) {
        size_t i = atomic_fetch_add(&s->next, 1);
        if (i >= s->chunk_count) {
            return NULL;
        }
        split_chunk(s, i);
        /* Splitting maps each member's header, section table and what the
           kernel maps around them: over thousands of members that held most
           of a large archive resident (RssFile 346 MiB reading
           libcublasLt_static.a). The chunk's pages are forgotten once it is
           split (one madvise per member sent a TLB shootdown to every core
           per member; a sweep in member order waited on the slowest chunk);
           the tasks map their own bytes again. */
        const member_span *first = &s->c->members[s->first + i * MEMBERS_PER_CHUNK];
        size_t last_index =
            (i + 1) * MEMBERS_PER_CHUNK < s->count ? (i + 1) * MEMBERS_PER_CHUNK : s->count;
        const member_span *last = &s->c->members[s->first + last_index - 1];
        drop_pages(s->c, &s->c->files[first->file], first->offset,
                   last->offset + last->size - first->offset);
    }
}

/* Moves one chunk's tasks into the collector, its section names made the
   collector's in member order (so that they are numbered as a serial split
   numbers them: the merge takes the lower number as the earlier section). */
static bool take_chunk_tasks(collector *c, collector *local)
{
    bool ok = !atomic_load(&local->failed);
    /* the chunk's names in the order it met them, as a serial split meets them */
    int *global =
        malloc((size_t)(local->section_count > 0 ? local->section_count : 1) * sizeof *global);
    ok = ok && global != NULL;
    for (int i = 0; ok && i < local->section_count; i++) {
        global[i] = section_index(c, local->section_names[i], strlen(local->section_names[i]));
    }
    for (size_t i = 0; ok && i < local->task_count; i++) {
        task t = local->tasks[i];
        int section = t.section >= 0 ? global[t.section] : -1;
        task *added = add_task(c, t.kind, t.offset, t.size);
        ok = added != NULL;
        if (ok) {
            *added = t;
            added->section = section;
        }
    }
    for (size_t i = 0; i < local->task_count; i++) {
        free(local->tasks[i].found);
    }
    free(local->tasks);
    free(global);
    for (int i = 0; i < local->section_count; i++) {
        free(local->section_names[i]);
    }
    free(local->section_names);
    free(local->section_slots);
    pthread_mutex_destroy(&local->error_lock);
    return ok;
}

/*
 * Splits archive members [first, member_count) on up to c->jobs threads:
 * serially, faulting in each member's headers cost libcublasLt_static.a
 * 0.24 s of its 0.56 s on the H200 machine. The first member that fails,
 * in member order, is the error, as a serial split would report it.
 */
static bool split_members(collector *c, size_t first, insp_error *err)
{
    member_splitting s;
    memset(&s, 0, sizeof s);
    s.c = c;
    s.first = first;
    s.count = c->member_count - first;
    s.chunk_count = (s.count + MEMBERS_PER_CHUNK - 1) / MEMBERS_PER_CHUNK;
    s.chunks = calloc(s.chunk_count > 0 ? s.chunk_count : 1, sizeof *s.chunks);
    if (s.chunks == NULL) {
        snprintf(err->message, sizeof err->message, "out of memory");
        return false;
    }
    int threads = c->jobs < 1 ? 1 : c->jobs;
    if ((size_t)threads > s.chunk_count) {
        threads = s.chunk_count > 0 ? (int)s.chunk_count : 1;
    }
    pthread_t ids[INSPECT_DEFAULT_JOBS_MAX];
    int started = 0;
    for (int i = 1; i < threads && started < INSPECT_DEFAULT_JOBS_MAX; i++) {
        if (pthread_create(&ids[started], NULL, member_splitter_main, &s) != 0) {
            break;
        }
        started++;
    }
    member_splitter_main(&s);
    for (int i = 0; i < started; i++) {
        pthread_join(ids[i], NULL);
    }
    bool ok = true;
    for (size_t i = 0; i < s.chunk_count; i++) {
        member_chunk *chunk = &s.chunks[i];
        if (ok && chunk->failed != SIZE_MAX) {
            ok = false;
            *err = chunk->err;
            int len = snprintf(err->message, sizeof err->message, "member %s: %s",
                               c->members[chunk->failed].name, chunk->err.message);
            if (len >= (int)sizeof err->message) {
                /* cut at the end: the member's name and the start of the reason stay */
                err->message[sizeof err->message - 1] = '\0';
            }
        }
        if (!take_chunk_tasks(c, &chunk->local) && ok) {
            ok = false;
            snprintf(err->message, sizeof err->message, "out of memory");
        }
    }
    free(s.chunks);
    return ok;
}

static void add_baseline_part(void *context, size_t offset, size_t size, insp_region_kind kind)
{
    (void)kind;
    add_task(context, TASK_WHOLE, offset, size);
}

/* Splits file bytes [base, base + size), one input of `format` (a whole
   file, or a member of an archive), into tasks. Error offsets count from
   the file's start. */
static bool split_region(collector *c, insp_format format, size_t base, size_t size,
                         insp_error *err)
{
    const uint8_t *data = c->files[c->file].data + base;
    c->member_base = base;
    c->section = -1;
    bool ok = true;
    switch (format) {
    case INSP_FORMAT_PTXAS_LOG:
    case INSP_FORMAT_CUBIN: add_task(c, TASK_WHOLE, base, size); break;
    case INSP_FORMAT_FATBIN: {
        region_walk regions = {c, err, true};
        c->drop_from = base;
        ok = insp_fatbin_regions(data, size, base, INSP_REGION_FILE, add_region, &regions, err) &&
             regions.ok;
        drop_walked(c, base + size, true);
        break;
    }
    case INSP_FORMAT_HOST_ELF: {
        section_walk sections = {c, err, true};
        /* an object (.o) has not been linked: its -rdc code is only in
           __nv_relfatbin, which cuobjdump shows for it too */
        bool relfatbin = c->opts->relfatbin || insp_host_elf_is_object(data, size);
        ok = insp_host_elf_sections(data, size, relfatbin, add_section, &sections, err);
        if (!ok) {
            err->offset += base; /* the section table's own errors count from the member */
        }
        ok = ok && sections.ok;
        break;
    }
    case INSP_FORMAT_ARCHIVE: {
        member_walk members = {base, c, err, true};
        size_t first = c->member_count;
        ok = insp_archive_members(data, size, add_member, &members, err) && members.ok &&
             split_members(c, first, err);
        drop_pages(c, &c->files[c->file], base, size);
        break;
    }
    case INSP_FORMAT_BASELINE:
        ok = insp_baseline_split(data, size, BASELINE_PART_BYTES, add_baseline_part, c, err);
        break;
    default: ok = false; break;
    }
    c->member_base = 0;
    return ok;
}

/* Reads a file that cannot be mapped (a pipe, /dev/stdin, a /proc file)
   into memory, at most OCC_INSPECT_MAX_STREAM_BYTES: the buffer never grows
   past it, and every byte of it is taken from the process's reading budget
   first (budget.h), so that streams read at once share the limit. */
static occ_status read_unmappable(int fd, input_file *file, int index, occ_inspect_error *err)
{
    const size_t limit = OCC_INSPECT_MAX_STREAM_BYTES;
    size_t cap = 0;
    size_t size = 0;
    uint8_t *buf = NULL;
    bool over = false; /* the stream, or the streams together, pass the limit */
    for (;;) {
        if (size == cap) {
            size_t grown = cap == 0 ? (size_t)1 << 16 : cap * 2;
            grown = grown > limit ? limit : grown;
            uint8_t probe;
            if (grown == cap) {
                /* full: one more byte says whether the stream goes on */
                ssize_t more = read(fd, &probe, 1);
                if (more < 0 && errno == EINTR) {
                    continue;
                }
                if (more == 0) {
                    break;
                }
                over = more > 0;
                if (more < 0) {
                    int e = errno;
                    free(buf);
                    insp_budget_stream_give(file->budget_bytes);
                    file->budget_bytes = 0;
                    return inspect_fail(err, OCC_ERR_IO, index, -1, "%s: cannot read: %s",
                                        file->path, strerror(e));
                }
                break;
            }
            if (!insp_budget_stream_take(grown - cap)) {
                over = true;
                break;
            }
            file->budget_bytes += grown - cap;
            uint8_t *bigger = realloc(buf, grown);
            if (bigger == NULL) {
                free(buf);
                insp_budget_stream_give(file->budget_bytes);
                file->budget_bytes = 0;
                return inspect_fail(err, OCC_ERR_OUT_OF_MEMORY, index, -1, "%s: out of memory",
                                    file->path);
            }
            buf = bigger;
            cap = grown;
        }
        ssize_t got = read(fd, buf + size, cap - size);
        if (got < 0 && errno == EINTR) {
            continue;
        }
        if (got < 0) {
            int e = errno;
            free(buf);
            insp_budget_stream_give(file->budget_bytes);
            file->budget_bytes = 0;
            return inspect_fail(err, OCC_ERR_IO, index, -1, "%s: cannot read: %s", file->path,
                                strerror(e));
        }
        if (got == 0) {
            break;
        }
        size += (size_t)got;
    }
    if (over) {
        size_t others = insp_budget_stream_bytes() - file->budget_bytes;
        free(buf);
        insp_budget_stream_give(file->budget_bytes);
        file->budget_bytes = 0;
        if (others == 0) {
            return inspect_fail(err, OCC_ERR_LIMIT, index, -1,
                                "%s: more than %zu MiB from a stream; give a regular file, which "
                                "is read without copying",
                                file->path, limit >> 20);
        }
        return inspect_fail(err, OCC_ERR_LIMIT, index, -1,
                            "%s: more than %zu MiB from a stream while other streams read at "
                            "once hold %zu MiB, and %zu MiB is the limit for all of them; give "
                            "regular files, which are read without copying",
                            file->path, size >> 20, others >> 20, limit >> 20);
    }
    file->data = buf;
    file->size = size;
    file->owned = true;
    return OCC_OK;
}

/* Maps a regular file; reads anything else that can be read (pipes,
   character devices, /proc files). Opening never blocks: a FIFO without a
   writer reads as empty rather than waiting for one. */
static occ_status open_file(input_file *file, int index, occ_inspect_error *err)
{
    int fd = open(file->path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        int e = errno;
        if (fd >= 0) {
            close(fd);
        }
        return inspect_fail(err, OCC_ERR_IO, index, -1, "%s: cannot open: %s", file->path,
                            strerror(e));
    }
    if (S_ISDIR(st.st_mode)) {
        close(fd);
        return inspect_fail(err, OCC_ERR_IO, index, -1, "%s: is a directory", file->path);
    }
    if (isatty(fd)) {
        /* /dev/stdin or /dev/tty on a terminal: reading would wait for typing */
        close(fd);
        return inspect_fail(err, OCC_ERR_IO, index, -1,
                            "%s: is a terminal; give a file, or pipe the input", file->path);
    }
    occ_status status = OCC_OK;
    if (S_ISREG(st.st_mode) && st.st_size > 0) {
        file->size = (size_t)st.st_size;
        void *map = mmap(NULL, file->size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (map == MAP_FAILED) {
            status = inspect_fail(err, OCC_ERR_IO, index, -1, "%s: cannot map: %s", file->path,
                                  strerror(errno));
        } else {
            file->data = map;
            file->mapped = true;
        }
    } else {
        /* blocking reads from here: a pipe's writer may be slow */
        int flags = fcntl(fd, F_GETFL);
        if (flags >= 0) {
            fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
        }
        status = read_unmappable(fd, file, index, err);
    }
    close(fd);
    if (status == OCC_OK && file->size == 0) {
        status = inspect_fail(err, OCC_ERR_BAD_FORMAT, index, -1, "%s: is empty", file->path);
    }
    return status;
}

/* Opens (or takes from memory) one input and splits it into tasks. */
static occ_status open_input(collector *c, int index, const occ_inspect_input *in,
                             occ_inspect_error *err)
{
    input_file *file = &c->files[index];
    file->path = in->path != NULL ? in->path : "<memory>";
    occ_status status = OCC_OK;
    if (in->data != NULL) {
        file->data = in->data;
        file->size = in->size;
        if (file->size == 0) {
            return inspect_fail(err, OCC_ERR_BAD_FORMAT, index, -1, "%s: is empty", file->path);
        }
    } else {
        if (in->path == NULL) {
            return inspect_fail(err, OCC_ERR_INVALID_ARGUMENT, index, -1,
                                "%s: input %d has neither a path nor data", file->path, index);
        }
        status = open_file(file, index, err);
        if (status != OCC_OK) {
            return status;
        }
    }
    file->format = insp_detect(file->data, file->size);
    c->file = index;
    c->drop_from = 0;
    insp_error rerr = {0, "", false, false};
    if (file->size >= 3 && memcmp(file->data, "\xEF\xBB\xBF", 3) == 0) {
        /* a text editor's mark: JSON and logs are read without one */
        return inspect_fail(err, OCC_ERR_BAD_FORMAT, index, 0,
                            "%s: offset 0: starts with a UTF-8 byte-order mark (EF BB BF), which "
                            "a baseline or ptxas log does not have: save it without one",
                            file->path);
    }
    if (file->format == INSP_FORMAT_UNKNOWN) {
        return inspect_fail(err, OCC_ERR_BAD_FORMAT, index, 0,
                            "%s: offset 0: not a ptxas log, cubin, fatbin or ELF file, nor an "
                            "archive or occ baseline",
                            file->path);
    }
    if (!split_region(c, file->format, 0, file->size, &rerr)) {
        return inspect_fail(err, rerr.over_limit ? OCC_ERR_LIMIT : OCC_ERR_BAD_FORMAT, index,
                            (long long)rerr.offset, "%s: offset %zu: %s", file->path, rerr.offset,
                            rerr.message);
    }
    if (atomic_load(&c->failed)) {
        return task_failure(c, err);
    }
    return OCC_OK;
}

/* The same function: same arch, name and every number. */
static bool same_identity(const inspect_row *x, const inspect_row *y)
{
    if (x->identity != y->identity || x->interned != y->interned) {
        return false;
    }
    int xv[IDENTITY_NUMBERS];
    int yv[IDENTITY_NUMBERS];
    size_t n = identity_numbers(&x->k, xv);
    identity_numbers(&y->k, yv);
    return memcmp(xv, yv, n * sizeof xv[0]) == 0;
}

static int compare_nodata(const void *a, const void *b)
{
    const occ_inspect_no_data *x = a;
    const occ_inspect_no_data *y = b;
    if (x->kind != y->kind) {
        return x->kind < y->kind ? -1 : 1;
    }
    if (x->sm != y->sm) {
        return x->sm < y->sm ? -1 : 1;
    }
    return (x->arch_suffix > y->arch_suffix) - (x->arch_suffix < y->arch_suffix);
}

/* Merges identical rows into the first of them, through a hash table of row
   indices keyed by identity: no sort of the (large) rows is needed. */
static bool merge_duplicates(inspect_row *rows, size_t n, size_t *kept_out)
{
    size_t cap = 16;
    while (cap < 2 * n) {
        cap *= 2;
    }
    size_t *slots = malloc(cap * sizeof *slots);
    if (slots == NULL) {
        return false;
    }
    memset(slots, 0xFF, cap * sizeof *slots); /* SIZE_MAX: empty */
    for (size_t i = 0; i < n; i++) {
        size_t at = (size_t)rows[i].identity & (cap - 1);
        for (; slots[at] != SIZE_MAX; at = (at + 1) & (cap - 1)) {
            inspect_row *first = &rows[slots[at]];
            if (same_identity(first, &rows[i])) {
                /* saturating: a baseline's counts are the file's word */
                first->k.count = rows[i].k.count > INT_MAX - first->k.count
                                     ? INT_MAX
                                     : first->k.count + rows[i].k.count;
                /* the input and section named are the first in file order,
                   whichever thread read them */
                if (rows[i].k.input < first->k.input) {
                    first->k.input = rows[i].k.input;
                    first->section_index = rows[i].section_index;
                } else if (rows[i].k.input == first->k.input && rows[i].section_index >= 0 &&
                           (first->section_index < 0 ||
                            rows[i].section_index < first->section_index)) {
                    first->section_index = rows[i].section_index;
                }
                rows[i].k.count = 0; /* merged */
                break;
            }
        }
        if (slots[at] == SIZE_MAX) {
            slots[at] = i;
        }
    }
    free(slots);
    size_t kept = 0;
    for (size_t i = 0; i < n; i++) {
        if (rows[i].k.count > 0) {
            rows[kept++] = rows[i];
        }
    }
    *kept_out = kept;
    return true;
}

static bool merge_workers(worker *workers, int count, occ_inspect_result *out)
{
    size_t total = 0;
    for (int i = 0; i < count; i++) {
        total += workers[i].row_count;
        out->functions_read += workers[i].functions_read;
        out->entries_skipped += workers[i].entries_skipped;
        out->timing.pool_wait_seconds += workers[i].pool_wait_seconds;
        out->timing.entries_in_part += workers[i].scratch.entries_in_part;
        out->timing.entries_part_refused += workers[i].scratch.entries_part_refused;
    }
    out->rows = malloc((total > 0 ? total : 1) * sizeof *out->rows);
    if (out->rows == NULL) {
        return false;
    }
    size_t n = 0;
    for (int i = 0; i < count; i++) {
        worker *w = &workers[i];
        if (w->row_count > 0) {
            memcpy(out->rows + n, w->rows, w->row_count * sizeof *w->rows);
        }
        n += w->row_count;
        /* freed as copied: the rows are held twice only one worker's worth */
        free(w->rows);
        w->rows = NULL;
        w->row_count = 0;
        for (int k = 0; k < w->nodata_count; k++) {
            occ_inspect_no_data *add = &w->nodata[k];
            int j = 0;
            while (j < out->no_data_count &&
                   !(out->no_data[j].kind == add->kind && out->no_data[j].sm == add->sm &&
                     out->no_data[j].arch_suffix == add->arch_suffix)) {
                j++;
            }
            if (j < out->no_data_count) {
                out->no_data[j].count += add->count;
            } else if (out->no_data_count < INSPECT_MAX_NO_DATA) {
                out->no_data[out->no_data_count++] = *add;
            }
        }
    }
    /* in an order that does not depend on which thread read what */
    qsort(out->no_data, (size_t)out->no_data_count, sizeof *out->no_data, compare_nodata);
    return merge_duplicates(out->rows, n, &out->row_count);
}

/* Demangles and ranks the distinct names, then points each row at its own. */
static bool finish_names(collector *c, int jobs, occ_inspect_result *out)
{
    if (!inspect_names_finish(c->names, c->opts->demangle, jobs)) {
        return false;
    }
    for (size_t i = 0; i < out->row_count; i++) {
        out->rows[i].k.name = out->rows[i].interned->printed;
    }
    return true;
}

/* The first failure of the threads, with its input's path in front. */
static occ_status task_failure(const collector *c, occ_inspect_error *err)
{
    const occ_inspect_error *e = &c->error;
    for (size_t i = 0; i < c->member_count; i++) {
        const member_span *m = &c->members[i];
        if (m->file == e->input && e->offset >= 0 && (size_t)e->offset >= m->offset &&
            (size_t)e->offset - m->offset < m->size) {
            return inspect_fail(err, e->status, e->input, e->offset,
                                "%s: offset %lld: member %s: %s", c->files[e->input].path,
                                e->offset, m->name, e->message);
        }
    }
    return inspect_fail(err, e->status, e->input, e->offset, "%s: offset %lld: %s",
                        c->files[e->input].path, e->offset, e->message);
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

/* Runs tasks [round_start, task_count) on up to `jobs` threads, the very
   large ones first (compare_work). */
static occ_status run_round(collector *c, worker *workers, int jobs, occ_inspect_error *err)
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
    drop_started_tasks(c, true);
    bool oom = false;
    for (int i = 0; i < jobs; i++) {
        oom = oom || workers[i].failed;
    }
    if (atomic_load(&c->failed)) {
        return task_failure(c, err);
    }
    if (oom) {
        return inspect_fail(err, OCC_ERR_OUT_OF_MEMORY, -1, -1, "out of memory");
    }
    return OCC_OK;
}

static void collector_free(collector *c, worker *workers, int jobs, int input_count)
{
    for (int i = 0; workers != NULL && i < jobs; i++) {
        insp_scratch_free(&workers[i].scratch);
        free(workers[i].rows);
    }
    free(workers);
    insp_pool_trim();
    for (int i = 0; c->files != NULL && i < input_count; i++) {
        input_file *f = &c->files[i];
        if (f->mapped) {
            munmap((void *)(uintptr_t)f->data, f->size);
        } else if (f->owned) {
            free((void *)(uintptr_t)f->data);
            insp_budget_stream_give(f->budget_bytes);
        }
    }
    for (size_t i = 0; i < c->task_count; i++) {
        free(c->tasks[i].found);
    }
    free(c->files);
    free(c->tasks);
    free(c->deferred);
    free(c->run_order);
    free(c->members);
    pthread_mutex_destroy(&c->error_lock);
    pthread_mutex_destroy(&c->drop_lock);
    pthread_mutex_destroy(&c->budget_lock);
}

/* Every input: round 1 reads the entries of .nv_fatbin and of fatbin files
   and scans other sections; round 2 reads the entries of the containers
   those scans found. Then the rows are merged and the names finished. */
static occ_status collect(collector *c, worker *workers, int jobs, const occ_inspect_input *inputs,
                          int input_count, occ_inspect_result *out, occ_inspect_error *err)
{
    double start = inspect_now();
    for (int i = 0; i < input_count; i++) {
        out->input_names[i] = strdup(inputs[i].path != NULL ? inputs[i].path : "<memory>");
        if (out->input_names[i] == NULL) {
            return inspect_fail(err, OCC_ERR_OUT_OF_MEMORY, i, -1, "%s: out of memory",
                                inputs[i].path != NULL ? inputs[i].path : "<memory>");
        }
        occ_status status = open_input(c, i, &inputs[i], err);
        out->input_formats[i] = (occ_inspect_format)c->files[i].format;
        if (status != OCC_OK) {
            return status;
        }
    }
    out->timing.split_seconds = inspect_now() - start;
    start = inspect_now();
    for (int round = 0; round < 2; round++) {
        if (round == 1) {
            insp_error rerr = {0, "", false, false};
            int bad_file = 0;
            size_t scanned = c->task_count;
            c->round_start = scanned;
            if (!add_scanned_containers(c, scanned, &rerr, &bad_file)) {
                return inspect_fail(err, OCC_ERR_BAD_FORMAT, bad_file, (long long)rerr.offset,
                                    "%s: offset %zu: %s", c->files[bad_file].path, rerr.offset,
                                    rerr.message);
            }
        }
        occ_status status = run_round(c, workers, jobs, err);
        if (status != OCC_OK) {
            return status;
        }
        double now = inspect_now();
        *(round == 0 ? &out->timing.read_seconds : &out->timing.scanned_seconds) = now - start;
        start = now;
    }
    /* the buffers go before the merge, which holds the rows twice for a while */
    for (int i = 0; i < jobs; i++) {
        insp_scratch_free(&workers[i].scratch);
    }
    insp_pool_trim();
    if (!merge_workers(workers, jobs, out)) {
        return inspect_fail(err, OCC_ERR_OUT_OF_MEMORY, -1, -1, "out of memory");
    }
    out->timing.merge_seconds = inspect_now() - start;
    start = inspect_now();
    if (!finish_names(c, jobs, out)) {
        return inspect_fail(err, OCC_ERR_OUT_OF_MEMORY, -1, -1, "out of memory");
    }
    out->timing.names_seconds = inspect_now() - start;
    for (size_t i = 0; i < out->row_count; i++) {
        inspect_row *row = &out->rows[i];
        row->k.section = row->section_index >= 0 ? c->section_names[row->section_index] : NULL;
    }
    return OCC_OK;
}

void occ_inspect_options_init(occ_inspect_options *options)
{
    memset(options, 0, sizeof *options);
    options->demangle = true;
}

occ_status occ_inspect_read(const occ_inspect_input *inputs, int input_count,
                            const occ_inspect_options *options, occ_inspect_result **out,
                            occ_inspect_error *caller_err)
{
    return inspect_read_tuned(inputs, input_count, options, NULL, out, caller_err);
}

/* Each option in its range, or OCC_ERR_INVALID_ARGUMENT naming it. */
static occ_status check_options(const occ_inspect_options *o, occ_inspect_error *err)
{
    if (o->jobs < 0 || o->jobs > OCC_INSPECT_MAX_JOBS) {
        return inspect_fail(err, OCC_ERR_INVALID_ARGUMENT, -1, -1,
                            "options.jobs %d: must be 0 (every core, at most %d) to %d", o->jobs,
                            INSPECT_DEFAULT_JOBS_MAX, OCC_INSPECT_MAX_JOBS);
    }
    if (o->threads < 0 || o->threads > 1024) {
        return inspect_fail(err, OCC_ERR_INVALID_ARGUMENT, -1, -1,
                            "options.threads %d: must be 0 (the occupancy API's pick) to 1024",
                            o->threads);
    }
    if (o->dyn_smem_bytes < 0) {
        return inspect_fail(err, OCC_ERR_INVALID_ARGUMENT, -1, -1,
                            "options.dyn_smem_bytes %d: must not be negative", o->dyn_smem_bytes);
    }
    if (o->arch_sm != 0 && (o->arch_sm < 10 || o->arch_sm > 999)) {
        return inspect_fail(err, OCC_ERR_INVALID_ARGUMENT, -1, -1,
                            "options.arch_sm %d: must be 0 (every arch) or an SM number 10..999",
                            o->arch_sm);
    }
    if (o->arch_suffix != 0 && o->arch_suffix != 'a' && o->arch_suffix != 'f') {
        return inspect_fail(err, OCC_ERR_INVALID_ARGUMENT, -1, -1,
                            "options.arch_suffix %d: must be 0, 'a' or 'f'", (int)o->arch_suffix);
    }
    if (o->device != NULL) {
        occ_error e;
        if (occ_device_validate(o->device, &e) != OCC_OK) {
            return inspect_fail(err, OCC_ERR_INVALID_DEVICE, -1, -1, "options.device: %s",
                                e.message);
        }
    }
    return OCC_OK;
}

occ_status inspect_read_tuned(const occ_inspect_input *inputs, int input_count,
                              const occ_inspect_options *options, const inspect_part_tuning *tuning,
                              occ_inspect_result **out, occ_inspect_error *caller_err)
{
    occ_inspect_error local;
    occ_inspect_error *err = caller_err != NULL ? caller_err : &local;
    memset(err, 0, sizeof *err);
    err->input = -1;
    err->offset = -1;
    if (out == NULL || options == NULL || (inputs == NULL && input_count > 0)) {
        return inspect_fail(err, OCC_ERR_NULL_POINTER, -1, -1, "inputs, options or out is NULL");
    }
    *out = NULL;
    if (input_count < 1) {
        return inspect_fail(err, OCC_ERR_INVALID_ARGUMENT, -1, -1, "no input to read");
    }
    occ_status bad = check_options(options, err);
    if (bad != OCC_OK) {
        return bad;
    }
    occ_inspect_result *r = calloc(1, sizeof *r);
    collector *c = calloc(1, sizeof *c);
    int jobs = options->jobs > 0 ? options->jobs : inspect_default_jobs();
    worker *workers = calloc((size_t)jobs, sizeof *workers);
    if (r == NULL || c == NULL || workers == NULL) {
        free(r);
        free(c);
        free(workers);
        return inspect_fail(err, OCC_ERR_OUT_OF_MEMORY, -1, -1, "out of memory");
    }
    c->opts = options;
    c->jobs = jobs;
    c->filter = (insp_filter){options->arch_sm, options->arch_suffix, options->arch_any_suffix};
    c->page_bytes = sysconf(_SC_PAGESIZE);
    c->names = inspect_names_create();
    r->names = c->names;
    r->input_count = input_count;
    pthread_mutex_init(&c->error_lock, NULL);
    pthread_mutex_init(&c->budget_lock, NULL);
    pthread_mutex_init(&c->drop_lock, NULL);
    for (int i = 0; i < jobs; i++) {
        workers[i].c = c;
        if (tuning != NULL) {
            workers[i].scratch.part_min_bytes = tuning->min_bytes;
            workers[i].scratch.part_head_bytes = tuning->head_bytes;
            workers[i].scratch.part_tail_max_bytes = tuning->tail_max_bytes;
        }
    }
    c->files = calloc((size_t)input_count, sizeof *c->files);
    r->input_names = calloc((size_t)input_count, sizeof *r->input_names);
    r->input_formats = calloc((size_t)input_count, sizeof *r->input_formats);
    occ_status status =
        c->files != NULL && r->input_names != NULL && r->input_formats != NULL && c->names != NULL
            ? collect(c, workers, jobs, inputs, input_count, r, err)
            : inspect_fail(err, OCC_ERR_OUT_OF_MEMORY, -1, -1, "out of memory");
    collector_free(c, workers, jobs, input_count);
    r->sections = calloc((size_t)c->section_count + 1, sizeof *r->sections);
    if (r->sections != NULL) {
        if (c->section_count > 0) {
            memcpy(r->sections, c->section_names, (size_t)c->section_count * sizeof(char *));
        }
        r->section_count = c->section_count;
    } else {
        for (int i = 0; i < c->section_count; i++) {
            free(c->section_names[i]);
        }
        c->section_count = 0;
        if (status == OCC_OK) {
            status = inspect_fail(err, OCC_ERR_OUT_OF_MEMORY, -1, -1, "out of memory");
        }
    }
    free(c->section_names);
    free(c->section_slots);
    free(c);
    if (status != OCC_OK) {
        occ_inspect_result_free(r);
        return status;
    }
    *out = r;
    return OCC_OK;
}

int inspect_default_jobs(void)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    if (cores < 1) {
        return 1;
    }
    return cores > INSPECT_DEFAULT_JOBS_MAX ? INSPECT_DEFAULT_JOBS_MAX : (int)cores;
}

int occ_inspect_default_jobs(void)
{
    return inspect_default_jobs();
}
