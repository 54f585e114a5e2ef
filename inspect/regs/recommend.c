/*
 * recommend.c - which register cap to recommend, and why in words. The rule
 * is v1, measured on the H200 (issue 20's `occ lab regs`: regret against
 * the best measured cap, docs/results/regs-h200), with what that run showed
 * it must never do: recommend a compile that cannot run. Keep it in
 * occ_regs_recommend alone, so that the measurement changes one function.
 */
#include <stdarg.h>
#include <stdio.h>

#include "regs_internal.h"

int occ_regs_point_spill_bytes(const occ_regs_point *p)
{
    return p->spill_store_bytes + p->spill_load_bytes;
}

bool occ_regs_point_runs(const occ_regs_point *p)
{
    return p->blocks_per_sm > 0 && p->setmaxnreg_fits != OCC_REGS_NO;
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
 *
 * Only compiles that run count (occ_regs_point_runs): a block fits an SM,
 * and the warp groups' setmaxnreg budgets are not known not to fit. On the
 * H200, ws_gemm_nolb (setmaxnreg without __launch_bounds__) could not
 * launch uncapped (194 registers x 384 threads), hung in setmaxnreg.inc at
 * caps 40 to 160 (the block's pool below the groups' 64,512) and ran only
 * at 168, where v1 alone named 40. Where no cap does not run, the cap that
 * runs with the fewest spill bytes, then the smallest stack, then the most
 * blocks, then the highest cap; where nothing runs, no cap (why says so).
 */
int occ_regs_recommend(const occ_regs_point *caps, int count)
{
    if (count <= 0) {
        return 0;
    }
    if (!occ_regs_point_runs(&caps[0])) {
        int best = 0;
        for (int i = 1; i < count; i++) {
            const occ_regs_point *p = &caps[i], *b = &caps[best];
            if (!occ_regs_point_runs(p)) {
                continue;
            }
            int spill = occ_regs_point_spill_bytes(p), best_spill = occ_regs_point_spill_bytes(b);
            if (best == 0 || spill < best_spill ||
                (spill == best_spill && p->stack_bytes < b->stack_bytes) ||
                (spill == best_spill && p->stack_bytes == b->stack_bytes &&
                 p->blocks_per_sm > b->blocks_per_sm)) {
                best = i;
            }
        }
        return best;
    }
    int best = 0;
    int best_blocks = caps[0].blocks_per_sm;
    for (int i = 1; i < count; i++) {
        const occ_regs_point *p = &caps[i];
        if (occ_regs_point_runs(p) && occ_regs_point_spill_bytes(p) == 0 &&
            p->stack_bytes <= caps[0].stack_bytes && p->blocks_per_sm > best_blocks) {
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

/* Why a compile does not run, after "cannot run: " (no cap's, in words). */
static void say_why_not(words *w, const occ_regs_point *p, int threads)
{
    if (p->blocks_per_sm <= 0) {
        say(w, "%d registers x %d threads leave no room for a block on an SM", p->regs, threads);
    } else {
        say(w,
            "its warp groups' setmaxnreg budgets do not fit the %d registers x %d threads its "
            "block holds at entry, and setmaxnreg.inc would wait forever",
            p->regs, threads);
    }
}

/* The caps that cannot run, in two lists: no block fits, and setmaxnreg's
   budgets do not. */
static void say_not_running(words *w, const occ_regs_point *caps, int count)
{
    for (int kind = 0; kind < 2; kind++) {
        int n = 0;
        for (int i = 1; i < count; i++) {
            const occ_regs_point *p = &caps[i];
            bool listed = kind == 0 ? p->blocks_per_sm <= 0
                                    : p->blocks_per_sm > 0 && p->setmaxnreg_fits == OCC_REGS_NO;
            if (!listed) {
                continue;
            }
            if (n++ == 0) {
                say(w, kind == 0 ? " Caps that cannot launch (no block fits an SM):"
                                 : " Caps whose warp groups' setmaxnreg budgets do not fit "
                                   "the registers the block holds at entry (a hang):");
            }
            say(w, "%s %d", n > 1 ? "," : "", p->cap);
        }
        if (n > 0) {
            say(w, ".");
        }
    }
}

/* Whether a running cap adds blocks only by spilling or growing the stack. */
static bool costly(const occ_regs_point *p, const occ_regs_point *none)
{
    return occ_regs_point_runs(p) && p->blocks_per_sm > none->blocks_per_sm &&
           (occ_regs_point_spill_bytes(p) > 0 || p->stack_bytes > none->stack_bytes);
}

const char *regs_why(const occ_regs_point *caps, int count, int index, int max_blocks, int threads,
                     char *buf, size_t cap)
{
    words w = {buf, cap, 0};
    buf[0] = '\0';
    if (count <= 0) {
        return buf;
    }
    const occ_regs_point *none = &caps[0];
    int costly_count = 0;
    for (int i = 1; i < count; i++) {
        costly_count += costly(&caps[i], none);
    }
    bool none_runs = occ_regs_point_runs(none);
    if (!none_runs && index > 0) {
        const occ_regs_point *p = &caps[index];
        say(&w, "cap %d: no cap cannot run (", p->cap);
        say_why_not(&w, none, threads);
        say(&w, "); cap %d runs, %d %s per SM (%.1f%%) at %d registers", p->cap, p->blocks_per_sm,
            plural(p->blocks_per_sm, "block", "blocks"), p->occupancy * 100, p->regs);
        if (occ_regs_point_spill_bytes(p) > 0 || p->stack_bytes > 0) {
            say(&w, " with %d spill bytes and %d B stack", occ_regs_point_spill_bytes(p),
                p->stack_bytes);
        } else {
            say(&w, " with no spills");
        }
        if (p->setmaxnreg_fits == OCC_REGS_YES) {
            say(&w,
                ", and its warp groups' setmaxnreg budgets fit the %d x %d registers its block "
                "holds at entry",
                p->regs, threads);
        }
        say(&w, ".");
    } else if (!none_runs) {
        say(&w, "no cap, though it cannot run (");
        say_why_not(&w, none, threads);
        say(&w, "): no compile runs%s.",
            count > 1 ? "" : ", and no cap was compiled (the notes say why)");
    } else if (index > 0) {
        const occ_regs_point *p = &caps[index];
        say(&w,
            "cap %d: %d %s per SM (%.1f%%) where no cap gives %d (%.1f%%), with no spills and "
            "no more stack (%d registers against %d).",
            p->cap, p->blocks_per_sm, plural(p->blocks_per_sm, "block", "blocks"),
            p->occupancy * 100, none->blocks_per_sm, none->occupancy * 100, p->regs, none->regs);
    } else if (none->blocks_per_sm >= max_blocks) {
        say(&w,
            "no cap: %d %s per SM (%.1f%%) at %d registers, the most this launch allows with any "
            "registers: no cap adds a block.",
            none->blocks_per_sm, plural(none->blocks_per_sm, "block", "blocks"),
            none->occupancy * 100, none->regs);
    } else if (count == 1) {
        say(&w,
            "no cap: no cap compiled adds a block (%d %s per SM, %.1f%%, at %d registers; the "
            "notes say why).",
            none->blocks_per_sm, plural(none->blocks_per_sm, "block", "blocks"),
            none->occupancy * 100, none->regs);
    } else {
        int adding = 0;
        for (int i = 1; i < count; i++) {
            adding += occ_regs_point_runs(&caps[i]) && caps[i].blocks_per_sm > none->blocks_per_sm;
        }
        if (adding == 0) {
            say(&w,
                "no cap: no cap compiled adds a block (ptxas's registers at each give %d or "
                "fewer per SM).",
                none->blocks_per_sm);
        } else if (costly_count == adding) {
            say(&w, "no cap: every cap that adds blocks spills or grows the stack, at a cost "
                    "ptxas cannot measure.");
        } else {
            say(&w, "no cap: no cap adds blocks without spilling.");
        }
    }
    int cliff = regs_cliff_cap(caps, count);
    if (cliff > 0) {
        say(&w, " The cliff is at cap %d: from there down ptxas spills.", cliff);
    }
    if (costly_count > 0) {
        say(&w, " %s that buy%s blocks only by spilling:", plural(costly_count, "A cap", "Caps"),
            plural(costly_count, "s", ""));
        int listed = 0;
        for (int i = 1; i < count; i++) {
            const occ_regs_point *p = &caps[i];
            if (costly(p, none)) {
                say(&w, "%s %d (%d %s, %d spill bytes, %d B stack)", listed++ > 0 ? "," : "",
                    p->cap, p->blocks_per_sm, plural(p->blocks_per_sm, "block", "blocks"),
                    occ_regs_point_spill_bytes(p), p->stack_bytes);
            }
        }
        say(&w, ".");
    }
    say_not_running(&w, caps, count);
    return buf;
}
