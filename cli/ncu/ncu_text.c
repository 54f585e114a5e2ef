/*
 * ncu_text.c - `occ ncu`'s human output: whether libocc agrees with Nsight,
 * the launches where occupancy could matter with their explanations, then
 * one table row per launch.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ncu.h"
#include "output.h"

/* Characters of a kernel's name in a table row: enough to tell nvjet tile
   shapes and template instances apart. */
#define TABLE_NAME_BYTES 64

static const char *page_name(occ_profile_ncu_page page)
{
    return page == OCC_PROFILE_NCU_PAGE_RAW ? "raw page" : "details page";
}

static void print_mismatch_counts(FILE *out, const ncu_summary *s)
{
    fputs("Mismatches by field:", out);
    for (int bit = 0; bit < OCC_PROFILE_NCU_MISMATCH_KINDS; bit++) {
        if (s->mismatch_counts[bit] > 0) {
            fprintf(out, " %s %lld", occ_profile_ncu_mismatch_name(1u << bit),
                    s->mismatch_counts[bit]);
        }
    }
    fputs(" (each is a disagreement between libocc and Nsight: docs/ncu.md says how to read "
          "it)\n",
          out);
}

/* "12.34" or "-" */
static const char *duration_text(const occ_profile_ncu_launch *l, char *buf, size_t cap)
{
    if (!l->v[OCC_PROFILE_NCU_DURATION].present) {
        return "-";
    }
    snprintf(buf, cap, "%.2f", l->v[OCC_PROFILE_NCU_DURATION].value);
    return buf;
}

static void print_explanation(FILE *out, const char *text)
{
    const char *p = text;
    while (*p != '\0') {
        const char *nl = strchr(p, '\n');
        size_t len = nl != NULL ? (size_t)(nl - p) : strlen(p);
        char *line = malloc(len + 1);
        if (line == NULL) {
            return;
        }
        memcpy(line, p, len);
        line[len] = '\0';
        fputs("     ", out);
        cli_print_wrapped(out, line, 7);
        free(line);
        p += len + (nl != NULL);
    }
}

void ncu_print_text_summary(FILE *out, const ncu_summary *s)
{
    char a[32];
    char b[32];
    fprintf(out, "occ ncu: %d file%s, %s launch%s\n", s->file_count, s->file_count == 1 ? "" : "s",
            group_digits(s->launches, a, sizeof a), s->launches == 1 ? "" : "es");
    cli_print_wrappedf(out, 0,
                       "libocc agrees with Nsight Compute on %s of %s launch%s (theoretical "
                       "occupancy, every Block Limit, waves, active clusters).",
                       group_digits(s->agreed, a, sizeof a), group_digits(s->launches, b, sizeof b),
                       s->launches == 1 ? "" : "es");
    if (s->agreed < s->launches) {
        print_mismatch_counts(out, s);
    }
    if (s->top_count == 0) {
        fputs("\nNo launch has an achieved occupancy below its theoretical to rank.\n", out);
        return;
    }
    fputs("\n", out);
    if (s->by_time) {
        cli_print_wrapped(
            out,
            "Where occupancy could matter: launches ranked by duration x (theoretical "
            "- achieved occupancy), largest first.",
            0);
    } else {
        cli_print_wrappedf(out, 0,
                           "Where occupancy could matter: launches ranked by theoretical - "
                           "achieved occupancy, largest first (%s has launches without a duration: "
                           "the details page of LaunchStats and Occupancy holds none; the raw "
                           "page's gpu__time_duration.sum, or the SpeedOfLight section, gives it).",
                           s->untimed_file != NULL ? s->untimed_file : "an input");
    }
    fprintf(out, "\n  #  %-28s %10s %12s %9s %7s  %-12s %s\n", "file:ID", "time us", "theoretical",
            "achieved", "gap", "cause", "kernel");
    for (int i = 0; i < s->top_count; i++) {
        const ncu_ranked *r = &s->top[i];
        char where[300];
        char where_shown[1200];
        char name[TABLE_NAME_BYTES];
        char name_shown[4 * TABLE_NAME_BYTES];
        char time[32];
        snprintf(where, sizeof where, "%s:%lld", s->files[r->file_index].path, r->id);
        ncu_short_name(r->short_name, name, sizeof name);
        fprintf(out, "%3d  %-28s %10s %11.2f%% %8.2f%% %7.2f  %-12s %s\n", i + 1,
                cli_visible(where, where_shown, sizeof where_shown),
                duration_text(&r->launch, time, sizeof time), r->check.theoretical * 100.0,
                r->check.achieved * 100.0, r->gap.gap * 100.0, occ_gap_cause_name(r->gap.cause),
                cli_visible(name, name_shown, sizeof name_shown));
    }
    for (int i = 0; i < s->top_count; i++) {
        const ncu_ranked *r = &s->top[i];
        char shown[600];
        char path[300];
        fprintf(out, "\n%3d. %s ID %lld: %s\n", i + 1,
                cli_visible(s->files[r->file_index].path, path, sizeof path), r->id,
                cli_visible(r->short_name, shown, sizeof shown));
        char *text = ncu_explain(&r->launch, &r->check, &r->gap, NULL);
        if (text == NULL) {
            fputs("     (out of memory: no explanation)\n", out);
            continue;
        }
        print_explanation(out, text);
        free(text);
    }
}

void ncu_print_text_file(FILE *out, const ncu_summary *s, int file_index)
{
    const ncu_file_info *f = &s->files[file_index];
    char path[600];
    char a[32];
    char b[32];
    fprintf(out, "\n%s: %s, %s launch%s", cli_visible(f->path, path, sizeof path),
            page_name(f->page), group_digits(f->launches, a, sizeof a),
            f->launches == 1 ? "" : "es");
    if (f->launches > 0) {
        fprintf(out, " on %s (%d SM%s); libocc agrees on %s", f->gpu, f->sm_count,
                f->sm_count == 1 ? "" : "s", group_digits(f->agreed, b, sizeof b));
    }
    fputs("\n", out);
    if (f->launches == 0) {
        return;
    }
    fprintf(out, "%7s %5s %9s %4s %10s %8s %8s %8s %8s %6s %-22s %9s  %-5s %s\n", "ID", "block",
            "grid", "regs", "smem B", "config B", "ncu theo", "occ theo", "achieved", "waves",
            "limiter", "time us", "agree", "kernel");
}

/* "registers", "registers+shared memory" */
static const char *limiter_text(unsigned limiters, char *buf, size_t cap)
{
    const occ_limiter order[] = {OCC_LIMITER_WARPS, OCC_LIMITER_BLOCKS, OCC_LIMITER_REGISTERS,
                                 OCC_LIMITER_SHARED_MEM, OCC_LIMITER_BARRIERS};
    size_t len = 0;
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
        if ((limiters & (unsigned)order[i]) != 0) {
            const char *name = occ_limiter_name(order[i]);
            size_t n = strlen(name);
            if (len + n + 2 > cap) {
                break;
            }
            if (len > 0) {
                buf[len++] = '+';
            }
            memcpy(buf + len, name, n);
            len += n;
        }
    }
    buf[len] = '\0';
    return buf;
}

/* A table row is a few hundred thousand times the same format: it is put
   together here, each piece as printf would print it, rather than parsed
   from a format string for every launch. */
typedef struct row {
    size_t len;
    char text[1024];
} row;

/* text in a field of `width`, to the right (or left); longer text whole. */
static void put(row *r, const char *text, size_t len, int width, bool left)
{
    size_t pad = width > 0 && (size_t)width > len ? (size_t)width - len : 0;
    if (r->len + len + pad + 1 >= sizeof r->text) {
        len = 0; /* not reached: every piece is short */
        pad = 0;
    }
    /* by hand: the pieces are a few bytes, shorter than a call to memcpy */
    char *to = r->text + r->len;
    for (size_t i = 0; !left && i < pad; i++) {
        *to++ = ' ';
    }
    for (size_t i = 0; i < len; i++) {
        *to++ = text[i];
    }
    for (size_t i = 0; left && i < pad; i++) {
        *to++ = ' ';
    }
    r->len = (size_t)(to - r->text);
}

static void put_str(row *r, const char *text, int width, bool left)
{
    put(r, text, strlen(text), width, left);
}

/* %lld */
static void put_int(row *r, long long value, int width)
{
    char buf[32];
    int n;
    if (value >= 0 && value < 1000000000LL) {
        char *p = buf + sizeof buf;
        long long v = value;
        n = 0;
        do {
            *--p = (char)('0' + v % 10);
            v /= 10;
            n++;
        } while (v > 0);
        put(r, p, (size_t)n, width, false);
        return;
    }
    n = snprintf(buf, sizeof buf, "%lld", value);
    put(r, buf, n > 0 ? (size_t)n : 0, width, false);
}

/* "1,234,567" */
static void put_grouped(row *r, long long value, int width)
{
    char buf[40];
    put_str(r, group_digits(value, buf, sizeof buf), width, false);
}

/* "%.2f" (and a suffix): printf rounds the exact binary value; away from a
   tie the product by 100 rounds the same way, and near one printf does it. */
static void put_fixed2(row *r, double value, const char *suffix, int width)
{
    char buf[64];
    int n;
    double y = value * 100.0;
    double whole = floor(y);
    if (value >= 0.0 && value < 1e9 && fabs(y - whole - 0.5) > 1e-4) {
        long long v = (long long)whole + (y - whole > 0.5);
        char *p = buf + 40;
        char *e = p;
        *--p = (char)('0' + v % 10);
        *--p = (char)('0' + v / 10 % 10);
        *--p = '.';
        v /= 100;
        do {
            *--p = (char)('0' + v % 10);
            v /= 10;
        } while (v > 0);
        size_t slen = strlen(suffix);
        memcpy(e, suffix, slen);
        put(r, p, (size_t)(e - p) + slen, width, false);
        return;
    }
    n = snprintf(buf, sizeof buf, "%.2f%s", value, suffix);
    put(r, buf, n > 0 ? (size_t)n : 0, width, false);
}

void ncu_print_text_row(FILE *out, const occ_profile_ncu_launch *l, const occ_profile_ncu_check *c,
                        const occ_gap_result *g)
{
    (void)g;
    char limiter[64];
    char name[TABLE_NAME_BYTES];
    char shown[4 * TABLE_NAME_BYTES];
    row r;
    r.len = 0;
    /* "%7lld %5d %9s %4d %10s %8s %7.2f%% %7.2f%% %8s %6s %-22s %9s  %-5s %s\n" */
    put_int(&r, l->id, 7);
    put(&r, " ", 1, 0, false);
    put_int(&r, c->result.threads_per_block, 5);
    put(&r, " ", 1, 0, false);
    put_grouped(&r, (long long)(l->v[OCC_PROFILE_NCU_GRID_SIZE].value + 0.5), 9);
    put(&r, " ", 1, 0, false);
    put_int(&r, c->kernel.regs_per_thread, 4);
    put(&r, " ", 1, 0, false);
    put_grouped(&r, (long long)c->kernel.static_smem_bytes + c->kernel.dyn_smem_bytes, 10);
    put(&r, " ", 1, 0, false);
    put_grouped(&r, c->smem_config_bytes, 8);
    put(&r, " ", 1, 0, false);
    put_fixed2(&r, c->ncu_theoretical * 100.0, "%", 8);
    put(&r, " ", 1, 0, false);
    put_fixed2(&r, c->theoretical * 100.0, "%", 8);
    put(&r, " ", 1, 0, false);
    if (c->has_achieved) {
        put_fixed2(&r, c->achieved * 100.0, "%", 8);
    } else {
        put(&r, "-", 1, 8, false);
    }
    put(&r, " ", 1, 0, false);
    if (c->waves >= 0) {
        put_fixed2(&r, c->waves, "", 6);
    } else {
        put(&r, "-", 1, 6, false);
    }
    put(&r, " ", 1, 0, false);
    put_str(&r, limiter_text(c->result.limiters, limiter, sizeof limiter), 22, true);
    put(&r, " ", 1, 0, false);
    if (l->v[OCC_PROFILE_NCU_DURATION].present) {
        put_fixed2(&r, l->v[OCC_PROFILE_NCU_DURATION].value, "", 9);
    } else {
        put(&r, "-", 1, 9, false);
    }
    put(&r, "  ", 2, 0, false);
    put_str(&r, c->mismatches == 0 ? "yes" : "NO", 5, true);
    put(&r, " ", 1, 0, false);
    put_str(&r, cli_visible(ncu_short_name(l->name, name, sizeof name), shown, sizeof shown), 0,
            false);
    put(&r, "\n", 1, 0, false);
    fwrite(r.text, 1, r.len, out);
    if (c->mismatches != 0) {
        fputs("        mismatches:", out);
        for (int bit = 0; bit < OCC_PROFILE_NCU_MISMATCH_KINDS; bit++) {
            if ((c->mismatches & (1u << bit)) != 0) {
                fprintf(out, " %s", occ_profile_ncu_mismatch_name(1u << bit));
            }
        }
        fputs(" (Nsight's Block Limits:", out);
        for (int i = 0; i < OCC_PROFILE_NCU_LIMIT_COUNT; i++) {
            fprintf(out, " %s %d", occ_profile_ncu_limit_names[i], c->ncu_limits[i]);
        }
        fputs("; libocc's:", out);
        for (int i = 0; i < OCC_PROFILE_NCU_LIMIT_COUNT; i++) {
            fprintf(out, " %s %d", occ_profile_ncu_limit_names[i], c->limits[i]);
        }
        fputs(")\n", out);
    }
}
