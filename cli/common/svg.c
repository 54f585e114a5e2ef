/*
 * svg.c - the SVG elements occ writes, each with its text escaped.
 */
#include "svg.h"

void svg_escape(FILE *out, const char *text)
{
    for (const char *p = text; *p != '\0'; p++) {
        switch (*p) {
        case '&': fputs("&amp;", out); break;
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '"': fputs("&quot;", out); break;
        case '\'': fputs("&apos;", out); break;
        default: fputc(*p, out); break;
        }
    }
}

void svg_begin(svg *s, FILE *out, double width, double height, const char *title)
{
    s->out = out;
    s->width = width;
    s->height = height;
    fprintf(out,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%g\" height=\"%g\" "
            "viewBox=\"0 0 %g %g\" font-family=\"Helvetica, Arial, sans-serif\">\n<title>",
            width, height, width, height);
    svg_escape(out, title);
    fputs("</title>\n", out);
    fprintf(out, "<rect x=\"0\" y=\"0\" width=\"%g\" height=\"%g\" fill=\"#ffffff\"/>\n", width,
            height);
}

void svg_end(svg *s)
{
    fputs("</svg>\n", s->out);
}

void svg_rect(svg *s, double x, double y, double w, double h, const char *fill, const char *stroke)
{
    fprintf(s->out, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"%s\"", x, y,
            w, h, fill);
    if (stroke != NULL) {
        fprintf(s->out, " stroke=\"%s\"", stroke);
    }
    fputs("/>\n", s->out);
}

void svg_line(svg *s, double x1, double y1, double x2, double y2, const char *stroke,
              double stroke_width, const char *dash)
{
    fprintf(s->out,
            "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"%s\" "
            "stroke-width=\"%g\"",
            x1, y1, x2, y2, stroke, stroke_width);
    if (dash != NULL) {
        fprintf(s->out, " stroke-dasharray=\"%s\"", dash);
    }
    fputs("/>\n", s->out);
}

void svg_polyline(svg *s, const double *xs, const double *ys, int n, const char *stroke,
                  double stroke_width)
{
    fputs("<polyline fill=\"none\" stroke-linejoin=\"round\" points=\"", s->out);
    for (int i = 0; i < n; i++) {
        fprintf(s->out, "%s%.2f,%.2f", i > 0 ? " " : "", xs[i], ys[i]);
    }
    fprintf(s->out, "\" stroke=\"%s\" stroke-width=\"%g\"/>\n", stroke, stroke_width);
}

void svg_circle(svg *s, double cx, double cy, double r, const char *fill)
{
    fprintf(s->out, "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"%g\" fill=\"%s\"/>\n", cx, cy, r, fill);
}

void svg_marker(svg *s, double cx, double cy, double r, const char *color, bool hollow,
                const char *tip)
{
    if (hollow) {
        fprintf(s->out,
                "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"%g\" fill=\"none\" stroke=\"%s\" "
                "stroke-width=\"1.5\">",
                cx, cy, r, color);
    } else {
        fprintf(s->out, "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"%g\" fill=\"%s\">", cx, cy, r, color);
    }
    if (tip != NULL) {
        fputs("<title>", s->out);
        svg_escape(s->out, tip);
        fputs("</title>", s->out);
    }
    fputs("</circle>\n", s->out);
}

void svg_bar(svg *s, double x, double y, double w, double h, const char *fill, double opacity)
{
    fprintf(s->out,
            "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"%s\" "
            "fill-opacity=\"%.2f\"/>\n",
            x, y, w, h, fill, opacity);
}

void svg_text(svg *s, double x, double y, const char *anchor, double size, const char *fill,
              double rotate, const char *text)
{
    fprintf(s->out, "<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"%s\" font-size=\"%g\" fill=\"%s\"",
            x, y, anchor, size, fill);
    if (rotate != 0.0) {
        fprintf(s->out, " transform=\"rotate(%g %.2f %.2f)\"", rotate, x, y);
    }
    fputc('>', s->out);
    svg_escape(s->out, text);
    fputs("</text>\n", s->out);
}
