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
    /* a piece at a time, so a damaged gzip stream is named with the byte it
       breaks near */
    int n = 0, got;
    while (n < DETECT_BYTES &&
           (got = gzread(f, head + n,
                         4096 < DETECT_BYTES - n ? 4096 : (unsigned)(DETECT_BYTES - n))) > 0) {
        n += got;
    }
    int code = Z_OK;
    const char *why = prof_gz_error(f, path, &code);
    bool was_gzip = !gzdirect(f);
    if (code != Z_OK && code != Z_STREAM_END) {
        /* gzip data damaged (Z_DATA_ERROR), cut short (Z_BUF_ERROR), or a read error */
        occ_status st =
            prof_error(err, code == Z_ERRNO ? OCC_ERR_IO : OCC_ERR_BAD_FORMAT, path, input, n,
                       "byte %d: the gzip data cannot be decompressed: %s%s", n, why,
                       code == Z_BUF_ERROR ? " (the gzip data is cut short)" : "");
        gzclose(f);
        return st;
    }
    gzclose(f);
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
