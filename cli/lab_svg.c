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

#include "lab.h"

#define PLOT_W 720
#define PLOT_H 440
#define MARGIN_L 70
#define MARGIN_R 20
#define MARGIN_T 40
#define MARGIN_B 50

/* A chart's data space mapped onto its drawing area. */
typedef struct chart {
    FILE *f;
    double x0, x1, y0, y1;
    bool log2_x;
} chart;

static const char *const palette[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728",
                                      "#9467bd", "#8c564b", "#e377c2", "#7f7f7f"};

static double map_x(const chart *c, double x)
{
    double a = c->log2_x ? log2(x) : x;
    double lo = c->log2_x ? log2(c->x0) : c->x0;
    double hi = c->log2_x ? log2(c->x1) : c->x1;
    return MARGIN_L + (a - lo) / (hi - lo) * (PLOT_W - MARGIN_L - MARGIN_R);
}

static double map_y(const chart *c, double y)
{
    return PLOT_H - MARGIN_B - (y - c->y0) / (c->y1 - c->y0) * (PLOT_H - MARGIN_T - MARGIN_B);
}

static FILE *open_svg(const char *dir, const char *name, int w, int h, const char *title,
                      char *msg, size_t cap)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (f == NULL) {
        snprintf(msg, cap, "cannot write %s: %s", path, strerror(errno));
        return NULL;
    }
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
               "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">\n"
               "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>\n"
               "<text x=\"%d\" y=\"22\" font-size=\"15\">%s</text>\n",
            w, h, w, h, w, h, MARGIN_L, title);
    return f;
}

static bool close_svg(FILE *f, char *msg, size_t cap)
{
    fprintf(f, "</svg>\n");
    if (fclose(f) != 0) {
        snprintf(msg, cap, "cannot finish an SVG file: %s", strerror(errno));
        return false;
    }
    return true;
}

/* Axes, five ticks on each (powers of two on a log2 x axis), labels. */
static void axes(const chart *c, const char *x_label, const char *y_label)
{
    FILE *f = c->f;
    double left = MARGIN_L, right = PLOT_W - MARGIN_R, top = MARGIN_T, bottom = PLOT_H - MARGIN_B;
    fprintf(f, "<path d=\"M%.1f %.1f V%.1f H%.1f\" stroke=\"black\" fill=\"none\"/>\n", left, top,
            bottom, right);
    for (int i = 0; i <= 4; i++) {
        double y = c->y0 + (c->y1 - c->y0) * i / 4.0;
        double py = map_y(c, y);
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n"
                   "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%.4g</text>\n",
                left, py, right, py, left - 6, py + 4, y);
    }
    if (c->log2_x) {
        for (double x = c->x0; x <= c->x1 * 1.0001; x *= 2) {
            fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%.0f</text>\n",
                    map_x(c, x), bottom + 18, x);
        }
    } else {
        for (int i = 0; i <= 4; i++) {
            double x = c->x0 + (c->x1 - c->x0) * i / 4.0;
            fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%.4g</text>\n",
                    map_x(c, x), bottom + 18, x);
        }
    }
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n",
            (left + right) / 2, bottom + 40, x_label);
    fprintf(f, "<text x=\"16\" y=\"%.1f\" text-anchor=\"middle\" "
               "transform=\"rotate(-90 16 %.1f)\">%s</text>\n",
            (top + bottom) / 2, (top + bottom) / 2, y_label);
}

static void hline(const chart *c, double y, const char *label)
{
    double py = map_y(c, y);
    fprintf(c->f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"black\" "
                  "stroke-dasharray=\"6 4\"/>\n<text x=\"%d\" y=\"%.1f\">%s</text>\n",
            MARGIN_L, py, PLOT_W - MARGIN_R, py, MARGIN_L + 6, py - 5, label);
}

static void point(const chart *c, double x, double y, const char *color, bool hollow,
                  const char *tip)
{
    fprintf(c->f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4.5\" %s=\"%s\" %s><title>%s</title>"
                  "</circle>\n",
            map_x(c, x), map_y(c, y), hollow ? "stroke" : "fill", color,
            hollow ? "fill=\"none\" stroke-width=\"1.5\"" : "", tip);
}

static void legend(const chart *c, int row, const char *color, bool hollow, const char *text)
{
    double x = PLOT_W - MARGIN_R - 150;
    double y = MARGIN_T + 14 + 16 * row;
    fprintf(c->f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4.5\" %s=\"%s\" %s/>"
                  "<text x=\"%.1f\" y=\"%.1f\">%s</text>\n",
            x, y - 4, hollow ? "stroke" : "fill", color, hollow ? "fill=\"none\"" : "", x + 10,
            y, text);
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

static bool residency_plots(const char *dir, const lab_data *d, char *msg, size_t cap)
{
    lab_model_check m;
    double ceiling = lab_gb_per_s(d->memcpy_bytes, d->memcpy_ms);
    lab_model_check_run(d->residency, d->residency_count, ceiling, d->dram_ns,
                        d->device.sm_count, &m);
    double top = max_residency_gb(d, &m);
    char tip[160];

    FILE *f = open_svg(dir, "residency-occupancy.svg", PLOT_W, PLOT_H,
                       "residency: GB/s against occupancy (a*x + y, every row checked)", msg, cap);
    if (f == NULL) {
        return false;
    }
    chart c = {f, 0.0, 100.0, 0.0, top, false};
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
        point(&c, 100.0 * r->warps_per_sm / r->max_warps_per_sm, gb,
              palette[items_color(r->items)], r->local_bytes > 0, tip);
    }
    if (!close_svg(f, msg, cap)) {
        return false;
    }

    f = open_svg(dir, "residency-in-flight.svg", PLOT_W, PLOT_H,
                 "residency: GB/s against loads in flight a SM (model hollow)", msg, cap);
    if (f == NULL) {
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
    c = (chart){f, lo, hi, 0.0, top, true};
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
    return close_svg(f, msg, cap);
}

static bool blocksize_plot(const char *dir, const lab_data *d, char *msg, size_t cap)
{
    FILE *f = open_svg(dir, "blocksize.svg", PLOT_W, PLOT_H,
                       "blocksize: GB/s against threads a block (ring: the occupancy API's pick)",
                       msg, cap);
    if (f == NULL) {
        return false;
    }
    double top = 0;
    for (int i = 0; i < d->blocksize_count; i++) {
        top = fmax(top, lab_gb_per_s(d->blocksize[i].bytes, d->blocksize[i].median_ms));
    }
    chart c = {f, 0.0, 1024.0, 0.0, top * 1.08, false};
    axes(&c, "threads a block", "GB/s (read + written)");
    char tip[96];
    for (int i = 0; i < d->blocksize_count; i++) {
        const lab_blocksize_row *r = &d->blocksize[i];
        double gb = lab_gb_per_s(r->bytes, r->median_ms);
        snprintf(tip, sizeof tip, "%d threads: %.0f GB/s", r->threads, gb);
        point(&c, r->threads, gb, palette[0], false, tip);
        if (r->suggested) {
            fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"9\" fill=\"none\" stroke=\"%s\" "
                       "stroke-width=\"2\"/>\n",
                    map_x(&c, r->threads), map_y(&c, gb), palette[3]);
        }
    }
    return close_svg(f, msg, cap);
}

static bool spill_plot(const char *dir, const lab_data *d, char *msg, size_t cap)
{
    FILE *f = open_svg(dir, "spill.svg", PLOT_W, PLOT_H,
                       "spill: time against occupancy under __launch_bounds__(256, N)", msg, cap);
    if (f == NULL) {
        return false;
    }
    double top = 0;
    for (int i = 0; i < d->spill_count; i++) {
        top = fmax(top, d->spill[i].median_ms);
    }
    chart c = {f, 0.0, 100.0, 0.0, top * 1.1, false};
    axes(&c, "occupancy (%)", "median ms");
    char tip[96];
    for (int i = 0; i < d->spill_count; i++) {
        const lab_spill_row *r = &d->spill[i];
        double x = 100.0 * r->warps_per_sm / r->max_warps_per_sm;
        snprintf(tip, sizeof tip, "N=%d: %d regs, %d B local, %.4f ms", r->min_blocks, r->regs,
                 r->local_bytes, r->median_ms);
        point(&c, x, r->median_ms, palette[r->local_bytes > 0 ? 3 : 0], false, tip);
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\">N=%d</text>\n", map_x(&c, x) + 7,
                map_y(&c, r->median_ms) - 6 - 12 * (i % 2), r->min_blocks);
    }
    legend(&c, 0, palette[0], false, "no local memory");
    legend(&c, 1, palette[3], false, "spills to local");
    return close_svg(f, msg, cap);
}

/* One timeline: a lane a SM, a bar a block (colour: its wave on that SM),
   the GPU-wide achieved occupancy over time above the lanes. */
static bool timeline_plot(const char *dir, const lab_launch *l, char *msg, size_t cap)
{
    lab_timeline_summary t;
    if (!lab_timeline_analyse(l, &t, msg, cap)) {
        return false;
    }
    const int lane = 3;
    const int occ_h = 80;
    const int top = MARGIN_T + occ_h + 20;
    const int h = top + lane * l->sm_count + MARGIN_B;
    char name[64], title[160];
    snprintf(name, sizeof name, "timeline-%s.svg", l->name);
    snprintf(title, sizeof title,
             "timeline %s: %d blocks, %.2f waves; achieved %.1f%% of theoretical %.1f%%, "
             "tail %.1f us",
             l->name, l->grid, t.waves_theoretical, 100.0 * t.achieved_occupancy,
             100.0 * t.theoretical_occupancy, t.tail_ns / 1e3);
    FILE *f = open_svg(dir, name, PLOT_W, h, title, msg, cap);
    if (f == NULL) {
        return false;
    }
    double width = PLOT_W - MARGIN_L - MARGIN_R;
    double span = t.duration_ns > 0 ? t.duration_ns : 1.0;
    /* Occupancy over time, 0..100% over occ_h pixels. */
    fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">100%%</text>"
               "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">0%%</text>\n"
               "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" points=\"",
            MARGIN_L - 6, MARGIN_T + 4, MARGIN_L - 6, MARGIN_T + occ_h, palette[0]);
    for (int s = 0; s < LAB_TIMELINE_SAMPLES; s++) {
        double x = MARGIN_L + (s + 0.5) * width / LAB_TIMELINE_SAMPLES;
        double y = MARGIN_T + occ_h * (1.0 - t.occupancy_over_time[s]);
        fprintf(f, "%.1f,%.1f ", x, y);
    }
    double theo_y = MARGIN_T + occ_h * (1.0 - t.theoretical_occupancy);
    fprintf(f, "\"/>\n<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"black\" "
               "stroke-dasharray=\"6 4\"/><text x=\"%d\" y=\"%.1f\">theoretical</text>\n",
            MARGIN_L, theo_y, PLOT_W - MARGIN_R, theo_y, PLOT_W - MARGIN_R - 80, theo_y - 4);
    /* Blocks: wave = how many blocks this SM started before, / slots. */
    int *started = calloc((size_t)l->sm_count, sizeof *started);
    int *order = malloc((size_t)l->block_count * sizeof *order);
    if (started == NULL || order == NULL) {
        free(started);
        free(order);
        fclose(f);
        snprintf(msg, cap, "out of memory");
        return false;
    }
    for (int i = 0; i < l->block_count; i++) {
        order[i] = i;
    }
    /* Insertion sort by start time: a few thousand blocks. */
    for (int i = 1; i < l->block_count; i++) {
        int k = order[i];
        int j = i - 1;
        while (j >= 0 && l->blocks[order[j]].start_ns > l->blocks[k].start_ns) {
            order[j + 1] = order[j];
            j--;
        }
        order[j + 1] = k;
    }
    for (int i = 0; i < l->block_count; i++) {
        const lab_block *b = &l->blocks[order[i]];
        int wave = started[b->sm]++ / l->blocks_per_sm;
        double x = MARGIN_L + b->start_ns / span * width;
        double w = fmax((b->end_ns - b->start_ns) / span * width, 0.5);
        fprintf(f, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\" "
                   "fill-opacity=\"0.45\"/>\n",
                x, top + lane * b->sm, w, lane - 1, palette[wave % 8]);
    }
    free(started);
    free(order);
    fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">SM 0</text>"
               "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">SM %d</text>\n"
               "<text x=\"%d\" y=\"%d\">0 us</text><text x=\"%d\" y=\"%d\" "
               "text-anchor=\"end\">%.1f us</text>\n",
            MARGIN_L - 6, top + 8, MARGIN_L - 6, top + lane * l->sm_count, l->sm_count - 1,
            MARGIN_L, h - MARGIN_B + 18, PLOT_W - MARGIN_R, h - MARGIN_B + 18,
            t.duration_ns / 1e3);
    return close_svg(f, msg, cap);
}

bool lab_svg_write_all(const char *dir, const lab_data *data, const lab_selection *sel,
                       char *msg, size_t cap)
{
    if (sel->residency && data->residency_count > 0 && !residency_plots(dir, data, msg, cap)) {
        return false;
    }
    if (sel->blocksize && data->blocksize_count > 0 && !blocksize_plot(dir, data, msg, cap)) {
        return false;
    }
    if (sel->spill && data->spill_count > 0 && !spill_plot(dir, data, msg, cap)) {
        return false;
    }
    if (sel->timeline) {
        for (int i = 0; i < data->launch_count; i++) {
            if (!timeline_plot(dir, &data->launches[i], msg, cap)) {
                return false;
            }
        }
    }
    return true;
}
