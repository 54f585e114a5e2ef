/*
 * cmd_ncu.c - `occ ncu FILE...`: Nsight Compute exports checked against
 * libocc and explained. Two passes over the inputs: the first reads and
 * checks every launch (a bad file is refused before anything is printed)
 * and ranks them; the second prints. Memory stays bounded: one launch at a
 * time, and the ranking's few.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gpu_select.h"
#include "json_stream.h"
#include "ncu.h"
#include "options.h"
#include "values.h"

/* The most stdin occ copies aside to read twice (a pipe cannot be re-read):
   an export of 300,000 launches on the raw page. */
#define NCU_MAX_STDIN_BYTES (1LL << 30)
/* The most launches ranked and explained. */
#define NCU_MAX_TOP 1000
#define NCU_DEFAULT_TOP 10

enum { OPT_JSON, OPT_TOP, OPT_GPU, OPT_GPU_FILE, OPT_HELP, OPT_END };

static const cli_option options[] = {
    [OPT_JSON] = {OPT_JSON, "json", NULL, "JSON, schema occ.ncu (docs/json.md)"},
    [OPT_TOP] = {OPT_TOP, "top", "N", "launches ranked and explained (default 10, 0..1000)"},
    [OPT_GPU] = {OPT_GPU, "gpu", "NAME",
                 "compute on this GPU (default: the export's device or CC)"},
    [OPT_GPU_FILE] = {OPT_GPU_FILE, "gpu-file", "FILE",
                      "compute on a GPU described in JSON (docs/gpu-file.md)"},
    [OPT_HELP] = {OPT_HELP, "help", NULL, "show this help (also -h)"},
};
_Static_assert(sizeof options / sizeof options[0] == OPT_END, "one entry per ncu option id");

static const cli_help help = {
    .name = "ncu",
    .summary = "Nsight Compute profiles: occupancy checked against libocc, gaps explained",
    .usage = "occ ncu [options] FILE...\n"
             "ncu --import report.ncu-rep --csv --page raw | occ ncu",
    .description =
        "Reads Nsight Compute CSV exports, either page (ncu --csv --page raw, or --page\n"
        "details, of --section LaunchStats --section Occupancy). For every profiled\n"
        "launch it computes the theoretical occupancy with libocc from the launch's\n"
        "block size, registers, shared memory, barriers, clusters and Nsight's own\n"
        "shared-memory configuration, compares it and each Block Limit with Nsight's,\n"
        "and explains the gap between theoretical and achieved occupancy: the grid's\n"
        "waves and tail, a launch too small to fill the GPU, clusters, and what is left\n"
        "inside the kernel. Launches are ranked by duration x gap (by the gap where the\n"
        "export has no duration), and the first few are explained with what to change.\n"
        "FILE '-' reads stdin, as does no FILE when stdin is a pipe or a file. A file\n"
        "that is not an export, is cut short or lacks a column is refused with its line\n"
        "(docs/ncu.md).",
    .examples = "occ ncu profile-raw.csv\n"
                "ncu --import r.ncu-rep --csv --page details | occ ncu --top 3\n"
                "occ ncu --json a.csv b.csv > occupancy.json",
};

static const cli_option_table tables[] = {{options, OPT_END}};
const cli_command_spec ncu_spec = {&help, tables, 1};

typedef struct ncu_args {
    const char **files;
    int file_count;
    bool json;
    bool help;
    int top;
    const char *gpu;
    const char *gpu_file;
} ncu_args;

static bool on_option(int id, const char *value, void *context, cli_error *err)
{
    ncu_args *a = context;
    long long n;
    switch (id) {
    case CLI_POSITIONAL: a->files[a->file_count++] = value; return true;
    case OPT_JSON: a->json = true; return true;
    case OPT_TOP:
        if (!cli_parse_int(value, 0, NCU_MAX_TOP, &n, err)) {
            return cli_error_prefix(err, "option --top: ");
        }
        a->top = (int)n;
        return true;
    case OPT_GPU: a->gpu = value; return true;
    case OPT_GPU_FILE: a->gpu_file = value; return true;
    case OPT_HELP: a->help = true; return true;
    default: return cli_error_set(err, EXIT_USAGE, "option id %d is not an ncu option", id);
    }
}

/* One input, opened once and read twice. */
typedef struct input {
    const char *path; /* as shown: "<stdin>" for '-' */
    FILE *f;
    bool owned; /* fclose at the end */
    long start; /* where reading starts (stdin need not be at 0) */
} input;

/* Copies a stream that cannot be re-read (a pipe) into a temporary file. */
static FILE *spool(FILE *in, cli_error *err)
{
    FILE *tmp = tmpfile();
    if (tmp == NULL) {
        cli_error_set(err, EXIT_DATA, "<stdin>: cannot make a temporary copy: %s", strerror(errno));
        return NULL;
    }
    char buf[1 << 16];
    long long total = 0;
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, in)) > 0) {
        total += (long long)n;
        if (total > NCU_MAX_STDIN_BYTES) {
            fclose(tmp);
            cli_error_set(err, EXIT_DATA,
                          "<stdin>: more than %lld bytes, the most occ ncu copies aside: give "
                          "the export as a file",
                          NCU_MAX_STDIN_BYTES);
            return NULL;
        }
        if (fwrite(buf, 1, n, tmp) != n) {
            fclose(tmp);
            cli_error_set(err, EXIT_DATA, "<stdin>: cannot write the temporary copy: %s",
                          strerror(errno));
            return NULL;
        }
    }
    if (ferror(in)) {
        fclose(tmp);
        cli_error_set(err, EXIT_DATA, "<stdin>: read error: %s", strerror(errno));
        return NULL;
    }
    rewind(tmp);
    return tmp;
}

static bool open_input(const char *path, FILE *in, input *out, cli_error *err)
{
    memset(out, 0, sizeof *out);
    if (strcmp(path, "-") == 0) {
        out->path = "<stdin>";
        long at = ftell(in);
        if (at >= 0 && fseek(in, at, SEEK_SET) == 0) {
            out->f = in; /* a file or memory: read it twice in place */
            out->start = at;
            return true;
        }
        clearerr(in);
        out->f = spool(in, err);
        out->owned = out->f != NULL;
        return out->f != NULL;
    }
    out->path = path;
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        return cli_error_set(err, EXIT_DATA, "%s: is a directory, not an Nsight Compute export",
                             path);
    }
    out->f = fopen(path, "r");
    if (out->f == NULL) {
        return cli_error_set(err, EXIT_DATA, "%s: cannot open: %s", path, strerror(errno));
    }
    out->owned = true;
    return true;
}

/* A ranking of the highest scores, best first; ties keep the first. */
typedef struct ranking {
    ncu_ranked *entries;
    int count, cap;
} ranking;

static void rank(ranking *r, double score, int file_index, const ncu_launch *l, const ncu_check *c,
                 const ncu_gap *g)
{
    if (r->cap == 0 || (r->count == r->cap && score <= r->entries[r->count - 1].score)) {
        return;
    }
    int at = r->count < r->cap ? r->count++ : r->cap - 1;
    while (at > 0 && r->entries[at - 1].score < score) {
        r->entries[at] = r->entries[at - 1];
        at--;
    }
    ncu_ranked *e = &r->entries[at];
    e->file_index = file_index;
    e->id = l->id;
    e->score = score;
    e->launch = *l;
    ncu_short_name(l->name, e->short_name, sizeof e->short_name);
    e->launch.name = NULL; /* fixed when the ranking is final: entries move */
    e->check = *c;
    e->gap = *g;
}

typedef struct run_state {
    ncu_args *args;
    input *inputs;
    occ_device forced;
    bool has_forced;
    ncu_summary summary;
    ranking by_time, by_gap;
} run_state;

typedef bool (*launch_fn)(run_state *st, int file_index, const ncu_launch *l, const ncu_check *c,
                          const ncu_gap *g, void *context);

/* Reads every launch of one input, checks it and hands it on. */
static bool read_input(run_state *st, int i, launch_fn fn, void *context, cli_error *err)
{
    input *in = &st->inputs[i];
    if (fseek(in->f, in->start, SEEK_SET) != 0) {
        return cli_error_set(err, EXIT_DATA, "%s: cannot read it again: %s", in->path,
                             strerror(errno));
    }
    ncu_reader *r = ncu_reader_open(in->f, in->path, err);
    if (r == NULL) {
        return false;
    }
    st->summary.files[i].page = ncu_reader_page(r);
    bool ok = true;
    for (;;) {
        ncu_launch l;
        int got = ncu_reader_next(r, &l, err);
        if (got <= 0) {
            ok = got == 0;
            break;
        }
        ncu_check c;
        ncu_gap g;
        if (!ncu_check_launch(&l, st->has_forced ? &st->forced : NULL, in->path, &c, err)) {
            ok = false;
            break;
        }
        ncu_gap_compute(&l, &c, &g);
        if (!fn(st, i, &l, &c, &g, context)) {
            ok = false;
            break;
        }
    }
    ncu_reader_free(r);
    return ok;
}

/* The first pass: counts, agreement, rankings. */
static bool tally(run_state *st, int i, const ncu_launch *l, const ncu_check *c, const ncu_gap *g,
                  void *context)
{
    (void)context;
    ncu_summary *s = &st->summary;
    ncu_file_info *f = &s->files[i];
    if (f->launches == 0) {
        snprintf(f->gpu, sizeof f->gpu, "%s", c->device.name);
        f->sm_count = c->sm_count;
    }
    f->launches++;
    s->launches++;
    if (c->mismatches == 0) {
        f->agreed++;
        s->agreed++;
    }
    for (int bit = 0; bit < NCU_MISMATCH_KINDS; bit++) {
        s->mismatch_counts[bit] += (c->mismatches & (1u << bit)) != 0;
    }
    bool timed = l->v[NCU_DURATION].present;
    f->timed += timed;
    if (!timed && s->untimed_file == NULL) {
        s->untimed_file = f->path;
    }
    if (c->has_achieved && g->gap > 0) {
        rank(&st->by_gap, g->gap, i, l, c, g);
        if (timed) {
            rank(&st->by_time, l->v[NCU_DURATION].value * g->gap, i, l, c, g);
        }
    }
    return true;
}

typedef struct print_context {
    const cli_io *io;
    json_stream *js;
    bool first;
} print_context;

static bool print_launch(run_state *st, int i, const ncu_launch *l, const ncu_check *c,
                         const ncu_gap *g, void *context)
{
    print_context *p = context;
    if (p->js != NULL) {
        ncu_json_kernel(p->js, &st->summary, i, l, c, g, p->first);
        p->first = false;
    } else {
        ncu_print_text_row(p->io->out, l, c, g);
    }
    return !ferror(p->io->out);
}

static int run(run_state *st, const cli_io *io)
{
    ncu_args *a = st->args;
    ncu_summary *s = &st->summary;
    cli_error err;
    for (int i = 0; i < a->file_count; i++) {
        s->files[i].path = st->inputs[i].path;
        if (!read_input(st, i, tally, NULL, &err)) {
            return cli_report(io, "ncu", &err);
        }
    }
    s->by_time = s->untimed_file == NULL;
    ranking *chosen = s->by_time ? &st->by_time : &st->by_gap;
    s->top = chosen->entries;
    s->top_count = chosen->count;
    for (int i = 0; i < s->top_count; i++) {
        s->top[i].launch.name = s->top[i].short_name;
    }
    json_stream *js = NULL;
    if (a->json) {
        js = malloc(sizeof *js);
        if (js == NULL) {
            return cli_fail(io, "ncu", EXIT_DATA, "out of memory");
        }
        json_stream_init(js, io->out);
        ncu_json_begin(js, s);
    } else {
        ncu_print_text_summary(io->out, s);
    }
    print_context p = {io, js, true};
    int code = EXIT_OK;
    for (int i = 0; i < a->file_count && code == EXIT_OK; i++) {
        if (js == NULL) {
            ncu_print_text_file(io->out, s, i);
        }
        if (!read_input(st, i, print_launch, &p, &err)) {
            code = ferror(io->out) ? EXIT_OK : cli_report(io, "ncu", &err);
        }
    }
    if (js != NULL) {
        ncu_json_end(js);
        free(js);
    }
    return code; /* a failed write is reported by cli_main */
}

static bool check_args(const ncu_args *a, const cli_io *io, cli_error *err)
{
    int stdin_uses = a->gpu_file != NULL && strcmp(a->gpu_file, "-") == 0;
    for (int i = 0; i < a->file_count; i++) {
        stdin_uses += strcmp(a->files[i], "-") == 0;
    }
    if (stdin_uses > 1) {
        return cli_error_set(err, EXIT_USAGE,
                             "stdin ('-') is named more than once (as an input or --gpu-file)");
    }
    (void)io;
    return true;
}

int cmd_ncu(int argc, char **argv, const cli_io *io)
{
    ncu_args a = {0};
    a.top = NCU_DEFAULT_TOP;
    /* every argument may be a file; no file means stdin, one slot more */
    a.files = calloc((size_t)argc + 1, sizeof *a.files);
    if (a.files == NULL) {
        return cli_fail(io, "ncu", EXIT_DATA, "out of memory");
    }
    run_state st;
    memset(&st, 0, sizeof st);
    st.args = &a;
    cli_error err;
    int code = EXIT_OK;
    if (!cli_parse_options(argc, argv, tables, 1, on_option, &a, &err)) {
        free(a.files);
        return cli_report(io, "ncu", &err);
    }
    if (a.help) {
        cli_print_help(io->out, &help, tables, 1);
        free(a.files);
        return EXIT_OK;
    }
    if (a.file_count == 0) {
        int fd = fileno(io->in);
        if (fd >= 0 && isatty(fd)) {
            free(a.files);
            return cli_fail(io, "ncu", EXIT_USAGE,
                            "no input: give an Nsight Compute CSV export (ncu --csv --page raw "
                            "or --page details), or pipe one on stdin");
        }
        a.files[a.file_count++] = "-";
    }
    if (!check_args(&a, io, &err) ||
        ((a.gpu != NULL || a.gpu_file != NULL) &&
         !cli_resolve_gpu(a.gpu, a.gpu_file, io->in, &st.forced, &err))) {
        free(a.files);
        return cli_report(io, "ncu", &err);
    }
    st.has_forced = a.gpu != NULL || a.gpu_file != NULL;
    st.inputs = calloc((size_t)a.file_count, sizeof *st.inputs);
    st.summary.files = calloc((size_t)a.file_count, sizeof *st.summary.files);
    st.by_time.entries = calloc((size_t)a.top + 1, sizeof *st.by_time.entries);
    st.by_gap.entries = calloc((size_t)a.top + 1, sizeof *st.by_gap.entries);
    st.by_time.cap = st.by_gap.cap = a.top;
    st.summary.file_count = a.file_count;
    int opened = 0;
    if (st.inputs == NULL || st.summary.files == NULL || st.by_time.entries == NULL ||
        st.by_gap.entries == NULL) {
        code = cli_fail(io, "ncu", EXIT_DATA, "out of memory");
    } else {
        for (; opened < a.file_count; opened++) {
            if (!open_input(a.files[opened], io->in, &st.inputs[opened], &err)) {
                code = cli_report(io, "ncu", &err);
                break;
            }
        }
        if (code == EXIT_OK) {
            code = run(&st, io);
        }
    }
    for (int i = 0; i < opened; i++) {
        if (st.inputs[i].owned) {
            fclose(st.inputs[i].f);
        }
    }
    free(st.inputs);
    free(st.summary.files);
    free(st.by_time.entries);
    free(st.by_gap.entries);
    free(a.files);
    return code;
}
