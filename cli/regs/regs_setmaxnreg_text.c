/*
 * regs_setmaxnreg_text.c - occ regs' setmaxnreg findings in words, under a
 * kernel's table (docs/setmaxnreg.md): the warp groups' regions and
 * budgets, the block's pool and the register file, whether the code still
 * reconfigures registers, and each error on a line of its own, so that
 * what ptxas only said in an info line is seen.
 */
#include <string.h>

#include "output.h"
#include "regs.h"

static const char *answer_word(occ_regs_answer a, const char *yes, const char *no)
{
    return a == OCC_REGS_YES ? yes : a == OCC_REGS_NO ? no : "cannot be told";
}

/* "group 0", "groups 1-2", "groups 0, 2", "groups not told". */
static const char *groups_text(const occ_regs_setmaxnreg_region *r, char *buf, size_t cap)
{
    if (r->warp_groups == 0) {
        snprintf(buf, cap, "groups not told");
        return buf;
    }
    size_t used = (size_t)snprintf(buf, cap, "%s", r->warp_group_count == 1 ? "group" : "groups");
    int listed = 0;
    for (int g = 0; g < 32 && used < cap; g++) {
        if (!((r->warp_groups >> g) & 1u)) {
            continue;
        }
        int last = g;
        while (last + 1 < 32 && ((r->warp_groups >> (last + 1)) & 1u)) {
            last++;
        }
        if (last > g) {
            used +=
                (size_t)snprintf(buf + used, cap - used, "%s %d-%d", listed++ ? "," : "", g, last);
        } else {
            used += (size_t)snprintf(buf + used, cap - used, "%s %d", listed++ ? "," : "", g);
        }
        g = last;
    }
    return buf;
}

static void print_lines(FILE *out, const char *text, const char *label)
{
    while (text != NULL && *text != '\0') {
        const char *nl = strchr(text, '\n');
        size_t len = nl != NULL ? (size_t)(nl - text) : strlen(text);
        char line[700];
        /* cli_print_wrapped folds leading spaces: the indent goes first */
        snprintf(line, sizeof line, "%s: %.*s", label, (int)(len < 600 ? len : 600), text);
        fputs("  ", out);
        cli_print_wrapped(out, line, (int)strlen(label) + 4);
        text = nl != NULL ? nl + 1 : text + len;
    }
}

void regs_print_setmaxnreg(FILE *out, const occ_regs_kernel *k)
{
    const occ_regs_setmaxnreg *m = k->setmaxnreg;
    if (m == NULL) {
        return;
    }
    char a[32], b[32], c[32], d[32];
    fprintf(out, "  setmaxnreg: %d threads", m->block_threads);
    if (m->warp_group_count > 0) {
        fprintf(out, " in %d warp %s", m->warp_group_count,
                cli_plural(m->warp_group_count, "group", "groups"));
    }
    fprintf(out, ", %d registers a thread at entry (no cap)\n", m->regs_at_entry);
    for (int i = 0; i < m->region_count; i++) {
        const occ_regs_setmaxnreg_region *r = &m->regions[i];
        char groups[64], what[64], regs[48] = "";
        groups_text(r, groups, sizeof groups);
        if (r->line == 0) {
            snprintf(what, sizeof what, "keep %d (no setmaxnreg)", r->regs_per_thread);
        } else {
            snprintf(what, sizeof what, "%s to %d at PTX line %d", r->action, r->regs_per_thread,
                     r->line);
        }
        if (r->regs >= 0) {
            snprintf(regs, sizeof regs, "%s registers", group_digits(r->regs, a, sizeof a));
        }
        fprintf(out, "    %-16s %-30s %s\n", groups, what, regs);
    }
    char budget[300];
    if (m->block_budget_regs >= 0) {
        int blocks = m->blocks_per_sm > 0 ? m->blocks_per_sm : 1;
        snprintf(budget, sizeof budget,
                 "budget: %s registers a block x %d %s = %s; the block holds %s at entry, the SM "
                 "%s: %s",
                 group_digits(m->block_budget_regs, a, sizeof a), blocks,
                 cli_plural(blocks, "block", "blocks"), group_digits(m->budget_regs, b, sizeof b),
                 m->pool_regs >= 0 ? group_digits(m->pool_regs, c, sizeof c) : "an unknown count",
                 group_digits(m->regs_per_sm, d, sizeof d),
                 answer_word(m->fits, "fits", "does not fit"));
    } else {
        snprintf(budget, sizeof budget, "budget: cannot be told");
    }
    fputs("    ", out);
    cli_print_wrapped(out, budget, 6);
    char code[160] = "";
    size_t used = 0;
    for (int i = 0; i < m->message_count && used < sizeof code; i++) {
        used += (size_t)snprintf(code + used, sizeof code - used, "%s%s", i > 0 ? ", " : "",
                                 m->messages[i].code);
    }
    char in_code[64];
    if (m->usetmaxreg_count >= 0) {
        snprintf(in_code, sizeof in_code, "%d USETMAXREG in the code", m->usetmaxreg_count);
    } else {
        snprintf(in_code, sizeof in_code, "the code not read");
    }
    fprintf(out, "    honoured: %s (%s); ptxas said %s\n", answer_word(m->honoured, "yes", "no"),
            in_code, used > 0 ? code : "nothing");
    print_lines(out, m->errors, "error");
    if (m->note[0] != '\0' && strstr(m->errors, m->note) == NULL) {
        print_lines(out, m->note, "setmaxnreg note");
    }
}
