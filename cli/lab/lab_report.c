/*
 * lab_report.c - `occ lab` output: the tables and verdict lines as text,
 * the same tables as CSV, or everything as one JSON document (schema
 * "occ.lab" version 1, docs/lab.md).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "csv.h"
#include "lab_output.h"

/* Everything the presenters need, computed once. */
typedef struct lab_view {
    const lab_data *d;
    const lab_selection *sel;
    double ceiling_gb; /* cudaMemcpy D2D, read + written */
    lab_residency_summary rs;
    lab_model_check model;
    lab_blocksize_summary bs;
    lab_spill_summary ss;
    lab_timeline_summary ts[LAB_MAX_LAUNCHES];
} lab_view;

static bool fail(cli_error *err, const char *text)
{
    return cli_error_set(err, EXIT_DATA, "%s", text);
}

static bool prepare(lab_view *v, const lab_data *d, const lab_selection *sel, cli_error *err)
{
    memset(v, 0, sizeof *v);
    v->d = d;
    v->sel = sel;
    if (!d->has_device) {
        return fail(err, "the records have no device record (is this occ-lab output?)");
    }
    v->ceiling_gb = lab_gb_per_s(d->memcpy_bytes, d->memcpy_ms);
    if ((sel->ceiling || sel->residency) && v->ceiling_gb <= 0.0) {
        return fail(err, "the records have no cudaMemcpy ceiling (run ceiling too)");
    }
    if ((sel->latency || sel->residency) && d->dram_ns <= 0.0) {
        return fail(err, "the records have no DRAM latency (run latency too)");
    }
    if (sel->residency) {
        if (d->residency_count == 0) {
            return fail(err, "the records have no residency rows");
        }
        for (int i = 0; i < d->residency_count; i++) {
            if (!d->residency[i].checked) {
                return cli_error_set(err, EXIT_DATA,
                                     "residency row %s was not checked against the reference",
                                     d->residency[i].label);
            }
        }
        lab_residency_summarise(d->residency, d->residency_count, &v->rs);
        lab_model_check_run(d->residency, d->residency_count, v->ceiling_gb, d->dram_ns,
                            d->device.sm_count, &v->model);
    }
    if (sel->blocksize) {
        if (d->blocksize_count == 0) {
            return fail(err, "the records have no blocksize rows");
        }
        for (int i = 0; i < d->blocksize_count; i++) {
            if (!d->blocksize[i].checked) {
                return cli_error_set(err, EXIT_DATA, "blocksize row %d was not checked",
                                     d->blocksize[i].threads);
            }
        }
        lab_blocksize_summarise(d->blocksize, d->blocksize_count, &v->bs);
    }
    if (sel->spill) {
        if (d->spill_count == 0) {
            return fail(err, "the records have no spill rows");
        }
        for (int i = 0; i < d->spill_count; i++) {
            if (!d->spill[i].checked) {
                return cli_error_set(err, EXIT_DATA, "spill row lb%d was not checked",
                                     d->spill[i].min_blocks);
            }
        }
        lab_spill_summarise(d->spill, d->spill_count, &v->ss);
    }
    if (sel->timeline) {
        if (d->launch_count == 0) {
            return fail(err, "the records have no timeline launches");
        }
        for (int i = 0; i < d->launch_count; i++) {
            const lab_launch *l = &d->launches[i];
            if (l->block_count != l->grid) {
                return cli_error_set(err, EXIT_DATA, "timeline launch %s: %d of %d block records",
                                     l->name, l->block_count, l->grid);
            }
            char why[256];
            if (!lab_timeline_analyse(l, &v->ts[i], why, sizeof why)) {
                return cli_error_set(err, EXIT_DATA, "%s", why);
            }
        }
    }
    if (sel->verify) {
        if (!d->has_verify) {
            return fail(err, "the records have no verify summary");
        }
    }
    return true;
}

static double pct(int warps, int max_warps)
{
    return max_warps > 0 ? 100.0 * warps / max_warps : 0.0;
}

/* ---------------------------------------------------------------- text --- */

static void text_device(FILE *o, const lab_data *d)
{
    fprintf(o, "%s (sm_%d%d, %d SMs), driver %d.%d, runtime %d.%d\n", d->device.name,
            d->device.cc_major, d->device.cc_minor, d->device.sm_count,
            d->device.driver_version / 1000, d->device.driver_version % 1000 / 10,
            d->device.runtime_version / 1000, d->device.runtime_version % 1000 / 10);
}

static void text_ceiling(FILE *o, const lab_view *v)
{
    const lab_data *d = v->d;
    fprintf(o, "\nceiling (bytes read + written)\n");
    fprintf(o,
            "  cudaMemcpy device to device  %7.0f GB/s  %5.1f%% of the %d GB/s datasheet "
            "peak\n",
            v->ceiling_gb, 100.0 * v->ceiling_gb / d->device.peak_gb_per_s,
            d->device.peak_gb_per_s);
    double kernel_gb = lab_gb_per_s(d->copy_kernel_bytes, d->copy_kernel_ms);
    if (kernel_gb > 0.0) {
        fprintf(o, "  copy kernel                  %7.0f GB/s  %5.1f%% of cudaMemcpy\n", kernel_gb,
                100.0 * kernel_gb / v->ceiling_gb);
    }
}

static void text_latency(FILE *o, const lab_data *d)
{
    fprintf(o, "\nlatency (dependent loads, one thread)\n");
    fprintf(o, "  DRAM, buffer far past L2     %6.0f ns  %5.0f cycles\n", d->dram_ns,
            d->dram_cycles);
    if (d->dram_small_ns > 0.0) {
        fprintf(o, "  DRAM, 64 MiB of pages        %6.0f ns\n", d->dram_small_ns);
    }
    if (d->l2_ns > 0.0) {
        fprintf(o, "  L2                           %6.0f ns  %5.0f cycles\n", d->l2_ns,
                d->l2_cycles);
    }
}

static void text_residency(FILE *o, const lab_view *v)
{
    const lab_data *d = v->d;
    const lab_residency_row *rows = d->residency;
    fprintf(o, "\nresidency: out = a*x + y, 256 threads a block, every row checked\n");
    fprintf(o, "%-12s %5s %11s %4s %6s %9s %5s %9s %8s %6s %7s %7s\n", "label", "items",
            "reservation", "regs", "local", "blocks/SM", "occ", "in flight", "ms", "GB/s",
            "ceiling", "model");
    for (int i = 0; i < d->residency_count; i++) {
        const lab_residency_row *r = &rows[i];
        char reservation[16];
        if (r->dyn_smem_bytes > 0) {
            snprintf(reservation, sizeof reservation, "%d", r->dyn_smem_bytes);
        } else {
            snprintf(reservation, sizeof reservation, "none");
        }
        double gb = lab_gb_per_s(r->bytes, r->median_ms);
        char model[16] = "-";
        if (v->model.ok) {
            snprintf(model, sizeof model, "%s%.0f",
                     i == v->model.fit_row || i == v->model.warp_fit_row ? "*" : "",
                     v->model.predicted[i]);
        }
        fprintf(o, "%-12s %5d %11s %4d %6d %9d %4.0f%% %9d %8.4f %6.0f %6.1f%% %7s\n", r->label,
                r->items, reservation, r->regs, r->local_bytes, r->blocks_per_sm,
                pct(r->warps_per_sm, r->max_warps_per_sm), lab_residency_in_flight(r), r->median_ms,
                gb, 100.0 * gb / v->ceiling_gb, model);
    }
    fprintf(o,
            "(in flight: warp-wide loads a SM, resident warps x 2 x items; ceiling: "
            "cudaMemcpy D2D %.0f GB/s; model: Little's law, * = the rows it was fitted on)\n",
            v->ceiling_gb);
    const lab_model_check *m = &v->model;
    if (m->ok) {
        fprintf(o,
                "model: latency %.0f ns (DRAM chase), ceiling %.0f GB/s, loaded-latency "
                "factor %.2f fitted on %s",
                m->model.latency_ns, m->model.peak_gb_per_s, m->model.loaded_latency_factor,
                rows[m->fit_row].label);
        if (m->warp_fit_row >= 0) {
            fprintf(o, ", %.2f GB/s per warp fitted on %s", m->model.max_gb_per_s_per_warp,
                    rows[m->warp_fit_row].label);
        }
        fprintf(o, "; local memory counted as spill traffic\n");
        fprintf(o,
                "model error on the other %d row%s: median %.1f%%, max %.1f%%, rank "
                "correlation %.3f\n",
                m->rows_compared, m->rows_compared == 1 ? "" : "s", 100.0 * m->median_error,
                100.0 * m->max_error, m->rank_correlation);
        fprintf(o,
                "  without rows that spill (%d row%s): median %.1f%%, max %.1f%%, rank "
                "correlation %.3f\n",
                m->rows_compared_no_spill, m->rows_compared_no_spill == 1 ? "" : "s",
                100.0 * m->median_error_no_spill, 100.0 * m->max_error_no_spill,
                m->rank_correlation_no_spill);
    } else {
        fprintf(o, "model: not calibrated: %s\n", m->why);
    }
    const lab_residency_summary *s = &v->rs;
    const lab_residency_row *f = &rows[s->fastest];
    double fgb = lab_gb_per_s(f->bytes, f->median_ms);
    fprintf(o, "fastest: %s at %.0f%% occupancy, %.0f GB/s, %.1f%% of the cudaMemcpy ceiling\n",
            f->label, pct(f->warps_per_sm, f->max_warps_per_sm), fgb, 100.0 * fgb / v->ceiling_gb);
    const lab_residency_row *w = &rows[s->lowest_within];
    fprintf(o,
            "lowest occupancy within 10%% of the fastest: %s at %.1f%% occupancy, %d loads "
            "in flight a SM, time %.3fx the fastest\n",
            w->label, pct(w->warps_per_sm, w->max_warps_per_sm), lab_residency_in_flight(w),
            w->median_ms / f->median_ms);
    if (s->pair_high >= 0) {
        const lab_residency_row *h = &rows[s->pair_high];
        const lab_residency_row *l = &rows[s->pair_low];
        fprintf(o,
                "equal loads in flight (%d a SM): %s at %.1f%% and %s at %.1f%% occupancy "
                "(%.0fx apart), time ratio %.2f (%d such pair%s, ratios %.2f to %.2f)\n",
                lab_residency_in_flight(h), h->label, pct(h->warps_per_sm, h->max_warps_per_sm),
                l->label, pct(l->warps_per_sm, l->max_warps_per_sm),
                (double)h->warps_per_sm / l->warps_per_sm, s->pair_time_ratio, s->pair_count,
                s->pair_count == 1 ? "" : "s", s->pair_ratio_min, s->pair_ratio_max);
    } else {
        fprintf(o, "equal loads in flight: no pair of rows at occupancies 4x apart\n");
    }
}

static void text_blocksize(FILE *o, const lab_view *v)
{
    const lab_data *d = v->d;
    fprintf(o, "\nblocksize: out = a*x + y, one item a thread, every row checked\n");
    fprintf(o, "%7s %9s %5s %8s %6s %8s\n", "threads", "blocks/SM", "occ", "ms", "GB/s", "vs best");
    double best = d->blocksize[v->bs.fastest].median_ms;
    for (int i = 0; i < d->blocksize_count; i++) {
        const lab_blocksize_row *r = &d->blocksize[i];
        fprintf(o, "%7d %9d %4.0f%% %8.4f %6.0f %7.3fx%s\n", r->threads, r->blocks_per_sm,
                pct(r->warps_per_sm, r->max_warps_per_sm), r->median_ms,
                lab_gb_per_s(r->bytes, r->median_ms), r->median_ms / best,
                r->suggested ? "  <- cudaOccupancyMaxPotentialBlockSize" : "");
    }
    const lab_blocksize_summary *s = &v->bs;
    fprintf(o, "fastest: %d threads; %d of %d block sizes within 5%% of it\n",
            d->blocksize[s->fastest].threads, s->within_5_percent, d->blocksize_count);
    if (s->suggested >= 0) {
        fprintf(o, "the occupancy API suggests %d threads: %s (%.3fx the fastest time)\n",
                d->blocksize[s->suggested].threads,
                s->suggested_is_fastest ? "the fastest" : "not the fastest",
                s->suggested_time_ratio);
    }
}

static void text_spill(FILE *o, const lab_view *v)
{
    const lab_data *d = v->d;
    fprintf(o, "\nspill: one kernel, __launch_bounds__(256, N), every row checked\n");
    fprintf(o, "%3s %4s %12s %9s %5s %8s %8s\n", "N", "regs", "local/spill", "blocks/SM", "occ",
            "ms", "vs best");
    double best = d->spill[v->ss.fastest].median_ms;
    for (int i = 0; i < d->spill_count; i++) {
        const lab_spill_row *r = &d->spill[i];
        fprintf(o, "%3d %4d %12d %9d %4.0f%% %8.4f %7.2fx\n", r->min_blocks, r->regs,
                r->local_bytes, r->blocks_per_sm, pct(r->warps_per_sm, r->max_warps_per_sm),
                r->median_ms, r->median_ms / best);
    }
    const lab_spill_summary *s = &v->ss;
    if (s->turn >= 0) {
        const lab_spill_row *a = &d->spill[s->turn - 1];
        const lab_spill_row *b = &d->spill[s->turn];
        fprintf(o,
                "higher occupancy got slower at N = %d: %.1f%% -> %.1f%% occupancy, %d -> %d "
                "registers, %d bytes of local memory, %.2fx the time\n",
                b->min_blocks, pct(a->warps_per_sm, a->max_warps_per_sm),
                pct(b->warps_per_sm, b->max_warps_per_sm), a->regs, b->regs, b->local_bytes,
                s->turn_time_ratio);
    } else {
        fprintf(o, "no bound made the kernel more than 5%% slower while raising occupancy\n");
    }
}

static void text_timeline(FILE *o, const lab_view *v)
{
    const lab_data *d = v->d;
    fprintf(o, "\ntimeline: blocks of fixed length, 4 resident a SM by a shared-memory "
               "reservation\n");
    fprintf(o, "%-10s %6s %6s %11s %8s %9s %12s %8s\n", "launch", "grid", "waves", "waves seen",
            "us", "achieved", "theoretical", "tail us");
    for (int i = 0; i < d->launch_count; i++) {
        const lab_launch *l = &d->launches[i];
        const lab_timeline_summary *t = &v->ts[i];
        fprintf(o, "%-10s %6d %6.2f %11d %8.1f %8.1f%% %11.1f%% %8.1f\n", l->name, l->grid,
                t->waves_theoretical, t->waves_measured, t->duration_ns / 1e3,
                100.0 * t->achieved_occupancy, 100.0 * t->theoretical_occupancy, t->tail_ns / 1e3);
    }
    fprintf(o, "(achieved: resident warps averaged over the launch and all SMs; tail: time "
               "after the last moment every block slot was busy)\n");
}

static void text_verify(FILE *o, const lab_data *d)
{
    fprintf(o, "\nverify: libocc against the driver on this GPU\n");
    fprintf(o,
            "%lld comparisons over %d kernels (occupancy at block sizes 1..1024, dynamic "
            "shared memory 0..max, 5 carveouts; the occupancy API's block size): "
            "%lld mismatches\n",
            d->verify_comparisons, d->verify_kernels, d->verify_mismatches);
}

static void report_text(FILE *o, const lab_view *v)
{
    text_device(o, v->d);
    if (v->sel->ceiling) {
        text_ceiling(o, v);
    }
    if (v->sel->latency) {
        text_latency(o, v->d);
    }
    if (v->sel->blocksize) {
        text_blocksize(o, v);
    }
    if (v->sel->spill) {
        text_spill(o, v);
    }
    if (v->sel->timeline) {
        text_timeline(o, v);
    }
    if (v->sel->verify) {
        text_verify(o, v->d);
    }
    /* Last, so its verdict lines end the output, as seed 000 of
       docs/sources.md ends its own. */
    if (v->sel->residency) {
        text_residency(o, v);
    }
}

/* ----------------------------------------------------------------- CSV --- */

static void report_csv(FILE *o, const lab_view *v)
{
    const lab_data *d = v->d;
    bool first = true;
    if (v->sel->residency) {
        fprintf(o, "# residency\nlabel,items,launch_bound_min_blocks,dyn_smem_bytes,regs,"
                   "local_bytes,blocks_per_sm,occupancy,loads_in_flight_per_sm,median_ms,"
                   "gb_per_s,fraction_of_ceiling,model_gb_per_s\n");
        for (int i = 0; i < d->residency_count; i++) {
            const lab_residency_row *r = &d->residency[i];
            double gb = lab_gb_per_s(r->bytes, r->median_ms);
            csv_put_field(o, r->label);
            fprintf(o, ",%d,%d,%d,%d,%d,%d,%.4f,%d,%.6f,%.1f,%.4f,", r->items,
                    r->launch_bound_min_blocks, r->dyn_smem_bytes, r->regs, r->local_bytes,
                    r->blocks_per_sm, pct(r->warps_per_sm, r->max_warps_per_sm) / 100.0,
                    lab_residency_in_flight(r), r->median_ms, gb, gb / v->ceiling_gb);
            if (v->model.ok) {
                fprintf(o, "%.1f", v->model.predicted[i]);
            }
            fprintf(o, "\n");
        }
        first = false;
    }
    if (v->sel->blocksize) {
        fprintf(o,
                "%s# blocksize\nthreads,blocks_per_sm,occupancy,median_ms,gb_per_s,"
                "suggested\n",
                first ? "" : "\n");
        for (int i = 0; i < d->blocksize_count; i++) {
            const lab_blocksize_row *r = &d->blocksize[i];
            fprintf(o, "%d,%d,%.4f,%.6f,%.1f,%s\n", r->threads, r->blocks_per_sm,
                    pct(r->warps_per_sm, r->max_warps_per_sm) / 100.0, r->median_ms,
                    lab_gb_per_s(r->bytes, r->median_ms), r->suggested ? "true" : "false");
        }
        first = false;
    }
    if (v->sel->spill) {
        fprintf(o, "%s# spill\nmin_blocks,regs,local_bytes,blocks_per_sm,occupancy,median_ms\n",
                first ? "" : "\n");
        for (int i = 0; i < d->spill_count; i++) {
            const lab_spill_row *r = &d->spill[i];
            fprintf(o, "%d,%d,%d,%d,%.4f,%.6f\n", r->min_blocks, r->regs, r->local_bytes,
                    r->blocks_per_sm, pct(r->warps_per_sm, r->max_warps_per_sm) / 100.0,
                    r->median_ms);
        }
        first = false;
    }
    if (v->sel->timeline) {
        fprintf(o,
                "%s# timeline\nlaunch,grid,waves,waves_measured,duration_ns,"
                "achieved_occupancy,theoretical_occupancy,tail_ns\n",
                first ? "" : "\n");
        for (int i = 0; i < d->launch_count; i++) {
            const lab_timeline_summary *t = &v->ts[i];
            fprintf(o, "%s,%d,%.4f,%d,%.0f,%.4f,%.4f,%.0f\n", d->launches[i].name,
                    d->launches[i].grid, t->waves_theoretical, t->waves_measured, t->duration_ns,
                    t->achieved_occupancy, t->theoretical_occupancy, t->tail_ns);
        }
        first = false;
    }
    if (v->sel->ceiling || v->sel->latency || v->sel->verify) {
        fprintf(o, "%s# figures\nname,value\n", first ? "" : "\n");
        if (v->sel->ceiling) {
            fprintf(o, "memcpy_gb_per_s,%.1f\ncopy_kernel_gb_per_s,%.1f\n", v->ceiling_gb,
                    lab_gb_per_s(d->copy_kernel_bytes, d->copy_kernel_ms));
        }
        if (v->sel->latency) {
            fprintf(o, "dram_ns,%.1f\ndram_cycles,%.1f\nl2_ns,%.1f\nl2_cycles,%.1f\n", d->dram_ns,
                    d->dram_cycles, d->l2_ns, d->l2_cycles);
        }
        if (v->sel->verify) {
            fprintf(o, "verify_comparisons,%lld\nverify_mismatches,%lld\n", d->verify_comparisons,
                    d->verify_mismatches);
        }
    }
}

/* ---------------------------------------------------------------- JSON --- */

static json_t *json_residency(const lab_view *v)
{
    const lab_data *d = v->d;
    json_t *rows = json_array();
    for (int i = 0; i < d->residency_count; i++) {
        const lab_residency_row *r = &d->residency[i];
        double gb = lab_gb_per_s(r->bytes, r->median_ms);
        json_t *o = json_pack(
            "{s:s,s:i,s:i,s:i,s:i,s:i,s:i,s:f,s:i,s:f,s:f,s:f,s:b}", "label", r->label, "items",
            r->items, "launch_bound_min_blocks", r->launch_bound_min_blocks, "dyn_smem_bytes",
            r->dyn_smem_bytes, "regs", r->regs, "local_bytes", r->local_bytes, "blocks_per_sm",
            r->blocks_per_sm, "occupancy", pct(r->warps_per_sm, r->max_warps_per_sm) / 100.0,
            "loads_in_flight_per_sm", lab_residency_in_flight(r), "median_ms", r->median_ms,
            "gb_per_s", gb, "fraction_of_ceiling", gb / v->ceiling_gb, "checked", r->checked);
        json_object_set_new(o, "model_gb_per_s",
                            v->model.ok ? json_real(v->model.predicted[i]) : json_null());
        json_array_append_new(rows, o);
    }
    const lab_residency_summary *s = &v->rs;
    json_t *out =
        json_pack("{s:o,s:s,s:s}", "rows", rows, "fastest", d->residency[s->fastest].label,
                  "lowest_occupancy_within_10_percent", d->residency[s->lowest_within].label);
    if (s->pair_high >= 0) {
        json_object_set_new(out, "equal_in_flight_pair",
                            json_pack("{s:s,s:s,s:f,s:i,s:f,s:f}", "high_occupancy",
                                      d->residency[s->pair_high].label, "low_occupancy",
                                      d->residency[s->pair_low].label, "time_ratio",
                                      s->pair_time_ratio, "pairs", s->pair_count, "ratio_min",
                                      s->pair_ratio_min, "ratio_max", s->pair_ratio_max));
    } else {
        json_object_set_new(out, "equal_in_flight_pair", json_null());
    }
    const lab_model_check *m = &v->model;
    if (m->ok) {
        json_object_set_new(
            out, "model",
            json_pack("{s:f,s:f,s:f,s:s,s:f,s:o,s:i,s:f,s:f,s:f,s:i,s:f,s:f,s:f}", "latency_ns",
                      m->model.latency_ns, "peak_gb_per_s", m->model.peak_gb_per_s,
                      "loaded_latency_factor", m->model.loaded_latency_factor, "fit_row",
                      d->residency[m->fit_row].label, "max_gb_per_s_per_warp",
                      m->model.max_gb_per_s_per_warp, "warp_fit_row",
                      m->warp_fit_row >= 0 ? json_string(d->residency[m->warp_fit_row].label)
                                           : json_null(),
                      "rows_compared", m->rows_compared, "median_error", m->median_error,
                      "max_error", m->max_error, "rank_correlation", m->rank_correlation,
                      "rows_compared_no_spill", m->rows_compared_no_spill, "median_error_no_spill",
                      m->median_error_no_spill, "max_error_no_spill", m->max_error_no_spill,
                      "rank_correlation_no_spill", m->rank_correlation_no_spill));
    } else {
        json_object_set_new(out, "model", json_pack("{s:s}", "error", m->why));
    }
    return out;
}

static json_t *json_blocksize(const lab_view *v)
{
    const lab_data *d = v->d;
    json_t *rows = json_array();
    for (int i = 0; i < d->blocksize_count; i++) {
        const lab_blocksize_row *r = &d->blocksize[i];
        json_array_append_new(rows, json_pack("{s:i,s:i,s:f,s:f,s:f,s:b}", "threads", r->threads,
                                              "blocks_per_sm", r->blocks_per_sm, "occupancy",
                                              pct(r->warps_per_sm, r->max_warps_per_sm) / 100.0,
                                              "median_ms", r->median_ms, "gb_per_s",
                                              lab_gb_per_s(r->bytes, r->median_ms), "suggested",
                                              r->suggested));
    }
    const lab_blocksize_summary *s = &v->bs;
    return json_pack("{s:o,s:i,s:i,s:i,s:b,s:f}", "rows", rows, "fastest_threads",
                     d->blocksize[s->fastest].threads, "suggested_threads",
                     s->suggested >= 0 ? d->blocksize[s->suggested].threads : 0, "within_5_percent",
                     s->within_5_percent, "suggested_is_fastest", s->suggested_is_fastest,
                     "suggested_time_ratio", s->suggested_time_ratio);
}

static json_t *json_spill(const lab_view *v)
{
    const lab_data *d = v->d;
    json_t *rows = json_array();
    for (int i = 0; i < d->spill_count; i++) {
        const lab_spill_row *r = &d->spill[i];
        json_array_append_new(rows,
                              json_pack("{s:i,s:i,s:i,s:i,s:f,s:f}", "min_blocks", r->min_blocks,
                                        "regs", r->regs, "local_bytes", r->local_bytes,
                                        "blocks_per_sm", r->blocks_per_sm, "occupancy",
                                        pct(r->warps_per_sm, r->max_warps_per_sm) / 100.0,
                                        "median_ms", r->median_ms));
    }
    const lab_spill_summary *s = &v->ss;
    return json_pack("{s:o,s:i,s:o,s:f}", "rows", rows, "fastest_min_blocks",
                     d->spill[s->fastest].min_blocks, "slower_at_min_blocks",
                     s->turn >= 0 ? json_integer(d->spill[s->turn].min_blocks) : json_null(),
                     "slower_time_ratio", s->turn_time_ratio);
}

static json_t *json_timeline(const lab_view *v)
{
    const lab_data *d = v->d;
    json_t *launches = json_array();
    for (int i = 0; i < d->launch_count; i++) {
        const lab_timeline_summary *t = &v->ts[i];
        json_array_append_new(
            launches,
            json_pack("{s:s,s:i,s:i,s:f,s:i,s:f,s:f,s:f,s:f,s:f,s:i}", "launch",
                      d->launches[i].name, "grid", d->launches[i].grid, "blocks_per_sm",
                      d->launches[i].blocks_per_sm, "waves", t->waves_theoretical, "waves_measured",
                      t->waves_measured, "duration_ns", t->duration_ns, "achieved_occupancy",
                      t->achieved_occupancy, "theoretical_occupancy", t->theoretical_occupancy,
                      "tail_ns", t->tail_ns, "full_ns", t->full_ns, "sms_used", t->sms_used));
    }
    return launches;
}

static void report_json(FILE *o, const lab_view *v)
{
    const lab_data *d = v->d;
    json_t *root = json_pack(
        "{s:s,s:i,s:s,s:{s:s,s:i,s:i,s:i,s:i,s:i}}", "schema", "occ.lab", "version", 1,
        "occ_version", occ_version(), "device", "name", d->device.name, "cc_major",
        d->device.cc_major, "cc_minor", d->device.cc_minor, "sm_count", d->device.sm_count,
        "driver_version", d->device.driver_version, "runtime_version", d->device.runtime_version);
    if (v->sel->ceiling) {
        json_object_set_new(root, "ceiling",
                            json_pack("{s:f,s:f}", "memcpy_gb_per_s", v->ceiling_gb,
                                      "copy_kernel_gb_per_s",
                                      lab_gb_per_s(d->copy_kernel_bytes, d->copy_kernel_ms)));
    }
    if (v->sel->latency) {
        json_object_set_new(root, "latency",
                            json_pack("{s:f,s:f,s:f,s:f,s:f}", "dram_ns", d->dram_ns, "dram_cycles",
                                      d->dram_cycles, "dram_64mib_ns", d->dram_small_ns, "l2_ns",
                                      d->l2_ns, "l2_cycles", d->l2_cycles));
    }
    if (v->sel->residency) {
        json_object_set_new(root, "residency", json_residency(v));
    }
    if (v->sel->blocksize) {
        json_object_set_new(root, "blocksize", json_blocksize(v));
    }
    if (v->sel->spill) {
        json_object_set_new(root, "spill", json_spill(v));
    }
    if (v->sel->timeline) {
        json_object_set_new(root, "timeline", json_timeline(v));
    }
    if (v->sel->verify) {
        json_object_set_new(root, "verify",
                            json_pack("{s:i,s:I,s:I}", "kernels", d->verify_kernels, "comparisons",
                                      (json_int_t)d->verify_comparisons, "mismatches",
                                      (json_int_t)d->verify_mismatches));
    }
    json_dumpf(root, o, JSON_INDENT(2) | JSON_REAL_PRECISION(6));
    fputc('\n', o);
    json_decref(root);
}

bool lab_report(FILE *out, const lab_data *data, const lab_selection *sel, lab_format format,
                cli_error *err)
{
    lab_view *v = calloc(1, sizeof *v);
    if (v == NULL) {
        return fail(err, "out of memory");
    }
    bool ok = prepare(v, data, sel, err);
    if (ok) {
        switch (format) {
        case LAB_TEXT: report_text(out, v); break;
        case LAB_CSV: report_csv(out, v); break;
        case LAB_JSON: report_json(out, v); break;
        }
    }
    free(v);
    if (ok && sel->verify && data->verify_mismatches != 0) {
        return cli_error_set(err, EXIT_DATA,
                             "verify: %lld of %lld comparisons differ between libocc and the "
                             "driver",
                             data->verify_mismatches, data->verify_comparisons);
    }
    return ok;
}
