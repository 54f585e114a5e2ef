/*
 * ptx_module.c - what occ regs reads of a PTX module, and the variants it
 * writes. Read: .version, .target, and each .entry with a body, its name
 * and the performance-tuning directives between its parameter list and its
 * body (.maxntid, .reqntid, .minnctapersm, .maxnreg; PTX ISA 9.0,
 * "Performance-Tuning Directives"). Comments and string literals are
 * skipped wherever they stand. Written: the module with
 * __launch_bounds__(threads, N) on chosen entries, which is what nvcc
 * writes for it (.maxntid threads, 1, 1 and .minnctapersm N), checked
 * against nvcc 13.0 by tests/test_regs.c.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inspect_error.h"
#include "regs_internal.h"

occ_status regs_fail(occ_inspect_error *err, occ_status status, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    insp_error_vset(err, status, -1, -1, format, args);
    va_end(args);
    return status;
}

typedef struct scanner {
    const char *text;
    size_t size;
    size_t at;
} scanner;

/* Skips white space and comments; false at the end of the text. An open
   block comment runs to the end. */
static bool skip_space(scanner *s)
{
    while (s->at < s->size) {
        char c = s->text[s->at];
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
            s->at++;
        } else if (c == '/' && s->at + 1 < s->size && s->text[s->at + 1] == '/') {
            while (s->at < s->size && s->text[s->at] != '\n') {
                s->at++;
            }
        } else if (c == '/' && s->at + 1 < s->size && s->text[s->at + 1] == '*') {
            s->at += 2;
            while (s->at + 1 < s->size && !(s->text[s->at] == '*' && s->text[s->at + 1] == '/')) {
                s->at++;
            }
            s->at = s->at + 1 < s->size ? s->at + 2 : s->size;
        } else {
            return true;
        }
    }
    return false;
}

static bool ident_char(char c)
{
    return isalnum((unsigned char)c) || c == '_' || c == '$' || c == '%' || c == '.';
}

/* The word at s->at ([.A-Za-z0-9_$%]+); moves past it. */
static size_t read_word(scanner *s)
{
    size_t start = s->at;
    while (s->at < s->size && ident_char(s->text[s->at])) {
        s->at++;
    }
    return s->at - start;
}

static bool word_is(const scanner *s, size_t start, size_t len, const char *word)
{
    return len == strlen(word) && memcmp(s->text + start, word, len) == 0;
}

/* The line number of an offset, for messages. */
static int line_of(const char *text, size_t at)
{
    int line = 1;
    for (size_t i = 0; i < at; i++) {
        line += text[i] == '\n';
    }
    return line;
}

/* A decimal number of a directive, 0 .. limit. */
static bool read_number(scanner *s, long limit, int *out)
{
    if (!skip_space(s) || !isdigit((unsigned char)s->text[s->at])) {
        return false;
    }
    long v = 0;
    while (s->at < s->size && isdigit((unsigned char)s->text[s->at])) {
        v = v * 10 + (s->text[s->at] - '0');
        if (v > limit) {
            return false;
        }
        s->at++;
    }
    *out = (int)v;
    return true;
}

/* One to three numbers separated by commas. */
static bool read_dims(scanner *s, int dims[3])
{
    dims[0] = dims[1] = dims[2] = 0;
    for (int d = 0; d < 3; d++) {
        if (!read_number(s, 1 << 20, &dims[d])) {
            return false;
        }
        size_t save = s->at;
        if (!skip_space(s) || s->text[s->at] != ',') {
            s->at = save;
            return true;
        }
        s->at++;
    }
    return true;
}

bool regs_ptx_probe(const char *text, size_t size)
{
    scanner s = {text, size, 0};
    if (!skip_space(&s)) {
        return false;
    }
    size_t start = s.at;
    size_t len = read_word(&s);
    return word_is(&s, start, len, ".version");
}

/* Skips a string literal that starts at s->at ('"'). */
static void skip_string(scanner *s)
{
    s->at++;
    while (s->at < s->size && s->text[s->at] != '"' && s->text[s->at] != '\n') {
        s->at += s->text[s->at] == '\\' ? 2 : 1;
    }
    s->at = s->at < s->size ? s->at + 1 : s->size;
}

static occ_status bad(const scanner *s, size_t at, occ_inspect_error *err, const char *what)
{
    return regs_fail(err, OCC_ERR_BAD_FORMAT, "line %d: %s", line_of(s->text, at), what);
}

/* The directives after an entry's parameter list, up to its '{' (or the
   ';' of a declaration: *declaration). */
static occ_status read_directives(scanner *s, ptx_entry *e, bool *declaration,
                                  occ_inspect_error *err)
{
    *declaration = false;
    for (;;) {
        if (!skip_space(s)) {
            return bad(s, s->size, err, "an entry's body is missing: the text ends");
        }
        char c = s->text[s->at];
        if (c == '{') {
            e->body_at = s->at;
            return OCC_OK;
        }
        if (c == ';') {
            *declaration = true;
            return OCC_OK;
        }
        if (c == '"') {
            skip_string(s);
            continue;
        }
        size_t start = s->at;
        size_t len = read_word(s);
        if (len == 0) {
            s->at++; /* punctuation of a directive occ does not read */
            continue;
        }
        if (word_is(s, start, len, ".maxntid") || word_is(s, start, len, ".reqntid")) {
            int *dims = s->text[start + 1] == 'm' ? e->maxntid : e->reqntid;
            if (!read_dims(s, dims)) {
                return bad(s, start, err, "a .maxntid or .reqntid without its dims");
            }
        } else if (word_is(s, start, len, ".minnctapersm")) {
            /* 1024 covers any block count an SM holds (32 on every arch occ knows) */
            if (!read_number(s, 1024, &e->minnctapersm)) {
                return bad(s, start, err, ".minnctapersm without a count of 0..1024");
            }
            e->minncta_at = start;
            e->minncta_len = s->at - start;
        } else if (word_is(s, start, len, ".maxnreg")) {
            if (!read_number(s, 1024, &e->maxnreg)) {
                return bad(s, start, err, ".maxnreg without a count of 0..1024");
            }
        } else if (word_is(s, start, len, ".entry") || word_is(s, start, len, ".func")) {
            return bad(s, start, err, "an entry without a body before the next function");
        }
    }
}

/* The name and parameter list after ".entry". */
static occ_status read_entry(scanner *s, ptx_entry *e, bool *declaration, occ_inspect_error *err)
{
    memset(e, 0, sizeof *e);
    size_t keyword = s->at;
    if (!skip_space(s)) {
        return bad(s, keyword, err, ".entry without a name: the text ends");
    }
    e->name_at = s->at;
    e->name_len = read_word(s);
    if (e->name_len == 0) {
        return bad(s, keyword, err, ".entry without a name");
    }
    size_t save = s->at;
    if (skip_space(s) && s->text[s->at] == '(') {
        size_t open = s->at++;
        while (s->at < s->size && s->text[s->at] != ')') {
            size_t before = s->at;
            if (!skip_space(s)) {
                break;
            }
            if (s->at == before) {
                s->at++;
            }
        }
        if (s->at >= s->size) {
            return bad(s, open, err, "an entry's parameter list is not closed");
        }
        s->at++;
    } else {
        s->at = save;
    }
    return read_directives(s, e, declaration, err);
}

static occ_status read_version(scanner *s, ptx_module *m, occ_inspect_error *err)
{
    size_t at = s->at;
    if (!read_number(s, 1000, &m->version_major) || s->at >= s->size || s->text[s->at] != '.') {
        return bad(s, at, err, ".version without MAJOR.MINOR");
    }
    s->at++;
    if (!read_number(s, 1000, &m->version_minor)) {
        return bad(s, at, err, ".version without MAJOR.MINOR");
    }
    return OCC_OK;
}

static void read_target(scanner *s, ptx_module *m)
{
    if (!skip_space(s)) {
        return;
    }
    size_t start = s->at;
    size_t len = read_word(s);
    const char *w = s->text + start;
    if (len > 3 && memcmp(w, "sm_", 3) == 0) {
        int sm = 0;
        size_t i = 3;
        while (i < len && isdigit((unsigned char)w[i]) && sm < 100000) {
            sm = sm * 10 + (w[i++] - '0');
        }
        m->target_sm = sm;
        m->target_suffix = i < len && (w[i] == 'a' || w[i] == 'f') ? w[i] : 0;
    }
}

occ_status regs_ptx_parse(const char *text, size_t size, ptx_module *out, occ_inspect_error *err)
{
    memset(out, 0, sizeof *out);
    if (!regs_ptx_probe(text, size)) {
        return regs_fail(err, OCC_ERR_BAD_FORMAT,
                         "not PTX: it does not start with a .version directive");
    }
    scanner s = {text, size, 0};
    size_t cap = 0;
    occ_status status = OCC_OK;
    int depth = 0; /* braces: .entry counts only outside bodies */
    while (status == OCC_OK && skip_space(&s)) {
        char c = text[s.at];
        if (c == '"') {
            skip_string(&s);
            continue;
        }
        if (c == '{' || c == '}') {
            depth += c == '{' ? 1 : (depth > 0 ? -1 : 0);
            s.at++;
            continue;
        }
        size_t start = s.at;
        size_t len = read_word(&s);
        if (len == 0) {
            s.at++;
            continue;
        }
        if (depth > 0) {
            continue;
        }
        if (word_is(&s, start, len, ".version")) {
            status = read_version(&s, out, err);
        } else if (word_is(&s, start, len, ".target")) {
            read_target(&s, out);
        } else if (word_is(&s, start, len, ".entry")) {
            ptx_entry e;
            bool declaration = false;
            status = read_entry(&s, &e, &declaration, err);
            if (status != OCC_OK || declaration) {
                continue;
            }
            if (out->entry_count == cap) {
                size_t bigger = cap == 0 ? 8 : cap * 2;
                ptx_entry *grown = realloc(out->entries, bigger * sizeof *grown);
                if (grown == NULL) {
                    status = regs_fail(err, OCC_ERR_OUT_OF_MEMORY, "out of memory for %zu entries",
                                       bigger);
                    continue;
                }
                out->entries = grown;
                cap = bigger;
            }
            out->entries[out->entry_count++] = e;
        }
    }
    if (status != OCC_OK) {
        regs_ptx_module_free(out);
    }
    return status;
}

void regs_ptx_module_free(ptx_module *m)
{
    free(m->entries);
    m->entries = NULL;
    m->entry_count = 0;
}

int regs_ptx_dims_product(const int dims[3])
{
    if (dims[0] == 0) {
        return 0;
    }
    long long p = 1;
    for (int d = 0; d < 3; d++) {
        p *= dims[d] > 0 ? dims[d] : 1;
        if (p > (1 << 30)) {
            return 1 << 30;
        }
    }
    return (int)p;
}

/* A growing text. */
typedef struct text_buf {
    char *data;
    size_t size, cap;
    bool failed;
} text_buf;

static void put(text_buf *b, const char *data, size_t n)
{
    if (b->failed) {
        return;
    }
    if (b->size + n + 1 > b->cap) {
        size_t bigger = (b->size + n + 1) * 2;
        char *grown = realloc(b->data, bigger);
        if (grown == NULL) {
            b->failed = true;
            return;
        }
        b->data = grown;
        b->cap = bigger;
    }
    memcpy(b->data + b->size, data, n);
    b->size += n;
    b->data[b->size] = '\0';
}

static char *finish(text_buf *b, size_t *out_size)
{
    if (b->failed || b->data == NULL) {
        free(b->data);
        return NULL;
    }
    *out_size = b->size;
    return b->data;
}

char *regs_ptx_with_min_blocks(const char *text, size_t size, const ptx_module *m,
                               const bool *selected, const int *threads, int min_blocks,
                               size_t *out_size)
{
    text_buf b = {0};
    size_t at = 0;
    for (size_t i = 0; i < m->entry_count; i++) {
        const ptx_entry *e = &m->entries[i];
        if (!selected[i]) {
            continue;
        }
        char directive[64];
        int n;
        if (e->minncta_len > 0) {
            /* its own directive gets the new count where it stands: the text
               around it reads as before */
            put(&b, text + at, e->minncta_at - at);
            n = snprintf(directive, sizeof directive, ".minnctapersm %d", min_blocks);
            put(&b, directive, (size_t)n);
            at = e->minncta_at + e->minncta_len;
        }
        bool add_maxntid = e->maxntid[0] == 0 && e->reqntid[0] == 0;
        if (!add_maxntid && e->minncta_len > 0) {
            continue;
        }
        put(&b, text + at, e->body_at - at);
        at = e->body_at;
        /* on a line of their own: "z{" must not become "z.minnctapersm" */
        char before = e->body_at > 0 ? text[e->body_at - 1] : '\n';
        if (before != '\n' && before != ' ' && before != '\t' && before != '\r') {
            put(&b, "\n", 1);
        }
        if (add_maxntid) {
            n = snprintf(directive, sizeof directive, ".maxntid %d, 1, 1\n", threads[i]);
            put(&b, directive, (size_t)n);
        }
        if (e->minncta_len == 0) {
            n = snprintf(directive, sizeof directive, ".minnctapersm %d\n", min_blocks);
            put(&b, directive, (size_t)n);
        }
    }
    put(&b, text + at, size - at);
    return finish(&b, out_size);
}

char *regs_ptx_probe_module(const ptx_module *like, int sm, char suffix, size_t *out_size)
{
    char module[256];
    int n = snprintf(module, sizeof module,
                     ".version %d.%d\n.target sm_%d%.1s\n.address_size 64\n\n"
                     ".visible .entry occ_regs_probe()\n{\n\tret;\n}\n",
                     like->version_major, like->version_minor, sm, suffix != 0 ? &suffix : "");
    text_buf b = {0};
    put(&b, module, (size_t)n);
    return finish(&b, out_size);
}
