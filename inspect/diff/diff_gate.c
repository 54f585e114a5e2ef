/*
 * diff_gate.c - what fails a diff: the gate's items and their thresholds,
 * applying them and the allow list (diff_allow.c), and the order the outputs
 * show the entries in (failures first, then the worst change).
 *
 * A threshold is the change tolerated: regs+8 lets registers grow by 8 and
 * fails at 9; occupancy-10% lets occupancy fall by 10 percentage points and
 * fails below that; a bare item tolerates nothing. Improvements never fail.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "inspect_error.h"
#include "diff_internal.h"
#include "value_parse.h"

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
} items[OCC_DIFF_GATE_ITEM_COUNT] = {
    [OCC_DIFF_GATE_OCCUPANCY] = {"occupancy", THRESHOLD_FALL},
    [OCC_DIFF_GATE_BLOCKS] = {"blocks", THRESHOLD_FALL},
    [OCC_DIFF_GATE_REGS] = {"regs", THRESHOLD_RISE},
    [OCC_DIFF_GATE_SPILLS] = {"spills", THRESHOLD_RISE},
    [OCC_DIFF_GATE_STACK] = {"stack", THRESHOLD_RISE_BYTES},
    [OCC_DIFF_GATE_SMEM] = {"smem", THRESHOLD_RISE_BYTES},
    [OCC_DIFF_GATE_BARRIERS] = {"barriers", THRESHOLD_RISE},
    [OCC_DIFF_GATE_CEILING] = {"ceiling", THRESHOLD_NONE},
    [OCC_DIFF_GATE_LAUNCH_BOUNDS] = {"launch-bounds", THRESHOLD_NONE},
    [OCC_DIFF_GATE_ADDED] = {"added", THRESHOLD_NONE},
    [OCC_DIFF_GATE_REMOVED] = {"removed", THRESHOLD_NONE},
    [OCC_DIFF_GATE_MOVED] = {"moved", THRESHOLD_NONE},
    [OCC_DIFF_GATE_CHANGED] = {"changed", THRESHOLD_NONE},
};

occ_status insp_diff_fail(occ_inspect_error *err, occ_status status, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    insp_error_vset(err, status, -1, -1, format, args);
    va_end(args);
    return status;
}

const char *occ_diff_gate_item_name(occ_diff_gate_item item)
{
    return item >= 0 && item < OCC_DIFF_GATE_ITEM_COUNT ? items[item].name : "?";
}

int insp_diff_find_item(const char *name, size_t len)
{
    for (int i = 0; i < OCC_DIFF_GATE_ITEM_COUNT; i++) {
        if (strlen(items[i].name) == len && memcmp(items[i].name, name, len) == 0) {
            return i;
        }
    }
    return -1;
}

const char *insp_diff_near_item(const char *word)
{
    value_nearest nearest = value_nearest_start(word);
    for (int i = 0; i < OCC_DIFF_GATE_ITEM_COUNT; i++) {
        value_nearest_offer(&nearest, items[i].name);
    }
    return nearest.word;
}

static occ_status unknown_item(const char *name, size_t len, occ_inspect_error *err)
{
    char word[64];
    snprintf(word, sizeof word, "%.*s", (int)(len < 40 ? len : 40), name);
    const char *near = insp_diff_near_item(word);
    if (near != NULL) {
        return insp_diff_fail(err, OCC_ERR_INVALID_ARGUMENT,
                              "'%s' is not an item; did you mean '%s'?", word, near);
    }
    return insp_diff_fail(err, OCC_ERR_INVALID_ARGUMENT,
                          "'%s' is not an item; items are " INSP_DIFF_ITEM_LIST, word);
}

/* The largest threshold in bytes: more than any GPU's shared memory or
   stack, small enough to stay exact in a double. */
#define THRESHOLD_MAX_BYTES (1LL << 40)
/* The largest count (registers, barriers, spill bytes). */
#define THRESHOLD_MAX_COUNT (1LL << 30)

/* One item with its optional threshold: "regs+8", "occupancy-10%". */
static occ_status parse_item(const char *text, occ_diff_gate *g, occ_inspect_error *err)
{
    /* the name ends at a threshold's sign, but a name may hold a '-' itself
       (launch-bounds) */
    size_t len = strcspn(text, "+-");
    int item = insp_diff_find_item(text, len);
    for (size_t more = len; item < 0 && text[more] == '-';) {
        more += 1 + strcspn(text + more + 1, "+-");
        if (insp_diff_find_item(text, more) >= 0) {
            item = insp_diff_find_item(text, more);
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
            return insp_diff_fail(err, OCC_ERR_INVALID_ARGUMENT, "'%.40s': %s takes no threshold",
                                  text, name);
        }
        if (rest[0] != sign) {
            return insp_diff_fail(err, OCC_ERR_INVALID_ARGUMENT,
                                  "'%.40s': a threshold is how far %s may %s before it fails: "
                                  "write %s%c%s",
                                  text, name, sign == '-' ? "fall" : "grow", name, sign,
                                  item == OCC_DIFF_GATE_OCCUPANCY ? "10%" : "8");
        }
        char number[40];
        snprintf(number, sizeof number, "%s", rest + 1);
        size_t n = strlen(number);
        if (n > 0 && number[n - 1] == '%') {
            if (item != OCC_DIFF_GATE_OCCUPANCY) {
                return insp_diff_fail(err, OCC_ERR_INVALID_ARGUMENT,
                                      "'%.40s': only occupancy takes a percentage", text);
            }
            number[n - 1] = '\0';
        }
        long long whole;
        if (kind == THRESHOLD_RISE_BYTES) {
            if (!value_parse_size(number, THRESHOLD_MAX_BYTES, &whole, NULL)) {
                return insp_diff_fail(err, OCC_ERR_INVALID_ARGUMENT,
                                      "'%.40s': '%s' is not a size in bytes from 0 to 1 TiB "
                                      "such as 4096, 48K or 1.5KiB",
                                      text, number);
            }
            slack = (double)whole;
        } else if (item == OCC_DIFF_GATE_OCCUPANCY) {
            if (!value_parse_decimal(number, 0, 100, &slack, NULL)) {
                return insp_diff_fail(err, OCC_ERR_INVALID_ARGUMENT,
                                      "'%.40s': percentage points '%s' is not a number from 0 "
                                      "to 100",
                                      text, number);
            }
        } else {
            /* digits only: the sign is the threshold's, written once */
            if (!isdigit((unsigned char)number[0]) ||
                !value_parse_int(number, 0, THRESHOLD_MAX_COUNT, &whole, NULL)) {
                return insp_diff_fail(err, OCC_ERR_INVALID_ARGUMENT,
                                      "'%.40s': '%s' is not a whole number from 0 to %lld", text,
                                      number, THRESHOLD_MAX_COUNT);
            }
            slack = (double)whole;
        }
    }
    g->on[item] = true;
    g->slack[item] = slack;
    snprintf(g->text[item], sizeof g->text[item], "%.39s", text);
    return OCC_OK;
}

occ_status occ_diff_gate_parse(const char *list, occ_diff_gate *g, occ_inspect_error *err)
{
    if (list == NULL || g == NULL) {
        return insp_diff_fail(err, OCC_ERR_NULL_POINTER, "occ_diff_gate_parse: a NULL argument");
    }
    char *copy = strdup(list);
    if (copy == NULL) {
        return insp_diff_fail(err, OCC_ERR_OUT_OF_MEMORY, "out of memory");
    }
    occ_status status = OCC_OK;
    int count = 0;
    char *save = NULL;
    for (char *item = strtok_r(copy, ",", &save); status == OCC_OK && item != NULL;
         item = strtok_r(NULL, ",", &save)) {
        while (*item == ' ') {
            item++;
        }
        size_t n = strlen(item);
        while (n > 0 && item[n - 1] == ' ') {
            item[--n] = '\0';
        }
        if (n > 0) {
            status = parse_item(item, g, err);
            count++;
        }
    }
    free(copy);
    if (status == OCC_OK && count == 0) {
        return insp_diff_fail(err, OCC_ERR_INVALID_ARGUMENT,
                              "an empty list; items are " INSP_DIFF_ITEM_LIST);
    }
    return status;
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
static uint32_t pair_failures(const occ_diff_gate *g, const occ_diff_entry *e)
{
    const occ_inspect_kernel *a = e->old_k;
    const occ_inspect_kernel *b = e->new_k;
    uint32_t bits = 0;
    if (g->on[OCC_DIFF_GATE_OCCUPANCY] && a->has_occupancy &&
        occ_diff_occupancy_percent(a) - occ_diff_occupancy_percent(b) >
            g->slack[OCC_DIFF_GATE_OCCUPANCY] + 1e-9) {
        bits |= 1u << OCC_DIFF_GATE_OCCUPANCY;
    }
    int old_blocks = a->has_occupancy ? a->blocks_per_sm : 0;
    int new_blocks = b->has_occupancy ? b->blocks_per_sm : 0;
    if (g->on[OCC_DIFF_GATE_BLOCKS] && a->has_occupancy &&
        (double)(old_blocks - new_blocks) > g->slack[OCC_DIFF_GATE_BLOCKS]) {
        bits |= 1u << OCC_DIFF_GATE_BLOCKS;
    }
    if (g->on[OCC_DIFF_GATE_REGS] && rises(a->regs, b->regs, g->slack[OCC_DIFF_GATE_REGS])) {
        bits |= 1u << OCC_DIFF_GATE_REGS;
    }
    if (g->on[OCC_DIFF_GATE_SPILLS] &&
        (rises(occ_diff_spill_bytes(a), occ_diff_spill_bytes(b), g->slack[OCC_DIFF_GATE_SPILLS]) ||
         rises(a->spill_instructions, b->spill_instructions, g->slack[OCC_DIFF_GATE_SPILLS]))) {
        bits |= 1u << OCC_DIFF_GATE_SPILLS;
    }
    if (g->on[OCC_DIFF_GATE_STACK] &&
        rises(a->stack_bytes, b->stack_bytes, g->slack[OCC_DIFF_GATE_STACK])) {
        bits |= 1u << OCC_DIFF_GATE_STACK;
    }
    if (g->on[OCC_DIFF_GATE_SMEM] &&
        rises(a->smem_bytes, b->smem_bytes, g->slack[OCC_DIFF_GATE_SMEM])) {
        bits |= 1u << OCC_DIFF_GATE_SMEM;
    }
    if (g->on[OCC_DIFF_GATE_BARRIERS] &&
        rises(known(a->barriers), known(b->barriers), g->slack[OCC_DIFF_GATE_BARRIERS])) {
        bits |= 1u << OCC_DIFF_GATE_BARRIERS;
    }
    return bits;
}

static uint32_t failures(const occ_diff_gate *g, const occ_diff_entry *e,
                         const occ_inspect_options *read)
{
    uint32_t bits = 0;
    switch (e->status) {
    case OCC_DIFF_CHANGED:
    case OCC_DIFF_MOVED:
        bits = pair_failures(g, e);
        if (g->on[OCC_DIFF_GATE_CHANGED] && e->status == OCC_DIFF_CHANGED) {
            bits |= 1u << OCC_DIFF_GATE_CHANGED;
        }
        if (g->on[OCC_DIFF_GATE_MOVED] && e->status == OCC_DIFF_MOVED) {
            bits |= 1u << OCC_DIFF_GATE_MOVED;
        }
        if ((g->on[OCC_DIFF_GATE_CEILING] && e->risk.at_ceiling) ||
            (g->on[OCC_DIFF_GATE_LAUNCH_BOUNDS] && occ_inspect_risk_fails(&e->risk))) {
            occ_inspect_risk before;
            occ_inspect_risk_flags(e->old_k, read, &before);
            if (g->on[OCC_DIFF_GATE_CEILING] && e->risk.at_ceiling && !before.at_ceiling) {
                bits |= 1u << OCC_DIFF_GATE_CEILING;
            }
            if (g->on[OCC_DIFF_GATE_LAUNCH_BOUNDS] && occ_inspect_risk_fails(&e->risk) &&
                !occ_inspect_risk_fails(&before)) {
                bits |= 1u << OCC_DIFF_GATE_LAUNCH_BOUNDS;
            }
        }
        break;
    case OCC_DIFF_ADDED:
        if (g->on[OCC_DIFF_GATE_ADDED]) {
            bits |= 1u << OCC_DIFF_GATE_ADDED;
        }
        /* a new kernel that spills or sits at the ceiling is what those items guard */
        if (g->on[OCC_DIFF_GATE_SPILLS] &&
            ((double)occ_diff_spill_bytes(e->new_k) > g->slack[OCC_DIFF_GATE_SPILLS] ||
             (double)e->new_k->spill_instructions > g->slack[OCC_DIFF_GATE_SPILLS])) {
            bits |= 1u << OCC_DIFF_GATE_SPILLS;
        }
        if (g->on[OCC_DIFF_GATE_CEILING] && e->risk.at_ceiling) {
            bits |= 1u << OCC_DIFF_GATE_CEILING;
        }
        if (g->on[OCC_DIFF_GATE_LAUNCH_BOUNDS] && occ_inspect_risk_fails(&e->risk)) {
            bits |= 1u << OCC_DIFF_GATE_LAUNCH_BOUNDS;
        }
        break;
    case OCC_DIFF_REMOVED:
        if (g->on[OCC_DIFF_GATE_REMOVED]) {
            bits |= 1u << OCC_DIFF_GATE_REMOVED;
        }
        break;
    }
    return bits;
}

void insp_diff_gate_apply(occ_diff_report *r)
{
    r->failed = 0;
    r->allowed = 0;
    for (size_t i = 0; i < r->entry_count; i++) {
        occ_diff_entry *e = &r->entries[i];
        e->failed = r->gate != NULL ? failures(r->gate, e, r->read) : 0;
        e->excused = 0;
        e->allowed = NULL;
        if (e->failed == 0) {
            continue;
        }
        uint32_t covered = 0;
        const occ_diff_allow_rule *first = NULL;
        for (int a = 0; r->allow != NULL && a < r->allow->count; a++) {
            occ_diff_allow_rule *rule = &r->allow->rules[a];
            uint32_t bits = rule->items != 0 ? rule->items : UINT32_MAX;
            if ((bits & e->failed) != 0 && insp_diff_allow_matches(rule, e)) {
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

static const occ_inspect_kernel *shown(const occ_diff_entry *e)
{
    return e->new_k != NULL ? e->new_k : e->old_k;
}

/* Negative when a is worse than b. */
static int worse(const occ_diff_entry *a, const occ_diff_entry *b)
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
    if (a->status == OCC_DIFF_CHANGED) {
        /* the largest loss of occupancy, then of blocks, then the largest growth */
        double da = occ_diff_occupancy_percent(a->new_k) - occ_diff_occupancy_percent(a->old_k);
        double db = occ_diff_occupancy_percent(b->new_k) - occ_diff_occupancy_percent(b->old_k);
        if (da != db) {
            return da < db ? -1 : 1;
        }
        const long long ga[] = {
            occ_diff_spill_bytes(a->new_k) - occ_diff_spill_bytes(a->old_k),
            (long long)a->new_k->spill_instructions - a->old_k->spill_instructions,
            (long long)a->new_k->regs - a->old_k->regs,
            (long long)a->new_k->stack_bytes - a->old_k->stack_bytes,
            (long long)a->new_k->smem_bytes - a->old_k->smem_bytes,
        };
        const long long gb[] = {
            occ_diff_spill_bytes(b->new_k) - occ_diff_spill_bytes(b->old_k),
            (long long)b->new_k->spill_instructions - b->old_k->spill_instructions,
            (long long)b->new_k->regs - b->old_k->regs,
            (long long)b->new_k->stack_bytes - b->old_k->stack_bytes,
            (long long)b->new_k->smem_bytes - b->old_k->smem_bytes,
        };
        for (size_t i = 0; i < sizeof ga / sizeof ga[0] && c == 0; i++) {
            c = cmp_ll(gb[i], ga[i]);
        }
    } else if (a->status == OCC_DIFF_ADDED) {
        double oa = occ_diff_occupancy_percent(a->new_k);
        double ob = occ_diff_occupancy_percent(b->new_k);
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

void insp_diff_sort(occ_diff_report *r)
{
    if (r->entry_count > 1) {
        qsort(r->entries, r->entry_count, sizeof *r->entries, compare_entries);
    }
}

const char *occ_diff_status_name(occ_diff_status status)
{
    switch (status) {
    case OCC_DIFF_CHANGED: return "changed";
    case OCC_DIFF_ADDED: return "added";
    case OCC_DIFF_REMOVED: return "removed";
    case OCC_DIFF_MOVED: return "moved";
    }
    return "?";
}

const char *occ_diff_gate_summary(const occ_diff_report *r, char *buf, size_t cap)
{
    size_t per_item[OCC_DIFF_GATE_ITEM_COUNT] = {0};
    for (size_t i = 0; i < r->entry_count; i++) {
        const occ_diff_entry *e = &r->entries[i];
        if (e->failed == 0 || e->allowed != NULL) {
            continue;
        }
        for (int item = 0; item < OCC_DIFF_GATE_ITEM_COUNT; item++) {
            per_item[item] += ((e->failed & ~e->excused) >> item) & 1u;
        }
    }
    size_t used =
        (size_t)snprintf(buf, cap, "%zu kernel%s (", r->failed, r->failed == 1 ? "" : "s");
    const char *sep = "";
    for (int item = 0; item < OCC_DIFF_GATE_ITEM_COUNT && used < cap; item++) {
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
