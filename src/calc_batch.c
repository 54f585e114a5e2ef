/*
 * calc_batch.c - occ_calc over an array of kernels in one call. occ_calc
 * takes about 25 ns; a call from Python through ctypes costs about 40 times
 * that, so a binding that answers a million configurations needs the loop
 * here, on the C side of the boundary. Each kernel may name its own device,
 * so that a batch over many GPUs needs no sorting by GPU on the caller's
 * side.
 */
#include "occ_internal.h"

/* "kernel 12: " before the reason, in err. */
static void fail_row(occ_error *err, size_t row, occ_status status, const char *field,
                     const char *reason, long long value, long long last)
{
    if (err == NULL) {
        return;
    }
    occ_msg m;
    occ__msg_begin(&m, err->message, sizeof err->message);
    occ__msg_str(&m, "kernel ");
    occ__msg_int(&m, (long long)row);
    occ__msg_str(&m, ": ");
    occ__msg_str(&m, reason);
    if (last >= 0) {
        /* an index out of range: the index and the range */
        occ__msg_int(&m, value);
        occ__msg_str(&m, " is outside 0 to ");
        occ__msg_int(&m, last);
    }
    err->field = field;
    err->status = status;
}

occ_status occ_calc_batch(const occ_device *devices, int device_count, const int *device_index,
                          const occ_kernel *kernels, size_t count, occ_result *results,
                          occ_status *statuses, occ_error *err)
{
    if (devices == NULL || (count > 0 && (kernels == NULL || results == NULL))) {
        return occ__fail(err, OCC_ERR_NULL_POINTER, "kernels",
                         "devices, kernels or results is NULL");
    }
    if (device_count < 1) {
        return occ__fail(err, OCC_ERR_INVALID_ARGUMENT, "device_count",
                         "device_count: at least one device is needed");
    }
    occ_status first = OCC_OK;
    for (size_t i = 0; i < count; i++) {
        int d = device_index != NULL ? device_index[i] : 0;
        occ_status status;
        occ_error row_err;
        if (d < 0 || d >= device_count) {
            status = OCC_ERR_INVALID_ARGUMENT;
            if (first == OCC_OK) {
                fail_row(err, i, status, "device_index", "device_index ", d, device_count - 1);
            }
        } else {
            /* Only the first failure's message is kept: building one per
               bad row would cost more than the row's calculation. */
            status =
                occ_calc(&devices[d], &kernels[i], &results[i], first == OCC_OK ? &row_err : NULL);
            if (status != OCC_OK && first == OCC_OK) {
                fail_row(err, i, status, row_err.field, row_err.message, 0, -1);
            }
        }
        if (status != OCC_OK) {
            results[i] = (occ_result){0};
            if (first == OCC_OK) {
                first = status;
            }
        }
        if (statuses != NULL) {
            statuses[i] = status;
        }
    }
    return first;
}
