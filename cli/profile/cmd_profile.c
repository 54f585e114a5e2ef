/*
 * cmd_profile.c - `occ profile FILE...`: every kernel launch of a
 * whole-program trace (PyTorch profiler JSON, Nsight Systems SQLite or
 * `nsys stats` CSV), grouped and computed by libocc-profile; this file holds
 * the options and hands the result to the printers.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gpu_select.h"
#include "options.h"
#include "profile_output.h"
#include "values.h"

#define PROFILE_DEFAULT_TOP 20
#define PROFILE_DEFAULT_EXPLAIN 3
#define PROFILE_MAX_EXPLAIN 100

/* After the GPU options (gpu_select.h), the first table. */
enum {
    OPT_JSON = GPU_OPTION_COUNT,
    OPT_CSV,
    OPT_SVG,
    OPT_TOP,
    OPT_ALL,
    OPT_EXPLAIN,
    OPT_HELP,
    OPT_END
};
#define OPT_FIRST OPT_JSON

static const cli_option options[] = {
    {OPT_JSON, "json", NULL, "JSON, schema occ.profile (docs/json.md)"},
    {OPT_CSV, "csv", NULL, "CSV, one row per launch configuration"},
    {OPT_SVG, "svg", "FILE", "also draw GPU time by occupancy as SVG in FILE"},
    {OPT_TOP, "top", "N", "configurations in the text table (default 20)"},
    {OPT_ALL, "all", NULL, "every configuration in the text table"},
    {OPT_EXPLAIN, "explain", "N",
     "configurations explained, ranked by time x headroom (default 3, 0..100)"},
    {OPT_HELP, "help", NULL, "show this help (also -h)"},
};
_Static_assert(sizeof options / sizeof options[0] == OPT_END - OPT_FIRST,
               "one entry per profile option id");

static const cli_help help = {
    .name = "profile",
    .summary = "every kernel launch of a program's trace: occupancy, limiter, waves, time",
    .usage = "occ profile [options] FILE...",
    .description =
        "Reads whole-program traces, recognised by their content: PyTorch profiler traces\n"
        "(torch.profiler's export_chrome_trace, .json or .json.gz), Nsight Systems SQLite\n"
        "exports (nsys export --type sqlite) and `nsys stats --report cuda_gpu_trace\n"
        "--format csv`. Every kernel launch is read; launches are grouped by device,\n"
        "kernel and launch configuration, and each group is computed with libocc on the\n"
        "trace's GPU: the shared-memory configuration the driver picks at launch, the\n"
        "theoretical occupancy there and what limits it, the grid's waves, and active\n"
        "clusters. Then: the occupancy weighted by GPU time, GPU time by occupancy, the\n"
        "configurations ranked by GPU time x (1 - occupancy) with what to change, and\n"
        "every difference from what the trace itself recorded (nsys's\n"
        "sharedMemoryExecuted; Kineto's est. achieved occupancy, with the reason). Exit\n"
        "status: 0 read, 1 a bad or unreadable trace (one line naming the place), 2 a bad\n"
        "command line (docs/profile.md). --gpu or --gpu-file must name the trace's GPU;\n"
        "without them, the trace's own is used.",
    .examples = "occ profile trace.json.gz\n"
                "occ profile --json report.sqlite > occupancy.json\n"
                "occ profile --csv --svg time.svg gpu_trace.csv",
};

static const cli_option_table tables[] = {GPU_OPTION_TABLE, {options, OPT_END - OPT_FIRST}};
const cli_command_spec profile_spec = {&help, tables, 2};

typedef struct profile_args {
    const char **files;
    int file_count;
    bool json, csv, help, all;
    int top, explain;
    const char *svg;
    const char *gpu;
    const char *gpu_file;
} profile_args;

static bool on_option(int id, const char *value, void *context, cli_error *err)
{
    profile_args *a = context;
    long long n;
    switch (id) {
    case CLI_POSITIONAL: a->files[a->file_count++] = value; return true;
    case OPT_JSON: a->json = true; return true;
    case OPT_CSV: a->csv = true; return true;
    case OPT_SVG: a->svg = value; return true;
    case OPT_ALL: a->all = true; return true;
    case OPT_TOP:
        if (!cli_parse_int(value, 1, OCC_PROFILE_MAX_GROUPS, &n, err)) {
            return cli_error_prefix(err, "option --top: ");
        }
        a->top = (int)n;
        return true;
    case OPT_EXPLAIN:
        if (!cli_parse_int(value, 0, PROFILE_MAX_EXPLAIN, &n, err)) {
            return cli_error_prefix(err, "option --explain: ");
        }
        a->explain = (int)n;
        return true;
    case OPT_HELP: a->help = true; return true;
    default: {
        gpu_choice c = {a->gpu, a->gpu_file};
        if (!gpu_option_apply(id, value, &c, err)) {
            return false;
        }
        a->gpu = c.gpu;
        a->gpu_file = c.gpu_file;
        return true;
    }
    }
}

static bool check_args(const profile_args *a, cli_error *err)
{
    if (a->json && a->csv) {
        return cli_error_set(err, EXIT_USAGE, "--json and --csv: choose one");
    }
    if (a->gpu && a->gpu_file) {
        return cli_error_set(err, EXIT_USAGE, "--gpu and --gpu-file: choose one");
    }
    if (a->file_count == 0) {
        return cli_error_set(err, EXIT_USAGE,
                             "no input: give a PyTorch profiler trace (.json, .json.gz), an "
                             "Nsight Systems SQLite export or an nsys stats cuda_gpu_trace CSV");
    }
    for (int i = 0; i < a->file_count; i++) {
        struct stat st;
        if (strcmp(a->files[i], "-") == 0) {
            return cli_error_set(err, EXIT_USAGE,
                                 "stdin ('-') is not read: traces are read by name (SQLite "
                                 "needs a file; JSON and CSV may be gzipped files)");
        }
        if (stat(a->files[i], &st) == 0 && S_ISDIR(st.st_mode)) {
            return cli_error_set(err, EXIT_DATA, "%s: is a directory, not a trace", a->files[i]);
        }
    }
    return true;
}

int cmd_profile(int argc, char **argv, const cli_io *io)
{
    profile_args a = {0};
    a.top = PROFILE_DEFAULT_TOP;
    a.explain = PROFILE_DEFAULT_EXPLAIN;
    a.files = calloc((size_t)argc + 1, sizeof *a.files);
    if (a.files == NULL) {
        return cli_fail(io, "profile", EXIT_DATA, "out of memory");
    }
    cli_error err;
    occ_device forced;
    if (!cli_parse_options(argc, argv, tables, 2, on_option, &a, &err)) {
        free(a.files);
        return cli_report(io, "profile", &err);
    }
    if (a.help) {
        cli_print_help(io->out, &help, tables, 2);
        free(a.files);
        return EXIT_OK;
    }
    if (!check_args(&a, &err) ||
        ((a.gpu || a.gpu_file) && !cli_resolve_gpu(a.gpu, a.gpu_file, io->in, &forced, &err))) {
        free(a.files);
        return cli_report(io, "profile", &err);
    }
    occ_profile_input *inputs = calloc((size_t)a.file_count, sizeof *inputs);
    size_t *ranked = calloc((size_t)a.explain + (size_t)PROFILE_DEFAULT_TOP + 1, sizeof *ranked);
    if (!inputs || !ranked) {
        free(inputs);
        free(ranked);
        free(a.files);
        return cli_fail(io, "profile", EXIT_DATA, "out of memory");
    }
    for (int i = 0; i < a.file_count; i++) {
        inputs[i].path = a.files[i];
    }
    occ_profile_options opts;
    occ_profile_options_init(&opts);
    opts.device = (a.gpu || a.gpu_file) ? &forced : NULL;
    occ_profile_result *r = NULL;
    occ_profile_error perr;
    int code = EXIT_OK;
    occ_status st = occ_profile_read(inputs, a.file_count, &opts, &r, &perr);
    if (st != OCC_OK) {
        code = cli_fail(io, "profile", EXIT_DATA, "%s", perr.message);
    } else {
        size_t max_ranked = (size_t)a.explain + PROFILE_DEFAULT_TOP;
        profile_view v = {r, a.files, a.file_count, a.all ? 0 : a.top, a.explain, ranked, 0};
        v.ranked_count = occ_profile_rank(r, ranked, max_ranked);
        if (a.json) {
            profile_print_json(io->out, &v);
        } else if (a.csv) {
            profile_print_csv(io->out, &v);
        } else {
            profile_print_text(io->out, &v);
        }
        if (a.svg && !profile_write_svg(a.svg, &v)) {
            code =
                cli_fail(io, "profile", EXIT_DATA, "%s: cannot write: %s", a.svg, strerror(errno));
        }
    }
    occ_profile_result_free(r);
    free(inputs);
    free(ranked);
    free(a.files);
    return code;
}
