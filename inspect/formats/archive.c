/*
 * archive.c - the members of a static library (`ar` archive: libfoo.a), so
 * that each member (a host object, a cubin, a fatbin) is read as if it were
 * a file of its own, as cuobjdump reads every member.
 *
 * Layout (ar(5) of the BSD and GNU manuals; the System V ABI's "Archive
 * File" section for the System V names GNU ar writes):
 *   "!<arch>\n", then members: a 60-byte header, then the member's data,
 *   padded with one "\n" to an even offset.
 *   header: name[16] date[12] uid[6] gid[6] mode[8] size[10] fmag[2], the
 *   numbers in ASCII, space-padded (size in decimal), fmag "`\n".
 *   names: "foo.o/" (System V: "/" ends the name); "/N" (System V long name:
 *   at byte N of the "//" member, ended by "/\n"); "#1/N" (BSD 4.4: the name
 *   is the first N bytes of the data, which `size` counts); "foo.o" (BSD:
 *   space-padded).
 *   not members: "/" and "/SYM64/" (System V symbol tables), "//" (the long
 *   names), "__.SYMDEF" and "__.SYMDEF SORTED" (BSD symbol tables).
 *   "!<thin>\n": a thin archive, whose members stay in their own files.
 *
 * A member may itself be an archive (`ar q big.a a.a b.a` keeps a.a and b.a
 * whole): the linker takes no objects from it, but its kernels are the
 * library's as much as any others, and a library read as "0 kernels" would
 * make a diff show every kernel removed. Its members are reported as the
 * outer archive's, named "a.a(k.o)", down to INSP_ARCHIVE_MAX_DEPTH levels;
 * deeper nesting, and a thin archive inside an archive, are refused.
 */
#include <string.h>

#include "bytes.h"

#define AR_MAGIC_BYTES 8
#define AR_HEADER_BYTES 60
#define AR_NAME_BYTES 16
#define AR_SIZE_OFFSET 48
#define AR_SIZE_BYTES 10
#define AR_FMAG_OFFSET 58

/* The decimal size field: digits, then spaces only. */
static bool read_size(const uint8_t *field, uint64_t *out)
{
    uint64_t v = 0;
    int i = 0;
    for (; i < AR_SIZE_BYTES && field[i] >= '0' && field[i] <= '9'; i++) {
        v = v * 10 + (uint64_t)(field[i] - '0');
    }
    if (i == 0) {
        return false;
    }
    for (; i < AR_SIZE_BYTES; i++) {
        if (field[i] != ' ') {
            return false;
        }
    }
    *out = v;
    return true;
}

/* A decimal number that fills text[0..len) up to trailing spaces. */
static bool read_decimal(const uint8_t *text, size_t len, uint64_t *out)
{
    uint64_t v = 0;
    size_t i = 0;
    for (; i < len && text[i] >= '0' && text[i] <= '9'; i++) {
        if (v > (UINT64_MAX - 9) / 10) {
            return false;
        }
        v = v * 10 + (uint64_t)(text[i] - '0');
    }
    if (i == 0) {
        return false;
    }
    for (; i < len; i++) {
        if (text[i] != ' ') {
            return false;
        }
    }
    *out = v;
    return true;
}

static bool name_is(const uint8_t *name, size_t len, const char *want)
{
    size_t n = strlen(want);
    if (n > len || memcmp(name, want, n) != 0) {
        return false;
    }
    for (size_t i = n; i < len; i++) {
        if (name[i] != ' ') {
            return false;
        }
    }
    return true;
}

/* Bytes of a space-padded name, or of a System V one up to its "/". */
static size_t short_name_length(const uint8_t *name)
{
    size_t len = AR_NAME_BYTES;
    for (size_t i = 0; i < AR_NAME_BYTES; i++) {
        if (name[i] == '/') {
            return i;
        }
    }
    while (len > 0 && name[len - 1] == ' ') {
        len--;
    }
    return len;
}

typedef struct long_names {
    const uint8_t *data; /* the "//" member, or NULL before it */
    size_t size;
} long_names;

/* The System V long name at `index` of the "//" member: up to "/\n" or "\n". */
static bool long_name(const long_names *table, uint64_t index, size_t header, const char **name,
                      size_t *len, insp_error *err)
{
    if (table->data == NULL) {
        return insp_fail(err, header,
                         "member name '/%llu' refers to a long-name table (\"//\") "
                         "that no member before it holds",
                         (unsigned long long)index);
    }
    if (index >= table->size) {
        return insp_fail(err, header,
                         "member name '/%llu' is beyond the %zu bytes of the long-name table",
                         (unsigned long long)index, table->size);
    }
    size_t end = (size_t)index;
    while (end < table->size && table->data[end] != '\n') {
        end++;
    }
    if (end == table->size) {
        return insp_fail(err, header, "long name at byte %llu of the name table has no end",
                         (unsigned long long)index);
    }
    size_t n = end - (size_t)index;
    if (n > 0 && table->data[index + n - 1] == '/') {
        n--;
    }
    *name = (const char *)table->data + index;
    *len = n;
    return true;
}

/* Where the walk of one archive reports, and what encloses it. */
typedef struct walk {
    insp_member_fn found;
    void *context;
    size_t origin;      /* where this archive starts in the outermost one */
    int depth;          /* 1: the outermost archive */
    const char *prefix; /* "a.a(" for the members of a nested a.a; "" at the top */
    size_t prefix_len;
} walk;

/* The longest name reported for a member of a nested archive: enough for
   every level's name, and messages cut names far shorter. */
#define NESTED_NAME_BYTES 512

static bool is_archive(const uint8_t *data, size_t size, const char *magic)
{
    return size >= AR_MAGIC_BYTES && memcmp(data, magic, AR_MAGIC_BYTES) == 0;
}

static bool walk_archive(const uint8_t *data, size_t size, const walk *w, insp_error *err);

/* A member that is itself an archive: its members, named within it. Errors
   inside it name it, and their offsets count from the enclosing archive. */
static bool walk_nested(const uint8_t *data, size_t offset, size_t bytes, const char *name,
                        size_t name_len, const walk *w, insp_error *err)
{
    int shown = name_len < 80 ? (int)name_len : 80;
    if (is_archive(data + offset, bytes, "!<thin>\n")) {
        return insp_fail(err, offset,
                         "member %.*s is a thin archive (ar --thin), whose members are "
                         "separate files, not in this one; give the member files",
                         shown, name);
    }
    if (w->depth >= INSP_ARCHIVE_MAX_DEPTH) {
        return insp_fail(err, offset, "member %.*s: archives nested more than %d deep", shown, name,
                         INSP_ARCHIVE_MAX_DEPTH);
    }
    char prefix[NESTED_NAME_BYTES];
    int len = snprintf(prefix, sizeof prefix, "%.*s%.*s(", (int)w->prefix_len, w->prefix,
                       (int)name_len, name);
    walk inner = {w->found,
                  w->context,
                  w->origin + offset,
                  w->depth + 1,
                  prefix,
                  len > 0 && (size_t)len < sizeof prefix ? (size_t)len : sizeof prefix - 1};
    if (walk_archive(data + offset, bytes, &inner, err)) {
        return true;
    }
    if (err != NULL) {
        char reason[INSP_ERROR_MESSAGE_BYTES];
        memcpy(reason, err->message, sizeof reason);
        int n = snprintf(err->message, sizeof err->message, "member %.*s: %s", shown, name, reason);
        if (n >= (int)sizeof err->message) {
            /* cut at the end: the member's name and the start of the reason stay */
            err->message[sizeof err->message - 1] = '\0';
        }
        err->offset += offset;
    }
    return false;
}

/* Reports a member, named within the archives that enclose it, at its
   offset in the outermost archive. */
static void report(const walk *w, const char *name, size_t name_len, size_t offset, size_t bytes)
{
    if (w->prefix_len == 0) {
        w->found(w->context, name, name_len, w->origin + offset, bytes);
        return;
    }
    char full[NESTED_NAME_BYTES];
    int len =
        snprintf(full, sizeof full, "%.*s%.*s", (int)w->prefix_len, w->prefix, (int)name_len, name);
    size_t n = len > 0 && (size_t)len < sizeof full ? (size_t)len : sizeof full - 1;
    /* close every level's parenthesis that fits */
    for (int d = 1; d < w->depth && n + 1 < sizeof full; d++) {
        full[n++] = ')';
    }
    w->found(w->context, full, n, w->origin + offset, bytes);
}

bool insp_archive_members(const uint8_t *data, size_t size, insp_member_fn found, void *context,
                          insp_error *err)
{
    walk top = {found, context, 0, 1, "", 0};
    return walk_archive(data, size, &top, err);
}

static bool walk_archive(const uint8_t *data, size_t size, const walk *w, insp_error *err)
{
    if (!is_archive(data, size, "!<arch>\n")) {
        if (is_archive(data, size, "!<thin>\n")) {
            return insp_fail(err, 0,
                             "a thin archive (ar --thin): its members are separate "
                             "files, not in this one; give the member files");
        }
        return insp_fail(err, 0, "not an ar archive (no \"!<arch>\" magic)");
    }
    long_names names = {NULL, 0};
    size_t at = AR_MAGIC_BYTES;
    while (at < size) {
        if (size - at < AR_HEADER_BYTES) {
            return insp_fail(err, at, "member header cut short: %zu of %d bytes (truncated?)",
                             size - at, AR_HEADER_BYTES);
        }
        const uint8_t *h = data + at;
        if (h[AR_FMAG_OFFSET] != '`' || h[AR_FMAG_OFFSET + 1] != '\n') {
            return insp_fail(err, at + AR_FMAG_OFFSET,
                             "member header does not end with \"`\\n\": not an ar member");
        }
        uint64_t member_bytes;
        if (!read_size(h + AR_SIZE_OFFSET, &member_bytes)) {
            return insp_fail(err, at + AR_SIZE_OFFSET, "member size is not a decimal number");
        }
        size_t start = at + AR_HEADER_BYTES;
        if (!insp_fits(size, start, member_bytes)) {
            return insp_fail(err, at + AR_SIZE_OFFSET,
                             "member of %llu bytes runs past the end of the archive (%zu bytes "
                             "left; truncated?)",
                             (unsigned long long)member_bytes, size - start);
        }
        const char *name = (const char *)h;
        size_t name_len = 0;
        size_t offset = start;
        size_t bytes = (size_t)member_bytes;
        bool is_member = true;
        uint64_t number;
        if (name_is(h, AR_NAME_BYTES, "/") || name_is(h, AR_NAME_BYTES, "/SYM64/") ||
            name_is(h, AR_NAME_BYTES, "__.SYMDEF") ||
            name_is(h, AR_NAME_BYTES, "__.SYMDEF SORTED")) {
            is_member = false;
        } else if (name_is(h, AR_NAME_BYTES, "//")) {
            names = (long_names){data + start, bytes};
            is_member = false;
        } else if (h[0] == '/' && read_decimal(h + 1, AR_NAME_BYTES - 1, &number)) {
            if (!long_name(&names, number, at, &name, &name_len, err)) {
                return false;
            }
        } else if (memcmp(h, "#1/", 3) == 0 && read_decimal(h + 3, AR_NAME_BYTES - 3, &number)) {
            if (number > member_bytes) {
                return insp_fail(err, at,
                                 "BSD member name of %llu bytes is longer than the "
                                 "member (%llu bytes)",
                                 (unsigned long long)number, (unsigned long long)member_bytes);
            }
            name = (const char *)data + start;
            name_len = (size_t)number;
            while (name_len > 0 && name[name_len - 1] == '\0') {
                name_len--; /* BSD ar pads the name with NULs */
            }
            offset = start + (size_t)number;
            bytes = (size_t)(member_bytes - number);
            is_member = !(name_len >= 9 && memcmp(name, "__.SYMDEF", 9) == 0);
        } else {
            name_len = short_name_length(h);
        }
        if (is_member && (is_archive(data + offset, bytes, "!<arch>\n") ||
                          is_archive(data + offset, bytes, "!<thin>\n"))) {
            if (!walk_nested(data, offset, bytes, name, name_len, w, err)) {
                return false;
            }
        } else if (is_member) {
            report(w, name, name_len, offset, bytes);
        }
        at = start + (size_t)member_bytes;
        at += at & 1; /* each member starts at an even offset */
    }
    return true;
}
