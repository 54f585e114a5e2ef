/*
 * regs_bench.cu - the measuring half of `occ lab regs` (issue 20): one
 * binary times every cubin of every kernel in lab/regs/kernels.tsv, each
 * compiled at no register cap and at every cap (tests/gpu/run_regs_lab.sh
 * builds them), through the CUDA driver API, so no kernel is linked in.
 *
 *   regs_bench [--launch-timeout S] [--watchdog S] [--rounds N] [--distinct] \
 *       KERNELS.tsv CUBIN_DIR [KERNEL ...] > records.jsonl
 *
 * CUBIN_DIR holds NAME.none.cubin and NAME.capNNN.cubin for each row NAME of
 * the table (KERNEL ... picks rows). Every cubin exports one
 * `extern "C" __global__ void kernel(const float *in, float *out, int n)`;
 * n = 2^24 floats of in hold a fixed pseudo-random pattern in [-1, 1).
 * Per cubin: the registers, local memory and blocks an SM the driver
 * reports, 3 warm-up launches, 21 timed launches (median and min, ms, CUDA
 * events around each), and the output's checksums and hash. One JSON object
 * a line on stdout, progress on stderr.
 *
 * Records: "regs_header" (the GPU, the driver, the settings), one
 * "regs_time" or "regs_error" per cubin and round, a "regs_same" per cubin
 * --distinct left untimed, and "regs_done". Each time and error carries its
 * "round" and the cubin's "code_hash": a hash of its .text sections and
 * their register counts, equal for two compiles that run the same machine
 * code with the same registers (most caps of a kernel: ptxas often makes
 * one code for many caps). --distinct times one cubin of each code and
 * names the others "regs_same", with the cubin whose time they share: the
 * difference between two timings of one code is noise, never a cap's
 * effect. --rounds N times every cubin N times, all cubins once a round, so
 * that a slow drift of the clocks falls on every cap alike; the analysis
 * takes a compile's median over its rounds. A kernel is
 * correct at a cap ("checked": true) when its outputs are all finite and
 * bit-for-bit those of the kernel's reference cubin (the no-cap one, or the
 * first that ran): the same PTX must compute the same result at every cap.
 *
 * Failures are records, never a crash. A kernel can hang: a setmaxnreg
 * kernel whose block starts with fewer registers than its warp groups ask
 * for waits forever (ws_gemm_nolb). So the measuring runs in a child
 * process that the parent restarts: the child gives up on a launch after
 * --launch-timeout seconds (default 2; a healthy launch here takes well
 * under 0.1 s) and exits, which makes the driver tear the hung context
 * down; the parent also kills a child that says nothing for --watchdog
 * seconds (default 25 launch timeouts and a minute), and goes on with the
 * next cubin. The parent never touches CUDA (a CUDA context does not
 * survive fork). lab/regs/test_regs_bench.sh drives every such path with a
 * fake libcuda (lab/regs/fake_libcuda.c).
 */
#include <cuda.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define BENCH_N (1 << 24) /* floats of in and of out: 64 MiB each */
#define BENCH_WARMUPS 3
#define BENCH_RUNS 21
#define BENCH_MAX_KERNELS 128
#define BENCH_MAX_JOBS 8192
#define BENCH_TEXT 256   /* a table cell, a path */
#define BENCH_LINE 4096  /* a record */
#define BENCH_POLL_US 20 /* sleep between polls of a launch's end event */

/* Exit codes of the child: what the parent does next. */
enum {
    CHILD_DONE = 0,   /* every job from its start reported */
    CHILD_FATAL = 3,  /* no GPU, no driver, no memory: stop everything */
    CHILD_RESTART = 4 /* the context is gone (a hang, a sticky error): go on
                         in a new child after the job it reported */
};

typedef struct bench_kernel {
    char name[BENCH_TEXT];
    char file[BENCH_TEXT];
    char arch[16];
    char grid_rule[64];
    char outputs_rule[64];
    int threads;
    long long grid;    /* blocks, the rule applied to n and threads */
    long long outputs; /* floats of out the kernel writes, checked */
    int dyn_smem_bytes;
} bench_kernel;

typedef struct bench_job {
    int kernel;             /* index into the kernels */
    int cap;                /* --maxrregcount; -1: none */
    char cubin[BENCH_TEXT]; /* file name inside the cubin directory */
    uint64_t code_hash;     /* the machine code and its registers (cubin_code_hash) */
    int round;              /* 1..rounds */
} bench_job;

/* A cubin of --distinct not timed: its code is that of an earlier one. */
typedef struct bench_same {
    int kernel;
    int cap;
    char cubin[BENCH_TEXT];
    uint64_t code_hash;
    int same_as_cap;
    char same_as_cubin[BENCH_TEXT];
} bench_same;

typedef struct bench_config {
    const char *table_path;
    const char *cubin_dir;
    double launch_timeout_s;
    double watchdog_s; /* 0: from the launch timeout */
    bench_kernel kernels[BENCH_MAX_KERNELS];
    int kernel_count;
    bench_job *jobs;
    int job_count;
    int rounds;    /* --rounds: every timed cubin this many times, round by round */
    bool distinct; /* --distinct: a cubin whose code equals an earlier one's is not timed */
    bench_same *same;
    int same_count;
} bench_config;

/* --- text ------------------------------------------------------------------ */

/* Appends to a fixed buffer; output past its end is dropped, never written
   out of bounds. */
typedef struct text_buf {
    char text[BENCH_LINE];
    size_t used;
} text_buf;

static void text_add(text_buf *b, const char *format, ...) __attribute__((format(printf, 2, 3)));

static void text_add(text_buf *b, const char *format, ...)
{
    if (b->used >= sizeof b->text - 1) {
        return;
    }
    va_list ap;
    va_start(ap, format);
    int n = vsnprintf(b->text + b->used, sizeof b->text - b->used, format, ap);
    va_end(ap);
    if (n > 0) {
        b->used += (size_t)n;
        if (b->used > sizeof b->text - 1) {
            b->used = sizeof b->text - 1;
        }
    }
}

/* A JSON string: quotes, backslashes and control characters escaped. */
static void text_add_str(text_buf *b, const char *s)
{
    text_add(b, "\"");
    for (const unsigned char *p = (const unsigned char *)s; *p != '\0'; p++) {
        if (*p == '"' || *p == '\\') {
            text_add(b, "\\%c", *p);
        } else if (*p < 0x20) {
            text_add(b, "\\u%04x", *p);
        } else {
            text_add(b, "%c", *p);
        }
    }
    text_add(b, "\"");
}

/* A number JSON can hold: NaN and infinities become null. */
static void text_add_num(text_buf *b, double v)
{
    if (isfinite(v)) {
        text_add(b, "%.6g", v);
    } else {
        text_add(b, "null");
    }
}

static void text_add_cap(text_buf *b, int cap)
{
    if (cap < 0) {
        text_add(b, "null");
    } else {
        text_add(b, "%d", cap);
    }
}

/* The tags of a job's record: its round and the hash of its code. */
static void text_add_job_tags(text_buf *b, const bench_job *j)
{
    text_add(b, ",\"round\":%d,\"code_hash\":\"%016llx\"", j->round,
             (unsigned long long)j->code_hash);
}

/* The error's name; a number where the driver knows no name (the toolkit's
   stub libcuda knows none). */
static const char *cuda_error_name(CUresult r)
{
    static char number[32];
    const char *name = NULL;
    if (cuGetErrorName(r, &name) != CUDA_SUCCESS || name == NULL) {
        snprintf(number, sizeof number, "CUresult %d", (int)r);
        return number;
    }
    return name;
}

static const char *cuda_error_text(CUresult r)
{
    const char *text = NULL;
    if (cuGetErrorString(r, &text) != CUDA_SUCCESS || text == NULL) {
        return "unknown error";
    }
    return text;
}

/* --- the kernel table -------------------------------------------------------- */

/* "n/threads", "n/K", "n" or a count, for n floats and T threads; -1 when
   the rule is none of these or does not divide exactly. */
static long long apply_rule(const char *rule, long long n, int threads)
{
    char *end = NULL;
    if (strcmp(rule, "n") == 0) {
        return n;
    }
    if (strncmp(rule, "n/", 2) == 0) {
        long long d = strcmp(rule + 2, "threads") == 0 ? threads : strtoll(rule + 2, &end, 10);
        if (d <= 0 || (end != NULL && *end != '\0') || n % d != 0) {
            return -1;
        }
        return n / d;
    }
    errno = 0;
    long long v = strtoll(rule, &end, 10);
    if (errno != 0 || end == rule || *end != '\0' || v <= 0) {
        return -1;
    }
    return v;
}

static void copy_cell(char *dst, size_t cap, const char *src)
{
    snprintf(dst, cap, "%s", src);
}

/* Splits line at tabs into at most max cells (in place); returns the count. */
static int split_tabs(char *line, char **cells, int max)
{
    int count = 0;
    char *p = line;
    while (count < max) {
        cells[count++] = p;
        char *tab = strchr(p, '\t');
        if (tab == NULL) {
            break;
        }
        *tab = '\0';
        p = tab + 1;
    }
    return count;
}

/* Reads the table; on failure writes one line to err. Columns are found by
   the header's names, so columns may be added. */
static int read_table(bench_config *cfg, char *err, size_t err_cap)
{
    FILE *f = fopen(cfg->table_path, "r");
    if (f == NULL) {
        snprintf(err, err_cap, "%s: %s", cfg->table_path, strerror(errno));
        return 0;
    }
    enum { COL_NAME, COL_FILE, COL_THREADS, COL_GRID, COL_DYN, COL_ARCH, COL_OUTPUTS, COL_COUNT };
    static const char *const wanted[COL_COUNT] = {"name",           "file", "threads", "grid",
                                                  "dyn_smem_bytes", "arch", "outputs"};
    int column[COL_COUNT];
    bool have_header = false;
    char line[BENCH_LINE];
    int line_no = 0;
    int ok = 1;
    while (ok && fgets(line, sizeof line, f) != NULL) {
        line_no++;
        line[strcspn(line, "\r\n")] = '\0';
        if (line[0] == '\0' || line[0] == '#') {
            continue;
        }
        char *cells[32];
        int count = split_tabs(line, cells, 32);
        if (!have_header) {
            for (int c = 0; c < COL_COUNT; c++) {
                column[c] = -1;
                for (int i = 0; i < count; i++) {
                    if (strcmp(cells[i], wanted[c]) == 0) {
                        column[c] = i;
                    }
                }
                if (column[c] < 0) {
                    snprintf(err, err_cap, "%s: line %d: the header has no column '%s'",
                             cfg->table_path, line_no, wanted[c]);
                    ok = 0;
                    break;
                }
            }
            have_header = true;
            continue;
        }
        if (cfg->kernel_count == BENCH_MAX_KERNELS) {
            snprintf(err, err_cap, "%s: more than %d kernels", cfg->table_path, BENCH_MAX_KERNELS);
            ok = 0;
            break;
        }
        bool short_row = false;
        for (int c = 0; c < COL_COUNT; c++) {
            short_row = short_row || column[c] >= count;
        }
        if (short_row) {
            snprintf(err, err_cap, "%s: line %d: %d cells, fewer than the header's",
                     cfg->table_path, line_no, count);
            ok = 0;
            break;
        }
        bench_kernel *k = &cfg->kernels[cfg->kernel_count];
        memset(k, 0, sizeof *k);
        copy_cell(k->name, sizeof k->name, cells[column[COL_NAME]]);
        copy_cell(k->file, sizeof k->file, cells[column[COL_FILE]]);
        copy_cell(k->arch, sizeof k->arch, cells[column[COL_ARCH]]);
        copy_cell(k->grid_rule, sizeof k->grid_rule, cells[column[COL_GRID]]);
        copy_cell(k->outputs_rule, sizeof k->outputs_rule, cells[column[COL_OUTPUTS]]);
        char *end = NULL;
        long threads = strtol(cells[column[COL_THREADS]], &end, 10);
        long dyn = strtol(cells[column[COL_DYN]], &end, 10);
        k->threads = threads > 0 && threads <= 1024 ? (int)threads : -1;
        k->dyn_smem_bytes = dyn >= 0 && dyn <= (1 << 20) ? (int)dyn : -1;
        k->grid = k->threads > 0 ? apply_rule(k->grid_rule, BENCH_N, k->threads) : -1;
        k->outputs = k->threads > 0 ? apply_rule(k->outputs_rule, BENCH_N, k->threads) : -1;
        const char *bad =
            k->threads < 0                            ? "threads (1 to 1,024)"
            : k->dyn_smem_bytes < 0                   ? "dyn_smem_bytes"
            : k->grid <= 0 || k->grid > INT32_MAX     ? "grid ('n/threads', 'n/K' or a count)"
            : k->outputs <= 0 || k->outputs > BENCH_N ? "outputs ('n', 'n/K' or a count, at most n)"
                                                      : NULL;
        if (bad != NULL) {
            snprintf(err, err_cap, "%s: line %d: kernel %s: bad %s", cfg->table_path, line_no,
                     k->name, bad);
            ok = 0;
            break;
        }
        cfg->kernel_count++;
    }
    fclose(f);
    if (ok && cfg->kernel_count == 0) {
        snprintf(err, err_cap, "%s: no kernels", cfg->table_path);
        ok = 0;
    }
    return ok;
}

/* --- the jobs: each kernel's cubins, none first, then the caps upwards ------- */

/* The cap of "NAME.capNNN.cubin" or -1 for "NAME.none.cubin"; -2: not one
   of this kernel's. */
static int cubin_cap(const char *file, const char *name)
{
    size_t len = strlen(name);
    if (strncmp(file, name, len) != 0 || file[len] != '.') {
        return -2;
    }
    const char *rest = file + len + 1;
    if (strcmp(rest, "none.cubin") == 0) {
        return -1;
    }
    if (strncmp(rest, "cap", 3) != 0) {
        return -2;
    }
    char *end = NULL;
    long cap = strtol(rest + 3, &end, 10);
    if (end == rest + 3 || strcmp(end, ".cubin") != 0 || cap < 1 || cap > 255) {
        return -2;
    }
    return (int)cap;
}

static int job_order(const void *a, const void *b)
{
    const bench_job *x = (const bench_job *)a;
    const bench_job *y = (const bench_job *)b;
    if (x->kernel != y->kernel) {
        return x->kernel - y->kernel;
    }
    return x->cap - y->cap;
}

/* FNV-1a, 64 bits: enough to tell compiles of one kernel apart. */
static uint64_t fnv1a(uint64_t h, const void *data, size_t size)
{
    const unsigned char *p = (const unsigned char *)data;
    for (size_t i = 0; i < size; i++) {
        h = (h ^ p[i]) * 0x100000001b3ull;
    }
    return h;
}

static uint64_t read_le(const unsigned char *p, int bytes)
{
    uint64_t v = 0;
    for (int i = bytes - 1; i >= 0; i--) {
        v = (v << 8) | p[i];
    }
    return v;
}

/* The hash of a cubin's machine code with its registers: the name, sh_info
   and the bytes of every ".text*" section of the ELF64 file, and the
   module's ".nv.info" section, whose REGCOUNT attribute holds each
   function's register count (and FRAME_SIZE, MIN_STACK_SIZE its stack; old
   cubins keep the count in the top byte of the .text section's sh_info).
   Two compiles with the same hash run the same instructions with the same
   registers and stack. The rest (the cap ptxas was given, in the function's
   .nv.info.NAME, and its notes) can differ: ptxas gives ws_gemm_nolb the
   same instructions at caps 24 to 168 and only the REGCOUNT differs, which
   decides whether it launches, hangs or runs. 0 when the file is not a
   readable ELF64 cubin: such a cubin is never merged. */
static uint64_t cubin_code_hash(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        return 0;
    }
    unsigned char *d = NULL;
    long size = -1;
    if (fseek(f, 0, SEEK_END) == 0 && (size = ftell(f)) > 64 && size <= (64L << 20) &&
        fseek(f, 0, SEEK_SET) == 0) {
        d = (unsigned char *)malloc((size_t)size);
        if (d != NULL && fread(d, 1, (size_t)size, f) != (size_t)size) {
            free(d);
            d = NULL;
        }
    }
    fclose(f);
    if (d == NULL) {
        return 0;
    }
    uint64_t h = 0;
    const uint64_t n = (uint64_t)size;
    if (memcmp(d, "\177ELF", 4) == 0 && d[4] == 2 && d[5] == 1) {
        const uint64_t shoff = read_le(d + 0x28, 8);
        const uint64_t entsize = read_le(d + 0x3a, 2);
        const uint64_t shnum = read_le(d + 0x3c, 2);
        const uint64_t strndx = read_le(d + 0x3e, 2);
        if (entsize >= 64 && shnum > 0 && strndx < shnum && shoff < n &&
            shnum * entsize <= n - shoff) {
            const unsigned char *str = d + shoff + strndx * entsize;
            const uint64_t str_off = read_le(str + 0x18, 8);
            const uint64_t str_size = read_le(str + 0x20, 8);
            if (str_off < n && str_size <= n - str_off) {
                h = 0xcbf29ce484222325ull;
                for (uint64_t i = 0; i < shnum; i++) {
                    const unsigned char *sh = d + shoff + i * entsize;
                    const uint64_t name = read_le(sh, 4);
                    const uint64_t type = read_le(sh + 4, 4);
                    const uint64_t off = read_le(sh + 0x18, 8);
                    const uint64_t len = read_le(sh + 0x20, 8);
                    const unsigned char *label = d + str_off + name;
                    const bool text = name + 6 <= str_size && memcmp(label, ".text", 5) == 0;
                    /* ".nv.info" with its NUL: the module's, not a function's */
                    const bool info = name + 9 <= str_size && memcmp(label, ".nv.info", 9) == 0;
                    if (!text && !info) {
                        continue;
                    }
                    const char *sec = (const char *)(d + str_off + name);
                    size_t name_len = strnlen(sec, (size_t)(str_size - name));
                    h = fnv1a(h, sec, name_len);
                    h = fnv1a(h, sh + 0x2c, 4); /* sh_info */
                    if (type != 8 /* SHT_NOBITS */ && off < n && len <= n - off) {
                        h = fnv1a(h, d + off, (size_t)len);
                    }
                }
            }
        }
    }
    free(d);
    return h;
}

/* --distinct: moves each cubin whose code equals an earlier cubin's of the
   same kernel (none first, then the caps upwards) to cfg->same. */
static int merge_same_code(bench_config *cfg, char *err, size_t err_cap)
{
    cfg->same = (bench_same *)calloc((size_t)cfg->job_count + 1, sizeof(bench_same));
    if (cfg->same == NULL) {
        snprintf(err, err_cap, "out of memory");
        return 0;
    }
    int kept = 0;
    for (int i = 0; i < cfg->job_count; i++) {
        const bench_job *j = &cfg->jobs[i];
        const bench_job *first = NULL;
        for (int e = 0; e < kept && j->code_hash != 0 && first == NULL; e++) {
            if (cfg->jobs[e].kernel == j->kernel && cfg->jobs[e].code_hash == j->code_hash) {
                first = &cfg->jobs[e];
            }
        }
        if (first == NULL) {
            cfg->jobs[kept++] = *j;
            continue;
        }
        bench_same *m = &cfg->same[cfg->same_count++];
        m->kernel = j->kernel;
        m->cap = j->cap;
        copy_cell(m->cubin, sizeof m->cubin, j->cubin);
        m->code_hash = j->code_hash;
        m->same_as_cap = first->cap;
        copy_cell(m->same_as_cubin, sizeof m->same_as_cubin, first->cubin);
    }
    cfg->job_count = kept;
    return 1;
}

/* --rounds: the timed cubins again and again, round by round, so that a
   drift of the GPU's clocks falls on every cap alike. */
static int repeat_rounds(bench_config *cfg, char *err, size_t err_cap)
{
    if ((long long)cfg->job_count * cfg->rounds > BENCH_MAX_JOBS) {
        snprintf(err, err_cap, "%d cubins x %d rounds: more than %d timings", cfg->job_count,
                 cfg->rounds, BENCH_MAX_JOBS);
        return 0;
    }
    for (int r = 1; r < cfg->rounds; r++) {
        for (int i = 0; i < cfg->job_count; i++) {
            bench_job *copy = &cfg->jobs[r * cfg->job_count + i];
            *copy = cfg->jobs[i];
            copy->round = r + 1;
        }
    }
    cfg->job_count *= cfg->rounds;
    return 1;
}

static int list_jobs(bench_config *cfg, char *err, size_t err_cap)
{
    DIR *dir = opendir(cfg->cubin_dir);
    if (dir == NULL) {
        snprintf(err, err_cap, "%s: %s", cfg->cubin_dir, strerror(errno));
        return 0;
    }
    cfg->jobs = (bench_job *)calloc(BENCH_MAX_JOBS, sizeof(bench_job));
    if (cfg->jobs == NULL) {
        closedir(dir);
        snprintf(err, err_cap, "out of memory");
        return 0;
    }
    int ok = 1;
    struct dirent *e;
    while (ok && (e = readdir(dir)) != NULL) {
        for (int k = 0; k < cfg->kernel_count; k++) {
            int cap = cubin_cap(e->d_name, cfg->kernels[k].name);
            if (cap == -2) {
                continue;
            }
            if (cfg->job_count == BENCH_MAX_JOBS) {
                snprintf(err, err_cap, "%s: more than %d cubins", cfg->cubin_dir, BENCH_MAX_JOBS);
                ok = 0;
                break;
            }
            bench_job *j = &cfg->jobs[cfg->job_count++];
            j->kernel = k;
            j->cap = cap;
            j->round = 1;
            copy_cell(j->cubin, sizeof j->cubin, e->d_name);
            char path[2 * BENCH_TEXT + 2];
            snprintf(path, sizeof path, "%s/%s", cfg->cubin_dir, e->d_name);
            j->code_hash = cubin_code_hash(path);
        }
    }
    closedir(dir);
    qsort(cfg->jobs, (size_t)cfg->job_count, sizeof(bench_job), job_order);
    if (ok && cfg->distinct) {
        ok = merge_same_code(cfg, err, err_cap);
    }
    if (ok) {
        ok = repeat_rounds(cfg, err, err_cap);
    }
    return ok;
}

/* --- the child: CUDA ------------------------------------------------------------ */

typedef struct bench_gpu {
    CUdevice device;
    CUcontext context;
    CUdeviceptr in;
    CUdeviceptr out;
    float *host; /* BENCH_N floats: the input, then each output read back */
    CUevent start;
    CUevent stop;
    int max_warps_per_sm;
} bench_gpu;

static FILE *child_out; /* the pipe to the parent */

static void child_send(const char *kind, int job, const text_buf *b)
{
    if (job >= 0) {
        fprintf(child_out, "%s %d %s\n", kind, job, b->text);
    } else {
        fprintf(child_out, "%s %s\n", kind, b->text);
    }
    fflush(child_out);
}

/* A record of kind "regs_error" for job j (or none: j NULL), sent as kind
   ("E" job, "F" fatal); extra: more fields (",\"regs\":40"), or NULL. */
static void child_error(const bench_config *cfg, const bench_job *j, int job, const char *kind,
                        const char *stage, const char *extra, CUresult r, const char *format, ...)
    __attribute__((format(printf, 8, 9)));

static void child_error(const bench_config *cfg, const bench_job *j, int job, const char *kind,
                        const char *stage, const char *extra, CUresult r, const char *format, ...)
{
    char message[1024];
    va_list ap;
    va_start(ap, format);
    vsnprintf(message, sizeof message, format, ap);
    va_end(ap);
    text_buf b;
    b.used = 0;
    text_add(&b, "{\"record\":\"regs_error\"");
    if (j != NULL) {
        text_add(&b, ",\"kernel\":");
        text_add_str(&b, cfg->kernels[j->kernel].name);
        text_add(&b, ",\"cap\":");
        text_add_cap(&b, j->cap);
        text_add(&b, ",\"cubin\":");
        text_add_str(&b, j->cubin);
        text_add_job_tags(&b, j);
    }
    if (extra != NULL) {
        text_add(&b, "%s", extra);
    }
    text_add(&b, ",\"stage\":");
    text_add_str(&b, stage);
    if (r != CUDA_SUCCESS) {
        text_add(&b, ",\"cuda_error\":");
        text_add_str(&b, cuda_error_name(r));
    }
    text_add(&b, ",\"error\":");
    text_add_str(&b, message);
    text_add(&b, "}");
    child_send(kind, job, &b);
}

/* Numerical Recipes' LCG, as the lab's experiments fill their inputs. */
static void fill_input(float *host)
{
    unsigned state = 20240601u;
    for (size_t i = 0; i < BENCH_N; i++) {
        state = state * 1664525u + 1013904223u;
        host[i] = (float)(state >> 8) * (2.0f / 16777216.0f) - 1.0f;
    }
}

/* A word like "580.159.04": digits and dots, starting with a digit, with a dot. */
static bool is_version_word(const char *word)
{
    if (word[0] < '0' || word[0] > '9' || strchr(word, '.') == NULL) {
        return false;
    }
    return strspn(word, "0123456789.") == strlen(word);
}

/* The kernel module's version from the first line of
   /proc/driver/nvidia/version (REGS_BENCH_DRIVER_VERSION_FILE names another
   file, for the test): the first version-like word after "NVRM version:",
   which the proprietary module prints after "Kernel Module" ("NVIDIA UNIX
   x86_64 Kernel Module  580.65.06  Sun Jul ...") and the open one after
   "for x86_64" ("NVIDIA UNIX Open Kernel Module for x86_64  580.159.04
   Release Build ..."). "" when there is none. */
static void driver_version_text(char *out, size_t cap)
{
    copy_cell(out, cap, "");
    const char *path = getenv("REGS_BENCH_DRIVER_VERSION_FILE");
    FILE *f = fopen(path != NULL ? path : "/proc/driver/nvidia/version", "r");
    if (f == NULL) {
        return;
    }
    char line[512];
    if (fgets(line, sizeof line, f) != NULL) {
        char *rest = strstr(line, "NVRM version:");
        char *save = NULL;
        for (char *word = rest != NULL ? strtok_r(rest, " \t\r\n", &save) : NULL; word != NULL;
             word = strtok_r(NULL, " \t\r\n", &save)) {
            if (is_version_word(word)) {
                copy_cell(out, cap, word);
                break;
            }
        }
    }
    fclose(f);
}

static int device_attr(CUdevice dev, CUdevice_attribute a)
{
    int v = -1;
    if (cuDeviceGetAttribute(&v, a, dev) != CUDA_SUCCESS) {
        return -1;
    }
    return v;
}

/* Opens the GPU and fills the input; on failure sends a fatal record. */
static int gpu_open(const bench_config *cfg, bench_gpu *g, bool header)
{
    memset(g, 0, sizeof *g);
    CUresult r = cuInit(0);
    if (r == CUDA_SUCCESS) {
        r = cuDeviceGet(&g->device, 0);
    }
    if (r == CUDA_SUCCESS) {
        r = cuDevicePrimaryCtxRetain(&g->context, g->device);
    }
    if (r == CUDA_SUCCESS) {
        r = cuCtxSetCurrent(g->context);
    }
    if (r != CUDA_SUCCESS) {
        child_error(cfg, NULL, -1, "F", "init", NULL, r, "no CUDA GPU to measure on: %s",
                    cuda_error_text(r));
        return 0;
    }
    g->max_warps_per_sm =
        device_attr(g->device, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR) / 32;
    if (header) {
        char name[256] = "";
        cuDeviceGetName(name, (int)sizeof name, g->device);
        int cuda_version = 0;
        cuDriverGetVersion(&cuda_version);
        char driver[64];
        driver_version_text(driver, sizeof driver);
        text_buf b;
        b.used = 0;
        text_add(&b, "{\"record\":\"regs_header\",\"device\":");
        text_add_str(&b, name);
        text_add(&b, ",\"driver\":");
        if (driver[0] != '\0') {
            text_add_str(&b, driver);
        } else {
            text_add(&b, "null");
        }
        text_add(&b, ",\"cuda_driver_version\":%d", cuda_version);
        text_add(&b, ",\"compute_capability\":\"%d.%d\"",
                 device_attr(g->device, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR),
                 device_attr(g->device, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR));
        text_add(&b, ",\"sm_count\":%d",
                 device_attr(g->device, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT));
        text_add(&b, ",\"max_warps_per_sm\":%d", g->max_warps_per_sm);
        text_add(&b, ",\"regs_per_sm\":%d",
                 device_attr(g->device, CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR));
        text_add(&b, ",\"smem_per_sm_bytes\":%d",
                 device_attr(g->device, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR));
        text_add(&b, ",\"sm_clock_khz\":%d",
                 device_attr(g->device, CU_DEVICE_ATTRIBUTE_CLOCK_RATE));
        text_add(&b, ",\"mem_clock_khz\":%d",
                 device_attr(g->device, CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE));
        text_add(&b, ",\"n\":%d,\"warmups\":%d,\"runs\":%d,\"launch_timeout_s\":", BENCH_N,
                 BENCH_WARMUPS, BENCH_RUNS);
        text_add_num(&b, cfg->launch_timeout_s);
        text_add(&b, ",\"kernels_tsv\":");
        text_add_str(&b, cfg->table_path);
        text_add(&b, ",\"cubin_dir\":");
        text_add_str(&b, cfg->cubin_dir);
        text_add(&b, ",\"kernels\":%d,\"cubins\":%d,\"timed\":%d,\"rounds\":%d,\"distinct\":%s}",
                 cfg->kernel_count, cfg->job_count / cfg->rounds + cfg->same_count,
                 cfg->job_count / cfg->rounds, cfg->rounds, cfg->distinct ? "true" : "false");
        child_send("H", -1, &b);
    }
    g->host = (float *)malloc((size_t)BENCH_N * sizeof(float));
    if (g->host == NULL) {
        child_error(cfg, NULL, -1, "F", "init", NULL, CUDA_SUCCESS,
                    "cannot allocate %zu bytes of host memory", (size_t)BENCH_N * sizeof(float));
        return 0;
    }
    fill_input(g->host);
    const size_t bytes = (size_t)BENCH_N * sizeof(float);
    r = cuMemAlloc(&g->in, bytes);
    if (r == CUDA_SUCCESS) {
        r = cuMemAlloc(&g->out, bytes);
    }
    if (r == CUDA_SUCCESS) {
        r = cuMemcpyHtoD(g->in, g->host, bytes);
    }
    if (r == CUDA_SUCCESS) {
        r = cuEventCreate(&g->start, CU_EVENT_DEFAULT);
    }
    if (r == CUDA_SUCCESS) {
        r = cuEventCreate(&g->stop, CU_EVENT_DEFAULT);
    }
    if (r != CUDA_SUCCESS) {
        child_error(cfg, NULL, -1, "F", "init", NULL, r, "cannot set up the buffers: %s",
                    cuda_error_text(r));
        return 0;
    }
    return 1;
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Waits for the stop event at most timeout_s: CUDA_ERROR_NOT_READY when
   it has not come (the kernel hangs). */
static CUresult wait_event(CUevent e, double timeout_s)
{
    const double deadline = now_s() + timeout_s;
    for (;;) {
        CUresult r = cuEventQuery(e);
        if (r != CUDA_ERROR_NOT_READY) {
            return r;
        }
        if (now_s() > deadline) {
            return CUDA_ERROR_NOT_READY;
        }
        struct timespec pause = {0, BENCH_POLL_US * 1000L};
        nanosleep(&pause, NULL);
    }
}

static int compare_float(const void *a, const void *b)
{
    float x = *(const float *)a;
    float y = *(const float *)b;
    return (x > y) - (x < y);
}

/* FNV-1a's step over the output's 32-bit words (a word, not a byte, at a
   time: 64 MiB in a few tens of ms): equal outputs, equal hashes. */
static uint64_t output_hash(const float *data, size_t count)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < count; i++) {
        uint32_t word;
        memcpy(&word, &data[i], sizeof word);
        h ^= word;
        h *= 1099511628211ull;
    }
    return h;
}

/* A launch that went wrong leaves the context unusable when the error is
   sticky; then the child must end. */
static bool context_lost(void)
{
    return cuCtxSynchronize() != CUDA_SUCCESS;
}

typedef enum { JOB_OK, JOB_ERROR, JOB_CONTEXT_LOST } job_outcome;

static job_outcome run_job(const bench_config *cfg, bench_gpu *g, int job)
{
    const bench_job *j = &cfg->jobs[job];
    const bench_kernel *k = &cfg->kernels[j->kernel];
    char path[2 * BENCH_TEXT + 2];
    snprintf(path, sizeof path, "%s/%s", cfg->cubin_dir, j->cubin);
    CUmodule module;
    CUresult r = cuModuleLoad(&module, path);
    if (r != CUDA_SUCCESS) {
        child_error(cfg, j, job, "E", "load", NULL, r, "cuModuleLoad(%s): %s", path,
                    cuda_error_text(r));
        return context_lost() ? JOB_CONTEXT_LOST : JOB_ERROR;
    }
    CUfunction f;
    r = cuModuleGetFunction(&f, module, "kernel");
    if (r != CUDA_SUCCESS) {
        child_error(cfg, j, job, "E", "load", NULL, r, "%s has no function 'kernel': %s", path,
                    cuda_error_text(r));
        cuModuleUnload(module);
        return JOB_ERROR;
    }
    int regs = -1, local = -1, smem = -1, max_threads = -1, binary = -1;
    cuFuncGetAttribute(&regs, CU_FUNC_ATTRIBUTE_NUM_REGS, f);
    cuFuncGetAttribute(&local, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, f);
    cuFuncGetAttribute(&smem, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, f);
    cuFuncGetAttribute(&max_threads, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, f);
    cuFuncGetAttribute(&binary, CU_FUNC_ATTRIBUTE_BINARY_VERSION, f);
    if (k->dyn_smem_bytes > 48 * 1024) {
        cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, k->dyn_smem_bytes);
    }
    int blocks = -1;
    r = cuOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, f, k->threads,
                                                    (size_t)k->dyn_smem_bytes);
    /* What the driver says of the cubin, in its error records too: a cap
       that hangs or cannot launch is still a cap an occupancy planner sees. */
    char resources[160];
    snprintf(resources, sizeof resources,
             ",\"regs\":%d,\"local_bytes\":%d,\"static_smem_bytes\":%d,\"blocks_per_sm\":%d", regs,
             local, smem, blocks < 0 ? 0 : blocks);
    if (r != CUDA_SUCCESS || blocks <= 0 || max_threads < k->threads) {
        child_error(cfg, j, job, "E", "occupancy", resources, r,
                    "cannot launch %d threads a block: %d registers a thread, %d bytes of shared "
                    "memory, at most %d threads a block, %d blocks an SM",
                    k->threads, regs, smem, max_threads, blocks);
        cuModuleUnload(module);
        return JOB_ERROR;
    }

    CUdeviceptr in = g->in;
    CUdeviceptr out = g->out;
    int n = BENCH_N;
    void *params[] = {&in, &out, &n};
    /* 0xFF bytes are NaNs: an output the kernel never writes fails the check. */
    r = cuMemsetD8(g->out, 0xFF, (size_t)BENCH_N * sizeof(float));
    float times_ms[BENCH_RUNS];
    for (int run = 0; r == CUDA_SUCCESS && run < BENCH_WARMUPS + BENCH_RUNS; run++) {
        r = cuEventRecord(g->start, NULL);
        if (r == CUDA_SUCCESS) {
            r = cuLaunchKernel(f, (unsigned)k->grid, 1, 1, (unsigned)k->threads, 1, 1,
                               (unsigned)k->dyn_smem_bytes, NULL, params, NULL);
        }
        if (r == CUDA_SUCCESS) {
            r = cuEventRecord(g->stop, NULL);
        }
        if (r == CUDA_SUCCESS) {
            r = wait_event(g->stop, cfg->launch_timeout_s);
            if (r == CUDA_ERROR_NOT_READY) {
                child_error(cfg, j, job, "E", "hang", resources, CUDA_SUCCESS,
                            "launch %d did not finish within %g s (%d registers a thread, %d "
                            "blocks an SM): the kernel hangs, and its context is abandoned",
                            run + 1, cfg->launch_timeout_s, regs, blocks);
                return JOB_CONTEXT_LOST;
            }
        }
        if (r == CUDA_SUCCESS && run >= BENCH_WARMUPS) {
            r = cuEventElapsedTime(&times_ms[run - BENCH_WARMUPS], g->start, g->stop);
        }
    }
    if (r == CUDA_SUCCESS) {
        r = cuMemcpyDtoH(g->host, g->out, (size_t)k->outputs * sizeof(float));
    }
    if (r != CUDA_SUCCESS) {
        child_error(cfg, j, job, "E", "launch", NULL, r, "%s: %s", cuda_error_name(r),
                    cuda_error_text(r));
        if (context_lost()) {
            return JOB_CONTEXT_LOST;
        }
        cuModuleUnload(module);
        return JOB_ERROR;
    }
    cuModuleUnload(module);

    long long finite = 0;
    double checksum = 0.0;
    double abs_checksum = 0.0; /* the scale a tolerance on checksum needs */
    for (long long i = 0; i < k->outputs; i++) {
        if (isfinite(g->host[i])) {
            finite++;
            checksum += (double)g->host[i];
            abs_checksum += fabs((double)g->host[i]);
        }
    }
    const uint64_t hash = output_hash(g->host, (size_t)k->outputs);
    qsort(times_ms, BENCH_RUNS, sizeof(float), compare_float);

    const int warps = blocks * ((k->threads + 31) / 32);
    text_buf b;
    b.used = 0;
    text_add(&b, "{\"record\":\"regs_time\",\"kernel\":");
    text_add_str(&b, k->name);
    text_add(&b, ",\"cap\":");
    text_add_cap(&b, j->cap);
    text_add(&b, ",\"cubin\":");
    text_add_str(&b, j->cubin);
    text_add_job_tags(&b, j);
    text_add(&b, ",\"arch\":");
    text_add_str(&b, k->arch);
    text_add(&b, ",\"binary_version\":%d,\"threads\":%d,\"grid\":%lld,\"dyn_smem_bytes\":%d",
             binary, k->threads, k->grid, k->dyn_smem_bytes);
    text_add(&b, ",\"regs\":%d,\"local_bytes\":%d,\"static_smem_bytes\":%d", regs, local, smem);
    text_add(&b, ",\"max_threads_per_block\":%d,\"blocks_per_sm\":%d,\"warps_per_sm\":%d",
             max_threads, blocks, warps);
    text_add(&b, ",\"occupancy\":");
    text_add_num(&b, g->max_warps_per_sm > 0 ? (double)warps / g->max_warps_per_sm : NAN);
    text_add(&b, ",\"median_ms\":");
    text_add_num(&b, (double)times_ms[BENCH_RUNS / 2]);
    text_add(&b, ",\"min_ms\":");
    text_add_num(&b, (double)times_ms[0]);
    text_add(&b, ",\"max_ms\":");
    text_add_num(&b, (double)times_ms[BENCH_RUNS - 1]);
    text_add(&b, ",\"runs\":%d,\"warmups\":%d,\"outputs\":%lld,\"finite_outputs\":%lld", BENCH_RUNS,
             BENCH_WARMUPS, k->outputs, finite);
    text_add(&b, ",\"checksum\":");
    text_add_num(&b, checksum);
    text_add(&b, ",\"abs_checksum\":");
    text_add_num(&b, abs_checksum);
    /* The parent adds the hash comparison and "checked", and closes it. */
    fprintf(child_out, "J %d %016llx %d %s\n", job, (unsigned long long)hash,
            finite == k->outputs ? 1 : 0, b.text);
    fflush(child_out);
    return JOB_OK;
}

static int child_main(const bench_config *cfg, int first_job, bool header)
{
    bench_gpu g;
    if (!gpu_open(cfg, &g, header)) {
        return CHILD_FATAL;
    }
    for (int job = first_job; job < cfg->job_count; job++) {
        const bench_job *j = &cfg->jobs[job];
        const bench_kernel *k = &cfg->kernels[j->kernel];
        fprintf(stderr, "regs_bench: %d/%d %s cap %s%.0d round %d\n", job + 1, cfg->job_count,
                k->name, j->cap < 0 ? "none" : "", j->cap < 0 ? 0 : j->cap, j->round);
        job_outcome o = run_job(cfg, &g, job);
        if (o == JOB_CONTEXT_LOST) {
            return CHILD_RESTART;
        }
    }
    return CHILD_DONE;
}

/* --- the parent: children, the watchdog, the check ------------------------- */

typedef struct kernel_reference {
    bool set;
    int cap; /* the reference cubin's cap; -1: none */
    char hash[17];
} kernel_reference;

static void parent_error(const bench_config *cfg, int job, const char *stage, const char *message)
{
    const bench_job *j = &cfg->jobs[job];
    text_buf b;
    b.used = 0;
    text_add(&b, "{\"record\":\"regs_error\",\"kernel\":");
    text_add_str(&b, cfg->kernels[j->kernel].name);
    text_add(&b, ",\"cap\":");
    text_add_cap(&b, j->cap);
    text_add(&b, ",\"cubin\":");
    text_add_str(&b, j->cubin);
    text_add_job_tags(&b, j);
    text_add(&b, ",\"stage\":");
    text_add_str(&b, stage);
    text_add(&b, ",\"error\":");
    text_add_str(&b, message);
    text_add(&b, "}");
    printf("%s\n", b.text);
    fflush(stdout);
}

typedef struct parent_state {
    const bench_config *cfg;
    kernel_reference *refs;
    int next; /* the first job not reported */
    bool header_done;
    bool fatal;
    int measured;
    int checked;
    int errors;
} parent_state;

/* One line from a child. */
static void parent_line(parent_state *s, char *line)
{
    const bench_config *cfg = s->cfg;
    if (strncmp(line, "H ", 2) == 0) {
        if (!s->header_done) {
            printf("%s\n", line + 2);
            s->header_done = true;
        }
    } else if (strncmp(line, "F ", 2) == 0) {
        printf("%s\n", line + 2);
        s->fatal = true;
    } else if (line[0] == 'E' || line[0] == 'J') {
        char *p = line + 2;
        char *end = NULL;
        long job = strtol(p, &end, 10);
        if (end == p || job < s->next || job >= cfg->job_count) {
            fprintf(stderr, "regs_bench: a child reported job '%.20s', expected %d\n", p, s->next);
            return;
        }
        for (; s->next < job; s->next++) {
            parent_error(cfg, s->next, "child", "the child skipped it");
            s->errors++;
        }
        p = end + 1;
        if (line[0] == 'E') {
            printf("%s\n", p);
            s->errors++;
        } else {
            char hash[17];
            int finite = 0;
            int used = 0;
            if (sscanf(p, "%16s %d %n", hash, &finite, &used) < 2 || used == 0) {
                parent_error(cfg, (int)job, "child", "a malformed result line");
                s->errors++;
                s->next = (int)job + 1;
                return;
            }
            const bench_job *j = &cfg->jobs[job];
            kernel_reference *ref = &s->refs[j->kernel];
            /* The first finite result of a kernel is its reference: the
               no-cap cubin when it ran (it comes first). */
            if (!ref->set && finite) {
                ref->set = true;
                ref->cap = j->cap;
                copy_cell(ref->hash, sizeof ref->hash, hash);
            }
            const bool same = ref->set && strcmp(ref->hash, hash) == 0;
            const bool checked = finite && same;
            text_buf tail;
            tail.used = 0;
            text_add(&tail, ",\"output_hash\":\"%s\",\"reference_cap\":", hash);
            if (ref->set) {
                text_add_cap(&tail, ref->cap);
            } else {
                text_add(&tail, "null");
            }
            text_add(&tail, ",\"same_as_reference\":%s,\"checked\":%s}", same ? "true" : "false",
                     checked ? "true" : "false");
            printf("%s%s\n", p + used, tail.text);
            s->measured++;
            s->checked += checked ? 1 : 0;
        }
        fflush(stdout);
        s->next = (int)job + 1;
    }
}

/* Runs children until every job has a record (or a fatal error). */
static int parent_main(const bench_config *cfg)
{
    parent_state s;
    memset(&s, 0, sizeof s);
    s.cfg = cfg;
    s.refs = (kernel_reference *)calloc((size_t)cfg->kernel_count, sizeof(kernel_reference));
    if (s.refs == NULL) {
        fprintf(stderr, "regs_bench: out of memory\n");
        return 1;
    }
    /* A silent child is killed after this long: a launch times out by itself
       well before (every launch of a job, then the copy and the hash). */
    const double watchdog_s = cfg->watchdog_s > 0.0
                                  ? cfg->watchdog_s
                                  : cfg->launch_timeout_s * (BENCH_WARMUPS + BENCH_RUNS + 1) + 60.0;
    const int watchdog_ms = (int)(1000.0 * watchdog_s);
    const double started = now_s();
    while (s.next < cfg->job_count && !s.fatal) {
        int fds[2];
        if (pipe(fds) != 0) {
            fprintf(stderr, "regs_bench: pipe: %s\n", strerror(errno));
            return 1;
        }
        fflush(stdout);
        fflush(stderr);
        const int first = s.next;
        pid_t pid = fork();
        if (pid < 0) {
            fprintf(stderr, "regs_bench: fork: %s\n", strerror(errno));
            return 1;
        }
        if (pid == 0) {
            close(fds[0]);
            child_out = fdopen(fds[1], "w");
            if (child_out == NULL) {
                _exit(CHILD_FATAL);
            }
            int code = child_main(cfg, first, !s.header_done);
            fflush(child_out);
            /* _exit: no CUDA teardown, which would wait on a hung kernel. */
            _exit(code);
        }
        close(fds[1]);
        char buf[2 * BENCH_LINE];
        size_t held = 0;
        bool killed = false;
        for (;;) {
            struct pollfd p = {fds[0], POLLIN, 0};
            int ready = poll(&p, 1, watchdog_ms);
            if (ready < 0 && errno == EINTR) {
                continue;
            }
            if (ready <= 0) {
                kill(pid, SIGKILL);
                killed = true;
                break;
            }
            ssize_t got = read(fds[0], buf + held, sizeof buf - 1 - held);
            if (got < 0 && errno == EINTR) {
                continue;
            }
            if (got <= 0) {
                break;
            }
            held += (size_t)got;
            buf[held] = '\0';
            char *line = buf;
            char *nl;
            while ((nl = strchr(line, '\n')) != NULL) {
                *nl = '\0';
                parent_line(&s, line);
                line = nl + 1;
            }
            held = strlen(line);
            memmove(buf, line, held);
            if (held == sizeof buf - 1) {
                held = 0; /* a line longer than any record: drop it */
            }
        }
        close(fds[0]);
        int status = 0;
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
        }
        if (s.fatal) {
            break;
        }
        const bool restart = WIFEXITED(status) && WEXITSTATUS(status) == CHILD_RESTART;
        if (s.next < cfg->job_count && !restart &&
            !(WIFEXITED(status) && WEXITSTATUS(status) == CHILD_DONE)) {
            char message[256];
            if (killed) {
                snprintf(message, sizeof message,
                         "no word from the measuring process for %g s: killed", watchdog_s);
            } else if (WIFSIGNALED(status)) {
                snprintf(message, sizeof message, "the measuring process died of signal %d",
                         WTERMSIG(status));
            } else {
                snprintf(message, sizeof message, "the measuring process exited with status %d",
                         WIFEXITED(status) ? WEXITSTATUS(status) : -1);
            }
            parent_error(cfg, s.next, killed ? "hang" : "child", message);
            s.errors++;
            s.next++;
        } else if (s.next < cfg->job_count && WIFEXITED(status) &&
                   WEXITSTATUS(status) == CHILD_DONE) {
            /* Done by its own account with jobs unreported: never loop. */
            parent_error(cfg, s.next, "child", "the measuring process ended before it");
            s.errors++;
            s.next++;
        } else if (restart && s.next == first) {
            /* A restart that reported nothing would run the same job forever. */
            parent_error(cfg, s.next, "child", "the measuring process lost its context before it");
            s.errors++;
            s.next++;
        }
    }
    /* Kernels of the table without a cubin: after the header, like every
       other record of a kernel. */
    for (int k = 0; k < cfg->kernel_count; k++) {
        bool any = false;
        for (int j = 0; j < cfg->job_count; j++) {
            any = any || cfg->jobs[j].kernel == k;
        }
        if (!any && !s.fatal) {
            text_buf b;
            b.used = 0;
            char message[2 * BENCH_TEXT + 600];
            snprintf(message, sizeof message, "no %s.none.cubin or %s.capNNN.cubin in %s",
                     cfg->kernels[k].name, cfg->kernels[k].name, cfg->cubin_dir);
            text_add(&b, "{\"record\":\"regs_error\",\"kernel\":");
            text_add_str(&b, cfg->kernels[k].name);
            text_add(&b, ",\"cap\":null,\"stage\":\"load\",\"error\":");
            text_add_str(&b, message);
            text_add(&b, "}");
            printf("%s\n", b.text);
        }
    }
    for (int i = 0; i < cfg->same_count && !s.fatal; i++) {
        const bench_same *m = &cfg->same[i];
        text_buf b;
        b.used = 0;
        text_add(&b, "{\"record\":\"regs_same\",\"kernel\":");
        text_add_str(&b, cfg->kernels[m->kernel].name);
        text_add(&b, ",\"cap\":");
        text_add_cap(&b, m->cap);
        text_add(&b, ",\"cubin\":");
        text_add_str(&b, m->cubin);
        text_add(&b, ",\"code_hash\":\"%016llx\",\"same_as_cap\":", (unsigned long long)m->code_hash);
        text_add_cap(&b, m->same_as_cap);
        text_add(&b, ",\"same_as_cubin\":");
        text_add_str(&b, m->same_as_cubin);
        text_add(&b, "}");
        printf("%s\n", b.text);
    }
    printf("{\"record\":\"regs_done\",\"cubins\":%d,\"measured\":%d,\"checked\":%d,\"errors\":%d,"
           "\"elapsed_s\":%.1f}\n",
           cfg->job_count / cfg->rounds + cfg->same_count, s.measured, s.checked, s.errors,
           now_s() - started);
    fflush(stdout);
    free(s.refs);
    return s.fatal ? 1 : 0;
}

static int usage(void)
{
    fprintf(stderr, "usage: regs_bench [--launch-timeout S] [--watchdog S] [--rounds N] [--distinct] "
                    "KERNELS.tsv CUBIN_DIR [KERNEL ...] > records.jsonl\n");
    return 2;
}

/* Seconds in (0, 3600], or -1. */
static double parse_seconds(const char *option, const char *text)
{
    char *end = NULL;
    double v = strtod(text, &end);
    if (end == text || *end != '\0' || !(v > 0.0) || v > 3600.0) {
        fprintf(stderr, "regs_bench: %s: '%s' is not a number of seconds in (0, 3600]\n", option,
                text);
        return -1.0;
    }
    return v;
}

int main(int argc, char **argv)
{
    static bench_config cfg;
    cfg.launch_timeout_s = 2.0;
    cfg.rounds = 1;
    int a = 1;
    while (a < argc && strncmp(argv[a], "--", 2) == 0) {
        if (strcmp(argv[a], "--distinct") == 0) {
            cfg.distinct = true;
            a++;
            continue;
        }
        if (a + 1 >= argc) {
            fprintf(stderr, "regs_bench: option %s: needs a value\n", argv[a]);
            return usage();
        }
        if (strcmp(argv[a], "--rounds") == 0) {
            char *end = NULL;
            long v = strtol(argv[a + 1], &end, 10);
            if (end == argv[a + 1] || *end != '\0' || v < 1 || v > 100) {
                fprintf(stderr, "regs_bench: --rounds: '%s' is not a whole number in 1..100\n",
                        argv[a + 1]);
                return usage();
            }
            cfg.rounds = (int)v;
            a += 2;
            continue;
        }
        double *target = strcmp(argv[a], "--launch-timeout") == 0 ? &cfg.launch_timeout_s
                         : strcmp(argv[a], "--watchdog") == 0     ? &cfg.watchdog_s
                                                                  : NULL;
        if (target == NULL) {
            fprintf(stderr, "regs_bench: option %s: is unknown\n", argv[a]);
            return usage();
        }
        *target = parse_seconds(argv[a], argv[a + 1]);
        if (*target < 0.0) {
            return usage();
        }
        a += 2;
    }
    if (argc - a < 2) {
        return usage();
    }
    cfg.table_path = argv[a];
    cfg.cubin_dir = argv[a + 1];
    char err[512];
    if (!read_table(&cfg, err, sizeof err)) {
        text_buf b;
        b.used = 0;
        text_add(&b, "{\"record\":\"regs_error\",\"stage\":\"table\",\"error\":");
        text_add_str(&b, err);
        text_add(&b, "}");
        printf("%s\n", b.text);
        fprintf(stderr, "regs_bench: %s\n", err);
        return 1;
    }
    /* KERNEL ...: keep those rows only, in the table's order. */
    if (argc - a > 2) {
        int kept = 0;
        for (int k = 0; k < cfg.kernel_count; k++) {
            bool wanted = false;
            for (int i = a + 2; i < argc; i++) {
                wanted = wanted || strcmp(argv[i], cfg.kernels[k].name) == 0;
            }
            if (wanted) {
                cfg.kernels[kept++] = cfg.kernels[k];
            }
        }
        if (kept != argc - a - 2) {
            fprintf(stderr, "regs_bench: %d of the %d kernels named are in %s\n", kept,
                    argc - a - 2, cfg.table_path);
            return 1;
        }
        cfg.kernel_count = kept;
    }
    if (!list_jobs(&cfg, err, sizeof err)) {
        text_buf b;
        b.used = 0;
        text_add(&b, "{\"record\":\"regs_error\",\"stage\":\"cubins\",\"error\":");
        text_add_str(&b, err);
        text_add(&b, "}");
        printf("%s\n", b.text);
        fprintf(stderr, "regs_bench: %s\n", err);
        return 1;
    }
    signal(SIGPIPE, SIG_IGN);
    /* With no cubin at all there is nothing to measure: each kernel's
       record says so, and the exit status. */
    int code = parent_main(&cfg);
    free(cfg.jobs);
    return cfg.job_count == 0 ? 1 : code;
}
