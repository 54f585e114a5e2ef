/*
 * inspect_collect.c - `occ inspect`'s reading: maps each file, splits it into
 * work items (one per fatbin container, or the whole file), reads the items
 * on --jobs threads, computes each kernel's occupancy through libocc, and
 * merges identical functions found in several places.
 *
 * Memory stays small on large libraries: the input is memory-mapped and the
 * pages of each container are dropped once it is read (MADV_DONTNEED on a
 * read-only file mapping only forgets them), each thread reuses one
 * decompression buffer, and only the compact rows are kept.
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
#include <unistd.h>

#include "inspect_args.h"

/* A buffer larger than this is released after each item, so that sixteen
   threads do not each keep the largest entry they ever saw. */
#define SCRATCH_KEEP_BYTES (8u << 20)
#define ARENA_BLOCK_BYTES (1u << 20)

typedef struct input_file {
    const char *path;
    uint8_t *data;
    size_t size;
    bool mapped;
    insp_format format;
} input_file;

typedef struct work_item {
    int file;
    size_t offset;
    size_t size;
} work_item;

typedef struct arena_block {
    struct arena_block *next;
    size_t used;
    size_t cap;
    char bytes[];
} arena_block;

typedef struct worker {
    struct collector *c;
    pthread_t thread;
    inspect_row *rows;
    size_t row_count, row_cap;
    size_t functions_read;
    arena_block *arena;
    inspect_nodata nodata[INSPECT_MAX_NODATA];
    int nodata_count;
    int entries_skipped;
    insp_scratch scratch;
    bool failed;          /* out of memory */
} worker;

typedef struct collector {
    const inspect_options *opts;
    input_file *files;
    work_item *items;
    size_t item_count, item_cap;
    atomic_size_t next_item;
    atomic_bool failed;
    pthread_mutex_t error_lock;
    char error[512];      /* the first failure: "FILE: offset N: reason" */
    long page_bytes;
    arena_block *arenas;  /* handed over from the workers */
} collector;

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

static char *arena_copy(worker *w, const char *text, size_t len)
{
    if (w->arena == NULL || w->arena->cap - w->arena->used < len + 1) {
        size_t cap = len + 1 > ARENA_BLOCK_BYTES ? len + 1 : ARENA_BLOCK_BYTES;
        arena_block *b = malloc(sizeof *b + cap);
        if (b == NULL) {
            return NULL;
        }
        b->next = w->arena;
        b->used = 0;
        b->cap = cap;
        w->arena = b;
    }
    char *out = w->arena->bytes + w->arena->used;
    memcpy(out, text, len);
    out[len] = '\0';
    w->arena->used += len + 1;
    return out;
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
    row->mangled = arena_copy(w, f->name, f->name_len);
    if (row->mangled == NULL) {
        w->failed = true;
        return;
    }
    row->name = row->mangled;
    if (!opts->mangled) {
        char *demangled = insp_demangle(row->mangled);
        if (demangled != NULL) {
            row->name = arena_copy(w, demangled, strlen(demangled));
            free(demangled);
            if (row->name == NULL) {
                w->failed = true;
                return;
            }
        }
    }
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

static void read_item(worker *w, const work_item *item)
{
    collector *c = w->c;
    const input_file *file = &c->files[item->file];
    const uint8_t *data = file->data + item->offset;
    insp_sink sink = {on_function, on_entry, w};
    insp_error err = {0, ""};
    bool ok = true;
    switch (file->format) {
    case INSP_FORMAT_PTXAS_LOG:
        ok = insp_ptxas_log_parse((const char *)data, item->size, &sink, &err);
        break;
    case INSP_FORMAT_CUBIN:
        ok = insp_cubin_parse(data, item->size, 0, &sink, &err);
        break;
    default: {
        size_t consumed;
        ok = insp_fatbin_parse(data, item->size, &c->opts->arch, &w->scratch, &sink, &consumed,
                               &err);
        break;
    }
    }
    if (!ok) {
        set_error(c, file->path, item->offset + err.offset, err.message);
    }
    if (w->scratch.capacity > SCRATCH_KEEP_BYTES) {
        insp_scratch_free(&w->scratch);
    }
    drop_pages(c, file, item->offset, item->size);
}

static void *worker_main(void *context)
{
    worker *w = context;
    collector *c = w->c;
    for (;;) {
        size_t i = atomic_fetch_add(&c->next_item, 1);
        if (i >= c->item_count || atomic_load(&c->failed) || w->failed) {
            break;
        }
        read_item(w, &c->items[i]);
    }
    return NULL;
}

static void add_item(void *context, size_t offset, size_t size, insp_region_kind kind)
{
    (void)kind;
    collector *c = context;
    if (c->item_count == c->item_cap) {
        size_t cap = c->item_cap > 0 ? c->item_cap * 2 : 64;
        work_item *bigger = realloc(c->items, cap * sizeof *bigger);
        if (bigger == NULL) {
            atomic_store(&c->failed, true);
            snprintf(c->error, sizeof c->error, "out of memory");
            return;
        }
        c->items = bigger;
        c->item_cap = cap;
    }
    /* the file index is the one being split: set by the caller afterwards */
    c->items[c->item_count++] = (work_item){-1, offset, size};
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

/* Maps (or reads) one input and splits it into work items. */
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
    size_t first = c->item_count;
    insp_error err = {0, ""};
    bool ok = true;
    switch (file->format) {
    case INSP_FORMAT_PTXAS_LOG:
    case INSP_FORMAT_CUBIN:
        add_item(c, 0, file->size, INSP_REGION_FILE);
        break;
    case INSP_FORMAT_FATBIN:
        ok = insp_fatbin_regions(file->data, file->size, 0, INSP_REGION_FILE, add_item, c, &err);
        break;
    case INSP_FORMAT_HOST_ELF:
        ok = insp_host_elf_fatbins(file->data, file->size, c->opts->relfatbin, add_item, c,
                                   &err);
        break;
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
    for (size_t i = first; i < c->item_count; i++) {
        c->items[i].file = index;
    }
    return EXIT_OK;
}

/* Orders rows so that identical functions sit together. */
static int compare_identity(const void *a, const void *b)
{
    const inspect_row *x = a;
    const inspect_row *y = b;
    if (x->f.sm != y->f.sm) {
        return x->f.sm < y->f.sm ? -1 : 1;
    }
    if (x->f.arch_suffix != y->f.arch_suffix) {
        return x->f.arch_suffix < y->f.arch_suffix ? -1 : 1;
    }
    int cmp = strcmp(x->mangled, y->mangled);
    if (cmp != 0) {
        return cmp;
    }
    const int xv[] = {x->f.regs, x->f.smem_bytes, x->f.smem_section_bytes, x->f.stack_bytes,
                      x->f.frame_bytes, x->f.spill_store_bytes, x->f.spill_load_bytes,
                      x->f.spill_instructions, x->f.barriers, x->f.max_threads[0],
                      x->f.max_threads[1], x->f.max_threads[2], x->f.req_threads[0],
                      x->f.max_regs, x->f.cluster_dims[0], x->f.cluster_dims[1],
                      x->f.cluster_dims[2], x->f.param_bytes, x->f.is_kernel,
                      x->f.relocatable, x->f.explicit_cluster, x->f.max_cluster_rank};
    const int yv[] = {y->f.regs, y->f.smem_bytes, y->f.smem_section_bytes, y->f.stack_bytes,
                      y->f.frame_bytes, y->f.spill_store_bytes, y->f.spill_load_bytes,
                      y->f.spill_instructions, y->f.barriers, y->f.max_threads[0],
                      y->f.max_threads[1], y->f.max_threads[2], y->f.req_threads[0],
                      y->f.max_regs, y->f.cluster_dims[0], y->f.cluster_dims[1],
                      y->f.cluster_dims[2], y->f.param_bytes, y->f.is_kernel,
                      y->f.relocatable, y->f.explicit_cluster, y->f.max_cluster_rank};
    for (size_t i = 0; i < sizeof xv / sizeof xv[0]; i++) {
        if (xv[i] != yv[i]) {
            return xv[i] < yv[i] ? -1 : 1;
        }
    }
    return 0;
}

static int merge_workers(collector *c, worker *workers, int count, inspect_result *out)
{
    size_t total = 0;
    for (int i = 0; i < count; i++) {
        total += workers[i].row_count;
        out->functions_read += workers[i].functions_read;
        out->entries_skipped += workers[i].entries_skipped;
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
        /* keep the names alive: chain the worker's arena onto the collector's */
        while (w->arena != NULL) {
            arena_block *b = w->arena;
            w->arena = b->next;
            b->next = c->arenas;
            c->arenas = b;
        }
    }
    qsort(out->rows, n, sizeof *out->rows, compare_identity);
    size_t kept = 0;
    for (size_t i = 0; i < n; i++) {
        if (kept > 0 && compare_identity(&out->rows[kept - 1], &out->rows[i]) == 0) {
            out->rows[kept - 1].count++;
        } else {
            out->rows[kept++] = out->rows[i];
        }
    }
    out->row_count = kept;
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
    pthread_mutex_init(&c.error_lock, NULL);
    c.files = calloc((size_t)file_count, sizeof *c.files);
    out->file_names = calloc((size_t)file_count, sizeof *out->file_names);
    out->file_formats = calloc((size_t)file_count, sizeof *out->file_formats);
    int code = c.files != NULL && out->file_names != NULL && out->file_formats != NULL
                   ? EXIT_OK
                   : cli_fail(io, "inspect", EXIT_DATA, "out of memory");
    out->file_count = file_count;
    for (int i = 0; code == EXIT_OK && i < file_count; i++) {
        c.files[i].path = files[i];
        code = open_input(&c, i, io);
        out->file_names[i] = files[i];
        out->file_formats[i] = c.files[i].format;
    }
    int jobs = opts->jobs > 0 ? opts->jobs : (int)sysconf(_SC_NPROCESSORS_ONLN);
    if (jobs < 1) {
        jobs = 1;
    }
    if ((size_t)jobs > c.item_count) {
        jobs = c.item_count > 0 ? (int)c.item_count : 1;
    }
    worker *workers = calloc((size_t)jobs, sizeof *workers);
    if (code == EXIT_OK && workers == NULL) {
        code = cli_fail(io, "inspect", EXIT_DATA, "out of memory");
    }
    if (code == EXIT_OK) {
        int started = 0;
        for (int i = 0; i < jobs; i++) {
            workers[i].c = &c;
        }
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
        if (atomic_load(&c.failed)) {
            code = cli_fail(io, "inspect", EXIT_DATA, "%s", c.error);
        } else if (oom) {
            code = cli_fail(io, "inspect", EXIT_DATA, "out of memory");
        } else {
            code = merge_workers(&c, workers, jobs, out);
        }
    }
    for (int i = 0; workers != NULL && i < jobs; i++) {
        free(workers[i].rows);
        insp_scratch_free(&workers[i].scratch);
        while (workers[i].arena != NULL) {
            arena_block *b = workers[i].arena;
            workers[i].arena = b->next;
            free(b);
        }
    }
    free(workers);
    for (int i = 0; c.files != NULL && i < file_count; i++) {
        if (c.files[i].mapped) {
            munmap(c.files[i].data, c.files[i].size);
        } else {
            free(c.files[i].data);
        }
    }
    free(c.files);
    free(c.items);
    pthread_mutex_destroy(&c.error_lock);
    out->arenas = c.arenas;
    return code;
}

void inspect_result_free(inspect_result *r)
{
    free(r->rows);
    free(r->file_names);
    free(r->file_formats);
    arena_block *b = r->arenas;
    while (b != NULL) {
        arena_block *next = b->next;
        free(b);
        b = next;
    }
    memset(r, 0, sizeof *r);
}
