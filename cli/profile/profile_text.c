/*
 * profile_text.c - `occ profile`'s text: the program in one paragraph, GPU
 * time by occupancy as bars, the launch configurations by GPU time, the
 * ranked few explained, and every difference from what the trace recorded.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "output.h"
#include "profile_output.h"

static const char *duration(double us, char *buf, size_t cap)
{
    if (us >= 1e6) {
        snprintf(buf, cap, "%.2f s", us / 1e6);
    } else if (us >= 1e3) {
        snprintf(buf, cap, "%.2f ms", us / 1e3);
    } else {
        snprintf(buf, cap, "%.1f us", us);
    }
    return buf;
}

static void print_devices(FILE *out, const profile_view *v)
{
    const occ_profile_result *r = v->result;
    for (size_t i = 0; i < occ_profile_device_count(r); i++) {
        const occ_profile_device *d = occ_profile_device_at(r, i);
        char launches[32], t[32];
        fprintf(out, "GPU %zu: %s device %d", i, v->paths[d->input], d->trace_id);
        if (d->trace_name[0]) {
            fprintf(out, ", \"%s\"", d->trace_name);
        }
        if (d->trace_cc_major >= 0) {
            fprintf(out, ", compute capability %d.%d", d->trace_cc_major, d->trace_cc_minor);
        }
        if (d->trace_sm_count > 0) {
            fprintf(out, ", %d SMs", d->trace_sm_count);
        }
        if (d->gpu_known) {
            fprintf(out, ": computed as %s (sm_%d%d, %d SMs)", d->gpu.name, d->gpu.cc_major,
                    d->gpu.cc_minor, d->gpu.sm_count);
        } else {
            fprintf(out, ": no GPU occ knows; give --gpu");
        }
        fprintf(out, "; %s launch%s, %s\n", group_digits(d->launches, launches, sizeof launches),
                d->launches == 1 ? "" : "es", duration(d->gpu_time_us, t, sizeof t));
    }
}

static void print_histogram(FILE *out, const occ_profile_summary *s)
{
    static const char *const blocks[] = {"",       "\u258f", "\u258e", "\u258d",
                                         "\u258c", "\u258b", "\u258a", "\u2589"};
    const int width = 40;
    double total = 0;
    for (int i = 0; i < OCC_PROFILE_HISTOGRAM_BINS; i++) {
        total += s->histogram_us[i];
    }
    fprintf(out, "\nGPU time by theoretical occupancy\n");
    for (int i = 0; i < OCC_PROFILE_HISTOGRAM_BINS; i++) {
        double share = total > 0 ? s->histogram_us[i] / total : 0;
        double eighths = share * width * 8;
        int full = (int)(eighths / 8);
        int part = (int)eighths % 8;
        char t[32];
        fprintf(out, "  %3d-%3d%%  ", i * 10,
                i == OCC_PROFILE_HISTOGRAM_BINS - 1 ? 100 : i * 10 + 9);
        for (int k = 0; k < full; k++) {
            fputs("\u2588", out);
        }
        fputs(blocks[part], out);
        fprintf(out, "%*s %5.1f%%  %s\n", width - full - (part ? 1 : 0), "", share * 100,
                duration(s->histogram_us[i], t, sizeof t));
    }
}

static void print_row(FILE *out, const occ_profile_result *r, size_t i, double total)
{
    const occ_profile_group *g = occ_profile_group_at(r, i);
    char lim[64], launches[32], t[32], name[96], block[24], grid[40];
    snprintf(block, sizeof block, "%dx%dx%d", g->block[0], g->block[1], g->block[2]);
    snprintf(grid, sizeof grid, "%dx%dx%d", g->grid[0], g->grid[1], g->grid[2]);
    fprintf(out, "%5.1f%% %10s %9s %-15s %-18s %4d %7d ",
            total > 0 ? 100 * g->gpu_time_us / total : 0, duration(g->gpu_time_us, t, sizeof t),
            group_digits(g->launches, launches, sizeof launches), block, grid, g->regs_per_thread,
            g->smem_bytes);
    if (g->computed) {
        fprintf(out, "%4.0f%% %6.2f %-22s ", g->occupancy * 100, g->waves,
                profile_limiters(g->limiters, lim, sizeof lim));
    } else {
        fprintf(out, "%5s %6s %-22s ", "-", "-", "not computed");
    }
    fprintf(out, "%s%s\n", profile_short_name(g->name, name, sizeof name),
            g->cluster[0] ? " (cluster)" : "");
}

static void print_explained(FILE *out, const profile_view *v)
{
    const occ_profile_result *r = v->result;
    const occ_profile_summary *s = occ_profile_summary_of(r);
    size_t n = v->ranked_count < (size_t)v->explain ? v->ranked_count : (size_t)v->explain;
    if (n == 0) {
        return;
    }
    fprintf(out, "\nWhere more warps could matter most (GPU time x headroom)\n");
    for (size_t k = 0; k < n; k++) {
        size_t i = v->ranked[k];
        const occ_profile_group *g = occ_profile_group_at(r, i);
        const occ_profile_device *d = occ_profile_device_at(r, (size_t)g->device);
        char lim[64], t[32], name[81], head[1024], text[4096];
        snprintf(head, sizeof head,
                 "%zu. %s: %s, %.1f%% of GPU time, %lld launch%s of %d x %d x %d threads; %d of %d "
                 "warps per SM (%.1f%%), %s bind%s; %.2f waves of %d blocks.",
                 k + 1, profile_short_name(g->name, name, sizeof name),
                 duration(g->gpu_time_us, t, sizeof t),
                 s->gpu_time_us > 0 ? 100 * g->gpu_time_us / s->gpu_time_us : 0, g->launches,
                 g->launches == 1 ? "" : "es", g->block[0], g->block[1], g->block[2],
                 g->result.warps_per_sm, g->result.max_warps_per_sm, g->occupancy * 100,
                 profile_limiters(g->limiters, lim, sizeof lim),
                 g->limiters == OCC_LIMITER_SHARED_MEM ? "s" : "", g->waves,
                 g->result.blocks_per_sm * d->gpu.sm_count);
        size_t used = (size_t)snprintf(text, sizeof text, "%s", head);
        occ_kernel kernel;
        occ_explanation e;
        bool helps = false;
        if (occ_profile_group_kernel(r, i, &kernel, NULL) == OCC_OK &&
            occ_explain(&d->gpu, &kernel, &e, NULL) == OCC_OK) {
            for (int c = 0; c < e.change_count && used < sizeof text; c++) {
                if (e.changes[c].helps) {
                    used +=
                        (size_t)snprintf(text + used, sizeof text - used, " %s", e.changes[c].text);
                    helps = true;
                }
            }
        }
        /* a grid below nine tenths of one wave leaves SMs idle whatever the
           occupancy: say so rather than offer warps it cannot use */
        if (g->waves >= 0 && g->waves < 0.9 && used < sizeof text) {
            used += (size_t)snprintf(text + used, sizeof text - used,
                                     " Its grid is %.2f of one wave and fills only %.1f%% of the "
                                     "GPU's warp slots: more warps per SM cannot help it; more "
                                     "blocks, or more work per block, would.",
                                     g->waves, g->grid_occupancy * 100);
        } else if (!helps && used < sizeof text) {
            snprintf(text + used, sizeof text - used,
                     " No single change of registers, shared memory or block size gains a "
                     "block.");
        }
        cli_print_wrapped(out, text, 3);
    }
    cli_print_wrapped(out,
                      "Occupancy is not speed: these kernels gain from more warps only while "
                      "they wait on memory with too few loads in flight (occ latency).",
                      0);
}

static void print_checks(FILE *out, const profile_view *v)
{
    const occ_profile_result *r = v->result;
    const occ_profile_summary *s = occ_profile_summary_of(r);
    char a[32], b[32];
    if (s->smem_config_checked == 0 && s->kineto_checked == 0) {
        fprintf(out, "\nThe traces record neither sharedMemoryExecuted nor Kineto's estimate: "
                     "nothing to check libocc against.\n");
        return;
    }
    fprintf(out, "\nChecked against the trace\n");
    if (s->smem_config_checked) {
        fprintf(out,
                "- sharedMemoryExecuted: %s launch%s; %s differ%s from libocc's launch-time "
                "shared-memory configuration.\n",
                group_digits(s->smem_config_checked, a, sizeof a),
                s->smem_config_checked == 1 ? "" : "es",
                group_digits(s->smem_config_differs, b, sizeof b),
                s->smem_config_differs == 1 ? "s" : "");
        for (size_t i = 0; i < occ_profile_group_count(r); i++) {
            const occ_profile_group *g = occ_profile_group_at(r, i);
            if (g->trace_smem_config_differs) {
                char name[96];
                fprintf(out, "  %lld launch%s of %s (%dx%dx%d, %d regs, %d B): trace %d, occ %d\n",
                        g->trace_smem_config_differs, g->trace_smem_config_differs == 1 ? "" : "es",
                        profile_short_name(g->name, name, sizeof name), g->block[0], g->block[1],
                        g->block[2], g->regs_per_thread, g->smem_bytes, g->trace_smem_config_bytes,
                        g->smem_config_bytes);
            }
        }
    }
    if (s->kineto_checked) {
        char line[1024];
        size_t used = (size_t)snprintf(
            line, sizeof line,
            "- Kineto's est. achieved occupancy: %s launch%s; libocc's grid-bound occupancy "
            "agrees on %s.",
            group_digits(s->kineto_checked, a, sizeof a), s->kineto_checked == 1 ? "" : "es",
            group_digits(s->kineto_by_cause[OCC_PROFILE_KINETO_AGREES], b, sizeof b));
        for (int c = 1; c < 8 && used < sizeof line; c++) {
            if (s->kineto_by_cause[c]) {
                used += (size_t)snprintf(line + used, sizeof line - used, " %s: %lld.",
                                         occ_profile_kineto_cause_name((occ_profile_kineto_cause)c),
                                         s->kineto_by_cause[c]);
            }
        }
        if (used < sizeof line) {
            snprintf(line + used, sizeof line - used,
                     " (docs/profile.md says what each cause means.)");
        }
        cli_print_wrapped(out, line, 2);
    }
}

void profile_print_text(FILE *out, const profile_view *v)
{
    const occ_profile_result *r = v->result;
    const occ_profile_summary *s = occ_profile_summary_of(r);
    char launches[32], computed[32], groups[32], t[32];
    size_t count = occ_profile_group_count(r);
    fprintf(out, "%s kernel launches in %s launch configurations, %s of GPU time",
            group_digits(s->launches_read, launches, sizeof launches),
            group_digits((long long)count, groups, sizeof groups),
            duration(s->gpu_time_us, t, sizeof t));
    fprintf(out, " (%d input%s)\n", v->path_count, v->path_count == 1 ? "" : "s");
    print_devices(out, v);
    if (s->launches_computed == 0) {
        fprintf(out, "\nNo launch could be computed.\n");
        return;
    }
    fprintf(
        out, "\nTheoretical occupancy weighted by GPU time: %.1f%% (%s of the launches computed)\n",
        s->weighted_occupancy * 100, group_digits(s->launches_computed, computed, sizeof computed));
    print_histogram(out, s);
    size_t shown = v->top == 0 || (size_t)v->top > count ? count : (size_t)v->top;
    fprintf(out, "\nLaunch configurations by GPU time (%zu of %zu%s)\n", shown, count,
            shown < count ? "; --all for every one" : "");
    fprintf(out, "%6s %10s %9s %-15s %-18s %4s %7s %5s %6s %-22s %s\n", "TIME", "GPU TIME",
            "LAUNCHES", "BLOCK", "GRID", "REGS", "SMEM", "OCC", "WAVES", "LIMITER", "KERNEL");
    for (size_t i = 0; i < shown; i++) {
        print_row(out, r, i, s->gpu_time_us);
    }
    print_explained(out, v);
    print_checks(out, v);
}
