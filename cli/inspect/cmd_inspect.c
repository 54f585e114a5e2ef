/*
 * cmd_inspect.c - `occ inspect`: the resources and occupancy of every kernel
 * in ptxas logs, cubins, fatbins, executables and libraries, offline.
 * Options and order of work; the reading is libocc-inspect's
 * (occ_inspect_read), the output is in inspect_table.c, inspect_csv.c and
 * inspect_json.c.
 */
#include <regex.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "clock.h"
#include "baseline_save.h"
#include "gpu_select.h"
#include "file_read.h"
#include "inspect_dirs.h"
#include "inspect_output.h"
#include "inspect_read_options.h"
#include "options.h"
#include "values.h"

enum {
    OPT_SORT = READ_OPTION_COUNT,
    OPT_JSON,
    OPT_CSV,
    OPT_SUMMARY,
    OPT_SAVE,
    OPT_MANGLED,
    OPT_HELP,
    OPT_END
};

#define OPT_FIRST OPT_SORT
static const cli_option options[] = {
    {OPT_SORT, "sort", "KEY", "occupancy (lowest first, default), regs, smem or name"},
    {OPT_JSON, "json", NULL, "JSON (docs/inspect.md)"},
    {OPT_CSV, "csv", NULL, "CSV: arch,name,regs,smem,stack,... (docs/inspect.md)"},
    {OPT_SUMMARY, "summary", NULL,
     "counts by limiter and occupancy band, the kernels at risk, the worst"},
    {OPT_SAVE, "save", "FILE", "also write every function's resources as a baseline for occ diff"},
    {OPT_MANGLED, "mangled", NULL, "print mangled names"},
    {OPT_HELP, "help", NULL, "show this help (also -h)"},
};
_Static_assert(sizeof options / sizeof options[0] == OPT_END - OPT_FIRST,
               "one entry per inspect option id");

static const cli_help help = {
    .name = "inspect",
    .summary = "resources and occupancy of every kernel in a log, cubin, fatbin or library",
    .usage = "occ inspect [options] FILE...\n"
             "nvcc -arch=sm_90 -Xptxas -v -c k.cu 2>&1 | occ inspect [options]",
    .description = "Reads kernels' resource usage from ptxas -v logs (file or stdin), cubins,\n"
                   "fatbins, executables and shared libraries (found by content, compressed\n"
                   "entries included) and shows each kernel's occupancy and what limits it:\n"
                   "on the GPU --gpu names, else on a GPU of each kernel's own arch.\n"
                   "FILE '-' reads stdin, as does no FILE when stdin is a pipe or a file.\n"
                   "Identical kernels found in several containers are shown once, with a count.\n"
                   "\n"
                   "A ptxas log does not carry __launch_bounds__, .reqntid or cluster dims, so a\n"
                   "kernel read from one may get other figures than the same kernel read from\n"
                   "its binary; the output says so. Damaged inputs and values no GPU allows are\n"
                   "errors naming the file and the limit (docs/inspect.md, \"Limits\").",
    .examples = "occ inspect --gpu H200 --summary /usr/local/cuda/lib64/libcublasLt.so.13\n"
                "nvcc -arch=sm_90 -Xptxas -v -c k.cu 2>&1 | occ inspect --gpu H200\n"
                "occ inspect --json --arch sm_90 app > kernels.json",
};

static const cli_option_table tables[] = {INSPECT_READ_OPTION_TABLES,
                                          {options, OPT_END - OPT_FIRST}};
const cli_command_spec inspect_spec = {&help, tables, 3};

/* "sm_90" -> any suffix; "sm_90a" / "sm_100f" -> exactly that. */
bool inspect_parse_arch(const char *text, occ_inspect_options *o, cli_error *err)
{
    const char *what = "is not an arch such as sm_90, sm_90a or sm_100f";
    if (strncmp(text, "sm_", 3) != 0) {
        return cli_error_set(err, EXIT_USAGE, "'%.40s' %s", text, what);
    }
    const char *digits = text + 3;
    size_t n = strspn(digits, "0123456789");
    const char *suffix = digits + n;
    if (n == 0 || n > 3 ||
        (suffix[0] != '\0' && (suffix[1] != '\0' || (suffix[0] != 'a' && suffix[0] != 'f')))) {
        return cli_error_set(err, EXIT_USAGE, "'%.40s' %s", text, what);
    }
    char number[4];
    memcpy(number, digits, n);
    number[n] = '\0';
    long long sm;
    if (!cli_parse_int(number, 10, 999, &sm, err)) {
        return cli_error_prefix(err, "'%.40s': SM number ", text);
    }
    o->arch_sm = (int)sm;
    o->arch_suffix = suffix[0];
    o->arch_any_suffix = suffix[0] == '\0';
    return true;
}

bool inspect_apply_read_option(inspect_read_option which, const char *value, occ_inspect_options *o,
                               cli_error *err)
{
    long long n;
    switch (which) {
    case INSPECT_READ_THREADS:
        if (!cli_parse_int(value, 1, 1024, &n, err)) {
            return cli_error_prefix(err, "threads per block: ");
        }
        o->threads = (int)n;
        return true;
    case INSPECT_READ_DYN_SMEM:
        if (!cli_parse_size(value, &n, err)) {
            return false;
        }
        o->dyn_smem_bytes = (int)n;
        return true;
    case INSPECT_READ_ARCH: return inspect_parse_arch(value, o, err);
    case INSPECT_READ_JOBS:
        if (!cli_parse_int(value, 1, OCC_INSPECT_MAX_JOBS, &n, err)) {
            return cli_error_prefix(err, "threads: ");
        }
        o->jobs = (int)n;
        return true;
    }
    return cli_error_set(err, EXIT_USAGE, "reading option %d is unknown", (int)which);
}

bool inspect_check_filter(const char *regex, cli_error *err)
{
    if (regex == NULL) {
        return true;
    }
    regex_t re;
    int rc = regcomp(&re, regex, REG_EXTENDED | REG_NOSUB);
    if (rc != 0) {
        char why[128];
        regerror(rc, &re, why, sizeof why);
        return cli_error_set(err, EXIT_USAGE,
                             "option --filter: '%.200s' is not a regular expression: %s", regex,
                             why);
    }
    regfree(&re);
    return true;
}

static bool parse_sort(const char *value, occ_inspect_order *out, cli_error *err)
{
    static const struct {
        const char *name;
        occ_inspect_order order;
    } keys[] = {{"occupancy", OCC_INSPECT_BY_OCCUPANCY},
                {"regs", OCC_INSPECT_BY_REGS},
                {"smem", OCC_INSPECT_BY_SMEM},
                {"name", OCC_INSPECT_BY_NAME}};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        if (strcmp(value, keys[i].name) == 0) {
            *out = keys[i].order;
            return true;
        }
    }
    return cli_error_set(err, EXIT_USAGE, "'%.40s' is not one of occupancy, regs, smem, name",
                         value);
}

static bool on_option(int id, const char *value, void *context, cli_error *err)
{
    inspect_args *a = context;
    occ_inspect_options *o = &a->read;
    switch (id) {
    case CLI_POSITIONAL: a->files[a->file_count++] = value; return true;
    case OPT_SORT: return parse_sort(value, &a->sort, err);
    case OPT_JSON:
        a->output = INSPECT_OUT_JSON;
        a->outputs++;
        return true;
    case OPT_CSV:
        a->output = INSPECT_OUT_CSV;
        a->outputs++;
        return true;
    case OPT_SUMMARY:
        a->output = INSPECT_OUT_SUMMARY;
        a->outputs++;
        return true;
    case OPT_SAVE:
        if (strcmp(value, "-") == 0) {
            return cli_error_set(err, EXIT_USAGE,
                                 "option --save: give a file name ('-' would mix the baseline "
                                 "with the table on stdout)");
        }
        a->save = value;
        return true;
    case OPT_MANGLED: o->demangle = false; return true;
    case OPT_HELP: a->help = true; return true;
    default:
        if (id >= 0 && id < READ_OPTION_COUNT) {
            inspect_read_targets t = {o, &a->gpu, &a->gpu_file, &a->filter, &a->launches};
            return inspect_read_apply(id, value, &t, err);
        }
        return cli_error_set(err, EXIT_USAGE, "option id %d is not an inspect option", id);
    }
}

bool inspect_stdin_is_terminal(FILE *in)
{
    int fd = fileno(in);
    return fd >= 0 && isatty(fd);
}

/* A usage error found before any file is read: the regular expression
   compiles, one output, stdin read at most once. */
static bool check_args(const inspect_args *a, const cli_io *io, cli_error *err)
{
    if (a->outputs > 1) {
        return cli_error_set(err, EXIT_USAGE, "options --json, --csv and --summary: choose one");
    }
    if (!inspect_check_filter(a->filter, err)) {
        return false;
    }
    if (a->file_count == 0 && inspect_stdin_is_terminal(io->in)) {
        return cli_error_set(err, EXIT_USAGE,
                             "no input: give a file (ptxas log, cubin, fatbin, executable or "
                             "library), or pipe a ptxas log on stdin");
    }
    int stdin_uses = a->gpu_file != NULL && strcmp(a->gpu_file, "-") == 0;
    for (int i = 0; i < a->file_count; i++) {
        stdin_uses += strcmp(a->files[i], "-") == 0;
    }
    if (a->file_count == 0) {
        stdin_uses++;
    }
    stdin_uses += a->launches != NULL && strcmp(a->launches, "-") == 0;
    if (stdin_uses > 1) {
        return cli_error_set(err, EXIT_USAGE,
                             "stdin ('-') is named more than once (as an input, --gpu-file or "
                             "--launches)");
    }
    return true;
}

/* The inputs for the library: files by path, and stdin read here (the
   command's stdin is io->in, which need not be file descriptor 0). */
static bool make_inputs(const inspect_args *a, const cli_io *io, occ_inspect_input *inputs,
                        char **stdin_data, cli_error *err)
{
    for (int i = 0; i < a->file_count; i++) {
        inputs[i] = (occ_inspect_input){a->files[i], NULL, 0};
        if (strcmp(a->files[i], "-") == 0) {
            size_t size;
            if (!cli_read_file("-", io->in, OCC_INSPECT_MAX_STREAM_BYTES, stdin_data, &size, err)) {
                return false;
            }
            inputs[i] = (occ_inspect_input){"<stdin>", *stdin_data, size};
        }
    }
    return true;
}

static void run_free(inspect_args *a, occ_inspect_result *r)
{
    if (a->launch_set != NULL) {
        inspect_launches_free(a->launch_set);
        a->launch_set = NULL;
    }
    occ_inspect_result_free(r);
}

/* Reads, filters, sorts and prints; the caller frees what it allocated. */
static int run(inspect_args *a, const occ_inspect_input *inputs, const cli_io *io)
{
#ifdef __GLIBC__
    /* Large decompression buffers go straight back to the system when freed
       (glibc would otherwise raise its mmap threshold and keep them). */
    mallopt(M_MMAP_THRESHOLD, 1 << 20);
#endif
    occ_inspect_result *r;
    occ_inspect_error err;
    if (occ_inspect_read(inputs, a->file_count, &a->read, &r, &err) != OCC_OK) {
        /* the library's line names the input (and the offset) where it has one */
        return cli_fail(io, "inspect", EXIT_DATA, "%s", err.message);
    }
    double start = cli_now_seconds();
    inspect_launch_set launch_set;
    if (a->launches != NULL) {
        cli_error lerr;
        if (!inspect_launches_load(a->launches, io->in, &launch_set, &lerr)) {
            occ_inspect_result_free(r);
            return cli_report(io, "inspect", &lerr);
        }
        a->launch_set = &launch_set;
    }
    if (a->filter != NULL && occ_inspect_filter(r, a->filter, &err) != OCC_OK) {
        run_free(a, r);
        return cli_fail(io, "inspect", EXIT_DATA, "%s", err.message);
    }
    /* the baseline first: it is written in name order, the output in --sort order */
    cli_error save_err;
    if (a->save != NULL && !baseline_save(a->save, r, a, &save_err)) {
        run_free(a, r);
        return cli_report(io, "inspect", &save_err);
    }
    /* after the baseline, which holds resources, one row per function */
    cli_error lerr;
    if (a->launch_set != NULL && !inspect_launches_apply(a->launch_set, r, &a->read, &lerr)) {
        run_free(a, r);
        return cli_report(io, "inspect", &lerr);
    }
    if (occ_inspect_sort(r, a->sort, &err) != OCC_OK) {
        run_free(a, r);
        return cli_fail(io, "inspect", EXIT_DATA, "%s", err.message);
    }
    double sorted = cli_now_seconds();
    switch (a->output) {
    case INSPECT_OUT_JSON: inspect_print_json(io->out, r, a); break;
    case INSPECT_OUT_CSV: inspect_print_csv(io->out, r, a); break;
    case INSPECT_OUT_SUMMARY: inspect_print_summary(io->out, r, a); break;
    default: inspect_print_table(io->out, r, a); break;
    }
    fflush(io->out);
    if (getenv("OCC_INSPECT_TIMING") != NULL) {
        occ_inspect_timing t;
        occ_inspect_totals totals;
        occ_inspect_timing_get(r, &t);
        occ_inspect_totals_get(r, &totals);
        fprintf(io->err,
                "occ inspect: seconds: split %.3f, read %.3f, scanned sections %.3f, merge "
                "%.3f, names %.3f, filter and sort %.3f, output %.3f; %zu distinct names; "
                "threads waited %.3f s for large buffers; %zu entries read in part, %zu of "
                "those tried read whole\n",
                t.split_seconds, t.read_seconds, t.scanned_seconds, t.merge_seconds,
                t.names_seconds, sorted - start, cli_now_seconds() - sorted, totals.distinct_names,
                t.pool_wait_seconds, t.entries_in_part, t.entries_part_refused);
    }
    run_free(a, r);
    return EXIT_OK;
}

int cmd_inspect(int argc, char **argv, const cli_io *io)
{
    inspect_args a;
    memset(&a, 0, sizeof a);
    occ_inspect_options_init(&a.read);
    a.sort = OCC_INSPECT_BY_OCCUPANCY;
    /* every argument may be a file; no file means stdin, one slot more */
    a.files = calloc((size_t)argc + 1, sizeof *a.files);
    occ_inspect_input *inputs = calloc((size_t)argc + 1, sizeof *inputs);
    if (a.files == NULL || inputs == NULL) {
        free(a.files);
        free(inputs);
        return cli_fail(io, "inspect", EXIT_DATA, "out of memory");
    }
    char *stdin_data = NULL;
    const char **files_given = a.files; /* freed here; a.files may become the expanded list */
    cli_error err;
    int code = EXIT_OK;
    if (!cli_parse_options(argc, argv, tables, 3, on_option, &a, &err)) {
        code = cli_report(io, "inspect", &err);
    } else if (a.help) {
        cli_print_help(io->out, &help, tables, 3);
    } else if (!check_args(&a, io, &err) ||
               ((a.gpu != NULL || a.gpu_file != NULL) &&
                !cli_resolve_gpu(a.gpu, a.gpu_file, io->in, &a.device, &err))) {
        code = cli_report(io, "inspect", &err);
    } else {
        if (a.gpu != NULL || a.gpu_file != NULL) {
            a.read.device = &a.device;
        }
        if (a.file_count == 0) {
            a.files[a.file_count++] = "-";
        }
        /* a directory stands for the binaries under it (Triton's cache) */
        char **expanded = NULL;
        int expanded_count = 0;
        occ_inspect_input *more = NULL;
        const char **view = NULL;
        if (!inspect_expand_dirs(a.files, a.file_count, &expanded, &expanded_count, &err) ||
            (more = realloc(inputs, ((size_t)expanded_count + 1) * sizeof *inputs)) == NULL ||
            (view = malloc(((size_t)expanded_count + 1) * sizeof *view)) == NULL) {
            if (more != NULL) {
                inputs = more;
            }
            if (expanded != NULL) {
                cli_error_set(&err, EXIT_DATA, "out of memory");
            }
            code = cli_report(io, "inspect", &err);
        } else {
            inputs = more;
            for (int i = 0; i < expanded_count; i++) {
                view[i] = expanded[i];
            }
            a.files = view;
            a.file_count = expanded_count;
            code = make_inputs(&a, io, inputs, &stdin_data, &err) ? run(&a, inputs, io)
                                                                  : cli_report(io, "inspect", &err);
        }
        free(view);
        if (expanded != NULL) {
            inspect_dirs_free(expanded, expanded_count);
        }
    }
    free(stdin_data);
    free(inputs);
    free(files_given);
    return code;
}
