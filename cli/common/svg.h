/*
 * svg.h - a small SVG writer (elements with escaped text) and a line/step
 * chart built on it, for `occ sweep --svg` and the lab's plots.
 */
#ifndef OCC_SVG_H
#define OCC_SVG_H

#include <stdbool.h>
#include <stdio.h>

typedef struct svg {
    FILE *out;
    double width;
    double height;
} svg;

/* Starts a document of width x height pixels with a <title>. */
void svg_begin(svg *s, FILE *out, double width, double height, const char *title);
void svg_end(svg *s);
void svg_rect(svg *s, double x, double y, double w, double h, const char *fill, const char *stroke);
/* dash: NULL for a solid line, else an SVG dash array such as "4 3". */
void svg_line(svg *s, double x1, double y1, double x2, double y2, const char *stroke,
              double stroke_width, const char *dash);
void svg_polyline(svg *s, const double *xs, const double *ys, int n, const char *stroke,
                  double stroke_width);
void svg_circle(svg *s, double cx, double cy, double r, const char *fill);
/* A data point: filled, or a ring when hollow; tip (may be NULL) becomes a
   <title> tooltip. */
void svg_marker(svg *s, double cx, double cy, double r, const char *color, bool hollow,
                const char *tip);
/* A rectangle filled with colour at the given opacity (0..1), no stroke. */
void svg_bar(svg *s, double x, double y, double w, double h, const char *fill, double opacity);
/* anchor: "start", "middle" or "end"; rotate: degrees about (x, y). */
void svg_text(svg *s, double x, double y, const char *anchor, double size, const char *fill,
              double rotate, const char *text);

/* Writes text with &, <, >, " and ' escaped. */
void svg_escape(FILE *out, const char *text);

/* Tick positions for an axis: "nice" steps of 1, 2 or 5 x 10^k, at most
   max_ticks of them within [lo, hi]. Returns how many were written. */
int chart_ticks(double lo, double hi, int max_ticks, double *ticks, int cap);

#define CHART_MAX_SERIES 4

typedef struct chart_series {
    const double *x;
    const double *y;
    int n;
    const char *color; /* CSS colour */
    const char *label; /* legend entry; NULL for none */
    bool step;         /* draw as a staircase (value holds until the next x) */
    bool points;       /* draw a dot at each point instead of a line */
} chart_series;

typedef struct chart {
    const char *title;
    const char *subtitle; /* NULL for none */
    const char *x_label;
    const char *y_label;
    double x_min, x_max, y_min, y_max;
    chart_series series[CHART_MAX_SERIES];
    int series_count;
    bool has_marker; /* a marked point, e.g. the current configuration */
    double marker_x, marker_y;
    const char *marker_label;
} chart;

/* Writes the chart as a standalone 800 x 480 SVG document. */
void chart_write_svg(const chart *c, FILE *out);

#endif /* OCC_SVG_H */
