/*
 * cmd_lab.c - `occ lab EXPERIMENT`: runs occ-lab (the CUDA experiments,
 * built from lab/ where nvcc exists) on the GPU present, or reads records it
 * saved earlier, and prints the analysis. Without occ-lab or without a GPU
 * it says why in one line and exits 1; the occ binary itself needs no CUDA.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "value_parse.h"
#include "lab_child.h"
#include "lab_clusters.h"
#include "lab_output.h"
#include "lab_records.h"
#include "options.h"

/* occ-lab's exit code when it finds no GPU (lab/occ_lab.h). */
#define LAB_EXIT_NO_GPU 3

enum { OPT_JSON, OPT_CSV, OPT_OUT, OPT_RECORDS, OPT_SAVE, OPT_QUICK, OPT_HELP, OPT_END };

static const cli_option options[] = {
    [OPT_JSON] = {OPT_JSON, "json", NULL,
                  "print the analysis as JSON (schema occ.lab, docs/lab.md)"},
    [OPT_CSV] = {OPT_CSV, "csv", NULL, "print the tables as CSV"},
    [OPT_OUT] = {OPT_OUT, "out", "DIR",
                 "write SVG plots and the raw records (records.jsonl) into DIR"},
    [OPT_RECORDS] = {OPT_RECORDS, "records", "FILE",
                     "analyse records saved earlier ('-' for stdin); no GPU needed"},
    [OPT_SAVE] = {OPT_SAVE, "save", "FILE", "also write the raw records occ-lab printed to FILE"},
    [OPT_QUICK] = {OPT_QUICK, "quick", NULL, "fewer rows and runs (the test suite's run)"},
    [OPT_HELP] = {OPT_HELP, "help", NULL, "show this help (also -h)"},
};
_Static_assert(sizeof options / sizeof options[0] == OPT_END, "one entry per lab option id");

#define EXPERIMENT_LIST                                                                            \
    "residency, blocksize, spill, timeline, ceiling, latency, verify, gpcs, clusters, all"

static const char *const experiments[] = {"residency", "blocksize", "spill", "timeline", "ceiling",
                                          "latency",   "verify",    "gpcs",  "clusters", "all"};
#define EXPERIMENT_COUNT ((int)(sizeof experiments / sizeof experiments[0]))

static const cli_help help = {
    .name = "lab",
    .summary = "measure occupancy's effects on the GPU present (needs occ-lab)",
    .usage = "occ lab EXPERIMENT [--json | --csv] [--out DIR] [--save FILE] [--quick]\n"
             "occ lab EXPERIMENT --records FILE [--json | --csv] [--out DIR]",
    .description = "Measures on the GPU present what occupancy does and does not buy, checks\n"
                   "every result, and holds libocc's predictions against the hardware. The\n"
                   "experiments run in occ-lab (built from lab/ where nvcc exists); occ\n"
                   "analyses what it prints (docs/lab.md). occ-lab is looked for in $OCC_LAB,\n"
                   "then beside the occ executable.\n"
                   "\n"
                   "experiments:\n"
                   "  residency  a*x + y at every residency and ILP: loads in flight against\n"
                   "             occupancy (the TLP-vs-ILP experiment of \"Occupancy is not\n"
                   "             the goal\", a GPU course's page; docs/sources.md)\n"
                   "  blocksize  every block size 32..1024 against the occupancy API's pick\n"
                   "             (the same page's block-size comparison)\n"
                   "  spill      __launch_bounds__(256, 1..8): occupancy up, registers down,\n"
                   "             spills (the same page's launch-bounds comparison)\n"
                   "  timeline   per-block SM and time stamps: waves, tail, achieved occupancy\n"
                   "  ceiling    the bandwidth ceiling: cudaMemcpy device to device and a copy\n"
                   "             kernel\n"
                   "  latency    DRAM and L2 latency by pointer chase, in ns and cycles\n"
                   "  verify     libocc against the driver on this GPU: every answer must agree\n"
                   "             (with clusters on compute capability 9.0 and later)\n"
                   "  gpcs       launch clusters of 1..16 blocks, join the SMs they shared into\n"
                   "             GPCs, check the layout against the driver; --out DIR writes\n"
                   "             DIR/gpu-layout.json for --gpu-file\n"
                   "  clusters   a persistent cluster kernel, grid by SM count against max\n"
                   "             active clusters x size: time and idle SMs\n"
                   "  all        everything above in one run\n"
                   "\n"
                   "Two more with options of their own (occ lab regs --help, occ lab trace\n"
                   "--help):\n"
                   "  regs       every register cap of lab/regs/'s kernels timed with\n"
                   "             occ-regs-bench, and occ regs's recommendation scored by its\n"
                   "             regret against the best (docs/regs.md)\n"
                   "  trace      every kernel launch of a program recorded with CUPTI",
    .examples = "occ lab residency\n"
                "occ lab all --out results/ --save results/raw.jsonl\n"
                "occ lab residency --records docs/results/h200/lab-all.jsonl --csv",
};

static const cli_option_table tables[] = {{options, OPT_END}};
const cli_command_spec lab_spec = {&help, tables, 1};

typedef struct lab_args {
    const char *experiment;
    lab_format format;
    int formats; /* how many of --json and --csv */
    const char *out_dir;
    const char *records;
    const char *save;
    bool quick;
    bool help;
} lab_args;

static bool on_experiment(lab_args *a, const char *name, cli_error *err)
{
    if (a->experiment != NULL) {
        return cli_error_set(err, EXIT_USAGE,
                             "argument '%.80s': one experiment at a time ('%s' is named "
                             "already; 'all' runs every one)",
                             name, a->experiment);
    }
    for (int i = 0; i < EXPERIMENT_COUNT; i++) {
        if (strcmp(name, experiments[i]) == 0) {
            a->experiment = experiments[i];
            return true;
        }
    }
    const char *near = value_nearest_word(name, experiments, EXPERIMENT_COUNT);
    if (near != NULL) {
        return cli_error_set(err, EXIT_USAGE, "'%.80s' is not an experiment; did you mean '%s'?",
                             name, near);
    }
    return cli_error_set(err, EXIT_USAGE,
                         "'%.80s' is not an experiment; experiments are " EXPERIMENT_LIST, name);
}

static bool on_option(int id, const char *value, void *context, cli_error *err)
{
    lab_args *a = context;
    switch (id) {
    case CLI_POSITIONAL: return on_experiment(a, value, err);
    case OPT_JSON:
    case OPT_CSV: {
        lab_format format = id == OPT_JSON ? LAB_JSON : LAB_CSV;
        if (a->formats > 0 && a->format != format) {
            return cli_error_set(err, EXIT_USAGE,
                                 "options --json and --csv: give one (the text report is the "
                                 "default)");
        }
        a->format = format;
        a->formats++;
        return true;
    }
    case OPT_OUT:
    case OPT_RECORDS:
    case OPT_SAVE:
        if (value[0] == '\0') {
            return cli_error_set(err, EXIT_USAGE, "is empty; give a %s",
                                 id == OPT_OUT ? "directory" : "file name");
        }
        *(id == OPT_OUT ? &a->out_dir : id == OPT_RECORDS ? &a->records : &a->save) = value;
        return true;
    case OPT_QUICK: a->quick = true; return true;
    case OPT_HELP: a->help = true; return true;
    default: return cli_error_set(err, EXIT_USAGE, "option id %d is not a lab option", id);
    }
}

/* The experiments occ-lab must run for `name` (at most 3), and what to
   present. */
static int plan(const char *name, const char *run[3], lab_selection *sel)
{
    memset(sel, 0, sizeof *sel);
    int count = 0;
    if (strcmp(name, "all") == 0) {
        run[count++] = "all";
        *sel = (lab_selection){true, true, true, true, true, true, true, true, true};
        return count;
    }
    if (strcmp(name, "residency") == 0) {
        /* The table's ceiling column and the model need both. */
        run[count++] = "ceiling";
        run[count++] = "latency";
        sel->residency = true;
    }
    run[count++] = name;
    sel->ceiling |= strcmp(name, "ceiling") == 0;
    sel->latency |= strcmp(name, "latency") == 0;
    sel->blocksize = strcmp(name, "blocksize") == 0;
    sel->spill = strcmp(name, "spill") == 0;
    sel->timeline = strcmp(name, "timeline") == 0;
    sel->verify = strcmp(name, "verify") == 0;
    sel->gpcs = strcmp(name, "gpcs") == 0;
    sel->clusters = strcmp(name, "clusters") == 0;
    return count;
}

/* Runs occ-lab with args (and --quick), its stdout into `records`; its
   stderr (progress and messages) passes through. */
static bool run_lab(const char *path, const char *const *args, int count, bool quick, FILE *records,
                    lab_exit *how, cli_error *err)
{
    /* The argument copies are made before fork: execv takes char *const[]. */
    char *argv[8] = {NULL};
    int argc = 0;
    argv[argc++] = strdup(path);
    if (quick) {
        argv[argc++] = strdup("--quick");
    }
    for (int i = 0; i < count && argc < 7; i++) {
        argv[argc++] = strdup(args[i]);
    }
    bool copied = true;
    for (int i = 0; i < argc; i++) {
        copied &= argv[i] != NULL;
    }
    bool ok = copied ? lab_run_child(argv, records, how, err)
                     : cli_error_set(err, EXIT_DATA, "cannot start %s: out of memory", path);
    for (int i = 0; i < argc; i++) {
        free(argv[i]);
    }
    return ok;
}

/* Why a run of occ-lab failed, in one line: the message of its "error"
   record when it left one. */
static bool lab_failed(const char *path, FILE *records, const lab_exit *how, cli_error *err)
{
    lab_data *partial = malloc(sizeof *partial);
    const char *message = NULL;
    cli_error ignored;
    rewind(records);
    if (partial != NULL && lab_records_read(records, "occ-lab's output", partial, &ignored) &&
        partial->error[0] != '\0') {
        message = partial->error;
    }
    if (how->status == LAB_EXIT_NO_GPU) {
        cli_error_set(err, EXIT_DATA, "no CUDA GPU present (%s)",
                      message != NULL ? message : "occ-lab found none");
    } else if (how->signal != 0) {
        cli_error_set(err, EXIT_DATA, "%s was ended by signal %d (%s)", path, how->signal,
                      strsignal(how->signal));
    } else if (how->status == 127) {
        cli_error_set(err, EXIT_DATA, "%s could not be run (exit status 127)", path);
    } else {
        cli_error_set(err, EXIT_DATA, "%s stopped with exit status %d (its message is above)", path,
                      how->status);
    }
    if (partial != NULL) {
        lab_data_free(partial);
        free(partial);
    }
    return false;
}

/* Runs occ-lab for the experiments in `run` into a temporary file. */
static FILE *records_from_lab(const lab_args *a, const char *const *run, int run_count,
                              cli_error *err)
{
    char path[PATH_MAX];
    if (!lab_find_tool("OCC_LAB", "occ-lab", path, sizeof path)) {
        cli_error_set(err, EXIT_DATA,
                      "occ-lab is not built (no executable %s; it is built where CMake finds "
                      "nvcc; or set OCC_LAB)",
                      path);
        return NULL;
    }
    FILE *records = tmpfile();
    if (records == NULL) {
        cli_error_set(err, EXIT_DATA, "cannot create a temporary file: %s", strerror(errno));
        return NULL;
    }
    lab_exit how = {0, 0};
    if (!run_lab(path, run, run_count, a->quick, records, &how, err) ||
        (how.status != 0 && !lab_failed(path, records, &how, err))) {
        fclose(records);
        return NULL;
    }
    rewind(records);
    return records;
}

/* --out DIR: the directory, the raw records (unless they came on stdin,
   which cannot be read twice) and the plots. */
static bool write_out_dir(const lab_args *a, FILE *records, lab_data *data,
                          const lab_selection *sel, cli_error *err)
{
    if (mkdir(a->out_dir, 0777) != 0 && errno != EEXIST) {
        return cli_error_set(err, EXIT_DATA, "cannot create %s: %s", a->out_dir, strerror(errno));
    }
    char path[PATH_MAX];
    int n = snprintf(path, sizeof path, "%s/records.jsonl", a->out_dir);
    if (n < 0 || (size_t)n >= sizeof path) {
        return cli_error_set(err, EXIT_USAGE, "option --out: a path longer than %d bytes",
                             PATH_MAX - 1);
    }
    bool from_stdin = a->records != NULL && strcmp(a->records, "-") == 0;
    if (!from_stdin && !lab_copy_records(records, path, err)) {
        return false;
    }
    return lab_svg_write_all(a->out_dir, data, sel, err) &&
           (!sel->gpcs || lab_gpcs_write_gpu_file(a->out_dir, data, err));
}

/* Reads the records and presents them: plots, then the report. */
static bool analyse(const lab_args *a, FILE *records, const char *name, const lab_selection *sel,
                    FILE *out, cli_error *err)
{
    lab_data *data = malloc(sizeof *data);
    if (data == NULL) {
        return cli_error_set(err, EXIT_DATA, "out of memory");
    }
    bool ok = lab_records_read(records, name, data, err) &&
              (a->out_dir == NULL || write_out_dir(a, records, data, sel, err)) &&
              (!(sel->ceiling || sel->latency || sel->residency || sel->blocksize || sel->spill ||
                 sel->timeline || sel->verify) ||
               lab_report(out, data, sel, a->format, err)) &&
              lab_clusters_report(out, data, sel->gpcs, sel->clusters, sel->verify, a->format, err);
    lab_data_free(data);
    free(data);
    return ok;
}

int cmd_lab(int argc, char **argv, const cli_io *io)
{
    if (argc > 1 && strcmp(argv[1], "trace") == 0) {
        return cmd_lab_trace(argc - 1, argv + 1, io);
    }
    if (argc > 1 && strcmp(argv[1], "regs") == 0) {
        return cmd_lab_regs(argc - 1, argv + 1, io);
    }
    lab_args a = {.format = LAB_TEXT};
    cli_error err;
    if (!cli_parse_options(argc, argv, tables, 1, on_option, &a, &err)) {
        return cli_report(io, "lab", &err);
    }
    if (a.help) {
        cli_print_help(io->out, &help, tables, 1);
        return EXIT_OK;
    }
    if (a.experiment == NULL) {
        return cli_fail(io, "lab", EXIT_USAGE,
                        "no experiment named; experiments are " EXPERIMENT_LIST);
    }
    const char *run[3];
    lab_selection sel;
    int run_count = plan(a.experiment, run, &sel);

    FILE *records;
    const char *name;
    bool own_records = true;
    if (a.records == NULL) {
        records = records_from_lab(&a, run, run_count, &err);
        name = "occ-lab's output";
        if (records != NULL && a.save != NULL && !lab_copy_records(records, a.save, &err)) {
            fclose(records);
            records = NULL;
        }
    } else if (strcmp(a.records, "-") == 0) {
        records = io->in;
        name = "<stdin>";
        own_records = false;
    } else {
        records = lab_open_records(a.records, &err);
        name = a.records;
    }
    if (records == NULL) {
        return cli_report(io, "lab", &err);
    }
    bool ok = analyse(&a, records, name, &sel, io->out, &err);
    if (own_records) {
        fclose(records);
    }
    return ok ? EXIT_OK : cli_report(io, "lab", &err);
}
