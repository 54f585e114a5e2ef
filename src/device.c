/*
 * device.c - checks a device description and the small facts derived from
 * it (names, warp counts, carveout steps).
 */
#include "occ_internal.h"

/* Upper bounds that keep every product in occ_calc inside an int. They are
   far above any GPU: 16x today's largest per-SM figures. */
#define MAX_THREADS 65536
#define MAX_REGS (1 << 24)
#define MAX_SMEM_BYTES (1 << 28)
#define MAX_BLOCKS 4096

void occ_arch_name(int cc_major, int cc_minor, char *out, size_t bytes)
{
    occ_msg m;
    occ__msg_begin(&m, out, bytes);
    occ__msg_str(&m, "sm_");
    occ__msg_int(&m, cc_major);
    occ__msg_int(&m, cc_minor);
}

int occ_device_max_warps_per_sm(const occ_device *device)
{
    return device->max_threads_per_sm / device->warp_size_threads;
}

void occ__device_label(const occ_device *device, char *out, size_t cap)
{
    char arch[16];
    occ_arch_name(device->cc_major, device->cc_minor, arch, sizeof arch);
    occ_msg m;
    occ__msg_begin(&m, out, cap);
    occ__msg_str(&m, device->name);
    /* A generic entry is named after its arch already. */
    if (device->sm_count > 0 || device->name[0] != 's') {
        occ__msg_str(&m, " (");
        occ__msg_str(&m, arch);
        occ__msg_str(&m, ")");
    }
}

/* Fails with "FIELD VALUE: must be WHAT" when value is outside [lo, hi]. */
static bool check_range(occ_error *err, const char *field, long long value, long long lo,
                        long long hi, const char *what)
{
    if (value >= lo && value <= hi) {
        return true;
    }
    if (err != NULL) {
        occ_msg m;
        err->field = field;
        err->status = OCC_ERR_INVALID_DEVICE;
        occ__msg_begin(&m, err->message, sizeof err->message);
        occ__msg_str(&m, field);
        occ__msg_str(&m, " ");
        occ__msg_int(&m, value);
        occ__msg_str(&m, ": must be ");
        occ__msg_str(&m, what);
    }
    return false;
}

occ_status occ_device_validate(const occ_device *d, occ_error *err)
{
    if (d == NULL) {
        return occ__fail(err, OCC_ERR_NULL_POINTER, "device", "device is NULL");
    }
#define CHECK(field, lo, hi, what)                                                                 \
    do {                                                                                           \
        if (!check_range(err, #field, d->field, (lo), (hi), (what))) {                             \
            return OCC_ERR_INVALID_DEVICE;                                                         \
        }                                                                                          \
    } while (0)

    bool named = false;
    for (size_t i = 0; i < sizeof d->name; i++) {
        if (d->name[i] == '\0') {
            named = i > 0;
            break;
        }
    }
    if (!named) {
        return occ__fail(err, OCC_ERR_INVALID_DEVICE, "name",
                         "name: must be a non-empty string of at most 63 bytes");
    }
    CHECK(cc_major, 1, 99, "a compute capability major version, 1 to 99");
    CHECK(cc_minor, 0, 9, "a compute capability minor version, 0 to 9");
    CHECK(warp_size_threads, 32, 32, "32 on every CUDA GPU");
    CHECK(max_threads_per_sm, 32, MAX_THREADS, "32 to 65536");
    if (d->max_threads_per_sm % d->warp_size_threads != 0) {
        return occ__fail(err, OCC_ERR_INVALID_DEVICE, "max_threads_per_sm",
                         "max_threads_per_sm: must be a whole number of warps");
    }
    CHECK(max_threads_per_block, 1, d->max_threads_per_sm, "1 to max_threads_per_sm");
    CHECK(max_blocks_per_sm, 1, MAX_BLOCKS, "1 to 4096");
    CHECK(regs_per_sm, 1, MAX_REGS, "1 to 16777216");
    CHECK(regs_per_block, 1, d->regs_per_sm, "1 to regs_per_sm");
    CHECK(max_regs_per_thread, 1, 255, "1 to 255");
    CHECK(reg_alloc_unit, 1, 65536, "1 to 65536");
    CHECK(sub_partitions_per_sm, 1, 64, "1 to 64");
    CHECK(reg_fit_sub_partitions, 0, 64, "0 (none) to 64");
    CHECK(smem_per_sm_bytes, 1, MAX_SMEM_BYTES, "1 to 268435456");
    CHECK(smem_per_block_bytes, 1, d->smem_per_sm_bytes, "1 to smem_per_sm_bytes");
    CHECK(smem_per_block_optin_bytes, d->smem_per_block_bytes, d->smem_per_sm_bytes,
          "smem_per_block_bytes to smem_per_sm_bytes");
    CHECK(smem_reserved_per_block_bytes, 0, d->smem_per_sm_bytes - d->smem_per_block_optin_bytes,
          "0 to smem_per_sm_bytes - smem_per_block_optin_bytes");
    CHECK(smem_alloc_unit_bytes, 1, 65536, "1 to 65536");
    CHECK(carveout_step_count, 0, OCC_MAX_CARVEOUT_STEPS, "0 (fixed) to 12");
    for (int i = 0; i < d->carveout_step_count; i++) {
        long long prev = i == 0 ? 0 : d->carveout_steps_bytes[i - 1] + 1LL;
        if (!check_range(err, "carveout_steps_bytes", d->carveout_steps_bytes[i], prev,
                         d->smem_per_sm_bytes, "ascending and at most smem_per_sm_bytes")) {
            return OCC_ERR_INVALID_DEVICE;
        }
    }
    if (d->carveout_step_count > 0 &&
        d->carveout_steps_bytes[d->carveout_step_count - 1] != d->smem_per_sm_bytes) {
        return occ__fail(err, OCC_ERR_INVALID_DEVICE, "carveout_steps_bytes",
                         "carveout_steps_bytes: the last step must equal smem_per_sm_bytes");
    }
    CHECK(barriers_per_block_slot, 0, 64, "0 (barriers never limit) to 64");
    CHECK(sm_count, 0, 100000, "0 (unknown) to 100000");
    CHECK(sm_clock_mhz, 0, 100000, "0 (unknown) to 100000");
    CHECK(mem_bandwidth_gb_per_s, 0, 1000000, "0 (unknown) to 1000000");
    CHECK(l2_bytes, 0, 2147483647, "0 (unknown) or a byte count");
    CHECK(mem_latency_ns, 0, 1000000, "0 (unknown) to 1000000");
    CHECK(gpc_count, 0, OCC_MAX_GPCS, "0 (unknown) to 32");
    if (d->gpc_count > 0) {
        long long gpc_total = 0;
        for (int g = 0; g < d->gpc_count; g++) {
            if (!check_range(err, "gpc_sms", d->gpc_sms[g], 1, 100000, "1 to 100000 SMs per GPC")) {
                return OCC_ERR_INVALID_DEVICE;
            }
            gpc_total += d->gpc_sms[g];
        }
        /* The layout covers every SM, so cluster counts are exact. */
        if (d->sm_count > 0 && gpc_total != d->sm_count) {
            return occ__fail(err, OCC_ERR_INVALID_DEVICE, "gpc_sms",
                             "gpc_sms: the SMs of all GPCs must add up to sm_count");
        }
    }
#undef CHECK
    return OCC_OK;
}
