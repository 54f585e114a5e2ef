/*
 * cmd_inspect.c - `occ inspect`: the resources and occupancy of every kernel
 * in ptxas logs, cubins, fatbins, executables and libraries, offline.
 * Options and order of work; reading is in inspect_collect.c, output in
 * inspect_table.c, inspect_csv.c and inspect_json.c.
 */
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "inspect_args.h"

static const cli_option options[] = {
    {"gpu", true, "NAME", "occupancy on this GPU (default: a GPU of each kernel's arch)"},
    {"gpu-file", true, "FILE", "occupancy on a GPU described in JSON (docs/gpu-file.md)"},
    {"threads", true, "N", "block size (default: the occupancy API's pick per kernel)"},
    {"dyn-smem", true, "BYTES", "dynamic shared memory per block: 4096, 48K"},
    {"arch", true, "ARCH", "only this arch: sm_90 (also sm_90a), sm_90a (exactly)"},
    {"filter", true, "REGEX", "only kernels whose printed name matches (POSIX ERE)"},
    {"sort", true, "KEY", "occupancy (lowest first, default), regs, smem or name"},
    {"json", false, "", "JSON (docs/inspect.md)"},
    {"csv", false, "", "CSV: arch,name,regs,smem,stack,... (docs/inspect.md)"},
    {"summary", false, "", "counts by limiter and occupancy band, and the worst kernels"},
    {"mangled", false, "", "print mangled names"},
    {"functions", false, "", "list device functions too, not only kernels"},
    {"all", false, "", "also read __nv_relfatbin (pre-link code of -rdc builds)"},
    {"jobs", true, "N", "threads to read with (default: every core, at most 32)"},
    {"help", false, "", "show this help"},
};
enum {
    OPT_GPU, OPT_GPU_FILE, OPT_THREADS, OPT_DYN_SMEM, OPT_ARCH, OPT_FILTER, OPT_SORT, OPT_JSON,
    OPT_CSV, OPT_SUMMARY, OPT_MANGLED, OPT_FUNCTIONS, OPT_ALL, OPT_JOBS, OPT_HELP, OPT_COUNT
};

typedef struct inspect_cli {
    const cli_io *io;
    inspect_options opts;
    int outputs;   /* how many of --json, --csv, --summary */
    bool help;
} inspect_cli;

static int bad_value(const inspect_cli *a, const char *option, const char *value,
                     const char *what)
{
    return cli_fail(a->io, "inspect", EXIT_USAGE, "option --%s: '%s' is not %s", option, value,
                    what);
}

/* "sm_90" -> any suffix; "sm_90a" / "sm_100f" -> exactly that. */
static bool parse_arch(const char *text, insp_filter *out)
{
    if (strncmp(text, "sm_", 3) != 0) {
        return false;
    }
    const char *digits = text + 3;
    size_t n = strspn(digits, "0123456789");
    if (n == 0 || n > 3) {
        return false;
    }
    char buf[4];
    memcpy(buf, digits, n);
    buf[n] = '\0';
    long long sm;
    if (!cli_parse_int(buf, 10, 999, &sm)) {
        return false;
    }
    const char *suffix = digits + n;
    if (suffix[0] != '\0' && (suffix[1] != '\0' || (suffix[0] != 'a' && suffix[0] != 'f'))) {
        return false;
    }
    out->sm = (int)sm;
    out->suffix = suffix[0];
    out->any_suffix = suffix[0] == '\0';
    return true;
}

static int on_option(int index, const char *value, void *context)
{
    inspect_cli *a = context;
    inspect_options *o = &a->opts;
    long long n;
    switch (index) {
    case OPT_GPU: o->gpu = value; break;
    case OPT_GPU_FILE: o->gpu_file = value; break;
    case OPT_THREADS:
        if (!cli_parse_int(value, 1, 1024, &n)) {
            return bad_value(a, "threads", value, "a block size from 1 to 1024");
        }
        o->threads = (int)n;
        break;
    case OPT_DYN_SMEM:
        if (!cli_parse_size(value, &n)) {
            return bad_value(a, "dyn-smem", value,
                             "a size in bytes such as 4096, 48K or 1.5KiB (at most 2147483647)");
        }
        o->dyn_smem_bytes = (int)n;
        break;
    case OPT_ARCH:
        if (!parse_arch(value, &o->arch)) {
            return bad_value(a, "arch", value, "an arch such as sm_90, sm_90a or sm_100f");
        }
        break;
    case OPT_FILTER: o->filter = value; break;
    case OPT_SORT:
        if (strcmp(value, "occupancy") == 0) {
            o->sort = INSPECT_SORT_OCCUPANCY;
        } else if (strcmp(value, "regs") == 0) {
            o->sort = INSPECT_SORT_REGS;
        } else if (strcmp(value, "smem") == 0) {
            o->sort = INSPECT_SORT_SMEM;
        } else if (strcmp(value, "name") == 0) {
            o->sort = INSPECT_SORT_NAME;
        } else {
            return bad_value(a, "sort", value, "one of occupancy, regs, smem, name");
        }
        break;
    case OPT_JSON: o->output = INSPECT_OUT_JSON; a->outputs++; break;
    case OPT_CSV: o->output = INSPECT_OUT_CSV; a->outputs++; break;
    case OPT_SUMMARY: o->output = INSPECT_OUT_SUMMARY; a->outputs++; break;
    case OPT_MANGLED: o->mangled = true; break;
    case OPT_FUNCTIONS: o->functions = true; break;
    case OPT_ALL: o->relfatbin = true; break;
    case OPT_JOBS:
        if (!cli_parse_int(value, 1, 1024, &n)) {
            return bad_value(a, "jobs", value, "a thread count from 1 to 1024");
        }
        o->jobs = (int)n;
        break;
    case OPT_HELP: a->help = true; break;
    default: break;
    }
    return EXIT_OK;
}

/*
 * Splits argv into options (kept in `opt_argv`, with argv[0]) and file names:
 * an argument that is not an option or the value of one is a file ("-" is
 * stdin). Unknown options stay for cli_parse_options to report.
 */
static void split_arguments(int argc, char **argv, char **opt_argv, int *opt_argc,
                            char **files, int *file_count)
{
    *opt_argc = 0;
    *file_count = 0;
    opt_argv[(*opt_argc)++] = argv[0];
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (strncmp(arg, "--", 2) != 0 || arg[2] == '\0') {
            files[(*file_count)++] = argv[i];
            continue;
        }
        opt_argv[(*opt_argc)++] = argv[i];
        const char *name = arg + 2;
        if (strchr(name, '=') != NULL) {
            continue;
        }
        for (int o = 0; o < OPT_COUNT; o++) {
            if (strcmp(options[o].name, name) == 0 && options[o].takes_value && i + 1 < argc) {
                opt_argv[(*opt_argc)++] = argv[++i];
                break;
            }
        }
    }
}

/* Ties break by name, then arch, then the rest, so that the order never
   depends on which thread read what. Names compare by their rank in
   printed-name order (inspect_names.c): integers, not long templated names. */
static int tie_break(const inspect_row *a, const inspect_row *b)
{
    uint32_t ra = a->interned->rank;
    uint32_t rb = b->interned->rank;
    int cmp = (ra > rb) - (ra < rb);
    if (cmp == 0) {
        cmp = (a->f.sm > b->f.sm) - (a->f.sm < b->f.sm);
    }
    if (cmp == 0) {
        cmp = (a->f.arch_suffix > b->f.arch_suffix) - (a->f.arch_suffix < b->f.arch_suffix);
    }
    if (cmp == 0 && a->mangled != b->mangled) {
        cmp = strcmp(a->mangled, b->mangled);
    }
    if (cmp == 0) {
        cmp = (a->count < b->count) - (a->count > b->count);
    }
    if (cmp == 0) {
        cmp = (a->identity > b->identity) - (a->identity < b->identity);
    }
    return cmp;
}

/* Lowest occupancy first; rows without one (device functions, archs that
   do not run on --gpu) last. */
static int by_occupancy(const void *pa, const void *pb)
{
    const inspect_row *a = *(const inspect_row *const *)pa;
    const inspect_row *b = *(const inspect_row *const *)pb;
    if (a->has_occupancy != b->has_occupancy) {
        return a->has_occupancy ? -1 : 1;
    }
    int cmp = (a->occupancy > b->occupancy) - (a->occupancy < b->occupancy);
    return cmp != 0 ? cmp : tie_break(a, b);
}

static int by_regs(const void *pa, const void *pb)
{
    const inspect_row *a = *(const inspect_row *const *)pa;
    const inspect_row *b = *(const inspect_row *const *)pb;
    int cmp = (b->f.regs > a->f.regs) - (b->f.regs < a->f.regs);
    return cmp != 0 ? cmp : tie_break(a, b);
}

static int by_smem(const void *pa, const void *pb)
{
    const inspect_row *a = *(const inspect_row *const *)pa;
    const inspect_row *b = *(const inspect_row *const *)pb;
    int cmp = (b->f.smem_bytes > a->f.smem_bytes) - (b->f.smem_bytes < a->f.smem_bytes);
    return cmp != 0 ? cmp : tie_break(a, b);
}

static int by_name(const void *pa, const void *pb)
{
    return tie_break(*(const inspect_row *const *)pa, *(const inspect_row *const *)pb);
}

/* Sorts the rows through an array of pointers (a row is ~270 bytes; qsort
   would move them, and glibc's would copy them all into a buffer), then
   puts each row in its place by following the permutation's cycles. */
static bool sort_rows(inspect_result *r, int (*order)(const void *, const void *))
{
    size_t n = r->row_count;
    inspect_row **sorted = malloc((n > 0 ? n : 1) * sizeof *sorted);
    size_t *from = malloc((n > 0 ? n : 1) * sizeof *from);
    if (sorted == NULL || from == NULL) {
        free(sorted);
        free(from);
        return false;
    }
    for (size_t i = 0; i < n; i++) {
        sorted[i] = &r->rows[i];
    }
    qsort(sorted, n, sizeof *sorted, order);
    for (size_t i = 0; i < n; i++) {
        from[i] = (size_t)(sorted[i] - r->rows); /* position i takes row from[i] */
    }
    free(sorted);
    for (size_t start = 0; start < n; start++) {
        if (from[start] == start) {
            continue;
        }
        inspect_row held = r->rows[start];
        size_t at = start;
        while (from[at] != start) {
            size_t next = from[at];
            r->rows[at] = r->rows[next];
            from[at] = at;
            at = next;
        }
        r->rows[at] = held;
        from[at] = at;
    }
    free(from);
    return true;
}

/* Keeps the rows whose printed name matches --filter. */
static int apply_filter(inspect_result *r, const inspect_options *o, const cli_io *io)
{
    if (o->filter == NULL) {
        return EXIT_OK;
    }
    regex_t re;
    int rc = regcomp(&re, o->filter, REG_EXTENDED | REG_NOSUB);
    if (rc != 0) {
        char why[128];
        regerror(rc, &re, why, sizeof why);
        return cli_fail(io, "inspect", EXIT_USAGE, "option --filter: '%s' is not a regular "
                        "expression: %s", o->filter, why);
    }
    size_t kept = 0;
    for (size_t i = 0; i < r->row_count; i++) {
        if (regexec(&re, r->rows[i].name, 0, NULL, 0) == 0) {
            r->rows[kept++] = r->rows[i];
        }
    }
    r->row_count = kept;
    regfree(&re);
    return EXIT_OK;
}

static const char *const description =
    "Reads kernels' resource usage from ptxas -v logs (file or stdin), cubins,\n"
    "fatbins, executables and shared libraries (found by content, compressed\n"
    "entries included) and shows each kernel's occupancy and what limits it.\n"
    "FILE '-' (or none) reads stdin. Identical kernels found in several\n"
    "containers are shown once, with a count.\n"
    "\n"
    "example:\n"
    "  occ inspect --gpu H200 --summary /usr/local/cuda/lib64/libcublasLt.so.13\n"
    "  nvcc -Xptxas -v -c k.cu 2>&1 | occ inspect --gpu H200 -";

int cmd_inspect(int argc, char **argv, const cli_io *io)
{
    inspect_cli a;
    memset(&a, 0, sizeof a);
    a.io = io;
    char **opt_argv = calloc((size_t)argc + 1, sizeof *opt_argv);
    char **files = calloc((size_t)argc + 1, sizeof *files);
    if (opt_argv == NULL || files == NULL) {
        free(opt_argv);
        free(files);
        return cli_fail(io, "inspect", EXIT_DATA, "out of memory");
    }
    int opt_argc;
    int file_count;
    split_arguments(argc, argv, opt_argv, &opt_argc, files, &file_count);
    int code = cli_parse_options("inspect", opt_argc, opt_argv, options, OPT_COUNT, on_option,
                                 &a, io);
    inspect_options *o = &a.opts;
    if (code == EXIT_OK && a.help) {
        cli_print_help(io->out, "occ inspect [options] FILE...", description, options,
                       OPT_COUNT);
        free(opt_argv);
        free(files);
        return EXIT_OK;
    }
    if (code == EXIT_OK && a.outputs > 1) {
        code = cli_fail(io, "inspect", EXIT_USAGE,
                        "options --json, --csv and --summary: choose one");
    }
    if (code == EXIT_OK && (o->gpu != NULL || o->gpu_file != NULL)) {
        code = cli_resolve_gpu("inspect", o->gpu, o->gpu_file, &o->device, io);
        o->have_device = code == EXIT_OK;
    }
    if (code == EXIT_OK && file_count == 0) {
        static char stdin_name[] = "-";
        files[file_count++] = stdin_name;
    }
#ifdef __GLIBC__
    /* Large decompression buffers go straight back to the system when freed
       (glibc would otherwise raise its mmap threshold and keep them). */
    mallopt(M_MMAP_THRESHOLD, 1 << 20);
#endif
    inspect_result r;
    memset(&r, 0, sizeof r);
    if (code == EXIT_OK) {
        code = inspect_collect(files, file_count, o, &r, io);
    }
    double start = inspect_now();
    if (code == EXIT_OK) {
        code = apply_filter(&r, o, io);
    }
    if (code == EXIT_OK) {
        static int (*const order[])(const void *, const void *) = {by_occupancy, by_regs,
                                                                    by_smem, by_name};
        if (!sort_rows(&r, order[o->sort])) {
            inspect_result_free(&r);
            free(opt_argv);
            free(files);
            return cli_fail(io, "inspect", EXIT_DATA, "out of memory");
        }
        double sorted = inspect_now();
        switch (o->output) {
        case INSPECT_OUT_JSON: inspect_print_json(io->out, &r, o); break;
        case INSPECT_OUT_CSV: inspect_print_csv(io->out, &r, o); break;
        case INSPECT_OUT_SUMMARY: inspect_print_summary(io->out, &r, o); break;
        default: inspect_print_table(io->out, &r, o); break;
        }
        fflush(io->out);
        if (getenv("OCC_INSPECT_TIMING") != NULL) {
            fprintf(io->err, "occ inspect: seconds: split %.3f, read %.3f, scanned sections "
                    "%.3f, merge %.3f, names %.3f, filter and sort %.3f, output %.3f; "
                    "%zu distinct names; threads waited %.3f s for large buffers\n",
                    r.split_seconds, r.read_seconds, r.scanned_seconds, r.merge_seconds,
                    r.names_seconds, sorted - start, inspect_now() - sorted, r.name_count,
                    r.pool_wait_seconds);
        }
    }
    inspect_result_free(&r);
    free(opt_argv);
    free(files);
    return code;
}
