/*
 * decompress.c - compressed fatbin entries, through the reference libraries:
 * flag 0x2000 marks a raw LZ4 block (liblz4's LZ4_decompress_safe), flag
 * 0x8000 a zstd frame (libzstd's ZSTD_decompress). Both checked on nvcc
 * -Xfatbin -compress-all output by tests/test_inspect.c.
 */
#include <limits.h>
#include <stdlib.h>

#include <lz4.h>
#include <zstd.h>

#include "bytes.h"

void insp_scratch_free(insp_scratch *scratch)
{
    free(scratch->data);
    scratch->data = NULL;
    scratch->capacity = 0;
    ZSTD_freeDCtx(scratch->zstd_context);
    scratch->zstd_context = NULL;
}

bool insp_decompress(insp_compression method, const uint8_t *in, size_t in_size, uint8_t *out,
                     size_t out_size, insp_error *err)
{
    return insp_decompress_with(NULL, method, in, in_size, out, out_size, err);
}

bool insp_decompress_with(insp_scratch *scratch, insp_compression method, const uint8_t *in,
                          size_t in_size, uint8_t *out, size_t out_size, insp_error *err)
{
    if (method == INSP_COMPRESSION_LZ4) {
        if (in_size > INT_MAX || out_size > INT_MAX) {
            return insp_fail(err, 0, "LZ4 entry of %zu bytes is too large", in_size);
        }
        int got = LZ4_decompress_safe((const char *)in, (char *)out, (int)in_size, (int)out_size);
        if (got < 0) {
            return insp_fail(err, 0, "LZ4 data is corrupt (%zu compressed bytes)", in_size);
        }
        if ((size_t)got != out_size) {
            return insp_fail(err, 0, "LZ4 data gives %d bytes, the header says %zu", got, out_size);
        }
        return true;
    }
    if (method == INSP_COMPRESSION_ZSTD) {
        /* One context per scratch (per thread) rather than one per entry:
           ZSTD_decompress sets up and frees its ~100 KB of state each call. */
        if (scratch != NULL && scratch->zstd_context == NULL) {
            scratch->zstd_context = ZSTD_createDCtx();
        }
        size_t got = scratch != NULL && scratch->zstd_context != NULL
                         ? ZSTD_decompressDCtx(scratch->zstd_context, out, out_size, in, in_size)
                         : ZSTD_decompress(out, out_size, in, in_size);
        if (ZSTD_isError(got)) {
            return insp_fail(err, 0, "zstd data is corrupt: %s", ZSTD_getErrorName(got));
        }
        if (got != out_size) {
            return insp_fail(err, 0, "zstd data gives %zu bytes, the header says %zu", got,
                             out_size);
        }
        return true;
    }
    return insp_fail(err, 0, "unknown compression method %d", (int)method);
}
