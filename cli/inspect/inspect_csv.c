/*
 * inspect_csv.c - `occ inspect --csv`: one row per distinct function. The
 * header starts arch,name,regs,smem,stack (docs/inspect.md); smem is static
 * shared memory as the driver counts it, stack the local bytes per thread.
 */
#include "csv.h"
#include "inspect_output.h"

static void put_int(FILE *out, int value)
{
    if (value == OCC_INSPECT_UNKNOWN) {
        fputs(",", out);
    } else {
        fprintf(out, ",%d", value);
    }
}

static void put_dims(FILE *out, const int d[3])
{
    if (d[0] <= 0) {
        fputs(",", out);
    } else {
        fprintf(out, ",%dx%dx%d", d[0], d[1] > 0 ? d[1] : 1, d[2] > 0 ? d[2] : 1);
    }
}

void inspect_print_csv(FILE *out, const occ_inspect_result *r, const inspect_args *args)
{
    (void)args;
    fputs("arch,name,regs,smem,stack,frame,spill_store_bytes,spill_load_bytes,"
          "spill_instructions,barriers,max_threads,req_threads,max_regs,cluster_dims,"
          "param_bytes,kind,count,gpu,threads,blocks_per_sm,warps_per_sm,occupancy,cluster,"
          "max_active_clusters,limiter,mangled\n",
          out);
    for (size_t i = 0; i < occ_inspect_kernel_count(r); i++) {
        const occ_inspect_kernel *f = occ_inspect_kernel_at(r, i);
        char arch[16];
        char limiter[64];
        fputs(occ_inspect_arch_name(f->sm, f->arch_suffix, arch, sizeof arch), out);
        fputc(',', out);
        csv_put_field_rfc4180(out, f->name);
        put_int(out, f->regs);
        put_int(out, f->smem_bytes);
        put_int(out, f->stack_bytes);
        put_int(out, f->frame_bytes);
        put_int(out, f->spill_store_bytes);
        put_int(out, f->spill_load_bytes);
        put_int(out, f->spill_instructions);
        put_int(out, f->barriers);
        put_dims(out, f->max_threads);
        put_dims(out, f->req_threads);
        put_int(out, f->max_regs > 0 ? f->max_regs : OCC_INSPECT_UNKNOWN);
        put_dims(out, f->cluster_dims);
        put_int(out, f->param_bytes);
        fprintf(out, ",%s,%d,", f->is_kernel ? "kernel" : "function", f->count);
        if (f->has_occupancy) {
            csv_put_field_rfc4180(out, f->gpu);
            fprintf(out, ",%d,%d,%d,%.4f,", f->threads, f->blocks_per_sm, f->warps_per_sm,
                    f->occupancy);
        } else {
            fputs(",,,,,", out);
        }
        /* cluster: blocks per cluster of a compiled cluster (empty without) */
        if (f->has_occupancy && f->cluster_size > 0) {
            fprintf(out, "%d,", f->cluster_size);
            if (f->max_active_clusters >= 0) {
                fprintf(out, "%d", f->max_active_clusters);
            }
            fputc(',', out);
        } else {
            fputs(",,", out);
        }
        csv_put_field_rfc4180(out, occ_inspect_limiter_text(f, limiter, sizeof limiter));
        fputc(',', out);
        csv_put_field_rfc4180(out, f->mangled);
        fputc('\n', out);
    }
}
