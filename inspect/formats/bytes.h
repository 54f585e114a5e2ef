/*
 * bytes.h - little-endian reads at checked offsets, and the error helper the
 * readers share. Internal to inspect/formats/.
 */
#ifndef OCC_INSPECT_BYTES_H
#define OCC_INSPECT_BYTES_H

#include <stdarg.h>
#include <stdio.h>

#include "formats.h"

/* True if [offset, offset + length) lies inside a buffer of `size` bytes,
   written so that no sum can overflow. */
static inline bool insp_fits(size_t size, uint64_t offset, uint64_t length)
{
    return offset <= size && length <= size - offset;
}

static inline uint16_t insp_u16(const uint8_t *p)
{
    return (uint16_t)(p[0] | (p[1] << 8));
}

static inline uint32_t insp_u32(const uint8_t *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

static inline uint64_t insp_u64(const uint8_t *p)
{
    return (uint64_t)insp_u32(p) | ((uint64_t)insp_u32(p + 4) << 32);
}

/* Fills *err (if any) and returns false, so readers can `return insp_fail(...)`. */
bool insp_fail(insp_error *err, size_t offset, const char *format, ...)
    __attribute__((format(printf, 3, 4)));
/* The same for input refused by a documented limit rather than damaged. */
bool insp_fail_limit(insp_error *err, size_t offset, const char *format, ...)
    __attribute__((format(printf, 3, 4)));
/* The same where the bytes needed are in the part of a file not kept
   (elf64_open_split): not damage; the caller reads the whole file instead. */
bool insp_fail_missing(insp_error *err, size_t offset, const char *format, ...)
    __attribute__((format(printf, 3, 4)));

#endif /* OCC_INSPECT_BYTES_H */
