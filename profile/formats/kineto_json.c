/*
 * kineto_json.c - PyTorch profiler traces: the Chrome-trace JSON that
 * torch.profiler's export_chrome_trace writes through Kineto, plain or
 * gzipped, streamed through yajl (a streaming parser: memory does not grow
 * with the trace).
 *
 * What is read (Kineto's output_json.cpp; traces of PyTorch 2.x):
 *   "deviceProperties": [{"id", "name", "numSms", "computeMajor",
 *                         "computeMinor", ...}]
 *   "traceEvents": [{"ph": "X", "cat": "kernel", "name", "dur" (us),
 *                    "args": {"device", "registers per thread",
 *                             "shared memory" (static + dynamic bytes),
 *                             "grid": [x, y, z], "block": [x, y, z],
 *                             "est. achieved occupancy %", ...}}, ...]
 * Every other event and key is passed over. The Chrome format's bare-array
 * form ([{event}, ...]) is read too.
 */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <yajl/yajl_parse.h>
#include <zlib.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif

#include "prof_formats.h"
#include "simd_bits.h"

/* The fuzz build shrinks the chunk, so that inputs of a few KB refill the
   buffer and move what it keeps (fuzz/CMakeLists.txt). */
#ifndef KINETO_CHUNK_BYTES
#define KINETO_CHUNK_BYTES (256 * 1024)
#endif
/* Deeper nesting than any trace has is refused: yajl keeps a byte per level. */
#define KINETO_MAX_DEPTH 64
/* yajl holds a token cut by a chunk boundary whole; a value longer than this
   (no callback for this many bytes) is refused, which bounds that buffer. */
#define KINETO_MAX_TOKEN_BYTES ((long long)64 << 20)

typedef enum section { SEC_NONE, SEC_EVENTS, SEC_DEVICES } section;

typedef enum event_key {
    EK_OTHER,
    EK_CAT,
    EK_NAME,
    EK_PH,
    EK_DUR,
    EK_ARGS,
} event_key;

typedef enum arg_key {
    AK_OTHER,
    AK_DEVICE,
    AK_REGS,
    AK_SMEM,
    AK_GRID,
    AK_BLOCK,
    AK_EST,
} arg_key;

typedef enum device_key { DK_OTHER, DK_ID, DK_NAME, DK_SMS, DK_MAJOR, DK_MINOR } device_key;

typedef struct kineto_state {
    const char *path;
    int input;
    const prof_sink *sink;
    occ_profile_error *err;
    occ_status status;      /* set when a callback stops the parse */
    long long value_offset; /* where the value yajl is parsing starts in the file */
    yajl_handle handle;

    int depth;
    int events_depth; /* depth of an event's map */
    section sec;
    bool pending_section_events;  /* the key "traceEvents" was just read */
    bool pending_section_devices; /* the key "deviceProperties" */

    /* the event being read */
    bool in_event;
    event_key ekey;
    bool in_args;
    arg_key akey;
    int array_target; /* AK_GRID or AK_BLOCK while inside that array; 0 otherwise */
    int array_index;
    bool is_kernel;
    bool is_complete; /* ph "X" */
    bool has_ph;
    bool has[8]; /* by arg_key: seen */
    bool has_dur;
    prof_launch launch;
    char *name;
    size_t name_length;
    size_t name_cap;

    /* the device being read */
    bool in_device;
    device_key dkey;
    prof_device device;
    char device_name[OCC_DEVICE_NAME_BYTES];
} kineto_state;

static kineto_state *state_of(void *ctx)
{
    return ctx;
}

/* The byte offset, in the (decompressed) file, of the value being parsed:
   the event, or the deviceProperties array. */
static long long where(const kineto_state *s)
{
    return s->value_offset;
}

static int stop(kineto_state *s, occ_status status)
{
    s->status = status;
    return 0;
}

/* A JSON number's text as a double; false when it is not one. */
static bool number_text(const char *text, size_t length, double *out)
{
    /* [-]digits[.digits] with at most 15 digits, the usual "dur" and
       estimate, without strtod: the digits are a whole number below 2^53
       and 10^k (k <= 15) is exact, so one division rounds once and gives
       strtod's double (Clinger, "How to Read Floating Point Numbers
       Accurately", 1990) */
    static const double tens[16] = {1e0, 1e1, 1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                    1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};
    size_t i = length > 0 && text[0] == '-' ? 1 : 0;
    size_t first = i, point = 0;
    long long whole = 0;
    int digits = 0;
    for (; i < length && digits <= 15; i++) {
        if (text[i] >= '0' && text[i] <= '9') {
            whole = whole * 10 + (text[i] - '0');
            digits++;
        } else if (text[i] == '.' && point == 0 && i > first && i + 1 < length) {
            point = i;
        } else {
            break;
        }
    }
    if (i == length && digits > 0 && digits <= 15) {
        double v = (double)whole / tens[point ? length - point - 1 : 0];
        *out = text[0] == '-' ? -v : v;
        return true;
    }
    char buf[64];
    if (length == 0 || length >= sizeof buf) {
        return false;
    }
    memcpy(buf, text, length);
    buf[length] = '\0';
    char *end;
    errno = 0;
    double v = strtod(buf, &end);
    if (*end != '\0' || errno == ERANGE) {
        return false;
    }
    *out = v;
    return true;
}

/* A whole number in [lo, hi]; false (with the error set) otherwise. */
static bool whole_in(kineto_state *s, const char *text, size_t length, const char *field,
                     long long lo, long long hi, int *out)
{
    /* plain digits, the common case, without strtod */
    if (length > 0 && length < 10) {
        long long v = 0;
        size_t i = 0;
        while (i < length && text[i] >= '0' && text[i] <= '9') {
            v = v * 10 + (text[i++] - '0');
        }
        if (i == length && v >= lo && v <= hi) {
            *out = (int)v;
            return true;
        }
    }
    double v;
    /* the range first: converting a double outside long long's is undefined */
    if (!number_text(text, length, &v) || v < (double)lo || v > (double)hi ||
        v != (double)(long long)v) {
        prof_error(s->err, OCC_ERR_BAD_FORMAT, s->path, s->input, where(s),
                   "byte %lld: %s %.*s is not a whole number in %lld..%lld", where(s), field,
                   (int)(length > 40 ? 40 : length), text, lo, hi);
        return false;
    }
    *out = (int)v;
    return true;
}

static void event_reset(kineto_state *s)
{
    s->in_event = true;
    s->ekey = EK_OTHER;
    s->in_args = false;
    s->akey = AK_OTHER;
    s->array_target = 0;
    s->is_kernel = false;
    s->is_complete = false;
    s->has_ph = false;
    s->has_dur = false;
    memset(s->has, 0, sizeof s->has);
    memset(&s->launch, 0, sizeof s->launch);
    s->launch.static_smem_bytes = OCC_PROFILE_UNKNOWN;
    s->launch.dyn_smem_bytes = OCC_PROFILE_UNKNOWN;
    s->launch.local_bytes_per_thread = OCC_PROFILE_UNKNOWN;
    s->launch.cache_preference = -1;
    s->launch.carveout_percent = -1;
    s->launch.smem_executed_bytes = OCC_PROFILE_UNKNOWN;
    s->name_length = 0;
}

static bool keep_name(kineto_state *s, const unsigned char *text, size_t length)
{
    if (length > OCC_PROFILE_MAX_NAME_LENGTH) {
        length = OCC_PROFILE_MAX_NAME_LENGTH;
    }
    if (length + 1 > s->name_cap) {
        size_t cap = length + 1 < 256 ? 256 : length + 1;
        char *p = realloc(s->name, cap);
        if (!p) {
            return false;
        }
        s->name = p;
        s->name_cap = cap;
    }
    memcpy(s->name, text, length);
    s->name[length] = '\0';
    s->name_length = length;
    return true;
}

static const char *const arg_required[] = {
    [AK_REGS] = "registers per thread",
    [AK_SMEM] = "shared memory",
    [AK_GRID] = "grid",
    [AK_BLOCK] = "block",
};

static int event_end(kineto_state *s)
{
    s->in_event = false;
    if (!s->is_kernel || (s->has_ph && !s->is_complete)) {
        return 1;
    }
    static const arg_key needed[] = {AK_REGS, AK_SMEM, AK_GRID, AK_BLOCK};
    for (size_t i = 0; i < sizeof needed / sizeof needed[0]; i++) {
        if (!s->has[needed[i]]) {
            prof_error(s->err, OCC_ERR_BAD_FORMAT, s->path, s->input, where(s),
                       "byte %lld: kernel event '%.80s' has no \"%s\" in its args", where(s),
                       s->name_length ? s->name : "", arg_required[needed[i]]);
            return stop(s, OCC_ERR_BAD_FORMAT);
        }
    }
    if (!s->has_dur) {
        prof_error(s->err, OCC_ERR_BAD_FORMAT, s->path, s->input, where(s),
                   "byte %lld: kernel event '%.80s' has no \"dur\"", where(s),
                   s->name_length ? s->name : "");
        return stop(s, OCC_ERR_BAD_FORMAT);
    }
    s->launch.name = s->name_length ? s->name : "";
    s->launch.name_length = s->name_length;
    occ_status st = prof_launch_check(&s->launch, s->path, s->input, where(s), "byte", s->err);
    if (st == OCC_OK) {
        st = prof_error_place(s->err, s->sink->launch(s->sink->context, &s->launch, s->err),
                              s->path, where(s), "byte");
    }
    return st == OCC_OK ? 1 : stop(s, st);
}

static int device_end(kineto_state *s)
{
    s->in_device = false;
    s->device.name = s->device_name;
    occ_status st = prof_error_place(s->err, s->sink->device(s->sink->context, &s->device, s->err),
                                     s->path, where(s), "byte");
    return st == OCC_OK ? 1 : stop(s, st);
}

static int on_start_map(void *ctx)
{
    kineto_state *s = state_of(ctx);
    if (++s->depth > KINETO_MAX_DEPTH) {
        prof_error(s->err, OCC_ERR_BAD_FORMAT, s->path, s->input, where(s),
                   "byte %lld: JSON nested deeper than %d levels", where(s), KINETO_MAX_DEPTH);
        return stop(s, OCC_ERR_BAD_FORMAT);
    }
    if (s->sec == SEC_EVENTS && s->depth == s->events_depth) {
        event_reset(s);
    } else if (s->sec == SEC_EVENTS && s->in_event && s->depth == s->events_depth + 1 &&
               s->ekey == EK_ARGS) {
        s->in_args = true;
        s->akey = AK_OTHER;
    } else if (s->sec == SEC_DEVICES && s->depth == 3) {
        s->in_device = true;
        s->dkey = DK_OTHER;
        memset(&s->device, 0, sizeof s->device);
        s->device.cc_major = s->device.cc_minor = -1;
        s->device_name[0] = '\0';
    }
    return 1;
}

static int on_end_map(void *ctx)
{
    kineto_state *s = state_of(ctx);
    int rc = 1;
    if (s->sec == SEC_EVENTS && s->in_event && s->depth == s->events_depth) {
        rc = event_end(s);
    } else if (s->sec == SEC_EVENTS && s->in_args && s->depth == s->events_depth + 1) {
        s->in_args = false;
    } else if (s->sec == SEC_DEVICES && s->in_device && s->depth == 3) {
        rc = device_end(s);
    }
    s->depth--;
    return rc;
}

static int on_start_array(void *ctx)
{
    kineto_state *s = state_of(ctx);
    if (++s->depth > KINETO_MAX_DEPTH) {
        prof_error(s->err, OCC_ERR_BAD_FORMAT, s->path, s->input, where(s),
                   "byte %lld: JSON nested deeper than %d levels", where(s), KINETO_MAX_DEPTH);
        return stop(s, OCC_ERR_BAD_FORMAT);
    }
    if (s->depth == 1) { /* the bare-array form: the root is the events */
        s->sec = SEC_EVENTS;
        s->events_depth = 2;
    } else if (s->depth == 2 && s->pending_section_events) {
        s->sec = SEC_EVENTS;
        s->events_depth = 3;
    } else if (s->depth == 2 && s->pending_section_devices) {
        s->sec = SEC_DEVICES;
    } else if (s->sec == SEC_EVENTS && s->in_args && s->depth == s->events_depth + 2 &&
               (s->akey == AK_GRID || s->akey == AK_BLOCK)) {
        s->array_target = (int)s->akey;
        s->array_index = 0;
    }
    s->pending_section_events = s->pending_section_devices = false;
    return 1;
}

static int on_end_array(void *ctx)
{
    kineto_state *s = state_of(ctx);
    if (s->array_target && s->depth == s->events_depth + 2) {
        if (s->array_index != 3) {
            prof_error(s->err, OCC_ERR_BAD_FORMAT, s->path, s->input, where(s),
                       "byte %lld: \"%s\" has %d values, not 3", where(s),
                       s->array_target == AK_GRID ? "grid" : "block", s->array_index);
            return stop(s, OCC_ERR_BAD_FORMAT);
        }
        s->has[s->array_target] = true;
        s->array_target = 0;
    }
    if (s->depth == 2 || (s->depth == 1 && s->sec == SEC_EVENTS && s->events_depth == 2)) {
        s->sec = SEC_NONE;
    }
    s->depth--;
    return 1;
}

/* key equals the string literal word */
#define key_is(key, length, word)                                                                  \
    ((length) == sizeof(word) - 1 && memcmp((key), (word), sizeof(word) - 1) == 0)

static int on_map_key(void *ctx, const unsigned char *key, size_t length)
{
    kineto_state *s = state_of(ctx);
    s->pending_section_events = s->pending_section_devices = false;
    if (s->depth == 1 && s->sec == SEC_NONE) {
        s->pending_section_events = key_is(key, length, "traceEvents");
        s->pending_section_devices = key_is(key, length, "deviceProperties");
    } else if (s->sec == SEC_EVENTS && s->in_event && s->depth == s->events_depth) {
        s->ekey = key_is(key, length, "cat")    ? EK_CAT
                  : key_is(key, length, "name") ? EK_NAME
                  : key_is(key, length, "ph")   ? EK_PH
                  : key_is(key, length, "dur")  ? EK_DUR
                  : key_is(key, length, "args") ? EK_ARGS
                                                : EK_OTHER;
    } else if (s->sec == SEC_EVENTS && s->in_args && s->depth == s->events_depth + 1) {
        s->akey = key_is(key, length, "device")                      ? AK_DEVICE
                  : key_is(key, length, "registers per thread")      ? AK_REGS
                  : key_is(key, length, "shared memory")             ? AK_SMEM
                  : key_is(key, length, "grid")                      ? AK_GRID
                  : key_is(key, length, "block")                     ? AK_BLOCK
                  : key_is(key, length, "est. achieved occupancy %") ? AK_EST
                                                                     : AK_OTHER;
    } else if (s->sec == SEC_DEVICES && s->in_device && s->depth == 3) {
        s->dkey = key_is(key, length, "id")             ? DK_ID
                  : key_is(key, length, "name")         ? DK_NAME
                  : key_is(key, length, "numSms")       ? DK_SMS
                  : key_is(key, length, "computeMajor") ? DK_MAJOR
                  : key_is(key, length, "computeMinor") ? DK_MINOR
                                                        : DK_OTHER;
    }
    return 1;
}

static int on_number(void *ctx, const char *text, size_t length)
{
    kineto_state *s = state_of(ctx);
    if (s->sec == SEC_EVENTS && s->array_target && s->depth == s->events_depth + 2) {
        if (s->array_index >= 3) {
            prof_error(s->err, OCC_ERR_BAD_FORMAT, s->path, s->input, where(s),
                       "byte %lld: \"%s\" has more than 3 values", where(s),
                       s->array_target == AK_GRID ? "grid" : "block");
            return stop(s, OCC_ERR_BAD_FORMAT);
        }
        int *dims = s->array_target == AK_GRID ? s->launch.grid : s->launch.block;
        if (!whole_in(s, text, length, s->array_target == AK_GRID ? "grid" : "block", 0, INT32_MAX,
                      &dims[s->array_index])) {
            return stop(s, OCC_ERR_BAD_FORMAT);
        }
        s->array_index++;
    } else if (s->sec == SEC_EVENTS && s->in_args && s->depth == s->events_depth + 1) {
        switch (s->akey) {
        case AK_DEVICE:
            if (!whole_in(s, text, length, "device", 0, 1 << 20, &s->launch.device)) {
                return stop(s, OCC_ERR_BAD_FORMAT);
            }
            break;
        case AK_REGS:
            if (!whole_in(s, text, length, "registers per thread", 0, 65535,
                          &s->launch.regs_per_thread)) {
                return stop(s, OCC_ERR_BAD_FORMAT);
            }
            s->has[AK_REGS] = true;
            break;
        case AK_SMEM:
            if (!whole_in(s, text, length, "shared memory", 0, INT32_MAX, &s->launch.smem_bytes)) {
                return stop(s, OCC_ERR_BAD_FORMAT);
            }
            s->has[AK_SMEM] = true;
            break;
        case AK_EST: {
            double v;
            if (!number_text(text, length, &v)) {
                prof_error(s->err, OCC_ERR_BAD_FORMAT, s->path, s->input, where(s),
                           "byte %lld: est. achieved occupancy %% is not a number", where(s));
                return stop(s, OCC_ERR_BAD_FORMAT);
            }
            s->launch.has_kineto_estimate = true;
            s->launch.kineto_estimate = v / 100.0;
            break;
        }
        default: break;
        }
    } else if (s->sec == SEC_EVENTS && s->in_event && s->depth == s->events_depth &&
               s->ekey == EK_DUR) {
        double v;
        if (!number_text(text, length, &v)) {
            prof_error(s->err, OCC_ERR_BAD_FORMAT, s->path, s->input, where(s),
                       "byte %lld: \"dur\" is not a number", where(s));
            return stop(s, OCC_ERR_BAD_FORMAT);
        }
        s->launch.duration_us = v;
        s->has_dur = true;
    } else if (s->sec == SEC_DEVICES && s->in_device && s->depth == 3) {
        int *target = s->dkey == DK_ID      ? &s->device.id
                      : s->dkey == DK_SMS   ? &s->device.sm_count
                      : s->dkey == DK_MAJOR ? &s->device.cc_major
                      : s->dkey == DK_MINOR ? &s->device.cc_minor
                                            : NULL;
        if (target && !whole_in(s, text, length, "a device property", 0, 1 << 20, target)) {
            return stop(s, OCC_ERR_BAD_FORMAT);
        }
    }
    return 1;
}

static int on_string(void *ctx, const unsigned char *text, size_t length)
{
    kineto_state *s = state_of(ctx);
    if (s->sec == SEC_EVENTS && s->in_event && s->depth == s->events_depth) {
        if (s->ekey == EK_CAT) {
            s->is_kernel = length == 6 && strncasecmp((const char *)text, "kernel", 6) == 0;
        } else if (s->ekey == EK_PH) {
            s->has_ph = true;
            s->is_complete = length == 1 && text[0] == 'X';
        } else if (s->ekey == EK_NAME) {
            if (!keep_name(s, text, length)) {
                return stop(s, prof_error(s->err, OCC_ERR_OUT_OF_MEMORY, s->path, s->input, -1,
                                          "out of memory"));
            }
        }
    } else if (s->sec == SEC_DEVICES && s->in_device && s->depth == 3 && s->dkey == DK_NAME) {
        size_t n = length < sizeof s->device_name - 1 ? length : sizeof s->device_name - 1;
        memcpy(s->device_name, text, n);
        s->device_name[n] = '\0';
    } else if (s->sec == SEC_EVENTS && s->array_target) {
        prof_error(s->err, OCC_ERR_BAD_FORMAT, s->path, s->input, where(s),
                   "byte %lld: \"%s\" holds a string, not a number", where(s),
                   s->array_target == AK_GRID ? "grid" : "block");
        return stop(s, OCC_ERR_BAD_FORMAT);
    }
    return 1;
}

static int on_scalar(void *ctx)
{
    kineto_state *s = state_of(ctx);
    if (s->sec == SEC_EVENTS && s->array_target) {
        prof_error(s->err, OCC_ERR_BAD_FORMAT, s->path, s->input, where(s),
                   "byte %lld: \"%s\" holds a non-number", where(s),
                   s->array_target == AK_GRID ? "grid" : "block");
        return stop(s, OCC_ERR_BAD_FORMAT);
    }
    return 1;
}

static int on_boolean(void *ctx, int value)
{
    (void)value;
    return on_scalar(ctx);
}

static const yajl_callbacks callbacks = {
    .yajl_null = on_scalar,
    .yajl_boolean = on_boolean,
    .yajl_number = on_number,
    .yajl_string = on_string,
    .yajl_start_map = on_start_map,
    .yajl_map_key = on_map_key,
    .yajl_end_map = on_end_map,
    .yajl_start_array = on_start_array,
    .yajl_end_array = on_end_array,
};

/* ------------------------------------------------------------------------ */
/* The scan: events found by their structure, kernels parsed by yajl        */
/* ------------------------------------------------------------------------ */

/*
 * A trace is mostly CPU operators, runtime calls and flow events: a
 * PyTorch training step's has about seven events per kernel. Tokenizing
 * them all would bound the reading at yajl's speed over the whole file, so
 * the file is walked by its structure (strings, escapes, brackets) and only
 * the values that matter are handed to yajl: the deviceProperties array and
 * each event whose "cat" is "kernel" (any case). Other events are skipped
 * with their brackets and strings checked but their contents unparsed.
 */
typedef struct scanner {
    gzFile f;
    const char *path;
    int input;
    occ_profile_error *err;
    char *buf;
    size_t cap;
    size_t end;     /* bytes in buf */
    size_t mark;    /* the first byte that must be kept when buf is refilled */
    long long base; /* file offset of buf[0] */
    bool eof;
    bool avx2;          /* the processor has AVX2 (block_bits_avx2) */
    bool saw_backslash; /* skip_nested met a backslash since it was cleared */
} scanner;

/* Makes byte p available (reading more, keeping [mark, end)): true, or
   false at the end of the input or on an error (s->err then has a status). */
static bool need(scanner *s, size_t *p, occ_status *st)
{
    while (*p >= s->end) {
        if (s->eof) {
            return false;
        }
        if (s->mark > 0) { /* drop what is no longer needed */
            memmove(s->buf, s->buf + s->mark, s->end - s->mark);
            s->end -= s->mark;
            *p -= s->mark;
            s->base += (long long)s->mark;
            s->mark = 0;
        }
        if (s->cap - s->end < KINETO_CHUNK_BYTES) {
            if (s->cap >= (size_t)KINETO_MAX_TOKEN_BYTES) {
                *st = prof_error(s->err, OCC_ERR_LIMIT, s->path, s->input, s->base,
                                 "byte %lld: a JSON value (or the white space after it) longer "
                                 "than %lld MB",
                                 s->base, KINETO_MAX_TOKEN_BYTES >> 20);
                return false;
            }
            size_t cap = s->cap * 2;
            char *grown = realloc(s->buf, cap);
            if (!grown) {
                *st = prof_error(s->err, OCC_ERR_OUT_OF_MEMORY, s->path, s->input, -1,
                                 "out of memory");
                return false;
            }
            s->buf = grown;
            s->cap = cap;
        }
        int n = gzread(s->f, s->buf + s->end, (unsigned)(s->cap - s->end));
        int code = Z_OK;
        const char *why = n <= 0 ? prof_gz_error(s->f, s->path, &code) : "";
        /* gzread reports gzip data cut short (Z_BUF_ERROR) as an end, not an error */
        if (n < 0 || (n == 0 && code == Z_BUF_ERROR)) {
            long long at = s->base + (long long)s->end;
            *st = prof_error(s->err, code == Z_ERRNO ? OCC_ERR_IO : OCC_ERR_BAD_FORMAT, s->path,
                             s->input, at, "byte %lld: the gzip data cannot be decompressed: %s%s",
                             at, why, code == Z_BUF_ERROR ? " (the gzip data is cut short)" : "");
            return false;
        }
        if (n == 0) {
            s->eof = true;
        }
        s->end += (size_t)n;
    }
    return true;
}

/* need() moves the bytes it keeps (from the mark) to the front of buf and
   adjusts only the position it was given: another position taken before a
   call that may read (at or after the mark) is, after it, moved back by
   what base grew by. */
static size_t moved(const scanner *s, long long base_before, size_t at)
{
    return at - (size_t)(s->base - base_before);
}

static occ_status unexpected(scanner *s, size_t p, const char *what)
{
    long long at = s->base + (long long)p;
    if (p < s->end) {
        unsigned char c = (unsigned char)s->buf[p];
        return prof_error(s->err, OCC_ERR_BAD_FORMAT, s->path, s->input, at,
                          "byte %lld: not valid JSON: expected %s, found '%c'", at, what,
                          c >= 32 && c < 127 ? c : '?');
    }
    return prof_error(s->err, OCC_ERR_BAD_FORMAT, s->path, s->input, at,
                      "byte %lld: not valid JSON: the text ends where %s should be", at, what);
}

/* Skips white space; false at the end (st untouched) or on an error. */
static bool skip_space(scanner *s, size_t *p, occ_status *st)
{
    for (;;) {
        if (*p >= s->end && !need(s, p, st)) {
            return false;
        }
        char c = s->buf[*p];
        if (c != ' ' && c != '\n' && c != '\r' && c != '\t') {
            return true;
        }
        (*p)++;
    }
}

/* *p at a '"': past the closing quote. */
static occ_status skip_string(scanner *s, size_t *p)
{
    occ_status st = OCC_OK;
    size_t at = *p + 1;
    long long base = s->base;
    for (;;) {
        if (!need(s, &at, &st)) {
            return st != OCC_OK ? st : unexpected(s, at, "the end of a string");
        }
        *p = moved(s, base, *p); /* the opening quote, where need() left it */
        base = s->base;
        const char *q = memchr(s->buf + at, '"', s->end - at);
        const char *stop = q ? q : s->buf + s->end;
        if (!q) {
            at = s->end;
            continue;
        }
        size_t quote = (size_t)(stop - s->buf);
        size_t backslashes = 0;
        while (quote - backslashes > *p + 1 && s->buf[quote - backslashes - 1] == '\\') {
            backslashes++;
        }
        at = quote + 1;
        if (backslashes % 2 == 0) {
            *p = at;
            return OCC_OK;
        }
    }
}

/* The bytes that end a scalar (a number, true, false, null). */
static const bool scalar_end[256] = {[','] = true,  ['}'] = true,  [']'] = true, [' '] = true,
                                     ['\n'] = true, ['\r'] = true, ['\t'] = true};

static bool ends_scalar(char c)
{
    return scalar_end[(unsigned char)c];
}

/*
 * Objects and arrays are passed 64 bytes at a time, the way simdjson's
 * first stage finds structure (Langdale and Lemire, "Parsing Gigabytes of
 * JSON per Second", 2019): a bit per byte for quotes, backslashes and
 * brackets; the quotes that an odd run of backslashes escapes are dropped;
 * a prefix XOR of the quotes marks the bytes inside strings; what is left of
 * the brackets is the structure, and only those bytes are looked at one by
 * one. A training step's trace stops at a quote every few bytes, so a scan
 * that stopped at each (as this one did) was bound at about 1 GB/s.
 */
typedef struct block_bits {
    uint64_t quote, backslash, bracket;
} block_bits;

static inline __attribute__((always_inline)) block_bits block_bits_portable(const char *b)
{
    block_bits m = {0, 0, 0};
#ifdef __SSE2__
    const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\'),
                  lower = _mm_set1_epi8(0x20), open = _mm_set1_epi8('{'),
                  close = _mm_set1_epi8('}');
    for (int k = 0; k < 4; k++) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(b + 16 * k));
        /* '[' and ']' are '{' and '}' without 0x20, and nothing else is */
        __m128i folded = _mm_or_si128(v, lower);
        __m128i bracket = _mm_or_si128(_mm_cmpeq_epi8(folded, open), _mm_cmpeq_epi8(folded, close));
        m.quote |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, quote)) << (16 * k);
        m.backslash |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, backslash))
                       << (16 * k);
        m.bracket |= (uint64_t)(uint16_t)_mm_movemask_epi8(bracket) << (16 * k);
    }
#else
    for (int k = 0; k < 64; k++) {
        char c = b[k];
        m.quote |= (uint64_t)(c == '"') << k;
        m.backslash |= (uint64_t)(c == '\\') << k;
        m.bracket |= (uint64_t)(c == '{' || c == '}' || c == '[' || c == ']') << k;
    }
#endif
    return m;
}

#if defined(__x86_64__) && defined(__GNUC__)
#define KINETO_HAVE_AVX2 1
/* The same with 32 bytes at a time, on the processors that have AVX2
   (chosen when the scan starts). */
static inline __attribute__((always_inline, target("avx2"))) block_bits
block_bits_avx2(const char *b)
{
    block_bits m = {0, 0, 0};
    const __m256i quote = _mm256_set1_epi8('"'), backslash = _mm256_set1_epi8('\\'),
                  lower = _mm256_set1_epi8(0x20), open = _mm256_set1_epi8('{'),
                  close = _mm256_set1_epi8('}');
    for (int k = 0; k < 2; k++) {
        __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)(b + 32 * k));
        __m256i folded = _mm256_or_si256(v, lower);
        __m256i bracket =
            _mm256_or_si256(_mm256_cmpeq_epi8(folded, open), _mm256_cmpeq_epi8(folded, close));
        m.quote |= (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, quote))
                   << (32 * k);
        m.backslash |= (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, backslash))
                       << (32 * k);
        m.bracket |= (uint64_t)(uint32_t)_mm256_movemask_epi8(bracket) << (32 * k);
    }
    return m;
}
#endif

/* Test hook: false keeps the scan on block_bits_portable. */
bool prof_kineto_avx2 = true;

/* The bytes escaped by a backslash: each backslash not itself escaped
   escapes the byte after it. *carry says the block's first byte is escaped
   and is set when its last byte escapes the next block's first. Blocks with
   backslashes are rare in traces, so this walks their bits. */
static uint64_t escaped_bits(uint64_t backslash, bool *carry)
{
    uint64_t escaped = *carry ? 1 : 0;
    *carry = false;
    while (backslash) {
        int j = __builtin_ctzll(backslash);
        backslash &= backslash - 1;
        if (escaped >> j & 1) {
            continue;
        }
        if (j == 63) {
            *carry = true;
        } else {
            escaped |= (uint64_t)1 << (j + 1);
        }
    }
    return escaped;
}

/* *p at '{' or '[': past the bracket that closes it, 64 bytes at a time
   with bits_of. Inlined into one function for each instruction set. */
static inline __attribute__((always_inline)) occ_status
skip_nested(scanner *s, size_t *p, block_bits (*bits_of)(const char *))
{
    occ_status st = OCC_OK;
    char stack[KINETO_MAX_DEPTH];
    int depth = 0;
    uint64_t in_string = 0; /* all ones when the byte before the block is in a string */
    bool escape_carry = false;
    for (;;) {
        /* a block of 64 bytes at *p; the input's last bytes are padded with
           spaces, which end nothing */
        char tail[64];
        const char *b = s->buf + *p;
        if (s->end - *p < 64) {
            size_t more = s->end;
            long long base = s->base;
            if (!s->eof && need(s, &more, &st)) {
                *p = moved(s, base, *p);
                continue;
            }
            if (st != OCC_OK) {
                return st;
            }
            *p = moved(s, base, *p);
            if (*p >= s->end) {
                return unexpected(s, *p, "the end of an object or array");
            }
            memset(tail, ' ', sizeof tail);
            memcpy(tail, s->buf + *p, s->end - *p);
            b = tail;
        }
        block_bits m = bits_of(b);
        uint64_t quote = m.quote;
        s->saw_backslash |= m.backslash != 0;
        if (m.backslash | (uint64_t)escape_carry) {
            quote &= ~escaped_bits(m.backslash, &escape_carry);
        }
        uint64_t strings = prefix_xor(quote) ^ in_string;
        in_string = (uint64_t)((int64_t)strings >> 63);
        for (uint64_t bits = m.bracket & ~strings; bits; bits &= bits - 1) {
            size_t at = *p + (size_t)__builtin_ctzll(bits);
            char c = b[at - *p];
            if (c == '{' || c == '[') {
                if (depth == KINETO_MAX_DEPTH) {
                    long long where_at = s->base + (long long)at;
                    return prof_error(s->err, OCC_ERR_BAD_FORMAT, s->path, s->input, where_at,
                                      "byte %lld: JSON nested deeper than %d levels", where_at,
                                      KINETO_MAX_DEPTH);
                }
                stack[depth++] = c == '{' ? '}' : ']';
                continue;
            }
            if (depth == 0 || stack[depth - 1] != c) {
                return unexpected(s, at,
                                  depth ? (stack[depth - 1] == '}' ? "'}'" : "']'") : "a value");
            }
            if (--depth == 0) {
                *p = at + 1;
                return OCC_OK;
            }
        }
        if (b == tail) {
            *p = s->end;
            return unexpected(s, *p,
                              in_string ? "the end of a string" : "the end of an object or array");
        }
        *p += 64;
    }
}

static occ_status skip_nested_portable(scanner *s, size_t *p)
{
    return skip_nested(s, p, block_bits_portable);
}

#ifdef KINETO_HAVE_AVX2
__attribute__((target("avx2"))) static occ_status skip_nested_avx2(scanner *s, size_t *p)
{
    return skip_nested(s, p, block_bits_avx2);
}
#else
#define skip_nested_avx2 skip_nested_portable
#endif

/* *p at the first byte of a value: past its end. Brackets must balance
   and strings end; the contents are not parsed. */
static occ_status skip_value(scanner *s, size_t *p)
{
    occ_status st = OCC_OK;
    if (!need(s, p, &st)) {
        return st != OCC_OK ? st : unexpected(s, *p, "a value");
    }
    char c = s->buf[*p];
    if (c == '"') {
        return skip_string(s, p);
    }
    if (c != '{' && c != '[') {
        bool any = false; /* (a position before need() would be stale after it) */
        while (need(s, p, &st) && !ends_scalar(s->buf[*p])) {
            if (s->buf[*p] == '{' || s->buf[*p] == '[' || s->buf[*p] == '"' || s->buf[*p] == ':') {
                return unexpected(s, *p, "',', '}' or ']'");
            }
            (*p)++;
            any = true;
        }
        if (st != OCC_OK) {
            return st;
        }
        return any ? OCC_OK : unexpected(s, *p, "a value");
    }
    return s->avx2 ? skip_nested_avx2(s, p) : skip_nested_portable(s, p);
}

/* The first "cat" key (the five bytes "cat" with its quotes) in [p, stop);
   NULL if none. Sixteen places at a time where SSE2 is there: a place is a
   candidate when its first, second and fifth bytes are '"', 'c' and '"'
   (glibc's memmem took a sixth of a training trace's time). */
static const char *find_cat_key(const char *p, const char *stop)
{
#ifdef __SSE2__
    const __m128i quote = _mm_set1_epi8('"'), c = _mm_set1_epi8('c');
    while (stop - p >= 20) {
        __m128i first = _mm_loadu_si128((const __m128i *)(const void *)p);
        __m128i second = _mm_loadu_si128((const __m128i *)(const void *)(p + 1));
        __m128i fifth = _mm_loadu_si128((const __m128i *)(const void *)(p + 4));
        unsigned mask = (unsigned)_mm_movemask_epi8(
            _mm_and_si128(_mm_and_si128(_mm_cmpeq_epi8(first, quote), _mm_cmpeq_epi8(second, c)),
                          _mm_cmpeq_epi8(fifth, quote)));
        for (; mask; mask &= mask - 1) {
            const char *q = p + __builtin_ctz(mask);
            if (q[2] == 'a' && q[3] == 't') {
                return q;
            }
        }
        p += 16;
    }
#endif
    for (; stop - p >= 5; p++) { /* (memmem's set-up costs more than this tail) */
        if (p[0] == '"' && p[1] == 'c' && p[2] == 'a' && p[3] == 't' && p[4] == '"') {
            return p;
        }
    }
    return NULL;
}

/* Whether [text, text + length) holds "\u" (an escape of any character). */
static bool has_unicode_escape(const char *text, size_t length)
{
    for (const char *p = text, *stop = text + length;
         (p = memchr(p, '\\', (size_t)(stop - p))) != NULL && p + 1 < stop; p += 2) {
        if (p[1] == 'u') {
            return true;
        }
    }
    return false;
}

/* Whether the event in [start, end) has "cat": "kernel" (any case): no
   kernel is missed; a false match is harmless (yajl then reads the event
   and finds its real category). */
static bool maybe_kernel(const char *text, size_t length)
{
    const char *p = text, *stop = text + length;
    while (p < stop) {
        const char *q = find_cat_key(p, stop);
        if (!q) {
            return false;
        }
        p = q + 5;
        const char *v = p;
        while (v < stop && (*v == ' ' || *v == ':' || *v == '\n' || *v == '\r' || *v == '\t')) {
            v++;
        }
        if (stop - v >= 8 && v[0] == '"' && (v[1] | 0x20) == 'k' &&
            strncasecmp(v + 1, "kernel\"", 7) == 0) {
            return true;
        }
    }
    return false;
}

/* ------------------------------------------------------------------------ */
/* Kernel events of the usual shape, read without yajl                      */
/* ------------------------------------------------------------------------ */

/*
 * yajl tokenizes at about 470 MB/s on the build machine, which holds a trace
 * of kernel events (about 600 bytes each) under 0.6 M launches a second
 * before any other work (bench/profile_bench.py). A kernel event as Kineto
 * writes it has one shape: keys without escapes, the name a string, "dur" a
 * number, "args" an object of numbers and two arrays of three. fast_event
 * reads that shape from the event's bytes, which the scanner has already
 * checked for balanced brackets and ended strings; anything else in the
 * event (an escape in a string, a value of another type, an array not of
 * three numbers) sends the whole event to yajl, so both paths give the same
 * launches and the same refusals (tests/test_profile.c compares them on the
 * H200 traces).
 */
typedef enum fast_result { FAST_OK, FAST_FALLBACK, FAST_ERROR } fast_result;

static inline const char *fast_space(const char *p, const char *e)
{
    if (p < e && (unsigned char)*p > ' ') {
        return p;
    }
#ifdef __SSE2__
    /* torch.profiler indents each key of "args" by six spaces after a line
       break: sixteen bytes at a time */
    const __m128i space = _mm_set1_epi8(' '), newline = _mm_set1_epi8('\n'),
                  cr = _mm_set1_epi8('\r'), tab = _mm_set1_epi8('\t');
    while (e - p >= 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
        __m128i white =
            _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, space), _mm_cmpeq_epi8(v, newline)),
                         _mm_or_si128(_mm_cmpeq_epi8(v, cr), _mm_cmpeq_epi8(v, tab)));
        unsigned other = ~(unsigned)_mm_movemask_epi8(white) & 0xffffu;
        if (other) {
            return p + __builtin_ctz(other);
        }
        p += 16;
    }
#endif
    while (p < e && (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t')) {
        p++;
    }
    return p;
}

/* The first '"' or '\\' in [q, e); e if none. Keys and names are short,
   so one sixteen-byte compare finds most (memchr's set-up, twice a string,
   was a tenth of the reading thread's time). */
static inline const char *quote_or_backslash(const char *q, const char *e)
{
#ifdef __SSE2__
    const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\');
    while (e - q >= 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)q);
        unsigned mask = (unsigned)_mm_movemask_epi8(
            _mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash)));
        if (mask) {
            return q + __builtin_ctz(mask);
        }
        q += 16;
    }
#endif
    while (q < e && *q != '"' && *q != '\\') {
        q++;
    }
    return q;
}

/* A string without escapes at *p: its bytes, and *p past it. */
static inline bool fast_string(const char **p, const char *e, const char **text, size_t *length)
{
    if (*p >= e || **p != '"') {
        return false;
    }
    const char *q = quote_or_backslash(*p + 1, e);
    if (q == e || *q != '"') {
        return false;
    }
    *text = *p + 1;
    *length = (size_t)(q - *p - 1);
    *p = q + 1;
    return true;
}

/* A number's bytes at *p, and *p past them. */
static bool fast_number(const char **p, const char *e, const char **text, size_t *length)
{
    const char *q = *p;
    if (q >= e || !(*q == '-' || (*q >= '0' && *q <= '9'))) {
        return false;
    }
    while (q < e && !ends_scalar(*q)) {
        q++;
    }
    *text = *p;
    *length = (size_t)(q - *p);
    *p = q;
    return true;
}

/* Any value at *p: past it. */
static bool fast_skip(const char **p, const char *e)
{
    const char *q = *p;
    if (q >= e) {
        return false;
    }
    if (*q == '"') {
        for (q++;;) {
            q = quote_or_backslash(q, e);
            if (q == e) {
                return false;
            }
            if (*q == '"') {
                *p = q + 1;
                return true;
            }
            q += 2; /* a backslash and the byte it escapes */
            if (q > e) {
                return false;
            }
        }
    }
    if (*q == '{' || *q == '[') {
        int depth = 0;
        while (q < e) {
            if (*q == '"') {
                if (!fast_skip(&q, e)) {
                    return false;
                }
                continue;
            }
            if (*q == '{' || *q == '[') {
                depth++;
            } else if ((*q == '}' || *q == ']') && --depth == 0) {
                *p = q + 1;
                return true;
            }
            q++;
        }
        return false;
    }
    while (q < e && !ends_scalar(*q)) {
        q++;
    }
    if (q == *p) {
        return false;
    }
    *p = q;
    return true;
}

/* [x, y, z] of whole numbers. */
static fast_result fast_dims(kineto_state *k, const char **p, const char *e, const char *field,
                             int dims[3])
{
    const char *q = fast_space(*p, e);
    if (q >= e || *q != '[') {
        return FAST_FALLBACK;
    }
    q++;
    for (int i = 0; i < 3; i++) {
        const char *text;
        size_t length;
        q = fast_space(q, e);
        if (!fast_number(&q, e, &text, &length)) {
            return FAST_FALLBACK;
        }
        if (!whole_in(k, text, length, field, 0, INT32_MAX, &dims[i])) {
            return FAST_ERROR;
        }
        q = fast_space(q, e);
        if (q >= e || *q != (i < 2 ? ',' : ']')) {
            return FAST_FALLBACK;
        }
        q++;
    }
    *p = q;
    return FAST_OK;
}

static fast_result fast_args(kineto_state *k, const char **p, const char *e)
{
    const char *q = fast_space(*p, e);
    if (q >= e || *q != '{') {
        return FAST_FALLBACK;
    }
    q = fast_space(q + 1, e);
    if (q < e && *q == '}') {
        *p = q + 1;
        return FAST_OK;
    }
    for (;;) {
        const char *key, *text;
        size_t key_length, length;
        if (!fast_string(&q, e, &key, &key_length)) {
            return FAST_FALLBACK;
        }
        q = fast_space(q, e);
        if (q >= e || *q != ':') {
            return FAST_FALLBACK;
        }
        q = fast_space(q + 1, e);
        fast_result r = FAST_OK;
        if (key_is(key, key_length, "grid")) {
            r = fast_dims(k, &q, e, "grid", k->launch.grid);
            k->has[AK_GRID] = r == FAST_OK;
        } else if (key_is(key, key_length, "block")) {
            r = fast_dims(k, &q, e, "block", k->launch.block);
            k->has[AK_BLOCK] = r == FAST_OK;
        } else if (key_is(key, key_length, "device") ||
                   key_is(key, key_length, "registers per thread") ||
                   key_is(key, key_length, "shared memory") ||
                   key_is(key, key_length, "est. achieved occupancy %")) {
            if (!fast_number(&q, e, &text, &length)) {
                return FAST_FALLBACK;
            }
            /* the yajl path's number handling, with the key it would have set */
            k->in_args = true;
            k->depth = k->events_depth + 1;
            k->sec = SEC_EVENTS;
            on_map_key(k, (const unsigned char *)key, key_length);
            r = on_number(k, text, length) ? FAST_OK : FAST_ERROR;
            k->in_args = false;
        } else if (!fast_skip(&q, e)) {
            return FAST_FALLBACK;
        }
        if (r != FAST_OK) {
            return r;
        }
        q = fast_space(q, e);
        if (q < e && *q == ',') {
            q = fast_space(q + 1, e);
            continue;
        }
        if (q < e && *q == '}') {
            *p = q + 1;
            return FAST_OK;
        }
        return FAST_FALLBACK;
    }
}

/* One event [b, e): FAST_OK read (and handed on if a kernel), FAST_FALLBACK
   for yajl, FAST_ERROR with k->status and the error set. */
static fast_result fast_event(kineto_state *k, const char *b, const char *e)
{
    int saved_depth = k->depth, saved_events_depth = k->events_depth;
    section saved_sec = k->sec;
    event_reset(k);
    k->events_depth = 2;
    const char *q = fast_space(b + 1, e);
    fast_result r = FAST_OK;
    if (q < e && *q == '}') {
        q = e;
    }
    while (q < e && r == FAST_OK) {
        const char *key, *text;
        size_t key_length, length;
        if (!fast_string(&q, e, &key, &key_length)) {
            r = FAST_FALLBACK;
            break;
        }
        q = fast_space(q, e);
        if (q >= e || *q != ':') {
            r = FAST_FALLBACK;
            break;
        }
        q = fast_space(q + 1, e);
        if (key_is(key, key_length, "cat") || key_is(key, key_length, "ph") ||
            key_is(key, key_length, "name")) {
            if (!fast_string(&q, e, &text, &length)) {
                r = FAST_FALLBACK;
                break;
            }
            k->depth = k->events_depth;
            k->sec = SEC_EVENTS;
            on_map_key(k, (const unsigned char *)key, key_length);
            if (!on_string(k, (const unsigned char *)text, length)) {
                r = FAST_ERROR;
            }
        } else if (key_is(key, key_length, "dur")) {
            if (!fast_number(&q, e, &text, &length)) {
                r = FAST_FALLBACK;
                break;
            }
            k->depth = k->events_depth;
            k->sec = SEC_EVENTS;
            k->ekey = EK_DUR;
            if (!on_number(k, text, length)) {
                r = FAST_ERROR;
            }
        } else if (key_is(key, key_length, "args")) {
            r = fast_args(k, &q, e);
        } else if (!fast_skip(&q, e)) {
            r = FAST_FALLBACK;
        }
        if (r != FAST_OK) {
            break;
        }
        q = fast_space(q, e);
        if (q < e && *q == ',') {
            q = fast_space(q + 1, e);
            continue;
        }
        if (q < e && *q == '}' && fast_space(q + 1, e) == e) {
            break;
        }
        r = FAST_FALLBACK;
    }
    if (r == FAST_OK) {
        k->depth = k->events_depth;
        k->sec = SEC_EVENTS;
        r = event_end(k) ? FAST_OK : FAST_ERROR;
    }
    k->in_event = false;
    k->in_args = false;
    k->depth = saved_depth;
    k->events_depth = saved_events_depth;
    k->sec = saved_sec;
    return r;
}

/* Test hook: false sends every kernel event to yajl. */
bool prof_kineto_fast_path = true;

static occ_status feed(kineto_state *k, const char *text, size_t length)
{
    if (yajl_parse(k->handle, (const unsigned char *)text, length) == yajl_status_ok) {
        return OCC_OK;
    }
    if (k->status != OCC_OK) {
        return k->status;
    }
    unsigned char *why = yajl_get_error(k->handle, 0, NULL, 0);
    /* yajl ends its message with a newline */
    int why_length = why ? (int)strcspn((const char *)why, "\n") : 0;
    occ_status st = prof_error(k->err, OCC_ERR_BAD_FORMAT, k->path, k->input, k->value_offset,
                               "byte %lld: not valid JSON in this value (%.*s)", k->value_offset,
                               why ? why_length : 11, why ? (const char *)why : "parse error");
    if (why) {
        yajl_free_error(k->handle, why);
    }
    return st;
}

static occ_status feed_end(kineto_state *k)
{
    if (yajl_complete_parse(k->handle) == yajl_status_ok) {
        return OCC_OK;
    }
    if (k->status != OCC_OK) {
        return k->status;
    }
    return prof_error(k->err, OCC_ERR_BAD_FORMAT, k->path, k->input, k->value_offset,
                      "byte %lld: not valid JSON in this value", k->value_offset);
}

static kineto_state *state_new(const char *path, int input, const prof_sink *sink,
                               occ_profile_error *err)
{
    kineto_state *k = calloc(1, sizeof *k);
    if (!k) {
        return NULL;
    }
    k->path = path;
    k->input = input;
    k->sink = sink;
    k->err = err;
    k->handle = yajl_alloc(&callbacks, NULL, k);
    if (!k->handle) {
        free(k);
        return NULL;
    }
    yajl_config(k->handle, yajl_dont_validate_strings, 1);
    return k;
}

static void state_free(kineto_state *k)
{
    if (k) {
        yajl_free(k->handle);
        free(k->name);
        free(k);
    }
}

/* ------------------------------------------------------------------------ */
/* Two stages on two threads: the scan, and the events it finds             */
/* ------------------------------------------------------------------------ */

/*
 * The scan (this thread) copies each value worth reading (an event that may
 * be a kernel, the deviceProperties array) into a batch; the reader (a
 * second thread) parses the batches in order and hands launches to the
 * sink, which only it touches. KINETO_BATCHES batches of about 1 MB go
 * round in a ring, so the memory is bounded, the order of launches is the
 * file's, and neither stage waits on the other's bursts (with two, a tenth
 * of a training trace's time went to waiting). Each stage
 * keeps its own error; the reader's comes first in the file, so it wins.
 * Where a thread cannot be started the reader runs in this thread.
 */
enum { ITEM_EVENT = 1, ITEM_DEVICES = 2 };
/* the fuzz build makes batches small, so they change hands often */
#ifndef KINETO_BATCH_BYTES
#define KINETO_BATCH_BYTES (1u << 20)
#endif
#define KINETO_BATCH_ITEMS 4096
#define KINETO_BATCHES 4

typedef struct item {
    unsigned char kind;
    long long offset; /* in the file */
    size_t start, length;
} item;

typedef struct batch {
    char *bytes;
    size_t used, cap;
    item *items;
    size_t count, items_cap;
} batch;

typedef struct reader_stage {
    kineto_state *k; /* the event stream's yajl parser and the launch being read */
    const prof_sink *sink;
    occ_profile_error err; /* the reader's own error */
    occ_status status;
    bool fed; /* events given to yajl */
} reader_stage;

typedef struct pipeline {
    pthread_t thread;
    bool threaded;
    pthread_mutex_t lock;
    pthread_cond_t changed;
    batch batches[KINETO_BATCHES];
    bool full[KINETO_BATCHES];
    int fill;     /* the batch the scan fills */
    bool closing; /* the scan is done */
    bool failed;  /* the reader stopped on an error */
    reader_stage reader;
} pipeline;

static occ_status read_devices_value(reader_stage *r, const char *text, size_t length,
                                     long long offset)
{
    kineto_state *k = state_new(r->k->path, r->k->input, r->sink, &r->err);
    if (!k) {
        return prof_error(&r->err, OCC_ERR_OUT_OF_MEMORY, r->k->path, r->k->input, -1,
                          "out of memory");
    }
    k->value_offset = offset;
    static const char head[] = "{\"deviceProperties\":";
    occ_status st = feed(k, head, sizeof head - 1);
    if (st == OCC_OK) {
        st = feed(k, text, length);
    }
    if (st == OCC_OK) {
        st = feed(k, "}", 1);
    }
    if (st == OCC_OK) {
        st = feed_end(k);
    }
    state_free(k);
    return st;
}

static occ_status read_event_value(reader_stage *r, const char *text, size_t length,
                                   long long offset)
{
    kineto_state *k = r->k;
    k->value_offset = offset;
    fast_result f = prof_kineto_fast_path ? fast_event(k, text, text + length) : FAST_FALLBACK;
    if (f == FAST_ERROR) {
        return k->status != OCC_OK ? k->status : OCC_ERR_BAD_FORMAT;
    }
    if (f == FAST_OK) {
        return OCC_OK;
    }
    occ_status st = feed(k, r->fed ? "," : "[", 1);
    if (st == OCC_OK) {
        st = feed(k, text, length);
    }
    r->fed = true;
    return st;
}

static void read_batch(reader_stage *r, const batch *b)
{
    for (size_t i = 0; i < b->count && r->status == OCC_OK; i++) {
        const item *it = &b->items[i];
        const char *text = b->bytes + it->start;
        r->status = it->kind == ITEM_DEVICES ? read_devices_value(r, text, it->length, it->offset)
                                             : read_event_value(r, text, it->length, it->offset);
    }
}

static void *reader_thread(void *context)
{
    pipeline *pl = context;
    int i = 0;
    pthread_mutex_lock(&pl->lock);
    for (;;) {
        while (!pl->full[i] && !pl->closing) {
            pthread_cond_wait(&pl->changed, &pl->lock);
        }
        if (!pl->full[i]) {
            break;
        }
        pthread_mutex_unlock(&pl->lock);
        if (pl->reader.status == OCC_OK) {
            read_batch(&pl->reader, &pl->batches[i]);
        }
        pthread_mutex_lock(&pl->lock);
        pl->failed = pl->reader.status != OCC_OK;
        pl->full[i] = false;
        pl->batches[i].used = pl->batches[i].count = 0;
        pthread_cond_broadcast(&pl->changed);
        i = (i + 1) % KINETO_BATCHES;
    }
    pthread_mutex_unlock(&pl->lock);
    return NULL;
}

/* Gives the filled batch to the reader and takes the other, once read.
   OCC_OK, or the reader's status when it has stopped. */
static occ_status hand_off(pipeline *pl)
{
    if (!pl->threaded) {
        batch *b = &pl->batches[0];
        if (pl->reader.status == OCC_OK) {
            read_batch(&pl->reader, b);
        }
        b->used = b->count = 0;
        return pl->reader.status;
    }
    pthread_mutex_lock(&pl->lock);
    pl->full[pl->fill] = true;
    pthread_cond_broadcast(&pl->changed);
    pl->fill = (pl->fill + 1) % KINETO_BATCHES;
    while (pl->full[pl->fill] && !pl->failed) {
        pthread_cond_wait(&pl->changed, &pl->lock);
    }
    bool failed = pl->failed;
    pthread_mutex_unlock(&pl->lock);
    return failed ? OCC_ERR_BAD_FORMAT : OCC_OK;
}

/* Copies a value into the batch being filled. */
static occ_status emit(pipeline *pl, scanner *s, unsigned char kind, size_t start, size_t end)
{
    batch *b = &pl->batches[pl->fill];
    size_t length = end - start;
    if (b->used + length > b->cap) {
        size_t cap = b->cap ? b->cap : KINETO_BATCH_BYTES;
        while (cap < b->used + length) {
            cap *= 2;
        }
        char *bytes = realloc(b->bytes, cap);
        if (!bytes) {
            return prof_error(s->err, OCC_ERR_OUT_OF_MEMORY, s->path, s->input, -1,
                              "out of memory");
        }
        b->bytes = bytes;
        b->cap = cap;
    }
    if (b->count == b->items_cap) {
        size_t cap = b->items_cap ? b->items_cap * 2 : KINETO_BATCH_ITEMS;
        item *items = realloc(b->items, cap * sizeof *items);
        if (!items) {
            return prof_error(s->err, OCC_ERR_OUT_OF_MEMORY, s->path, s->input, -1,
                              "out of memory");
        }
        b->items = items;
        b->items_cap = cap;
    }
    memcpy(b->bytes + b->used, s->buf + start, length);
    b->items[b->count++] = (item){kind, s->base + (long long)start, b->used, length};
    b->used += length;
    if (b->used >= KINETO_BATCH_BYTES || b->count >= KINETO_BATCH_ITEMS) {
        return hand_off(pl);
    }
    return OCC_OK;
}

/* The deviceProperties array at *p, for the reader. */
static occ_status read_devices(scanner *s, size_t *p, pipeline *pl)
{
    size_t start = *p;
    long long base = s->base;
    s->mark = start;
    occ_status st = skip_value(s, p);
    return st != OCC_OK ? st : emit(pl, s, ITEM_DEVICES, moved(s, base, start), *p);
}

/* The events array at *p ('['): each event that may be a kernel to the
   reader, the rest skipped. */
static occ_status read_events(scanner *s, size_t *p, pipeline *pl)
{
    occ_status st = OCC_OK;
    (*p)++; /* '[' */
    bool first = true;
    for (;;) {
        if (!skip_space(s, p, &st)) {
            return st != OCC_OK ? st : unexpected(s, *p, "an event or ']'");
        }
        if (s->buf[*p] == ']' && first) {
            (*p)++;
            break;
        }
        size_t start = *p;
        long long base = s->base;
        s->mark = start;
        s->saw_backslash = false;
        st = skip_value(s, p);
        if (st != OCC_OK) {
            return st;
        }
        start = moved(s, base, start);
        /* a \u escape can spell "cat" or "kernel" ("c\u0061t"): yajl
           reads such an event (rare) and finds its real category */
        if (s->buf[start] == '{' &&
            (maybe_kernel(s->buf + start, *p - start) ||
             (s->saw_backslash && has_unicode_escape(s->buf + start, *p - start)))) {
            st = emit(pl, s, ITEM_EVENT, start, *p);
            if (st != OCC_OK) {
                return st;
            }
        }
        first = false;
        if (!skip_space(s, p, &st)) {
            return st != OCC_OK ? st : unexpected(s, *p, "',' or ']' after an event");
        }
        char c = s->buf[*p];
        (*p)++;
        if (c == ']') {
            break;
        }
        if (c != ',') {
            return unexpected(s, *p - 1, "',' or ']' after an event");
        }
    }
    s->mark = *p;
    return OCC_OK;
}

static occ_status read_root_object(scanner *s, size_t *p, pipeline *pl)
{
    occ_status st = OCC_OK;
    (*p)++; /* '{' */
    bool first = true;
    for (;;) {
        if (!skip_space(s, p, &st)) {
            return st != OCC_OK ? st : unexpected(s, *p, "a key or '}'");
        }
        if (s->buf[*p] == '}' && first) {
            (*p)++;
            return OCC_OK;
        }
        if (s->buf[*p] != '"') {
            return unexpected(s, *p, "a key");
        }
        size_t key = *p;
        long long base = s->base;
        s->mark = key;
        st = skip_string(s, p);
        if (st != OCC_OK) {
            return st;
        }
        key = moved(s, base, key);
        size_t key_length = *p - key;
        bool events = key_length == 13 && memcmp(s->buf + key, "\"traceEvents\"", 13) == 0;
        bool devices = key_length == 18 && memcmp(s->buf + key, "\"deviceProperties\"", 18) == 0;
        if (!skip_space(s, p, &st) || s->buf[*p] != ':') {
            return st != OCC_OK ? st : unexpected(s, *p, "':'");
        }
        (*p)++;
        if (!skip_space(s, p, &st)) {
            return st != OCC_OK ? st : unexpected(s, *p, "a value");
        }
        s->mark = *p;
        if (events && s->buf[*p] == '[') {
            st = read_events(s, p, pl);
        } else if (devices) {
            st = read_devices(s, p, pl);
        } else {
            st = skip_value(s, p);
        }
        if (st != OCC_OK) {
            return st;
        }
        s->mark = *p;
        first = false;
        if (!skip_space(s, p, &st)) {
            return st != OCC_OK ? st : unexpected(s, *p, "',' or '}'");
        }
        char c = s->buf[*p];
        (*p)++;
        if (c == '}') {
            return OCC_OK;
        }
        if (c != ',') {
            return unexpected(s, *p - 1, "',' or '}'");
        }
    }
}

occ_status prof_read_kineto(const char *path, int input, const prof_sink *sink,
                            occ_profile_error *err)
{
    scanner s = {.path = path, .input = input, .err = err};
#ifdef KINETO_HAVE_AVX2
    s.avx2 = prof_kineto_avx2 && __builtin_cpu_supports("avx2");
#endif
    s.f = gzopen(path, "rb");
    if (!s.f) {
        return prof_error(err, OCC_ERR_IO, path, input, -1, "cannot open");
    }
    gzbuffer(s.f, 128 * 1024);
    s.cap = 4 * KINETO_CHUNK_BYTES;
    s.buf = malloc(s.cap);
    pipeline *pl = calloc(1, sizeof *pl);
    occ_status st = OCC_OK;
    if (!s.buf || !pl) {
        st = prof_error(err, OCC_ERR_OUT_OF_MEMORY, path, input, -1, "out of memory");
    } else {
        pl->reader.sink = sink;
        pl->reader.k = state_new(path, input, sink, &pl->reader.err);
        if (!pl->reader.k) {
            st = prof_error(err, OCC_ERR_OUT_OF_MEMORY, path, input, -1, "out of memory");
        } else if (pthread_mutex_init(&pl->lock, NULL) == 0) {
            if (pthread_cond_init(&pl->changed, NULL) == 0) {
                pl->threaded = pthread_create(&pl->thread, NULL, reader_thread, pl) == 0;
                if (!pl->threaded) {
                    pthread_cond_destroy(&pl->changed);
                    pthread_mutex_destroy(&pl->lock);
                }
            } else {
                pthread_mutex_destroy(&pl->lock);
            }
        }
    }
    size_t p = 0;
    if (st == OCC_OK && !skip_space(&s, &p, &st) && st == OCC_OK) {
        st = prof_error(err, OCC_ERR_BAD_FORMAT, path, input, 0, "empty: not a trace");
    }
    if (st == OCC_OK) {
        /* the Chrome trace format: {"traceEvents": [...], ...} or [...] */
        if (s.buf[p] == '{') {
            st = read_root_object(&s, &p, pl);
        } else if (s.buf[p] == '[') {
            st = read_events(&s, &p, pl);
        } else {
            st = unexpected(&s, p, "'{' or '['");
        }
    }
    if (st == OCC_OK && skip_space(&s, &p, &st)) {
        st = unexpected(&s, p, "the end of the text after the trace");
    }
    if (pl && pl->reader.k) {
        /* the last batch, then the reader's end */
        if (pl->batches[pl->fill].count) {
            hand_off(pl);
        }
        if (pl->threaded) {
            pthread_mutex_lock(&pl->lock);
            pl->closing = true;
            pthread_cond_broadcast(&pl->changed);
            pthread_mutex_unlock(&pl->lock);
            pthread_join(pl->thread, NULL);
            pthread_cond_destroy(&pl->changed);
            pthread_mutex_destroy(&pl->lock);
        }
        reader_stage *r = &pl->reader;
        if (r->status == OCC_OK && r->fed) {
            r->status = feed(r->k, "]", 1);
            if (r->status == OCC_OK) {
                r->status = feed_end(r->k);
            }
        }
        /* the reader's error is earlier in the file than the scan's */
        if (r->status != OCC_OK) {
            st = r->status;
            if (err) {
                *err = r->err;
            }
        }
        state_free(r->k);
        for (int i = 0; i < KINETO_BATCHES; i++) {
            free(pl->batches[i].bytes);
            free(pl->batches[i].items);
        }
    }
    free(pl);
    free(s.buf);
    gzclose(s.f);
    return st;
}
