/*
 * cmd_sweep.c - `occ sweep regs|smem|threads|barriers`: resident warps as one
 * input varies with the others fixed, as Nsight Compute's "Impact of
 * Varying ..." charts draw them (occ_sweep in libocc), shown as a terminal
 * chart with the staircase's steps, or as CSV, JSON or an SVG chart.
 */
#include <errno.h>
#include <string.h>

#include "calc_output.h"
#include "cluster_output.h"
#include "sweep_json.h"
#include "launch.h"
#include "output.h"
#include "svg.h"

#define MAX_POINTS 2048

enum { OPT_CSV = LAUNCH_OPTION_COUNT, OPT_JSON, OPT_SVG, OPT_END };

static const cli_option options[] = {
    [OPT_CSV - LAUNCH_OPTION_COUNT] = {OPT_CSV, "csv", NULL,
                                       "print value,blocks_per_sm,warps_per_sm,occupancy, one row "
                                       "per point"},
    [OPT_JSON - LAUNCH_OPTION_COUNT] = {OPT_JSON, "json", NULL,
                                        "print the sweep as JSON (docs/json.md, occ.sweep)"},
    [OPT_SVG -
        LAUNCH_OPTION_COUNT] = {OPT_SVG, "svg", "FILE", "also write the chart as an SVG file"},
};
_Static_assert(sizeof options / sizeof options[0] == OPT_END - LAUNCH_OPTION_COUNT,
               "one entry per sweep option id");

static const cli_help help = {
    .name = "sweep",
    .summary = "resident warps as one input varies (Nsight's occupancy charts)",
    .usage = "occ sweep regs|smem|threads|barriers|cluster --gpu NAME --threads N [--regs N] "
             "[--smem BYTES] [options]",
    .description =
        "Resident warps per SM as one input varies and the others stay as given: the\n"
        "staircases of Nsight Compute's \"Impact of Varying Register Count / Shared\n"
        "Memory Usage / Block Size / Barrier Count\" charts, at the same x points with\n"
        "the same values. The SM's shared-memory configuration stays fixed along the\n"
        "curve, as Nsight holds the launch's; give Nsight's with --smem-config to match\n"
        "its chart. The smem axis is bytes per block as allocated (static + dynamic +\n"
        "the driver's reserve). The current configuration is marked. The axis may come\n"
        "anywhere among the options. Like Nsight, the smem axis shows 0 blocks for an\n"
        "allocation past the per-block maximum by less than the reserve, which the\n"
        "driver launches; a note under the table says where.\n"
        "\n"
        "The cluster axis gives the active clusters at each cluster size 1..8 (16 with\n"
        "--cluster-non-portable), as Nsight's launch__occupancy_per_cluster_size: CSV\n"
        "value,max_active_clusters,blocks_per_sm,warps_per_sm,occupancy.",
    .examples = "occ sweep regs --gpu H200 --threads 256 --regs 64 --smem 16K\n"
                "occ sweep smem --gpu A100 --threads 128 --regs 32 --csv\n"
                "occ sweep threads --gpu H200 --regs 40 --threads 768 --svg threads.svg\n"
                "occ sweep cluster --gpu H200 --threads 128 --dyn-smem 200K --cluster-non-portable",
};

static const cli_option_table tables[] = {LAUNCH_OPTION_TABLE,
                                          {options, OPT_END - LAUNCH_OPTION_COUNT}};
const cli_command_spec sweep_spec = {&help, tables, (int)(sizeof tables / sizeof tables[0])};

typedef struct sweep_args {
    int axis_index; /* -1 until the axis is given */
    bool csv;
    bool json;
    const char *svg_path;
} sweep_args;

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
/* The cluster-size axis: active clusters, not an occ_sweep axis (cluster_output.c). */
#define AXIS_CLUSTER AXIS_COUNT

static bool on_option(int id, const char *value, void *context, cli_error *err)
{
    sweep_args *a = context;
    switch (id) {
    case OPT_CSV: a->csv = true; return true;
    case OPT_JSON: a->json = true; return true;
    case OPT_SVG: a->svg_path = value; return true;
    case CLI_POSITIONAL:
        if (a->axis_index >= 0) {
            return cli_error_set(err, EXIT_USAGE, "argument '%.80s': the axis is already %s", value,
                                 axes[a->axis_index].name);
        }
        for (int i = 0; i < AXIS_COUNT; i++) {
            if (strcmp(value, axes[i].name) == 0) {
                a->axis_index = i;
                return true;
            }
        }
        if (strcmp(value, "cluster") == 0) {
            a->axis_index = AXIS_CLUSTER;
            return true;
        }
        return cli_error_set(err, EXIT_USAGE,
                             "axis '%.80s': is not one of regs, smem, threads, barriers, cluster",
                             value);
    default: return cli_error_set(err, EXIT_USAGE, "argument '%.80s': is not an option", value);
    }
}

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

/* Nsight's shared-memory chart holds a block's whole allocation, the
   driver's reserve included, to the per-block maximum, where the driver holds
   only the kernel's own bytes to it (tests/data/ncu-sweep/README.md): an
   allocation past the maximum by less than the reserve shows 0 blocks on the
   chart, and launches. occ_sweep draws Nsight's chart; this says where it
   and occ calc part. */
static void print_smem_quirk(FILE *out, const occ_device *d, const occ_kernel *k,
                             const occ_result *r, const occ_sweep_point *p, int n)
{
    int first = -1;
    int last_point = -1;
    int most = 0;  /* occ calc's blocks at the first point */
    int least = 0; /* and at the last */
    for (int i = 0; i < n; i++) {
        int own = p[i].value - d->smem_reserved_per_block_bytes;
        if (p[i].blocks_per_sm != 0 || own < 0) {
            continue;
        }
        occ_kernel v = *k;
        v.static_smem_bytes = own >= k->static_smem_bytes ? k->static_smem_bytes : 0;
        v.dyn_smem_bytes = own - v.static_smem_bytes;
        v.smem_config_bytes = r->smem_per_sm_bytes;
        occ_result at;
        if (occ_calc(d, &v, &at, NULL) != OCC_OK || at.blocks_per_sm == 0) {
            continue;
        }
        if (first < 0) {
            first = i;
            most = at.blocks_per_sm;
        }
        last_point = i;
        least = at.blocks_per_sm;
    }
    if (first < 0) {
        return;
    }
    int optin_total = k->max_dyn_smem_bytes == OCC_DYN_SMEM_OPTIN_MAX
                          ? d->smem_per_block_optin_bytes
                      : k->max_dyn_smem_bytes == OCC_DYN_SMEM_NO_OPTIN
                          ? d->smem_per_block_bytes
                          : k->static_smem_bytes + k->max_dyn_smem_bytes;
    bool at_optin = k->static_smem_bytes > 0 || optin_total > d->smem_per_block_bytes;
    char at[64], gives[48], cap[32], reserve[32], a[32], b[32];
    if (most == least) {
        snprintf(gives, sizeof gives, "%d %s", most, most == 1 ? "block" : "blocks");
    } else {
        snprintf(gives, sizeof gives, "%d to %d blocks", least, most);
    }
    if (first == last_point) {
        snprintf(at, sizeof at, "At %s bytes per block", group_digits(p[first].value, a, sizeof a));
    } else {
        snprintf(at, sizeof at, "From %s to %s bytes per block",
                 group_digits(p[first].value, a, sizeof a),
                 group_digits(p[last_point].value, b, sizeof b));
    }
    fputc('\n', out);
    cli_print_wrappedf(
        out, 0,
        "Note: %s this chart shows 0 blocks, as Nsight Compute's does, where occ calc of the "
        "same allocation gives %s and the launch runs: Nsight holds the whole allocation, "
        "the driver's %s reserve included, to the %s a block may have, and the driver holds "
        "only the kernel's own bytes to it.",
        at, gives, cli_format_bytes(d->smem_reserved_per_block_bytes, reserve, sizeof reserve),
        cli_format_bytes(at_optin ? d->smem_per_block_optin_bytes : d->smem_per_block_bytes, cap,
                         sizeof cap));
}

static bool write_svg(const char *path, const occ_device *d, int axis_index, int current,
                      const occ_result *r, const occ_sweep_point *p, int n, cli_error *err)
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
    snprintf(marker, sizeof marker, "current: %d -> %d %s (%.1f%%)", current, r->warps_per_sm,
             cli_plural(r->warps_per_sm, "warp", "warps"), r->occupancy * 100.0);
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
        return cli_error_set(err, EXIT_DATA, "option --svg: cannot write %s: %s", path,
                             strerror(errno));
    }
    chart_write_svg(&c, f);
    bool failed = ferror(f) != 0;
    if (fclose(f) != 0 || failed) {
        return cli_error_set(err, EXIT_DATA, "option --svg: cannot write %s: %s", path,
                             errno != 0 ? strerror(errno) : "write error");
    }
    return true;
}

int cmd_sweep(int argc, char **argv, const cli_io *io)
{
    sweep_args a = {.axis_index = -1};
    launch_args la;
    launch_args_init(&la);
    launch_command cmd = {&sweep_spec, on_option, &a, true, false};
    cli_error err;
    bool done;
    if (!launch_parse(&cmd, argc, argv, io, &la, &done, &err)) {
        return cli_report(io, "sweep", &err);
    }
    if (done) {
        return EXIT_OK;
    }
    if (a.axis_index < 0) {
        return cli_fail(io, "sweep", EXIT_USAGE,
                        "the axis is required: occ sweep regs|smem|threads|barriers|cluster ...");
    }
    if (a.csv && a.json) {
        return cli_fail(io, "sweep", EXIT_USAGE, "options --csv and --json: choose one");
    }
    occ_device dev;
    if (!launch_resolve(&cmd, io, &la, &dev, &err)) {
        return cli_report(io, "sweep", &err);
    }
    if (a.axis_index == AXIS_CLUSTER) {
        if (a.svg_path != NULL) {
            return cli_fail(io, "sweep", EXIT_USAGE, "option --svg: not for the cluster axis");
        }
        return cluster_sweep_print(io->out, &dev, &la.kernel, la.regs_given, a.csv, a.json, &err)
                   ? EXIT_OK
                   : cli_report(io, "sweep", &err);
    }
    static occ_sweep_point points[MAX_POINTS];
    int n = 0;
    occ_error oerr;
    occ_sweep_axis axis = axes[a.axis_index].axis;
    occ_result r;
    int current = 0;
    if (occ_sweep(&dev, &la.kernel, axis, points, MAX_POINTS, &n, &oerr) != OCC_OK ||
        occ_calc(&dev, &la.kernel, &r, &oerr) != OCC_OK ||
        occ_sweep_current_value(&dev, &la.kernel, axis, &current, &oerr) != OCC_OK) {
        return cli_fail(io, "sweep", EXIT_USAGE, "%s", oerr.message);
    }
    if (a.svg_path != NULL &&
        !write_svg(a.svg_path, &dev, a.axis_index, current, &r, points, n, &err)) {
        return cli_report(io, "sweep", &err);
    }
    if (a.csv) {
        fprintf(io->out, "value,blocks_per_sm,warps_per_sm,occupancy\n");
        for (int i = 0; i < n; i++) {
            fprintf(io->out, "%d,%d,%d,%.6g\n", points[i].value, points[i].blocks_per_sm,
                    points[i].warps_per_sm, points[i].occupancy);
        }
    } else if (a.json) {
        json_t *doc =
            sweep_json_axis(&dev, &la.kernel, axes[a.axis_index].name, current, &r, points, n);
        calc_json_set_regs_given(doc, la.regs_given);
        cli_print_json(io->out, doc);
    } else {
        fprintf(io->out,
                "%s: resident warps per SM vs %s (current %d: %d %s, %.1f%%; "
                "shared memory configured %d bytes per SM)\n\n",
                dev.name, occ_sweep_axis_name(axis), current, r.warps_per_sm,
                cli_plural(r.warps_per_sm, "warp", "warps"), r.occupancy * 100.0,
                r.smem_per_sm_bytes);
        print_chart(io->out, &dev, points, n, current);
        print_steps(io->out, points, n, axis);
        if (axis == OCC_SWEEP_SMEM) {
            print_smem_quirk(io->out, &dev, &la.kernel, &r, points, n);
        }
    }
    return EXIT_OK;
}
