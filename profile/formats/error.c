/*
 * error.c - the readers' one error helper and the checks every launch
 * passes, whatever format it came from.
 */
#include <stdio.h>
#include <string.h>
#include <zlib.h>

#include "prof_formats.h"

occ_status prof_error(occ_profile_error *err, occ_status status, const char *path, int input,
                      long long where, const char *format, ...)
{
    if (err) {
        err->status = status;
        err->input = input;
        err->where = where;
        int n = snprintf(err->message, sizeof err->message, "%s: ", path ? path : "");
        if (!path) {
            n = 0;
        }
        if (n < 0 || (size_t)n >= sizeof err->message) {
            n = 0;
        }
        va_list ap;
        va_start(ap, format);
        vsnprintf(err->message + n, sizeof err->message - (size_t)n, format, ap);
        va_end(ap);
        /* one line: values quoted from the file (a CSV field across lines, yajl's own
           message) may hold line ends and other control bytes; trailing ones go, the
           rest become '?' */
        char *text = err->message + n;
        size_t length = strlen(text);
        while (length > 0 && (unsigned char)text[length - 1] < 0x20) {
            text[--length] = '\0';
        }
        for (size_t i = 0; i < length; i++) {
            if ((unsigned char)text[i] < 0x20 || text[i] == 0x7f) {
                text[i] = '?';
            }
        }
    }
    return status;
}

const char *prof_gz_error(struct gzFile_s *f, const char *path, int *code)
{
    const char *why = gzerror(f, code);
    size_t n = path ? strlen(path) : 0;
    /* zlib's message starts with the path, which the error already names */
    if (why && n && strncmp(why, path, n) == 0 && strncmp(why + n, ": ", 2) == 0) {
        why += n + 2;
    }
    return why ? why : "read error";
}

occ_status prof_error_place(occ_profile_error *err, occ_status status, const char *path,
                            long long where, const char *where_word)
{
    if (!err || err->where >= 0 || where < 0 || status == OCC_OK) {
        return status;
    }
    size_t n = path ? strlen(path) : 0;
    if (!path || strncmp(err->message, path, n) != 0 || strncmp(err->message + n, ": ", 2) != 0) {
        return status;
    }
    char rest[sizeof err->message];
    snprintf(rest, sizeof rest, "%s", err->message + n + 2);
    snprintf(err->message + n + 2, sizeof err->message - n - 2, "%s %lld: %s", where_word, where,
             rest);
    err->where = where;
    return status;
}

/* CUDA's limits on a launch [CUDA C++ Programming Guide, "Compute
   Capabilities", table "Technical Specifications per Compute Capability"]:
   1,024 threads per block, block dims 1,024 x 1,024 x 64, grid x up to
   2^31 - 1, y and z up to 65,535; 255 registers per thread; shared memory
   per block under 256 KB on every GPU occ knows (227 KB on CC 9.0);
   clusters of at most 16 blocks (OCC_CLUSTER_NON_PORTABLE_MAX). */
static const int block_max[3] = {1024, 1024, 64};
static const int grid_max[3] = {2147483647, 65535, 65535};
#define PROF_MAX_REGS 255
#define PROF_MAX_SMEM_BYTES (256 * 1024)

occ_status prof_launch_check(const prof_launch *l, const char *path, int input, long long where,
                             const char *where_word, occ_profile_error *err)
{
    static const char axis[3] = {'x', 'y', 'z'};
    for (int i = 0; i < 3; i++) {
        if (l->block[i] < 1 || l->block[i] > block_max[i]) {
            return prof_error(err, OCC_ERR_BAD_FORMAT, path, input, where,
                              "%s %lld: block %c %d is outside 1..%d", where_word, where, axis[i],
                              l->block[i], block_max[i]);
        }
        if (l->grid[i] < 1 || l->grid[i] > grid_max[i]) {
            return prof_error(err, OCC_ERR_BAD_FORMAT, path, input, where,
                              "%s %lld: grid %c %d is outside 1..%d", where_word, where, axis[i],
                              l->grid[i], grid_max[i]);
        }
        if (l->cluster[i] < 0 || l->cluster[i] > OCC_CLUSTER_NON_PORTABLE_MAX) {
            return prof_error(err, OCC_ERR_BAD_FORMAT, path, input, where,
                              "%s %lld: cluster %c %d is outside 0..%d", where_word, where, axis[i],
                              l->cluster[i], OCC_CLUSTER_NON_PORTABLE_MAX);
        }
    }
    long long threads = (long long)l->block[0] * l->block[1] * l->block[2];
    if (threads > 1024) {
        return prof_error(err, OCC_ERR_BAD_FORMAT, path, input, where,
                          "%s %lld: a block of %lld threads is above 1024", where_word, where,
                          threads);
    }
    bool any_cluster = l->cluster[0] || l->cluster[1] || l->cluster[2];
    if (any_cluster) {
        long long size = (long long)l->cluster[0] * l->cluster[1] * l->cluster[2];
        if (size < 1 || size > OCC_CLUSTER_NON_PORTABLE_MAX) {
            return prof_error(err, OCC_ERR_BAD_FORMAT, path, input, where,
                              "%s %lld: a cluster of %d x %d x %d blocks is outside 1..%d",
                              where_word, where, l->cluster[0], l->cluster[1], l->cluster[2],
                              OCC_CLUSTER_NON_PORTABLE_MAX);
        }
    }
    if (l->regs_per_thread < 0 || l->regs_per_thread > PROF_MAX_REGS) {
        return prof_error(err, OCC_ERR_BAD_FORMAT, path, input, where,
                          "%s %lld: %d registers per thread is outside 0..%d", where_word, where,
                          l->regs_per_thread, PROF_MAX_REGS);
    }
    const int sizes[3] = {l->static_smem_bytes, l->dyn_smem_bytes, l->smem_bytes};
    static const char *const size_names[3] = {"static shared memory", "dynamic shared memory",
                                              "shared memory"};
    for (int i = 0; i < 3; i++) {
        if (sizes[i] == OCC_PROFILE_UNKNOWN && i < 2) {
            continue;
        }
        if (sizes[i] < 0 || sizes[i] > PROF_MAX_SMEM_BYTES) {
            return prof_error(err, OCC_ERR_BAD_FORMAT, path, input, where,
                              "%s %lld: %s %d bytes per block is outside 0..%d", where_word, where,
                              size_names[i], sizes[i], PROF_MAX_SMEM_BYTES);
        }
    }
    if (l->smem_executed_bytes != OCC_PROFILE_UNKNOWN &&
        (l->smem_executed_bytes < 0 || l->smem_executed_bytes > PROF_MAX_SMEM_BYTES)) {
        return prof_error(err, OCC_ERR_BAD_FORMAT, path, input, where,
                          "%s %lld: sharedMemoryExecuted %d bytes is outside 0..%d", where_word,
                          where, l->smem_executed_bytes, PROF_MAX_SMEM_BYTES);
    }
    if (!(l->duration_us >= 0) || l->duration_us > 1e12) {
        return prof_error(err, OCC_ERR_BAD_FORMAT, path, input, where,
                          "%s %lld: duration %g us is outside 0..1e12", where_word, where,
                          l->duration_us);
    }
    if (l->has_kineto_estimate && !(l->kineto_estimate >= -1.0 && l->kineto_estimate <= 1.0)) {
        return prof_error(err, OCC_ERR_BAD_FORMAT, path, input, where,
                          "%s %lld: est. achieved occupancy %g%% is outside -100..100", where_word,
                          where, l->kineto_estimate * 100);
    }
    if (l->device < 0 || l->device > 1 << 20) {
        return prof_error(err, OCC_ERR_BAD_FORMAT, path, input, where,
                          "%s %lld: device %d is outside 0..%d", where_word, where, l->device,
                          1 << 20);
    }
    return OCC_OK;
}
