/*
 * baseline_write.c - writes baselines (schema occ.baseline, docs/json.md),
 * the documents baseline.c reads: occ_inspect_baseline_write and
 * occ_inspect_baseline_save (include/occ_inspect.h). One function object per
 * line, every key always present, so that `jq` and `grep` see the same shape
 * on every line and two baselines of similar builds differ line by line
 * where the builds do. The version written is INSP_BASELINE_VERSION, the
 * newest the reader takes.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "documents.h"
#include "engine.h"

static void write_document(json_stream *s, const occ_inspect_result *r,
                           const occ_inspect_options *o, const char *filter)
{
    insp_document_open(s, r, "occ.baseline", INSP_BASELINE_VERSION);
    /* what decided which functions are here: a diff should read the new
       build with the same options */
    json_stream_lit(s, ",\n\"options\":{\"arch\":");
    if (o->arch_sm != 0) {
        char arch[16];
        occ_inspect_arch_name(o->arch_sm, o->arch_suffix, arch, sizeof arch);
        json_stream_cstring(s, arch);
    } else {
        json_stream_null(s);
    }
    json_stream_key(s, "functions");
    json_stream_bool(s, o->functions);
    json_stream_key(s, "all");
    json_stream_bool(s, o->relfatbin);
    json_stream_key(s, "filter");
    json_stream_cstring_or_null(s, filter);
    size_t count = occ_inspect_kernel_count(r);
    json_stream_lit(s, "},\n\"function_count\":");
    json_stream_int(s, (long long)count);
    json_stream_lit(s, ",\n\"functions\":[\n");
    for (size_t i = 0; i < count; i++) {
        insp_kernel_json_resources(s, occ_inspect_kernel_at(r, i), INSP_KERNEL_JSON_BASELINE);
        json_stream_lit(s, i + 1 < count ? "},\n" : "}\n");
    }
    json_stream_lit(s, "]}\n");
    json_stream_flush(s);
}

/* Checks the arguments and puts r in name order. */
static occ_status prepare(const char *call, occ_inspect_result *r,
                          const occ_inspect_options *options, const void *out,
                          occ_inspect_error *err)
{
    if (r == NULL || options == NULL || out == NULL) {
        return inspect_fail(err, OCC_ERR_NULL_POINTER, -1, -1, "%s: a NULL argument", call);
    }
    /* a baseline holds each function once; launches make rows of a kernel */
    for (size_t i = 0; i < occ_inspect_kernel_count(r); i++) {
        if (occ_inspect_kernel_at(r, i)->launch_index >= 0) {
            return inspect_fail(err, OCC_ERR_INVALID_ARGUMENT, -1, -1,
                                "a baseline holds each function once: save it before "
                                "occ_inspect_apply_launches makes rows of launches");
        }
    }
    return occ_inspect_sort(r, OCC_INSPECT_BY_NAME, err);
}

/* The document into out through a stream on the heap (its buffer is 16 KB). */
static occ_status write_to(FILE *out, const occ_inspect_result *r, const occ_inspect_options *o,
                           const char *filter, const char *name, occ_inspect_error *err)
{
    json_stream *s = malloc(sizeof *s);
    if (s == NULL) {
        return inspect_fail(err, OCC_ERR_OUT_OF_MEMORY, -1, -1, "%s: out of memory", name);
    }
    json_stream_init(s, out);
    write_document(s, r, o, filter);
    free(s);
    return OCC_OK;
}

occ_status occ_inspect_baseline_write(occ_inspect_result *r, const occ_inspect_options *options,
                                      const char *filter, FILE *out, occ_inspect_error *err)
{
    occ_status status = prepare("occ_inspect_baseline_write", r, options, out, err);
    if (status == OCC_OK) {
        status = write_to(out, r, options, filter, "baseline", err);
    }
    if (status == OCC_OK && (fflush(out) != 0 || ferror(out))) {
        status = inspect_fail(err, OCC_ERR_IO, -1, -1, "cannot write the baseline");
    }
    return status;
}

occ_status occ_inspect_baseline_save(occ_inspect_result *r, const occ_inspect_options *options,
                                     const char *filter, const char *path, occ_inspect_error *err)
{
    occ_status status = prepare("occ_inspect_baseline_save", r, options, path, err);
    if (status != OCC_OK) {
        return status;
    }
    size_t len = strlen(path);
    char *temp = malloc(len + 32);
    if (temp == NULL) {
        return inspect_fail(err, OCC_ERR_OUT_OF_MEMORY, -1, -1, "%s: out of memory", path);
    }
    /* beside the target, so that rename() replaces it in one step */
    snprintf(temp, len + 32, "%s.tmp%ld", path, (long)getpid());
    FILE *f = fopen(temp, "wb");
    if (f == NULL) {
        int e = errno;
        free(temp);
        return inspect_fail(err, OCC_ERR_IO, -1, -1, "%s: cannot create: %s", path, strerror(e));
    }
    status = write_to(f, r, options, filter, path, err);
    errno = 0;
    bool failed = status == OCC_OK && ferror(f) != 0;
    int e = errno;
    if (fclose(f) != 0 && status == OCC_OK && !failed) {
        failed = true;
        e = errno;
    }
    if (status == OCC_OK && !failed && rename(temp, path) != 0) {
        failed = true;
        e = errno;
    }
    if (status != OCC_OK || failed) {
        remove(temp);
    }
    free(temp);
    if (failed) {
        status = inspect_fail(err, OCC_ERR_IO, -1, -1, "%s: cannot write: %s", path,
                              e != 0 ? strerror(e) : "write error");
    }
    return status;
}
