/*
 * baseline_save.c - writes `occ inspect --save FILE` (baseline_save.h):
 * one function object per line, through json_stream, every key always
 * present so that `jq` and `grep` see the same shape on every line.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "baseline_save.h"
#include "json_stream.h"

static void key(json_stream *s, const char *name)
{
    json_stream_raw(s, ",\"", 2);
    json_stream_lit(s, name);
    json_stream_raw(s, "\":", 2);
}

static void int_or_null(json_stream *s, const char *name, int value, bool known)
{
    key(s, name);
    if (known) {
        json_stream_int(s, value);
    } else {
        json_stream_lit(s, "null");
    }
}

static void boolean(json_stream *s, const char *name, bool value)
{
    key(s, name);
    json_stream_lit(s, value ? "true" : "false");
}

/* As the binary gave them (a 0 stays 0: the reader must get back the same
   numbers, or every kernel would look changed); null when all are 0. */
static void dims(json_stream *s, const char *name, const int d[3])
{
    key(s, name);
    if (d[0] == 0 && d[1] == 0 && d[2] == 0) {
        json_stream_lit(s, "null");
        return;
    }
    for (int i = 0; i < 3; i++) {
        json_stream_raw(s, i == 0 ? "[" : ",", 1);
        json_stream_int(s, d[i]);
    }
    json_stream_raw(s, "]", 1);
}

static void function_json(json_stream *s, const occ_inspect_kernel *f)
{
    char arch[16];
    json_stream_lit(s, "{\"mangled\":");
    json_stream_cstring(s, f->mangled);
    key(s, "arch");
    json_stream_cstring(s, occ_inspect_arch_name(f->sm, f->arch_suffix, arch, sizeof arch));
    key(s, "kind");
    json_stream_lit(s, f->is_kernel ? "\"kernel\"" : "\"function\"");
    boolean(s, "relocatable", f->relocatable);
    boolean(s, "from_log", f->from_log);
    int_or_null(s, "count", f->count, true);
    int_or_null(s, "regs", f->regs, true);
    int_or_null(s, "smem_bytes", f->smem_bytes, true);
    int_or_null(s, "smem_section_bytes", f->smem_section_bytes,
                f->smem_section_bytes != OCC_INSPECT_UNKNOWN);
    int_or_null(s, "stack_bytes", f->stack_bytes, true);
    int_or_null(s, "frame_bytes", f->frame_bytes, true);
    int_or_null(s, "spill_store_bytes", f->spill_store_bytes,
                f->spill_store_bytes != OCC_INSPECT_UNKNOWN);
    int_or_null(s, "spill_load_bytes", f->spill_load_bytes,
                f->spill_load_bytes != OCC_INSPECT_UNKNOWN);
    int_or_null(s, "spill_instructions", f->spill_instructions, true);
    int_or_null(s, "barriers", f->barriers, f->barriers != OCC_INSPECT_UNKNOWN);
    dims(s, "max_threads", f->max_threads);
    dims(s, "req_threads", f->req_threads);
    int_or_null(s, "max_regs", f->max_regs, f->max_regs > 0);
    dims(s, "cluster_dims", f->cluster_dims);
    boolean(s, "explicit_cluster", f->explicit_cluster);
    int_or_null(s, "max_cluster_rank", f->max_cluster_rank, f->max_cluster_rank > 0);
    int_or_null(s, "param_bytes", f->param_bytes, f->param_bytes != OCC_INSPECT_UNKNOWN);
    json_stream_raw(s, "}", 1);
}

static void write_document(json_stream *s, const occ_inspect_result *r, const inspect_args *a)
{
    json_stream_lit(s, "{\"schema\":\"occ.baseline\",\"version\":");
    json_stream_int(s, BASELINE_SCHEMA_VERSION);
    key(s, "occ_version");
    json_stream_cstring(s, occ_version());
    json_stream_lit(s, ",\n\"inputs\":[");
    occ_inspect_totals totals;
    occ_inspect_totals_get(r, &totals);
    for (int i = 0; i < totals.input_count; i++) {
        json_stream_lit(s, i > 0 ? ",{\"file\":" : "{\"file\":");
        json_stream_cstring(s, occ_inspect_input_name(r, i));
        key(s, "format");
        json_stream_cstring(s, occ_inspect_format_name(occ_inspect_input_format(r, i)));
        json_stream_raw(s, "}", 1);
    }
    /* what decided which functions are here: a diff should read the new
       build with the same options */
    json_stream_lit(s, "],\n\"options\":{\"arch\":");
    if (a->read.arch_sm != 0) {
        char arch[16];
        occ_inspect_arch_name(a->read.arch_sm, a->read.arch_suffix, arch, sizeof arch);
        json_stream_cstring(s, arch);
    } else {
        json_stream_lit(s, "null");
    }
    boolean(s, "functions", a->read.functions);
    boolean(s, "all", a->read.relfatbin);
    key(s, "filter");
    if (a->filter != NULL) {
        json_stream_cstring(s, a->filter);
    } else {
        json_stream_lit(s, "null");
    }
    size_t count = occ_inspect_kernel_count(r);
    json_stream_lit(s, "},\n\"function_count\":");
    json_stream_int(s, (long long)count);
    json_stream_lit(s, ",\n\"functions\":[\n");
    for (size_t i = 0; i < count; i++) {
        function_json(s, occ_inspect_kernel_at(r, i));
        json_stream_lit(s, i + 1 < count ? ",\n" : "\n");
    }
    json_stream_lit(s, "]}\n");
    json_stream_flush(s);
}

bool baseline_save(const char *path, occ_inspect_result *r, const inspect_args *a, cli_error *err)
{
    occ_inspect_error ierr;
    if (occ_inspect_sort(r, OCC_INSPECT_BY_NAME, &ierr) != OCC_OK) {
        return cli_error_set(err, EXIT_DATA, "%s", ierr.message);
    }
    size_t len = strlen(path);
    char *temp = malloc(len + 32);
    if (temp == NULL) {
        return cli_error_set(err, EXIT_DATA, "%s: out of memory", path);
    }
    /* beside the target, so that rename() replaces it in one step */
    snprintf(temp, len + 32, "%s.tmp%ld", path, (long)getpid());
    FILE *f = fopen(temp, "wb");
    if (f == NULL) {
        int e = errno;
        free(temp);
        return cli_error_set(err, EXIT_DATA, "option --save: %s: cannot create: %s", path,
                             strerror(e));
    }
    json_stream *s = malloc(sizeof *s);
    if (s == NULL) {
        fclose(f);
        remove(temp);
        free(temp);
        return cli_error_set(err, EXIT_DATA, "%s: out of memory", path);
    }
    json_stream_init(s, f);
    write_document(s, r, a);
    free(s);
    errno = 0;
    bool failed = ferror(f) != 0;
    int e = errno;
    if (fclose(f) != 0 && !failed) {
        failed = true;
        e = errno;
    }
    if (!failed && rename(temp, path) != 0) {
        failed = true;
        e = errno;
    }
    if (failed) {
        remove(temp);
        free(temp);
        return cli_error_set(err, EXIT_DATA, "option --save: %s: cannot write: %s", path,
                             e != 0 ? strerror(e) : "write error");
    }
    free(temp);
    return true;
}
