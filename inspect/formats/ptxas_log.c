/*
 * ptxas_log.c - the functions of a `ptxas -v` (or `nvcc --resource-usage`)
 * log, CUDA 11 to 13. The lines read (docs/binary-formats.md; checked against
 * ptxas 13.0 output by tests/test_inspect.c):
 *
 *   ptxas info    : Compiling entry function '_Z1kPf' for 'sm_90'
 *   ptxas info    : Function properties for _Z1kPf
 *       8 bytes stack frame, 4 bytes spill stores, 4 bytes spill loads
 *   ptxas info    : Used 32 registers, used 1 barriers, 8 bytes cumulative stack size,
 *                   4096 bytes smem, 372 bytes cmem[0]          (one line)
 *
 * Parts of the "Used" line appear only when nonzero, and older toolkits
 * print "Used 17 registers, 336 bytes cmem[0]" (no barriers). Each part is
 * "<n> <unit> <kind>", so the line is split on ", " and read by its words.
 */
#include <string.h>

#include "bytes.h"

typedef struct span {
    const char *text;
    size_t len;
} span;

typedef struct log_state {
    insp_function current; /* the function the next "Used" line belongs to */
    bool have_current;
    span props_name; /* the last "Function properties for" name */
    int props_frame, props_spill_stores, props_spill_loads;
} log_state;

static bool span_starts(span s, const char *prefix)
{
    size_t n = strlen(prefix);
    return s.len >= n && memcmp(s.text, prefix, n) == 0;
}

static span span_skip(span s, size_t n)
{
    span r = {s.text + n, s.len - n};
    return r;
}

static span span_trim(span s)
{
    while (s.len > 0 && (s.text[0] == ' ' || s.text[0] == '\t')) {
        s = span_skip(s, 1);
    }
    while (s.len > 0 &&
           (s.text[s.len - 1] == ' ' || s.text[s.len - 1] == '\t' || s.text[s.len - 1] == '\r')) {
        s.len--;
    }
    return s;
}

typedef enum number_status { NUMBER_OK, NUMBER_NONE, NUMBER_TOO_LARGE } number_status;

/* Reads a decimal number at the start of s: none there, or above INT_MAX
   (a count no ptxas prints, so a damaged or edited log). */
static number_status read_number(span *s, int *out)
{
    long long v = 0;
    size_t i = 0;
    bool too_large = false;
    while (i < s->len && s->text[i] >= '0' && s->text[i] <= '9') {
        if (!too_large) {
            v = v * 10 + (s->text[i] - '0');
            too_large = v > 0x7FFFFFFF;
        }
        i++;
    }
    if (i == 0) {
        return NUMBER_NONE;
    }
    if (too_large) {
        return NUMBER_TOO_LARGE;
    }
    *out = (int)v;
    *s = span_trim(span_skip(*s, i));
    return NUMBER_OK;
}

/* "'999999999999 registers': the number is too large (above 2147483647)" for
   a part whose number does not fit an int, else "'x registers' does not
   start with a number". */
static bool bad_number(insp_error *err, size_t offset, span part, number_status status)
{
    int shown = (int)(part.len < 40 ? part.len : 40);
    if (status == NUMBER_TOO_LARGE) {
        return insp_fail(err, offset,
                         "ptxas log: '%.*s': the number is too large (above "
                         "2147483647)",
                         shown, part.text);
    }
    return insp_fail(err, offset, "ptxas log: '%.*s' does not start with a number", shown,
                     part.text);
}

/* 'sm_90a' -> 90, 'a'. */
static bool read_arch(span s, int *sm, char *suffix)
{
    if (!span_starts(s, "sm_")) {
        return false;
    }
    s = span_skip(s, 3);
    if (read_number(&s, sm) != NUMBER_OK) {
        return false;
    }
    *suffix = 0;
    if (s.len == 1 && (s.text[0] == 'a' || s.text[0] == 'f')) {
        *suffix = s.text[0];
    } else if (s.len != 0) {
        return false;
    }
    return true;
}

/* The text between the first pair of single quotes after `from`. */
static bool quoted(span s, span *out, span *rest)
{
    const char *open = memchr(s.text, '\'', s.len);
    if (open == NULL) {
        return false;
    }
    size_t at = (size_t)(open - s.text) + 1;
    const char *close = memchr(s.text + at, '\'', s.len - at);
    if (close == NULL) {
        return false;
    }
    out->text = s.text + at;
    out->len = (size_t)(close - out->text);
    rest->text = close + 1;
    rest->len = s.len - (size_t)(rest->text - s.text);
    return true;
}

static bool on_compiling(log_state *st, span rest, bool entry, size_t offset, insp_error *err)
{
    span name, after, arch;
    if (!quoted(rest, &name, &after) || !quoted(after, &arch, &after) || name.len == 0) {
        return insp_fail(err, offset,
                         "ptxas log: 'Compiling' line without a quoted name "
                         "and arch");
    }
    memset(&st->current, 0, sizeof st->current);
    if (!read_arch(arch, &st->current.sm, &st->current.arch_suffix)) {
        return insp_fail(err, offset, "ptxas log: target '%.*s' is not an sm_NN arch",
                         (int)(arch.len < 40 ? arch.len : 40), arch.text);
    }
    st->current.name = name.text;
    st->current.name_len = name.len;
    st->current.is_kernel = entry;
    st->have_current = true;
    return true;
}

/* "8 bytes stack frame, 4 bytes spill stores, 4 bytes spill loads" */
static bool on_properties_values(log_state *st, span line, size_t offset, insp_error *err)
{
    const char *base = line.text;
    while (line.len > 0) {
        const char *comma = memchr(line.text, ',', line.len);
        span part = {line.text, comma != NULL ? (size_t)(comma - line.text) : line.len};
        part = span_trim(part);
        int n;
        number_status got = read_number(&part, &n);
        if (got == NUMBER_TOO_LARGE) {
            return bad_number(err, offset + (size_t)(part.text - base), part, got);
        }
        if (got == NUMBER_OK) {
            if (span_starts(part, "bytes stack frame")) {
                st->props_frame = n;
            } else if (span_starts(part, "bytes spill stores")) {
                st->props_spill_stores = n;
            } else if (span_starts(part, "bytes spill loads")) {
                st->props_spill_loads = n;
            }
        }
        line = comma != NULL ? span_skip(line, (size_t)(comma - line.text) + 1)
                             : span_skip(line, line.len);
    }
    return true;
}

static bool on_used(log_state *st, span line, size_t offset, const insp_sink *sink, insp_error *err)
{
    if (!st->have_current) {
        return insp_fail(err, offset,
                         "ptxas log: 'Used' line with no 'Compiling' line "
                         "before it");
    }
    insp_function f = st->current;
    f.offset = offset;
    f.from_log = true;
    f.spill_store_bytes = INSP_UNKNOWN;
    f.spill_load_bytes = INSP_UNKNOWN;
    f.smem_section_bytes = INSP_UNKNOWN;
    f.param_bytes = INSP_UNKNOWN;
    f.barriers = INSP_UNKNOWN;
    if (st->props_name.len == f.name_len && memcmp(st->props_name.text, f.name, f.name_len) == 0) {
        f.frame_bytes = st->props_frame;
        f.spill_store_bytes = st->props_spill_stores;
        f.spill_load_bytes = st->props_spill_loads;
    }
    bool have_regs = false;
    const char *base = line.text;
    while (line.len > 0) {
        const char *comma = memchr(line.text, ',', line.len);
        span part = {line.text, comma != NULL ? (size_t)(comma - line.text) : line.len};
        part = span_trim(part);
        if (span_starts(part, "used ")) {
            part = span_skip(part, 5); /* "used 1 barriers" */
        }
        int n;
        number_status got = read_number(&part, &n);
        if (got != NUMBER_OK) {
            return bad_number(err, offset + 5 + (size_t)(part.text - base), part, got);
        }
        if (span_starts(part, "registers")) {
            f.regs = n;
            have_regs = true;
        } else if (span_starts(part, "barriers")) {
            f.barriers = n;
        } else if (span_starts(part, "bytes cumulative stack size") ||
                   span_starts(part, "bytes lmem")) {
            f.stack_bytes = n;
        } else if (span_starts(part, "bytes smem")) {
            f.smem_bytes = n;
        }
        line = comma != NULL ? span_skip(line, (size_t)(comma - line.text) + 1)
                             : span_skip(line, line.len);
    }
    if (!have_regs) {
        return insp_fail(err, offset, "ptxas log: 'Used' line without a register count");
    }
    if (sink != NULL && sink->function != NULL) {
        sink->function(sink->context, &f);
    }
    st->have_current = false;
    return true;
}

bool insp_ptxas_log_parse(const char *text, size_t size, const insp_sink *sink, insp_error *err)
{
    log_state st;
    memset(&st, 0, sizeof st);
    bool expect_values = false;
    size_t at = 0;
    while (at < size) {
        const char *nl = memchr(text + at, '\n', size - at);
        size_t len = nl != NULL ? (size_t)(nl - (text + at)) : size - at;
        span line = span_trim((span){text + at, len});
        size_t offset = (size_t)(line.text - text);
        /* "ptxas info    : " and the like: the message follows the first ": " */
        span msg = line;
        if (span_starts(line, "ptxas")) {
            const char *colon = memchr(line.text, ':', line.len);
            msg =
                colon != NULL ? span_trim(span_skip(line, (size_t)(colon - line.text) + 1)) : line;
        }
        size_t msg_offset = offset + (size_t)(msg.text - line.text);
        bool was_expecting = expect_values;
        expect_values = false;
        if (span_starts(msg, "Compiling entry function")) {
            if (!on_compiling(&st, msg, true, msg_offset, err)) {
                return false;
            }
        } else if (span_starts(msg, "Compiling function")) {
            if (!on_compiling(&st, msg, false, msg_offset, err)) {
                return false;
            }
        } else if (span_starts(msg, "Function properties for")) {
            span name = span_trim(span_skip(msg, strlen("Function properties for")));
            st.props_name = name;
            st.props_frame = st.props_spill_stores = st.props_spill_loads = 0;
            expect_values = true;
        } else if (span_starts(msg, "Used ")) {
            /* errors point at "Used", or at the bad part of the line */
            if (!on_used(&st, span_skip(msg, 5), msg_offset, sink, err)) {
                return false;
            }
        } else if (was_expecting && msg.len > 0 && msg.text[0] >= '0' && msg.text[0] <= '9') {
            if (!on_properties_values(&st, msg, msg_offset, err)) {
                return false;
            }
        }
        at += len + (nl != NULL ? 1 : 0);
    }
    return true;
}
