/*
 * inspect_error.c - the one filler of occ_inspect_error (inspect_error.h).
 */
#include "inspect_error.h"
#include "message_fit.h"

occ_status insp_error_vset(occ_inspect_error *err, occ_status status, int input, long long offset,
                           const char *format, va_list args)
{
    if (err != NULL) {
        err->status = status;
        err->input = input;
        err->offset = offset;
        message_vfit(err->message, sizeof err->message, format, args);
    }
    return status;
}

occ_status insp_error_set(occ_inspect_error *err, occ_status status, int input, long long offset,
                          const char *format, ...)
{
    va_list args;
    va_start(args, format);
    occ_status result = insp_error_vset(err, status, input, offset, format, args);
    va_end(args);
    return result;
}
