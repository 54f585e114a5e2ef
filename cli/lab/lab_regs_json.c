/*
 * lab_regs_json.c - `occ lab regs --json`: the occ.lab.regs document
 * (docs/json.md). An infinite regret (a cap without a time) is null, with
 * the failure beside it.
 */
#include <math.h>

#include <jansson.h>

#include "lab_regs_output.h"
#include "output.h"

static json_t *cap_or_null(int cap)
{
    return cap == LAB_REGS_NO_CAP ? json_null() : json_integer(cap);
}

static json_t *count_or_null(int value)
{
    return value < 0 ? json_null() : json_integer(value);
}

static json_t *finite_or_null(bool has, double value)
{
    return has && isfinite(value) ? json_real(value) : json_null();
}

static json_t *hash_or_null(uint64_t hash)
{
    if (hash == 0) {
        return json_null();
    }
    char text[17];
    snprintf(text, sizeof text, "%016llx", (unsigned long long)hash);
    return json_string(text);
}

static json_t *choice_json(const lab_regs_choice *c, bool recommended, bool candidates)
{
    if (!c->present) {
        return json_null();
    }
    json_t *o = json_object();
    json_object_set_new(o, "cap", cap_or_null(c->cap));
    if (recommended || candidates) {
        json_object_set_new(o, "asked", cap_or_null(c->asked));
        json_object_set_new(o, "approximate", json_boolean(c->approximate));
    }
    json_object_set_new(o, "blocks_per_sm", count_or_null(c->blocks_per_sm));
    json_object_set_new(o, "regs", count_or_null(c->regs));
    json_object_set_new(o, "ms", finite_or_null(c->has_ms, c->ms));
    json_object_set_new(o, "regret", finite_or_null(true, c->regret));
    json_object_set_new(o, "failure", c->failure != NULL ? json_string(c->failure) : json_null());
    json_object_set_new(o, "tolerated", json_boolean(c->tolerated));
    if (recommended) {
        json_object_set_new(o, "vs_none", finite_or_null(c->has_vs_none, c->vs_none));
    }
    if (candidates) {
        json_object_set_new(o, "candidates", json_integer(c->candidates));
        json_object_set_new(o, "candidates_measured", json_integer(c->candidates_measured));
    }
    return o;
}

static json_t *caps_json(const lab_regs_row *row)
{
    json_t *caps = json_array();
    for (int i = 0; i < row->cap_count; i++) {
        const lab_regs_cap *c = &row->caps[i];
        json_t *o = json_object();
        json_object_set_new(o, "cap", cap_or_null(c->cap));
        json_object_set_new(o, "regs", count_or_null(c->regs));
        json_object_set_new(o, "local_bytes", count_or_null(c->local_bytes));
        json_object_set_new(o, "blocks_per_sm", count_or_null(c->blocks_per_sm));
        json_object_set_new(o, "ms", finite_or_null(c->counts, c->ms));
        json_object_set_new(o, "failure",
                            c->failure != NULL ? json_string(c->failure) : json_null());
        json_object_set_new(o, "tolerated", json_boolean(c->tolerated));
        json_object_set_new(o, "timed", json_boolean(c->timed));
        json_object_set_new(o, "timings", json_integer(c->timings));
        json_object_set_new(o, "code_hash", hash_or_null(c->code_hash));
        json_object_set_new(o, "code_of_cap", cap_or_null(row->caps[c->group].cap));
        json_object_set_new(o, "code_caps", json_integer(c->group_size));
        json_array_append_new(caps, o);
    }
    return caps;
}

static json_t *row_json(const lab_regs_row *row)
{
    char why[256];
    json_t *o = json_object();
    json_object_set_new(o, "kernel", json_string(row->name));
    json_object_set_new(o, "caps_measured", json_integer(row->caps_measured));
    json_object_set_new(o, "caps_tolerated", json_integer(row->caps_tolerated));
    json_object_set_new(o, "best_cap", row->has_best ? cap_or_null(row->best_cap) : json_null());
    json_object_set_new(o, "best_ms", finite_or_null(row->has_best, row->best_ms));
    json_object_set_new(o, "note",
                        row->has_best ? json_null() : json_string("no cap measured correctly"));
    json_object_set_new(o, "none", choice_json(&row->none, false, false));
    json_object_set_new(o, "occupancy", choice_json(&row->occupancy, false, false));
    json_object_set_new(o, "recommended", choice_json(&row->recommended, true, false));
    json_object_set_new(o, "candidates", choice_json(&row->candidates, false, true));
    json_object_set_new(o, "miss",
                        row->miss.missed ? json_string(lab_regs_miss_text(row, why, sizeof why))
                                         : json_null());
    json_object_set_new(o, "codes", json_integer(row->codes));
    json_object_set_new(o, "caps", caps_json(row));
    return o;
}

static json_t *summary_json(const lab_regs_summary *s)
{
    if (!s->present) {
        return json_null();
    }
    return json_pack("{s:i,s:o,s:o}", "kernels", s->kernels, "median",
                     finite_or_null(true, s->median), "max", finite_or_null(true, s->max));
}

static json_t *header_json(const lab_regs_header *h)
{
    if (!h->present) {
        return json_null();
    }
    json_t *o = json_object();
    json_object_set_new(o, "device", h->device[0] ? json_string(h->device) : json_null());
    json_object_set_new(o, "driver", h->driver[0] ? json_string(h->driver) : json_null());
    const struct {
        const char *key;
        long long value;
    } figures[] = {{"cuda_driver_version", h->cuda_driver_version},
                   {"sm_count", h->sm_count},
                   {"n", h->n},
                   {"warmups", h->warmups},
                   {"runs", h->runs},
                   {"rounds", h->rounds}};
    for (size_t i = 0; i < sizeof figures / sizeof figures[0]; i++) {
        json_object_set_new(o, figures[i].key,
                            figures[i].value < 0 ? json_null() : json_integer(figures[i].value));
    }
    json_object_set_new(o, "distinct", h->distinct < 0 ? json_null() : json_boolean(h->distinct));
    return o;
}

void lab_regs_print_json(FILE *out, const lab_regs_view *v)
{
    const lab_regs_analysis *a = v->analysis;
    json_t *files = json_array();
    for (int i = 0; i < v->file_count; i++) {
        json_array_append_new(files, json_string(v->files[i]));
    }
    json_t *rows = json_array();
    for (int i = 0; i < a->row_count; i++) {
        json_array_append_new(rows, row_json(&a->rows[i]));
    }
    json_t *goal = json_pack("{s:f,s:f,s:f}", "median", LAB_REGS_GOAL_MEDIAN, "max",
                             LAB_REGS_GOAL_MAX, "vs_none", LAB_REGS_GOAL_VS_NONE);
    if (a->recommended.present) {
        json_object_set_new(goal, "median_met", json_boolean(a->goal_median));
        json_object_set_new(goal, "max_met", json_boolean(a->goal_max));
        json_object_set_new(goal, "vs_none_met", json_boolean(a->goal_vs_none));
    }
    json_t *worse = json_array();
    for (int i = 0; i < a->row_count; i++) {
        if (a->rows[i].worse_than_none) {
            json_array_append_new(worse, json_string(a->rows[i].name));
        }
    }
    json_object_set_new(goal, "worse_than_none", worse);
    json_t *doc = json_object();
    json_object_set_new(doc, "schema", json_string("occ.lab.regs"));
    json_object_set_new(doc, "version", json_integer(LAB_REGS_SCHEMA_VERSION));
    json_object_set_new(doc, "occ_version", json_string(occ_version()));
    json_object_set_new(doc, "records", files);
    json_object_set_new(doc, "header", header_json(&v->data->header));
    json_object_set_new(doc, "metric", json_string(lab_regs_metric_name(v->options->metric)));
    json_object_set_new(doc, "tolerance", json_real(v->options->tolerance));
    json_object_set_new(doc, "grouped", json_boolean(a->grouped));
    json_object_set_new(doc, "recommended_from",
                        v->recommended != NULL ? json_string(v->recommended) : json_null());
    json_object_set_new(doc, "cubins", json_integer(a->cubins));
    json_object_set_new(doc, "codes", json_integer(a->codes));
    json_object_set_new(doc, "max_rounds", json_integer(a->max_rounds));
    json_object_set_new(doc, "not_checked", json_integer(a->not_checked));
    json_object_set_new(doc, "tolerated", json_integer(a->tolerated));
    json_object_set_new(doc, "kernels", rows);
    json_object_set_new(doc, "summary",
                        json_pack("{s:o,s:o,s:o,s:o}", "none", summary_json(&a->none), "occupancy",
                                  summary_json(&a->occupancy), "recommended",
                                  summary_json(&a->recommended), "candidates",
                                  summary_json(&a->candidates)));
    json_object_set_new(doc, "goal", goal);
    cli_print_json(out, doc);
}
