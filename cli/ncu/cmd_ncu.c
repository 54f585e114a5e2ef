/*
 * cmd_ncu.c - `occ ncu FILE...`: Nsight Compute exports checked against
 * libocc and explained. One pass over the inputs reads and checks every
 * launch, ranks it, and writes its table row (or JSON object) to a temporary
 * file; when every input has been read, the summary and the ranking are
 * printed and the rows copied after them, so that a bad file is refused
 * before anything is printed. Memory stays bounded: one launch at a time,
 * and the ranking's few.
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
#include "output.h"
#include "values.h"

/* The most launches ranked and explained. */
#define NCU_MAX_TOP 1000
#define NCU_DEFAULT_TOP 10

/* After the GPU options (gpu_select.h), the first table. */
enum { OPT_JSON = GPU_OPTION_COUNT, OPT_TOP, OPT_HELP, OPT_END };
#define OPT_FIRST OPT_JSON

static const cli_option options[] = {
    {OPT_JSON, "json", NULL, "JSON, schema occ.ncu (docs/json.md)"},
    {OPT_TOP, "top", "N", "launches ranked and explained (default 10, 0..1000)"},
    {OPT_HELP, "help", NULL, "show this help (also -h)"},
};
_Static_assert(sizeof options / sizeof options[0] == OPT_END - OPT_FIRST,
               "one entry per ncu option id");

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
        "FILE '-' reads stdin, as does no FILE when stdin is a pipe or a file; a gzipped\n"
        "export (.csv.gz) is read as it is. Lines before the header (the application's\n"
        "own output) are skipped, and counted on stderr. A file that is not an export,\n"
        "is cut short, lacks a column or holds a value no launch can have is refused\n"
        "with its line, as is a --gpu that is not the export's GPU (docs/ncu.md).\n"
        "Without --gpu or --gpu-file, each launch is computed on the export's device\n"
        "(its name, else its compute capability).",
    .examples = "occ ncu profile-raw.csv\n"
                "ncu --import r.ncu-rep --csv --page details | occ ncu --top 3\n"
                "occ ncu --json a.csv b.csv.gz > occupancy.json",
};

static const cli_option_table tables[] = {GPU_OPTION_TABLE, {options, OPT_END - OPT_FIRST}};
const cli_command_spec ncu_spec = {&help, tables, 2};

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

/* One input. */
typedef struct input {
    const char *path; /* as shown: "<stdin>" for '-' */
    FILE *f;
    bool owned; /* fclose at the end */
} input;

static bool open_input(const char *path, FILE *in, input *out, cli_error *err)
{
    memset(out, 0, sizeof *out);
    if (strcmp(path, "-") == 0) {
        out->path = "<stdin>";
        out->f = in;
        return true;
    }
    out->path = path;
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        return cli_error_set(err, EXIT_DATA, "%s: is a directory, not an Nsight Compute export",
                             path);
    }
    out->f = fopen(path, "rb");
    if (out->f == NULL) {
        return cli_error_set(err, EXIT_DATA, "%s: cannot open: %s", path, strerror(errno));
    }
    out->owned = true;
    return true;
}

/* The highest scores: the entries, and a heap of their indices whose root
   is the lowest (of equal scores, the later launch), so that a launch that
   ranks is copied once. Sorted best first at the end; ties keep the first. */
typedef struct ranking {
    ncu_ranked *entries;
    int *heap;
    int count, cap;
} ranking;

static bool ranks_below(const ncu_ranked *a, const ncu_ranked *b)
{
    return a->score < b->score || (a->score == b->score && a->order > b->order);
}

static bool heap_below(const ranking *r, int a, int b)
{
    return ranks_below(&r->entries[r->heap[a]], &r->entries[r->heap[b]]);
}

static void heap_swap(ranking *r, int a, int b)
{
    int t = r->heap[a];
    r->heap[a] = r->heap[b];
    r->heap[b] = t;
}

static void rank(ranking *r, double score, long long order, int file_index,
                 const occ_profile_ncu_launch *l, const occ_profile_ncu_check *c,
                 const occ_gap_result *g)
{
    if (r->cap == 0 || (r->count == r->cap && score <= r->entries[r->heap[0]].score)) {
        return;
    }
    bool grows = r->count < r->cap;
    if (grows) {
        r->heap[r->count] = r->count;
        r->count++;
    }
    int at = grows ? r->count - 1 : 0; /* full: the lowest gives way */
    ncu_ranked *e = &r->entries[r->heap[at]];
    e->file_index = file_index;
    e->order = order;
    e->id = l->id;
    e->score = score;
    e->launch = *l;
    ncu_short_name(l->name, e->short_name, sizeof e->short_name);
    e->launch.name = NULL; /* set when the ranking is final: entries move */
    e->check = *c;
    e->gap = *g;
    if (grows) {
        while (at > 0 && heap_below(r, at, (at - 1) / 2)) {
            heap_swap(r, at, (at - 1) / 2);
            at = (at - 1) / 2;
        }
        return;
    }
    for (;;) {
        int low = at;
        int left = 2 * at + 1;
        int right = left + 1;
        if (left < r->count && heap_below(r, left, low)) {
            low = left;
        }
        if (right < r->count && heap_below(r, right, low)) {
            low = right;
        }
        if (low == at) {
            return;
        }
        heap_swap(r, at, low);
        at = low;
    }
}

static int best_first(const void *a, const void *b)
{
    const ncu_ranked *x = a;
    const ncu_ranked *y = b;
    return ranks_below(y, x) ? -1 : ranks_below(x, y) ? 1 : 0;
}

static void rank_finish(ranking *r)
{
    qsort(r->entries, (size_t)r->count, sizeof *r->entries, best_first);
    for (int i = 0; i < r->count; i++) {
        r->entries[i].launch.name = r->entries[i].short_name;
    }
}

typedef struct run_state {
    ncu_args *args;
    input *inputs;
    occ_profile_ncu_gpu gpu;
    char forced_by[300];
    ncu_summary summary;
    ranking by_time, by_gap;
    FILE *rows;                   /* the table rows or JSON kernels, until the summary is out */
    long long *rows_at;           /* where each file's rows begin in it, and the end */
    json_stream *rows_js;         /* --json: the kernels */
    ncu_explain_cache *explained; /* --json: occ explain's advice by kernel */
    bool first_kernel;
} run_state;

/* One launch of the pass: counts, agreement, rankings, and its row. */
static void tally(run_state *st, int i, const occ_profile_ncu_launch *l,
                  const occ_profile_ncu_check *c, const occ_gap_result *g)
{
    ncu_summary *s = &st->summary;
    ncu_file_info *f = &s->files[i];
    if (f->launches == 0) {
        snprintf(f->gpu, sizeof f->gpu, "%s", c->device.name);
        f->sm_count = c->sm_count;
    }
    long long order = s->launches;
    f->launches++;
    s->launches++;
    if (c->mismatches == 0) {
        f->agreed++;
        s->agreed++;
    }
    for (int bit = 0; bit < OCC_PROFILE_NCU_MISMATCH_KINDS; bit++) {
        s->mismatch_counts[bit] += (c->mismatches & (1u << bit)) != 0;
    }
    bool timed = l->v[OCC_PROFILE_NCU_DURATION].present;
    f->timed += timed;
    if (!timed && s->untimed_file == NULL) {
        s->untimed_file = f->path;
    }
    if (c->has_achieved && g->gap > 0) {
        rank(&st->by_gap, g->gap, order, i, l, c, g);
        if (timed) {
            rank(&st->by_time, l->v[OCC_PROFILE_NCU_DURATION].value * g->gap, order, i, l, c, g);
        }
    }
    if (st->rows_js != NULL) {
        ncu_json_kernel(st->rows_js, s, i, l, c, g, st->first_kernel, st->explained);
        st->first_kernel = false;
    } else {
        ncu_print_text_row(st->rows, l, c, g);
    }
}

/* Reads every launch of one input, checks it and tallies it. */
static bool read_input(run_state *st, int i, cli_error *err)
{
    input *in = &st->inputs[i];
    occ_profile_error perr;
    occ_profile_ncu_reader *r;
    if (occ_profile_ncu_open_stream(in->f, in->path, &r, &perr) != OCC_OK) {
        return cli_error_set(err, EXIT_DATA, "%s", perr.message);
    }
    st->summary.files[i].page = occ_profile_ncu_page_of(r);
    st->summary.files[i].skipped_lines = occ_profile_ncu_skipped_lines(r);
    bool ok = true;
    for (;;) {
        occ_profile_ncu_launch l;
        bool done;
        if (occ_profile_ncu_next(r, &l, &done, &perr) != OCC_OK) {
            ok = cli_error_set(err, EXIT_DATA, "%s", perr.message);
            break;
        }
        if (done) {
            break;
        }
        occ_profile_ncu_check c;
        occ_gap_result g;
        if (occ_profile_ncu_check_launch(&l, &st->gpu, in->path, &c, &perr) != OCC_OK) {
            ok = cli_error_set(err, EXIT_DATA, "%s", perr.message);
            break;
        }
        if (occ_profile_ncu_gap_compute(&l, &c, &g, &perr) != OCC_OK) {
            ok = cli_error_set(err, EXIT_DATA, "%s", perr.message);
            break;
        }
        tally(st, i, &l, &c, &g);
    }
    occ_profile_ncu_free(r);
    return ok;
}

/* Copies the rows [from, to) of the temporary file to out. */
static bool copy_rows(FILE *rows, long long from, long long to, FILE *out)
{
    if (fseeko(rows, (off_t)from, SEEK_SET) != 0) {
        return false;
    }
    char buf[1 << 16];
    long long left = to - from;
    while (left > 0) {
        size_t want = left < (long long)sizeof buf ? (size_t)left : sizeof buf;
        size_t n = fread(buf, 1, want, rows);
        if (n == 0 || fwrite(buf, 1, n, out) != n) {
            return false;
        }
        left -= (long long)n;
    }
    return true;
}

static int run(run_state *st, const cli_io *io)
{
    ncu_args *a = st->args;
    ncu_summary *s = &st->summary;
    cli_error err;
    st->rows = tmpfile();
    if (st->rows == NULL) {
        return cli_fail(io, "ncu", EXIT_DATA, "cannot make a temporary file for the rows: %s",
                        strerror(errno));
    }
    setvbuf(st->rows, NULL, _IOFBF, 1 << 20);
    if (a->json) {
        st->rows_js = malloc(sizeof *st->rows_js);
        st->explained = ncu_explain_cache_new();
        if (st->rows_js == NULL || st->explained == NULL) {
            return cli_fail(io, "ncu", EXIT_DATA, "out of memory");
        }
        json_stream_init(st->rows_js, st->rows);
        st->first_kernel = true;
    }
    for (int i = 0; i < a->file_count; i++) {
        s->files[i].path = st->inputs[i].path;
        if (st->rows_js != NULL) {
            json_stream_flush(st->rows_js);
        }
        st->rows_at[i] = ftello(st->rows);
        if (!read_input(st, i, &err)) {
            return cli_report(io, "ncu", &err);
        }
    }
    if (st->rows_js != NULL) {
        json_stream_flush(st->rows_js);
    }
    st->rows_at[a->file_count] = ftello(st->rows);
    if (fflush(st->rows) != 0 || ferror(st->rows) || st->rows_at[a->file_count] < 0) {
        return cli_fail(io, "ncu", EXIT_DATA, "cannot write the temporary file for the rows: %s",
                        strerror(errno));
    }
    for (int i = 0; i < a->file_count; i++) {
        char a1[32];
        char shown[600];
        if (s->files[i].skipped_lines > 0) {
            fprintf(io->err,
                    "occ ncu: %s: %s line%s before the header skipped (not part of the export: "
                    "the application's own output?)\n",
                    cli_visible(s->files[i].path, shown, sizeof shown),
                    group_digits(s->files[i].skipped_lines, a1, sizeof a1),
                    s->files[i].skipped_lines == 1 ? "" : "s");
        }
    }
    s->by_time = s->untimed_file == NULL;
    ranking *chosen = s->by_time ? &st->by_time : &st->by_gap;
    rank_finish(chosen);
    s->top = chosen->entries;
    s->top_count = chosen->count;
    bool copied;
    if (a->json) {
        json_stream *js = malloc(sizeof *js);
        if (js == NULL) {
            return cli_fail(io, "ncu", EXIT_DATA, "out of memory");
        }
        json_stream_init(js, io->out);
        ncu_json_begin(js, s);
        json_stream_flush(js);
        copied = copy_rows(st->rows, st->rows_at[0], st->rows_at[a->file_count], io->out);
        ncu_json_end(js);
        free(js);
    } else {
        ncu_print_text_summary(io->out, s);
        copied = true;
        for (int i = 0; i < a->file_count && copied; i++) {
            ncu_print_text_file(io->out, s, i);
            copied = copy_rows(st->rows, st->rows_at[i], st->rows_at[i + 1], io->out);
        }
    }
    if (!copied && !ferror(io->out)) {
        return cli_fail(io, "ncu", EXIT_DATA, "cannot read the temporary file for the rows: %s",
                        strerror(errno));
    }
    return EXIT_OK; /* a failed write is reported by cli_main */
}

/* A named GPU of the database, not a generic entry (sm_90) or a file's. */
static bool is_named_gpu(const occ_device *d)
{
    for (int i = 0; i < occ_gpu_count(); i++) {
        occ_device e;
        bool named = false;
        if (occ_gpu_at(i, &e, &named, NULL, NULL) == OCC_OK && named &&
            strcmp(e.name, d->name) == 0) {
            return true;
        }
    }
    return false;
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
    if (!cli_parse_options(argc, argv, tables, 2, on_option, &a, &err)) {
        free(a.files);
        return cli_report(io, "ncu", &err);
    }
    if (a.help) {
        cli_print_help(io->out, &help, tables, 2);
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
         !cli_resolve_gpu(a.gpu, a.gpu_file, io->in, &st.gpu.forced_device, &err))) {
        free(a.files);
        return cli_report(io, "ncu", &err);
    }
    if (a.gpu != NULL || a.gpu_file != NULL) {
        st.gpu.forced = true;
        st.gpu.forced_named = a.gpu != NULL && is_named_gpu(&st.gpu.forced_device);
        snprintf(st.forced_by, sizeof st.forced_by, "%s %s", a.gpu != NULL ? "--gpu" : "--gpu-file",
                 a.gpu != NULL ? a.gpu : a.gpu_file);
        st.gpu.forced_by = st.forced_by;
    }
    st.inputs = calloc((size_t)a.file_count, sizeof *st.inputs);
    st.summary.files = calloc((size_t)a.file_count, sizeof *st.summary.files);
    st.rows_at = calloc((size_t)a.file_count + 1, sizeof *st.rows_at);
    st.by_time.entries = calloc((size_t)a.top + 1, sizeof *st.by_time.entries);
    st.by_gap.entries = calloc((size_t)a.top + 1, sizeof *st.by_gap.entries);
    st.by_time.heap = calloc((size_t)a.top + 1, sizeof *st.by_time.heap);
    st.by_gap.heap = calloc((size_t)a.top + 1, sizeof *st.by_gap.heap);
    st.by_time.cap = st.by_gap.cap = a.top;
    st.summary.file_count = a.file_count;
    int opened = 0;
    if (st.inputs == NULL || st.summary.files == NULL || st.rows_at == NULL ||
        st.by_time.entries == NULL || st.by_gap.entries == NULL || st.by_time.heap == NULL ||
        st.by_gap.heap == NULL) {
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
    if (st.rows != NULL) {
        fclose(st.rows);
    }
    free(st.rows_js);
    ncu_explain_cache_free(st.explained);
    free(st.rows_at);
    free(st.inputs);
    free(st.summary.files);
    free(st.by_time.entries);
    free(st.by_gap.entries);
    free(st.by_time.heap);
    free(st.by_gap.heap);
    free(a.files);
    return code;
}
