/*
 * diff_gate.c - what fails `occ diff`: the --fail-on items and their
 * thresholds, the --allow file of accepted changes, and the order the
 * outputs show the entries in (failures first, then the worst change).
 *
 * A threshold is the change tolerated: regs+8 lets registers grow by 8 and
 * fails at 9; occupancy-10% lets occupancy fall by 10 percentage points and
 * fails below that; a bare item tolerates nothing. Improvements never fail.
 */
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "diff.h"
#include "file_read.h"
#include "options.h"
#include "values.h"

/* What a threshold looks like for each item: the sign of a worsening and
   whether it is bytes (a size: 48K) or a plain number. */
typedef enum threshold_kind {
    THRESHOLD_NONE = 0, /* the item takes none */
    THRESHOLD_FALL,     /* "-N": occupancy (points, '%' optional), blocks */
    THRESHOLD_RISE,     /* "+N" */
    THRESHOLD_RISE_BYTES
} threshold_kind;

static const struct {
    const char *name;
    threshold_kind kind;
} items[GATE_ITEM_COUNT] = {
    [GATE_OCCUPANCY] = {"occupancy", THRESHOLD_FALL},
    [GATE_BLOCKS] = {"blocks", THRESHOLD_FALL},
    [GATE_REGS] = {"regs", THRESHOLD_RISE},
    [GATE_SPILLS] = {"spills", THRESHOLD_RISE},
    [GATE_STACK] = {"stack", THRESHOLD_RISE_BYTES},
    [GATE_SMEM] = {"smem", THRESHOLD_RISE_BYTES},
    [GATE_BARRIERS] = {"barriers", THRESHOLD_RISE},
    [GATE_CEILING] = {"ceiling", THRESHOLD_NONE},
    [GATE_LAUNCH_BOUNDS] = {"launch-bounds", THRESHOLD_NONE},
    [GATE_ADDED] = {"added", THRESHOLD_NONE},
    [GATE_REMOVED] = {"removed", THRESHOLD_NONE},
    [GATE_MOVED] = {"moved", THRESHOLD_NONE},
    [GATE_CHANGED] = {"changed", THRESHOLD_NONE},
};

#define ITEM_LIST                                                                                  \
    "occupancy, blocks, regs, spills, stack, smem, barriers, ceiling, launch-bounds, added, "      \
    "removed, moved, changed"

const char *gate_item_name(gate_item item)
{
    return item >= 0 && item < GATE_ITEM_COUNT ? items[item].name : "?";
}

static int find_item(const char *name, size_t len)
{
    for (int i = 0; i < GATE_ITEM_COUNT; i++) {
        if (strlen(items[i].name) == len && memcmp(items[i].name, name, len) == 0) {
            return i;
        }
    }
    return -1;
}

/* The closest item to a misspelt one, or NULL when none is close. */
static const char *near_item(const char *word)
{
    int best = 3;
    const char *near = NULL;
    for (int i = 0; i < GATE_ITEM_COUNT; i++) {
        int d = cli_edit_distance(word, items[i].name);
        if (d < best) {
            best = d;
            near = items[i].name;
        }
    }
    return near;
}

static bool unknown_item(const char *name, size_t len, cli_error *err)
{
    char word[64];
    snprintf(word, sizeof word, "%.*s", (int)(len < 40 ? len : 40), name);
    const char *near = near_item(word);
    if (near != NULL) {
        return cli_error_set(err, EXIT_USAGE, "'%s' is not an item; did you mean '%s'?", word,
                             near);
    }
    return cli_error_set(err, EXIT_USAGE, "'%s' is not an item; items are " ITEM_LIST, word);
}

/* One item with its optional threshold: "regs+8", "occupancy-10%". */
static bool parse_item(const char *text, gate *g, cli_error *err)
{
    /* the name ends at a threshold's sign, but a name may hold a '-' itself
       (launch-bounds) */
    size_t len = strcspn(text, "+-");
    int item = find_item(text, len);
    for (size_t more = len; item < 0 && text[more] == '-';) {
        more += 1 + strcspn(text + more + 1, "+-");
        if (find_item(text, more) >= 0) {
            item = find_item(text, more);
            len = more;
        }
    }
    if (item < 0) {
        return unknown_item(text, len, err);
    }
    const char *name = items[item].name;
    threshold_kind kind = items[item].kind;
    const char *rest = text + len;
    double slack = 0;
    if (rest[0] != '\0') {
        char sign = kind == THRESHOLD_FALL ? '-' : '+';
        if (kind == THRESHOLD_NONE) {
            return cli_error_set(err, EXIT_USAGE, "'%.40s': %s takes no threshold", text, name);
        }
        if (rest[0] != sign) {
            return cli_error_set(err, EXIT_USAGE,
                                 "'%.40s': a threshold is how far %s may %s before it fails: "
                                 "write %s%c%s",
                                 text, name, sign == '-' ? "fall" : "grow", name, sign,
                                 item == GATE_OCCUPANCY ? "10%" : "8");
        }
        char number[40];
        snprintf(number, sizeof number, "%s", rest + 1);
        size_t n = strlen(number);
        if (n > 0 && number[n - 1] == '%') {
            if (item != GATE_OCCUPANCY) {
                return cli_error_set(err, EXIT_USAGE, "'%.40s': only occupancy takes a percentage",
                                     text);
            }
            number[n - 1] = '\0';
        }
        long long bytes;
        if (kind == THRESHOLD_RISE_BYTES) {
            if (!cli_parse_size(number, &bytes, err)) {
                return cli_error_prefix(err, "'%.40s': ", text);
            }
            slack = (double)bytes;
        } else if (item == GATE_OCCUPANCY) {
            if (!cli_parse_double(number, 0, 100, &slack, err)) {
                return cli_error_prefix(err, "'%.40s': percentage points ", text);
            }
        } else {
            long long v;
            if (!cli_parse_int(number, 0, 1LL << 30, &v, err)) {
                return cli_error_prefix(err, "'%.40s': ", text);
            }
            slack = (double)v;
        }
    }
    g->on[item] = true;
    g->slack[item] = slack;
    snprintf(g->text[item], sizeof g->text[item], "%.39s", text);
    return true;
}

bool gate_parse(const char *list, gate *g, cli_error *err)
{
    char *copy = strdup(list);
    if (copy == NULL) {
        return cli_error_set(err, EXIT_DATA, "out of memory");
    }
    bool ok = true;
    int count = 0;
    char *save = NULL;
    for (char *item = strtok_r(copy, ",", &save); ok && item != NULL;
         item = strtok_r(NULL, ",", &save)) {
        while (*item == ' ') {
            item++;
        }
        size_t n = strlen(item);
        while (n > 0 && item[n - 1] == ' ') {
            item[--n] = '\0';
        }
        if (n > 0) {
            ok = parse_item(item, g, err);
            count++;
        }
    }
    free(copy);
    if (ok && count == 0) {
        return cli_error_set(err, EXIT_USAGE, "an empty list; items are " ITEM_LIST);
    }
    return ok;
}

/* ---- the --allow file ----------------------------------------------------- */

/* The largest --allow file read: thousands of lines. */
#define ALLOW_FILE_MAX_BYTES (4 << 20)

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
static bool read_line_items(const char **text, const char *end, const char *path, int line,
                            unsigned *out, cli_error *err)
{
    const char *hash = memchr(*text, '#', (size_t)(end - *text));
    const char *stop = hash != NULL ? hash : end;
    const char *colon = *text;
    while ((colon = memchr(colon, ':', (size_t)(stop - colon))) != NULL && colon + 1 < stop &&
           colon[1] != ' ' && colon[1] != '\t') {
        colon++;
    }
    if (colon == NULL || colon + 1 >= stop || !looks_like_items(*text, colon)) {
        return true;
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
            return cli_error_set(err, EXIT_DATA,
                                 "%s: line %d: %s before ':'; write ITEM, ITEM: PATTERN # REASON "
                                 "(items are " ITEM_LIST "), or PATTERN # REASON for every item",
                                 path, line,
                                 bits == 0 && comma == NULL ? "no item" : "an empty item");
        }
        int item = find_item(p, len);
        if (item < 0) {
            char word[48];
            snprintf(word, sizeof word, "%.*s", (int)(len < 40 ? len : 40), p);
            const char *near = near_item(word);
            return cli_error_set(err, EXIT_DATA,
                                 "%s: line %d: '%s' is not an item%s%s%s; items are " ITEM_LIST,
                                 path, line, word, near != NULL ? " (did you mean '" : "",
                                 near != NULL ? near : "", near != NULL ? "'?)" : "");
        }
        bits |= 1u << item;
        p = word_end + 1;
    }
    *out = bits;
    *text = colon + 1;
    return true;
}

static bool parse_allow(const char *path, char *text, size_t size, allow_list *out, cli_error *err)
{
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
            return cli_error_set(err, EXIT_DATA, "%s: line %d: a NUL byte (not a text file?)", path,
                                 line);
        }
        unsigned covers = 0;
        if (!read_line_items(&start, end, path, line, &covers, err)) {
            return false;
        }
        const char *hash = memchr(start, '#', (size_t)(end - start));
        char *pattern = trimmed_copy(start, hash != NULL ? hash : end);
        char *reason = hash != NULL ? trimmed_copy(hash + 1, end) : NULL;
        bool fine = pattern != NULL && (hash == NULL || reason != NULL);
        if (fine && (pattern[0] == '\0' || reason == NULL || reason[0] == '\0')) {
            bool no_pattern = pattern[0] == '\0';
            free(pattern);
            free(reason);
            return cli_error_set(err, EXIT_DATA,
                                 "%s: line %d: %s; write PATTERN # REASON (the reason is "
                                 "required)",
                                 path, line, no_pattern ? "no name pattern" : "no reason");
        }
        allow_rule *bigger =
            fine ? realloc(out->rules, ((size_t)out->count + 1) * sizeof *bigger) : NULL;
        if (bigger == NULL) {
            free(pattern);
            free(reason);
            return cli_error_set(err, EXIT_DATA, "%s: out of memory", path);
        }
        out->rules = bigger;
        out->rules[out->count++] = (allow_rule){pattern, reason, covers, line, 0};
    }
    return true;
}

bool allow_read(const char *path, FILE *in, allow_list *out, cli_error *err)
{
    memset(out, 0, sizeof *out);
    out->path = path;
    char *text;
    size_t size;
    if (!cli_read_file(path, in, ALLOW_FILE_MAX_BYTES, &text, &size, err)) {
        return cli_error_prefix(err, "option --allow: ");
    }
    bool ok = parse_allow(path, text, size, out, err);
    free(text);
    if (!ok) {
        allow_free(out);
    }
    return ok;
}

void allow_free(allow_list *list)
{
    for (int i = 0; i < list->count; i++) {
        free(list->rules[i].pattern);
        free(list->rules[i].reason);
    }
    free(list->rules);
    list->rules = NULL;
    list->count = 0;
}

static bool rule_matches(const allow_rule *rule, const diff_entry *e)
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

/* ---- applying the gate ---------------------------------------------------- */

static bool rises(long long old_value, long long new_value, double slack)
{
    return (double)(new_value - old_value) > slack;
}

static int known(int value)
{
    return value == OCC_INSPECT_UNKNOWN ? 0 : value;
}

/* The items a changed or moved pair fails. */
static uint32_t pair_failures(const gate *g, const diff_entry *e)
{
    const occ_inspect_kernel *a = e->old_k;
    const occ_inspect_kernel *b = e->new_k;
    uint32_t bits = 0;
    if (g->on[GATE_OCCUPANCY] && a->has_occupancy &&
        diff_occupancy_percent(a) - diff_occupancy_percent(b) > g->slack[GATE_OCCUPANCY] + 1e-9) {
        bits |= 1u << GATE_OCCUPANCY;
    }
    int old_blocks = a->has_occupancy ? a->blocks_per_sm : 0;
    int new_blocks = b->has_occupancy ? b->blocks_per_sm : 0;
    if (g->on[GATE_BLOCKS] && a->has_occupancy &&
        (double)(old_blocks - new_blocks) > g->slack[GATE_BLOCKS]) {
        bits |= 1u << GATE_BLOCKS;
    }
    if (g->on[GATE_REGS] && rises(a->regs, b->regs, g->slack[GATE_REGS])) {
        bits |= 1u << GATE_REGS;
    }
    if (g->on[GATE_SPILLS] &&
        (rises(diff_spill_bytes(a), diff_spill_bytes(b), g->slack[GATE_SPILLS]) ||
         rises(a->spill_instructions, b->spill_instructions, g->slack[GATE_SPILLS]))) {
        bits |= 1u << GATE_SPILLS;
    }
    if (g->on[GATE_STACK] && rises(a->stack_bytes, b->stack_bytes, g->slack[GATE_STACK])) {
        bits |= 1u << GATE_STACK;
    }
    if (g->on[GATE_SMEM] && rises(a->smem_bytes, b->smem_bytes, g->slack[GATE_SMEM])) {
        bits |= 1u << GATE_SMEM;
    }
    if (g->on[GATE_BARRIERS] &&
        rises(known(a->barriers), known(b->barriers), g->slack[GATE_BARRIERS])) {
        bits |= 1u << GATE_BARRIERS;
    }
    return bits;
}

static uint32_t failures(const gate *g, const diff_entry *e, const occ_inspect_options *read)
{
    uint32_t bits = 0;
    switch (e->status) {
    case DIFF_CHANGED:
    case DIFF_MOVED:
        bits = pair_failures(g, e);
        if (g->on[GATE_CHANGED] && e->status == DIFF_CHANGED) {
            bits |= 1u << GATE_CHANGED;
        }
        if (g->on[GATE_MOVED] && e->status == DIFF_MOVED) {
            bits |= 1u << GATE_MOVED;
        }
        if ((g->on[GATE_CEILING] && e->risk.at_ceiling) ||
            (g->on[GATE_LAUNCH_BOUNDS] && kernel_risk_fails(&e->risk))) {
            kernel_risk before;
            kernel_risk_flags(e->old_k, read, &before);
            if (g->on[GATE_CEILING] && e->risk.at_ceiling && !before.at_ceiling) {
                bits |= 1u << GATE_CEILING;
            }
            if (g->on[GATE_LAUNCH_BOUNDS] && kernel_risk_fails(&e->risk) &&
                !kernel_risk_fails(&before)) {
                bits |= 1u << GATE_LAUNCH_BOUNDS;
            }
        }
        break;
    case DIFF_ADDED:
        if (g->on[GATE_ADDED]) {
            bits |= 1u << GATE_ADDED;
        }
        /* a new kernel that spills or sits at the ceiling is what those items guard */
        if (g->on[GATE_SPILLS] && ((double)diff_spill_bytes(e->new_k) > g->slack[GATE_SPILLS] ||
                                   (double)e->new_k->spill_instructions > g->slack[GATE_SPILLS])) {
            bits |= 1u << GATE_SPILLS;
        }
        if (g->on[GATE_CEILING] && e->risk.at_ceiling) {
            bits |= 1u << GATE_CEILING;
        }
        if (g->on[GATE_LAUNCH_BOUNDS] && kernel_risk_fails(&e->risk)) {
            bits |= 1u << GATE_LAUNCH_BOUNDS;
        }
        break;
    case DIFF_REMOVED:
        if (g->on[GATE_REMOVED]) {
            bits |= 1u << GATE_REMOVED;
        }
        break;
    }
    return bits;
}

void gate_apply(diff_report *r)
{
    r->failed = 0;
    r->allowed = 0;
    for (size_t i = 0; i < r->entry_count; i++) {
        diff_entry *e = &r->entries[i];
        e->failed = r->gate != NULL ? failures(r->gate, e, r->read) : 0;
        e->excused = 0;
        e->allowed = NULL;
        if (e->failed == 0) {
            continue;
        }
        uint32_t covered = 0;
        const allow_rule *first = NULL;
        for (int a = 0; r->allow != NULL && a < r->allow->count; a++) {
            allow_rule *rule = &r->allow->rules[a];
            uint32_t bits = rule->items != 0 ? rule->items : UINT32_MAX;
            if ((bits & e->failed) != 0 && rule_matches(rule, e)) {
                covered |= bits;
                rule->used++;
                first = first != NULL ? first : rule;
            }
        }
        e->excused = e->failed & covered;
        if ((e->failed & ~covered) == 0) {
            e->allowed = first;
            r->allowed++;
        } else {
            r->failed++;
        }
    }
}

/* ---- order ------------------------------------------------------------------ */

static int cmp_ll(long long a, long long b)
{
    return (a > b) - (a < b);
}

static const occ_inspect_kernel *shown(const diff_entry *e)
{
    return e->new_k != NULL ? e->new_k : e->old_k;
}

/* Negative when a is worse than b. */
static int worse(const diff_entry *a, const diff_entry *b)
{
    bool fa = a->failed != 0 && a->allowed == NULL;
    bool fb = b->failed != 0 && b->allowed == NULL;
    if (fa != fb) {
        return fa ? -1 : 1;
    }
    if (a->status != b->status) {
        return a->status < b->status ? -1 : 1;
    }
    int c = 0;
    if (a->status == DIFF_CHANGED) {
        /* the largest loss of occupancy, then of blocks, then the largest growth */
        double da = diff_occupancy_percent(a->new_k) - diff_occupancy_percent(a->old_k);
        double db = diff_occupancy_percent(b->new_k) - diff_occupancy_percent(b->old_k);
        if (da != db) {
            return da < db ? -1 : 1;
        }
        const long long ga[] = {
            diff_spill_bytes(a->new_k) - diff_spill_bytes(a->old_k),
            (long long)a->new_k->spill_instructions - a->old_k->spill_instructions,
            (long long)a->new_k->regs - a->old_k->regs,
            (long long)a->new_k->stack_bytes - a->old_k->stack_bytes,
            (long long)a->new_k->smem_bytes - a->old_k->smem_bytes,
        };
        const long long gb[] = {
            diff_spill_bytes(b->new_k) - diff_spill_bytes(b->old_k),
            (long long)b->new_k->spill_instructions - b->old_k->spill_instructions,
            (long long)b->new_k->regs - b->old_k->regs,
            (long long)b->new_k->stack_bytes - b->old_k->stack_bytes,
            (long long)b->new_k->smem_bytes - b->old_k->smem_bytes,
        };
        for (size_t i = 0; i < sizeof ga / sizeof ga[0] && c == 0; i++) {
            c = cmp_ll(gb[i], ga[i]);
        }
    } else if (a->status == DIFF_ADDED) {
        double oa = diff_occupancy_percent(a->new_k);
        double ob = diff_occupancy_percent(b->new_k);
        c = oa != ob ? (oa < ob ? -1 : 1) : cmp_ll(b->new_k->regs, a->new_k->regs);
    }
    if (c != 0) {
        return c;
    }
    const occ_inspect_kernel *ka = shown(a);
    const occ_inspect_kernel *kb = shown(b);
    c = strcmp(ka->name, kb->name);
    if (c == 0) {
        c = cmp_ll(ka->sm * 256 + ka->arch_suffix, kb->sm * 256 + kb->arch_suffix);
    }
    return c != 0 ? c : strcmp(ka->mangled, kb->mangled);
}

static int compare_entries(const void *pa, const void *pb)
{
    return worse(pa, pb);
}

void diff_sort(diff_report *r)
{
    if (r->entry_count > 1) {
        qsort(r->entries, r->entry_count, sizeof *r->entries, compare_entries);
    }
}

const char *diff_status_name(diff_status status)
{
    switch (status) {
    case DIFF_CHANGED: return "changed";
    case DIFF_ADDED: return "added";
    case DIFF_REMOVED: return "removed";
    case DIFF_MOVED: return "moved";
    }
    return "?";
}

const char *diff_gate_summary(const diff_report *r, char *buf, size_t cap)
{
    size_t per_item[GATE_ITEM_COUNT] = {0};
    for (size_t i = 0; i < r->entry_count; i++) {
        const diff_entry *e = &r->entries[i];
        if (e->failed == 0 || e->allowed != NULL) {
            continue;
        }
        for (int item = 0; item < GATE_ITEM_COUNT; item++) {
            per_item[item] += ((e->failed & ~e->excused) >> item) & 1u;
        }
    }
    size_t used =
        (size_t)snprintf(buf, cap, "%zu kernel%s (", r->failed, r->failed == 1 ? "" : "s");
    const char *sep = "";
    for (int item = 0; item < GATE_ITEM_COUNT && used < cap; item++) {
        if (per_item[item] > 0) {
            used += (size_t)snprintf(buf + used, cap - used, "%s%s: %zu", sep, r->gate->text[item],
                                     per_item[item]);
            sep = ", ";
        }
    }
    if (used < cap) {
        snprintf(buf + used, cap - used, ")");
    }
    return buf;
}
