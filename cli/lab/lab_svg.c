/*
 * lab_svg.c - the plots of `occ lab --out DIR`: GB/s against occupancy and
 * against loads in flight (one point a residency row, the model beside the
 * measurement), GB/s against block size, time against the spill bound, and
 * one timeline per launch (a lane a SM, a bar a block, coloured by wave,
 * with the achieved occupancy over time above). Plain SVG 1.1, no scripts.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lab_output.h"
#include "svg.h"

#define PLOT_W 720
#define PLOT_H 440
#define MARGIN_L 70
#define MARGIN_R 20
#define MARGIN_T 40
#define MARGIN_B 50

/* A plot's data space mapped onto its drawing area. */
typedef struct plot {
    svg *s;
    double x0, x1, y0, y1;
    bool log2_x;
} plot;

static const char *const palette[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728",
                                      "#9467bd", "#8c564b", "#e377c2", "#7f7f7f"};

static double map_x(const plot *c, double x)
{
    double a = c->log2_x ? log2(x) : x;
    double lo = c->log2_x ? log2(c->x0) : c->x0;
    double hi = c->log2_x ? log2(c->x1) : c->x1;
    return MARGIN_L + (a - lo) / (hi - lo) * (PLOT_W - MARGIN_L - MARGIN_R);
}

static double map_y(const plot *c, double y)
{
    return PLOT_H - MARGIN_B - (y - c->y0) / (c->y1 - c->y0) * (PLOT_H - MARGIN_T - MARGIN_B);
}

/* An open plot file: the stream and the SVG document on it. */
typedef struct plot_file {
    FILE *f;
    svg s;
} plot_file;

static bool open_svg(plot_file *pf, const char *dir, const char *name, int w, int h,
                     const char *title, cli_error *err)
{
    char path[1024];
    int n = snprintf(path, sizeof path, "%s/%s", dir, name);
    if (n < 0 || (size_t)n >= sizeof path) {
        return cli_error_set(err, EXIT_DATA, "%.200s...: a path longer than %zu bytes", path,
                             sizeof path - 1);
    }
    pf->f = fopen(path, "w");
    if (pf->f == NULL) {
        return cli_error_set(err, EXIT_DATA, "cannot write %s: %s", path, strerror(errno));
    }
    svg_begin(&pf->s, pf->f, w, h, title);
    svg_text(&pf->s, MARGIN_L, 22, "start", 15, "black", 0, title);
    return true;
}

static bool close_svg(plot_file *pf, cli_error *err)
{
    svg_end(&pf->s);
    errno = 0;
    bool failed = ferror(pf->f) != 0;
    failed |= fclose(pf->f) != 0;
    if (failed) {
        return cli_error_set(err, EXIT_DATA, "cannot finish an SVG file: %s",
                             errno != 0 ? strerror(errno) : "write error");
    }
    return true;
}

/* Axes, five ticks on each (powers of two on a log2 x axis), labels. */
static void axes(const plot *c, const char *x_label, const char *y_label)
{
    svg *s = c->s;
    double left = MARGIN_L, right = PLOT_W - MARGIN_R, top = MARGIN_T, bottom = PLOT_H - MARGIN_B;
    char text[32];
    svg_line(s, left, top, left, bottom, "black", 1, NULL);
    svg_line(s, left, bottom, right, bottom, "black", 1, NULL);
    for (int i = 0; i <= 4; i++) {
        double y = c->y0 + (c->y1 - c->y0) * i / 4.0;
        double py = map_y(c, y);
        svg_line(s, left, py, right, py, "#dddddd", 1, NULL);
        snprintf(text, sizeof text, "%.4g", y);
        svg_text(s, left - 6, py + 4, "end", 12, "black", 0, text);
    }
    if (c->log2_x) {
        for (double x = c->x0; x <= c->x1 * 1.0001; x *= 2) {
            snprintf(text, sizeof text, "%.0f", x);
            svg_text(s, map_x(c, x), bottom + 18, "middle", 12, "black", 0, text);
        }
    } else {
        for (int i = 0; i <= 4; i++) {
            double x = c->x0 + (c->x1 - c->x0) * i / 4.0;
            snprintf(text, sizeof text, "%.4g", x);
            svg_text(s, map_x(c, x), bottom + 18, "middle", 12, "black", 0, text);
        }
    }
    svg_text(s, (left + right) / 2, bottom + 40, "middle", 12, "black", 0, x_label);
    svg_text(s, 16, (top + bottom) / 2, "middle", 12, "black", -90, y_label);
}

static void hline(const plot *c, double y, const char *label)
{
    double py = map_y(c, y);
    svg_line(c->s, MARGIN_L, py, PLOT_W - MARGIN_R, py, "black", 1, "6 4");
    svg_text(c->s, MARGIN_L + 6, py - 5, "start", 12, "black", 0, label);
}

static void point(const plot *c, double x, double y, const char *color, bool hollow,
                  const char *tip)
{
    svg_marker(c->s, map_x(c, x), map_y(c, y), 4.5, color, hollow, tip);
}

static void legend(const plot *c, int row, const char *color, bool hollow, const char *text)
{
    /* Lower right: the data of these plots rise to the upper right. */
    double x = PLOT_W - MARGIN_R - 150;
    double y = PLOT_H - MARGIN_B - 96 + 16 * row;
    svg_marker(c->s, x, y - 4, 4.5, color, hollow, NULL);
    svg_text(c->s, x + 10, y, "start", 12, "black", 0, text);
}

/* The colour of a residency row: one per items-a-thread value. */
static int items_color(int items)
{
    int k = 0;
    while (items > 1 && k < 7) {
        items /= 2;
        k++;
    }
    return k;
}

static double max_residency_gb(const lab_data *d, const lab_model_check *m)
{
    double top = lab_gb_per_s(d->memcpy_bytes, d->memcpy_ms);
    for (int i = 0; i < d->residency_count; i++) {
        top = fmax(top, lab_gb_per_s(d->residency[i].bytes, d->residency[i].median_ms));
        if (m->ok) {
            top = fmax(top, m->predicted[i]);
        }
    }
    return top * 1.08;
}

static bool residency_plots(const char *dir, const lab_data *d, cli_error *err)
{
    lab_model_check m;
    double ceiling = lab_gb_per_s(d->memcpy_bytes, d->memcpy_ms);
    lab_model_check_run(d->residency, d->residency_count, ceiling, d->dram_ns, d->device.sm_count,
                        &m);
    double top = max_residency_gb(d, &m);
    char tip[160];

    plot_file pf;
    if (!open_svg(&pf, dir, "residency-occupancy.svg", PLOT_W, PLOT_H,
                  "residency: GB/s against occupancy (a*x + y, every row checked)", err)) {
        return false;
    }
    plot c = {&pf.s, 0.0, 100.0, 0.0, top, false};
    axes(&c, "occupancy (%)", "GB/s (read + written)");
    hline(&c, ceiling, "cudaMemcpy ceiling");
    int legend_row = 0;
    for (int items = 1; items <= 16; items *= 2) {
        char text[32];
        snprintf(text, sizeof text, "%d item%s a thread", items, items > 1 ? "s" : "");
        legend(&c, legend_row++, palette[items_color(items)], false, text);
    }
    for (int i = 0; i < d->residency_count; i++) {
        const lab_residency_row *r = &d->residency[i];
        double gb = lab_gb_per_s(r->bytes, r->median_ms);
        snprintf(tip, sizeof tip, "%.31s: %.0f GB/s", r->label, gb);
        point(&c, 100.0 * r->warps_per_sm / r->max_warps_per_sm, gb, palette[items_color(r->items)],
              r->local_bytes > 0, tip);
    }
    if (!close_svg(&pf, err)) {
        return false;
    }

    if (!open_svg(&pf, dir, "residency-in-flight.svg", PLOT_W, PLOT_H,
                  "residency: GB/s against loads in flight a SM (model hollow)", err)) {
        return false;
    }
    double lo = 1e30, hi = 0;
    for (int i = 0; i < d->residency_count; i++) {
        double x = lab_residency_in_flight(&d->residency[i]);
        lo = fmin(lo, x);
        hi = fmax(hi, x);
    }
    lo = exp2(floor(log2(lo)));
    hi = exp2(ceil(log2(hi)));
    if (hi <= lo) {
        hi = 2 * lo;
    }
    c = (plot){&pf.s, lo, hi, 0.0, top, true};
    axes(&c, "warp-wide loads in flight a SM (log scale)", "GB/s (read + written)");
    hline(&c, ceiling, "cudaMemcpy ceiling");
    legend(&c, 0, "black", false, "measured");
    legend(&c, 1, "black", true, "Little's-law model");
    for (int i = 0; i < d->residency_count; i++) {
        const lab_residency_row *r = &d->residency[i];
        double gb = lab_gb_per_s(r->bytes, r->median_ms);
        double x = lab_residency_in_flight(r);
        snprintf(tip, sizeof tip, "%.31s: %.0f GB/s", r->label, gb);
        point(&c, x, gb, palette[items_color(r->items)], false, tip);
        if (m.ok) {
            snprintf(tip, sizeof tip, "%.31s: model %.0f GB/s", r->label, m.predicted[i]);
            point(&c, x, m.predicted[i], palette[items_color(r->items)], true, tip);
        }
    }
    return close_svg(&pf, err);
}

static bool blocksize_plot(const char *dir, const lab_data *d, cli_error *err)
{
    plot_file pf;
    if (!open_svg(&pf, dir, "blocksize.svg", PLOT_W, PLOT_H,
                  "blocksize: GB/s against threads a block (ring: the occupancy API's pick)",
                  err)) {
        return false;
    }
    double top = 0;
    for (int i = 0; i < d->blocksize_count; i++) {
        top = fmax(top, lab_gb_per_s(d->blocksize[i].bytes, d->blocksize[i].median_ms));
    }
    plot c = {&pf.s, 0.0, 1024.0, 0.0, top * 1.08, false};
    axes(&c, "threads a block", "GB/s (read + written)");
    char tip[96];
    for (int i = 0; i < d->blocksize_count; i++) {
        const lab_blocksize_row *r = &d->blocksize[i];
        double gb = lab_gb_per_s(r->bytes, r->median_ms);
        snprintf(tip, sizeof tip, "%d threads: %.0f GB/s", r->threads, gb);
        point(&c, r->threads, gb, palette[0], false, tip);
        if (r->suggested) {
            svg_marker(&pf.s, map_x(&c, r->threads), map_y(&c, gb), 9, palette[3], true,
                       "the occupancy API's pick");
        }
    }
    return close_svg(&pf, err);
}

static bool spill_plot(const char *dir, const lab_data *d, cli_error *err)
{
    plot_file pf;
    if (!open_svg(&pf, dir, "spill.svg", PLOT_W, PLOT_H,
                  "spill: time against occupancy under __launch_bounds__(256, N)", err)) {
        return false;
    }
    double top = 0;
    for (int i = 0; i < d->spill_count; i++) {
        top = fmax(top, d->spill[i].median_ms);
    }
    plot c = {&pf.s, 0.0, 100.0, 0.0, top * 1.1, false};
    axes(&c, "occupancy (%)", "median ms");
    char tip[96];
    for (int i = 0; i < d->spill_count; i++) {
        const lab_spill_row *r = &d->spill[i];
        double x = 100.0 * r->warps_per_sm / r->max_warps_per_sm;
        snprintf(tip, sizeof tip, "N=%d: %d regs, %d B local, %.4f ms", r->min_blocks, r->regs,
                 r->local_bytes, r->median_ms);
        point(&c, x, r->median_ms, palette[r->local_bytes > 0 ? 3 : 0], false, tip);
        char n_label[16];
        snprintf(n_label, sizeof n_label, "N=%d", r->min_blocks);
        svg_text(&pf.s, map_x(&c, x) + 7, map_y(&c, r->median_ms) - 6 - 12 * (i % 2), "start", 12,
                 "black", 0, n_label);
    }
    legend(&c, 0, palette[0], false, "no local memory");
    legend(&c, 1, palette[3], false, "spills to local");
    return close_svg(&pf, err);
}

/* A block's start, to order the blocks of a launch by it. */
typedef struct block_start {
    double start_ns;
    int index;
} block_start;

/* By start time, then by index: the order the blocks were recorded in
   breaks ties, so the waves drawn do not depend on qsort's whims. */
static int compare_start(const void *a, const void *b)
{
    const block_start *x = a;
    const block_start *y = b;
    if (x->start_ns != y->start_ns) {
        return (x->start_ns > y->start_ns) - (x->start_ns < y->start_ns);
    }
    return (x->index > y->index) - (x->index < y->index);
}

/* One timeline: a lane a SM, a bar a block (colour: its wave on that SM),
   the GPU-wide achieved occupancy over time above the lanes. */
static bool timeline_plot(const char *dir, const lab_launch *l, cli_error *err)
{
    lab_timeline_summary t;
    char why[256];
    if (!lab_timeline_analyse(l, &t, why, sizeof why)) {
        return cli_error_set(err, EXIT_DATA, "%s", why);
    }
    const int lane = 3;
    const int occ_h = 80;
    const int top = MARGIN_T + occ_h + 20;
    const int h = top + lane * l->sm_count + MARGIN_B;
    char name[64], title[160];
    snprintf(name, sizeof name, "timeline-%s.svg", l->name);
    char detail[160];
    snprintf(title, sizeof title, "timeline %s: %d blocks, %.2f waves", l->name, l->grid,
             t.waves_theoretical);
    snprintf(detail, sizeof detail,
             "achieved occupancy %.1f%% of the theoretical %.1f%%; tail %.1f us",
             100.0 * t.achieved_occupancy, 100.0 * t.theoretical_occupancy, t.tail_ns / 1e3);
    plot_file pf;
    if (!open_svg(&pf, dir, name, PLOT_W, h, title, err)) {
        return false;
    }
    svg_text(&pf.s, MARGIN_L, 38, "start", 12, "#555555", 0, detail);
    double width = PLOT_W - MARGIN_L - MARGIN_R;
    double span = t.duration_ns > 0 ? t.duration_ns : 1.0;
    /* Occupancy over time, 0..100% over occ_h pixels. */
    svg_text(&pf.s, MARGIN_L - 6, MARGIN_T + 4, "end", 12, "black", 0, "100%");
    svg_text(&pf.s, MARGIN_L - 6, MARGIN_T + occ_h, "end", 12, "black", 0, "0%");
    double xs[LAB_TIMELINE_SAMPLES], ys[LAB_TIMELINE_SAMPLES];
    for (int s = 0; s < LAB_TIMELINE_SAMPLES; s++) {
        xs[s] = MARGIN_L + (s + 0.5) * width / LAB_TIMELINE_SAMPLES;
        ys[s] = MARGIN_T + occ_h * (1.0 - t.occupancy_over_time[s]);
    }
    svg_polyline(&pf.s, xs, ys, LAB_TIMELINE_SAMPLES, palette[0], 1.5);
    double theo_y = MARGIN_T + occ_h * (1.0 - t.theoretical_occupancy);
    svg_line(&pf.s, MARGIN_L, theo_y, PLOT_W - MARGIN_R, theo_y, "black", 1, "6 4");
    svg_text(&pf.s, PLOT_W - MARGIN_R - 80, theo_y - 4, "start", 12, "black", 0, "theoretical");
    /* Blocks: wave = how many blocks this SM started before, / slots. */
    int *started = calloc((size_t)l->sm_count, sizeof *started);
    block_start *order = malloc((size_t)l->block_count * sizeof *order);
    if (started == NULL || order == NULL) {
        free(started);
        free(order);
        fclose(pf.f);
        return cli_error_set(err, EXIT_DATA, "out of memory for the plot of launch %s", l->name);
    }
    for (int i = 0; i < l->block_count; i++) {
        order[i] = (block_start){l->blocks[i].start_ns, i};
    }
    qsort(order, (size_t)l->block_count, sizeof *order, compare_start);
    for (int i = 0; i < l->block_count; i++) {
        const lab_block *b = &l->blocks[order[i].index];
        int wave = started[b->sm]++ / l->blocks_per_sm;
        double x = MARGIN_L + b->start_ns / span * width;
        double w = fmax((b->end_ns - b->start_ns) / span * width, 0.5);
        svg_bar(&pf.s, x, top + lane * b->sm, w, lane - 1, palette[wave % 8], 0.45);
    }
    free(started);
    free(order);
    char label[48];
    svg_text(&pf.s, MARGIN_L - 6, top + 8, "end", 12, "black", 0, "SM 0");
    snprintf(label, sizeof label, "SM %d", l->sm_count - 1);
    svg_text(&pf.s, MARGIN_L - 6, top + lane * l->sm_count, "end", 12, "black", 0, label);
    svg_text(&pf.s, MARGIN_L, h - MARGIN_B + 18, "start", 12, "black", 0, "0 us");
    snprintf(label, sizeof label, "%.1f us", t.duration_ns / 1e3);
    svg_text(&pf.s, PLOT_W - MARGIN_R, h - MARGIN_B + 18, "end", 12, "black", 0, label);
    return close_svg(&pf, err);
}

bool lab_svg_write_all(const char *dir, const lab_data *data, const lab_selection *sel,
                       cli_error *err)
{
    if (sel->residency && data->residency_count > 0 && !residency_plots(dir, data, err)) {
        return false;
    }
    if (sel->blocksize && data->blocksize_count > 0 && !blocksize_plot(dir, data, err)) {
        return false;
    }
    if (sel->spill && data->spill_count > 0 && !spill_plot(dir, data, err)) {
        return false;
    }
    if (sel->timeline) {
        for (int i = 0; i < data->launch_count; i++) {
            if (!timeline_plot(dir, &data->launches[i], err)) {
                return false;
            }
        }
    }
    return true;
}
