/*
 * fuzz_gpu_file.c - fuzzes `--gpu-file` and occ.gpu_from_file: libocc-inspect's
 * occ_inspect_gpu_from_json() (inspect/gpu/gpu_file.c) on arbitrary bytes, then
 * occ_calc() on every device it accepts. occ_device_validate() promises that an accepted
 * device keeps occ_calc's arithmetic inside an int, so any sanitizer report or broken
 * invariant past the loader is a bug in the validator or the core.
 */
#include <stdio.h>
#include <stdlib.h>

#include "fuzz.h"
#include "occ_inspect.h"

static void check(bool ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "fuzz_gpu_file: invariant broken: %s\n", what);
        abort();
    }
}

/* Launches at the edges of what the device allows: smallest, largest, and a typical one. */
static void calc_on(const occ_device *d)
{
    occ_kernel kernels[4];
    for (int i = 0; i < 4; i++) {
        occ_kernel_init(&kernels[i]);
    }
    kernels[1].block_x = d->max_threads_per_block;
    kernels[1].regs_per_thread = d->max_regs_per_thread;
    kernels[1].dyn_smem_bytes = d->smem_per_block_optin_bytes;
    kernels[2].block_x = d->max_threads_per_block < 256 ? d->max_threads_per_block : 256;
    kernels[2].regs_per_thread = 64 < d->max_regs_per_thread ? 64 : d->max_regs_per_thread;
    kernels[2].static_smem_bytes = d->smem_per_block_bytes / 3;
    kernels[2].carveout_percent = 50;
    kernels[3].block_x = d->warp_size_threads;
    kernels[3].barriers = 16;
    kernels[3].partitioned_gc = OCC_PGC_ON;
    for (int i = 0; i < 4; i++) {
        occ_result r;
        if (occ_calc(d, &kernels[i], &r, NULL) != OCC_OK) {
            continue; /* a refusal is fine; only an accepted launch has invariants */
        }
        check(r.blocks_per_sm >= 0 && r.blocks_per_sm <= d->max_blocks_per_sm, "blocks_per_sm");
        check(r.warps_per_sm <= r.max_warps_per_sm, "warps_per_sm <= max_warps_per_sm");
        check(r.occupancy >= 0.0 && r.occupancy <= 1.0, "occupancy in 0..1");
        check(r.blocks_per_sm == 0 || r.zero_reason == OCC_ZERO_NONE,
              "zero_reason only when no block fits");
        check(r.warps_per_sm == r.blocks_per_sm * r.warps_per_block, "warps_per_sm");
    }
    occ_kernel k;
    occ_kernel_init(&k);
    k.regs_per_thread = 32 < d->max_regs_per_thread ? 32 : d->max_regs_per_thread;
    occ_block_size_result best;
    if (occ_max_potential_block_size(d, &k, 0, NULL, NULL, &best, NULL) == OCC_OK) {
        check(best.block_size >= 0 && best.block_size <= d->max_threads_per_block,
              "block_size within the device's maximum");
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    occ_device d;
    occ_inspect_error err;
    err.message[0] = '\0';
    occ_status status = occ_inspect_gpu_from_json((const char *)data, size, "fuzz.json", &d, &err);
    if (status == OCC_OK) {
        check(occ_device_validate(&d, NULL) == OCC_OK, "an accepted device passes the checks");
        calc_on(&d);
    } else {
        check(err.message[0] != '\0', "a refused file has a message");
        check(err.status == status, "the error holds the status returned");
        check(status == OCC_ERR_BAD_FORMAT || status == OCC_ERR_INVALID_DEVICE ||
                  status == OCC_ERR_LIMIT,
              "a refused file is a format, device or size error");
    }
    return 0;
}
