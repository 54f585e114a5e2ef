/*
 * ncu_error.c - the Nsight Compute reader's messages: one line naming the
 * file and the line, as `occ ncu` has always printed them, control
 * characters (from the file, in quoted text) shown as \xNN by
 * message_visible (values/message_fit.h), as the command prints them.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "message_fit.h"
#include "prof_ncu.h"

static bool fail_va(occ_profile_error *err, occ_status status, const char *format, va_list ap)
    __attribute__((format(printf, 3, 0)));

static bool fail_va(occ_profile_error *err, occ_status status, const char *format, va_list ap)
{
    if (err) {
        err->status = status;
        err->input = 0;
        err->where = -1;
        char text[1536];
        vsnprintf(text, sizeof text, format, ap);
        message_visible(text, err->message, sizeof err->message);
    }
    return false;
}

bool ncu_fail(occ_profile_error *err, const char *format, ...)
{
    va_list ap;
    va_start(ap, format);
    fail_va(err, OCC_ERR_BAD_FORMAT, format, ap);
    va_end(ap);
    return false;
}

bool ncu_fail_status(occ_profile_error *err, occ_status status, const char *format, ...)
{
    va_list ap;
    va_start(ap, format);
    fail_va(err, status, format, ap);
    va_end(ap);
    return false;
}

bool ncu_fail_prefix(occ_profile_error *err, const char *format, ...)
{
    if (err == NULL) {
        return false;
    }
    char text[256], prefix[256];
    va_list ap;
    va_start(ap, format);
    vsnprintf(text, sizeof text, format, ap);
    va_end(ap);
    message_visible(text, prefix, sizeof prefix);
    size_t p = strlen(prefix);
    size_t m = strlen(err->message);
    if (p + m >= sizeof err->message) {
        m = sizeof err->message - 1 - p;
    }
    memmove(err->message + p, err->message, m);
    memcpy(err->message, prefix, p);
    err->message[p + m] = '\0';
    return false;
}
