/*
 * residency.cu - the TLP-vs-ILP experiment of seed 000 (docs/sources.md):
 * out = a*x + y with 256-thread blocks and 1, 2, 4, 8, 16 items a thread, at
 * every residency from the kernel's own maximum down to one block an SM,
 * plus __launch_bounds__ rows. The residency knob is dynamic shared memory
 * the kernel never touches, sized with libocc (occ_dyn_smem_available) so
 * that exactly N blocks fit, and confirmed with the driver; every row's
 * output is checked.
 */
#include "occ_lab.h"
#include "saxpy_kernel.cuh"

#define RESIDENCY_THREADS 256 /* every row: one thing changes at a time */

typedef struct residency_launch {
    scale_add_fn kernel;
    lab_saxpy *s;
    int grid;
    int dyn_smem_bytes;
} residency_launch;

static void launch_row(void *context)
{
    residency_launch *l = (residency_launch *)context;
    lab_saxpy *s = l->s;
    l->kernel<<<l->grid, RESIDENCY_THREADS, (size_t)l->dyn_smem_bytes>>>(s->a, s->x, s->y, s->out,
                                                                        s->n);
    LAB_CHECK_LAUNCH();
}

typedef struct residency_variant {
    scale_add_fn kernel;
    int items;
    int min_blocks; /* __launch_bounds__(256, min_blocks); 0: none */
} residency_variant;

static const residency_variant variants[] = {
    {scale_add<1>, 1, 0},  {scale_add<2>, 2, 0},  {scale_add<4>, 4, 0},
    {scale_add<8>, 8, 0},  {scale_add<16>, 16, 0}, {scale_add_bounded<4, 8>, 4, 8},
    {scale_add_bounded<8, 8>, 8, 8}, {scale_add_bounded<16, 8>, 16, 8},
    {scale_add_bounded<16, 4>, 16, 4},
};
#define VARIANT_COUNT ((int)(sizeof variants / sizeof variants[0]))

/* "tlp1", "ilp8", "ilp8-b2", "ilp16-lb8": seed 000's labels. */
static void row_label(const residency_variant *v, int blocks, bool reserved, char *out,
                      size_t cap)
{
    int n = snprintf(out, cap, "%s%d", v->items == 1 ? "tlp" : "ilp", v->items);
    if (v->min_blocks > 0) {
        n += snprintf(out + n, cap - (size_t)n, "-lb%d", v->min_blocks);
    }
    if (reserved) {
        snprintf(out + n, cap - (size_t)n, "-b%d", blocks);
    }
}

static void run_row(const lab_gpu *gpu, const lab_options *opt, lab_saxpy *s,
                    const residency_variant *v, const cudaFuncAttributes *attr, int blocks,
                    int dyn_smem_bytes, bool reserved)
{
    char label[32];
    row_label(v, blocks, reserved, label, sizeof label);

    /* The residency must be what was asked, by libocc and by the driver. */
    occ_kernel k;
    lab_kernel_from_attributes(attr, RESIDENCY_THREADS, dyn_smem_bytes, &k);
    occ_result r;
    lab_occ_calc(gpu, &k, label, &r);
    int driver = -1;
    LAB_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &driver, (const void *)v->kernel, RESIDENCY_THREADS, (size_t)dyn_smem_bytes));
    if (driver != r.blocks_per_sm || r.blocks_per_sm != blocks) {
        LAB_FAIL("row %s: %d bytes of dynamic shared memory should leave %d blocks an SM; "
                 "libocc says %d, the driver %d",
                 label, dyn_smem_bytes, blocks, r.blocks_per_sm, driver);
    }

    residency_launch l;
    l.kernel = v->kernel;
    l.s = s;
    l.dyn_smem_bytes = dyn_smem_bytes;
    size_t per_block = (size_t)RESIDENCY_THREADS * (size_t)v->items;
    l.grid = (int)((s->n + per_block - 1) / per_block);

    lab_saxpy_poison(s);
    lab_times t = lab_time_launches(launch_row, &l, LAB_WARMUPS, opt->quick ? 5 : LAB_RUNS);
    lab_saxpy_check(s, label);

    lab_record rec;
    lab_record_begin(&rec, "residency");
    lab_record_str(&rec, "label", label);
    lab_record_int(&rec, "items", v->items);
    lab_record_int(&rec, "launch_bound_min_blocks", v->min_blocks);
    lab_record_int(&rec, "threads", RESIDENCY_THREADS);
    lab_record_int(&rec, "grid", l.grid);
    lab_record_int(&rec, "dyn_smem_bytes", dyn_smem_bytes);
    lab_record_int(&rec, "regs", attr->numRegs);
    lab_record_int(&rec, "local_bytes", (long long)attr->localSizeBytes);
    lab_record_int(&rec, "blocks_per_sm", driver);
    lab_record_int(&rec, "warps_per_sm", r.warps_per_sm);
    lab_record_int(&rec, "max_warps_per_sm", r.max_warps_per_sm);
    lab_record_int(&rec, "loads_per_thread", 2 * v->items);
    lab_record_int(&rec, "bytes_per_load", (long long)sizeof(float));
    lab_record_num(&rec, "bytes", lab_saxpy_bytes(s));
    lab_record_num(&rec, "median_ms", t.median_ms);
    lab_record_num(&rec, "min_ms", t.min_ms);
    lab_record_int(&rec, "runs", t.runs);
    lab_record_bool(&rec, "checked", 1);
    lab_record_end(&rec);
}

void lab_residency(const lab_gpu *gpu, const lab_options *opt)
{
    lab_saxpy s;
    lab_saxpy_open(gpu, opt, &s);
    int optin = (int)gpu->prop.sharedMemPerBlockOptin;
    for (int vi = 0; vi < VARIANT_COUNT; vi++) {
        const residency_variant *v = &variants[vi];
        cudaFuncAttributes attr;
        LAB_CHECK(cudaFuncGetAttributes(&attr, (const void *)v->kernel));
        /* Opt in to the most dynamic shared memory a block may have, as
           occ_kernel_init assumes (OCC_DYN_SMEM_OPTIN_MAX). */
        LAB_CHECK(cudaFuncSetAttribute((const void *)v->kernel,
                                       cudaFuncAttributeMaxDynamicSharedMemorySize,
                                       optin - (int)attr.sharedSizeBytes));
        occ_kernel k;
        lab_kernel_from_attributes(&attr, RESIDENCY_THREADS, 0, &k);
        occ_result natural;
        lab_occ_calc(gpu, &k, "residency", &natural);
        int max_blocks = natural.blocks_per_sm;
        /* The launch-bounds rows show what the bound buys at its own
           residency; the plain rows sweep every residency. */
        int lowest = v->min_blocks > 0 ? max_blocks : 1;
        for (int blocks = max_blocks; blocks >= lowest; blocks--) {
            if (opt->quick && blocks != max_blocks && blocks != 1 && blocks != max_blocks / 2) {
                continue;
            }
            int dyn = 0;
            if (blocks < max_blocks) {
                occ_dyn_smem_result avail;
                occ_error err;
                if (occ_dyn_smem_available(&gpu->device, &k, blocks, RESIDENCY_THREADS, &avail,
                                           &err) != OCC_OK) {
                    LAB_FAIL("occ_dyn_smem_available(%d blocks): %s", blocks, err.message);
                }
                dyn = avail.fitting_bytes;
            }
            lab_progress("residency items %d, %d blocks/SM", v->items, blocks);
            run_row(gpu, opt, &s, v, &attr, blocks, dyn, blocks < max_blocks);
        }
    }
    lab_saxpy_close(&s);
}
