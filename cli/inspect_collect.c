/*
 * inspect_collect.c - `occ inspect`'s reading: maps each file, splits it into
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
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "inspect_args.h"

/* A buffer larger than this is released after each task, so that sixteen
   threads do not each keep the largest entry they ever saw. */
#define SCRATCH_KEEP_BYTES (2u << 20)
/* Data sections are scanned for containers in parts of this size, in
   parallel (libcublasLt.so.13 has ~260 MB of them); small, since each
   thread holds its part's pages until it is scanned. */
#define SCAN_PART_BYTES (1u << 20)
/* The serial walk over entry headers forgets the pages behind it in steps
   of this size rather than one system call per entry. */
#define DROP_STEP_BYTES (16u << 20)
#define MAX_SECTIONS 256
/* Entries larger than SCRATCH_KEEP_BYTES share this many bytes of buffers
   between all threads: a thread waits rather than push the peak memory past
   it. Such entries hold most of the work: 385 of libcublasLt.so.13's 5,832
   zstd cubins (up to 16 MB each) and 596 of libtorch_cuda.so's 2,789 (up to
   64 MB) are above 2 MB. The budget sets how many are decompressed at once;
   measured on the H200 machine (16 cores, docs/results/inspect-h200/
   sweep.log), 32/64/96/128/192 MB gave libcublasLt.so.13 0.65/0.40/0.32/
   0.28/0.26 s at 109/141/168/202/264 MiB and libtorch_cuda.so 1.62/0.89/0.68/
   0.62/0.56 s at 135/160/193/226/291 MiB: 96 MB is the largest that keeps
   both well under 256 MB. A build may set another (-D). */
#ifndef OCC_LARGE_SCRATCH_BUDGET_MB
#define OCC_LARGE_SCRATCH_BUDGET_MB 96
#endif
#define LARGE_SCRATCH_BUDGET_BYTES ((size_t)OCC_LARGE_SCRATCH_BUDGET_MB << 20)

#define LARGE_POOL_BUFFERS 32

typedef struct large_buffer {
    uint8_t *data;
    size_t capacity;
    bool in_use;
} large_buffer;

typedef struct input_file {
    const char *path;
    uint8_t *data;
    size_t size;
    bool mapped;
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
    int section;           /* collector.section_names index, or -1 */
    size_t offset;         /* file bytes [offset, offset + size) */
    size_t size;
    size_t section_offset; /* TASK_SCAN: the whole section */
    size_t section_size;
    candidate *found;      /* TASK_SCAN: containers found, in file order */
    size_t found_count, found_cap;
} task;

typedef struct worker {
    struct collector *c;
    pthread_t thread;
    inspect_row *rows;
    size_t row_count, row_cap;
    size_t functions_read;
    double pool_wait_seconds;
    inspect_nodata nodata[INSPECT_MAX_NODATA];
    int nodata_count;
    int entries_skipped;
    insp_scratch scratch;
    int section;          /* of the task being read */
    bool failed;          /* out of memory */
} worker;

typedef struct collector {
    const inspect_options *opts;
    input_file *files;
    task *tasks;
    size_t task_count, task_cap;
    size_t round_start;   /* tasks [round_start, task_count) are this round's */
    atomic_size_t next_task;
    atomic_bool failed;
    pthread_mutex_t error_lock;
    char error[512];      /* the first failure: "FILE: offset N: reason" */
    long page_bytes;
    inspect_names *names; /* every function name, once */
    pthread_mutex_t budget_lock;
    pthread_cond_t budget_freed;
    large_buffer pool[LARGE_POOL_BUFFERS]; /* buffers for large entries, reused;
                                              data NULL: an empty slot */
    size_t pool_bytes;    /* capacity of every pooled buffer */
    size_t in_use_bytes;  /* capacity of the pooled buffers being used */
    size_t *deferred;     /* task indices set aside this round (budget_lock) */
    size_t deferred_count;
    char *section_names[MAX_SECTIONS];
    int section_count;
    /* set while one file is split into tasks */
    int file;
    int section;
    size_t drop_from;     /* pages before this are already forgotten */
} collector;

double inspect_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

const char *inspect_arch_name(int sm, char suffix, char *buf, size_t cap)
{
    if (suffix != 0) {
        snprintf(buf, cap, "sm_%d%c", sm, suffix);
    } else {
        snprintf(buf, cap, "sm_%d", sm);
    }
    return buf;
}

static void set_error(collector *c, const char *path, size_t offset, const char *message)
{
    pthread_mutex_lock(&c->error_lock);
    if (!atomic_load(&c->failed)) {
        snprintf(c->error, sizeof c->error, "%s: offset %zu: %s", path, offset, message);
        atomic_store(&c->failed, true);
    }
    pthread_mutex_unlock(&c->error_lock);
}

/* Can a cubin for (sm, suffix) run on the device? Same major, minor not
   above the device's; an "a" cubin only on its exact arch (CUDA C
   Programming Guide, "Binary Compatibility" and "Feature Availability"). */
static bool runs_on(int sm, char suffix, const occ_device *d)
{
    int major = sm / 10;
    int minor = sm % 10;
    if (suffix == 'a') {
        return major == d->cc_major && minor == d->cc_minor;
    }
    return major == d->cc_major && minor <= d->cc_minor;
}

static int product(const int dims[3])
{
    if (dims[0] <= 0) {
        return 0;
    }
    long long p = (long long)dims[0] * (dims[1] > 0 ? dims[1] : 1) * (dims[2] > 0 ? dims[2] : 1);
    return p > 1 << 20 ? 1 << 20 : (int)p;
}

/* The kernel's occupancy from libocc: at --threads, or at the block size the
   occupancy API picks within the kernel's launch bounds. */
static void compute_occupancy(inspect_row *row, const inspect_options *opts)
{
    const insp_function *f = &row->f;
    if (!f->is_kernel) {
        row->note = "device function";
        return;
    }
    occ_device dev;
    if (opts->have_device) {
        dev = opts->device;
        if (!runs_on(f->sm, f->arch_suffix, &dev)) {
            row->note = "arch does not run on this GPU";
            return;
        }
    } else if (occ_arch_find(f->sm / 10, f->sm % 10, &dev, NULL) != OCC_OK) {
        row->note = "arch not in the GPU database";
        return;
    }
    occ_kernel k;
    occ_kernel_init(&k);
    k.regs_per_thread = f->regs;
    k.static_smem_bytes = f->smem_bytes;
    k.dyn_smem_bytes = opts->dyn_smem_bytes;
    if (f->barriers != INSP_UNKNOWN) {
        k.barriers = f->barriers;
    }
    int bound = product(f->max_threads);
    int required = product(f->req_threads);
    if (required > 0) {
        bound = required;
    }
    if (bound > 0 && bound <= dev.max_threads_per_block) {
        k.max_threads_per_block = bound;
    }
    int threads = opts->threads;
    if (threads == 0 && required > 0) {
        threads = required;
    }
    if (threads == 0) {
        occ_block_size_result pick;
        if (occ_max_potential_block_size(&dev, &k, 0, NULL, NULL, &pick, NULL) != OCC_OK ||
            pick.block_size <= 0) {
            row->note = "no block size fits";
            return;
        }
        threads = pick.block_size;
    }
    k.block_x = threads;
    occ_result r;
    if (occ_calc(&dev, &k, &r, NULL) != OCC_OK) {
        row->note = "launch invalid on this GPU";
        return;
    }
    row->has_occupancy = true;
    snprintf(row->gpu, sizeof row->gpu, "%s", dev.name);
    row->threads = threads;
    row->blocks_per_sm = r.blocks_per_sm;
    row->warps_per_sm = r.warps_per_sm;
    row->max_warps_per_sm = r.max_warps_per_sm;
    row->occupancy = r.occupancy;
    row->limiters = r.blocks_per_sm > 0 ? r.limiters : 0;
    row->zero_reason = r.zero_reason;
}

/* The numbers that, with arch and mangled name, make two functions the same. */
static size_t identity_numbers(const insp_function *f, int out[24])
{
    const int v[] = {f->sm, f->arch_suffix, f->regs, f->smem_bytes, f->smem_section_bytes,
                     f->stack_bytes, f->frame_bytes, f->spill_store_bytes, f->spill_load_bytes,
                     f->spill_instructions, f->barriers, f->max_threads[0], f->max_threads[1],
                     f->max_threads[2], f->req_threads[0], f->max_regs, f->cluster_dims[0],
                     f->cluster_dims[1], f->cluster_dims[2], f->param_bytes, f->is_kernel,
                     f->relocatable, f->explicit_cluster, f->max_cluster_rank};
    memcpy(out, v, sizeof v);
    return sizeof v / sizeof v[0];
}

/* FNV-1a (64-bit) over the mangled name (continued from the name's own
   hash) and the numbers: duplicates are found by it, comparing names only
   where hashes are equal. */
static uint64_t identity_hash(const inspect_row *row)
{
    uint64_t h = row->interned->hash;
    int numbers[24];
    size_t n = identity_numbers(&row->f, numbers);
    for (size_t i = 0; i < n; i++) {
        h = (h ^ (uint32_t)numbers[i]) * 1099511628211ull;
    }
    return h;
}

static void on_function(void *context, const insp_function *f)
{
    worker *w = context;
    const inspect_options *opts = w->c->opts;
    w->functions_read++;
    if (w->failed || (!f->is_kernel && !opts->functions)) {
        return;
    }
    if (opts->arch.sm != 0 &&
        (f->sm != opts->arch.sm || (!opts->arch.any_suffix && f->arch_suffix != opts->arch.suffix))) {
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
    row->f = *f;
    row->f.name = NULL;
    row->count = 1;
    row->section = w->section;
    /* demangled later, once per distinct name (inspect_names_finish) */
    row->interned = inspect_names_add(w->c->names, f->name, f->name_len,
                                      inspect_name_hash(f->name, f->name_len));
    if (row->interned == NULL) {
        w->failed = true;
        return;
    }
    row->mangled = row->interned->mangled;
    row->name = row->mangled;
    row->identity = identity_hash(row);
    compute_occupancy(row, opts);
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
        inspect_nodata *n = &w->nodata[i];
        if (n->kind == e->kind && n->sm == e->sm && n->suffix == e->arch_suffix) {
            n->count++;
            return;
        }
    }
    if (w->nodata_count < INSPECT_MAX_NODATA) {
        w->nodata[w->nodata_count++] = (inspect_nodata){e->kind, e->sm, e->arch_suffix, 1};
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
        madvise(file->data + start, end - start, MADV_DONTNEED);
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
    t->found[t->found_count++] = (candidate){offset, size};
}

/* Frees unused pooled buffers, largest first, until `bytes` more fit in
   the budget or none is left to free. Called with budget_lock held. */
static void shrink_pool(collector *c, size_t bytes)
{
    while (c->pool_bytes + bytes > LARGE_SCRATCH_BUDGET_BYTES) {
        int largest = -1;
        for (int i = 0; i < LARGE_POOL_BUFFERS; i++) {
            if (c->pool[i].data != NULL && !c->pool[i].in_use &&
                (largest < 0 || c->pool[i].capacity > c->pool[largest].capacity)) {
                largest = i;
            }
        }
        if (largest < 0) {
            return;
        }
        /* the slot empties in place: other threads hold indices into the pool */
        free(c->pool[largest].data);
        c->pool_bytes -= c->pool[largest].capacity;
        c->pool[largest] = (large_buffer){NULL, 0, false};
    }
}

static int empty_slot(const collector *c)
{
    for (int i = 0; i < LARGE_POOL_BUFFERS; i++) {
        if (c->pool[i].data == NULL) {
            return i;
        }
    }
    return -1;
}

#define POOL_OUT_OF_MEMORY (-1)
#define POOL_BUSY (-2)

/*
 * A pooled buffer of at least `bytes` for one large entry: an unused one if
 * one is big enough, else a new one once the budget allows (at once if no
 * other is in use: an entry larger than the budget still gets read). Reusing
 * buffers spares the threads the page faults and unmapping that a fresh
 * buffer per entry costs. Returns the pool index, POOL_OUT_OF_MEMORY, or,
 * unless `wait`, POOL_BUSY where it would have to wait.
 */
static int acquire_buffer(collector *c, size_t bytes, bool wait, double *waited)
{
    pthread_mutex_lock(&c->budget_lock);
    int got = -1;
    for (;;) {
        for (int i = 0; i < LARGE_POOL_BUFFERS; i++) {
            const large_buffer *b = &c->pool[i];
            if (b->data != NULL && !b->in_use && b->capacity >= bytes &&
                (got < 0 || b->capacity < c->pool[got].capacity)) {
                got = i;
            }
        }
        if (got >= 0) {
            break;
        }
        if (c->in_use_bytes == 0 || c->in_use_bytes + bytes <= LARGE_SCRATCH_BUDGET_BYTES) {
            shrink_pool(c, bytes);
            int slot = empty_slot(c);
            if (slot < 0) {
                shrink_pool(c, SIZE_MAX / 2); /* every slot holds an unused buffer */
                slot = empty_slot(c);
            }
            uint8_t *data = slot >= 0 ? malloc(bytes) : NULL;
            if (data != NULL) {
                got = slot;
                c->pool[got] = (large_buffer){data, bytes, false};
                c->pool_bytes += bytes;
            } else if (slot >= 0 || c->in_use_bytes == 0) {
                break; /* out of memory */
            }
            if (got >= 0) {
                break;
            }
        }
        if (!wait) {
            got = POOL_BUSY;
            break;
        }
        double asleep = inspect_now();
        pthread_cond_wait(&c->budget_freed, &c->budget_lock);
        *waited += inspect_now() - asleep;
    }
    if (got >= 0) {
        c->pool[got].in_use = true;
        c->in_use_bytes += c->pool[got].capacity;
    }
    pthread_mutex_unlock(&c->budget_lock);
    return got;
}

static void release_buffer(collector *c, int index)
{
    pthread_mutex_lock(&c->budget_lock);
    c->pool[index].in_use = false;
    c->in_use_bytes -= c->pool[index].capacity;
    pthread_cond_broadcast(&c->budget_freed);
    pthread_mutex_unlock(&c->budget_lock);
}

/* Sets a large entry aside while the pool is full, for after the small ones. */
static void defer_task(collector *c, size_t index)
{
    pthread_mutex_lock(&c->budget_lock);
    c->deferred[c->deferred_count++] = index;
    pthread_mutex_unlock(&c->budget_lock);
}

/* Reads one fatbin entry, a large one in a pooled buffer; returns false with
   *deferred set where the pool is full and `wait` is not set. */
static bool read_entry_task(worker *w, const uint8_t *data, size_t size, bool wait,
                            bool *deferred, insp_error *err)
{
    collector *c = w->c;
    insp_sink sink = {on_function, on_entry, w};
    *deferred = false;
    size_t need = insp_fatbin_entry_scratch_bytes(data, size, &c->opts->arch);
    if (need <= SCRATCH_KEEP_BYTES) {
        return insp_fatbin_entry_parse(data, size, &c->opts->arch, &w->scratch, &sink, err);
    }
    int index = acquire_buffer(c, need, wait, &w->pool_wait_seconds);
    if (index == POOL_BUSY) {
        *deferred = true;
        return true;
    }
    if (index < 0) {
        w->failed = true;
        return true;
    }
    /* lend the pooled buffer to the worker's scratch (its zstd context stays) */
    uint8_t *own = w->scratch.data;
    size_t own_capacity = w->scratch.capacity;
    w->scratch.data = c->pool[index].data;
    w->scratch.capacity = c->pool[index].capacity;
    bool ok = insp_fatbin_entry_parse(data, size, &c->opts->arch, &w->scratch, &sink, err);
    /* the capacity sufficed, so the parser did not reallocate it */
    w->scratch.data = own;
    w->scratch.capacity = own_capacity;
    release_buffer(c, index);
    return ok;
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
    insp_error err = {0, ""};
    bool ok = true;
    w->section = t->section;
    switch (t->kind) {
    case TASK_SCAN:
        insp_fatbin_candidates(file->data, t->section_offset, t->section_size, t->offset,
                               t->offset + t->size, add_candidate, t);
        if (t->found_cap == SIZE_MAX) {
            w->failed = true;
        }
        break;
    case TASK_ENTRY: {
        bool deferred;
        ok = read_entry_task(w, data, t->size, wait, &deferred, &err);
        if (deferred) {
            defer_task(c, (size_t)(t - c->tasks));
            drop_pages(c, file, t->offset, t->size); /* what reading its header mapped */
            return;
        }
        break;
    }
    default:
        if (file->format == INSP_FORMAT_PTXAS_LOG) {
            ok = insp_ptxas_log_parse((const char *)data, t->size, &sink, &err);
        } else {
            ok = insp_cubin_parse(data, t->size, 0, &sink, &err);
        }
        break;
    }
    if (!ok) {
        set_error(c, file->path, t->offset + err.offset, err.message);
    }
    if (w->scratch.capacity > SCRATCH_KEEP_BYTES) {
        free(w->scratch.data);
        w->scratch.data = NULL;
        w->scratch.capacity = 0;
    }
    drop_pages(c, file, t->offset, t->size);
}

static void *worker_main(void *context)
{
    worker *w = context;
    collector *c = w->c;
    for (;;) {
        size_t i = c->round_start + atomic_fetch_add(&c->next_task, 1);
        if (i >= c->task_count || atomic_load(&c->failed) || w->failed) {
            break;
        }
        run_task(w, &c->tasks[i], false);
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
            if (!atomic_load(&c->failed)) {
                snprintf(c->error, sizeof c->error, "out of memory");
                atomic_store(&c->failed, true);
            }
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
    return t;
}

/* Forgets the walked pages before `offset` once DROP_STEP_BYTES have
   gathered, or at once when `now`. */
static void drop_walked(collector *c, size_t offset, bool now)
{
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
    add_task(c, TASK_ENTRY, offset, size);
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

static int section_index(collector *c, const char *name, size_t len)
{
    for (int i = 0; i < c->section_count; i++) {
        if (strlen(c->section_names[i]) == len && memcmp(c->section_names[i], name, len) == 0) {
            return i;
        }
    }
    if (c->section_count == MAX_SECTIONS) {
        return -1;
    }
    char *copy = malloc(len + 1);
    if (copy == NULL) {
        return -1;
    }
    memcpy(copy, name, len);
    copy[len] = '\0';
    c->section_names[c->section_count] = copy;
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
    walk->ok = insp_fatbin_regions(c->files[c->file].data + offset, size, offset, kind,
                                   add_region, &regions, walk->err) &&
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

static bool read_stdin(FILE *in, input_file *file)
{
    size_t cap = 1 << 16;
    size_t size = 0;
    uint8_t *buf = malloc(cap);
    size_t got;
    while (buf != NULL && (got = fread(buf + size, 1, cap - size, in)) > 0) {
        size += got;
        if (size == cap) {
            uint8_t *bigger = realloc(buf, cap *= 2);
            if (bigger == NULL) {
                free(buf);
            }
            buf = bigger;
        }
    }
    if (buf == NULL || ferror(in)) {
        free(buf);
        return false;
    }
    file->data = buf;
    file->size = size;
    return true;
}

/* Maps (or reads) one input and splits it into tasks. */
static int open_input(collector *c, int index, const cli_io *io)
{
    input_file *file = &c->files[index];
    if (strcmp(file->path, "-") == 0) {
        file->path = "<stdin>";
        if (!read_stdin(io->in, file)) {
            return cli_fail(io, "inspect", EXIT_DATA, "<stdin>: cannot read");
        }
    } else {
        int fd = open(file->path, O_RDONLY);
        struct stat st;
        if (fd < 0 || fstat(fd, &st) != 0) {
            int e = errno;
            if (fd >= 0) {
                close(fd);
            }
            return cli_fail(io, "inspect", EXIT_DATA, "%s: cannot open: %s", file->path,
                            strerror(e));
        }
        if (!S_ISREG(st.st_mode) || st.st_size == 0) {
            close(fd);
            return cli_fail(io, "inspect", EXIT_DATA, "%s: %s", file->path,
                            S_ISREG(st.st_mode) ? "is empty" : "is not a regular file");
        }
        file->size = (size_t)st.st_size;
        void *map = mmap(NULL, file->size, PROT_READ, MAP_PRIVATE, fd, 0);
        int e = errno;
        close(fd);
        if (map == MAP_FAILED) {
            return cli_fail(io, "inspect", EXIT_DATA, "%s: cannot map: %s", file->path,
                            strerror(e));
        }
        file->data = map;
        file->mapped = true;
    }
    file->format = insp_detect(file->data, file->size);
    c->file = index;
    c->section = -1;
    c->drop_from = 0;
    insp_error err = {0, ""};
    bool ok = true;
    switch (file->format) {
    case INSP_FORMAT_PTXAS_LOG:
    case INSP_FORMAT_CUBIN:
        add_task(c, TASK_WHOLE, 0, file->size);
        break;
    case INSP_FORMAT_FATBIN: {
        region_walk regions = {c, &err, true};
        ok = insp_fatbin_regions(file->data, file->size, 0, INSP_REGION_FILE, add_region,
                                 &regions, &err) &&
             regions.ok;
        drop_walked(c, file->size, true);
        break;
    }
    case INSP_FORMAT_HOST_ELF: {
        section_walk sections = {c, &err, true};
        ok = insp_host_elf_sections(file->data, file->size, c->opts->relfatbin, add_section,
                                    &sections, &err) &&
             sections.ok;
        break;
    }
    default:
        return cli_fail(io, "inspect", EXIT_DATA,
                        "%s: offset 0: not a ptxas log, cubin, fatbin or ELF file", file->path);
    }
    if (!ok) {
        return cli_fail(io, "inspect", EXIT_DATA, "%s: offset %zu: %s", file->path, err.offset,
                        err.message);
    }
    if (atomic_load(&c->failed)) {
        return cli_fail(io, "inspect", EXIT_DATA, "%s", c->error);
    }
    return EXIT_OK;
}

/* The same function: same arch, name and every number. */
static bool same_identity(const inspect_row *x, const inspect_row *y)
{
    if (x->identity != y->identity || x->interned != y->interned) {
        return false;
    }
    int xv[24];
    int yv[24];
    size_t n = identity_numbers(&x->f, xv);
    identity_numbers(&y->f, yv);
    return memcmp(xv, yv, n * sizeof xv[0]) == 0;
}

static int compare_nodata(const void *a, const void *b)
{
    const inspect_nodata *x = a;
    const inspect_nodata *y = b;
    if (x->kind != y->kind) {
        return x->kind < y->kind ? -1 : 1;
    }
    if (x->sm != y->sm) {
        return x->sm < y->sm ? -1 : 1;
    }
    return (x->suffix > y->suffix) - (x->suffix < y->suffix);
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
                first->count += rows[i].count;
                /* the section named is the first in file order, whichever thread read it */
                if (rows[i].section >= 0 && (first->section < 0 || rows[i].section < first->section)) {
                    first->section = rows[i].section;
                }
                rows[i].count = 0; /* merged */
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
        if (rows[i].count > 0) {
            rows[kept++] = rows[i];
        }
    }
    *kept_out = kept;
    return true;
}

static int merge_workers(worker *workers, int count, inspect_result *out)
{
    size_t total = 0;
    for (int i = 0; i < count; i++) {
        total += workers[i].row_count;
        out->functions_read += workers[i].functions_read;
        out->entries_skipped += workers[i].entries_skipped;
        out->pool_wait_seconds += workers[i].pool_wait_seconds;
    }
    out->rows = malloc((total > 0 ? total : 1) * sizeof *out->rows);
    if (out->rows == NULL) {
        return EXIT_DATA;
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
            inspect_nodata *add = &w->nodata[k];
            int j = 0;
            while (j < out->nodata_count &&
                   !(out->nodata[j].kind == add->kind && out->nodata[j].sm == add->sm &&
                     out->nodata[j].suffix == add->suffix)) {
                j++;
            }
            if (j < out->nodata_count) {
                out->nodata[j].count += add->count;
            } else if (out->nodata_count < INSPECT_MAX_NODATA) {
                out->nodata[out->nodata_count++] = *add;
            }
        }
    }
    /* in an order that does not depend on which thread read what */
    qsort(out->nodata, (size_t)out->nodata_count, sizeof *out->nodata, compare_nodata);
    if (!merge_duplicates(out->rows, n, &out->row_count)) {
        return EXIT_DATA;
    }
    return EXIT_OK;
}

/* Demangles and ranks the distinct names, then points each row at its own. */
static bool finish_names(collector *c, int jobs, inspect_result *out)
{
    if (!inspect_names_finish(c->names, !c->opts->mangled, jobs)) {
        return false;
    }
    for (size_t i = 0; i < out->row_count; i++) {
        out->rows[i].name = out->rows[i].interned->printed;
    }
    out->name_count = inspect_names_count(c->names);
    return true;
}

/* Runs tasks [round_start, task_count) on up to `jobs` threads. */
static int run_round(collector *c, worker *workers, int jobs, const cli_io *io)
{
    size_t count = c->task_count - c->round_start;
    if ((size_t)jobs > count) {
        jobs = count > 0 ? (int)count : 1;
    }
    atomic_store(&c->next_task, 0);
    free(c->deferred);
    c->deferred = malloc((count > 0 ? count : 1) * sizeof *c->deferred);
    c->deferred_count = 0;
    if (c->deferred == NULL) {
        return cli_fail(io, "inspect", EXIT_DATA, "out of memory");
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
    bool oom = false;
    for (int i = 0; i < jobs; i++) {
        oom = oom || workers[i].failed;
    }
    if (atomic_load(&c->failed)) {
        return cli_fail(io, "inspect", EXIT_DATA, "%s", c->error);
    }
    if (oom) {
        return cli_fail(io, "inspect", EXIT_DATA, "out of memory");
    }
    return EXIT_OK;
}

int inspect_collect(char **files, int file_count, const inspect_options *opts,
                    inspect_result *out, const cli_io *io)
{
    memset(out, 0, sizeof *out);
    collector c;
    memset(&c, 0, sizeof c);
    c.opts = opts;
    c.page_bytes = sysconf(_SC_PAGESIZE);
    c.names = inspect_names_create();
    out->names = c.names;
    pthread_mutex_init(&c.error_lock, NULL);
    pthread_mutex_init(&c.budget_lock, NULL);
    pthread_cond_init(&c.budget_freed, NULL);
    c.files = calloc((size_t)file_count, sizeof *c.files);
    out->file_names = calloc((size_t)file_count, sizeof *out->file_names);
    out->file_formats = calloc((size_t)file_count, sizeof *out->file_formats);
    int code = c.files != NULL && out->file_names != NULL && out->file_formats != NULL &&
                       c.names != NULL
                   ? EXIT_OK
                   : cli_fail(io, "inspect", EXIT_DATA, "out of memory");
    out->file_count = file_count;
    double start = inspect_now();
    for (int i = 0; code == EXIT_OK && i < file_count; i++) {
        c.files[i].path = files[i];
        code = open_input(&c, i, io);
        out->file_names[i] = files[i];
        out->file_formats[i] = c.files[i].format;
    }
    int jobs = opts->jobs > 0 ? opts->jobs : inspect_default_jobs();
    worker *workers = calloc((size_t)jobs, sizeof *workers);
    if (code == EXIT_OK && workers == NULL) {
        code = cli_fail(io, "inspect", EXIT_DATA, "out of memory");
    }
    for (int i = 0; workers != NULL && i < jobs; i++) {
        workers[i].c = &c;
    }
    out->split_seconds = inspect_now() - start;
    start = inspect_now();
    /* Round 1: entries of .nv_fatbin and fatbin files, and the scans of other
       sections; round 2: the entries of the containers those scans found. */
    for (int round = 0; code == EXIT_OK && round < 2; round++) {
        if (round == 1) {
            insp_error err = {0, ""};
            int bad_file = 0;
            size_t scanned = c.task_count;
            c.round_start = scanned;
            if (!add_scanned_containers(&c, scanned, &err, &bad_file)) {
                code = cli_fail(io, "inspect", EXIT_DATA, "%s: offset %zu: %s",
                                c.files[bad_file].path, err.offset, err.message);
                break;
            }
        }
        code = run_round(&c, workers, jobs, io);
        double now = inspect_now();
        *(round == 0 ? &out->read_seconds : &out->scanned_seconds) = now - start;
        start = now;
    }
    /* the buffers go before the merge, which holds the rows twice for a while */
    for (int i = 0; workers != NULL && i < jobs; i++) {
        insp_scratch_free(&workers[i].scratch);
    }
    for (int i = 0; i < LARGE_POOL_BUFFERS; i++) {
        free(c.pool[i].data);
    }
    if (code == EXIT_OK) {
        code = merge_workers(workers, jobs, out) == EXIT_OK
                   ? EXIT_OK
                   : cli_fail(io, "inspect", EXIT_DATA, "out of memory");
        out->merge_seconds = inspect_now() - start;
    }
    start = inspect_now();
    if (code == EXIT_OK && !finish_names(&c, jobs, out)) {
        code = cli_fail(io, "inspect", EXIT_DATA, "out of memory");
    }
    out->names_seconds = inspect_now() - start;
    for (int i = 0; workers != NULL && i < jobs; i++) {
        free(workers[i].rows);
    }
    free(workers);
    for (int i = 0; c.files != NULL && i < file_count; i++) {
        if (c.files[i].mapped) {
            munmap(c.files[i].data, c.files[i].size);
        } else {
            free(c.files[i].data);
        }
    }
    for (size_t i = 0; i < c.task_count; i++) {
        free(c.tasks[i].found);
    }
    free(c.files);
    free(c.tasks);
    free(c.deferred);
    pthread_mutex_destroy(&c.error_lock);
    pthread_mutex_destroy(&c.budget_lock);
    pthread_cond_destroy(&c.budget_freed);
    out->sections = calloc((size_t)c.section_count + 1, sizeof *out->sections);
    if (out->sections != NULL) {
        memcpy(out->sections, c.section_names, (size_t)c.section_count * sizeof(char *));
        out->section_count = c.section_count;
    } else {
        for (int i = 0; i < c.section_count; i++) {
            free(c.section_names[i]);
        }
        if (code == EXIT_OK) {
            code = cli_fail(io, "inspect", EXIT_DATA, "out of memory");
        }
    }
    return code;
}

void inspect_result_free(inspect_result *r)
{
    for (int i = 0; i < r->section_count; i++) {
        free(r->sections[i]);
    }
    free(r->sections);
    free(r->rows);
    free(r->file_names);
    free(r->file_formats);
    inspect_names_free(r->names);
    memset(r, 0, sizeof *r);
}

int inspect_default_jobs(void)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    if (cores < 1) {
        return 1;
    }
    return cores > INSPECT_DEFAULT_JOBS_MAX ? INSPECT_DEFAULT_JOBS_MAX : (int)cores;
}
