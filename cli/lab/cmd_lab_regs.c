/*
 * cmd_lab_regs.c - `occ lab regs`: times every register cap of the kernels
 * of lab/regs/kernels.tsv on the GPU present with occ-regs-bench (built from
 * lab/regs/regs_bench.cu where nvcc exists), or reads records saved
 * earlier, and prints the regret table of occ regs's recommendation against
 * the measured best (lab/analysis/regs_regret.h). Options and the run here;
 * the records are read by lab_regs_records.c, the recommendations by
 * lab_regs_recommend.c, the output written by lab_regs_text.c and
 * lab_regs_json.c.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lab_child.h"
#include "lab_output.h"
#include "lab_regs_cubin.h"
#include "lab_regs_output.h"
#include "lab_regs_recommend.h"
#include "options.h"
#include "values.h"

#define MAX_RECORD_FILES 64

/* Where run_regs_lab.sh leaves the cubins, from the repository's root. */
#define DEFAULT_CUBINS "build-regs-lab/cubins"
#define DEFAULT_KERNELS "lab/regs/kernels.tsv"
/* The installed table, from the executable's directory. */
#define INSTALLED_KERNELS "../share/occ/lab/regs/kernels.tsv"

enum {
    R_RECORDS,
    R_CUBINS,
    R_KERNELS,
    R_ROUNDS,
    R_DISTINCT,
    R_SAVE,
    R_RECOMMENDED,
    R_PTX,
    R_GPU,
    R_METRIC,
    R_TOLERANCE,
    R_NO_GROUP,
    R_PER_CAP,
    R_JSON,
    R_MARKDOWN,
    R_HELP,
    R_END
};

static const cli_option regs_options[] = {
    [R_RECORDS] = {R_RECORDS, "records", "FILE",
                   "analyse saved records ('-': stdin; more files may follow); no GPU needed"},
    [R_CUBINS] = {R_CUBINS, "cubins", "DIR",
                  "the cubins a run times, and hashes (default " DEFAULT_CUBINS ")"},
    [R_KERNELS] = {R_KERNELS, "kernels", "TSV",
                   "the kernels a run times (default " DEFAULT_KERNELS ")"},
    [R_ROUNDS] = {R_ROUNDS, "rounds", "N", "a run times every cubin N times, round by round"},
    [R_DISTINCT] = {R_DISTINCT, "distinct", NULL,
                    "a run times one cubin of each machine code of a kernel"},
    [R_SAVE] = {R_SAVE, "save", "FILE", "also write the raw records of a run to FILE"},
    [R_RECOMMENDED] = {R_RECOMMENDED, "recommended", "PATH",
                       "occ regs's recommendations: occ.regs documents, a file or a folder"},
    [R_PTX] = {R_PTX, "ptx", "DIR", "compute them here: occ regs on DIR/NAME.ptx (needs ptxas)"},
    [R_GPU] = {R_GPU, "gpu", "NAME", "with --ptx: the GPU (default the records')"},
    [R_METRIC] = {R_METRIC, "metric", "NAME", "median_ms (default) or min_ms"},
    [R_TOLERANCE] = {R_TOLERANCE, "tolerance", "REL",
                     "also count outputs whose checksum is within REL (default 0)"},
    [R_NO_GROUP] = {R_NO_GROUP, "no-group", NULL, "score every cubin by its own time"},
    [R_PER_CAP] = {R_PER_CAP, "per-cap", NULL, "also print every cap of every kernel"},
    [R_JSON] = {R_JSON, "json", NULL, "print the occ.lab.regs JSON document (docs/json.md)"},
    [R_MARKDOWN] = {R_MARKDOWN, "markdown", NULL, "print the table and summary as Markdown"},
    [R_HELP] = {R_HELP, "help", NULL, "show this help (also -h)"},
};
_Static_assert(sizeof regs_options / sizeof regs_options[0] == R_END, "one entry per option id");

static const cli_help regs_help = {
    .name = "lab regs",
    .summary = "time every register cap and score occ regs's recommendation",
    .usage = "occ lab regs [--cubins DIR] [--kernels TSV] [--rounds N] [--distinct]\n"
             "             [--save FILE] [--recommended PATH | --ptx DIR] [options]\n"
             "occ lab regs --records FILE [FILE...] [--recommended PATH | --ptx DIR] [options]",
    .description =
        "Times every cubin of lab/regs's kernels (each compiled at no register cap and\n"
        "at every cap by tests/gpu/run_regs_lab.sh) on the GPU present with\n"
        "occ-regs-bench, looked for in $OCC_REGS_BENCH, then beside occ; its progress\n"
        "goes to stderr. Or reads records saved earlier (--records). Then scores each\n"
        "kernel's caps against its measured best, regret = time / best time - 1, for no\n"
        "cap, the cap that maximises occupancy, occ regs's recommended cap and the best\n"
        "of its candidates, against issue 20's goal: median regret <= 1.5%, max <= 5%,\n"
        "never more than 1% slower than no cap (docs/lab.md, \"occ lab regs\").\n"
        "\n"
        "A time counts only when its outputs were checked; a cap that hung, failed or\n"
        "computed something else has an infinite regret. A cubin timed in rounds is\n"
        "timed as the median of its rounds. Cubins of one kernel with the same machine\n"
        "code (equal code hashes, from the records or from --cubins) share one time:\n"
        "their differences are noise (--no-group scores each alone).\n"
        "\n"
        "exit status: 0 ok (a missed goal included), 1 records or a run that fail (no\n"
        "GPU, no occ-regs-bench, a malformed record), 2 usage",
    .examples = "occ lab regs --distinct --rounds 7 --save regs-times.jsonl\n"
                "occ lab regs --records regs-times.jsonl --ptx build-regs-lab/ptx --markdown\n"
                "occ lab regs --records docs/results/regs-h200/regs-times.jsonl \\\n"
                "    --recommended docs/results/regs-h200/recommended-v1.json",
};

static const cli_option_table regs_tables[] = {{regs_options, R_END}};

typedef struct regs_args {
    const char *records[MAX_RECORD_FILES];
    int record_count;
    bool records_given;
    const char *cubins, *kernels, *save, *recommended, *ptx, *gpu;
    long long rounds; /* 0: not given */
    bool distinct, per_cap, help;
    int run_option; /* the first option only a run takes (an id), or -1 */
    lab_regs_options o;
    lab_regs_format format;
    int formats;
} regs_args;

static bool on_regs_option(int id, const char *value, void *context, cli_error *err)
{
    regs_args *a = context;
    if (value != NULL && value[0] == '\0') {
        return cli_error_set(err, EXIT_USAGE, "is empty");
    }
    if ((id == R_KERNELS || id == R_ROUNDS || id == R_DISTINCT || id == R_SAVE) &&
        a->run_option < 0) {
        a->run_option = id;
    }
    switch (id) {
    case R_RECORDS:
    case CLI_POSITIONAL:
        a->records_given |= id == R_RECORDS;
        if (!a->records_given) {
            return cli_error_set(err, EXIT_USAGE,
                                 "'%.80s': record files follow --records; without it occ lab regs "
                                 "times on the GPU present",
                                 value);
        }
        if (a->record_count == MAX_RECORD_FILES) {
            return cli_error_set(err, EXIT_USAGE, "'%.80s': more than %d record files", value,
                                 MAX_RECORD_FILES);
        }
        a->records[a->record_count++] = value;
        return true;
    case R_CUBINS: a->cubins = value; return true;
    case R_KERNELS: a->kernels = value; return true;
    case R_SAVE: a->save = value; return true;
    case R_RECOMMENDED: a->recommended = value; return true;
    case R_PTX: a->ptx = value; return true;
    case R_GPU: a->gpu = value; return true;
    case R_ROUNDS: return cli_parse_int(value, 1, LAB_REGS_MAX_ROUND, &a->rounds, err);
    case R_DISTINCT: a->distinct = true; return true;
    case R_METRIC:
        if (strcmp(value, "median_ms") != 0 && strcmp(value, "min_ms") != 0) {
            return cli_error_set(err, EXIT_USAGE, "'%.80s' is not median_ms or min_ms", value);
        }
        a->o.metric = strcmp(value, "min_ms") == 0 ? LAB_REGS_MIN_MS : LAB_REGS_MEDIAN_MS;
        return true;
    case R_TOLERANCE: return cli_parse_double(value, 0.0, 1.0, &a->o.tolerance, err);
    case R_NO_GROUP: a->o.group = false; return true;
    case R_PER_CAP: a->per_cap = true; return true;
    case R_JSON:
    case R_MARKDOWN: {
        lab_regs_format f = id == R_JSON ? LAB_REGS_JSON : LAB_REGS_MARKDOWN;
        if (a->formats > 0 && a->format != f) {
            return cli_error_set(err, EXIT_USAGE,
                                 "options --json and --markdown: give one (the "
                                 "text table is the default)");
        }
        a->format = f;
        a->formats++;
        return true;
    }
    case R_HELP: a->help = true; return true;
    default: return cli_error_set(err, EXIT_USAGE, "option id %d is not a lab regs option", id);
    }
}

/* Options that contradict each other. */
static bool check_args(const regs_args *a, cli_error *err)
{
    if (a->records_given && a->run_option >= 0) {
        return cli_error_set(err, EXIT_USAGE,
                             "option --%s: is for a run; with --records nothing is run",
                             regs_options[a->run_option].name);
    }
    if (a->recommended != NULL && a->ptx != NULL) {
        return cli_error_set(err, EXIT_USAGE,
                             "options --recommended and --ptx: give one (documents, or the PTX "
                             "to compute them from)");
    }
    if (a->gpu != NULL && a->ptx == NULL) {
        return cli_error_set(err, EXIT_USAGE,
                             "option --gpu: is the GPU of --ptx's occupancy; give --ptx DIR too");
    }
    int stdin_files = 0;
    for (int i = 0; i < a->record_count; i++) {
        stdin_files += strcmp(a->records[i], "-") == 0;
    }
    if (stdin_files + (a->recommended != NULL && strcmp(a->recommended, "-") == 0) > 1) {
        return cli_error_set(err, EXIT_USAGE, "'-' (stdin) can be read once");
    }
    return true;
}

/* The kernels' table: --kernels, else the source tree's (from its root),
   else the installed copy beside the executable's prefix. */
static bool kernels_table(const regs_args *a, char *path, size_t cap, cli_error *err)
{
    if (a->kernels != NULL) {
        snprintf(path, cap, "%s", a->kernels);
    } else if (access(DEFAULT_KERNELS, R_OK) == 0) {
        snprintf(path, cap, "%s", DEFAULT_KERNELS);
    } else {
        char self[PATH_MAX - 64];
        ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
        self[n > 0 ? n : 0] = '\0';
        char *slash = strrchr(self, '/');
        if (slash != NULL) {
            *slash = '\0';
        }
        snprintf(path, cap, "%s/%s", self, INSTALLED_KERNELS);
        if (access(path, R_OK) != 0) {
            return cli_error_set(err, EXIT_DATA,
                                 "no kernels' table: neither %s (from the repository's root) nor "
                                 "%s; give --kernels TSV",
                                 DEFAULT_KERNELS, path);
        }
    }
    if (access(path, R_OK) != 0) {
        return cli_error_set(err, EXIT_DATA, "option --kernels: cannot read %s: %s", path,
                             strerror(errno));
    }
    return true;
}

/* Why a run failed, in one line: the runner's own record when it left one. */
static bool run_failed(const char *path, FILE *records, const lab_exit *how, cli_error *err)
{
    lab_regs_data partial;
    lab_regs_data_init(&partial);
    cli_error ignored;
    rewind(records);
    lab_regs_records_read(records, "occ-regs-bench's output", &partial, &ignored);
    if (partial.run_error[0] != '\0' && strcmp(partial.run_error_stage, "init") == 0) {
        cli_error_set(err, EXIT_DATA, "no CUDA GPU present (%s)", partial.run_error);
    } else if (partial.run_error[0] != '\0') {
        cli_error_set(err, EXIT_DATA, "%s stopped (%s: %s)", path, partial.run_error_stage,
                      partial.run_error);
    } else if (how->signal != 0) {
        cli_error_set(err, EXIT_DATA, "%s was ended by signal %d (%s)", path, how->signal,
                      strsignal(how->signal));
    } else if (how->status == 127) {
        cli_error_set(err, EXIT_DATA, "%s could not be run (exit status 127)", path);
    } else {
        cli_error_set(err, EXIT_DATA, "%s stopped with exit status %d (its message is above)", path,
                      how->status);
    }
    lab_regs_data_free(&partial);
    return false;
}

/* Runs occ-regs-bench into a temporary file (kept in --save FILE too). */
static FILE *run_bench(const regs_args *a, const char *cubins, cli_error *err)
{
    char bench[PATH_MAX], table[PATH_MAX];
    if (!lab_find_tool("OCC_REGS_BENCH", "occ-regs-bench", bench, sizeof bench)) {
        cli_error_set(err, EXIT_DATA,
                      "occ-regs-bench is not built (no executable %s; it is built where CMake "
                      "finds nvcc; or set OCC_REGS_BENCH)",
                      bench);
        return NULL;
    }
    if (!kernels_table(a, table, sizeof table, err)) {
        return NULL;
    }
    /* execv takes char *const[]: copies, not the option strings */
    char rounds_flag[] = "--rounds", distinct_flag[] = "--distinct";
    char rounds[24], folder[PATH_MAX];
    snprintf(rounds, sizeof rounds, "%lld", a->rounds);
    snprintf(folder, sizeof folder, "%s", cubins);
    char *argv[8];
    int argc = 0;
    argv[argc++] = bench;
    if (a->rounds > 0) {
        argv[argc++] = rounds_flag;
        argv[argc++] = rounds;
    }
    if (a->distinct) {
        argv[argc++] = distinct_flag;
    }
    argv[argc++] = table;
    argv[argc++] = folder;
    argv[argc] = NULL;
    FILE *records = tmpfile();
    if (records == NULL) {
        cli_error_set(err, EXIT_DATA, "cannot create a temporary file: %s", strerror(errno));
        return NULL;
    }
    lab_exit how = {0, 0};
    bool ok = lab_run_child(argv, records, &how, err);
    /* a failed run's records are kept too: they say how far it came */
    if (ok && a->save != NULL) {
        ok = lab_copy_records(records, a->save, err);
    }
    if (ok && (how.status != 0 || how.signal != 0)) {
        ok = run_failed(bench, records, &how, err);
    }
    if (!ok) {
        fclose(records);
        return NULL;
    }
    rewind(records);
    return records;
}

/* Every record file, or the run's output, into data. */
static bool read_records(const regs_args *a, FILE *run, const cli_io *io, lab_regs_data *data,
                         cli_error *err)
{
    if (run != NULL) {
        return lab_regs_records_read(run, "occ-regs-bench's output", data, err);
    }
    for (int i = 0; i < a->record_count; i++) {
        bool from_stdin = strcmp(a->records[i], "-") == 0;
        FILE *f = from_stdin ? io->in : lab_open_records(a->records[i], err);
        if (f == NULL) {
            return false;
        }
        bool ok = lab_regs_records_read(f, from_stdin ? "<stdin>" : a->records[i], data, err);
        if (!from_stdin) {
            fclose(f);
        }
        if (!ok) {
            return false;
        }
    }
    return true;
}

/* The recommendations: documents, or occ regs run here on the PTX. */
static bool recommendations(const regs_args *a, const cli_io *io, lab_regs_data *data,
                            cli_error *err)
{
    if (a->recommended != NULL) {
        return lab_regs_recommended_load(a->recommended, io->in, data, err);
    }
    if (a->ptx == NULL) {
        return true;
    }
    const char *gpu = a->gpu != NULL ? a->gpu : data->header.device;
    if (gpu[0] == '\0') {
        return cli_error_set(err, EXIT_USAGE,
                             "option --ptx: the records name no GPU; give --gpu NAME");
    }
    occ_device device;
    occ_error oerr;
    if (occ_gpu_find(gpu, &device, &oerr) != OCC_OK) {
        return cli_error_set(
            err, a->gpu != NULL ? EXIT_USAGE : EXIT_DATA, "%s%s (give --gpu NAME)",
            a->gpu != NULL ? "option --gpu: " : "the records' GPU: ", oerr.message);
    }
    int skipped = 0;
    if (!lab_regs_recommend_ptx(a->ptx, &device, data, &skipped, err)) {
        return false;
    }
    if (skipped > 0) {
        fprintf(io->err,
                "occ lab regs: %d kernel%s without a regs_time record, so without a launch: "
                "no recommendation\n",
                skipped, skipped == 1 ? "" : "s");
    }
    return true;
}

/* The analysis's view of the records. */
static lab_regs_kernel *kernels_of(const lab_regs_data *d)
{
    lab_regs_kernel *k = calloc((size_t)(d->kernel_count > 0 ? d->kernel_count : 1), sizeof *k);
    for (int i = 0; k != NULL && i < d->kernel_count; i++) {
        const lab_regs_kernel_data *s = &d->kernels[i];
        k[i] = (lab_regs_kernel){s->name,
                                 s->records,
                                 s->count,
                                 s->has_recommendation,
                                 s->recommended_cap,
                                 s->has_candidates,
                                 s->candidates,
                                 s->candidate_count};
    }
    return k;
}

static bool analyse_and_print(const regs_args *a, const lab_regs_data *data, const cli_io *io,
                              cli_error *err)
{
    lab_regs_kernel *kernels = kernels_of(data);
    if (kernels == NULL) {
        return cli_error_set(err, EXIT_DATA, "out of memory");
    }
    lab_regs_analysis analysis;
    occ_error oerr;
    occ_status st = lab_regs_analyse(kernels, data->kernel_count, &a->o, &analysis, &oerr);
    bool ok = st == OCC_OK || cli_error_set(err, EXIT_DATA, "%s", oerr.message);
    if (ok) {
        const char *run_file = "occ-regs-bench's output";
        lab_regs_view v = {&analysis,
                           data,
                           &a->o,
                           a->record_count > 0 ? a->records : &run_file,
                           a->record_count > 0 ? a->record_count : 1,
                           a->recommended != NULL ? a->recommended : a->ptx,
                           a->per_cap};
        if (a->format == LAB_REGS_JSON) {
            lab_regs_print_json(io->out, &v);
        } else if (a->format == LAB_REGS_MARKDOWN) {
            lab_regs_print_markdown(io->out, &v);
        } else {
            lab_regs_print_text(io->out, &v);
        }
    }
    lab_regs_analysis_free(&analysis);
    free(kernels);
    return ok;
}

static bool lab_regs(const regs_args *a, const cli_io *io, lab_regs_data *data, cli_error *err)
{
    const char *cubins = a->cubins != NULL ? a->cubins : DEFAULT_CUBINS;
    FILE *run = NULL;
    if (!a->records_given) {
        if (access(cubins, R_OK | X_OK) != 0) {
            return cli_error_set(err, EXIT_DATA,
                                 "no cubins in %s (tests/gpu/run_regs_lab.sh compiles them; or "
                                 "give --cubins DIR)",
                                 cubins);
        }
        if ((run = run_bench(a, cubins, err)) == NULL) {
            return false;
        }
    }
    bool ok = read_records(a, run, io, data, err);
    if (run != NULL) {
        fclose(run);
    }
    if (!ok) {
        return false;
    }
    const char *what = a->records_given ? a->records[0] : "occ-regs-bench's output";
    if (data->kernel_count == 0) {
        if (data->run_error[0] != '\0') {
            return cli_error_set(err, EXIT_DATA, "%s: the run failed (%s: %s)", what,
                                 data->run_error_stage, data->run_error);
        }
        return cli_error_set(err, EXIT_DATA, "%s: no regs_time or regs_error records", what);
    }
    /* code hashes of records without: where the cubins are known */
    if (a->o.group && (a->cubins != NULL || !a->records_given) &&
        !lab_regs_hash_cubins(data, cubins, err)) {
        return false;
    }
    if (!recommendations(a, io, data, err) || !analyse_and_print(a, data, io, err)) {
        return false;
    }
    if (data->run_error[0] != '\0') {
        return cli_error_set(err, EXIT_DATA, "%s: the run stopped early (%s: %s)", what,
                             data->run_error_stage, data->run_error);
    }
    return true;
}

int cmd_lab_regs(int argc, char **argv, const cli_io *io)
{
    regs_args a;
    memset(&a, 0, sizeof a);
    a.run_option = -1;
    a.o.metric = LAB_REGS_MEDIAN_MS;
    a.o.group = true;
    a.format = LAB_REGS_TEXT;
    cli_error err;
    if (!cli_parse_options(argc, argv, regs_tables, 1, on_regs_option, &a, &err)) {
        return cli_report(io, "lab regs", &err);
    }
    if (a.help) {
        cli_print_help(io->out, &regs_help, regs_tables, 1);
        return EXIT_OK;
    }
    if (!check_args(&a, &err)) {
        return cli_report(io, "lab regs", &err);
    }
    lab_regs_data data;
    lab_regs_data_init(&data);
    bool ok = lab_regs(&a, io, &data, &err);
    lab_regs_data_free(&data);
    return ok ? EXIT_OK : cli_report(io, "lab regs", &err);
}
