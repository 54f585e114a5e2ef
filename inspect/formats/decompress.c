/*
 * decompress.c - compressed fatbin entries, through the reference libraries:
 * flag 0x2000 marks a raw LZ4 block (liblz4's LZ4_decompress_safe), flag
 * 0x8000 a zstd frame (libzstd's ZSTD_decompress). Both checked on nvcc
 * -Xfatbin -compress-all output by tests/test_inspect.c. A zstd frame can
 * also be read a piece at a time, for reading a large cubin in part.
 */
#include <limits.h>
#include <stdlib.h>

#include <lz4.h>
/* ZSTD_getFrameHeader (a frame's window) is in the part of zstd.h kept for
   static linking; Debian's libzstd.so.1 exports it too. */
#define ZSTD_STATIC_LINKING_ONLY
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

/* --- a frame a piece at a time ------------------------------------------ */

/* Skipped bytes are decompressed into this much at a time. */
#define DISCARD_BYTES (256u << 10)

size_t insp_zstd_window_bytes(const uint8_t *in, size_t in_size)
{
    ZSTD_frameHeader header;
    if (ZSTD_getFrameHeader(&header, in, in_size) != 0 || header.frameType != ZSTD_frame ||
        header.windowSize > SIZE_MAX) {
        return 0;
    }
    return (size_t)header.windowSize;
}

bool insp_zstd_stream_open(insp_zstd_stream *s, const uint8_t *in, size_t in_size,
                           size_t window_max)
{
    *s = (insp_zstd_stream){NULL, in, in_size, 0, NULL, DISCARD_BYTES, false};
    size_t window = insp_zstd_window_bytes(in, in_size);
    if (window == 0 || window > window_max) {
        return false;
    }
    int window_log = 10; /* ZSTD_WINDOWLOG_ABSOLUTEMIN */
    while (((size_t)1 << window_log) < window) {
        window_log++;
    }
    s->context = ZSTD_createDStream();
    s->discard = malloc(DISCARD_BYTES);
    if (s->context == NULL || s->discard == NULL ||
        ZSTD_isError(ZSTD_DCtx_setParameter(s->context, ZSTD_d_windowLogMax, window_log))) {
        insp_zstd_stream_close(s);
        return false;
    }
    return true;
}

bool insp_zstd_stream_read(insp_zstd_stream *s, uint8_t *out, size_t n)
{
    while (n > 0) {
        size_t want = out != NULL ? n : (n < s->discard_bytes ? n : s->discard_bytes);
        ZSTD_outBuffer o = {out != NULL ? out : s->discard, want, 0};
        ZSTD_inBuffer i = {s->in, s->in_size, s->in_pos};
        size_t hint = ZSTD_decompressStream(s->context, &o, &i);
        bool progress = o.pos > 0 || i.pos > s->in_pos;
        s->in_pos = i.pos;
        if (ZSTD_isError(hint) || !progress || (hint == 0 && o.pos < want)) {
            return false; /* damaged, out of input, or the frame ended early */
        }
        s->ended = hint == 0;
        n -= o.pos;
        if (out != NULL) {
            out += o.pos;
        }
    }
    return true;
}

bool insp_zstd_stream_end(insp_zstd_stream *s)
{
    while (!s->ended) {
        uint8_t extra;
        ZSTD_outBuffer o = {&extra, 1, 0};
        ZSTD_inBuffer i = {s->in, s->in_size, s->in_pos};
        size_t hint = ZSTD_decompressStream(s->context, &o, &i);
        bool progress = i.pos > s->in_pos;
        s->in_pos = i.pos;
        if (ZSTD_isError(hint) || o.pos > 0) {
            return false; /* more bytes than the entry's header says */
        }
        s->ended = hint == 0;
        if (!s->ended && !progress) {
            return false;
        }
    }
    return s->in_pos == s->in_size;
}

void insp_zstd_stream_close(insp_zstd_stream *s)
{
    ZSTD_freeDStream(s->context);
    free(s->discard);
    s->context = NULL;
    s->discard = NULL;
}
