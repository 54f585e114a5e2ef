/*
 * diff_allow.c - the allow file: changes a team accepts, one
 * "[ITEM, ITEM: ]PATTERN # REASON" a line (docs/diff.md, "Accepted
 * changes"). The reason is required; a list of items limits the line to
 * them.
 */
#include <errno.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "diff_internal.h"

static char *trimmed_copy(const char *from, const char *to)
{
    while (from < to && (*from == ' ' || *from == '\t')) {
        from++;
    }
    while (to > from && (to[-1] == ' ' || to[-1] == '\t' || to[-1] == '\r')) {
        to--;
    }
    char *s = malloc((size_t)(to - from) + 1);
    if (s != NULL) {
        memcpy(s, from, (size_t)(to - from));
        s[to - from] = '\0';
    }
    return s;
}

/* Whether text..end holds only what a list of items can ("regs, spills"):
   letters, digits, '_', '-', '+', '%', commas and blanks. A name pattern has
   more ('*', '(', '<', ...), and a C++ name's "::" never has a blank after
   it. */
static bool looks_like_items(const char *text, const char *end)
{
    for (const char *p = text; p < end; p++) {
        unsigned char c = (unsigned char)*p;
        bool word = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '_' || c == '-' || c == '+' || c == '%';
        if (!word && c != ',' && c != ' ' && c != '\t') {
            return false;
        }
    }
    return true;
}

/* "regs, spills: " in front of a pattern: the items the line covers, set in
   *out, and *text moved past the ": ". The list ends at the first ':' with a
   blank after it, before the reason ('#'). Where the text in front of it is
   not a list of words, the ':' belongs to the pattern; where it is, every
   word must be an item and the list must not be empty (an empty one would
   accept every item without saying so). */
static occ_status read_line_items(const char **text, const char *end, const char *path, int line,
                                  unsigned *out, occ_inspect_error *err)
{
    const char *hash = memchr(*text, '#', (size_t)(end - *text));
    const char *stop = hash != NULL ? hash : end;
    const char *colon = *text;
    while ((colon = memchr(colon, ':', (size_t)(stop - colon))) != NULL && colon + 1 < stop &&
           colon[1] != ' ' && colon[1] != '\t') {
        colon++;
    }
    if (colon == NULL || colon + 1 >= stop || !looks_like_items(*text, colon)) {
        return OCC_OK;
    }
    unsigned bits = 0;
    for (const char *p = *text; p <= colon;) {
        const char *comma = memchr(p, ',', (size_t)(colon - p));
        const char *word_end = comma != NULL ? comma : colon;
        while (p < word_end && (*p == ' ' || *p == '\t')) {
            p++;
        }
        size_t len = (size_t)(word_end - p);
        while (len > 0 && (p[len - 1] == ' ' || p[len - 1] == '\t')) {
            len--;
        }
        if (len == 0) {
            return insp_diff_fail(
                err, OCC_ERR_BAD_FORMAT,
                "%s: line %d: %s before ':'; write ITEM, ITEM: PATTERN # REASON "
                "(items are " INSP_DIFF_ITEM_LIST "), or PATTERN # REASON for every item",
                path, line, bits == 0 && comma == NULL ? "no item" : "an empty item");
        }
        int item = insp_diff_find_item(p, len);
        if (item < 0) {
            char word[48];
            snprintf(word, sizeof word, "%.*s", (int)(len < 40 ? len : 40), p);
            const char *near = insp_diff_near_item(word);
            return insp_diff_fail(
                err, OCC_ERR_BAD_FORMAT,
                "%s: line %d: '%s' is not an item%s%s%s; items are " INSP_DIFF_ITEM_LIST, path,
                line, word, near != NULL ? " (did you mean '" : "", near != NULL ? near : "",
                near != NULL ? "'?)" : "");
        }
        bits |= 1u << item;
        p = word_end + 1;
    }
    *out = bits;
    *text = colon + 1;
    return OCC_OK;
}

occ_status occ_diff_allow_parse(const char *path, const char *text, size_t size,
                                occ_diff_allow_list *out, occ_inspect_error *err)
{
    if (out == NULL || (text == NULL && size > 0)) {
        return insp_diff_fail(err, OCC_ERR_NULL_POINTER, "occ_diff_allow_parse: a NULL argument");
    }
    memset(out, 0, sizeof *out);
    out->path = path;
    path = path != NULL ? path : "<allow>";
    int line = 0;
    const char *end_of_text = text + size;
    for (const char *p = text; p < end_of_text;) {
        const char *end = memchr(p, '\n', (size_t)(end_of_text - p));
        if (end == NULL) {
            end = end_of_text;
        }
        line++;
        const char *start = p;
        p = end + 1;
        while (start < end && (*start == ' ' || *start == '\t')) {
            start++;
        }
        if (start == end || *start == '#' || (start + 1 == end && *start == '\r')) {
            continue;
        }
        if (memchr(start, '\0', (size_t)(end - start)) != NULL) {
            return insp_diff_fail(err, OCC_ERR_BAD_FORMAT,
                                  "%s: line %d: a NUL byte (not a text file?)", path, line);
        }
        unsigned covers = 0;
        occ_status status = read_line_items(&start, end, path, line, &covers, err);
        if (status != OCC_OK) {
            return status;
        }
        const char *hash = memchr(start, '#', (size_t)(end - start));
        char *pattern = trimmed_copy(start, hash != NULL ? hash : end);
        char *reason = hash != NULL ? trimmed_copy(hash + 1, end) : NULL;
        bool fine = pattern != NULL && (hash == NULL || reason != NULL);
        if (fine && (pattern[0] == '\0' || reason == NULL || reason[0] == '\0')) {
            bool no_pattern = pattern[0] == '\0';
            free(pattern);
            free(reason);
            return insp_diff_fail(err, OCC_ERR_BAD_FORMAT,
                                  "%s: line %d: %s; write PATTERN # REASON (the reason is "
                                  "required)",
                                  path, line, no_pattern ? "no name pattern" : "no reason");
        }
        occ_diff_allow_rule *bigger =
            fine ? realloc(out->rules, ((size_t)out->count + 1) * sizeof *bigger) : NULL;
        if (bigger == NULL) {
            free(pattern);
            free(reason);
            return insp_diff_fail(err, OCC_ERR_OUT_OF_MEMORY, "%s: out of memory", path);
        }
        out->rules = bigger;
        out->rules[out->count++] = (occ_diff_allow_rule){pattern, reason, covers, line, 0};
    }
    return OCC_OK;
}

occ_status occ_diff_allow_read(const char *path, occ_diff_allow_list *out, occ_inspect_error *err)
{
    if (path == NULL || out == NULL) {
        return insp_diff_fail(err, OCC_ERR_NULL_POINTER, "occ_diff_allow_read: a NULL argument");
    }
    memset(out, 0, sizeof *out);
    out->path = path;
    FILE *in = fopen(path, "rb");
    if (in == NULL) {
        return insp_diff_fail(err, OCC_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    }
    char *text = malloc(OCC_DIFF_ALLOW_MAX_BYTES + 1);
    if (text == NULL) {
        fclose(in);
        return insp_diff_fail(err, OCC_ERR_OUT_OF_MEMORY, "%s: out of memory", path);
    }
    errno = 0;
    size_t size = fread(text, 1, OCC_DIFF_ALLOW_MAX_BYTES + 1, in);
    bool failed = ferror(in) != 0;
    fclose(in);
    occ_status status;
    if (failed) {
        status = insp_diff_fail(err, OCC_ERR_IO, "%s: cannot read: %s", path, strerror(errno));
    } else if (size > OCC_DIFF_ALLOW_MAX_BYTES) {
        status = insp_diff_fail(err, OCC_ERR_LIMIT,
                                "%s: larger than %d bytes, the most an allow file may hold", path,
                                OCC_DIFF_ALLOW_MAX_BYTES);
    } else {
        status = occ_diff_allow_parse(path, text, size, out, err);
    }
    free(text);
    if (status != OCC_OK) {
        occ_diff_allow_free(out);
    }
    return status;
}

void occ_diff_allow_free(occ_diff_allow_list *list)
{
    if (list == NULL) {
        return;
    }
    for (int i = 0; i < list->count; i++) {
        free(list->rules[i].pattern);
        free(list->rules[i].reason);
    }
    free(list->rules);
    list->rules = NULL;
    list->count = 0;
}

bool insp_diff_allow_matches(const occ_diff_allow_rule *rule, const occ_diff_entry *e)
{
    const occ_inspect_kernel *sides[2] = {e->new_k, e->old_k};
    for (int s = 0; s < 2; s++) {
        if (sides[s] != NULL && (fnmatch(rule->pattern, sides[s]->name, 0) == 0 ||
                                 fnmatch(rule->pattern, sides[s]->mangled, 0) == 0)) {
            return true;
        }
    }
    return false;
}
