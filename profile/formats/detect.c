/*
 * detect.c - which trace a file holds, by its content: SQLite's 16-byte
 * header; JSON whose first key is a Kineto trace's; a CSV header with the
 * columns of `nsys stats --report cuda_gpu_trace`. Gzip is looked through.
 */
#include <string.h>
#include <zlib.h>

#include "prof_formats.h"

#define DETECT_BYTES 65536

static bool has(const char *text, const char *word)
{
    return strstr(text, word) != NULL;
}

occ_status prof_detect(const char *path, int input, occ_profile_format *out, occ_profile_error *err)
{
    *out = OCC_PROFILE_FORMAT_UNKNOWN;
    gzFile f = gzopen(path, "rb");
    if (!f) {
        return prof_error(err, OCC_ERR_IO, path, input, -1, "cannot open");
    }
    static const char sqlite_magic[16] = "SQLite format 3";
    char head[DETECT_BYTES + 1];
    int n = gzread(f, head, DETECT_BYTES);
    bool was_gzip = !gzdirect(f);
    gzclose(f);
    if (n < 0) {
        return prof_error(err, OCC_ERR_IO, path, input, -1, "cannot read");
    }
    head[n] = '\0';
    if (n >= 16 && memcmp(head, sqlite_magic, 16) == 0 && !was_gzip) {
        *out = OCC_PROFILE_FORMAT_NSYS_SQLITE;
        return OCC_OK;
    }
    /* A NUL in the text part makes strstr stop early, which only hides
       matches: binary files stay unknown. */
    size_t skip = 0;
    while (skip < (size_t)n &&
           (head[skip] == ' ' || head[skip] == '\n' || head[skip] == '\r' || head[skip] == '\t')) {
        skip++;
    }
    if (skip < (size_t)n && head[skip] == '{') {
        if (has(head, "\"traceEvents\"") || has(head, "\"deviceProperties\"") ||
            has(head, "\"schemaVersion\"") || has(head, "\"displayTimeUnit\"")) {
            *out = OCC_PROFILE_FORMAT_KINETO;
        }
        return OCC_OK;
    }
    if (skip < (size_t)n && head[skip] == '[') {
        /* the Chrome trace's array form: [ {event}, ... ] */
        if (has(head, "\"ph\"")) {
            *out = OCC_PROFILE_FORMAT_KINETO;
        }
        return OCC_OK;
    }
    char *line_end = strchr(head, '\n');
    if (line_end) {
        *line_end = '\0';
    }
    if (has(head, "GrdX") && has(head, "BlkX") && has(head, "Name")) {
        *out = OCC_PROFILE_FORMAT_NSYS_CSV;
    }
    return OCC_OK;
}
