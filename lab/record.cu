/*
 * record.cu - the records occ-lab prints (one JSON object a line), its
 * failure messages and progress lines.
 */
#include <math.h>
#include <stdarg.h>
#include <string.h>

#include "occ_lab.h"

void lab_cuda_fail(const char *file, int line, const char *call, cudaError_t err)
{
    fprintf(stderr, "occ-lab: %s:%d: %s: %s (%s)\n", file, line, call, cudaGetErrorString(err),
            cudaGetErrorName(err));
    fflush(stdout);
    exit(err == cudaErrorNoDevice || err == cudaErrorInsufficientDriver ? LAB_EXIT_NO_GPU
                                                                         : LAB_EXIT_FAILED);
}

void lab_fail(const char *file, int line, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    fprintf(stderr, "occ-lab: %s:%d: ", file, line);
    vfprintf(stderr, format, args);
    fprintf(stderr, "\n");
    va_end(args);
    fflush(stdout);
    exit(LAB_EXIT_FAILED);
}

void lab_progress(const char *format, ...)
{
    va_list args;
    va_start(args, format);
    fprintf(stderr, "occ-lab: ");
    vfprintf(stderr, format, args);
    fprintf(stderr, "\n");
    va_end(args);
}

static void append(lab_record *r, const char *format, ...) __attribute__((format(printf, 2, 3)));
static void append(lab_record *r, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    size_t room = sizeof r->text - r->used;
    int n = vsnprintf(r->text + r->used, room, format, args);
    va_end(args);
    if (n < 0 || (size_t)n >= room) {
        LAB_FAIL("record longer than %zu bytes", sizeof r->text);
    }
    r->used += (size_t)n;
}

static void key(lab_record *r, const char *name)
{
    append(r, "%s\"%s\":", r->fields > 0 ? "," : "", name);
    r->fields++;
}

void lab_record_begin(lab_record *r, const char *kind)
{
    r->used = 0;
    r->fields = 0;
    append(r, "{");
    lab_record_str(r, "record", kind);
}

/* Strings in records are names the lab chose or the device's name: escape
   the two characters JSON requires and drop control characters. */
void lab_record_str(lab_record *r, const char *name, const char *value)
{
    key(r, name);
    append(r, "\"");
    for (const char *p = value; *p != '\0'; p++) {
        if (*p == '"' || *p == '\\') {
            append(r, "\\%c", *p);
        } else if ((unsigned char)*p >= 0x20) {
            append(r, "%c", *p);
        }
    }
    append(r, "\"");
}

void lab_record_int(lab_record *r, const char *name, long long value)
{
    key(r, name);
    append(r, "%lld", value);
}

/* Doubles with 9 significant digits; NaN and infinities are not JSON, and
   no measurement should produce them: null marks the fault. */
void lab_record_num(lab_record *r, const char *name, double value)
{
    key(r, name);
    if (isfinite(value)) {
        append(r, "%.9g", value);
    } else {
        append(r, "null");
    }
}

void lab_record_bool(lab_record *r, const char *name, int value)
{
    key(r, name);
    append(r, "%s", value ? "true" : "false");
}

void lab_record_ints(lab_record *r, const char *name, const int *values, int count)
{
    key(r, name);
    append(r, "[");
    for (int i = 0; i < count; i++) {
        append(r, i == 0 ? "%d" : ",%d", values[i]);
    }
    append(r, "]");
}

void lab_record_end(lab_record *r)
{
    append(r, "}");
    fputs(r->text, stdout);
    fputc('\n', stdout);
    fflush(stdout);
}
