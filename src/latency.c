/*
 * latency.c - Little's law for memory loads: the bandwidth a kernel's loads
 * in flight can sustain, and what it would take to saturate memory.
 *
 * The model and its assumptions are written up in docs/latency-model.md;
 * the formulas are in include/occ.h beside occ_memory_model.
 */
#include "occ_internal.h"

/* Threads per warp: 32 on every CUDA GPU (CUDA Programming Guide, "SIMT
   Architecture"); the device description enforces the same value. */
#define WARP_THREADS 32.0

/* Above this fraction of the reachable bandwidth a measured point says
   nothing about latency: the memory system, not the loads, set it. */
#define FIT_SATURATED_FRACTION 0.98

/* A plain number: not NaN, not infinite, not absurd. */
static bool is_plain(double x)
{
    return x == x && x < 1e300 && x > -1e300;
}

/* Square root by Newton's method, so the core needs no libm (it builds
   freestanding for WebAssembly). Converges quadratically from above. */
static double occ__sqrt(double x)
{
    if (x <= 0.0) {
        return 0.0;
    }
    double r = x >= 1.0 ? x : 1.0;
    for (int i = 0; i < 200; i++) {
        double next = 0.5 * (r + x / r);
        if (next >= r) {
            break;
        }
        r = next;
    }
    return r;
}

occ_status occ_memory_model_from_device(const occ_device *device, occ_memory_model *out,
                                        occ_error *err)
{
    if (device == NULL || out == NULL) {
        return occ__fail(err, OCC_ERR_NULL_POINTER, "device", "device and out must not be NULL");
    }
    if (device->mem_latency_ns <= 0) {
        /* Every named GPU has one; a generic entry (sm_90) or a description
           without one does not: latency belongs to a product's memory. */
        return occ__fail(err, OCC_ERR_INVALID_DEVICE, "latency_ns",
                         "the device has no memory latency (generic sm_XX entries have none); "
                         "give one (e.g. --latency-ns 600, or measure it with occ lab latency)");
    }
    if (device->mem_bandwidth_gb_per_s <= 0) {
        return occ__fail(err, OCC_ERR_INVALID_DEVICE, "bandwidth",
                         "the GPU database has no memory bandwidth for this GPU; give one "
                         "(e.g. --bandwidth 3350)");
    }
    if (device->sm_count <= 0) {
        return occ__fail(err, OCC_ERR_INVALID_DEVICE, "sm_count",
                         "the GPU database has no SM count for this GPU; give one (--sms)");
    }
    out->latency_ns = device->mem_latency_ns;
    out->peak_gb_per_s = device->mem_bandwidth_gb_per_s;
    out->loaded_latency_factor = 0.0;
    out->max_bytes_in_flight_per_sm = 0.0;
    out->sm_count = device->sm_count;
    out->max_gb_per_s_per_warp = 0.0;
    return OCC_OK;
}

static occ_status check_model(const occ_memory_model *m, occ_error *err)
{
    if (!is_plain(m->latency_ns) || m->latency_ns <= 0.0) {
        return occ__fail(err, OCC_ERR_INVALID_ARGUMENT, "latency_ns",
                         "latency must be a positive number");
    }
    if (!is_plain(m->peak_gb_per_s) || m->peak_gb_per_s <= 0.0) {
        return occ__fail(err, OCC_ERR_INVALID_ARGUMENT, "bandwidth",
                         "bandwidth must be a positive number");
    }
    if (!is_plain(m->loaded_latency_factor) || m->loaded_latency_factor < 0.0) {
        return occ__fail(err, OCC_ERR_INVALID_ARGUMENT, "loaded_latency_factor",
                         "the loaded-latency factor must be 0 or more");
    }
    if (!is_plain(m->max_bytes_in_flight_per_sm) || m->max_bytes_in_flight_per_sm < 0.0) {
        return occ__fail(err, OCC_ERR_INVALID_ARGUMENT, "request_limit",
                         "the per-SM request limit must be 0 (none) or more bytes");
    }
    if (m->sm_count <= 0) {
        return occ__fail(err, OCC_ERR_INVALID_ARGUMENT, "sm_count",
                         "the SM count must be positive");
    }
    if (!is_plain(m->max_gb_per_s_per_warp) || m->max_gb_per_s_per_warp < 0.0) {
        return occ__fail(err, OCC_ERR_INVALID_ARGUMENT, "warp_rate",
                         "the per-warp rate must be 0 (none) or more GB/s");
    }
    return OCC_OK;
}

static occ_status check_input(const occ_memory_model *m, const occ_latency_input *in,
                              occ_error *err)
{
    if (!is_plain(in->warps_per_sm) || in->warps_per_sm < 0.0) {
        return occ__fail(err, OCC_ERR_INVALID_ARGUMENT, "warps",
                         "resident warps per SM must be 0 or more");
    }
    if (!is_plain(in->loads_in_flight_per_thread) || in->loads_in_flight_per_thread <= 0.0) {
        return occ__fail(err, OCC_ERR_INVALID_ARGUMENT, "ilp",
                         "loads in flight per thread must be positive");
    }
    if (!is_plain(in->bytes_per_load) || in->bytes_per_load <= 0.0) {
        return occ__fail(err, OCC_ERR_INVALID_ARGUMENT, "bytes_per_load",
                         "bytes per load must be positive");
    }
    if (in->active_sms < 0 || in->active_sms > m->sm_count) {
        occ_msg msg;
        char text[OCC_ERROR_MESSAGE_BYTES];
        occ__msg_begin(&msg, text, sizeof text);
        occ__msg_str(&msg, "active SMs ");
        occ__msg_int(&msg, in->active_sms);
        occ__msg_str(&msg, " must be between 0 (all) and the GPU's ");
        occ__msg_int(&msg, m->sm_count);
        return occ__fail(err, OCC_ERR_INVALID_ARGUMENT, "active_sms", text);
    }
    double ratio = in->bytes_moved_per_byte_loaded;
    if (!is_plain(ratio) || (ratio != 0.0 && ratio < 1.0)) {
        return occ__fail(err, OCC_ERR_INVALID_ARGUMENT, "bytes_moved_per_byte_loaded",
                         "bytes moved per byte loaded must be 1 or more (0 means 1)");
    }
    if (!is_plain(in->spill_bytes_per_byte_loaded) || in->spill_bytes_per_byte_loaded < 0.0) {
        return occ__fail(err, OCC_ERR_INVALID_ARGUMENT, "spill_ratio",
                         "spill bytes per byte loaded must be 0 or more");
    }
    return OCC_OK;
}

static bool m_has_warp_cap(const occ_memory_model *m)
{
    return m->max_gb_per_s_per_warp > 0.0;
}

/* Both checks, for predict and fit: the model, then the kernel's input. */
static occ_status check_both(const occ_memory_model *m, const occ_latency_input *in, occ_error *err)
{
    occ_status st = check_model(m, err);
    return st != OCC_OK ? st : check_input(m, in, err);
}

/* The derived quantities both predict and fit need. */
typedef struct model_terms {
    double active_sms;
    double traffic_ratio;    /* the kernel's own traffic / load traffic */
    double peak_load;        /* reachable load bandwidth, GB/s, after spills */
    double warp_cap;         /* load bandwidth the warps' own rate allows; 0: none */
    double demand_per_sm;    /* bytes in flight per SM, before the limit */
    double in_flight_per_sm; /* after the request limit */
    bool limited;            /* the request limit cut the demand */
} model_terms;

static model_terms terms_of(const occ_memory_model *m, const occ_latency_input *in)
{
    model_terms t;
    t.active_sms = in->active_sms > 0 ? in->active_sms : m->sm_count;
    t.traffic_ratio = in->bytes_moved_per_byte_loaded > 0.0 ? in->bytes_moved_per_byte_loaded : 1.0;
    /* Spill traffic shares the bandwidth but is not the kernel's own. */
    t.peak_load = m->peak_gb_per_s / (t.traffic_ratio + in->spill_bytes_per_byte_loaded);
    t.warp_cap = m->max_gb_per_s_per_warp * in->warps_per_sm * t.active_sms;
    t.demand_per_sm =
        in->warps_per_sm * WARP_THREADS * in->loads_in_flight_per_thread * in->bytes_per_load;
    t.in_flight_per_sm = t.demand_per_sm;
    t.limited = false;
    if (m->max_bytes_in_flight_per_sm > 0.0 && t.demand_per_sm > m->max_bytes_in_flight_per_sm) {
        t.in_flight_per_sm = m->max_bytes_in_flight_per_sm;
        t.limited = true;
    }
    return t;
}

occ_status occ_latency_predict(const occ_memory_model *model, const occ_latency_input *input,
                               occ_latency_result *out, occ_error *err)
{
    if (model == NULL || input == NULL || out == NULL) {
        return occ__fail(err, OCC_ERR_NULL_POINTER, "model",
                         "model, input and out must not be NULL");
    }
    occ_status st = check_both(model, input, err);
    if (st != OCC_OK) {
        return st;
    }
    model_terms t = terms_of(model, input);
    double l0 = model->latency_ns;
    double alpha = model->loaded_latency_factor;
    double n_total = t.in_flight_per_sm * t.active_sms; /* bytes */

    /* N = X L0 (1 + alpha X / P): the root of a X^2 + L0 X - N = 0 with
       a = alpha L0 / P, in the form that stays exact as alpha -> 0. */
    double a = alpha * l0 / t.peak_load;
    double x = 2.0 * n_total / (l0 + occ__sqrt(l0 * l0 + 4.0 * a * n_total));
    bool saturated = x >= t.peak_load;
    if (saturated) {
        x = t.peak_load;
    }
    bool warp_bound = m_has_warp_cap(model) && t.warp_cap < x;
    if (warp_bound) {
        x = t.warp_cap;
        saturated = false;
    }

    double needed_total = t.peak_load * l0 * (1.0 + alpha);
    out->bytes_in_flight_per_sm = t.in_flight_per_sm;
    out->bytes_in_flight_needed_per_sm = needed_total / t.active_sms;
    out->loaded_latency_ns = l0 * (1.0 + alpha * x / t.peak_load);
    out->predicted_gb_per_s = x * t.traffic_ratio;
    out->fraction_of_peak = out->predicted_gb_per_s / model->peak_gb_per_s;
    double per_warp = WARP_THREADS * input->loads_in_flight_per_thread * input->bytes_per_load;
    out->warps_needed_per_sm = out->bytes_in_flight_needed_per_sm / per_warp;
    out->loads_per_thread_needed =
        input->warps_per_sm > 0.0 ? out->bytes_in_flight_needed_per_sm /
                                        (input->warps_per_sm * WARP_THREADS * input->bytes_per_load)
                                  : 0.0; /* no warps: no number of loads per thread helps */
    if (warp_bound) {
        out->bound = OCC_BOUND_WARP_RATE;
    } else if (saturated) {
        out->bound = OCC_BOUND_BANDWIDTH;
    } else if (t.limited) {
        out->bound = OCC_BOUND_REQUEST_LIMIT;
    } else {
        out->bound = OCC_BOUND_LATENCY;
    }
    return OCC_OK;
}

occ_status occ_memory_model_fit(occ_memory_model *model, const occ_latency_input *input,
                                double measured_gb_per_s, occ_error *err)
{
    if (model == NULL || input == NULL) {
        return occ__fail(err, OCC_ERR_NULL_POINTER, "model", "model and input must not be NULL");
    }
    occ_status st = check_both(model, input, err);
    if (st != OCC_OK) {
        return st;
    }
    if (!is_plain(measured_gb_per_s) || measured_gb_per_s <= 0.0) {
        return occ__fail(err, OCC_ERR_INVALID_ARGUMENT, "measured",
                         "the measured bandwidth must be positive");
    }
    if (input->warps_per_sm <= 0.0) {
        return occ__fail(err, OCC_ERR_INVALID_ARGUMENT, "warps",
                         "a point with no resident warps carries no information");
    }
    if (measured_gb_per_s >= FIT_SATURATED_FRACTION * model->peak_gb_per_s) {
        return occ__fail(err, OCC_ERR_INVALID_ARGUMENT, "measured",
                         "the point is saturated (at least 98% of the peak); fit from a "
                         "point with fewer loads in flight");
    }
    model_terms t = terms_of(model, input);
    double x = measured_gb_per_s / t.traffic_ratio;
    double n_total = t.in_flight_per_sm * t.active_sms;
    /* N = X L0 (1 + alpha X / P)  =>  alpha = (N / (X L0) - 1) P / X. */
    double alpha = (n_total / (x * model->latency_ns) - 1.0) * t.peak_load / x;
    model->loaded_latency_factor = alpha > 0.0 ? alpha : 0.0;
    return OCC_OK;
}

occ_status occ_memory_model_fit_warp_rate(occ_memory_model *model, const occ_latency_input *input,
                                          double measured_gb_per_s, occ_error *err)
{
    if (model == NULL || input == NULL) {
        return occ__fail(err, OCC_ERR_NULL_POINTER, "model", "model and input must not be NULL");
    }
    occ_status st = check_both(model, input, err);
    if (st != OCC_OK) {
        return st;
    }
    if (!is_plain(measured_gb_per_s) || measured_gb_per_s <= 0.0 || input->warps_per_sm <= 0.0) {
        return occ__fail(err, OCC_ERR_INVALID_ARGUMENT, "measured",
                         "the point needs resident warps and a positive measured bandwidth");
    }
    model_terms t = terms_of(model, input);
    model->max_gb_per_s_per_warp =
        measured_gb_per_s / t.traffic_ratio / (input->warps_per_sm * t.active_sms);
    return OCC_OK;
}

double occ_spill_slowdown(double work_cycles, double spill_loads, double spill_latency_cycles)
{
    if (!(work_cycles > 0.0)) {
        return 0.0;
    }
    return (work_cycles + spill_loads * spill_latency_cycles) / work_cycles;
}

const char *occ_latency_source_name(occ_latency_source source)
{
    switch (source) {
    case OCC_LATENCY_MEASURED: return "measured";
    case OCC_LATENCY_PUBLISHED: return "published";
    case OCC_LATENCY_ARCHITECTURE: return "architecture";
    case OCC_LATENCY_GIVEN: return "given";
    case OCC_LATENCY_UNKNOWN: break;
    }
    return "unknown";
}
