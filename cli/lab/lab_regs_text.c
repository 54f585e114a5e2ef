/*
 * lab_regs_text.c - `occ lab regs` as text and as Markdown
 * (lab_regs_output.h). Without rounds, code groups or candidates the text
 * is byte for byte what analyse_regs.py (tests/gpu/, since deleted)
 * printed for the first H200 run (docs/results/regs-h200), which
 * tests/test_lab_regs.c holds it to (tests/data/lab-regs).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lab_regs_output.h"

#define CELL_BYTES 192
#define MAX_COLUMNS 18

static const char *const columns[MAX_COLUMNS] = {
    "kernel",  "best",       "best ms",  "none blk",   "none ms", "none regret",
    "occ cap", "occ blk",    "occ ms",   "occ regret", "rec cap", "rec blk",
    "rec ms",  "rec regret", "cand cap", "cand blk",   "cand ms", "cand regret"};

typedef char cell[CELL_BYTES];

const char *lab_regs_metric_name(lab_regs_metric metric)
{
    return metric == LAB_REGS_MIN_MS ? "min_ms" : "median_ms";
}

const char *lab_regs_pct(double x, char *buf, size_t cap)
{
    if (isinf(x)) {
        snprintf(buf, cap, "inf");
    } else {
        snprintf(buf, cap, x < 0 ? "%+.1f%%" : "%.1f%%", 100.0 * x);
    }
    return buf;
}

const char *lab_regs_miss_text(const lab_regs_row *row, char *buf, size_t cap)
{
    const lab_regs_choice *r = &row->recommended;
    char label[8], pct[32];
    buf[0] = '\0';
    size_t used = 0;
    if (row->miss.failed) {
        used += (size_t)snprintf(buf, cap, "cap %s %s", lab_regs_cap_label(r->cap, label, 8),
                                 r->failure);
    } else if (row->miss.far) {
        used += (size_t)snprintf(buf, cap, "%s from the best (cap %s)",
                                 lab_regs_pct(r->regret, pct, sizeof pct),
                                 lab_regs_cap_label(row->best_cap, label, 8));
    }
    if (row->miss.slower && used < cap) {
        snprintf(buf + used, cap - used, "%s%s slower than no cap", used > 0 ? "; " : "",
                 lab_regs_pct(r->vs_none, pct, sizeof pct));
    }
    return buf;
}

/* The four cells of a choice: cap, blocks, time, regret. */
static void choice_cells(const lab_regs_choice *c, cell *out)
{
    if (!c->present) {
        for (int i = 0; i < 4; i++) {
            snprintf(out[i], CELL_BYTES, "-");
        }
        return;
    }
    char label[8];
    snprintf(out[0], CELL_BYTES, "%s%s", lab_regs_cap_label(c->cap, label, sizeof label),
             c->approximate ? "~" : "");
    if (c->blocks_per_sm < 0) {
        snprintf(out[1], CELL_BYTES, "-");
    } else {
        snprintf(out[1], CELL_BYTES, "%d", c->blocks_per_sm);
    }
    if (c->has_ms) {
        snprintf(out[2], CELL_BYTES, "%.4f%s", c->ms, c->tolerated ? "*" : "");
    } else {
        snprintf(out[2], CELL_BYTES, "%s", c->failure);
    }
    lab_regs_pct(c->regret, out[3], CELL_BYTES);
}

static bool has_candidates(const lab_regs_analysis *a)
{
    for (int i = 0; i < a->row_count; i++) {
        if (a->rows[i].candidates.present) {
            return true;
        }
    }
    return false;
}

/* The table's cells: a header row, then a row a kernel. *ncols: 14, or 18
   with the candidates. Freed by the caller. */
static cell *table_cells(const lab_regs_analysis *a, int *ncols)
{
    int n = has_candidates(a) ? 18 : 14;
    *ncols = n;
    cell *t = calloc((size_t)(a->row_count + 1) * (size_t)n, sizeof *t);
    if (t == NULL) {
        return NULL;
    }
    for (int c = 0; c < n; c++) {
        snprintf(t[c], CELL_BYTES, "%s", columns[c]);
    }
    for (int i = 0; i < a->row_count; i++) {
        const lab_regs_row *r = &a->rows[i];
        cell *row = &t[(i + 1) * n];
        snprintf(row[0], CELL_BYTES, "%s", r->name);
        if (!r->has_best) {
            snprintf(row[1], CELL_BYTES, "-");
            snprintf(row[2], CELL_BYTES, "no cap measured correctly");
            for (int c = 3; c < n; c++) {
                snprintf(row[c], CELL_BYTES, "-");
            }
            continue;
        }
        char label[8];
        snprintf(row[1], CELL_BYTES, "%s", lab_regs_cap_label(r->best_cap, label, sizeof label));
        snprintf(row[2], CELL_BYTES, "%.4f", r->best_ms);
        cell none[4];
        choice_cells(&r->none, none);
        memcpy(row[3], none[1], 3 * sizeof(cell));
        choice_cells(&r->occupancy, &row[6]);
        choice_cells(&r->recommended, &row[10]);
        if (n == 18) {
            choice_cells(&r->candidates, &row[14]);
        }
    }
    return t;
}

/* Characters, not bytes, as the first table counted them (UTF-8). */
static size_t width(const char *s)
{
    size_t w = 0;
    for (; *s != '\0'; s++) {
        w += ((unsigned char)*s & 0xC0) != 0x80;
    }
    return w;
}

static void print_table(FILE *out, cell *t, int rows, int n)
{
    size_t w[MAX_COLUMNS] = {0};
    for (int i = 0; i < rows; i++) {
        for (int c = 0; c < n; c++) {
            size_t x = width(t[i * n + c]);
            w[c] = x > w[c] ? x : w[c];
        }
    }
    char line[MAX_COLUMNS * (CELL_BYTES + 2) + 1];
    for (int i = 0; i < rows; i++) {
        size_t used = 0;
        for (int c = 0; c < n; c++) {
            const char *s = t[i * n + c];
            used += (size_t)snprintf(line + used, sizeof line - used, "%s%*s", s,
                                     (int)(w[c] - width(s) + (c + 1 < n ? 2 : 0)), "");
        }
        while (used > 0 && (line[used - 1] == ' ' || line[used - 1] == '\t')) {
            used--; /* as the first table's rstrip() */
        }
        fwrite(line, 1, used, out);
        fputc('\n', out);
    }
}

/* The lines under the table, as Markdown items with `markdown`. */
static void summary_lines(FILE *out, const lab_regs_view *v, bool markdown)
{
    const lab_regs_analysis *a = v->analysis;
    const char *item = markdown ? "- " : "";
    const char *sub = markdown ? "  - " : "  ";
    char p1[32], p2[32];
    if (a->max_rounds > 1) {
        fprintf(out,
                "%srounds: a cubin timed up to %d times is timed as the median of its rounds' "
                "%s\n",
                item, a->max_rounds, lab_regs_metric_name(v->options->metric));
    }
    if (a->grouped) {
        fprintf(out,
                "%scode: %d cubins are %d distinct machine codes; the caps of one code share its "
                "time, the median of all its timings (--no-group: each cubin alone)\n",
                item, a->cubins, a->codes);
    } else if (a->codes > 0) {
        fprintf(out, "%scode hashes not used (--no-group): each cubin is scored by its own time\n",
                item);
    }
    if (a->not_checked > 0) {
        fprintf(out,
                "%s%d measured caps did not pass the output check (not all finite, or not "
                "bit-equal to the reference cubin); %d of them count within --tolerance %g "
                "(times marked *)\n",
                item, a->not_checked, a->tolerated, v->options->tolerance);
    }
    const struct {
        const lab_regs_summary *s;
        const char *name;
    } sums[] = {{&a->none, "no cap"},
                {&a->occupancy, "the cap that maximises occupancy"},
                {&a->recommended, "the recommended cap"},
                {&a->candidates, "the best of the candidates"}};
    for (int i = 0; i < 4; i++) {
        if (sums[i].s->present) {
            fprintf(out, "%s%s: median regret %s, max %s over %d kernels\n", item, sums[i].name,
                    lab_regs_pct(sums[i].s->median, p1, sizeof p1),
                    lab_regs_pct(sums[i].s->max, p2, sizeof p2), sums[i].s->kernels);
        }
    }
    if (!a->recommended.present) {
        return;
    }
    char g1[32], g2[32], g3[32];
    fprintf(out, "%sgoal: median <= %s %s; max <= %s %s; never more than %s slower than no cap %s",
            item, lab_regs_pct(LAB_REGS_GOAL_MEDIAN, g1, sizeof g1),
            a->goal_median ? "met" : "MISSED", lab_regs_pct(LAB_REGS_GOAL_MAX, g2, sizeof g2),
            a->goal_max ? "met" : "MISSED", lab_regs_pct(LAB_REGS_GOAL_VS_NONE, g3, sizeof g3),
            a->goal_vs_none ? "met" : "MISSED");
    for (int i = 0, n = 0; i < a->row_count; i++) {
        if (a->rows[i].worse_than_none) {
            fprintf(out, "%s%s", n++ == 0 ? " (" : ", ", a->rows[i].name);
        }
    }
    fputs(a->worse_than_none > 0 ? ")\n" : "\n", out);
    if (a->missed == 0) {
        fprintf(out, "%sno recommendation misses\n", item);
        return;
    }
    fprintf(out, "%srecommendations that miss (the model's next work):\n", item);
    for (int i = 0; i < a->row_count; i++) {
        if (a->rows[i].miss.missed) {
            char why[256];
            fprintf(out, "%s%s: %s\n", sub, a->rows[i].name,
                    lab_regs_miss_text(&a->rows[i], why, sizeof why));
        }
    }
}

/* A cap's status in the per-cap tables. */
static const char *cap_status(const lab_regs_row *row, const lab_regs_cap *c, char *buf, size_t cap)
{
    char label[8];
    if (!c->counts) {
        snprintf(buf, cap, "%s", c->failure);
    } else if (!c->timed) {
        /* the code's time is its timed members': name the first */
        int timed = c->group;
        for (int i = 0; i < row->cap_count; i++) {
            if (row->caps[i].group == c->group && row->caps[i].timed) {
                timed = i;
                break;
            }
        }
        snprintf(buf, cap, "not timed: its code timed at cap %s",
                 lab_regs_cap_label(row->caps[timed].cap, label, sizeof label));
    } else {
        snprintf(buf, cap, "%s", c->tolerated ? "within tolerance" : "ok");
    }
    return buf;
}

/* The cells of one kernel's caps: cap, regs, local bytes, blocks, time,
   timings, code (hash and caps sharing it), status. */
static cell *cap_cells(const lab_regs_row *row, lab_regs_metric metric, int *rows)
{
    enum { N = 8 };
    cell *t = calloc((size_t)(row->cap_count + 1) * N, sizeof *t);
    if (t == NULL) {
        return NULL;
    }
    const char *head[N] = {"cap",     "regs", "local B", "blk", lab_regs_metric_name(metric),
                           "timings", "code", "status"};
    for (int c = 0; c < N; c++) {
        snprintf(t[c], CELL_BYTES, "%s", head[c]);
    }
    for (int i = 0; i < row->cap_count; i++) {
        const lab_regs_cap *c = &row->caps[i];
        cell *r = &t[(i + 1) * N];
        char label[8];
        snprintf(r[0], CELL_BYTES, "%s", lab_regs_cap_label(c->cap, label, sizeof label));
        const int figures[3] = {c->regs, c->local_bytes, c->blocks_per_sm};
        for (int f = 0; f < 3; f++) {
            snprintf(r[1 + f], CELL_BYTES, figures[f] < 0 ? "-" : "%d", figures[f]);
        }
        if (c->counts) {
            snprintf(r[4], CELL_BYTES, "%.4f%s", c->ms, c->tolerated ? "*" : "");
        } else {
            snprintf(r[4], CELL_BYTES, "-");
        }
        snprintf(r[5], CELL_BYTES, "%d", c->timings);
        if (c->code_hash == 0) {
            snprintf(r[6], CELL_BYTES, "-");
        } else if (c->group_size > 1) {
            snprintf(r[6], CELL_BYTES, "%016llx (%d caps)", (unsigned long long)c->code_hash,
                     c->group_size);
        } else {
            snprintf(r[6], CELL_BYTES, "%016llx", (unsigned long long)c->code_hash);
        }
        cap_status(row, c, r[7], CELL_BYTES);
    }
    *rows = row->cap_count + 1;
    return t;
}

static void print_every_cap(FILE *out, const lab_regs_view *v, bool markdown)
{
    const lab_regs_analysis *a = v->analysis;
    fputs(markdown ? "\n## Every cap\n" : "\nevery cap\n", out);
    for (int i = 0; i < a->row_count; i++) {
        int rows;
        cell *t = cap_cells(&a->rows[i], v->options->metric, &rows);
        if (t == NULL) {
            continue;
        }
        fprintf(out, markdown ? "\n### %s\n\n" : "\n%s\n", a->rows[i].name);
        if (!markdown) {
            print_table(out, t, rows, 8);
        } else {
            for (int r = 0; r < rows; r++) {
                fputs("|", out);
                for (int c = 0; c < 8; c++) {
                    fprintf(out, " %s |", t[r * 8 + c]);
                }
                fputs(r == 0 ? "\n|---|---|---|---|---|---|---|---|\n" : "\n", out);
            }
        }
        free(t);
    }
}

void lab_regs_print_text(FILE *out, const lab_regs_view *v)
{
    int n;
    cell *t = table_cells(v->analysis, &n);
    if (t != NULL) {
        print_table(out, t, v->analysis->row_count + 1, n);
        free(t);
    }
    fputc('\n', out);
    summary_lines(out, v, false);
    if (v->per_cap) {
        print_every_cap(out, v, false);
    }
}

/* A header figure, or '?' where the run did not say. */
static void put_figure(FILE *out, long long value)
{
    if (value < 0) {
        fputc('?', out);
    } else {
        fprintf(out, "%lld", value);
    }
}

static void markdown_intro(FILE *out, const lab_regs_view *v, bool candidates)
{
    const lab_regs_header *h = &v->data->header;
    fputs("# `occ lab regs`: register caps measured\n\n", out);
    if (h->present) {
        fprintf(out, "Measured on %s (", h->device[0] ? h->device : "?");
        put_figure(out, h->sm_count);
        fprintf(out, " SMs, driver %s, CUDA driver API ", h->driver[0] ? h->driver : "?");
        put_figure(out, h->cuda_driver_version);
        fputs("); ", out);
        put_figure(out, h->runs);
        fputs(" timed launches a cap after ", out);
        put_figure(out, h->warmups);
        fputs(" warm-ups, n = ", out);
        put_figure(out, h->n);
        fputs(" floats.\n", out);
        if (v->file_count > 1 || h->rounds > 1 || h->distinct == 1) {
            fprintf(out, "%d record file%s", v->file_count, v->file_count == 1 ? "" : "s");
            if (h->rounds > 0) {
                fprintf(out, ", %lld round%s a run", h->rounds, h->rounds == 1 ? "" : "s");
            }
            if (h->distinct == 1) {
                fputs(", each distinct code timed once a round (--distinct)", out);
            }
            fputs(".\n", out);
        }
        fputc('\n', out);
    }
    fprintf(out,
            "Times are the %s in ms; regret = time / best - 1. `occ` is the cap with the most "
            "blocks an SM (the highest on a tie); `rec` the recommended cap (`~`: not measured, "
            "scored at the cap below). blk: blocks an SM.%s\n\n",
            v->options->metric == LAB_REGS_MIN_MS ? "min" : "median",
            candidates ? " `cand`: the best time among occ regs's candidate caps." : "");
}

void lab_regs_print_markdown(FILE *out, const lab_regs_view *v)
{
    int n;
    cell *t = table_cells(v->analysis, &n);
    markdown_intro(out, v, n == 18);
    if (t != NULL) {
        for (int r = 0; r <= v->analysis->row_count; r++) {
            fputs("|", out);
            for (int c = 0; c < n; c++) {
                fprintf(out, " %s |", t[r * n + c]);
            }
            fputc('\n', out);
            if (r == 0) {
                fputc('|', out);
                for (int c = 0; c < n; c++) {
                    fputs("---|", out);
                }
                fputc('\n', out);
            }
        }
        free(t);
    }
    fputc('\n', out);
    summary_lines(out, v, true);
    if (v->per_cap) {
        print_every_cap(out, v, true);
    }
}
