/*
 * diff_read.c - both sides of a diff read at once, and the whole of a diff
 * in one call for bindings (include/occ_diff.h). Reading the two sides on
 * two threads fills the gaps where one side's threads wait on a large entry
 * (the engine's buffer budget) with the other side's work.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "diff_internal.h"

typedef struct side_job {
    const occ_inspect_input *inputs;
    int count;
    const occ_inspect_options *options;
    const char *filter;
    occ_inspect_result *result;
    occ_inspect_error err;
    occ_status status;
    double seconds;
} side_job;

static double now_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void *read_side(void *context)
{
    side_job *s = context;
    double start = now_seconds();
    s->status = occ_inspect_read(s->inputs, s->count, s->options, &s->result, &s->err);
    if (s->status == OCC_OK && s->filter != NULL) {
        s->status = occ_inspect_filter(s->result, s->filter, &s->err);
    }
    s->seconds = now_seconds() - start;
    return NULL;
}

occ_status occ_diff_read(const occ_inspect_input *old_inputs, int old_count,
                         const occ_inspect_input *new_inputs, int new_count,
                         const occ_inspect_options *options, const char *filter,
                         occ_diff_sides *out, occ_inspect_error *err)
{
    if (out == NULL || options == NULL || old_inputs == NULL || new_inputs == NULL) {
        return insp_diff_fail(err, OCC_ERR_NULL_POINTER, "occ_diff_read: a NULL argument");
    }
    memset(out, 0, sizeof *out);
    out->failed_side = -1;
    side_job jobs[2] = {{old_inputs, old_count, options, filter, NULL, {0}, OCC_OK, 0},
                        {new_inputs, new_count, options, filter, NULL, {0}, OCC_OK, 0}};
    pthread_t thread;
    bool threaded = pthread_create(&thread, NULL, read_side, &jobs[0]) == 0;
    if (!threaded) {
        read_side(&jobs[0]);
    }
    read_side(&jobs[1]);
    if (threaded) {
        pthread_join(thread, NULL);
    }
    out->old_seconds = jobs[0].seconds;
    out->new_seconds = jobs[1].seconds;
    for (int i = 0; i < 2; i++) {
        if (jobs[i].status != OCC_OK) {
            /* the library's line names the input (and the offset) */
            if (err != NULL) {
                *err = jobs[i].err;
            }
            out->failed_side = i;
            occ_inspect_result_free(jobs[0].result);
            occ_inspect_result_free(jobs[1].result);
            return jobs[i].status;
        }
    }
    out->old_result = jobs[0].result;
    out->new_result = jobs[1].result;
    return OCC_OK;
}

occ_status occ_diff_run_json(const occ_diff_request *q, char **text, size_t *size, size_t *failed,
                             occ_inspect_error *err)
{
    if (q == NULL || text == NULL || size == NULL || q->read == NULL) {
        return insp_diff_fail(err, OCC_ERR_NULL_POINTER, "occ_diff_run_json: a NULL argument");
    }
    *text = NULL;
    *size = 0;
    if (failed != NULL) {
        *failed = 0;
    }
    /* what can be refused before any binary is read */
    occ_diff_gate gate;
    memset(&gate, 0, sizeof gate);
    occ_status status = OCC_OK;
    if (q->fail_on != NULL) {
        status = occ_diff_gate_parse(q->fail_on, &gate, err);
    }
    occ_diff_allow_list allow;
    memset(&allow, 0, sizeof allow);
    if (status == OCC_OK && q->allow_path != NULL) {
        status = occ_diff_allow_read(q->allow_path, &allow, err);
    }
    occ_diff_sides sides;
    memset(&sides, 0, sizeof sides);
    if (status == OCC_OK) {
        status = occ_diff_read(q->old_inputs, q->old_count, q->new_inputs, q->new_count, q->read,
                               q->filter, &sides, err);
    }
    /* the same launches on both sides: a row is a kernel at one launch */
    occ_inspect_launch_list *l = q->launches;
    for (int i = 0; status == OCC_OK && l != NULL && i < 2; i++) {
        status = occ_inspect_apply_launches(i == 0 ? sides.old_result : sides.new_result, q->read,
                                            l->launches, l->count, l->matched, &l->match, err);
    }
    occ_diff_report report;
    memset(&report, 0, sizeof report);
    if (status == OCC_OK) {
        report.old_side = (occ_diff_side){q->old_label, sides.old_result, 0, 0};
        report.new_side = (occ_diff_side){q->new_label, sides.new_result, 0, 0};
        report.read = q->read;
        report.launches = l;
        report.gate = q->fail_on != NULL ? &gate : NULL;
        report.allow = allow.count > 0 ? &allow : NULL;
        status = occ_diff_compare(&report, err);
    }
    if (status == OCC_OK) {
        status = occ_diff_json_text(&report, text, size, err);
        if (failed != NULL) {
            *failed = report.failed;
        }
    }
    occ_diff_report_free(&report);
    occ_inspect_result_free(sides.old_result);
    occ_inspect_result_free(sides.new_result);
    occ_diff_allow_free(&allow);
    return status;
}
