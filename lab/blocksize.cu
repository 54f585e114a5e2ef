/*
 * blocksize.cu - seed 000's block-size comparison (docs/sources.md): one
 * memory-bound kernel (out = a*x + y, one item a thread) at every block size
 * from 32 to 1024 in warp steps, beside the block size the occupancy API
 * suggests.
 */
#include "occ_lab.h"
#include "saxpy_kernel.cuh"

#define BLOCKSIZE_ITEMS 1

typedef struct blocksize_launch {
    lab_saxpy *s;
    int grid;
    int threads;
} blocksize_launch;

static void launch_size(void *context)
{
    blocksize_launch *l = (blocksize_launch *)context;
    lab_saxpy *s = l->s;
    scale_add<BLOCKSIZE_ITEMS><<<l->grid, l->threads>>>(s->a, s->x, s->y, s->out, s->n);
    LAB_CHECK_LAUNCH();
}

void lab_blocksize(const lab_gpu *gpu, const lab_options *opt)
{
    const void *kernel = (const void *)scale_add<BLOCKSIZE_ITEMS>;
    cudaFuncAttributes attr;
    LAB_CHECK(cudaFuncGetAttributes(&attr, kernel));

    /* The occupancy API's pick, and libocc's, which must be the same. */
    int min_grid = 0;
    int suggested = 0;
    LAB_CHECK(cudaOccupancyMaxPotentialBlockSize(&min_grid, &suggested,
                                                 scale_add<BLOCKSIZE_ITEMS>, 0, 0));
    occ_kernel k;
    lab_kernel_from_attributes(&attr, 1, 0, &k);
    occ_block_size_result pick;
    occ_error err;
    if (occ_max_potential_block_size(&gpu->device, &k, 0, NULL, NULL, &pick, &err) != OCC_OK) {
        LAB_FAIL("occ_max_potential_block_size: %s", err.message);
    }
    if (pick.block_size != suggested || pick.min_grid_size != min_grid) {
        LAB_FAIL("cudaOccupancyMaxPotentialBlockSize suggests %d threads (min grid %d), "
                 "libocc %d (min grid %d)",
                 suggested, min_grid, pick.block_size, pick.min_grid_size);
    }
    lab_record rec;
    lab_record_begin(&rec, "blocksize_suggestion");
    lab_record_int(&rec, "threads", suggested);
    lab_record_int(&rec, "min_grid", min_grid);
    lab_record_int(&rec, "regs", attr.numRegs);
    lab_record_end(&rec);

    lab_saxpy s;
    lab_saxpy_open(gpu, opt, &s);
    int step = opt->quick ? 128 : 32;
    for (int threads = 32; threads <= 1024; threads += step) {
        char label[32];
        snprintf(label, sizeof label, "block %d", threads);
        k.block_x = threads;
        occ_result r;
        lab_occ_calc(gpu, &k, label, &r);
        int driver = -1;
        LAB_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&driver, kernel, threads, 0));
        if (driver != r.blocks_per_sm) {
            LAB_FAIL("%s: the driver says %d blocks an SM, libocc %d", label, driver,
                     r.blocks_per_sm);
        }
        blocksize_launch l;
        l.s = &s;
        l.threads = threads;
        l.grid = (int)((s.n + (size_t)threads - 1) / (size_t)threads);
        lab_progress("blocksize %d", threads);
        lab_saxpy_poison(&s);
        lab_times t = lab_time_launches(launch_size, &l, LAB_WARMUPS, opt->quick ? 5 : LAB_RUNS);
        lab_saxpy_check(&s, label);

        lab_record_begin(&rec, "blocksize");
        lab_record_int(&rec, "threads", threads);
        lab_record_int(&rec, "grid", l.grid);
        lab_record_int(&rec, "regs", attr.numRegs);
        lab_record_int(&rec, "blocks_per_sm", driver);
        lab_record_int(&rec, "warps_per_sm", r.warps_per_sm);
        lab_record_int(&rec, "max_warps_per_sm", r.max_warps_per_sm);
        lab_record_bool(&rec, "suggested", threads == suggested);
        lab_record_num(&rec, "bytes", lab_saxpy_bytes(&s));
        lab_record_num(&rec, "median_ms", t.median_ms);
        lab_record_num(&rec, "min_ms", t.min_ms);
        lab_record_int(&rec, "runs", t.runs);
        lab_record_bool(&rec, "checked", 1);
        lab_record_end(&rec);
    }
    lab_saxpy_close(&s);
}
