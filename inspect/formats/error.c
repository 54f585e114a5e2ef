/*
 * error.c - the one way readers report bad input: an offset and a line.
 */
#include "bytes.h"

__attribute__((format(printf, 4, 0))) static void
fill(insp_error *err, size_t offset, bool over_limit, const char *format, va_list args)
{
    err->offset = offset;
    err->over_limit = over_limit;
    err->missing = false;
    vsnprintf(err->message, sizeof err->message, format, args);
}

bool insp_fail(insp_error *err, size_t offset, const char *format, ...)
{
    if (err != NULL) {
        va_list args;
        va_start(args, format);
        fill(err, offset, false, format, args);
        va_end(args);
    }
    return false;
}

bool insp_fail_limit(insp_error *err, size_t offset, const char *format, ...)
{
    if (err != NULL) {
        va_list args;
        va_start(args, format);
        fill(err, offset, true, format, args);
        va_end(args);
    }
    return false;
}

bool insp_fail_missing(insp_error *err, size_t offset, const char *format, ...)
{
    if (err != NULL) {
        va_list args;
        va_start(args, format);
        fill(err, offset, false, format, args);
        va_end(args);
        err->missing = true;
    }
    return false;
}
