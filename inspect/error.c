/*
 * error.c - the one way readers report bad input: an offset and a line.
 */
#include "bytes.h"

bool insp_fail(insp_error *err, size_t offset, const char *format, ...)
{
    if (err != NULL) {
        va_list args;
        va_start(args, format);
        err->offset = offset;
        vsnprintf(err->message, sizeof err->message, format, args);
        va_end(args);
    }
    return false;
}
