/*
 * cmd_diff.c - `occ diff OLD NEW`: what a build changed in its kernels'
 * resources and occupancy, as a CI gate. OLD and NEW are anything `occ
 * inspect` reads (logs, cubins, fatbins, executables, libraries, archives)
 * or baselines it saved (--save). The engine is libocc-inspect's
 * (include/occ_diff.h): both sides read at once (occ_diff_read), matched,
 * gated and written as JSON there; the table and Markdown are diff_text.c's.
 *
 * Exit status, as GNU diff's and grep's (diff.h): 0 when nothing fails the
 * gate, 1 when something does (the last line on stderr says "gate failed:
 * ..."), 2 for trouble: a usage error, a file that cannot be read, is
 * damaged or is not recognised (the line names it), an output that cannot
 * be written. --missing-baseline ok turns one kind of trouble, an OLD that
 * does not exist (a first run, before a baseline was saved), into a pass
 * with a note: NEW is still read, and nothing is compared.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "clock.h"
#include "diff.h"
#include "inspect_launches.h"
#include "file_read.h"
#include "gpu_select.h"
#include "inspect_output.h"
#include "inspect_read_options.h"
#include "options.h"
#include "output.h"
#include "values.h"

enum {
    OPT_FAIL_ON = READ_OPTION_COUNT,
    OPT_ALLOW,
    OPT_MISSING_BASELINE,
    OPT_JSON,
    OPT_MARKDOWN,
    OPT_TOP,
    OPT_HELP,
    OPT_END
};

#define OPT_FIRST OPT_FAIL_ON
static const cli_option options[] = {
    {OPT_FAIL_ON, "fail-on", "LIST",
     "what fails the run: occupancy-10%,regs+8,spills,added,... (docs/diff.md)"},
    {OPT_ALLOW, "allow", "FILE", "accepted changes, one 'PATTERN # REASON' a line (docs/diff.md)"},
    {OPT_MISSING_BASELINE, "missing-baseline", "ok|fail",
     "no OLD (a first run): ok passes, nothing compared; fail: exit 2 "
     "(default)"},
    {OPT_JSON, "json", NULL, "JSON (schema occ.diff, docs/json.md)"},
    {OPT_MARKDOWN, "markdown", NULL, "Markdown for a pull-request comment, the rest folded"},
    {OPT_TOP, "top", "N", "rows --markdown shows before folding (default 10)"},
    {OPT_HELP, "help", NULL, "show this help (also -h)"},
};
_Static_assert(sizeof options / sizeof options[0] == OPT_END - OPT_FIRST,
               "one entry per diff option id");

static const cli_help help = {
    .name = "diff",
    .summary = "what a build changed in its kernels' resources and occupancy; a CI gate",
    .usage = "occ diff [options] OLD NEW",
    .description = "Compares the kernels of two builds: OLD and NEW are anything occ inspect\n"
                   "reads (ptxas logs, cubins, fatbins, executables, libraries, static archives)\n"
                   "or a baseline saved by occ inspect --save. Kernels are matched by arch and\n"
                   "mangled name; a renamed kernel with the same base name and resources is\n"
                   "reported as moved. For each change: registers, spills, stack, shared\n"
                   "memory, barriers, launch bounds, cluster dims, blocks per SM, occupancy\n"
                   "and the limiter, old and new, worst first; and the kernels at risk (a launch\n"
                   "that fails, at the register ceiling, spilling, or a few registers or bytes\n"
                   "from losing a block). Occupancy is on the GPU --gpu names, else on a GPU\n"
                   "of each kernel's own arch.\n"
                   "\n"
                   "--fail-on chooses what fails the run; a threshold is the change tolerated\n"
                   "(regs+8, occupancy-10%). --allow FILE accepts changes by name pattern.\n"
                   "--missing-baseline ok lets a first run, before any baseline was saved,\n"
                   "pass: an OLD that does not exist is then noted on stderr and nothing is\n"
                   "compared (NEW is still read).\n"
                   "\n"
                   "Exit status, as diff's and grep's: 0 the gate passed (or no --fail-on);\n"
                   "1 the gate failed (stderr: \"gate failed: ...\"; --json and --markdown\n"
                   "still print the report); 2 trouble: a usage error, or an input that cannot\n"
                   "be read, is damaged or is not recognised (stderr names it), or an output\n"
                   "that cannot be written.",
    .examples = "occ inspect --save base.json build-main/libfoo.so\n"
                "occ diff --fail-on occupancy-10%,regs+8,spills base.json build/libfoo.so\n"
                "occ diff --markdown --allow occ-allow.txt --fail-on occupancy old.so new.so\n"
                "occ diff --missing-baseline ok --fail-on regs+8 base.json build/libfoo.so",
};

static const cli_option_table tables[] = {INSPECT_READ_OPTION_TABLES,
                                          {options, OPT_END - OPT_FIRST}};
const cli_command_spec diff_spec = {&help, tables, 3};

/* Markdown's first rows: enough to see the worst, few enough to read. */
#define DEFAULT_TOP_ROWS 10

typedef enum diff_output { DIFF_OUT_TEXT = 0, DIFF_OUT_JSON, DIFF_OUT_MARKDOWN } diff_output;

typedef struct diff_args {
    occ_inspect_options read;
    const char *gpu, *gpu_file;
    occ_device device;
    const char *filter;
    const char *files[2];
    int file_count;
    occ_diff_gate gate;
    bool gated;
    const char *allow_path;
    const char *launches; /* --launches FILE */
    bool missing_ok;      /* --missing-baseline ok */
    diff_output output;
    int outputs;
    int top;
    bool help;
} diff_args;

static bool on_option(int id, const char *value, void *context, cli_error *err)
{
    diff_args *a = context;
    occ_inspect_options *o = &a->read;
    long long n;
    switch (id) {
    case CLI_POSITIONAL:
        if (a->file_count == 2) {
            return cli_error_set(err, EXIT_USAGE,
                                 "'%.200s': one OLD and one NEW only (save several files "
                                 "as one baseline with occ inspect --save)",
                                 value);
        }
        a->files[a->file_count++] = value;
        return true;
    case OPT_FAIL_ON: {
        a->gated = true;
        occ_inspect_error gate_err;
        if (occ_diff_gate_parse(value, &a->gate, &gate_err) != OCC_OK) {
            return cli_error_set(err,
                                 gate_err.status == OCC_ERR_OUT_OF_MEMORY ? EXIT_DATA : EXIT_USAGE,
                                 "%s", gate_err.message);
        }
        return true;
    }
    case OPT_ALLOW: a->allow_path = value; return true;
    case OPT_MISSING_BASELINE:
        if (strcmp(value, "ok") != 0 && strcmp(value, "fail") != 0) {
            return cli_error_set(err, EXIT_USAGE,
                                 "option --missing-baseline: '%.40s': write ok (a missing OLD "
                                 "passes) or fail",
                                 value);
        }
        a->missing_ok = strcmp(value, "ok") == 0;
        return true;
    case OPT_JSON:
        a->output = DIFF_OUT_JSON;
        a->outputs++;
        return true;
    case OPT_MARKDOWN:
        a->output = DIFF_OUT_MARKDOWN;
        a->outputs++;
        return true;
    case OPT_TOP:
        if (!cli_parse_int(value, 0, 100000, &n, err)) {
            return cli_error_prefix(err, "rows: ");
        }
        a->top = (int)n;
        return true;
    case OPT_HELP: a->help = true; return true;
    default:
        if (id >= 0 && id < READ_OPTION_COUNT) {
            inspect_read_targets t = {o, &a->gpu, &a->gpu_file, &a->filter, &a->launches};
            return inspect_read_apply(id, value, &t, err);
        }
        return cli_error_set(err, EXIT_USAGE, "option id %d is not a diff option", id);
    }
}

static bool check_args(const diff_args *a, cli_error *err)
{
    if (a->file_count != 2) {
        return cli_error_set(err, EXIT_USAGE,
                             a->file_count == 0
                                 ? "give OLD and NEW: two builds, or a baseline and a build"
                                 : "give NEW too: occ diff OLD NEW");
    }
    if (a->outputs > 1) {
        return cli_error_set(err, EXIT_USAGE, "options --json and --markdown: choose one");
    }
    int stdin_uses = (strcmp(a->files[0], "-") == 0) + (strcmp(a->files[1], "-") == 0) +
                     (a->gpu_file != NULL && strcmp(a->gpu_file, "-") == 0) +
                     (a->allow_path != NULL && strcmp(a->allow_path, "-") == 0) +
                     (a->launches != NULL && strcmp(a->launches, "-") == 0);
    if (stdin_uses > 1) {
        return cli_error_set(err, EXIT_USAGE,
                             "stdin ('-') is named more than once (as OLD, NEW, --gpu-file, "
                             "--allow or --launches)");
    }
    if (!inspect_check_filter(a->filter, err)) {
        return false;
    }
    return true;
}

/* Trouble (diff.h): the line as every occ command prints it (with the hint
   to --help on a usage error), and exit status 2 whatever the CLI's code. */
static int trouble(const cli_io *io, const cli_error *err)
{
    cli_report(io, "diff", err);
    return DIFF_EXIT_TROUBLE;
}

/* Whether OLD names a path that does not exist: a baseline not saved yet.
   Only that; an OLD that exists and cannot be read stays trouble. */
static bool old_is_missing(const char *path)
{
    struct stat st;
    errno = 0;
    return strcmp(path, "-") != 0 && stat(path, &st) != 0 && errno == ENOENT;
}

/* --missing-baseline ok and no OLD: NEW is read (a broken build is still
   trouble), nothing is compared, and nothing is written that reads as a
   comparison; one note on stderr says so. */
static int run_missing(const diff_args *a, const cli_io *io, const occ_inspect_input *new_input)
{
    occ_inspect_result *result = NULL;
    occ_inspect_error read_err;
    occ_status status = occ_inspect_read(new_input, 1, &a->read, &result, &read_err);
    if (status == OCC_OK && a->filter != NULL) {
        status = occ_inspect_filter(result, a->filter, &read_err);
    }
    int code = DIFF_EXIT_PASSED;
    if (status != OCC_OK) {
        cli_error err;
        cli_error_set(&err, EXIT_DATA, "%s", read_err.message);
        code = trouble(io, &err);
    } else {
        occ_diff_side new_side = {a->files[1], result, 0, 0};
        occ_diff_side_count(&new_side, &a->read);
        occ_inspect_error json_err;
        switch (a->output) {
        case DIFF_OUT_JSON:
            occ_diff_missing_json_write(io->out, a->files[0], &new_side, &json_err);
            break; /* a write error is check_written's */
        case DIFF_OUT_MARKDOWN:
            diff_print_missing_markdown(io->out, a->files[0], &new_side, &a->read);
            break;
        default: break; /* the table would read as "nothing changed" */
        }
        fflush(io->out);
        fputs("occ diff: note: no baseline: ", io->err);
        cli_put_visible(io->err, a->files[0]);
        fputs(" does not exist, so nothing was compared (--missing-baseline ok)\n", io->err);
    }
    occ_inspect_result_free(result);
    return code;
}

static int run(diff_args *a, const cli_io *io, const occ_inspect_input inputs[2],
               occ_diff_allow_list *allow)
{
#ifdef __GLIBC__
    /* large decompression buffers go back to the system when freed */
    mallopt(M_MMAP_THRESHOLD, 1 << 20);
#endif
    if (a->missing_ok && old_is_missing(a->files[0])) {
        return run_missing(a, io, &inputs[1]);
    }
    if (a->allow_path != NULL && !a->gated) {
        fprintf(io->err, "occ diff: note: --allow without --fail-on: nothing fails, so "
                         "nothing needs allowing\n");
    }
    cli_error err;
    double start = cli_now_seconds();
    /* the launches first: a launch source that cannot be read is trouble
       before any binary is read */
    inspect_launch_set launch_set;
    memset(&launch_set, 0, sizeof launch_set);
    if (a->launches != NULL && !inspect_launches_load(a->launches, io->in, &launch_set, &err)) {
        return trouble(io, &err);
    }
    occ_diff_sides sides;
    occ_inspect_error read_err;
    bool read_ok = occ_diff_read(&inputs[0], 1, &inputs[1], 1, &a->read, a->filter, &sides,
                                 &read_err) == OCC_OK;
    if (!read_ok) {
        cli_error_set(&err, EXIT_DATA, "%s", read_err.message);
    }
    /* the same launches on both sides: a row is a kernel at one launch */
    for (int i = 0; read_ok && a->launches != NULL && i < 2; i++) {
        read_ok = inspect_launches_apply(&launch_set, i == 0 ? sides.old_result : sides.new_result,
                                         &a->read, &err);
    }
    double read_done = cli_now_seconds();
    int code = DIFF_EXIT_PASSED;
    occ_diff_report report;
    memset(&report, 0, sizeof report);
    report.old_side = (occ_diff_side){a->files[0], sides.old_result, 0, 0};
    report.new_side = (occ_diff_side){a->files[1], sides.new_result, 0, 0};
    report.read = &a->read;
    report.launches = a->launches != NULL ? launch_set.list : NULL;
    report.gate = a->gated ? &a->gate : NULL;
    report.allow = allow->count > 0 ? allow : NULL;
    occ_inspect_error diff_err;
    if (!read_ok) {
        if (sides.failed_side == 0 && old_is_missing(a->files[0])) {
            size_t n = strlen(err.message);
            snprintf(err.message + n, sizeof err.message - n,
                     " (a first run, before a baseline is saved, passes with "
                     "--missing-baseline ok)");
        }
        code = trouble(io, &err);
    } else if (occ_diff_compare(&report, &diff_err) != OCC_OK) {
        cli_error_set(&err, EXIT_DATA, "%s", diff_err.message);
        code = trouble(io, &err);
    } else {
        double compared = cli_now_seconds();
        switch (a->output) {
        case DIFF_OUT_JSON:
            occ_diff_json_write(&report, io->out, &diff_err);
            break; /* a write error is check_written's */
        case DIFF_OUT_MARKDOWN: diff_print_markdown(io->out, &report, a->top); break;
        default: diff_print_text(io->out, &report); break;
        }
        fflush(io->out);
        if (getenv("OCC_DIFF_TIMING") != NULL) {
            fprintf(io->err,
                    "occ diff: seconds: read %.3f (old %.3f, new %.3f, at once), compare %.3f, "
                    "output %.3f\n",
                    read_done - start, sides.old_seconds, sides.new_seconds, compared - read_done,
                    cli_now_seconds() - compared);
        }
        if (report.failed > 0) {
            char summary[512];
            cli_fail(io, "diff", EXIT_DATA, "gate failed: %s",
                     occ_diff_gate_summary(&report, summary, sizeof summary));
            code = DIFF_EXIT_FAILED;
        }
    }
    occ_diff_report_free(&report);
    occ_inspect_result_free(sides.old_result);
    occ_inspect_result_free(sides.new_result);
    if (a->launches != NULL) {
        inspect_launches_free(&launch_set);
    }
    return code;
}

/* The --allow file, read here ('-' is the command's stdin, a directory is
   named) and parsed by libocc-inspect. */
static bool read_allow(const char *path, FILE *in, occ_diff_allow_list *out, cli_error *err)
{
    char *text;
    size_t size;
    if (!cli_read_file(path, in, OCC_DIFF_ALLOW_MAX_BYTES, &text, &size, err)) {
        return cli_error_prefix(err, "option --allow: ");
    }
    occ_inspect_error parse_err;
    occ_status status = occ_diff_allow_parse(path, text, size, out, &parse_err);
    free(text);
    if (status != OCC_OK) {
        occ_diff_allow_free(out);
        return cli_error_set(err, EXIT_DATA, "%s", parse_err.message);
    }
    return true;
}

/* OLD and NEW for the library; '-' is read here from the command's stdin. */
static bool make_inputs(const diff_args *a, const cli_io *io, occ_inspect_input inputs[2],
                        char **stdin_data, cli_error *err)
{
    for (int i = 0; i < 2; i++) {
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

/* A report that did not reach its file (a full disk) is trouble: the CI job
   must not read a cut comment as a verdict. The error is cleared once
   reported, so that it is not reported again as the CLI's status 1. */
static int check_written(const cli_io *io, int code)
{
    errno = 0;
    if (fflush(io->out) == 0 && !ferror(io->out)) {
        return code;
    }
    int e = errno;
    cli_error err;
    cli_error_set(&err, EXIT_DATA, "cannot write the output: %s",
                  e != 0 ? strerror(e) : "write error");
    clearerr(io->out);
    return trouble(io, &err);
}

int cmd_diff(int argc, char **argv, const cli_io *io)
{
    diff_args a;
    memset(&a, 0, sizeof a);
    occ_inspect_options_init(&a.read);
    a.top = DEFAULT_TOP_ROWS;
    cli_error err;
    occ_diff_allow_list allow;
    memset(&allow, 0, sizeof allow);
    char *stdin_data = NULL;
    occ_inspect_input inputs[2];
    int code = DIFF_EXIT_PASSED;
    if (!cli_parse_options(argc, argv, tables, 3, on_option, &a, &err)) {
        code = trouble(io, &err);
    } else if (a.help) {
        cli_print_help(io->out, &help, tables, 3);
    } else if (!check_args(&a, &err) ||
               ((a.gpu != NULL || a.gpu_file != NULL) &&
                !cli_resolve_gpu(a.gpu, a.gpu_file, io->in, &a.device, &err)) ||
               (a.allow_path != NULL && !read_allow(a.allow_path, io->in, &allow, &err)) ||
               !make_inputs(&a, io, inputs, &stdin_data, &err)) {
        code = trouble(io, &err);
    } else {
        if (a.gpu != NULL || a.gpu_file != NULL) {
            a.read.device = &a.device;
        }
        code = run(&a, io, inputs, &allow);
    }
    occ_diff_allow_free(&allow);
    free(stdin_data);
    return check_written(io, code);
}
