/*
 * inspect_table.c - `occ inspect`'s readable outputs: the kernel table and
 * --summary (counts by limiter and by occupancy band, the worst kernels).
 * Names come from the files read, so they are printed with their control
 * characters made visible (cli_put_visible): a kernel named with ESC or BEL
 * in a log cannot reach the terminal raw.
 */
#include <string.h>

#include "calc_output.h"
#include "inspect_output.h"
#include "inspect_risk_print.h"
#include "output.h"

/* The table's LIMITER: a launch that fails says so first. */
static const char *row_limiter_text(const occ_inspect_kernel *k, char *buf, size_t cap)
{
    if (k->has_occupancy && (k->launch_flags & OCC_INSPECT_LAUNCH_OVER_BOUNDS)) {
        snprintf(buf, cap, "FAILS: > bound");
    } else if (k->has_occupancy && (k->launch_flags & OCC_INSPECT_LAUNCH_NOT_REQNTID)) {
        snprintf(buf, cap, "FAILS: != reqntid");
    } else if (k->has_occupancy && (k->launch_flags & OCC_INSPECT_LAUNCH_CLUSTER)) {
        snprintf(buf, cap, "FAILS: cluster > 16");
    } else {
        occ_inspect_limiter_text(k, buf, cap);
    }
    return buf;
}

/* Spills: bytes stored from a ptxas log, else spill instructions of a cubin. */
static const char *spill_text(const occ_inspect_kernel *k, char *buf, size_t cap)
{
    if (k->spill_store_bytes > 0 || k->spill_load_bytes > 0) {
        snprintf(buf, cap, "%dB", k->spill_store_bytes > 0 ? k->spill_store_bytes : 0);
    } else if (k->spill_instructions > 0) {
        snprintf(buf, cap, "%di", k->spill_instructions);
    } else {
        snprintf(buf, cap, "-");
    }
    return buf;
}

static const char *bound_text(const occ_inspect_kernel *k, char *buf, size_t cap)
{
    const int *d = k->req_threads[0] > 0 ? k->req_threads : k->max_threads;
    if (d[0] <= 0) {
        snprintf(buf, cap, "-");
    } else {
        long long p = (long long)d[0] * (d[1] > 0 ? d[1] : 1) * (d[2] > 0 ? d[2] : 1);
        snprintf(buf, cap, "%s%lld", k->req_threads[0] > 0 ? "=" : "", p);
    }
    return buf;
}

static void print_footer(FILE *out, const occ_inspect_result *r, const inspect_args *a)
{
    size_t count = occ_inspect_kernel_count(r);
    size_t kernels = 0;
    size_t from_log = 0;
    size_t over_bounds = 0, not_reqntid = 0, cluster = 0, launch_rows = 0;
    for (size_t i = 0; i < count; i++) {
        const occ_inspect_kernel *k = occ_inspect_kernel_at(r, i);
        kernels += k->is_kernel;
        from_log += k->is_kernel && k->from_log;
        over_bounds += (k->launch_flags & OCC_INSPECT_LAUNCH_OVER_BOUNDS) != 0;
        not_reqntid += (k->launch_flags & OCC_INSPECT_LAUNCH_NOT_REQNTID) != 0;
        cluster += (k->launch_flags & OCC_INSPECT_LAUNCH_CLUSTER) != 0;
        launch_rows += k->launch_index >= 0;
    }
    occ_inspect_totals totals;
    occ_inspect_totals_get(r, &totals);
    if (a->launch_set != NULL) {
        /* a kernel launched k ways has k rows */
        size_t distinct = kernels - launch_rows + a->launch_set->list->match.kernels_launched;
        fprintf(out, "\n%zu row%s for %zu kernel%s", kernels, kernels == 1 ? "" : "s", distinct,
                distinct == 1 ? "" : "s");
    } else {
        fprintf(out, "\n%zu kernel%s", kernels, kernels == 1 ? "" : "s");
    }
    if (a->read.functions) {
        fprintf(out, " and %zu device function%s", count - kernels,
                count - kernels == 1 ? "" : "s");
    }
    fprintf(out, " (%zu read, duplicates merged) from", totals.functions_read);
    for (int i = 0; i < totals.input_count; i++) {
        fprintf(out, "%s ", i > 0 ? "," : "");
        cli_put_visible(out, occ_inspect_input_name(r, i));
        fprintf(out, " (%s)", occ_inspect_format_name(occ_inspect_input_format(r, i)));
    }
    fputs(".\nOccupancy on ", out);
    if (a->read.device != NULL) {
        cli_put_visible(out, a->read.device->name);
    } else {
        fputs("each kernel's own arch (generic sm_XX entry)", out);
    }
    fprintf(
        out, ", %s, %d B dynamic shared memory.\n",
        a->launch_set != NULL
            ? (a->read.threads > 0 ? "at each recorded launch, else at --threads"
                                   : "at each recorded launch, else at the block size the "
                                     "occupancy API picks")
            : (a->read.threads > 0 ? "at --threads" : "at the block size the occupancy API picks"),
        a->read.dyn_smem_bytes);
    if (over_bounds > 0) {
        fprintf(out,
                "%zu kernel%s cannot launch at %d threads: above %s __launch_bounds__ "
                "(cudaErrorInvalidValue; flag launch_bounds). The figures are the occupancy "
                "API's.\n",
                over_bounds, over_bounds == 1 ? "" : "s", a->read.threads,
                over_bounds == 1 ? "its" : "their");
    }
    if (not_reqntid > 0) {
        fprintf(out,
                "%zu kernel%s cannot launch at %d threads: %s .reqntid asks for another block "
                "size (cudaErrorInvalidValue; flag reqntid).\n",
                not_reqntid, not_reqntid == 1 ? "" : "s", a->read.threads,
                not_reqntid == 1 ? "its" : "their");
    }
    if (cluster > 0) {
        fprintf(out,
                "%zu kernel%s compiled with cluster dims this GPU cannot launch (above 16 "
                "blocks, or refused; flag cluster_dims).\n",
                cluster, cluster == 1 ? " is" : "s are");
    }
    if (from_log > 0) {
        fprintf(out,
                "Note: %zu kernel%s read from a ptxas log, which does not carry "
                "__launch_bounds__, .reqntid or cluster dims: BOUND is unknown there and the "
                "figures may differ from the binary's (read the cubin or fatbin for those).\n",
                from_log, from_log == 1 ? " was" : "s were");
    }
    if (a->launch_set != NULL) {
        inspect_launches_print(out, a->launch_set->list);
    }
    for (int i = 0; i < totals.no_data_count; i++) {
        char kind[16];
        char arch[16];
        occ_inspect_no_data n = occ_inspect_no_data_at(r, i);
        fprintf(out, "%d %s entr%s for %s: no resource data (compiled when loaded).\n", n.count,
                occ_inspect_entry_kind_name(n.kind, kind, sizeof kind), n.count == 1 ? "y" : "ies",
                occ_inspect_arch_name(n.sm, n.arch_suffix, arch, sizeof arch));
    }
    if (totals.entries_skipped > 0) {
        fprintf(out, "%d entr%s of other archs skipped (--arch).\n", totals.entries_skipped,
                totals.entries_skipped == 1 ? "y" : "ies");
    }
}

static void print_header(FILE *out)
{
    fprintf(out, "%-8s %4s %7s %6s %6s %3s %5s %5s %7s %6s %4s  %-18s %s\n", "ARCH", "REGS", "SMEM",
            "STACK", "SPILL", "BAR", "BOUND", "BLOCK", "CLUSTER", "BLK/SM", "OCC", "LIMITER",
            "NAME");
}

static void print_row(FILE *out, const occ_inspect_kernel *k)
{
    char arch[16];
    char spill[24];
    char bound[24];
    char limiter[64];
    char occ[16];
    char block[16];
    char blocks[16];
    if (k->has_occupancy) {
        snprintf(occ, sizeof occ, "%.0f%%", k->occupancy * 100.0);
        snprintf(block, sizeof block, "%d", k->threads);
        snprintf(blocks, sizeof blocks, "%d", k->blocks_per_sm);
    } else {
        snprintf(occ, sizeof occ, "-");
        snprintf(block, sizeof block, "-");
        snprintf(blocks, sizeof blocks, "-");
    }
    /* the compiled cluster shape: "2", "4x2", "2x2x2"; "-" without */
    char cluster[40] = "-";
    if (k->cluster_dims[0] > 0) {
        int y = k->cluster_dims[1] > 0 ? k->cluster_dims[1] : 1;
        int z = k->cluster_dims[2] > 0 ? k->cluster_dims[2] : 1;
        if (z > 1) {
            snprintf(cluster, sizeof cluster, "%dx%dx%d", k->cluster_dims[0], y, z);
        } else if (y > 1) {
            snprintf(cluster, sizeof cluster, "%dx%d", k->cluster_dims[0], y);
        } else {
            snprintf(cluster, sizeof cluster, "%d", k->cluster_dims[0]);
        }
    }
    fprintf(out, "%-8s %4d %7d %6d %6s %3d %5s %5s %7s %6s %4s  %-18s ",
            occ_inspect_arch_name(k->sm, k->arch_suffix, arch, sizeof arch), k->regs, k->smem_bytes,
            k->stack_bytes, spill_text(k, spill, sizeof spill),
            k->barriers == OCC_INSPECT_UNKNOWN ? 0 : k->barriers,
            bound_text(k, bound, sizeof bound), block, cluster, blocks, occ,
            row_limiter_text(k, limiter, sizeof limiter));
    cli_put_visible(out, k->name);
    if (k->relocatable) {
        fputs("  [unlinked -rdc code]", out);
    }
    if (k->count > 1) {
        fprintf(out, "  [x%d]", k->count);
    }
    if (k->launch_index >= 0) {
        char launch[160];
        fprintf(out, "  %s", occ_inspect_launch_text(k, launch, sizeof launch));
    }
    fputc('\n', out);
}

void inspect_print_table(FILE *out, const occ_inspect_result *r, const inspect_args *a)
{
    print_header(out);
    for (size_t i = 0; i < occ_inspect_kernel_count(r); i++) {
        print_row(out, occ_inspect_kernel_at(r, i));
    }
    print_footer(out, r, a);
}

void inspect_print_summary(FILE *out, const occ_inspect_result *r, const inspect_args *a)
{
    static const struct {
        occ_limiter bit;
        const char *name;
    } limiters[] = {{OCC_LIMITER_REGISTERS, "registers"},
                    {OCC_LIMITER_SHARED_MEM, "shared_mem"},
                    {OCC_LIMITER_WARPS, "warps"},
                    {OCC_LIMITER_BLOCKS, "blocks"},
                    {OCC_LIMITER_BARRIERS, "barriers"}};
    size_t by_limiter[5] = {0};
    size_t none_fit = 0;
    size_t no_occupancy = 0;
    /* Bands: [0, 25%), [25%, 50%), [50%, 75%), [75%, 100%), 100% */
    static const char *const band_names[] = {"0-25%", "25-50%", "50-75%", "75-99%", "100%"};
    size_t bands[5] = {0};
    size_t count = occ_inspect_kernel_count(r);
    for (size_t i = 0; i < count; i++) {
        const occ_inspect_kernel *k = occ_inspect_kernel_at(r, i);
        if (!k->has_occupancy) {
            no_occupancy++;
            continue;
        }
        if (k->blocks_per_sm == 0) {
            none_fit++;
        }
        for (int l = 0; l < 5; l++) {
            by_limiter[l] += (k->limiters & (unsigned)limiters[l].bit) != 0;
        }
        int band = 4;
        if (k->occupancy < 1.0) {
            band = (int)(k->occupancy * 4.0);
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
    fprintf(out, "Lowest occupancy (%s):\n",
            a->sort == OCC_INSPECT_BY_OCCUPANCY ? "the first 10" : "the first 10 in --sort order");
    print_header(out);
    for (size_t i = 0, shown = 0; i < count && shown < 10; i++) {
        const occ_inspect_kernel *k = occ_inspect_kernel_at(r, i);
        if (k->has_occupancy) {
            print_row(out, k);
            shown++;
        }
    }
    inspect_print_risk(out, r, &a->read);
    print_footer(out, r, a);
}
