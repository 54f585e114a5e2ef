/*
 * inspect_table.c - `occ inspect`'s readable outputs: the kernel table and
 * --summary (counts by limiter and by occupancy band, the worst kernels).
 */
#include <string.h>

#include "inspect_args.h"

const char *inspect_limiter_text(const inspect_row *row, char *buf, size_t cap)
{
    if (!row->has_occupancy) {
        snprintf(buf, cap, "%s", row->note != NULL ? row->note : "-");
    } else if (row->blocks_per_sm == 0) {
        snprintf(buf, cap, "none fits");
    } else {
        calc_limiter_list(row->limiters, buf, cap);
    }
    return buf;
}

const char *inspect_entry_kind_name(int kind, char *buf, size_t cap)
{
    switch (kind) {
    case INSP_ENTRY_PTX: snprintf(buf, cap, "PTX"); break;
    case INSP_ENTRY_LTOIR: snprintf(buf, cap, "LTO-IR"); break;
    case INSP_ENTRY_CUBIN: snprintf(buf, cap, "cubin"); break;
    default: snprintf(buf, cap, "kind %d", kind); break;
    }
    return buf;
}

/* Spills: bytes stored from a ptxas log, else spill instructions of a cubin. */
static const char *spill_text(const insp_function *f, char *buf, size_t cap)
{
    if (f->spill_store_bytes > 0 || f->spill_load_bytes > 0) {
        snprintf(buf, cap, "%dB", f->spill_store_bytes > 0 ? f->spill_store_bytes : 0);
    } else if (f->spill_instructions > 0) {
        snprintf(buf, cap, "%di", f->spill_instructions);
    } else {
        snprintf(buf, cap, "-");
    }
    return buf;
}

static const char *bound_text(const insp_function *f, char *buf, size_t cap)
{
    const int *d = f->req_threads[0] > 0 ? f->req_threads : f->max_threads;
    if (d[0] <= 0) {
        snprintf(buf, cap, "-");
    } else {
        long long p = (long long)d[0] * (d[1] > 0 ? d[1] : 1) * (d[2] > 0 ? d[2] : 1);
        snprintf(buf, cap, "%s%lld", f->req_threads[0] > 0 ? "=" : "", p);
    }
    return buf;
}

static void print_footer(FILE *out, const inspect_result *r, const inspect_options *opts)
{
    size_t kernels = 0;
    for (size_t i = 0; i < r->row_count; i++) {
        kernels += r->rows[i].f.is_kernel;
    }
    fprintf(out, "\n%zu kernel%s", kernels, kernels == 1 ? "" : "s");
    if (opts->functions) {
        fprintf(out, " and %zu device function%s", r->row_count - kernels,
                r->row_count - kernels == 1 ? "" : "s");
    }
    fprintf(out, " (%zu read, duplicates merged) from", r->functions_read);
    for (int i = 0; i < r->file_count; i++) {
        fprintf(out, "%s %s (%s)", i > 0 ? "," : "", r->file_names[i],
                insp_format_name(r->file_formats[i]));
    }
    fprintf(out, ".\nOccupancy on %s%s, %s, %d B dynamic shared memory.\n",
            opts->have_device ? opts->device.name : "each kernel's own arch",
            opts->have_device ? "" : " (generic sm_XX entry)",
            opts->threads > 0 ? "at --threads" : "at the block size the occupancy API picks",
            opts->dyn_smem_bytes);
    for (int i = 0; i < r->nodata_count; i++) {
        char kind[16];
        char arch[16];
        const inspect_nodata *n = &r->nodata[i];
        fprintf(out, "%d %s entr%s for %s: no resource data (compiled when loaded).\n",
                n->count, inspect_entry_kind_name(n->kind, kind, sizeof kind),
                n->count == 1 ? "y" : "ies", inspect_arch_name(n->sm, n->suffix, arch, sizeof arch));
    }
    if (r->entries_skipped > 0) {
        fprintf(out, "%d entr%s of other archs skipped (--arch).\n", r->entries_skipped,
                r->entries_skipped == 1 ? "y" : "ies");
    }
}

static void print_row(FILE *out, const inspect_row *row)
{
    char arch[16];
    char spill[24];
    char bound[24];
    char limiter[64];
    char occ[16];
    char block[16];
    char blocks[16];
    const insp_function *f = &row->f;
    if (row->has_occupancy) {
        snprintf(occ, sizeof occ, "%.0f%%", row->occupancy * 100.0);
        snprintf(block, sizeof block, "%d", row->threads);
        snprintf(blocks, sizeof blocks, "%d", row->blocks_per_sm);
    } else {
        snprintf(occ, sizeof occ, "-");
        snprintf(block, sizeof block, "-");
        snprintf(blocks, sizeof blocks, "-");
    }
    fprintf(out, "%-8s %4d %7d %6d %6s %3d %5s %5s %6s %4s  %-18s %s",
            inspect_arch_name(f->sm, f->arch_suffix, arch, sizeof arch), f->regs, f->smem_bytes,
            f->stack_bytes, spill_text(f, spill, sizeof spill),
            f->barriers == INSP_UNKNOWN ? 0 : f->barriers, bound_text(f, bound, sizeof bound),
            block, blocks, occ, inspect_limiter_text(row, limiter, sizeof limiter), row->name);
    if (f->relocatable) {
        fputs("  [unlinked -rdc code]", out);
    }
    if (row->count > 1) {
        fprintf(out, "  [x%d]", row->count);
    }
    fputc('\n', out);
}

void inspect_print_table(FILE *out, const inspect_result *r, const inspect_options *opts)
{
    fprintf(out, "%-8s %4s %7s %6s %6s %3s %5s %5s %6s %4s  %-18s %s\n", "ARCH", "REGS", "SMEM",
            "STACK", "SPILL", "BAR", "BOUND", "BLOCK", "BLK/SM", "OCC", "LIMITER", "NAME");
    for (size_t i = 0; i < r->row_count; i++) {
        print_row(out, &r->rows[i]);
    }
    print_footer(out, r, opts);
}

void inspect_print_summary(FILE *out, const inspect_result *r, const inspect_options *opts)
{
    static const struct {
        occ_limiter bit;
        const char *name;
    } limiters[] = {{OCC_LIMITER_REGISTERS, "registers"}, {OCC_LIMITER_SHARED_MEM, "shared_mem"},
                    {OCC_LIMITER_WARPS, "warps"},         {OCC_LIMITER_BLOCKS, "blocks"},
                    {OCC_LIMITER_BARRIERS, "barriers"}};
    size_t by_limiter[5] = {0};
    size_t none_fit = 0;
    size_t no_occupancy = 0;
    /* Bands: [0, 25%), [25%, 50%), [50%, 75%), [75%, 100%), 100% */
    static const char *const band_names[] = {"0-25%", "25-50%", "50-75%", "75-99%", "100%"};
    size_t bands[5] = {0};
    for (size_t i = 0; i < r->row_count; i++) {
        const inspect_row *row = &r->rows[i];
        if (!row->has_occupancy) {
            no_occupancy++;
            continue;
        }
        if (row->blocks_per_sm == 0) {
            none_fit++;
        }
        for (int l = 0; l < 5; l++) {
            by_limiter[l] += (row->limiters & (unsigned)limiters[l].bit) != 0;
        }
        int band = 4;
        if (row->occupancy < 1.0) {
            band = (int)(row->occupancy * 4.0);
            band = band < 0 ? 0 : band > 3 ? 3 : band;
        }
        bands[band]++;
    }
    fprintf(out, "Kernels by binding limiter (a tie counts for each):\n");
    for (int l = 0; l < 5; l++) {
        fprintf(out, "  %-12s %zu\n", limiters[l].name, by_limiter[l]);
    }
    if (none_fit > 0) {
        fprintf(out, "  %-12s %zu\n", "none fits", none_fit);
    }
    fprintf(out, "Kernels by occupancy:\n");
    for (int b = 0; b < 5; b++) {
        fprintf(out, "  %-12s %zu\n", band_names[b], bands[b]);
    }
    if (no_occupancy > 0) {
        fprintf(out, "  %-12s %zu\n", "no figure", no_occupancy);
    }
    fprintf(out, "Lowest occupancy (%s):\n", opts->sort == INSPECT_SORT_OCCUPANCY
                                                  ? "the first 10"
                                                  : "the first 10 in --sort order");
    fprintf(out, "%-8s %4s %7s %6s %6s %3s %5s %5s %6s %4s  %-18s %s\n", "ARCH", "REGS", "SMEM",
            "STACK", "SPILL", "BAR", "BOUND", "BLOCK", "BLK/SM", "OCC", "LIMITER", "NAME");
    for (size_t i = 0, shown = 0; i < r->row_count && shown < 10; i++) {
        if (r->rows[i].has_occupancy) {
            print_row(out, &r->rows[i]);
            shown++;
        }
    }
    print_footer(out, r, opts);
}
