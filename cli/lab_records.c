/*
 * lab_records.c - reads what occ-lab printed: one JSON object a line, each
 * with a "record" kind (docs/lab.md). Unknown kinds are skipped so an older
 * occ can read a newer lab's output; a malformed line is an error.
 */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "lab.h"

typedef struct reader {
    json_t *obj;
    const char *kind;
    long line;
    char *msg;
    size_t cap;
    bool ok;
} reader;

static json_t *field(reader *r, const char *key)
{
    json_t *v = json_object_get(r->obj, key);
    if (v == NULL || json_is_null(v)) {
        if (r->ok) {
            snprintf(r->msg, r->cap, "line %ld: %s record has no field '%s'", r->line, r->kind,
                     key);
        }
        r->ok = false;
    }
    return v;
}

static double num(reader *r, const char *key)
{
    json_t *v = field(r, key);
    if (v != NULL && !json_is_number(v)) {
        if (r->ok) {
            snprintf(r->msg, r->cap, "line %ld: %s field '%s' is not a number", r->line, r->kind,
                     key);
        }
        r->ok = false;
    }
    return v != NULL && json_is_number(v) ? json_number_value(v) : 0.0;
}

static int integer(reader *r, const char *key)
{
    double v = num(r, key);
    if (v < -2147483647.0 || v > 2147483647.0) {
        if (r->ok) {
            snprintf(r->msg, r->cap, "line %ld: %s field '%s' is out of range", r->line,
                     r->kind, key);
        }
        r->ok = false;
        return 0;
    }
    return (int)v;
}

static bool flag(reader *r, const char *key)
{
    json_t *v = field(r, key);
    return v != NULL && json_is_true(v);
}

static void text(reader *r, const char *key, char *out, size_t cap)
{
    json_t *v = field(r, key);
    const char *s = v != NULL && json_is_string(v) ? json_string_value(v) : "";
    snprintf(out, cap, "%s", s);
}

static bool room(reader *r, int count, const char *what)
{
    if (count >= LAB_MAX_ROWS) {
        snprintf(r->msg, r->cap, "line %ld: more than %d %s records", r->line, LAB_MAX_ROWS,
                 what);
        r->ok = false;
        return false;
    }
    return true;
}

static lab_launch *find_launch(lab_data *d, const char *name)
{
    for (int i = 0; i < d->launch_count; i++) {
        if (strcmp(d->launches[i].name, name) == 0) {
            return &d->launches[i];
        }
    }
    return NULL;
}

static void read_record(reader *r, lab_data *d)
{
    const char *k = r->kind;
    if (strcmp(k, "device") == 0) {
        lab_device_info *v = &d->device;
        text(r, "name", v->name, sizeof v->name);
        v->cc_major = integer(r, "cc_major");
        v->cc_minor = integer(r, "cc_minor");
        v->sm_count = integer(r, "sm_count");
        v->max_warps_per_sm = integer(r, "max_warps_per_sm");
        v->l2_bytes = (long long)num(r, "l2_bytes");
        v->sm_clock_khz = integer(r, "sm_clock_khz");
        v->peak_gb_per_s = integer(r, "peak_gb_per_s");
        v->driver_version = integer(r, "driver_version");
        v->runtime_version = integer(r, "runtime_version");
        d->has_device = true;
    } else if (strcmp(k, "ceiling") == 0) {
        char method[32];
        text(r, "method", method, sizeof method);
        double bytes = num(r, "bytes");
        double ms = num(r, "median_ms");
        if (strcmp(method, "memcpy") == 0) {
            d->memcpy_bytes = bytes;
            d->memcpy_ms = ms;
        } else if (strcmp(method, "copy_kernel") == 0) {
            d->copy_kernel_bytes = bytes;
            d->copy_kernel_ms = ms;
        }
    } else if (strcmp(k, "latency") == 0) {
        char level[32];
        text(r, "level", level, sizeof level);
        double ns = num(r, "ns_per_load");
        double cycles = num(r, "cycles_per_load");
        if (strcmp(level, "dram") == 0) {
            d->dram_ns = ns;
            d->dram_cycles = cycles;
        } else if (strcmp(level, "dram_64mib") == 0) {
            d->dram_small_ns = ns;
        } else if (strcmp(level, "l2") == 0) {
            d->l2_ns = ns;
            d->l2_cycles = cycles;
        }
    } else if (strcmp(k, "residency") == 0) {
        if (!room(r, d->residency_count, k)) {
            return;
        }
        lab_residency_row *v = &d->residency[d->residency_count++];
        text(r, "label", v->label, sizeof v->label);
        v->items = integer(r, "items");
        v->launch_bound_min_blocks = integer(r, "launch_bound_min_blocks");
        v->dyn_smem_bytes = integer(r, "dyn_smem_bytes");
        v->regs = integer(r, "regs");
        v->local_bytes = integer(r, "local_bytes");
        v->blocks_per_sm = integer(r, "blocks_per_sm");
        v->warps_per_sm = integer(r, "warps_per_sm");
        v->max_warps_per_sm = integer(r, "max_warps_per_sm");
        v->loads_per_thread = integer(r, "loads_per_thread");
        v->bytes_per_load = integer(r, "bytes_per_load");
        v->bytes = num(r, "bytes");
        v->median_ms = num(r, "median_ms");
        v->checked = flag(r, "checked");
    } else if (strcmp(k, "blocksize_suggestion") == 0) {
        d->suggested_threads = integer(r, "threads");
    } else if (strcmp(k, "blocksize") == 0) {
        if (!room(r, d->blocksize_count, k)) {
            return;
        }
        lab_blocksize_row *v = &d->blocksize[d->blocksize_count++];
        v->threads = integer(r, "threads");
        v->blocks_per_sm = integer(r, "blocks_per_sm");
        v->warps_per_sm = integer(r, "warps_per_sm");
        v->max_warps_per_sm = integer(r, "max_warps_per_sm");
        v->suggested = flag(r, "suggested");
        v->bytes = num(r, "bytes");
        v->median_ms = num(r, "median_ms");
        v->checked = flag(r, "checked");
    } else if (strcmp(k, "spill") == 0) {
        if (!room(r, d->spill_count, k)) {
            return;
        }
        lab_spill_row *v = &d->spill[d->spill_count++];
        v->min_blocks = integer(r, "min_blocks");
        v->regs = integer(r, "regs");
        v->local_bytes = integer(r, "local_bytes");
        v->blocks_per_sm = integer(r, "blocks_per_sm");
        v->warps_per_sm = integer(r, "warps_per_sm");
        v->max_warps_per_sm = integer(r, "max_warps_per_sm");
        v->median_ms = num(r, "median_ms");
        v->checked = flag(r, "checked");
    } else if (strcmp(k, "launch") == 0) {
        if (d->launch_count >= LAB_MAX_LAUNCHES) {
            snprintf(r->msg, r->cap, "line %ld: more than %d launch records", r->line,
                     LAB_MAX_LAUNCHES);
            r->ok = false;
            return;
        }
        lab_launch *v = &d->launches[d->launch_count];
        text(r, "launch", v->name, sizeof v->name);
        v->grid = integer(r, "grid");
        v->threads = integer(r, "threads");
        v->blocks_per_sm = integer(r, "blocks_per_sm");
        v->warps_per_sm = integer(r, "warps_per_sm");
        v->max_warps_per_sm = integer(r, "max_warps_per_sm");
        v->sm_count = integer(r, "sm_count");
        v->kernel_ms = num(r, "kernel_ms");
        if (r->ok && (v->grid <= 0 || v->grid > 1 << 24)) {
            snprintf(r->msg, r->cap, "line %ld: launch grid %d is outside 1..%d", r->line,
                     v->grid, 1 << 24);
            r->ok = false;
            return;
        }
        if (r->ok) {
            v->blocks = calloc((size_t)v->grid, sizeof *v->blocks);
            if (v->blocks == NULL) {
                snprintf(r->msg, r->cap, "out of memory");
                r->ok = false;
                return;
            }
            d->launch_count++;
        }
    } else if (strcmp(k, "block") == 0) {
        char name[32];
        text(r, "launch", name, sizeof name);
        lab_launch *l = find_launch(d, name);
        int index = integer(r, "block");
        if (r->ok && (l == NULL || index < 0 || index >= l->grid || l->block_count >= l->grid)) {
            snprintf(r->msg, r->cap, "line %ld: block %d of launch '%s' has no launch record "
                                     "or lies outside its grid",
                     r->line, index, name);
            r->ok = false;
            return;
        }
        if (r->ok) {
            lab_block *b = &l->blocks[index];
            b->sm = integer(r, "sm");
            b->start_ns = num(r, "start_ns");
            b->end_ns = num(r, "end_ns");
            l->block_count++;
        }
    } else if (strcmp(k, "verify") == 0) {
        d->has_verify = true;
        d->verify_kernels = integer(r, "kernels");
        d->verify_comparisons = (long long)num(r, "comparisons");
        d->verify_mismatches = (long long)num(r, "mismatches");
    } else if (strcmp(k, "error") == 0) {
        text(r, "message", d->error, sizeof d->error);
    } else if (strcmp(k, "done") == 0) {
        d->done = true;
    }
    /* "lab", "verify_kernel", "verify_mismatch" and unknown kinds carry
       nothing the analysis needs; they stay in the raw records. */
}

bool lab_records_read(FILE *in, lab_data *data, char *msg, size_t cap)
{
    memset(data, 0, sizeof *data);
    char *line = NULL;
    size_t line_cap = 0;
    ssize_t len;
    reader r = {.msg = msg, .cap = cap, .ok = true};
    while (r.ok && (len = getline(&line, &line_cap, in)) >= 0) {
        r.line++;
        if (len == 0 || line[0] == '\n') {
            continue;
        }
        json_error_t jerr;
        r.obj = json_loads(line, 0, &jerr);
        if (r.obj == NULL || !json_is_object(r.obj)) {
            snprintf(msg, cap, "line %ld: not a JSON object (%s)", r.line,
                     r.obj == NULL ? jerr.text : "another JSON value");
            json_decref(r.obj);
            r.ok = false;
            break;
        }
        json_t *kind = json_object_get(r.obj, "record");
        if (!json_is_string(kind)) {
            snprintf(msg, cap, "line %ld: no \"record\" kind", r.line);
            r.ok = false;
        } else {
            r.kind = json_string_value(kind);
            read_record(&r, data);
        }
        json_decref(r.obj);
    }
    free(line);
    return r.ok;
}

void lab_data_free(lab_data *data)
{
    for (int i = 0; i < data->launch_count; i++) {
        free(data->launches[i].blocks);
        data->launches[i].blocks = NULL;
    }
    data->launch_count = 0;
}
