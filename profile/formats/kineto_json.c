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
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <yajl/yajl_parse.h>
#include <zlib.h>

#include "prof_formats.h"

#define KINETO_CHUNK_BYTES (256 * 1024)
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
    occ_status status; /* set when a callback stops the parse */
    long long offset;  /* bytes fed before the current chunk */
    long long last_callback_offset;
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
    kineto_state *s = ctx;
    s->last_callback_offset = s->offset + (long long)yajl_get_bytes_consumed(s->handle);
    return s;
}

static long long where(const kineto_state *s)
{
    return s->last_callback_offset;
}

static int stop(kineto_state *s, occ_status status)
{
    s->status = status;
    return 0;
}

/* A JSON number's text as a double; false when it is not one. */
static bool number_text(const char *text, size_t length, double *out)
{
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
    double v;
    if (!number_text(text, length, &v) || v != (double)(long long)v || v < (double)lo ||
        v > (double)hi) {
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
        st = s->sink->launch(s->sink->context, &s->launch, s->err);
    }
    return st == OCC_OK ? 1 : stop(s, st);
}

static int device_end(kineto_state *s)
{
    s->in_device = false;
    s->device.name = s->device_name;
    occ_status st = s->sink->device(s->sink->context, &s->device, s->err);
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
        s->array_target = s->akey;
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

static bool key_is(const unsigned char *key, size_t length, const char *word)
{
    size_t n = strlen(word);
    return n == length && memcmp(key, word, n) == 0;
}

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

static occ_status parse_failed(kineto_state *s, const unsigned char *chunk, size_t length)
{
    if (s->status != OCC_OK) {
        return s->status;
    }
    long long at = s->offset + (long long)yajl_get_bytes_consumed(s->handle);
    unsigned char *text = yajl_get_error(s->handle, 0, chunk, length);
    occ_status st =
        prof_error(s->err, OCC_ERR_BAD_FORMAT, s->path, s->input, at,
                   "byte %lld: not valid JSON (%s)", at, text ? (const char *)text : "parse error");
    if (text) {
        yajl_free_error(s->handle, text);
    }
    return st;
}

occ_status prof_read_kineto(const char *path, int input, const prof_sink *sink,
                            occ_profile_error *err)
{
    gzFile f = gzopen(path, "rb");
    if (!f) {
        return prof_error(err, OCC_ERR_IO, path, input, -1, "cannot open");
    }
    gzbuffer(f, 128 * 1024);
    kineto_state *s = calloc(1, sizeof *s);
    unsigned char *chunk = malloc(KINETO_CHUNK_BYTES);
    if (!s || !chunk) {
        free(s);
        free(chunk);
        gzclose(f);
        return prof_error(err, OCC_ERR_OUT_OF_MEMORY, path, input, -1, "out of memory");
    }
    s->path = path;
    s->input = input;
    s->sink = sink;
    s->err = err;
    s->handle = yajl_alloc(&callbacks, NULL, s);
    occ_status st = OCC_OK;
    if (!s->handle) {
        st = prof_error(err, OCC_ERR_OUT_OF_MEMORY, path, input, -1, "out of memory");
    } else {
        yajl_config(s->handle, yajl_dont_validate_strings, 1);
    }
    while (st == OCC_OK) {
        int n = gzread(f, chunk, KINETO_CHUNK_BYTES);
        if (n < 0) {
            int code;
            const char *why = gzerror(f, &code);
            st =
                prof_error(err, code == Z_DATA_ERROR ? OCC_ERR_BAD_FORMAT : OCC_ERR_IO, path, input,
                           s->offset, "byte %lld of the decompressed text: %s", s->offset, why);
            break;
        }
        if (n == 0) {
            if (yajl_complete_parse(s->handle) != yajl_status_ok) {
                st = parse_failed(s, chunk, 0);
            }
            break;
        }
        if (yajl_parse(s->handle, chunk, (size_t)n) != yajl_status_ok) {
            st = parse_failed(s, chunk, (size_t)n);
            break;
        }
        s->offset += n;
        if (s->offset - s->last_callback_offset > KINETO_MAX_TOKEN_BYTES) {
            st = prof_error(err, OCC_ERR_LIMIT, path, input, s->last_callback_offset,
                            "byte %lld: a JSON value longer than %lld MB", s->last_callback_offset,
                            KINETO_MAX_TOKEN_BYTES >> 20);
        }
    }
    if (s->handle) {
        yajl_free(s->handle);
    }
    free(s->name);
    free(s);
    free(chunk);
    gzclose(f);
    return st;
}
