/*
 * diff_text.c - `occ diff`'s readable outputs: the table (worst first, a
 * section per status) and --markdown for a pull-request comment (the worst
 * few in a table, the rest folded in <details>). A changed value reads
 * "old->new" ("old → new" in Markdown); names come from the files read and
 * are printed with their control characters made visible, and in Markdown
 * with the bytes that are not UTF-8 replaced as --json replaces them.
 */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "diff.h"
#include "inspect_launches.h"
#include "json_stream.h"
#include "output.h"

static const char *const headers[OCC_DIFF_FIELD_COUNT] = {
    [OCC_DIFF_REGS] = "REGS",
    [OCC_DIFF_SPILL_STORES] = "SPILL_ST",
    [OCC_DIFF_SPILL_LOADS] = "SPILL_LD",
    [OCC_DIFF_SPILL_INSTRUCTIONS] = "SPILL_I",
    [OCC_DIFF_STACK] = "STACK",
    [OCC_DIFF_SMEM] = "SMEM",
    [OCC_DIFF_BARRIERS] = "BAR",
    [OCC_DIFF_MAX_THREADS] = "BOUND",
    [OCC_DIFF_REQ_THREADS] = "REQNTID",
    [OCC_DIFF_MAX_REGS] = "MAXREG",
    [OCC_DIFF_CLUSTER] = "CLUSTER",
    [OCC_DIFF_THREADS] = "BLOCK",
    [OCC_DIFF_BLOCKS] = "BLK/SM",
    [OCC_DIFF_OCCUPANCY] = "OCC",
    [OCC_DIFF_LIMITER] = "LIMITER",
};

#define CELL_BYTES 96

/* The fields every section shows, changed or not. */
static uint32_t always_shown(void)
{
    return 1u << OCC_DIFF_REGS | 1u << OCC_DIFF_BLOCKS | 1u << OCC_DIFF_OCCUPANCY |
           1u << OCC_DIFF_LIMITER;
}

/* "64", or "64->72" where the field changed. */
static const char *cell(const occ_diff_entry *e, occ_diff_field f, const char *arrow, char *buf,
                        size_t cap)
{
    char a[CELL_BYTES / 2];
    char b[CELL_BYTES / 2];
    if (e->old_k != NULL && e->new_k != NULL && (e->changed & (1u << f)) != 0) {
        snprintf(buf, cap, "%s%s%s", occ_diff_field_text(e->old_k, f, a, sizeof a), arrow,
                 occ_diff_field_text(e->new_k, f, b, sizeof b));
    } else {
        occ_diff_field_text(e->new_k != NULL ? e->new_k : e->old_k, f, buf, cap);
    }
    return buf;
}

static char marker(const occ_diff_entry *e)
{
    if (e->failed == 0) {
        return ' ';
    }
    return e->allowed != NULL ? '~' : '!';
}

/* "occupancy-10%, regs+8": the failures an allowed entry had, or those of a
   failing entry that no --allow line accepts. */
static const char *failed_items(const occ_diff_report *r, const occ_diff_entry *e, char *buf,
                                size_t cap)
{
    size_t used = 0;
    uint32_t bits = e->allowed != NULL ? e->failed : e->failed & ~e->excused;
    buf[0] = '\0';
    for (int item = 0; item < OCC_DIFF_GATE_ITEM_COUNT && used < cap; item++) {
        if ((bits >> item) & 1u) {
            int n =
                snprintf(buf + used, cap - used, "%s%s", used > 0 ? ", " : "", r->gate->text[item]);
            used = n > 0 && (size_t)n < cap - used ? used + (size_t)n : cap;
        }
    }
    return buf;
}

static void print_name_notes(FILE *out, const occ_diff_report *r, const occ_diff_entry *e)
{
    const occ_inspect_kernel *k = e->new_k != NULL ? e->new_k : e->old_k;
    cli_put_visible(out, k->name);
    if (k->launch_index >= 0) {
        char launch[160];
        fprintf(out, "  %s", occ_inspect_launch_text(k, launch, sizeof launch));
    }
    if (e->status == OCC_DIFF_MOVED) {
        fputs("  (was ", out);
        cli_put_visible(out, e->old_k->name);
        fputc(')', out);
    }
    if (e->failed != 0) {
        char items[256];
        failed_items(r, e, items, sizeof items);
        if (e->allowed != NULL) {
            fprintf(out, "  [allowed: %s; %s line %d: ", items, r->allow->path, e->allowed->line);
            cli_put_visible(out, e->allowed->reason);
            fputc(']', out);
        } else {
            fprintf(out, "  [FAILS %s]", items);
        }
    }
    fputc('\n', out);
}

static void print_section(FILE *out, const occ_diff_report *r, occ_diff_status status,
                          const char *title)
{
    uint32_t columns = always_shown();
    size_t rows = 0;
    for (size_t i = 0; i < r->entry_count; i++) {
        const occ_diff_entry *e = &r->entries[i];
        if (e->status != status) {
            continue;
        }
        rows++;
        columns |= e->changed;
        const occ_inspect_kernel *k = e->new_k != NULL ? e->new_k : e->old_k;
        if (status != OCC_DIFF_CHANGED) {
            columns |= 1u << OCC_DIFF_STACK | 1u << OCC_DIFF_SMEM;
            if (k->spill_store_bytes > 0 || k->spill_load_bytes > 0) {
                columns |= 1u << OCC_DIFF_SPILL_STORES | 1u << OCC_DIFF_SPILL_LOADS;
            }
            if (k->spill_instructions > 0) {
                columns |= 1u << OCC_DIFF_SPILL_INSTRUCTIONS;
            }
        }
    }
    if (rows == 0) {
        return;
    }
    int width[OCC_DIFF_FIELD_COUNT];
    int risk_width = 4;
    char buf[CELL_BYTES];
    for (int f = 0; f < OCC_DIFF_FIELD_COUNT; f++) {
        width[f] = (int)strlen(headers[f]);
    }
    for (size_t i = 0; i < r->entry_count; i++) {
        const occ_diff_entry *e = &r->entries[i];
        if (e->status != status) {
            continue;
        }
        for (int f = 0; f < OCC_DIFF_FIELD_COUNT; f++) {
            int n = (int)strlen(cell(e, (occ_diff_field)f, "->", buf, sizeof buf));
            width[f] = n > width[f] ? n : width[f];
        }
        int n = (int)strlen(occ_inspect_risk_text(&e->risk, buf, sizeof buf));
        risk_width = n > risk_width ? n : risk_width;
    }
    fprintf(out, "\n%s:\n  %-8s", title, "ARCH");
    for (int f = 0; f < OCC_DIFF_FIELD_COUNT; f++) {
        if ((columns >> f) & 1u) {
            fprintf(out, " %-*s", width[f], headers[f]);
        }
    }
    fprintf(out, " %-*s NAME\n", risk_width, "RISK");
    for (size_t i = 0; i < r->entry_count; i++) {
        const occ_diff_entry *e = &r->entries[i];
        if (e->status != status) {
            continue;
        }
        const occ_inspect_kernel *k = e->new_k != NULL ? e->new_k : e->old_k;
        char arch[16];
        fprintf(out, "%c %-8s", marker(e),
                occ_inspect_arch_name(k->sm, k->arch_suffix, arch, sizeof arch));
        for (int f = 0; f < OCC_DIFF_FIELD_COUNT; f++) {
            if ((columns >> f) & 1u) {
                fprintf(out, " %-*s", width[f], cell(e, (occ_diff_field)f, "->", buf, sizeof buf));
            }
        }
        fprintf(out, " %-*s ", risk_width, occ_inspect_risk_text(&e->risk, buf, sizeof buf));
        print_name_notes(out, r, e);
    }
}

static void print_side(FILE *out, const occ_diff_side *side)
{
    occ_inspect_totals totals;
    occ_inspect_totals_get(side->result, &totals);
    for (int i = 0; i < totals.input_count; i++) {
        fputs(i > 0 ? ", " : "", out);
        cli_put_visible(out, occ_inspect_input_name(side->result, i));
        fprintf(out, " (%s)", occ_inspect_format_name(occ_inspect_input_format(side->result, i)));
    }
}

static void print_where(FILE *out, const occ_diff_report *r)
{
    fputs("Occupancy on ", out);
    if (r->read->device != NULL) {
        cli_put_visible(out, r->read->device->name);
    } else {
        fputs("each kernel's own arch (generic sm_XX entry)", out);
    }
    fprintf(out, ", %s%s, %d B dynamic shared memory.\n",
            r->launches != NULL ? "at each recorded launch, else " : "",
            r->read->threads > 0 ? "at --threads" : "at the block size the occupancy API picks",
            r->read->dyn_smem_bytes);
    if (r->launches != NULL) {
        inspect_launches_print(out, r->launches);
    }
}

/* The gate's verdict and the --allow lines that excused nothing. */
static void print_gate(FILE *out, const occ_diff_report *r)
{
    if (r->gate == NULL) {
        fputs("\nNo --fail-on: nothing fails the run.\n", out);
    } else if (r->failed > 0) {
        char summary[512];
        fprintf(out, "\nGate failed: %s.\n", occ_diff_gate_summary(r, summary, sizeof summary));
    } else {
        fputs("\nPassed: no change fails --fail-on", out);
        const char *sep = " ";
        for (int item = 0; item < OCC_DIFF_GATE_ITEM_COUNT; item++) {
            if (r->gate->on[item]) {
                fprintf(out, "%s%s", sep, r->gate->text[item]);
                sep = ",";
            }
        }
        fputs(".\n", out);
    }
    if (r->allowed > 0) {
        fprintf(out, "%zu kernel%s would fail but %s accepted by %s (marked ~).\n", r->allowed,
                r->allowed == 1 ? "" : "s", r->allowed == 1 ? "is" : "are", r->allow->path);
    }
    for (int a = 0; r->allow != NULL && a < r->allow->count; a++) {
        const occ_diff_allow_rule *rule = &r->allow->rules[a];
        if (rule->used == 0) {
            fprintf(out, "%s line %d (", r->allow->path, rule->line);
            cli_put_visible(out, rule->pattern);
            fputs(") excused no failure: remove it to tighten the gate.\n", out);
        }
    }
}

void diff_print_text(FILE *out, const occ_diff_report *r)
{
    char n[5][32];
    fputs("occ diff: ", out);
    print_side(out, &r->old_side);
    fputs(" -> ", out);
    print_side(out, &r->new_side);
    fputs("\n", out);
    print_where(out, r);
    fprintf(out, "%s changed, %s added, %s removed, %s moved, %s unchanged.\n",
            group_digits((long long)r->changed, n[0], sizeof n[0]),
            group_digits((long long)r->added, n[1], sizeof n[1]),
            group_digits((long long)r->removed, n[2], sizeof n[2]),
            group_digits((long long)r->moved, n[3], sizeof n[3]),
            group_digits((long long)r->unchanged, n[4], sizeof n[4]));
    fprintf(out, "Kernels spilling: %zu -> %zu; at the register ceiling: %zu -> %zu.\n",
            r->old_side.spilling, r->new_side.spilling, r->old_side.at_ceiling,
            r->new_side.at_ceiling);
    if (r->one_side_only != 0) {
        char fields[256];
        fprintf(out,
                "Note: one side was read from a ptxas log, the other from a binary: %s "
                "differ%s only because one side cannot know %s, and %s not counted as "
                "changes.\n",
                occ_diff_one_side_text(r->one_side_only, fields, sizeof fields),
                __builtin_popcount(r->one_side_only) == 1 ? "s" : "",
                __builtin_popcount(r->one_side_only) == 1 ? "it" : "them",
                __builtin_popcount(r->one_side_only) == 1 ? "is" : "are");
    }
    print_section(out, r, OCC_DIFF_CHANGED, "Changed (worst first; ! fails the gate, ~ allowed)");
    print_section(out, r, OCC_DIFF_ADDED, "Added");
    print_section(out, r, OCC_DIFF_REMOVED, "Removed");
    print_section(out, r, OCC_DIFF_MOVED, "Moved (renamed, same resources)");
    print_gate(out, r);
}

/* ---- Markdown ------------------------------------------------------------ */

/* Names longer than this are cut in Markdown: a pull-request comment is
   limited (65,536 characters on GitHub). */
#define MD_NAME_BYTES 160
/* Rows in the folded part; the rest are counted (the JSON has them all). */
#define MD_FOLDED_ROWS 200

/* Text for the comment: control characters made visible (as the table
   prints them), then every byte that is not valid UTF-8 made U+FFFD, as
   --json writes it: the text goes through the JSON writer (json_stream) and
   is read back with jansson, so that the comment and the JSON agree on every
   name. Cut at `max` bytes on a character boundary, "..." added. NULL when
   out of memory; free the result. */
static char *md_text(const char *text, size_t max)
{
    char visible[MD_NAME_BYTES * 4 + 8];
    cli_visible(text, visible, sizeof visible);
    json_stream *s = malloc(sizeof *s);
    if (s == NULL) {
        return NULL;
    }
    json_stream_init_memory(s);
    json_stream_cstring(s, visible);
    json_stream_flush(s);
    json_t *decoded =
        s->failed ? NULL : json_loadb(s->memory, s->memory_bytes, JSON_DECODE_ANY, NULL);
    json_stream_free(s);
    free(s);
    const char *utf8 = json_string_value(decoded);
    char *out = utf8 != NULL ? malloc(max + 4) : NULL;
    if (out != NULL) {
        size_t len = strlen(utf8);
        bool cut = len > max;
        if (cut) {
            len = max;
            while (len > 0 && ((unsigned char)utf8[len] & 0xC0) == 0x80) {
                len--;
            }
        }
        memcpy(out, utf8, len);
        memcpy(out + len, cut ? "..." : "", cut ? 4 : 1);
    }
    json_decref(decoded);
    return out;
}

/* Text in a code span that no name can break, in a table cell or out of
   one: '|' escaped (GFM splits cells on it even in code), a fence of one
   backquote more than the longest run in the text (padded with spaces,
   which CommonMark strips). A backslash right before a '|' would escape
   the escape (GFM's table scanner takes "\\" as a pair), so such text is
   written as HTML <code> with its punctuation as character references. */
static void md_code(FILE *out, const char *text)
{
    size_t longest = 0;
    size_t run = 0;
    bool backslash_pipe = false;
    for (const char *p = text; *p != '\0'; p++) {
        run = *p == '`' ? run + 1 : 0;
        longest = run > longest ? run : longest;
        backslash_pipe = backslash_pipe || (p[0] == '\\' && p[1] == '|');
    }
    if (backslash_pipe) {
        fputs("<code>", out);
        for (const unsigned char *p = (const unsigned char *)text; *p != '\0'; p++) {
            bool plain = *p >= 0x80 || *p == ' ' || (*p >= '0' && *p <= '9') ||
                         ((*p | 0x20) >= 'a' && (*p | 0x20) <= 'z');
            if (plain) {
                fputc(*p, out);
            } else {
                fprintf(out, "&#%d;", *p);
            }
        }
        fputs("</code>", out);
        return;
    }
    size_t len = strlen(text);
    bool pad = longest > 0 || (len > 0 && text[0] == ' ' && text[len - 1] == ' ');
    for (size_t i = 0; i <= longest; i++) {
        fputc('`', out);
    }
    fputs(pad ? " " : "", out);
    for (const char *p = text; *p != '\0'; p++) {
        if (*p == '|') {
            fputs("\\|", out);
        } else {
            fputc(*p, out);
        }
    }
    fputs(pad ? " " : "", out);
    for (size_t i = 0; i <= longest; i++) {
        fputc('`', out);
    }
}

/* A name (a kernel's, a file's, a GPU's) as a code span, cut at
   MD_NAME_BYTES. */
static void md_name(FILE *out, const char *name)
{
    char *text = md_text(name, MD_NAME_BYTES);
    md_code(out, text != NULL ? text : "(not shown: out of memory)");
    free(text);
}

static const char *md_spills(const occ_inspect_kernel *k, char *buf, size_t cap)
{
    if (occ_diff_spill_bytes(k) > 0) {
        snprintf(buf, cap, "%lld B", occ_diff_spill_bytes(k));
    } else if (k->spill_instructions > 0) {
        snprintf(buf, cap, "%d instr", k->spill_instructions);
    } else {
        snprintf(buf, cap, "0");
    }
    return buf;
}

static void md_cell(FILE *out, const occ_diff_entry *e, occ_diff_field f)
{
    char buf[CELL_BYTES];
    fputs(" | ", out);
    fputs(cell(e, f, " → ", buf, sizeof buf), out);
}

/* The fields the Markdown table has a column for (spills are one column,
   md_spills). A change to any other field is named in the row's "other
   changes" cell, so that no changed row reads as unchanged. */
static uint32_t md_columns(void)
{
    return 1u << OCC_DIFF_REGS | 1u << OCC_DIFF_STACK | 1u << OCC_DIFF_SMEM |
           1u << OCC_DIFF_BLOCKS | 1u << OCC_DIFF_OCCUPANCY | 1u << OCC_DIFF_LIMITER;
}

static uint32_t spill_fields(void)
{
    return 1u << OCC_DIFF_SPILL_STORES | 1u << OCC_DIFF_SPILL_LOADS |
           1u << OCC_DIFF_SPILL_INSTRUCTIONS;
}

/* "max_regs 64 → 32, threads 256 → 128": the changed fields the row's
   columns do not show, by their JSON keys; `spills_shown` says whether the
   spills column shows its change. */
static void md_other_changes(FILE *out, const occ_diff_entry *e, bool spills_shown)
{
    if (e->old_k == NULL || e->new_k == NULL) {
        return;
    }
    uint32_t hidden = e->changed & ~md_columns();
    if (spills_shown) {
        hidden &= ~spill_fields();
    }
    const char *sep = " ";
    for (int f = 0; f < OCC_DIFF_FIELD_COUNT; f++) {
        if ((hidden >> f) & 1u) {
            char a[CELL_BYTES / 2];
            char b[CELL_BYTES / 2];
            fprintf(out, "%s%s %s → %s", sep, occ_diff_field_key((occ_diff_field)f),
                    occ_diff_field_text(e->old_k, (occ_diff_field)f, a, sizeof a),
                    occ_diff_field_text(e->new_k, (occ_diff_field)f, b, sizeof b));
            sep = ", ";
        }
    }
}

static void md_row(FILE *out, const occ_diff_report *r, const occ_diff_entry *e)
{
    const occ_inspect_kernel *k = e->new_k != NULL ? e->new_k : e->old_k;
    char arch[16];
    char buf[CELL_BYTES];
    const char *mark = e->failed == 0 ? "" : e->allowed != NULL ? "allowed" : "**FAIL**";
    fprintf(out, "| %s | %s | %s | ", mark, occ_diff_status_name(e->status),
            occ_inspect_arch_name(k->sm, k->arch_suffix, arch, sizeof arch));
    md_name(out, k->name);
    if (e->status == OCC_DIFF_MOVED) {
        fputs(" (was ", out);
        md_name(out, e->old_k->name);
        fputc(')', out);
    }
    if (k->launch_index >= 0) {
        /* "[profile, block 128, 8192 B dynamic]": digits, words and commas only */
        char launch[160];
        fprintf(out, " %s", occ_inspect_launch_text(k, launch, sizeof launch));
    }
    md_cell(out, e, OCC_DIFF_REGS);
    fputs(" | ", out);
    char a[CELL_BYTES / 2];
    md_spills(k, buf, sizeof buf);
    bool spills_shown = false;
    if (e->old_k != NULL && e->new_k != NULL) {
        md_spills(e->old_k, a, sizeof a);
        spills_shown = strcmp(a, buf) != 0;
    }
    if (spills_shown) {
        fprintf(out, "%s → %s", a, buf);
    } else {
        fputs(buf, out);
    }
    md_cell(out, e, OCC_DIFF_STACK);
    md_cell(out, e, OCC_DIFF_SMEM);
    md_cell(out, e, OCC_DIFF_BLOCKS);
    md_cell(out, e, OCC_DIFF_OCCUPANCY);
    md_cell(out, e, OCC_DIFF_LIMITER);
    fputs(" |", out);
    md_other_changes(out, e, spills_shown);
    fprintf(out, " | %s |", occ_inspect_risk_text(&e->risk, buf, sizeof buf));
    if (e->failed != 0) {
        char items[256];
        fprintf(out, " %s", failed_items(r, e, items, sizeof items));
    }
    fputs(" |\n", out);
}

static void md_header(FILE *out)
{
    fputs("| | status | arch | kernel | regs | spills | stack | smem | blocks/SM | occupancy | "
          "limiter | other changes | at risk | fails |\n"
          "|---|---|---|---|---:|---:|---:|---:|---:|---:|---|---|---|---|\n",
          out);
}

/* The inputs of one side, as code spans. */
static void md_side(FILE *out, const occ_diff_side *side)
{
    occ_inspect_totals totals;
    occ_inspect_totals_get(side->result, &totals);
    for (int i = 0; i < totals.input_count; i++) {
        fputs(i > 0 ? ", " : "", out);
        md_name(out, occ_inspect_input_name(side->result, i));
    }
}

/* The share of the launches' weight that matched kernels of the new build. */
static double launches_share(const occ_inspect_launch_list *l)
{
    return l->match.weight > 0 ? l->match.matched_weight / l->match.weight : 0.0;
}

/* " on `H200`, at `--threads 256`": the GPU and the launch the occupancy is
   computed for. */
static void md_where(FILE *out, const occ_inspect_options *read,
                     const occ_inspect_launch_list *launches)
{
    if (read->device != NULL) {
        fputs(" on ", out);
        md_name(out, read->device->name);
    } else {
        fputs(" on a generic GPU of each kernel's arch", out);
    }
    if (launches != NULL) {
        fprintf(out, ", at the launches of the %s ", launches->kind);
        md_name(out, launches->path);
        fprintf(out, " (%.1f%% of its %s matched), else", 100.0 * launches_share(launches),
                strcmp(launches->kind, "table") == 0 ? "weight" : "GPU time");
    }
    const char *lead = launches != NULL ? " " : ", ";
    if (read->threads > 0) {
        fprintf(out, "%sat `--threads %d`", lead, read->threads);
    } else {
        fprintf(out, "%sat the occupancy API's block size per kernel", lead);
    }
    if (read->dyn_smem_bytes > 0) {
        fprintf(out, " and `--dyn-smem %d`", read->dyn_smem_bytes);
    }
}

void diff_print_markdown(FILE *out, const occ_diff_report *r, int shown)
{
    char n[5][32];
    /* the opening line: what was compared, where, and by which occ */
    fputs("**occ diff** ", out);
    md_side(out, &r->old_side);
    fputs(" → ", out);
    md_side(out, &r->new_side);
    md_where(out, r->read, r->launches);
    fprintf(out, " (occ %s)\n\n", occ_version());
    fprintf(out, "**%s changed**, %s added, %s removed, %s moved, %s unchanged.",
            group_digits((long long)r->changed, n[0], sizeof n[0]),
            group_digits((long long)r->added, n[1], sizeof n[1]),
            group_digits((long long)r->removed, n[2], sizeof n[2]),
            group_digits((long long)r->moved, n[3], sizeof n[3]),
            group_digits((long long)r->unchanged, n[4], sizeof n[4]));
    fprintf(out, " Kernels spilling: %zu → %zu; at the register ceiling: %zu → %zu.\n\n",
            r->old_side.spilling, r->new_side.spilling, r->old_side.at_ceiling,
            r->new_side.at_ceiling);
    if (r->one_side_only != 0) {
        char fields[256];
        fprintf(out,
                "One side is a ptxas log, the other a binary: %s differ only because one "
                "side cannot know them, and are not counted.\n\n",
                occ_diff_one_side_text(r->one_side_only, fields, sizeof fields));
    }
    if (r->gate != NULL) {
        char summary[512];
        if (r->failed > 0) {
            fprintf(out, "**Gate failed**: %s.\n\n",
                    occ_diff_gate_summary(r, summary, sizeof summary));
        } else {
            fputs("Gate passed.\n\n", out);
        }
    }
    if (r->entry_count == 0) {
        fputs("No kernel changed.\n", out);
        return;
    }
    size_t first = (size_t)shown < r->entry_count ? (size_t)shown : r->entry_count;
    md_header(out);
    for (size_t i = 0; i < first; i++) {
        md_row(out, r, &r->entries[i]);
    }
    size_t rest = r->entry_count - first;
    if (rest == 0) {
        return;
    }
    fprintf(out, "\n<details><summary>%zu more</summary>\n\n", rest);
    md_header(out);
    size_t folded = rest < MD_FOLDED_ROWS ? rest : MD_FOLDED_ROWS;
    for (size_t i = first; i < first + folded; i++) {
        md_row(out, r, &r->entries[i]);
    }
    if (rest > folded) {
        fprintf(out, "\n%zu more not shown (occ diff --json lists every one).\n", rest - folded);
    }
    fputs("\n</details>\n", out);
}

void diff_print_missing_markdown(FILE *out, const char *missing, const occ_diff_side *new_side,
                                 const occ_inspect_options *read)
{
    char n[32];
    size_t count = occ_inspect_kernel_count(new_side->result);
    fputs("**occ diff**: no baseline, ", out);
    md_name(out, missing);
    fputs(" does not exist, so nothing was compared. ", out);
    md_side(out, new_side);
    fprintf(out, " holds %s %s%s (occ %s); the next run compares, once a baseline is saved.\n",
            group_digits((long long)count, n, sizeof n), read->functions ? "function" : "kernel",
            count == 1 ? "" : "s", occ_version());
}
