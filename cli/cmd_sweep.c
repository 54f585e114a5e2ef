/*
 * cmd_sweep.c - `occ sweep regs|smem|threads|barriers`: resident warps as one
 * input varies with the others fixed, as Nsight Compute's "Impact of
 * Varying ..." charts draw them (occ_sweep in libocc), shown as a terminal
 * chart with the staircase's steps, or as CSV, JSON or an SVG chart.
 */
#include <errno.h>
#include <string.h>

#include "calc_args.h"
#include "kernel_args.h"
#include "svg.h"

#define MAX_POINTS 2048

static const cli_option options[] = {
    KERNEL_OPTIONS,
    {"csv", false, "", "print value,blocks_per_sm,warps_per_sm,occupancy, one row per point"},
    {"json", false, "", "print the sweep as JSON (docs/json.md, occ.sweep)"},
    {"svg", true, "FILE", "also write the chart as an SVG file"},
    {"help", false, "", "show this help"},
};
enum { OPT_CSV = KOPT_COUNT, OPT_JSON, OPT_SVG, OPT_HELP, OPT_COUNT };

typedef struct sweep_args {
    const cli_io *io;
    kernel_args k;
    bool csv;
    bool json;
    const char *svg_path;
    bool help;
} sweep_args;

static int on_option(int index, const char *value, void *context)
{
    sweep_args *a = context;
    switch (index) {
    case OPT_CSV: a->csv = true; break;
    case OPT_JSON: a->json = true; break;
    case OPT_SVG: a->svg_path = value; break;
    case OPT_HELP: a->help = true; break;
    default: return kernel_args_apply("sweep", index, value, &a->k, a->io);
    }
    return EXIT_OK;
}

static const char *const description =
    "Resident warps per SM as one input varies and the others stay as given: the\n"
    "staircases of Nsight Compute's \"Impact of Varying Register Count / Shared Memory\n"
    "Usage / Block Size / Barrier Count\" charts, at the same x points with the same\n"
    "values. The SM's shared-memory configuration stays fixed along the curve, as\n"
    "Nsight holds the launch's; give Nsight's with --smem-config to match its chart.\n"
    "The smem axis is bytes per block as allocated (static + dynamic + the driver's\n"
    "reserve). The current configuration is marked.\n"
    "\n"
    "examples:\n"
    "  occ sweep regs --gpu H200 --threads 256 --regs 64 --smem 16K\n"
    "  occ sweep smem --gpu A100 --threads 128 --regs 32 --csv\n"
    "  occ sweep threads --gpu H200 --regs 40 --threads 768 --svg threads.svg";

static const struct {
    const char *name;
    occ_sweep_axis axis;
    const char *x_label;
} axes[] = {
    {"regs", OCC_SWEEP_REGS, "registers per thread"},
    {"smem", OCC_SWEEP_SMEM, "shared memory per block (bytes, as allocated)"},
    {"threads", OCC_SWEEP_THREADS, "threads per block"},
    {"barriers", OCC_SWEEP_BARRIERS, "barriers per block"},
};
#define AXIS_COUNT ((int)(sizeof axes / sizeof axes[0]))

/* The terminal chart: one column per slice of x, eighth blocks for height. */
static void print_chart(FILE *out, const occ_device *d, const occ_sweep_point *p, int n,
                        int current)
{
    enum { WIDTH = 64, HEIGHT = 10 };
    static const char *const eighths[9] = {" ", "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"};
    int max_warps = occ_device_max_warps_per_sm(d);
    int column_warps[WIDTH];
    int marker_column = -1;
    for (int c = 0; c < WIDTH; c++) {
        int i = (int)((long long)c * (n - 1) / (WIDTH - 1));
        column_warps[c] = p[i].warps_per_sm;
    }
    for (int i = 0; i < n; i++) {
        if (p[i].value >= current) {
            marker_column = (int)((long long)i * (WIDTH - 1) / (n - 1 > 0 ? n - 1 : 1));
            break;
        }
    }
    for (int row = HEIGHT - 1; row >= 0; row--) {
        if (row == HEIGHT - 1) {
            fprintf(out, "%4d ┤", max_warps);
        } else if (row == 0) {
            fprintf(out, "%4d ┤", 0);
        } else {
            fprintf(out, "     │");
        }
        for (int c = 0; c < WIDTH; c++) {
            /* Eighths of this row that the column fills. */
            long long filled = (long long)column_warps[c] * HEIGHT * 8 / max_warps - row * 8;
            fputs(eighths[filled <= 0 ? 0 : filled >= 8 ? 8 : filled], out);
        }
        fputc('\n', out);
    }
    fprintf(out, "     └");
    for (int c = 0; c < WIDTH; c++) {
        fputs(c == marker_column ? "┴" : "─", out);
    }
    fprintf(out, "\n      %-*d%d\n", WIDTH - 1, p[0].value, p[n - 1].value);
    if (marker_column >= 0) {
        fprintf(out, "      %*s▲ current\n", marker_column, "");
    }
}

/* The staircase as runs of x with the same residency. */
static void print_steps(FILE *out, const occ_sweep_point *p, int n, occ_sweep_axis axis)
{
    fprintf(out, "\n%-22s %8s %8s %10s\n", axis == OCC_SWEEP_SMEM ? "bytes per block" : "value",
            "blocks", "warps", "occupancy");
    int start = 0;
    for (int i = 1; i <= n; i++) {
        if (i < n && p[i].warps_per_sm == p[start].warps_per_sm &&
            p[i].blocks_per_sm == p[start].blocks_per_sm) {
            continue;
        }
        char range[48];
        if (i - 1 == start) {
            snprintf(range, sizeof range, "%d", p[start].value);
        } else {
            snprintf(range, sizeof range, "%d-%d", p[start].value, p[i - 1].value);
        }
        fprintf(out, "%-22s %8d %8d %9.1f%%\n", range, p[start].blocks_per_sm,
                p[start].warps_per_sm, p[start].occupancy * 100.0);
        start = i;
    }
}

static json_t *sweep_json(const occ_device *d, const occ_kernel *k, const char *axis_name,
                          int current, const occ_result *r, const occ_sweep_point *p, int n)
{
    json_t *doc = calc_to_json(d, k, r);
    json_object_set_new(doc, "schema", json_string("occ.sweep"));
    json_object_del(doc, "result");
    json_object_set_new(doc, "axis", json_string(axis_name));
    json_object_set_new(doc, "smem_config_bytes", json_integer(r->smem_per_sm_bytes));
    json_object_set_new(doc, "current",
                        json_pack("{s:i, s:i, s:i, s:f}", "value", current, "blocks_per_sm",
                                  r->blocks_per_sm, "warps_per_sm", r->warps_per_sm, "occupancy",
                                  r->occupancy));
    json_t *points = json_array();
    for (int i = 0; i < n; i++) {
        json_array_append_new(points, json_pack("{s:i, s:i, s:i, s:f}", "value", p[i].value,
                                                "blocks_per_sm", p[i].blocks_per_sm, "warps_per_sm",
                                                p[i].warps_per_sm, "occupancy", p[i].occupancy));
    }
    json_object_set_new(doc, "points", points);
    return doc;
}

static int write_svg(const char *path, const occ_device *d, int axis_index, int current,
                     const occ_result *r, const occ_sweep_point *p, int n, const cli_io *io)
{
    static double xs[MAX_POINTS], ys[MAX_POINTS];
    for (int i = 0; i < n; i++) {
        xs[i] = p[i].value;
        ys[i] = p[i].warps_per_sm;
    }
    char title[160], subtitle[160], marker[96];
    snprintf(title, sizeof title, "Resident warps per SM vs %s on %s",
             occ_sweep_axis_name(axes[axis_index].axis), d->name);
    snprintf(subtitle, sizeof subtitle,
             "other inputs fixed; shared memory configured: %d bytes per SM", r->smem_per_sm_bytes);
    snprintf(marker, sizeof marker, "current: %d -> %d warps (%.1f%%)", current, r->warps_per_sm,
             r->occupancy * 100.0);
    chart c = {.title = title,
               .subtitle = subtitle,
               .x_label = axes[axis_index].x_label,
               .y_label = "resident warps per SM",
               .x_min = xs[0],
               .x_max = xs[n - 1],
               .y_min = 0,
               .y_max = occ_device_max_warps_per_sm(d),
               .series_count = 1,
               .has_marker = true,
               .marker_x = current,
               .marker_y = r->warps_per_sm,
               .marker_label = marker};
    c.series[0] = (chart_series){xs, ys, n, "#1f77b4", NULL, true, false};
    FILE *f = fopen(path, "w");
    if (f == NULL) {
        return cli_fail(io, "sweep", EXIT_DATA, "cannot write %s: %s", path, strerror(errno));
    }
    chart_write_svg(&c, f);
    if (fclose(f) != 0) {
        return cli_fail(io, "sweep", EXIT_DATA, "cannot write %s: %s", path, strerror(errno));
    }
    return EXIT_OK;
}

int cmd_sweep(int argc, char **argv, const cli_io *io)
{
    sweep_args a = {.io = io};
    kernel_args_init(&a.k);
    int axis_index = -1;
    if (argc >= 2 && strncmp(argv[1], "--", 2) != 0) {
        for (int i = 0; i < AXIS_COUNT; i++) {
            if (strcmp(argv[1], axes[i].name) == 0) {
                axis_index = i;
            }
        }
        if (axis_index < 0) {
            return cli_fail(io, "sweep", EXIT_USAGE,
                            "axis '%s': is not one of regs, smem, threads, barriers", argv[1]);
        }
    }
    /* The options follow the axis: parse argv without it (argv stays the caller's). */
    char *rest[256];
    int rest_count = 0;
    for (int i = 0; i < argc && rest_count < 255; i++) {
        if (!(i == 1 && axis_index >= 0)) {
            rest[rest_count++] = argv[i];
        }
    }
    if (argc > 255) {
        return cli_fail(io, "sweep", EXIT_USAGE, "too many arguments (%d)", argc);
    }
    rest[rest_count] = NULL;
    int code = cli_parse_options("sweep", rest_count, rest, options, OPT_COUNT, on_option, &a, io);
    if (code != EXIT_OK) {
        return code;
    }
    if (a.help) {
        cli_print_help(io->out,
                       "occ sweep regs|smem|threads|barriers --gpu NAME --threads N [--regs N] "
                       "[--smem BYTES] [options]",
                       description, options, OPT_COUNT);
        return EXIT_OK;
    }
    if (axis_index < 0) {
        return cli_fail(io, "sweep", EXIT_USAGE,
                        "the axis is required first: occ sweep regs|smem|threads|barriers ...");
    }
    if (a.csv && a.json) {
        return cli_fail(io, "sweep", EXIT_USAGE, "options --csv and --json: choose one");
    }
    occ_device dev;
    code = kernel_args_resolve("sweep", &a.k, true, &dev, io);
    if (code != EXIT_OK) {
        return code;
    }
    static occ_sweep_point points[MAX_POINTS];
    int n = 0;
    occ_error err;
    occ_sweep_axis axis = axes[axis_index].axis;
    if (occ_sweep(&dev, &a.k.kernel, axis, points, MAX_POINTS, &n, &err) != OCC_OK) {
        return cli_fail(io, "sweep", EXIT_USAGE, "%s", err.message);
    }
    occ_result r;
    if (occ_calc(&dev, &a.k.kernel, &r, &err) != OCC_OK) {
        return cli_fail(io, "sweep", EXIT_USAGE, "%s", err.message);
    }
    int current = occ_sweep_current_value(&dev, &a.k.kernel, axis);
    if (a.svg_path != NULL) {
        code = write_svg(a.svg_path, &dev, axis_index, current, &r, points, n, io);
        if (code != EXIT_OK) {
            return code;
        }
    }
    if (a.csv) {
        fprintf(io->out, "value,blocks_per_sm,warps_per_sm,occupancy\n");
        for (int i = 0; i < n; i++) {
            fprintf(io->out, "%d,%d,%d,%.6g\n", points[i].value, points[i].blocks_per_sm,
                    points[i].warps_per_sm, points[i].occupancy);
        }
    } else if (a.json) {
        json_t *doc = sweep_json(&dev, &a.k.kernel, axes[axis_index].name, current, &r, points, n);
        cli_print_json(io->out, doc);
    } else {
        fprintf(io->out,
                "%s: resident warps per SM vs %s (current %d: %d warps, %.1f%%; "
                "shared memory configured %d bytes per SM)\n\n",
                dev.name, occ_sweep_axis_name(axis), current, r.warps_per_sm, r.occupancy * 100.0,
                r.smem_per_sm_bytes);
        print_chart(io->out, &dev, points, n, current);
        print_steps(io->out, points, n, axis);
    }
    return EXIT_OK;
}
