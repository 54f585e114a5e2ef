/*
 * lab_analysis.c - the arithmetic of `occ lab`: medians, rank correlation,
 * the residency summary and paired comparison, the latency model's check,
 * the block-size and spill summaries, and a timeline's achieved occupancy,
 * waves and tail (lab_analysis.h). No I/O; tests/test_lab.c feeds it
 * synthetic inputs.
 */
#include <math.h>
#include <stdio.h> /* snprintf into the reasons; nothing is printed */
#include <stdlib.h>
#include <string.h>

#include "lab_analysis.h"

static int compare_double(const void *a, const void *b)
{
    double x = *(const double *)a;
    double y = *(const double *)b;
    return (x > y) - (x < y);
}

double lab_median(const double *values, int n)
{
    if (n <= 0) {
        return 0.0;
    }
    double *copy = malloc((size_t)n * sizeof *copy);
    if (copy == NULL) {
        return 0.0;
    }
    memcpy(copy, values, (size_t)n * sizeof *copy);
    qsort(copy, (size_t)n, sizeof *copy, compare_double);
    double m = n % 2 == 1 ? copy[n / 2] : 0.5 * (copy[n / 2 - 1] + copy[n / 2]);
    free(copy);
    return m;
}

/* Average ranks (1-based), ties sharing the mean of their positions. */
static void ranks_of(const double *v, int n, double *rank)
{
    for (int i = 0; i < n; i++) {
        int below = 0;
        int equal = 0;
        for (int j = 0; j < n; j++) {
            below += v[j] < v[i];
            equal += v[j] == v[i];
        }
        rank[i] = below + (equal + 1) / 2.0;
    }
}

double lab_spearman(const double *x, const double *y, int n)
{
    if (n < 2 || n > LAB_MAX_ROWS) {
        return 0.0;
    }
    double rx[LAB_MAX_ROWS];
    double ry[LAB_MAX_ROWS];
    ranks_of(x, n, rx);
    ranks_of(y, n, ry);
    double mean = (n + 1) / 2.0; /* the mean of ranks 1..n, ties included */
    double sxy = 0.0, sxx = 0.0, syy = 0.0;
    for (int i = 0; i < n; i++) {
        sxy += (rx[i] - mean) * (ry[i] - mean);
        sxx += (rx[i] - mean) * (rx[i] - mean);
        syy += (ry[i] - mean) * (ry[i] - mean);
    }
    if (sxx == 0.0 || syy == 0.0) {
        return 0.0;
    }
    return sxy / sqrt(sxx * syy);
}

double lab_gb_per_s(double bytes, double ms)
{
    return ms > 0.0 ? bytes / (ms * 1e6) : 0.0;
}

int lab_residency_in_flight(const lab_residency_row *row)
{
    return row->warps_per_sm * row->loads_per_thread;
}

void lab_residency_summarise(const lab_residency_row *rows, int n, lab_residency_summary *out)
{
    memset(out, 0, sizeof *out);
    out->fastest = -1;
    out->lowest_within = -1;
    out->pair_high = -1;
    out->pair_low = -1;
    for (int i = 0; i < n; i++) {
        if (out->fastest < 0 || rows[i].median_ms < rows[out->fastest].median_ms) {
            out->fastest = i;
        }
    }
    if (out->fastest < 0) {
        return;
    }
    double best = rows[out->fastest].median_ms;
    for (int i = 0; i < n; i++) {
        /* the fastest row always counts, whatever the sign of its time */
        if (i != out->fastest && rows[i].median_ms > 1.10 * best) {
            continue;
        }
        int w = out->lowest_within;
        if (w < 0 || rows[i].warps_per_sm < rows[w].warps_per_sm ||
            (rows[i].warps_per_sm == rows[w].warps_per_sm &&
             rows[i].median_ms < rows[w].median_ms)) {
            out->lowest_within = i;
        }
    }
    /* Every pair with equal loads in flight and occupancies at least 4x
       apart; the one whose times are closest is the comparison seed 000 of
       docs/sources.md makes (the same bandwidth at occupancies 4x apart). */
    double closest = 0.0;
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++) {
            const lab_residency_row *hi = &rows[i], *lo = &rows[j];
            if (lab_residency_in_flight(hi) != lab_residency_in_flight(lo) ||
                lo->warps_per_sm <= 0 || hi->warps_per_sm < 4 * lo->warps_per_sm) {
                continue;
            }
            double ratio = lo->median_ms / hi->median_ms;
            double distance = fabs(log(ratio));
            if (out->pair_count == 0) {
                out->pair_ratio_min = out->pair_ratio_max = ratio;
            }
            out->pair_ratio_min = fmin(out->pair_ratio_min, ratio);
            out->pair_ratio_max = fmax(out->pair_ratio_max, ratio);
            out->pair_count++;
            if (out->pair_high < 0 || distance < closest) {
                closest = distance;
                out->pair_high = i;
                out->pair_low = j;
                out->pair_time_ratio = ratio;
            }
        }
    }
}

/* Relative errors and rank correlation over the rows `use` marks. */
static void score(const lab_residency_row *rows, int n, const double *predicted, const bool *use,
                  int *count, double *median, double *max, double *rho)
{
    double err[LAB_MAX_ROWS] = {0}, pred[LAB_MAX_ROWS], meas[LAB_MAX_ROWS];
    int m = 0;
    for (int i = 0; i < n; i++) {
        if (!use[i]) {
            continue;
        }
        double measured = lab_gb_per_s(rows[i].bytes, rows[i].median_ms);
        pred[m] = predicted[i];
        meas[m] = measured;
        err[m] = fabs(predicted[i] - measured) / measured;
        m++;
    }
    *count = m;
    *median = lab_median(err, m);
    *max = 0.0;
    for (int i = 0; i < m; i++) {
        *max = fmax(*max, err[i]);
    }
    *rho = lab_spearman(pred, meas, m);
}

static occ_latency_input input_of(const lab_residency_row *r)
{
    occ_latency_input in;
    memset(&in, 0, sizeof in);
    in.warps_per_sm = r->warps_per_sm;
    in.loads_in_flight_per_thread = r->loads_per_thread;
    in.bytes_per_load = r->bytes_per_load;
    in.active_sms = 0;
    /* x and y are loaded, out is stored: 3 bytes moved per 2 loaded. */
    in.bytes_moved_per_byte_loaded = 1.5;
    /* Local memory is spill space here: each byte stored once, loaded once. */
    double loaded = r->loads_per_thread * r->bytes_per_load;
    in.spill_bytes_per_byte_loaded = loaded > 0.0 ? 2.0 * r->local_bytes / loaded : 0.0;
    return in;
}

void lab_model_check_run(const lab_residency_row *rows, int n, double peak_gb_per_s,
                         double latency_ns, int sm_count, lab_model_check *out)
{
    memset(out, 0, sizeof *out);
    out->fit_row = -1;
    if (n < 3 || n > LAB_MAX_ROWS || peak_gb_per_s <= 0.0 || latency_ns <= 0.0 || sm_count <= 0) {
        snprintf(out->why, sizeof out->why,
                 "needs the copy ceiling, the DRAM latency and at least 3 residency rows");
        return;
    }
    out->model.latency_ns = latency_ns;
    out->model.peak_gb_per_s = peak_gb_per_s;
    out->model.sm_count = sm_count;
    /* Prefer one-item rows: one load pair a thread, so resident warps alone
       set the loads in flight, the relation the model's latency term is
       about; other rows only when there are none. */
    for (int pass = 0; pass < 2 && out->fit_row < 0; pass++) {
        double best_distance = 0.0;
        for (int i = 0; i < n; i++) {
            double gb = lab_gb_per_s(rows[i].bytes, rows[i].median_ms);
            double distance = fabs(gb - 0.5 * peak_gb_per_s);
            bool eligible = rows[i].local_bytes == 0 && (pass == 1 || rows[i].items == 1);
            if (eligible && (out->fit_row < 0 || distance < best_distance)) {
                out->fit_row = i;
                best_distance = distance;
            }
        }
    }
    if (out->fit_row < 0) {
        snprintf(out->why, sizeof out->why, "no residency row without local memory to fit");
        return;
    }
    const lab_residency_row *fit = &rows[out->fit_row];
    occ_latency_input in = input_of(fit);
    occ_error err;
    if (occ_memory_model_fit(&out->model, &in, lab_gb_per_s(fit->bytes, fit->median_ms), &err) !=
        OCC_OK) {
        snprintf(out->why, sizeof out->why, "fit on row %s: %s", fit->label, err.message);
        return;
    }
    /* The per-warp rate: the fewest warps, then the most loads a thread. */
    out->warp_fit_row = -1;
    for (int i = 0; i < n; i++) {
        if (rows[i].local_bytes != 0 || i == out->fit_row) {
            continue;
        }
        const lab_residency_row *w = out->warp_fit_row >= 0 ? &rows[out->warp_fit_row] : NULL;
        if (w == NULL || rows[i].warps_per_sm < w->warps_per_sm ||
            (rows[i].warps_per_sm == w->warps_per_sm &&
             rows[i].loads_per_thread > w->loads_per_thread)) {
            out->warp_fit_row = i;
        }
    }
    if (out->warp_fit_row >= 0) {
        /* Only a row that falls short of the latency term says anything
           about a per-warp rate; a row the model already predicts is left
           among the rows checked. */
        const lab_residency_row *w = &rows[out->warp_fit_row];
        occ_latency_input wi = input_of(w);
        occ_latency_result without;
        if (occ_latency_predict(&out->model, &wi, &without, &err) == OCC_OK &&
            lab_gb_per_s(w->bytes, w->median_ms) >= 0.98 * without.predicted_gb_per_s) {
            out->warp_fit_row = -1;
        }
    }
    if (out->warp_fit_row >= 0) {
        const lab_residency_row *w = &rows[out->warp_fit_row];
        occ_latency_input wi = input_of(w);
        if (occ_memory_model_fit_warp_rate(&out->model, &wi, lab_gb_per_s(w->bytes, w->median_ms),
                                           &err) != OCC_OK) {
            snprintf(out->why, sizeof out->why, "fit on row %s: %s", w->label, err.message);
            return;
        }
    }
    bool use[LAB_MAX_ROWS], use_no_spill[LAB_MAX_ROWS];
    for (int i = 0; i < n; i++) {
        occ_latency_input ri = input_of(&rows[i]);
        occ_latency_result res;
        if (occ_latency_predict(&out->model, &ri, &res, &err) != OCC_OK) {
            snprintf(out->why, sizeof out->why, "predict row %s: %s", rows[i].label, err.message);
            return;
        }
        out->predicted[i] = res.predicted_gb_per_s;
        use[i] = i != out->fit_row && i != out->warp_fit_row;
        use_no_spill[i] = use[i] && rows[i].local_bytes == 0;
    }
    score(rows, n, out->predicted, use, &out->rows_compared, &out->median_error, &out->max_error,
          &out->rank_correlation);
    score(rows, n, out->predicted, use_no_spill, &out->rows_compared_no_spill,
          &out->median_error_no_spill, &out->max_error_no_spill, &out->rank_correlation_no_spill);
    out->ok = true;
}

void lab_blocksize_summarise(const lab_blocksize_row *rows, int n, lab_blocksize_summary *out)
{
    memset(out, 0, sizeof *out);
    out->fastest = -1;
    out->suggested = -1;
    for (int i = 0; i < n; i++) {
        if (out->fastest < 0 || rows[i].median_ms < rows[out->fastest].median_ms) {
            out->fastest = i;
        }
        if (rows[i].suggested) {
            out->suggested = i;
        }
    }
    if (out->fastest < 0) {
        return;
    }
    double best = rows[out->fastest].median_ms;
    for (int i = 0; i < n; i++) {
        out->within_5_percent += rows[i].median_ms <= 1.05 * best;
    }
    if (out->suggested >= 0) {
        out->suggested_time_ratio = rows[out->suggested].median_ms / best;
        out->suggested_is_fastest = out->suggested == out->fastest;
    }
}

void lab_spill_summarise(const lab_spill_row *rows, int n, lab_spill_summary *out)
{
    memset(out, 0, sizeof *out);
    out->fastest = -1;
    out->turn = -1;
    for (int i = 0; i < n; i++) {
        if (out->fastest < 0 || rows[i].median_ms < rows[out->fastest].median_ms) {
            out->fastest = i;
        }
        if (out->turn < 0 && i > 0 && rows[i].warps_per_sm > rows[i - 1].warps_per_sm &&
            rows[i].median_ms > 1.05 * rows[i - 1].median_ms) {
            out->turn = i;
            out->turn_time_ratio = rows[i].median_ms / rows[i - 1].median_ms;
        }
    }
}

/* One change in the number of resident blocks, for the sweep. */
typedef struct block_event {
    double t;
    int delta; /* +1 start, -1 end */
} block_event;

static int compare_event(const void *a, const void *b)
{
    const block_event *x = a;
    const block_event *y = b;
    if (x->t != y->t) {
        return (x->t > y->t) - (x->t < y->t);
    }
    return x->delta - y->delta; /* ends before starts at the same instant */
}

bool lab_timeline_analyse(const lab_launch *launch, lab_timeline_summary *out, char *why,
                          size_t why_bytes)
{
    memset(out, 0, sizeof *out);
    const int n = launch->block_count;
    const int sms = launch->sm_count;
    if (n <= 0 || sms <= 0 || launch->blocks_per_sm <= 0 || launch->max_warps_per_sm <= 0) {
        snprintf(why, why_bytes, "launch %s: no blocks, SMs or residency to analyse", launch->name);
        return false;
    }
    int *per_sm = calloc((size_t)sms, sizeof *per_sm);
    block_event *events = malloc(2 * (size_t)n * sizeof *events);
    if (per_sm == NULL || events == NULL) {
        free(per_sm);
        free(events);
        snprintf(why, why_bytes, "out of memory");
        return false;
    }
    double first = 0.0, last = 0.0, busy_ns = 0.0;
    for (int i = 0; i < n; i++) {
        const lab_block *b = &launch->blocks[i];
        if (b->sm < 0 || b->sm >= sms || b->end_ns < b->start_ns) {
            snprintf(why, why_bytes, "launch %s: block %d has SM %d (of %d) and runs %.0f..%.0f ns",
                     launch->name, i, b->sm, sms, b->start_ns, b->end_ns);
            free(per_sm);
            free(events);
            return false;
        }
        per_sm[b->sm]++;
        first = i == 0 ? b->start_ns : fmin(first, b->start_ns);
        last = i == 0 ? b->end_ns : fmax(last, b->end_ns);
        busy_ns += b->end_ns - b->start_ns;
        events[2 * i] = (block_event){b->start_ns, +1};
        events[2 * i + 1] = (block_event){b->end_ns, -1};
    }
    out->duration_ns = last - first;
    double warps_per_block = (double)launch->warps_per_sm / launch->blocks_per_sm;
    double capacity_warps = (double)sms * launch->max_warps_per_sm;
    out->theoretical_occupancy = (double)launch->warps_per_sm / launch->max_warps_per_sm;
    out->achieved_occupancy = out->duration_ns > 0.0
                                  ? busy_ns * warps_per_block / (out->duration_ns * capacity_warps)
                                  : 0.0;
    int slots = launch->blocks_per_sm * sms;
    out->waves_theoretical = (double)launch->grid / slots;
    out->min_blocks_per_sm = n;
    for (int s = 0; s < sms; s++) {
        if (per_sm[s] > 0) {
            out->sms_used++;
        }
        out->min_blocks_per_sm =
            per_sm[s] < out->min_blocks_per_sm ? per_sm[s] : out->min_blocks_per_sm;
        out->max_blocks_per_sm =
            per_sm[s] > out->max_blocks_per_sm ? per_sm[s] : out->max_blocks_per_sm;
    }
    out->waves_measured =
        (out->max_blocks_per_sm + launch->blocks_per_sm - 1) / launch->blocks_per_sm;

    /* Sweep: resident blocks over time; where every slot is busy; samples. */
    qsort(events, 2 * (size_t)n, sizeof *events, compare_event);
    int active = 0;
    double full_since = -1.0, last_full_end = first;
    bool ever_full = false;
    int sample = 0;
    double step = out->duration_ns / LAB_TIMELINE_SAMPLES;
    for (int e = 0; e < 2 * n; e++) {
        /* Samples at the middle of each interval before this event. */
        while (sample < LAB_TIMELINE_SAMPLES && first + (sample + 0.5) * step < events[e].t) {
            out->occupancy_over_time[sample++] = active * warps_per_block / capacity_warps;
        }
        int before = active;
        active += events[e].delta;
        if (before < slots && active >= slots) {
            full_since = events[e].t;
        } else if (before >= slots && active < slots) {
            out->full_ns += events[e].t - full_since;
            last_full_end = events[e].t;
            ever_full = true;
        }
    }
    while (sample < LAB_TIMELINE_SAMPLES) {
        out->occupancy_over_time[sample++] = 0.0;
    }
    out->tail_ns = ever_full ? last - last_full_end : out->duration_ns;
    free(per_sm);
    free(events);
    return true;
}
