/*
 * lab_regs_data_read.c - reads occ-regs-bench's records (lab_regs_data.h):
 * regs_header, regs_time, regs_error and regs_same; regs_done and unknown
 * kinds are skipped. Every field is checked for its type and range, so the
 * analysis never meets a value the runner cannot write; a failed check is
 * one line naming the file, the line, the field and the limit.
 */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "lab_regs_data.h"
#include "record_reader.h"

/* Per thread and per SM: far above any GPU's, so that a typo is caught. */
#define MAX_BLOCKS_PER_SM 2048
#define MAX_LOCAL_BYTES (1 << 24)
#define MAX_DYN_SMEM_BYTES (1 << 24)

/* One record's key for the check of duplicates at the end of a file. */
typedef struct seen {
    int kernel, cap, round; /* round 0: a regs_same record */
    long line;
} seen;

/* A whole number in [lo, hi], or `absent` when the field is absent or null. */
static long long whole(lab_reader *r, const char *key, long long lo, long long hi, long long absent)
{
    json_t *v = lab_reader_optional(r, key);
    if (v == NULL || !r->ok) {
        return absent;
    }
    if (!json_is_integer(v)) {
        lab_reader_fail(r, "%s field '%s' is not a whole number", r->kind, key);
        return absent;
    }
    long long x = json_integer_value(v);
    if (x < lo || x > hi) {
        lab_reader_fail(r, "%s field '%s' is %lld; it must be from %lld to %lld", r->kind, key, x,
                        lo, hi);
        return absent;
    }
    return x;
}

/* A number (whole or not), or `absent`; *has says whether it was there. */
static double number(lab_reader *r, const char *key, bool *has)
{
    json_t *v = lab_reader_optional(r, key);
    *has = false;
    if (v == NULL || !r->ok) {
        return 0.0;
    }
    if (!json_is_number(v)) {
        lab_reader_fail(r, "%s field '%s' is not a number", r->kind, key);
        return 0.0;
    }
    *has = true;
    return json_number_value(v);
}

/* A time in ms: absent (0) or above 0. */
static double time_ms(lab_reader *r, const char *key)
{
    bool has;
    double v = number(r, key, &has);
    if (has && !lab_reader_time_ok(r, key, v)) {
        return 0.0;
    }
    return v;
}

/* A count: absent (0) or at or above 0. */
static double amount(lab_reader *r, const char *key, bool *has)
{
    double v = number(r, key, has);
    if (*has && !(v >= 0.0)) {
        lab_reader_fail(r, "%s field '%s' is %.17g; it must be at or above 0", r->kind, key, v);
    }
    return v;
}

static bool flag(lab_reader *r, const char *key, bool absent)
{
    json_t *v = lab_reader_optional(r, key);
    if (v == NULL || !r->ok) {
        return absent;
    }
    if (!json_is_boolean(v)) {
        lab_reader_fail(r, "%s field '%s' is not true or false", r->kind, key);
        return absent;
    }
    return json_is_true(v);
}

/* A string without control characters, of 1..cap-1 bytes when `required`;
   "" when absent. */
static const char *text(lab_reader *r, const char *key, size_t cap, bool required)
{
    json_t *v = json_object_get(r->obj, key);
    if (v == NULL || json_is_null(v)) {
        if (required) {
            lab_reader_fail(r, "%s record has no field '%s'", r->kind, key);
        }
        return "";
    }
    if (!json_is_string(v)) {
        lab_reader_fail(r, "%s field '%s' is not a string", r->kind, key);
        return "";
    }
    const char *s = json_string_value(v);
    size_t n = json_string_length(v);
    if (strlen(s) != n) {
        lab_reader_fail(r, "%s field '%s' holds a NUL character", r->kind, key);
        return "";
    }
    if (!lab_reader_no_control(r, key, s, n)) {
        return "";
    }
    if (n >= cap || (required && n == 0)) {
        lab_reader_fail(r, "%s field '%s' is %zu bytes long; it must be 1 to %zu", r->kind, key, n,
                        cap - 1);
        return "";
    }
    return s;
}

static void copy_text(char *out, size_t cap, const char *s)
{
    snprintf(out, cap, "%s", s);
}

/* A name that becomes part of a path (DIR/NAME.ptx, DIR/CUBIN): no '/'. */
static const char *file_part(lab_reader *r, const char *key, size_t cap, bool required)
{
    const char *s = text(r, key, cap, required);
    if (r->ok && (strchr(s, '/') != NULL || strcmp(s, ".") == 0 || strcmp(s, "..") == 0)) {
        lab_reader_fail(r, "%s field '%s' is '%s'; it must be a name without '/'", r->kind, key, s);
        return "";
    }
    return s;
}

/* A register cap: null (no cap) or 1..255. */
static int cap_field(lab_reader *r, const char *key, bool required)
{
    json_t *v = json_object_get(r->obj, key);
    if (v == NULL) {
        if (required) {
            lab_reader_fail(r, "%s record has no field '%s'", r->kind, key);
        }
        return LAB_REGS_NO_CAP;
    }
    if (json_is_null(v)) {
        return LAB_REGS_NO_CAP;
    }
    if (!json_is_integer(v) || json_integer_value(v) < 1 ||
        json_integer_value(v) > LAB_REGS_MAX_CAP) {
        char shown[48] = "a value that is not a whole number";
        if (json_is_integer(v)) {
            snprintf(shown, sizeof shown, "%lld", (long long)json_integer_value(v));
        }
        lab_reader_fail(
            r, "%s field '%s' is %s; it must be null (no cap) or a whole number from 1 to %d",
            r->kind, key, shown, LAB_REGS_MAX_CAP);
        return LAB_REGS_NO_CAP;
    }
    return (int)json_integer_value(v);
}

/* 16 hex digits; 0 (unknown) when absent. */
static uint64_t hash_field(lab_reader *r)
{
    const char *s = text(r, "code_hash", 64, false);
    if (!r->ok || s[0] == '\0') {
        return 0;
    }
    uint64_t h = 0;
    size_t n = strlen(s);
    for (size_t i = 0; i < n && n == 16; i++) {
        char c = s[i];
        int d = c >= '0' && c <= '9'   ? c - '0'
                : c >= 'a' && c <= 'f' ? c - 'a' + 10
                : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                       : -1;
        if (d < 0) {
            n = 0;
            break;
        }
        h = h << 4 | (uint64_t)d;
    }
    if (n != 16) {
        lab_reader_fail(r, "%s field 'code_hash' is '%s'; it must be 16 hex digits", r->kind, s);
        return 0;
    }
    return h;
}

/* An old error record says its registers and blocks only in words: "(40
   registers a thread, 4 blocks an SM)". The number before `words`, or -1. */
static int number_before(const char *message, const char *words)
{
    for (const char *p = strstr(message, words); p != NULL; p = strstr(p + 1, words)) {
        const char *d = p;
        while (d > message && d[-1] >= '0' && d[-1] <= '9') {
            d--;
        }
        if (d < p) {
            return p - d <= 6 ? atoi(d) : -1;
        }
    }
    return -1;
}

static void read_header(lab_reader *r, lab_regs_data *d)
{
    lab_regs_header h;
    memset(&h, 0, sizeof h);
    h.present = true;
    copy_text(h.device, sizeof h.device, text(r, "device", sizeof h.device, false));
    copy_text(h.driver, sizeof h.driver, text(r, "driver", sizeof h.driver, false));
    const long long big = 1LL << 40;
    h.cuda_driver_version = whole(r, "cuda_driver_version", 0, big, -1);
    h.sm_count = whole(r, "sm_count", 0, 1 << 16, -1);
    h.n = whole(r, "n", 0, big, -1);
    h.warmups = whole(r, "warmups", 0, big, -1);
    h.runs = whole(r, "runs", 0, big, -1);
    h.rounds = whole(r, "rounds", 1, LAB_REGS_MAX_ROUND, -1);
    json_t *distinct = lab_reader_optional(r, "distinct");
    h.distinct = distinct == NULL ? -1 : flag(r, "distinct", false);
    if (!r->ok) {
        return;
    }
    /* the first file with a header describes the run (its last header);
       a later file's only has to be of the same GPU */
    if (d->header.present && d->header.file != r->file) {
        if (d->header.device[0] != '\0' && h.device[0] != '\0' &&
            strcmp(d->header.device, h.device) != 0) {
            lab_reader_fail(r, "records of another GPU: '%s', where the first file's are of '%s'",
                            h.device, d->header.device);
        }
        return;
    }
    h.file = r->file;
    d->header = h;
}

static lab_regs_kernel_data *kernel_for(lab_reader *r, lab_regs_data *d, const char *name)
{
    lab_regs_kernel_data *k = lab_regs_kernel_find(d, name);
    if (k != NULL) {
        return k;
    }
    if (d->kernel_count >= LAB_REGS_MAX_KERNELS) {
        lab_reader_fail(r, "more than %d kernels", LAB_REGS_MAX_KERNELS);
        return NULL;
    }
    if (d->kernel_count == d->kernels_allocated) {
        int n = d->kernels_allocated > 0 ? 2 * d->kernels_allocated : 32;
        lab_regs_kernel_data *more = realloc(d->kernels, (size_t)n * sizeof *more);
        if (more == NULL) {
            lab_reader_fail(r, "out of memory");
            return NULL;
        }
        d->kernels = more;
        d->kernels_allocated = n;
    }
    k = &d->kernels[d->kernel_count++];
    memset(k, 0, sizeof *k);
    copy_text(k->name, sizeof k->name, name);
    return k;
}

static lab_regs_record *add_record(lab_reader *r, lab_regs_data *d, lab_regs_kernel_data *k,
                                   lab_regs_meta **meta)
{
    if (d->record_count >= LAB_REGS_MAX_RECORDS) {
        lab_reader_fail(r, "more than %d records", LAB_REGS_MAX_RECORDS);
        return NULL;
    }
    if (k->count == k->allocated) {
        int n = k->allocated > 0 ? 2 * k->allocated : 64;
        lab_regs_record *records = realloc(k->records, (size_t)n * sizeof *records);
        if (records != NULL) {
            k->records = records;
        }
        lab_regs_meta *m = records != NULL ? realloc(k->meta, (size_t)n * sizeof *m) : NULL;
        if (m == NULL) {
            lab_reader_fail(r, "out of memory");
            return NULL;
        }
        k->meta = m;
        k->allocated = n;
    }
    d->record_count++;
    lab_regs_record *rec = &k->records[k->count];
    *meta = &k->meta[k->count];
    k->count++;
    memset(rec, 0, sizeof *rec);
    memset(*meta, 0, sizeof **meta);
    rec->regs = rec->blocks_per_sm = rec->local_bytes = -1;
    (*meta)->file = r->file;
    (*meta)->line = (int)r->line;
    (*meta)->round = 1;
    return rec;
}

/* The launch occ regs is run at, from the first timing. */
static void read_launch(lab_reader *r, lab_regs_kernel_data *k)
{
    long long threads = whole(r, "threads", 1, 1024, -1);
    long long dyn = whole(r, "dyn_smem_bytes", 0, MAX_DYN_SMEM_BYTES, 0);
    const char *arch = text(r, "arch", 16, false);
    if (!r->ok || arch[0] == '\0') {
        return;
    }
    /* sm_, 2 or 3 digits and an optional a or f, as ptxas -arch takes it */
    size_t n = strlen(arch);
    size_t digits = strncmp(arch, "sm_", 3) == 0 ? strspn(arch + 3, "0123456789") : 0;
    size_t rest = n - (digits > 0 ? 3 + digits : n);
    bool good = digits >= 2 && digits <= 3 &&
                (rest == 0 || (rest == 1 && (arch[n - 1] == 'a' || arch[n - 1] == 'f')));
    if (!good) {
        lab_reader_fail(r,
                        "%s field 'arch' is '%s'; it must be sm_ and a compute capability (sm_90, "
                        "sm_90a)",
                        r->kind, arch);
        return;
    }
    if (!k->has_launch && threads > 0) {
        k->has_launch = true;
        k->threads = (int)threads;
        k->dyn_smem_bytes = (int)dyn;
        copy_text(k->arch, sizeof k->arch, arch);
    }
}

static void read_cubin_record(lab_reader *r, lab_regs_data *d, lab_regs_kind kind, seen *key)
{
    json_t *kernel = json_object_get(r->obj, "kernel");
    if (kind == LAB_REGS_ERROR && (kernel == NULL || json_is_null(kernel))) {
        /* the run failed as a whole: no GPU, no table, no cubins */
        if (d->run_error[0] == '\0') {
            const char *message = text(r, "error", sizeof d->run_error, false);
            const char *stage = text(r, "stage", sizeof d->run_error_stage, false);
            copy_text(d->run_error, sizeof d->run_error, message[0] ? message : "(no message)");
            copy_text(d->run_error_stage, sizeof d->run_error_stage, stage);
        }
        return;
    }
    const char *name = file_part(r, "kernel", LAB_REGS_NAME_BYTES, true);
    int cap = cap_field(r, "cap", true);
    long long round = whole(r, "round", 1, LAB_REGS_MAX_ROUND, 1);
    uint64_t hash = hash_field(r);
    const char *cubin = file_part(r, "cubin", LAB_REGS_CUBIN_BYTES, kind == LAB_REGS_SAME);
    long long regs = whole(r, "regs", 0, LAB_REGS_MAX_CAP, -1);
    long long blocks = whole(r, "blocks_per_sm", 0, MAX_BLOCKS_PER_SM, -1);
    long long local = whole(r, "local_bytes", 0, MAX_LOCAL_BYTES, -1);
    if (!r->ok) {
        return;
    }
    lab_regs_kernel_data *k = kernel_for(r, d, name);
    lab_regs_meta *meta = NULL;
    lab_regs_record *rec = k != NULL ? add_record(r, d, k, &meta) : NULL;
    if (rec == NULL) {
        return;
    }
    rec->kind = kind;
    rec->cap = cap;
    rec->code_hash = hash;
    rec->regs = (int)regs;
    rec->blocks_per_sm = (int)blocks;
    rec->local_bytes = (int)local;
    meta->round = kind == LAB_REGS_SAME ? 0 : (int)round;
    copy_text(meta->cubin, sizeof meta->cubin, cubin);
    *key = (seen){(int)(k - d->kernels), cap, meta->round, r->line};
    if (kind == LAB_REGS_TIME) {
        rec->checked = flag(r, "checked", false);
        rec->median_ms = time_ms(r, "median_ms");
        rec->min_ms = time_ms(r, "min_ms");
        rec->outputs = amount(r, "outputs", &rec->has_outputs);
        rec->finite_outputs = amount(r, "finite_outputs", &rec->has_finite_outputs);
        rec->checksum = number(r, "checksum", &rec->has_checksum);
        bool has_abs;
        rec->abs_checksum = amount(r, "abs_checksum", &has_abs);
        rec->reference_cap = cap_field(r, "reference_cap", false);
        read_launch(r, k);
    } else if (kind == LAB_REGS_ERROR) {
        const char *stage = text(r, "stage", 32, false);
        rec->stage = strcmp(stage, "hang") == 0        ? LAB_REGS_STAGE_HANG
                     : strcmp(stage, "occupancy") == 0 ? LAB_REGS_STAGE_OCCUPANCY
                                                       : LAB_REGS_STAGE_OTHER;
        const char *message = text(r, "error", LAB_MAX_LINE_BYTES, false);
        if (rec->regs < 0) {
            rec->regs = number_before(message, " registers a thread");
            rec->regs = rec->regs > LAB_REGS_MAX_CAP ? -1 : rec->regs;
        }
        if (rec->blocks_per_sm < 0) {
            rec->blocks_per_sm = number_before(message, " blocks an SM");
            rec->blocks_per_sm = rec->blocks_per_sm > MAX_BLOCKS_PER_SM ? -1 : rec->blocks_per_sm;
        }
    } else {
        rec->same_as_cap = cap_field(r, "same_as_cap", true);
        file_part(r, "same_as_cubin", LAB_REGS_CUBIN_BYTES, false);
        if (r->ok && rec->same_as_cap == cap) {
            lab_reader_fail(r, "regs_same record of kernel %s says cap %d is the same as itself",
                            name, cap);
        }
    }
}

static int by_key(const void *a, const void *b)
{
    const seen *x = a, *y = b;
    if (x->kernel != y->kernel) {
        return x->kernel < y->kernel ? -1 : 1;
    }
    if (x->cap != y->cap) {
        return x->cap < y->cap ? -1 : 1;
    }
    if (x->round != y->round) {
        return x->round < y->round ? -1 : 1;
    }
    return (x->line > y->line) - (x->line < y->line);
}

/* One file may say one thing of a cubin in a round: a second timing, or a
   cubin both timed and not (regs_same), is an error naming the later line. */
static bool check_duplicates(seen *keys, long n, const char *name, const lab_regs_data *d,
                             lab_error *err)
{
    qsort(keys, (size_t)n, sizeof *keys, by_key);
    for (long i = 1; i < n; i++) {
        const seen *a = &keys[i - 1], *b = &keys[i];
        if (a->kernel != b->kernel || a->cap != b->cap) {
            continue;
        }
        char cap[8];
        lab_regs_cap_label(a->cap, cap, sizeof cap);
        const char *kernel = d->kernels[a->kernel].name;
        if (a->round == b->round) {
            const char *what = a->round == 0 ? "a second regs_same record" : "a second record";
            char round[32] = "";
            if (a->round > 0) {
                snprintf(round, sizeof round, " in round %d", a->round);
            }
            long later = a->line > b->line ? a->line : b->line;
            long first = a->line < b->line ? a->line : b->line;
            return lab_error_set(err,
                                 "%s: line %ld: %s of kernel %s at cap %s%s (the first is line "
                                 "%ld)",
                                 name, later, what, kernel, cap, round, first);
        }
        if (a->round == 0) {
            return lab_error_set(err,
                                 "%s: line %ld: kernel %s at cap %s is timed, but line %ld says "
                                 "it was not (regs_same)",
                                 name, b->line, kernel, cap, a->line);
        }
    }
    return true;
}

static void read_record(lab_reader *r, lab_regs_data *d, seen *key)
{
    const char *k = r->kind;
    if (strcmp(k, "regs_header") == 0) {
        read_header(r, d);
    } else if (strcmp(k, "regs_time") == 0) {
        read_cubin_record(r, d, LAB_REGS_TIME, key);
    } else if (strcmp(k, "regs_error") == 0) {
        read_cubin_record(r, d, LAB_REGS_ERROR, key);
    } else if (strcmp(k, "regs_same") == 0) {
        read_cubin_record(r, d, LAB_REGS_SAME, key);
    }
    /* regs_done and unknown kinds carry nothing the analysis needs */
}

/* The keys of one file's cubin records, for check_duplicates. */
typedef struct file_keys {
    lab_regs_data *data;
    seen *keys;
    long count, allocated;
} file_keys;

static void read_one(lab_reader *r, void *context)
{
    file_keys *f = context;
    seen key = {-1, 0, 0, 0};
    read_record(r, f->data, &key);
    if (!r->ok || key.kernel < 0) {
        return;
    }
    if (f->count == f->allocated) {
        seen *more = realloc(f->keys, (size_t)f->allocated * 2 * sizeof *more);
        if (more == NULL) {
            lab_reader_fail(r, "out of memory");
            return;
        }
        f->keys = more;
        f->allocated *= 2;
    }
    f->keys[f->count++] = key;
}

bool lab_regs_data_read(FILE *in, const char *name, lab_regs_data *data, lab_error *err)
{
    file_keys f = {data, NULL, 0, 1024};
    f.keys = malloc((size_t)f.allocated * sizeof *f.keys);
    if (f.keys == NULL) {
        return lab_error_set(err, "%s: out of memory", name);
    }
    lab_reader r = {.name = name, .err = err, .ok = true, .file = data->files, .kind = ""};
    bool ok = lab_reader_lines(in, &r, read_one, &f) &&
              check_duplicates(f.keys, f.count, name, data, err);
    free(f.keys);
    data->files++;
    return ok;
}

lab_regs_kernel_data *lab_regs_kernel_find(lab_regs_data *data, const char *name)
{
    for (int i = 0; i < data->kernel_count; i++) {
        if (strcmp(data->kernels[i].name, name) == 0) {
            return &data->kernels[i];
        }
    }
    return NULL;
}

void lab_regs_data_init(lab_regs_data *data)
{
    memset(data, 0, sizeof *data);
}

void lab_regs_data_free(lab_regs_data *data)
{
    for (int i = 0; i < data->kernel_count; i++) {
        free(data->kernels[i].records);
        free(data->kernels[i].meta);
        free(data->kernels[i].candidates);
    }
    free(data->kernels);
    memset(data, 0, sizeof *data);
}
