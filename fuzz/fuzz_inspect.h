/*
 * fuzz_inspect.h - what the occ inspect fuzz targets share: a sink that touches every
 * reported name byte (so ASan sees an overread at once) and puts every function through
 * the engine's plausibility limits (inspect/engine/limits.c: hostile values must not
 * overflow there either), and the contract on errors.
 */
#ifndef OCC_FUZZ_INSPECT_H
#define OCC_FUZZ_INSPECT_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "engine.h"
#include "formats.h"

static inline void fuzz_touch_function(void *context, const insp_function *f)
{
    size_t *sum = context;
    for (size_t i = 0; i < f->name_len; i++) {
        *sum += (unsigned char)f->name[i];
    }
    *sum += (size_t)f->regs + (size_t)f->smem_bytes;
    char why[256];
    if (!inspect_function_plausible(f, why, sizeof why) && why[0] == '\0') {
        fprintf(stderr, "implausible function without a message\n");
        abort();
    }
}

/* A failed read must say where, inside the input, and why. */
static inline void fuzz_check_error(bool ok, const insp_error *err, size_t size)
{
    if (!ok && (err->offset > size || err->message[0] == '\0')) {
        fprintf(stderr, "error offset %zu beyond %zu bytes, or empty message\n", err->offset, size);
        abort();
    }
}

/* A private copy of exactly `size` bytes, so ASan sees the buffer's end. */
static inline uint8_t *fuzz_copy(const uint8_t *data, size_t size)
{
    uint8_t *copy = malloc(size > 0 ? size : 1);
    if (copy == NULL) {
        abort();
    }
    if (size > 0) {
        memcpy(copy, data, size);
    }
    return copy;
}

#endif /* OCC_FUZZ_INSPECT_H */
