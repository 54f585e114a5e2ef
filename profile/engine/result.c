/*
 * result.c - occ_profile_read: every input detected, streamed into groups
 * by its reader, then the groups computed and sorted; and the accessors.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prof_engine.h"

const char *occ_profile_format_name(occ_profile_format format)
{
    switch (format) {
    case OCC_PROFILE_FORMAT_KINETO: return "kineto";
    case OCC_PROFILE_FORMAT_NSYS_SQLITE: return "nsys-sqlite";
    case OCC_PROFILE_FORMAT_NSYS_CSV: return "nsys-csv";
    default: return "unknown";
    }
}

const char *occ_profile_kineto_cause_name(occ_profile_kineto_cause cause)
{
    static const char *const names[] = {"agrees", "carveout", "barriers", "clusters",
                                        "optin",  "threads",  "rounding", "unexplained"};
    return (unsigned)cause < sizeof names / sizeof names[0] ? names[cause] : "unknown";
}

void occ_profile_options_init(occ_profile_options *options)
{
    if (options) {
        memset(options, 0, sizeof *options);
    }
}

occ_status occ_profile_detect(const char *path, occ_profile_format *out, occ_profile_error *err)
{
    if (!path || !out) {
        return prof_error(err, OCC_ERR_NULL_POINTER, NULL, -1, -1, "path and out are required");
    }
    return prof_detect(path, -1, out, err);
}

void prof_engine_free(occ_profile_result *r)
{
    if (!r) {
        return;
    }
    for (size_t i = 0; i < r->name_count; i++) {
        free(r->names[i]);
    }
    free(r->names);
    free(r->name_slots);
    free(r->groups);
    free(r->slots);
    free(r);
}

void occ_profile_result_free(occ_profile_result *result)
{
    prof_engine_free(result);
}

/* Largest GPU time first; then name and configuration, so ties never
   depend on the order of the trace. */
static int by_time(const void *a, const void *b)
{
    const occ_profile_group *x = &((const prof_group *)a)->pub;
    const occ_profile_group *y = &((const prof_group *)b)->pub;
    if (x->gpu_time_us != y->gpu_time_us) {
        return x->gpu_time_us > y->gpu_time_us ? -1 : 1;
    }
    int c = strcmp(x->name, y->name);
    if (c) {
        return c;
    }
    if (x->device != y->device) {
        return x->device < y->device ? -1 : 1;
    }
    int cx[] = {x->grid[0],  x->grid[1],    x->grid[2],         x->block[0],   x->block[1],
                x->block[2], x->cluster[0], x->regs_per_thread, x->smem_bytes, x->cache_preference};
    int cy[] = {y->grid[0],  y->grid[1],    y->grid[2],         y->block[0],   y->block[1],
                y->block[2], y->cluster[0], y->regs_per_thread, y->smem_bytes, y->cache_preference};
    for (size_t i = 0; i < sizeof cx / sizeof cx[0]; i++) {
        if (cx[i] != cy[i]) {
            return cx[i] < cy[i] ? -1 : 1;
        }
    }
    return 0;
}

occ_status occ_profile_read(const occ_profile_input *inputs, int input_count,
                            const occ_profile_options *options, occ_profile_result **out,
                            occ_profile_error *err)
{
    if (err) {
        memset(err, 0, sizeof *err);
        err->input = -1;
        err->where = -1;
    }
    if (!out || (!inputs && input_count > 0)) {
        return prof_error(err, OCC_ERR_NULL_POINTER, NULL, -1, -1, "inputs and out are required");
    }
    *out = NULL;
    if (input_count < 1 || input_count > 4096) {
        return prof_error(err, OCC_ERR_INVALID_ARGUMENT, NULL, -1, -1,
                          "input_count %d is outside 1..4096", input_count);
    }
    if (options && options->device && occ_device_validate(options->device, NULL) != OCC_OK) {
        return prof_error(err, OCC_ERR_INVALID_DEVICE, NULL, -1, -1,
                          "options.device is not a valid device (occ_device_validate)");
    }
    occ_profile_result *r = calloc(1, sizeof *r);
    if (!r) {
        return prof_error(err, OCC_ERR_OUT_OF_MEMORY, NULL, -1, -1, "out of memory");
    }
    r->input_count = input_count;
    r->inputs = inputs;
    const prof_sink sink = {prof_engine_launch, prof_engine_device, r};
    occ_status st = OCC_OK;
    for (int i = 0; i < input_count && st == OCC_OK; i++) {
        const char *path = inputs[i].path;
        if (!path) {
            st = prof_error(err, OCC_ERR_NULL_POINTER, NULL, i, -1, "input %d has no path", i);
            break;
        }
        r->current_input = i;
        r->current_path = path;
        occ_profile_format format;
        st = prof_detect(path, i, &format, err);
        if (st != OCC_OK) {
            break;
        }
        if (i < 64) {
            r->formats[i] = format;
        }
        switch (format) {
        case OCC_PROFILE_FORMAT_KINETO: st = prof_read_kineto(path, i, &sink, err); break;
        case OCC_PROFILE_FORMAT_NSYS_SQLITE: st = prof_read_nsys_sqlite(path, i, &sink, err); break;
        case OCC_PROFILE_FORMAT_NSYS_CSV: st = prof_read_nsys_csv(path, i, &sink, err); break;
        default:
            st = prof_error(err, OCC_ERR_BAD_FORMAT, path, i, -1,
                            "not a PyTorch profiler trace (JSON), an Nsight Systems SQLite "
                            "export or an `nsys stats --report cuda_gpu_trace` CSV");
            break;
        }
    }
    free(r->slots); /* the table is for reading only */
    r->slots = NULL;
    if (st == OCC_OK) {
        st = prof_engine_compute(r, options, err);
    }
    if (st != OCC_OK) {
        prof_engine_free(r);
        return st;
    }
    r->inputs = NULL;
    if (r->group_count > 1) {
        qsort(r->groups, r->group_count, sizeof *r->groups, by_time);
    }
    *out = r;
    return OCC_OK;
}

size_t occ_profile_group_count(const occ_profile_result *r)
{
    return r ? r->group_count : 0;
}

const occ_profile_group *occ_profile_group_at(const occ_profile_result *r, size_t index)
{
    return r && index < r->group_count ? &r->groups[index].pub : NULL;
}

size_t occ_profile_device_count(const occ_profile_result *r)
{
    return r ? r->device_count : 0;
}

const occ_profile_device *occ_profile_device_at(const occ_profile_result *r, size_t index)
{
    return r && index < r->device_count ? &r->devices[index] : NULL;
}

const occ_profile_summary *occ_profile_summary_of(const occ_profile_result *r)
{
    return r ? &r->summary : NULL;
}

occ_profile_format occ_profile_input_format(const occ_profile_result *r, int index)
{
    return r && index >= 0 && index < r->input_count && index < 64 ? r->formats[index]
                                                                   : OCC_PROFILE_FORMAT_UNKNOWN;
}

size_t occ_profile_rank(const occ_profile_result *r, size_t *indices, size_t max)
{
    if (!r || !indices) {
        return 0;
    }
    /* a partial selection: max is small (the text shows a few) */
    size_t n = 0;
    for (size_t i = 0; i < r->group_count; i++) {
        const occ_profile_group *g = &r->groups[i].pub;
        if (!g->computed) {
            continue;
        }
        double score = g->gpu_time_us * (1.0 - g->occupancy);
        if (score <= 0) {
            continue;
        }
        size_t at = n < max ? n++ : max;
        while (at > 0) {
            const occ_profile_group *h = &r->groups[indices[at - 1]].pub;
            if (h->gpu_time_us * (1.0 - h->occupancy) >= score) {
                break;
            }
            if (at < max) {
                indices[at] = indices[at - 1];
            }
            at--;
        }
        if (at < max) {
            indices[at] = i;
        }
    }
    return n;
}

occ_status occ_profile_group_kernel(const occ_profile_result *r, size_t index, occ_kernel *out,
                                    occ_error *err)
{
    if (!r || !out) {
        if (err) {
            snprintf(err->message, sizeof err->message, "result and out are required");
            err->status = OCC_ERR_NULL_POINTER;
            err->field = "result";
        }
        return OCC_ERR_NULL_POINTER;
    }
    if (index >= r->group_count || !r->groups[index].pub.computed) {
        if (err) {
            snprintf(err->message, sizeof err->message,
                     "group %zu is out of range (0..%zu) or was not computed", index,
                     r->group_count);
            err->status = OCC_ERR_NOT_FOUND;
            err->field = "index";
        }
        return OCC_ERR_NOT_FOUND;
    }
    prof_group_kernel(&r->groups[index].pub, out);
    return OCC_OK;
}
