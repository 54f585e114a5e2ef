/*
 * chart.c - a labelled line, step or scatter chart as SVG: axes with "nice"
 * ticks, a legend, and one marked point.
 */
#include <math.h>
#include <string.h>

#include "svg.h"

#define CHART_WIDTH 800.0
#define CHART_HEIGHT 480.0
#define MARGIN_LEFT 80.0
#define MARGIN_RIGHT 30.0
#define MARGIN_TOP 64.0
#define MARGIN_BOTTOM 64.0
#define AXIS_COLOR "#444444"
#define GRID_COLOR "#e4e4e4"

int chart_ticks(double lo, double hi, int max_ticks, double *ticks, int cap)
{
    if (!(hi > lo) || max_ticks < 2 || cap < 1) {
        if (cap >= 1) {
            ticks[0] = lo;
            return 1;
        }
        return 0;
    }
    double raw = (hi - lo) / (max_ticks - 1);
    double magnitude = pow(10.0, floor(log10(raw)));
    double step = magnitude;
    static const double nice[] = {1.0, 2.0, 5.0, 10.0};
    for (size_t i = 0; i < sizeof nice / sizeof nice[0]; i++) {
        step = nice[i] * magnitude;
        if (step >= raw) {
            break;
        }
    }
    int n = 0;
    for (double t = ceil(lo / step - 1e-9) * step; t <= hi + step * 1e-9 && n < cap; t += step) {
        ticks[n++] = fabs(t) < step * 1e-9 ? 0.0 : t;
    }
    return n;
}

typedef struct frame {
    double x0, y0, w, h; /* the plot area */
    const chart *c;
} frame;

static double px(const frame *f, double x)
{
    double span = f->c->x_max - f->c->x_min;
    return f->x0 + (span > 0 ? (x - f->c->x_min) / span : 0.5) * f->w;
}

static double py(const frame *f, double y)
{
    double span = f->c->y_max - f->c->y_min;
    return f->y0 + f->h - (span > 0 ? (y - f->c->y_min) / span : 0.5) * f->h;
}

static void tick_label(double v, char *buf, size_t cap)
{
    if (fabs(v) >= 10000 && fmod(v, 1024.0) == 0.0) {
        snprintf(buf, cap, "%gK", v / 1024.0); /* bytes: 48K */
    } else {
        snprintf(buf, cap, "%g", v);
    }
}

static void draw_axes(svg *s, const frame *f)
{
    double ticks[32];
    char label[32];
    int n = chart_ticks(f->c->y_min, f->c->y_max, 6, ticks, 32);
    for (int i = 0; i < n; i++) {
        double y = py(f, ticks[i]);
        svg_line(s, f->x0, y, f->x0 + f->w, y, GRID_COLOR, 1, NULL);
        tick_label(ticks[i], label, sizeof label);
        svg_text(s, f->x0 - 8, y + 4, "end", 12, AXIS_COLOR, 0, label);
    }
    n = chart_ticks(f->c->x_min, f->c->x_max, 9, ticks, 32);
    for (int i = 0; i < n; i++) {
        double x = px(f, ticks[i]);
        svg_line(s, x, f->y0 + f->h, x, f->y0 + f->h + 5, AXIS_COLOR, 1, NULL);
        tick_label(ticks[i], label, sizeof label);
        svg_text(s, x, f->y0 + f->h + 20, "middle", 12, AXIS_COLOR, 0, label);
    }
    svg_line(s, f->x0, f->y0 + f->h, f->x0 + f->w, f->y0 + f->h, AXIS_COLOR, 1.5, NULL);
    svg_line(s, f->x0, f->y0, f->x0, f->y0 + f->h, AXIS_COLOR, 1.5, NULL);
    svg_text(s, f->x0 + f->w / 2, CHART_HEIGHT - 18, "middle", 14, AXIS_COLOR, 0, f->c->x_label);
    svg_text(s, 22, f->y0 + f->h / 2, "middle", 14, AXIS_COLOR, -90, f->c->y_label);
}

static void draw_series(svg *s, const frame *f, const chart_series *se)
{
    if (se->points) {
        for (int i = 0; i < se->n; i++) {
            svg_circle(s, px(f, se->x[i]), py(f, se->y[i]), 4, se->color);
        }
        return;
    }
    /* A staircase needs two vertices per point; draw it in pieces. */
    enum { PIECE = 256 };
    double xs[2 * PIECE + 2], ys[2 * PIECE + 2];
    int i = 0;
    while (i < se->n) {
        int m = 0;
        if (i > 0) { /* continue from the previous piece's last point */
            xs[m] = px(f, se->x[i - 1]);
            ys[m] = py(f, se->y[i - 1]);
            m++;
        }
        for (int end = i + PIECE; i < se->n && i < end; i++) {
            if (se->step && m > 0) {
                xs[m] = px(f, se->x[i]);
                ys[m] = ys[m - 1];
                m++;
            }
            xs[m] = px(f, se->x[i]);
            ys[m] = py(f, se->y[i]);
            m++;
        }
        svg_polyline(s, xs, ys, m, se->color, 2.5);
    }
}

void chart_write_svg(const chart *c, FILE *out)
{
    svg s;
    svg_begin(&s, out, CHART_WIDTH, CHART_HEIGHT, c->title);
    frame f = {MARGIN_LEFT, MARGIN_TOP, CHART_WIDTH - MARGIN_LEFT - MARGIN_RIGHT,
               CHART_HEIGHT - MARGIN_TOP - MARGIN_BOTTOM, c};
    svg_text(&s, MARGIN_LEFT, 28, "start", 18, "#111111", 0, c->title);
    if (c->subtitle != NULL) {
        svg_text(&s, MARGIN_LEFT, 48, "start", 13, "#666666", 0, c->subtitle);
    }
    draw_axes(&s, &f);
    for (int i = 0; i < c->series_count && i < CHART_MAX_SERIES; i++) {
        draw_series(&s, &f, &c->series[i]);
    }
    double legend_y = MARGIN_TOP + 14;
    for (int i = 0; i < c->series_count && i < CHART_MAX_SERIES; i++) {
        if (c->series[i].label == NULL) {
            continue;
        }
        double lx = f.x0 + f.w - 180;
        svg_rect(&s, lx, legend_y - 9, 14, 10, c->series[i].color, NULL);
        svg_text(&s, lx + 20, legend_y, "start", 12, "#333333", 0, c->series[i].label);
        legend_y += 18;
    }
    if (c->has_marker) {
        double mx = px(&f, c->marker_x), my = py(&f, c->marker_y);
        svg_line(&s, mx, f.y0, mx, f.y0 + f.h, "#d62728", 1.5, "5 4");
        svg_circle(&s, mx, my, 6, "#d62728");
        if (c->marker_label != NULL) {
            bool right_half = mx > f.x0 + f.w * 0.6;
            svg_text(&s, right_half ? mx - 10 : mx + 10, f.y0 + 14, right_half ? "end" : "start",
                     13, "#d62728", 0, c->marker_label);
        }
    }
    svg_end(&s);
}
