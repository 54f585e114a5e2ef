/*
 * waves.c - how a grid of blocks fills the GPU: the waves Nsight Compute
 * reports (launch__waves_per_multiprocessor = grid / (blocks per SM x SM
 * count), checked against ncu on an H200 in tests/test_waves.c) and the tail
 * a partly empty last wave leaves.
 */
#include "occ_internal.h"

occ_status occ_launch_waves(int blocks_per_sm, int sm_count, long long grid_blocks,
                            occ_waves_result *out, occ_error *err)
{
    if (out == NULL) {
        return occ__fail(err, OCC_ERR_NULL_POINTER, "out", "out is NULL");
    }
    if (blocks_per_sm <= 0) {
        return occ__fail(err, OCC_ERR_INVALID_ARGUMENT, "blocks_per_sm",
                         "no block is resident, so the grid never runs");
    }
    if (sm_count <= 0) {
        return occ__fail(err, OCC_ERR_INVALID_ARGUMENT, "sm_count",
                         "the SM count must be positive (generic GPU entries have none: "
                         "name a GPU or give --sms)");
    }
    if (grid_blocks <= 0) {
        return occ__fail(err, OCC_ERR_INVALID_ARGUMENT, "grid", "the grid must have blocks");
    }
    long long wave = (long long)blocks_per_sm * sm_count;
    out->persistent_grid_blocks = wave;
    out->waves_per_sm = (double)grid_blocks / (double)wave;
    out->full_waves = grid_blocks / wave;
    long long rest = grid_blocks % wave;
    out->last_wave_blocks = rest == 0 ? wave : rest;
    out->last_wave_fraction = (double)out->last_wave_blocks / (double)wave;
    long long waves_started = out->full_waves + (rest != 0);
    out->tail_idle_fraction = 1.0 - out->waves_per_sm / (double)waves_started;
    return OCC_OK;
}
