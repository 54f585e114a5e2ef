/*
 * regs_text.c - occ regs as a table: what ran (input, arch, ptxas, GPU and
 * the cache's part), then for each kernel one row a cap (none first, then
 * the caps highest first) and one a __launch_bounds__ variant, with whether
 * setmaxnreg's budgets fit each where the kernel has setmaxnreg, the
 * recommendation with its reason, the setmaxnreg findings, and the notes.
 */
#include <string.h>

#include "output.h"
#include "regs.h"

static void print_notes(FILE *out, const char *notes, const char *indent)
{
    while (notes != NULL && *notes != '\0') {
        const char *nl = strchr(notes, '\n');
        size_t len = nl != NULL ? (size_t)(nl - notes) : strlen(notes);
        char line[700];
        /* cli_print_wrapped folds leading spaces: the indent goes first */
        snprintf(line, sizeof line, "note: %.*s", (int)(len < 600 ? len : 600), notes);
        fputs(indent, out);
        cli_print_wrapped(out, line, (int)strlen(indent) + 6);
        notes = nl != NULL ? nl + 1 : notes + len;
    }
}

static void row(FILE *out, const char *label, const occ_regs_point *p, bool recommended,
                bool predicted, bool setmaxnreg)
{
    fprintf(out, "  %-8s %5d %9d %9d %6d %7d %6.1f%%", label, p->regs, p->spill_store_bytes,
            p->spill_load_bytes, p->stack_bytes, p->blocks_per_sm, p->occupancy * 100);
    if (setmaxnreg) {
        fprintf(out, " %10s",
                p->setmaxnreg_fits == OCC_REGS_YES  ? "fits"
                : p->setmaxnreg_fits == OCC_REGS_NO ? "over"
                                                    : "?");
    }
    if (predicted) {
        if (p->predicted) {
            fprintf(out, " %7.0f GB/s %5.2fx", p->predicted_gb_per_s,
                    p->predicted_vs_unconstrained);
        } else {
            fprintf(out, " %17s", "-");
        }
    }
    fputs(recommended ? "  <- recommended\n" : "\n", out);
}

/* The caps worth timing, each with its registers and blocks. */
static void print_candidates(FILE *out, const occ_regs_kernel *k)
{
    if (k->candidate_count == 0) {
        fputs("  to time: nothing runs\n", out);
        return;
    }
    char line[2048] = "to time (no cap, and each block count's highest cap without spills):";
    size_t used = strlen(line);
    for (int i = 0; i < k->candidate_count && used < sizeof line; i++) {
        const occ_regs_point *p = &k->caps[k->candidates[i]];
        char cap[16];
        snprintf(cap, sizeof cap, p->cap > 0 ? "%d" : "none", p->cap);
        used += (size_t)snprintf(line + used, sizeof line - used, "%s %s (%d regs, %d %s)",
                                 i > 0 ? "," : "", cap, p->regs, p->blocks_per_sm,
                                 cli_plural(p->blocks_per_sm, "block", "blocks"));
    }
    fputs("  ", out);
    cli_print_wrapped(out, line, 4);
}

static void print_kernel(FILE *out, const occ_regs_kernel *k, bool predicted)
{
    char name[512];
    fprintf(out, "\n%s  [%d threads (%s), %d B static shared memory]\n",
            cli_visible(k->name, name, sizeof name), k->threads, k->threads_source, k->smem_bytes);
    bool smr = k->setmaxnreg != NULL;
    fprintf(out, "  %-8s %5s %9s %9s %6s %7s %7s%s%s\n", "CAP", "REGS", "SPILL-ST", "SPILL-LD",
            "STACK", "BLK/SM", "OCC", smr ? " SETMAXNREG" : "",
            predicted ? "  PREDICTED   VS NONE" : "");
    for (int i = 0; i < k->cap_count; i++) {
        char label[16];
        if (k->caps[i].cap > 0) {
            snprintf(label, sizeof label, "%d", k->caps[i].cap);
        } else {
            snprintf(label, sizeof label, "none");
        }
        row(out, label, &k->caps[i], i == k->recommended && k->cap_count > 1, predicted, smr);
    }
    if (k->launch_bounds_count > 0) {
        fprintf(out, "  __launch_bounds__(%d, N):\n", k->threads);
        for (int i = 0; i < k->launch_bounds_count; i++) {
            char label[16];
            snprintf(label, sizeof label, "N=%d", k->launch_bounds[i].min_blocks);
            row(out, label, &k->launch_bounds[i], false, predicted, smr);
        }
    }
    char why[2200];
    snprintf(why, sizeof why, "recommended: %s", k->why);
    fputs("  ", out);
    cli_print_wrapped(out, why, 4);
    print_candidates(out, k);
    regs_print_setmaxnreg(out, k);
    print_notes(out, k->notes, "  ");
}

void regs_print_text(FILE *out, const occ_regs_result *r, bool prediction_asked)
{
    occ_regs_totals t;
    occ_regs_totals_get(r, &t);
    char input[512];
    cli_visible(t.input, input, sizeof input);
    fprintf(out,
            "%s (%s): %s compiled by ptxas %s, occupancy on %s; %d %s (%d ptxas %s, %d from "
            "the cache)\n",
            input, t.input_kind, t.arch, t.ptxas_version, t.gpu, t.compiles,
            cli_plural(t.compiles, "compile", "compiles"), t.ptxas_runs,
            cli_plural(t.ptxas_runs, "run", "runs"), t.cache_hits);
    bool predicted = false;
    for (size_t i = 0; i < occ_regs_kernel_count(r); i++) {
        const occ_regs_kernel *k = occ_regs_kernel_at(r, i);
        for (int c = 0; c < k->cap_count; c++) {
            predicted = predicted || k->caps[c].predicted;
        }
    }
    for (size_t i = 0; i < occ_regs_kernel_count(r); i++) {
        print_kernel(out, occ_regs_kernel_at(r, i), predicted);
    }
    if (t.notes != NULL && t.notes[0] != '\0') {
        fputc('\n', out);
        print_notes(out, t.notes, "");
    }
    if (!prediction_asked) {
        fputc('\n', out);
        cli_print_wrapped(out,
                          "The predicted effect needs --bytes-loaded (the global bytes a thread "
                          "loads where it spills): then the latency model counts the spill "
                          "traffic.",
                          0);
    }
}
