/*
 * baseline.c - reads the baselines `occ inspect --save` writes (schema
 * occ.baseline, docs/json.md): every function's resources as JSON, so that a
 * later build can be compared with this one (`occ diff`) and each function's
 * occupancy computed again on any GPU.
 *
 * The document is checked as JSON (RFC 8259) throughout, whatever its
 * layout: the writer's one function per line, or a copy reformatted by jq.
 * insp_baseline_split walks the frame and cuts the "functions" array into
 * parts of whole objects; insp_baseline_parse reads the objects of one part,
 * so parts are read on several threads. Keys a reader does not know are
 * skipped (later versions may add some); a version above
 * INSP_BASELINE_VERSION is refused, since it may have changed a meaning, and
 * so is a key met twice in one object, at any depth. baseline_write.c
 * writes what this reads.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "bytes.h"
#include "json_stream.h"
#include "occ_inspect.h"

/* Nesting a skipped value may have: the writer nests 3 deep; more is not a
   baseline, and a bound keeps a hostile file from exhausting the stack. */
#define MAX_DEPTH 32

/*
 * The keys of the objects being read, innermost last, so that a key met
 * twice in one object is refused: RFC 8259 leaves what a duplicate means to
 * the reader (jq keeps the last; this reader took a function's "regs" 32
 * then 64 as 64, and "version" 2 then 1 as 1, past the version check), so a
 * document that has one does not say what it holds.
 */
typedef struct key_span {
    size_t from, len; /* in key_stack.text */
} key_span;

typedef struct key_stack {
    key_span *keys;
    size_t count, cap;
    char *text; /* the keys' decoded bytes, back to back */
    size_t text_bytes, text_cap;
    uint8_t *scratch; /* where a key with escapes is decoded */
    size_t scratch_cap;
} key_stack;

typedef struct cursor {
    const uint8_t *data;
    size_t size;
    size_t at;
    insp_error *err;
    key_stack *keys; /* NULL: keys are not checked (the split passes over
                        function objects, which insp_baseline_parse reads) */
} cursor;

static bool fail_at(cursor *c, size_t at, const char *what)
{
    return insp_fail(c->err, at, "baseline: %s", what);
}

static void key_stack_free(key_stack *k)
{
    free(k->keys);
    free(k->text);
    free(k->scratch);
}

/* Forgets the keys from `mark` on: those of an object that has closed. */
static void key_stack_pop(key_stack *k, size_t mark)
{
    if (mark < k->count) {
        k->text_bytes = k->keys[mark].from;
        k->count = mark;
    }
}

/* Refuses `key` where the object whose keys start at `mark` already has
   it; else remembers it. `where` names the object in the message. */
static bool key_once(cursor *c, size_t mark, const char *key, size_t len, size_t key_at,
                     const char *where)
{
    key_stack *k = c->keys;
    for (size_t i = mark; i < k->count; i++) {
        /* an empty key has no text (k->text may still be NULL) */
        if (k->keys[i].len == len &&
            (len == 0 || memcmp(k->text + k->keys[i].from, key, len) == 0)) {
            char shown[96];
            return insp_fail(c->err, key_at, "baseline: \"%s\" appears twice in %s",
                             insp_message_text(key, len, 60, shown, sizeof shown), where);
        }
    }
    if (k->count == k->cap) {
        size_t cap = k->cap > 0 ? k->cap * 2 : 16;
        key_span *bigger = realloc(k->keys, cap * sizeof *bigger);
        if (bigger == NULL) {
            return insp_fail(c->err, key_at, "baseline: out of memory");
        }
        k->keys = bigger;
        k->cap = cap;
    }
    if (len > k->text_cap - k->text_bytes) {
        size_t cap = k->text_cap > 0 ? k->text_cap : 256;
        while (cap - k->text_bytes < len) {
            cap *= 2;
        }
        char *bigger = realloc(k->text, cap);
        if (bigger == NULL) {
            return insp_fail(c->err, key_at, "baseline: out of memory");
        }
        k->text = bigger;
        k->text_cap = cap;
    }
    if (len > 0) {
        memcpy(k->text + k->text_bytes, key, len);
    }
    k->keys[k->count++] = (key_span){k->text_bytes, len};
    k->text_bytes += len;
    return true;
}

static void skip_space(cursor *c)
{
    while (c->at < c->size) {
        uint8_t b = c->data[c->at];
        if (b != ' ' && b != '\t' && b != '\n' && b != '\r') {
            return;
        }
        c->at++;
    }
}

/* What peek returns at the end of the buffer: not a byte, so that a NUL in
   the document is never taken for its end. */
#define AT_END (-1)

/* The next byte after white space, or AT_END. */
static int peek(cursor *c)
{
    skip_space(c);
    return c->at < c->size ? c->data[c->at] : AT_END;
}

static bool expect(cursor *c, int want, const char *what)
{
    if (peek(c) != want) {
        return fail_at(c, c->at, what);
    }
    c->at++;
    return true;
}

static int hex_value(uint8_t b)
{
    if (b >= '0' && b <= '9') {
        return b - '0';
    }
    if (b >= 'a' && b <= 'f') {
        return b - 'a' + 10;
    }
    if (b >= 'A' && b <= 'F') {
        return b - 'A' + 10;
    }
    return -1;
}

static bool read_hex4(cursor *c, size_t at, unsigned *out)
{
    if (!insp_fits(c->size, at, 4)) {
        return fail_at(c, at, "\\u escape cut short");
    }
    unsigned v = 0;
    for (int i = 0; i < 4; i++) {
        int h = hex_value(c->data[at + (size_t)i]);
        if (h < 0) {
            return fail_at(c, at, "\\u escape is not four hex digits");
        }
        v = v * 16 + (unsigned)h;
    }
    *out = v;
    return true;
}

/* UTF-8 of a code point (RFC 3629) into out; returns its length. */
static size_t put_utf8(unsigned cp, uint8_t *out)
{
    if (cp < 0x80) {
        out[0] = (uint8_t)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (uint8_t)(0xC0 | (cp >> 6));
        out[1] = (uint8_t)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (uint8_t)(0xE0 | (cp >> 12));
        out[1] = (uint8_t)(0x80 | ((cp >> 6) & 0x3F));
        out[2] = (uint8_t)(0x80 | (cp & 0x3F));
        return 3;
    }
    out[0] = (uint8_t)(0xF0 | (cp >> 18));
    out[1] = (uint8_t)(0x80 | ((cp >> 12) & 0x3F));
    out[2] = (uint8_t)(0x80 | ((cp >> 6) & 0x3F));
    out[3] = (uint8_t)(0x80 | (cp & 0x3F));
    return 4;
}

/* One escape after its backslash at c->at (which moves past it); the
   decoded bytes go to out (at least 4 bytes of room) when out is not NULL. */
static bool read_escape(cursor *c, uint8_t *out, size_t *len)
{
    size_t at = c->at;
    if (at >= c->size) {
        return fail_at(c, at, "string cut short after a backslash");
    }
    static const char simple_from[] = "\"\\/bfnrt";
    static const char simple_to[] = "\"\\/\b\f\n\r\t";
    const char *hit = c->data[at] != 0 ? strchr(simple_from, c->data[at]) : NULL;
    if (hit != NULL) {
        if (out != NULL) {
            out[0] = (uint8_t)simple_to[hit - simple_from];
        }
        *len = 1;
        c->at = at + 1;
        return true;
    }
    if (c->data[at] != 'u') {
        return fail_at(c, at, "unknown escape in a string");
    }
    unsigned cp;
    if (!read_hex4(c, at + 1, &cp)) {
        return false;
    }
    at += 5;
    if (cp >= 0xD800 && cp <= 0xDBFF) {
        /* a UTF-16 surrogate pair (RFC 8259, section 7) */
        unsigned low;
        if (!insp_fits(c->size, at, 2) || c->data[at] != '\\' || c->data[at + 1] != 'u' ||
            !read_hex4(c, at + 2, &low) || low < 0xDC00 || low > 0xDFFF) {
            return fail_at(c, at, "a high surrogate escape without its low half");
        }
        cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
        at += 6;
    } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
        return fail_at(c, at, "a low surrogate escape without its high half");
    }
    uint8_t scratch[4];
    *len = put_utf8(cp, out != NULL ? out : scratch);
    c->at = at;
    return true;
}

/*
 * A string at c->at (its opening quote). Without escapes *text points into
 * the document; with them it is decoded into *buffer (grown as needed; free
 * it after the last string). With `buffer` NULL the string is only checked.
 */
static bool read_string(cursor *c, const char **text, size_t *len, uint8_t **buffer,
                        size_t *buffer_cap)
{
    if (peek(c) != '"') {
        return fail_at(c, c->at, "expected a string");
    }
    size_t start = ++c->at;
    size_t end = start;
    bool escaped = false;
    for (;;) {
        if (end >= c->size) {
            return fail_at(c, start - 1, "string without its closing quote");
        }
        uint8_t b = c->data[end];
        if (b == '"') {
            break;
        }
        if (b < 0x20) {
            return fail_at(c, end, "control character inside a string (RFC 8259 wants it escaped)");
        }
        if (b == '\\') {
            escaped = true;
            end += 2; /* the escape's first byte is never a quote that ends the string */
            continue;
        }
        if (b >= 0x80) {
            size_t n = json_utf8_sequence(c->data + end, c->size - end);
            if (n == 0) {
                return insp_fail(c->err, end,
                                 "baseline: byte 0x%02x in a string is not UTF-8, which "
                                 "RFC 8259 requires of JSON",
                                 b);
            }
            end += n;
            continue;
        }
        end++;
    }
    if (!escaped) {
        if (text != NULL) {
            *text = (const char *)c->data + start;
            *len = end - start;
        }
        c->at = end + 1;
        return true;
    }
    /* decoded, never longer than the escaped form */
    size_t need = end - start + 4;
    if (buffer != NULL && *buffer_cap < need) {
        uint8_t *bigger = realloc(*buffer, need);
        if (bigger == NULL) {
            return fail_at(c, start, "out of memory for a string");
        }
        *buffer = bigger;
        *buffer_cap = need;
    }
    size_t n = 0;
    c->at = start;
    while (c->data[c->at] != '"') {
        uint8_t b = c->data[c->at];
        size_t got = 1;
        if (b == '\\') {
            c->at++;
            if (!read_escape(c, buffer != NULL ? *buffer + n : NULL, &got)) {
                return false;
            }
        } else {
            if (buffer != NULL) {
                (*buffer)[n] = b;
            }
            c->at++;
        }
        n += got;
    }
    c->at++;
    if (text != NULL) {
        *text = buffer != NULL ? (const char *)*buffer : NULL;
        *len = n;
    }
    return true;
}

static bool is_digit(uint8_t b)
{
    return b >= '0' && b <= '9';
}

/* A JSON number (RFC 8259 grammar); *integer says whether it had neither a
   fraction nor an exponent, and *value holds it then (clamped far beyond
   any int, so a caller's range check refuses it). */
static bool read_number(cursor *c, bool *integer, long long *value)
{
    size_t at = c->at;
    bool negative = false;
    if (at < c->size && c->data[at] == '-') {
        negative = true;
        at++;
    }
    if (at >= c->size || !is_digit(c->data[at])) {
        return fail_at(c, c->at, "expected a number");
    }
    long long v = 0;
    if (c->data[at] == '0') {
        at++;
    } else {
        while (at < c->size && is_digit(c->data[at])) {
            if (v < (1LL << 40)) {
                v = v * 10 + (c->data[at] - '0');
            }
            at++;
        }
    }
    *integer = true;
    if (at < c->size && c->data[at] == '.') {
        *integer = false;
        at++;
        if (at >= c->size || !is_digit(c->data[at])) {
            return fail_at(c, at, "a number's fraction has no digits");
        }
        while (at < c->size && is_digit(c->data[at])) {
            at++;
        }
    }
    if (at < c->size && (c->data[at] == 'e' || c->data[at] == 'E')) {
        *integer = false;
        at++;
        if (at < c->size && (c->data[at] == '+' || c->data[at] == '-')) {
            at++;
        }
        if (at >= c->size || !is_digit(c->data[at])) {
            return fail_at(c, at, "a number's exponent has no digits");
        }
        while (at < c->size && is_digit(c->data[at])) {
            at++;
        }
    }
    *value = negative ? -v : v;
    c->at = at;
    return true;
}

static bool read_literal(cursor *c, const char *word)
{
    size_t n = strlen(word);
    if (!insp_fits(c->size, c->at, n) || memcmp(c->data + c->at, word, n) != 0) {
        return fail_at(c, c->at, "expected a JSON value");
    }
    c->at += n;
    return true;
}

/* Any value, checked and skipped. */
static bool skip_value(cursor *c, int depth)
{
    if (depth > MAX_DEPTH) {
        return fail_at(c, c->at, "values nested deeper than 32 levels");
    }
    int b = peek(c);
    if (b == '"') {
        return read_string(c, NULL, NULL, NULL, NULL);
    }
    if (b == '{' || b == '[') {
        int close = b == '{' ? '}' : ']';
        c->at++;
        if (peek(c) == close) {
            c->at++;
            return true;
        }
        size_t mark = c->keys != NULL ? c->keys->count : 0;
        for (;;) {
            if (b == '{' && c->keys == NULL && !read_string(c, NULL, NULL, NULL, NULL)) {
                return false;
            }
            if (b == '{' && c->keys != NULL) {
                const char *key;
                size_t len;
                skip_space(c);
                size_t key_at = c->at;
                if (!read_string(c, &key, &len, &c->keys->scratch, &c->keys->scratch_cap) ||
                    !key_once(c, mark, key, len, key_at, "one object")) {
                    return false;
                }
            }
            if (b == '{' && !expect(c, ':', "expected ':' after a key")) {
                return false;
            }
            if (!skip_value(c, depth + 1)) {
                return false;
            }
            int next = peek(c);
            if (next == close) {
                c->at++;
                if (c->keys != NULL) {
                    key_stack_pop(c->keys, mark);
                }
                return true;
            }
            if (!expect(c, ',',
                        b == '{' ? "expected ',' or '}' in an object"
                                 : "expected ',' or ']' in an array")) {
                return false;
            }
        }
    }
    if (b == '-' || (b >= '0' && b <= '9')) {
        bool integer;
        long long v;
        return read_number(c, &integer, &v);
    }
    if (b == 't') {
        return read_literal(c, "true");
    }
    if (b == 'f') {
        return read_literal(c, "false");
    }
    if (b == 'n') {
        return read_literal(c, "null");
    }
    return fail_at(c, c->at,
                   b == AT_END ? "document cut short (truncated?)" : "expected a JSON value");
}

static bool key_is(const char *key, size_t len, const char *want)
{
    return len == strlen(want) && memcmp(key, want, len) == 0;
}

/* ---- the frame ----------------------------------------------------------- */

typedef struct split_state {
    insp_region_fn found;
    void *context;
    size_t part_bytes;
    size_t functions; /* elements met so far */
} split_state;

/* The "functions" array: each element checked as JSON, the parts reported
   at element boundaries. */
static bool split_elements(cursor *c, split_state *s)
{
    if (!expect(c, '[', "\"functions\" is not an array")) {
        return false;
    }
    if (peek(c) == ']') {
        c->at++;
        return true;
    }
    size_t part_start = c->at;
    for (;;) {
        if (peek(c) != '{') {
            return fail_at(c, c->at, "an element of \"functions\" is not an object");
        }
        if (s->functions++ == OCC_INSPECT_MAX_BASELINE_FUNCTIONS) {
            /* refused before any row is made: the rows of a result, not the
               text, are what costs memory (include/occ_inspect.h) */
            return insp_fail_limit(c->err, c->at,
                                   "baseline: more than %d functions, the most a baseline may "
                                   "hold (OCC_INSPECT_MAX_BASELINE_FUNCTIONS, which keeps two "
                                   "of them read at once under 256 MB)",
                                   OCC_INSPECT_MAX_BASELINE_FUNCTIONS);
        }
        if (!skip_value(c, 1)) {
            return false;
        }
        size_t element_end = c->at;
        int next = peek(c);
        if (next != ',' && next != ']') {
            return fail_at(c, c->at, "expected ',' or ']' after a function");
        }
        bool reported = next == ']' || element_end - part_start >= s->part_bytes;
        if (reported) {
            s->found(s->context, part_start, element_end - part_start, INSP_REGION_FILE);
        }
        c->at++;
        if (next == ']') {
            return true;
        }
        skip_space(c);
        if (reported) {
            part_start = c->at; /* the next part starts at the next function */
        }
    }
}

/* The function objects' keys are checked where they are read
   (insp_baseline_parse, on several threads), not twice. */
static bool split_functions(cursor *c, split_state *s)
{
    key_stack *keys = c->keys;
    c->keys = NULL;
    bool ok = split_elements(c, s);
    c->keys = keys;
    return ok;
}

/* Where the parts are reported once the frame has been checked. */
typedef struct part {
    size_t offset, size;
} part;

typedef struct parts {
    part *items;
    size_t count, cap;
    bool failed;
} parts;

static void keep_part(void *context, size_t offset, size_t size, insp_region_kind kind)
{
    (void)kind;
    parts *p = context;
    if (p->count == p->cap) {
        size_t cap = p->cap > 0 ? p->cap * 2 : 64;
        part *bigger = realloc(p->items, cap * sizeof *bigger);
        if (bigger == NULL) {
            p->failed = true;
            return;
        }
        p->items = bigger;
        p->cap = cap;
    }
    p->items[p->count++] = (part){offset, size};
}

static bool split_frame(cursor *c, split_state *s, long long *version, bool *schema_seen)
{
    if (!expect(c, '{', "not a JSON object")) {
        return false;
    }
    bool functions_seen = false;
    if (peek(c) == '}') {
        return fail_at(c, c->at, "an empty object, not a baseline");
    }
    for (;;) {
        const char *key;
        size_t key_len;
        uint8_t *buffer = NULL;
        size_t cap = 0;
        skip_space(c);
        size_t key_at = c->at;
        bool ok = read_string(c, &key, &key_len, &buffer, &cap) &&
                  key_once(c, 0, key, key_len, key_at, "the document") &&
                  expect(c, ':', "expected ':' after a key");
        if (ok && key_is(key, key_len, "schema")) {
            const char *value;
            size_t value_len;
            uint8_t *vbuf = NULL;
            size_t vcap = 0;
            ok = read_string(c, &value, &value_len, &vbuf, &vcap);
            if (ok && !key_is(value, value_len, "occ.baseline")) {
                ok = fail_at(c, key_at, "\"schema\" is not \"occ.baseline\"");
            }
            free(vbuf);
            *schema_seen = ok;
        } else if (ok && key_is(key, key_len, "version")) {
            bool integer;
            skip_space(c);
            ok = read_number(c, &integer, version);
            if (ok && (!integer || *version < 1)) {
                ok = fail_at(c, key_at, "\"version\" is not a positive integer");
            }
        } else if (ok && key_is(key, key_len, "functions")) {
            ok = split_functions(c, s); /* once: key_once refused a second */
            functions_seen = true;
        } else if (ok) {
            ok = skip_value(c, 1);
        }
        free(buffer);
        if (!ok) {
            return false;
        }
        int next = peek(c);
        if (next == '}') {
            c->at++;
            break;
        }
        if (!expect(c, ',', "expected ',' or '}' in the top-level object")) {
            return false;
        }
    }
    if (!functions_seen) {
        return fail_at(c, 0, "no \"functions\" array");
    }
    if (peek(c) != AT_END) {
        return fail_at(c, c->at, "text after the end of the document");
    }
    return true;
}

bool insp_baseline_split(const uint8_t *data, size_t size, size_t part_bytes, insp_region_fn found,
                         void *context, insp_error *err)
{
    key_stack keys;
    memset(&keys, 0, sizeof keys);
    cursor c = {data, size, 0, err, &keys};
    parts kept = {NULL, 0, 0, false};
    split_state s = {keep_part, &kept, part_bytes > 0 ? part_bytes : 1, 0};
    long long version = 0;
    bool schema_seen = false;
    bool ok = split_frame(&c, &s, &version, &schema_seen);
    if (ok && kept.failed) {
        ok = fail_at(&c, 0, "out of memory");
    }
    if (ok && !schema_seen) {
        ok = fail_at(&c, 0, "no \"schema\": \"occ.baseline\"");
    }
    if (ok && version == 0) {
        ok = fail_at(&c, 0, "no \"version\"");
    }
    if (ok && version > INSP_BASELINE_VERSION) {
        ok = insp_fail(err, 0,
                       "baseline: version %lld is newer than this occ reads (%d): save the "
                       "baseline again with this occ, or use a newer occ",
                       version, INSP_BASELINE_VERSION);
    }
    /* the parts only once the whole frame is known good: nothing is read from
       a document that turns out not to be a baseline */
    for (size_t i = 0; ok && i < kept.count; i++) {
        found(context, kept.items[i].offset, kept.items[i].size, INSP_REGION_FILE);
    }
    free(kept.items);
    key_stack_free(&keys);
    return ok;
}

/* ---- one function -------------------------------------------------------- */

static bool read_int(cursor *c, const char *key, int lo, int *out)
{
    size_t at = c->at;
    bool integer;
    long long v;
    if (!read_number(c, &integer, &v)) {
        return false;
    }
    if (!integer || v < lo || v > INT_MAX) {
        return insp_fail(c->err, at, "baseline: \"%s\" must be a whole number from %d to %d", key,
                         lo, INT_MAX);
    }
    *out = (int)v;
    return true;
}

/* An integer, or null for `unknown`. */
static bool read_int_or_null(cursor *c, const char *key, int unknown, int *out)
{
    if (peek(c) == 'n') {
        *out = unknown;
        return read_literal(c, "null");
    }
    return read_int(c, key, 0, out);
}

static bool read_bool(cursor *c, const char *key, bool *out)
{
    int b = peek(c);
    if (b == 't' || b == 'f') {
        *out = b == 't';
        return read_literal(c, b == 't' ? "true" : "false");
    }
    return insp_fail(c->err, c->at, "baseline: \"%s\" must be true or false", key);
}

/* [x, y, z] as the binary gave them, or null for none (zeros). */
static bool read_dims(cursor *c, const char *key, int dims[3])
{
    dims[0] = dims[1] = dims[2] = 0;
    if (peek(c) == 'n') {
        return read_literal(c, "null");
    }
    if (!expect(c, '[', "expected [x, y, z] or null")) {
        return false;
    }
    for (int i = 0; i < 3; i++) {
        if (i > 0 && !expect(c, ',', "expected three numbers [x, y, z]")) {
            return false;
        }
        skip_space(c);
        if (!read_int(c, key, 0, &dims[i])) {
            return false;
        }
    }
    return expect(c, ']', "expected three numbers [x, y, z]");
}

/* "sm_90", "sm_90a", "sm_100f". */
static bool read_arch(cursor *c, const char *text, size_t len, size_t at, insp_function *f)
{
    size_t i = 3;
    int sm = 0;
    if (len < 4 || memcmp(text, "sm_", 3) != 0) {
        return fail_at(c, at, "\"arch\" is not an arch such as sm_90 or sm_90a");
    }
    for (; i < len && i < 6 && is_digit((uint8_t)text[i]); i++) {
        sm = sm * 10 + (text[i] - '0');
    }
    char suffix = 0;
    if (i < len && (text[i] == 'a' || text[i] == 'f')) {
        suffix = text[i++];
    }
    if (i != len || i == 3 || sm == 0) {
        return fail_at(c, at, "\"arch\" is not an arch such as sm_90 or sm_90a");
    }
    f->sm = sm;
    f->arch_suffix = suffix;
    return true;
}

/* The keys a function may have, as bits of function_reader.seen: those
   every function must have first. */
enum {
    SEEN_MANGLED = 1u << 0,
    SEEN_ARCH = 1u << 1,
    SEEN_KIND = 1u << 2,
    SEEN_FIRST_INT = 3,   /* ints[i] is bit SEEN_FIRST_INT + i: regs, smem_bytes,
                             stack_bytes first */
    SEEN_FIRST_DIMS = 16, /* max_threads, req_threads, cluster_dims */
    SEEN_FIRST_BOOL = 19, /* relocatable, from_log, explicit_cluster */
    SEEN_REQUIRED = (1u << 6) - 1
};

static const char *const required_names[] = {"mangled", "arch",       "kind",
                                             "regs",    "smem_bytes", "stack_bytes"};

typedef struct function_reader {
    cursor *c;
    insp_function *f;
    unsigned seen;
    uint8_t **buffer; /* the decoded name */
    size_t *cap;
} function_reader;

/* False, with the line, where the function already had this key. */
static bool first_time(function_reader *r, unsigned bit, const char *name, size_t key_at)
{
    if ((r->seen & bit) != 0) {
        return insp_fail(r->c->err, key_at, "baseline: \"%s\" appears twice in a function", name);
    }
    r->seen |= bit;
    return true;
}

/* One key's value into the function; unknown keys are skipped, once each. */
static bool read_field(function_reader *r, const char *key, size_t len, size_t key_at, size_t mark)
{
    cursor *c = r->c;
    insp_function *f = r->f;
    if (peek(c) == AT_END) {
        return fail_at(c, c->at, "document cut short (truncated?)");
    }
    if (key_is(key, len, "mangled")) {
        if (!first_time(r, SEEN_MANGLED, "mangled", key_at) ||
            !read_string(c, &f->name, &f->name_len, r->buffer, r->cap)) {
            return false;
        }
        if (f->name_len == 0) {
            return fail_at(c, key_at, "\"mangled\" is empty");
        }
        /* names are C strings from here on: a \u0000 would cut one silently */
        return memchr(f->name, '\0', f->name_len) == NULL
                   ? true
                   : fail_at(c, key_at, "\"mangled\" holds a NUL character (\\u0000)");
    }
    if (key_is(key, len, "arch") || key_is(key, len, "kind")) {
        bool arch = key[0] == 'a';
        if (!first_time(r, arch ? SEEN_ARCH : SEEN_KIND, arch ? "arch" : "kind", key_at)) {
            return false;
        }
        const char *text;
        size_t n;
        uint8_t *own = NULL;
        size_t own_cap = 0;
        bool ok = read_string(c, &text, &n, &own, &own_cap);
        if (ok && arch) {
            ok = read_arch(c, text, n, key_at, f);
        } else if (ok) {
            f->is_kernel = key_is(text, n, "kernel");
            if (!f->is_kernel && !key_is(text, n, "function")) {
                ok = fail_at(c, key_at, "\"kind\" is neither \"kernel\" nor \"function\"");
            }
        }
        free(own);
        return ok;
    }
    static const struct {
        const char *name;
        size_t offset;
        int lo;
        bool nullable; /* null means unknown */
    } ints[] = {
        {"regs", offsetof(insp_function, regs), 0, false},
        {"smem_bytes", offsetof(insp_function, smem_bytes), 0, false},
        {"stack_bytes", offsetof(insp_function, stack_bytes), 0, false},
        {"frame_bytes", offsetof(insp_function, frame_bytes), 0, false},
        {"spill_instructions", offsetof(insp_function, spill_instructions), 0, false},
        {"count", offsetof(insp_function, count), 1, false},
        {"smem_section_bytes", offsetof(insp_function, smem_section_bytes), 0, true},
        {"spill_store_bytes", offsetof(insp_function, spill_store_bytes), 0, true},
        {"spill_load_bytes", offsetof(insp_function, spill_load_bytes), 0, true},
        {"barriers", offsetof(insp_function, barriers), 0, true},
        {"param_bytes", offsetof(insp_function, param_bytes), 0, true},
        {"max_regs", offsetof(insp_function, max_regs), 0, true},
        {"max_cluster_rank", offsetof(insp_function, max_cluster_rank), 0, true},
    };
    _Static_assert(SEEN_FIRST_INT + sizeof ints / sizeof ints[0] == SEEN_FIRST_DIMS,
                   "one bit per int field, before the dims");
    for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++) {
        if (key_is(key, len, ints[i].name)) {
            if (!first_time(r, 1u << (SEEN_FIRST_INT + i), ints[i].name, key_at)) {
                return false;
            }
            int *field = (int *)(void *)((char *)f + ints[i].offset);
            /* max_regs and max_cluster_rank: null means none, which is 0 */
            int unknown = ints[i].offset == offsetof(insp_function, max_regs) ||
                                  ints[i].offset == offsetof(insp_function, max_cluster_rank)
                              ? 0
                              : INSP_UNKNOWN;
            return ints[i].nullable ? read_int_or_null(c, ints[i].name, unknown, field)
                                    : read_int(c, ints[i].name, ints[i].lo, field);
        }
    }
    static const char *const dims_names[] = {"max_threads", "req_threads", "cluster_dims"};
    int *const dims[] = {f->max_threads, f->req_threads, f->cluster_dims};
    for (unsigned i = 0; i < 3; i++) {
        if (key_is(key, len, dims_names[i])) {
            return first_time(r, 1u << (SEEN_FIRST_DIMS + i), dims_names[i], key_at) &&
                   read_dims(c, dims_names[i], dims[i]);
        }
    }
    static const char *const bool_names[] = {"relocatable", "from_log", "explicit_cluster"};
    bool *const bools[] = {&f->relocatable, &f->from_log, &f->explicit_cluster};
    for (unsigned i = 0; i < 3; i++) {
        if (key_is(key, len, bool_names[i])) {
            return first_time(r, 1u << (SEEN_FIRST_BOOL + i), bool_names[i], key_at) &&
                   read_bool(c, bool_names[i], bools[i]);
        }
    }
    return key_once(c, mark, key, len, key_at, "a function") && skip_value(c, 2);
}

static bool read_function(cursor *c, const insp_sink *sink, uint8_t **buffer, size_t *cap,
                          uint8_t **key_buffer, size_t *key_cap)
{
    insp_function f;
    memset(&f, 0, sizeof f);
    f.offset = c->at;
    f.smem_section_bytes = INSP_UNKNOWN;
    f.spill_store_bytes = INSP_UNKNOWN;
    f.spill_load_bytes = INSP_UNKNOWN;
    f.barriers = INSP_UNKNOWN;
    f.param_bytes = INSP_UNKNOWN;
    f.count = 1;
    function_reader r = {c, &f, 0, buffer, cap};
    if (!expect(c, '{', "a function is not an object")) {
        return false;
    }
    size_t mark = c->keys->count; /* the unknown keys of this function from here */
    if (peek(c) != '}') {
        for (;;) {
            const char *key;
            size_t len;
            skip_space(c);
            size_t key_at = c->at;
            if (!read_string(c, &key, &len, key_buffer, key_cap) ||
                !expect(c, ':', "expected ':' after a key") ||
                !read_field(&r, key, len, key_at, mark)) {
                return false;
            }
            if (peek(c) == '}') {
                break;
            }
            if (!expect(c, ',', "expected ',' or '}' in a function")) {
                return false;
            }
        }
    }
    c->at++;
    key_stack_pop(c->keys, mark);
    if ((r.seen & SEEN_REQUIRED) != SEEN_REQUIRED) {
        for (int i = 0; i < 6; i++) {
            if ((r.seen & (1u << i)) == 0) {
                return insp_fail(c->err, f.offset, "baseline: a function has no \"%s\"",
                                 required_names[i]);
            }
        }
    }
    if (sink->function != NULL) {
        sink->function(sink->context, &f);
    }
    return true;
}

bool insp_baseline_parse(const uint8_t *data, size_t size, const insp_sink *sink, insp_error *err)
{
    key_stack keys;
    memset(&keys, 0, sizeof keys);
    cursor c = {data, size, 0, err, &keys};
    uint8_t *buffer = NULL;
    uint8_t *key_buffer = NULL;
    size_t cap = 0;
    size_t key_cap = 0;
    bool ok = true;
    while (ok && peek(&c) != AT_END) {
        ok = read_function(&c, sink, &buffer, &cap, &key_buffer, &key_cap);
        if (ok && peek(&c) == ',') {
            c.at++;
            if (peek(&c) == AT_END) {
                ok = fail_at(&c, c.at, "a ',' with no function after it");
            }
        } else if (ok && peek(&c) != AT_END) {
            ok = fail_at(&c, c.at, "expected ',' between functions");
        }
    }
    free(buffer);
    free(key_buffer);
    key_stack_free(&keys);
    return ok;
}
