/*
 * recommend.c - which register cap to recommend, and why in words. The rule
 * is v1, to be measured on the H200 (issue 20's `occ lab regs`: regret
 * against the best measured cap) and tuned there; keep it in
 * occ_regs_recommend alone, so that the measurement changes one function.
 */
#include <stdarg.h>
#include <stdio.h>

#include "regs_internal.h"

int occ_regs_point_spill_bytes(const occ_regs_point *p)
{
    return p->spill_store_bytes + p->spill_load_bytes;
}

/*
 * v1: no cap, unless a cap adds resident blocks at no cost ptxas reports:
 * no spill bytes at all and no more stack than the unconstrained compile.
 * Among those, the most blocks; on a tie the highest cap (the first, caps
 * are highest first), which leaves ptxas the most room. Spills are refused
 * outright because their cost depends on how often the spilling code runs,
 * which ptxas's static byte counts do not say, and the course's
 * launch-bounds experiment measured a 38% slowdown at 100% occupancy from
 * them; the measurement will say whether a small spill may be worth a block.
 */
int occ_regs_recommend(const occ_regs_point *caps, int count)
{
    if (count <= 0) {
        return 0;
    }
    int best = 0;
    int best_blocks = caps[0].blocks_per_sm;
    for (int i = 1; i < count; i++) {
        const occ_regs_point *p = &caps[i];
        if (occ_regs_point_spill_bytes(p) == 0 && p->stack_bytes <= caps[0].stack_bytes &&
            p->blocks_per_sm > best_blocks) {
            best = i;
            best_blocks = p->blocks_per_sm;
        }
    }
    return best;
}

int regs_cliff_cap(const occ_regs_point *caps, int count)
{
    for (int i = 1; i < count; i++) {
        if (caps[i].cap > 0 && occ_regs_point_spill_bytes(&caps[i]) > 0) {
            return caps[i].cap;
        }
    }
    return 0;
}

typedef struct words {
    char *buf;
    size_t cap, used;
} words;

static void say(words *w, const char *format, ...) __attribute__((format(printf, 2, 3)));

static void say(words *w, const char *format, ...)
{
    if (w->used >= w->cap) {
        return;
    }
    va_list ap;
    va_start(ap, format);
    int n = vsnprintf(w->buf + w->used, w->cap - w->used, format, ap);
    va_end(ap);
    if (n > 0) {
        w->used += (size_t)n < w->cap - w->used ? (size_t)n : w->cap - w->used - 1;
    }
}

static const char *plural(int n, const char *one, const char *many)
{
    return n == 1 ? one : many;
}

const char *regs_why(const occ_regs_point *caps, int count, int index, int max_blocks, char *buf,
                     size_t cap)
{
    words w = {buf, cap, 0};
    buf[0] = '\0';
    if (count <= 0) {
        return buf;
    }
    const occ_regs_point *none = &caps[0];
    /* caps that add blocks only by spilling or growing the stack */
    int costly = 0;
    for (int i = 1; i < count; i++) {
        costly +=
            caps[i].blocks_per_sm > none->blocks_per_sm &&
            (occ_regs_point_spill_bytes(&caps[i]) > 0 || caps[i].stack_bytes > none->stack_bytes);
    }
    if (index > 0) {
        const occ_regs_point *p = &caps[index];
        say(&w,
            "cap %d: %d %s per SM (%.1f%%) where no cap gives %d (%.1f%%), with no spills and "
            "no more stack (%d registers against %d).",
            p->cap, p->blocks_per_sm, plural(p->blocks_per_sm, "block", "blocks"),
            p->occupancy * 100, none->blocks_per_sm, none->occupancy * 100, p->regs, none->regs);
    } else if (none->blocks_per_sm >= max_blocks) {
        say(&w,
            "no cap: %d %s per SM (%.1f%%) at %d registers, the most this launch allows with any "
            "registers; a cap can only cost.",
            none->blocks_per_sm, plural(none->blocks_per_sm, "block", "blocks"),
            none->occupancy * 100, none->regs);
    } else if (count == 1) {
        say(&w,
            "no cap: no cap compiled adds a block (%d %s per SM, %.1f%%, at %d registers; the "
            "notes say why).",
            none->blocks_per_sm, plural(none->blocks_per_sm, "block", "blocks"),
            none->occupancy * 100, none->regs);
    } else if (costly == count - 1) {
        say(&w, "no cap: every cap that adds blocks spills or grows the stack, at a cost ptxas "
                "cannot measure.");
    } else {
        say(&w, "no cap: no cap adds blocks without spilling.");
    }
    int cliff = regs_cliff_cap(caps, count);
    if (cliff > 0) {
        say(&w, " The cliff is at cap %d: from there down ptxas spills.", cliff);
    }
    if (costly > 0) {
        say(&w, " %s that buy%s blocks only by spilling:", plural(costly, "A cap", "Caps"),
            plural(costly, "s", ""));
        int listed = 0;
        for (int i = 1; i < count; i++) {
            const occ_regs_point *p = &caps[i];
            if (p->blocks_per_sm > none->blocks_per_sm &&
                (occ_regs_point_spill_bytes(p) > 0 || p->stack_bytes > none->stack_bytes)) {
                say(&w, "%s %d (%d %s, %d spill bytes, %d B stack)", listed++ > 0 ? "," : "",
                    p->cap, p->blocks_per_sm, plural(p->blocks_per_sm, "block", "blocks"),
                    occ_regs_point_spill_bytes(p), p->stack_bytes);
            }
        }
        say(&w, ".");
    }
    return buf;
}
