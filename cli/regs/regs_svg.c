/*
 * regs_svg.c - occ regs --svg: for each kernel a panel of occupancy (left
 * axis, a line with a dot a cap) and spill bytes (right axis, bars) against
 * the register cap, the unconstrained compile at its own register count
 * labelled "none", the recommended cap ringed, the candidates to time
 * marked, and the cliff. The caps run from ptxas's lowest to 255, on both
 * sides of the unconstrained compile: the line joins them left to right.
 */
#include <errno.h>
#include <string.h>

#include "regs.h"
#include "svg.h"

#define PANEL_WIDTH 800.0
#define PANEL_HEIGHT 340.0
#define LEFT 70.0
#define RIGHT 80.0
#define TOP 50.0
#define BOTTOM 50.0

typedef struct axes {
    double x0, x1; /* registers */
    double spill_max;
    double top; /* of the panel */
} axes;

static double px(const axes *a, double regs)
{
    double w = PANEL_WIDTH - LEFT - RIGHT;
    return LEFT + (regs - a->x0) / (a->x1 - a->x0) * w;
}

static double py_occ(const axes *a, double occupancy)
{
    double h = PANEL_HEIGHT - TOP - BOTTOM;
    return a->top + TOP + h - occupancy * h;
}

static double py_spill(const axes *a, double bytes)
{
    double h = PANEL_HEIGHT - TOP - BOTTOM;
    return a->top + TOP + h - bytes / a->spill_max * h;
}

/* The x of a point: its cap, the unconstrained compile at its registers. */
static double point_regs(const occ_regs_point *p)
{
    return p->cap > 0 ? p->cap : p->regs;
}

static void panel(svg *s, const occ_regs_kernel *k, double top)
{
    axes a = {.x0 = 1e9, .x1 = 0, .spill_max = 0, .top = top};
    for (int i = 0; i < k->cap_count; i++) {
        double x = point_regs(&k->caps[i]);
        a.x0 = x < a.x0 ? x : a.x0;
        a.x1 = x > a.x1 ? x : a.x1;
        int spill = occ_regs_point_spill_bytes(&k->caps[i]);
        a.spill_max = spill > a.spill_max ? spill : a.spill_max;
    }
    a.x0 = a.x0 > 8 ? a.x0 - 8 : 0;
    a.x1 += 8;
    a.spill_max = a.spill_max > 0 ? a.spill_max * 1.1 : 1;
    double h = PANEL_HEIGHT - TOP - BOTTOM;
    char text[640];
    snprintf(text, sizeof text, "%.200s: %d threads, recommended %s", k->name, k->threads,
             k->recommended > 0 ? "" : "no cap");
    if (k->recommended > 0) {
        snprintf(text, sizeof text, "%.200s: %d threads, recommended cap %d", k->name, k->threads,
                 k->caps[k->recommended].cap);
    }
    svg_text(s, LEFT, top + 28, "start", 15, "#222", 0, text);
    svg_text(s, PANEL_WIDTH - RIGHT, top + 28, "end", 11, "#444", 0,
             "green ring: recommended; orange ring: a candidate to time");
    svg_rect(s, LEFT, top + TOP, PANEL_WIDTH - LEFT - RIGHT, h, "none", "#999");
    /* the axes' ticks */
    double ticks[16];
    int n = chart_ticks(a.x0, a.x1, 10, ticks, 16);
    for (int i = 0; i < n; i++) {
        char label[16];
        snprintf(label, sizeof label, "%g", ticks[i]);
        svg_text(s, px(&a, ticks[i]), top + TOP + h + 18, "middle", 11, "#444", 0, label);
    }
    svg_text(s, (LEFT + PANEL_WIDTH - RIGHT) / 2, top + TOP + h + 38, "middle", 12, "#222", 0,
             "register cap (--maxrregcount); none at its own registers");
    for (int pct = 0; pct <= 100; pct += 25) {
        char label[16];
        snprintf(label, sizeof label, "%d%%", pct);
        svg_text(s, LEFT - 8, py_occ(&a, pct / 100.0) + 4, "end", 11, "#1f5fa8", 0, label);
        svg_line(s, LEFT, py_occ(&a, pct / 100.0), PANEL_WIDTH - RIGHT, py_occ(&a, pct / 100.0),
                 "#e4e4e4", 1, NULL);
    }
    svg_text(s, 18, top + TOP + h / 2, "middle", 12, "#1f5fa8", -90, "occupancy");
    n = chart_ticks(0, a.spill_max, 5, ticks, 16);
    for (int i = 0; i < n; i++) {
        char label[16];
        snprintf(label, sizeof label, "%g", ticks[i]);
        svg_text(s, PANEL_WIDTH - RIGHT + 8, py_spill(&a, ticks[i]) + 4, "start", 11, "#b23b3b", 0,
                 label);
    }
    svg_text(s, PANEL_WIDTH - 16, top + TOP + h / 2, "middle", 12, "#b23b3b", 90,
             "spill bytes (stores + loads)");
    /* spills as bars, occupancy as a line */
    double xs[OCC_REGS_MAX_CAPS + 1], ys[OCC_REGS_MAX_CAPS + 1];
    int count = k->cap_count < OCC_REGS_MAX_CAPS + 1 ? k->cap_count : OCC_REGS_MAX_CAPS + 1;
    for (int i = 0; i < count; i++) {
        const occ_regs_point *p = &k->caps[i];
        double x = px(&a, point_regs(p));
        int spill = occ_regs_point_spill_bytes(p);
        if (spill > 0) {
            svg_bar(s, x - 5, py_spill(&a, spill), 10, py_spill(&a, 0) - py_spill(&a, spill),
                    "#b23b3b", 0.6);
        }
        xs[i] = x;
        ys[i] = py_occ(&a, p->occupancy);
    }
    /* the line left to right: no cap sits among the caps at its registers */
    double line_x[OCC_REGS_MAX_CAPS + 1], line_y[OCC_REGS_MAX_CAPS + 1];
    for (int i = 0; i < count; i++) {
        int at = i;
        while (at > 0 && line_x[at - 1] > xs[i]) {
            line_x[at] = line_x[at - 1];
            line_y[at] = line_y[at - 1];
            at--;
        }
        line_x[at] = xs[i];
        line_y[at] = ys[i];
    }
    svg_polyline(s, line_x, line_y, count, "#1f5fa8", 2);
    for (int c = 0; c < k->candidate_count; c++) {
        int i = k->candidates[c];
        if (i < count) {
            svg_marker(s, xs[i], ys[i], 6, "#d08a00", true, "a candidate to time");
        }
    }
    for (int i = 0; i < count; i++) {
        const occ_regs_point *p = &k->caps[i];
        char tip[160];
        snprintf(tip, sizeof tip, "cap %s%.0d: %d registers, %d blocks, %.1f%%, %d spill bytes",
                 p->cap > 0 ? "" : "none", p->cap, p->regs, p->blocks_per_sm, p->occupancy * 100,
                 occ_regs_point_spill_bytes(p));
        svg_marker(s, xs[i], ys[i], 4, "#1f5fa8", false, tip);
        if (i == k->recommended) {
            svg_marker(s, xs[i], ys[i], 9, "#2a8a2a", true, "recommended");
        }
        if (p->cap == 0) {
            svg_text(s, xs[i], ys[i] - 12, "middle", 11, "#222", 0, "none");
        }
    }
    if (k->cliff_cap > 0) {
        double x = px(&a, k->cliff_cap);
        svg_line(s, x, top + TOP, x, top + TOP + h, "#b23b3b", 1, "4 3");
        svg_text(s, x + 4, top + TOP + 12, "start", 11, "#b23b3b", 0, "spills from here");
    }
}

bool regs_write_svg(const char *path, const occ_regs_result *r, cli_error *err)
{
    FILE *f = fopen(path, "w");
    if (f == NULL) {
        return cli_error_set(err, EXIT_DATA, "option --svg: cannot create %s: %s", path,
                             strerror(errno));
    }
    size_t n = occ_regs_kernel_count(r);
    svg s;
    svg_begin(&s, f, PANEL_WIDTH, PANEL_HEIGHT * (double)(n > 0 ? n : 1),
              "occ regs: spills and occupancy against the register cap");
    svg_rect(&s, 0, 0, PANEL_WIDTH, PANEL_HEIGHT * (double)(n > 0 ? n : 1), "#fff", "none");
    for (size_t i = 0; i < n; i++) {
        panel(&s, occ_regs_kernel_at(r, i), PANEL_HEIGHT * (double)i);
    }
    svg_end(&s);
    bool failed = ferror(f) != 0;
    failed = fclose(f) != 0 || failed;
    if (failed) {
        return cli_error_set(err, EXIT_DATA, "option --svg: cannot write %s", path);
    }
    return true;
}
