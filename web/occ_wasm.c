/*
 * occ_wasm.c - libocc's public API in calls the page can make from
 * JavaScript (see occ_wasm.h). Only the page's build links this file: its
 * static buffers are the module's output registers, which libocc itself,
 * free of mutable globals, must never have.
 */
#include "occ_wasm.h"

/* Exported under its own name, so the page finds it in instance.exports. */
#define OCC_WASM_EXPORT(name) __attribute__((export_name(#name)))

/* One field list per buffer, packed as a table. */
/* clang-format off */
/* Device fields, in buffer order; carveout_steps_bytes comes last and
   spans OCC_MAX_CARVEOUT_STEPS entries (carveout_step_count of them used). */
#define GPU_INT_FIELDS(X)                                                                          \
    X(cc_major) X(cc_minor) X(warp_size_threads) X(max_threads_per_block) X(max_threads_per_sm)    \
    X(max_blocks_per_sm) X(regs_per_sm) X(regs_per_block) X(max_regs_per_thread)                  \
    X(reg_alloc_unit) X(sub_partitions_per_sm) X(smem_per_sm_bytes) X(smem_per_block_bytes)        \
    X(smem_per_block_optin_bytes) X(smem_reserved_per_block_bytes) X(smem_alloc_unit_bytes)        \
    X(barriers_per_block_slot) X(sm_count) X(sm_clock_mhz) X(mem_bandwidth_gb_per_s) X(l2_bytes)   \
    X(mem_latency_ns) X(carveout_step_count)

/* occ_result fields, in buffer order. */
#define RESULT_FIELDS(X)                                                                           \
    X(threads_per_block) X(warps_per_block) X(blocks_per_sm) X(warps_per_sm) X(threads_per_sm)     \
    X(max_warps_per_sm) X(occupancy) X(limit_warps) X(limit_blocks) X(limit_registers)             \
    X(limit_shared_mem) X(limit_barriers) X(limiters) X(zero_reason) X(regs_per_warp_allocated)    \
    X(regs_per_block_allocated) X(warps_per_sm_by_regs) X(smem_per_block_allocated_bytes)          \
    X(smem_per_block_limit_bytes) X(smem_per_sm_bytes) X(smem_preferred_bytes)                     \
    X(partitioned_gc_on) X(needs_optin) X(exceeds_launch_bounds)

/* occ_memory_model fields the page edits, in buffer order. */
#define MODEL_FIELDS(X) X(latency_ns) X(peak_gb_per_s) X(sm_count)

/* occ_latency_result fields, in buffer order. */
#define LATENCY_FIELDS(X)                                                                          \
    X(bytes_in_flight_per_sm) X(bytes_in_flight_needed_per_sm) X(loaded_latency_ns)                \
    X(predicted_gb_per_s) X(fraction_of_peak) X(warps_needed_per_sm) X(loads_per_thread_needed)    \
    X(bound)

/* occ_cluster_result scalar fields, in buffer order; the three per-GPC
   arrays follow, OCC_MAX_GPCS entries each (gpc_count of them used). */
#define CLUSTER_FIELDS(X)                                                                          \
    X(cluster_size) X(launch_refused) X(blocks_per_sm) X(max_active_clusters)                      \
    X(max_potential_cluster_size) X(active_blocks) X(active_sms) X(sm_count) X(exact)              \
    X(gpc_source) X(gpc_count)

/* clang-format on */

#define NAME_OF(field) #field ","
#define COUNT_ONE(field) +1

enum {
    GPU_EXTRA_FIELDS = 2, /* named, max_warps_per_sm */
    GPU_BUFFER_DOUBLES = GPU_EXTRA_FIELDS + 0 GPU_INT_FIELDS(COUNT_ONE) + OCC_MAX_CARVEOUT_STEPS,
    RESULT_DOUBLES = 0 RESULT_FIELDS(COUNT_ONE),
    MODEL_DOUBLES = 0 MODEL_FIELDS(COUNT_ONE),
    LATENCY_DOUBLES = 0 LATENCY_FIELDS(COUNT_ONE),
    CLUSTER_DOUBLES = 0 CLUSTER_FIELDS(COUNT_ONE) + 3 * OCC_MAX_GPCS,
    INPUT_BYTES = 256,
    TEXT_BYTES = 1024,
    /* The longest sweep: shared memory in 512-byte steps over the largest
       SM (228 KB: 457 points); occ_wasm_sweep refuses more. */
    SWEEP_POINTS = 1024
};

static double gpu_buffer[GPU_BUFFER_DOUBLES];
static double result_buffer[RESULT_DOUBLES];
static double model_buffer[MODEL_DOUBLES];
static double latency_buffer[LATENCY_DOUBLES];
static double cluster_buffer[CLUSTER_DOUBLES];
static char input_buffer[INPUT_BYTES];
static char text_buffer[TEXT_BYTES];
static occ_error last_error;
static occ_sweep_point sweep_points[SWEEP_POINTS];
static double sweep_values[SWEEP_POINTS];
static double sweep_warps[SWEEP_POINTS];
static char explain_buffer[OCC_EXPLAIN_TEXT_MAX];

/* The last kernel occ_calc accepted, and its GPU. */
static occ_device last_device;
static occ_kernel last_kernel;
static bool have_last_kernel;

static void clear_error(void)
{
    last_error.field = "";
    last_error.message[0] = '\0';
}

static void copy_text(char *dst, const char *src, int cap)
{
    int i = 0;
    for (; i < cap - 1 && src[i] != '\0'; i++) {
        dst[i] = src[i];
    }
    dst[i] = '\0';
}

OCC_WASM_EXPORT(occ_wasm_gpu_count) int occ_wasm_gpu_count(void)
{
    return occ_gpu_count();
}

OCC_WASM_EXPORT(occ_wasm_gpu_fields) const char *occ_wasm_gpu_fields(void)
{
    return "named,max_warps_per_sm," GPU_INT_FIELDS(NAME_OF) "carveout_steps_bytes";
}

OCC_WASM_EXPORT(occ_wasm_gpu) const double *occ_wasm_gpu(int index)
{
    occ_device d;
    bool named = false;
    if (occ_gpu_at(index, &d, &named, NULL, NULL) != OCC_OK) {
        return 0;
    }
    int i = 0;
    gpu_buffer[i++] = named ? 1.0 : 0.0;
    gpu_buffer[i++] = (double)occ_device_max_warps_per_sm(&d);
#define STORE_GPU(field) gpu_buffer[i++] = (double)d.field;
    GPU_INT_FIELDS(STORE_GPU)
#undef STORE_GPU
    for (int s = 0; s < OCC_MAX_CARVEOUT_STEPS; s++) {
        gpu_buffer[i++] = s < d.carveout_step_count ? (double)d.carveout_steps_bytes[s] : 0.0;
    }
    return gpu_buffer;
}

OCC_WASM_EXPORT(occ_wasm_gpu_name) const char *occ_wasm_gpu_name(int index)
{
    occ_device d;
    text_buffer[0] = '\0';
    if (occ_gpu_at(index, &d, NULL, NULL, NULL) == OCC_OK) {
        copy_text(text_buffer, d.name, TEXT_BYTES);
    }
    return text_buffer;
}

OCC_WASM_EXPORT(occ_wasm_gpu_aliases) const char *occ_wasm_gpu_aliases(int index)
{
    occ_device d;
    const char *const *aliases = NULL;
    text_buffer[0] = '\0';
    if (occ_gpu_at(index, &d, NULL, &aliases, NULL) != OCC_OK) {
        return text_buffer;
    }
    int len = 0;
    for (; *aliases != NULL; aliases++) {
        if (len > 0 && len < TEXT_BYTES - 1) {
            text_buffer[len++] = ',';
        }
        copy_text(text_buffer + len, *aliases, TEXT_BYTES - len);
        while (text_buffer[len] != '\0') {
            len++;
        }
    }
    return text_buffer;
}

OCC_WASM_EXPORT(occ_wasm_input) char *occ_wasm_input(void)
{
    return input_buffer;
}

OCC_WASM_EXPORT(occ_wasm_input_bytes) int occ_wasm_input_bytes(void)
{
    return INPUT_BYTES;
}

OCC_WASM_EXPORT(occ_wasm_gpu_find) int occ_wasm_gpu_find(void)
{
    occ_device wanted;
    clear_error();
    input_buffer[INPUT_BYTES - 1] = '\0';
    if (occ_gpu_find(input_buffer, &wanted, &last_error) != OCC_OK) {
        return -1;
    }
    /* The database's names are unique: match the entry by its name. */
    for (int i = 0; i < occ_gpu_count(); i++) {
        occ_device d;
        occ_gpu_at(i, &d, NULL, NULL, NULL);
        int c = 0;
        while (d.name[c] != '\0' && d.name[c] == wanted.name[c]) {
            c++;
        }
        if (d.name[c] == wanted.name[c]) {
            return i;
        }
    }
    return -1;
}

OCC_WASM_EXPORT(occ_wasm_calc)
int occ_wasm_calc(int gpu_index, int threads, int regs, int static_smem_bytes, int dyn_smem_bytes,
                  int carveout_percent, int barriers)
{
    clear_error();
    have_last_kernel = false;
    occ_status status = occ_gpu_at(gpu_index, &last_device, NULL, NULL, NULL);
    if (status != OCC_OK) {
        last_error.field = "gpu";
        copy_text(last_error.message, "no GPU at this index of the database",
                  OCC_ERROR_MESSAGE_BYTES);
        return (int)status;
    }
    occ_kernel_init(&last_kernel);
    last_kernel.block_x = threads;
    last_kernel.regs_per_thread = regs;
    last_kernel.static_smem_bytes = static_smem_bytes;
    last_kernel.dyn_smem_bytes = dyn_smem_bytes;
    last_kernel.carveout_percent = carveout_percent;
    last_kernel.barriers = barriers;
    occ_result r;
    status = occ_calc(&last_device, &last_kernel, &r, &last_error);
    if (status != OCC_OK) {
        return (int)status;
    }
    int i = 0;
#define STORE_RESULT(field) result_buffer[i++] = (double)r.field;
    RESULT_FIELDS(STORE_RESULT)
#undef STORE_RESULT
    have_last_kernel = true;
    return OCC_OK;
}

OCC_WASM_EXPORT(occ_wasm_result) const double *occ_wasm_result(void)
{
    return result_buffer;
}

OCC_WASM_EXPORT(occ_wasm_calc_fields) const char *occ_wasm_calc_fields(void)
{
    return RESULT_FIELDS(NAME_OF);
}

OCC_WASM_EXPORT(occ_wasm_error) const char *occ_wasm_error(void)
{
    return last_error.message;
}

OCC_WASM_EXPORT(occ_wasm_error_field) const char *occ_wasm_error_field(void)
{
    return last_error.field != NULL ? last_error.field : "";
}

OCC_WASM_EXPORT(occ_wasm_limiter_name) const char *occ_wasm_limiter_name(int limiter_bit)
{
    return occ_limiter_name((occ_limiter)limiter_bit);
}

OCC_WASM_EXPORT(occ_wasm_zero_reason_text) const char *occ_wasm_zero_reason_text(int reason)
{
    return occ_zero_reason_text((occ_zero_reason)reason);
}

static bool need_last_kernel(void)
{
    if (!have_last_kernel) {
        last_error.field = "kernel";
        copy_text(last_error.message, "no kernel: the last occ_wasm_calc failed",
                  OCC_ERROR_MESSAGE_BYTES);
    }
    return have_last_kernel;
}

OCC_WASM_EXPORT(occ_wasm_sweep) int occ_wasm_sweep(int axis)
{
    clear_error();
    if (!need_last_kernel()) {
        return -1;
    }
    int count = 0;
    if (occ_sweep(&last_device, &last_kernel, (occ_sweep_axis)axis, sweep_points, SWEEP_POINTS,
                  &count, &last_error) != OCC_OK) {
        return -1;
    }
    for (int i = 0; i < count; i++) {
        sweep_values[i] = (double)sweep_points[i].value;
        sweep_warps[i] = (double)sweep_points[i].warps_per_sm;
    }
    return count;
}

OCC_WASM_EXPORT(occ_wasm_sweep_values) const double *occ_wasm_sweep_values(void)
{
    return sweep_values;
}

OCC_WASM_EXPORT(occ_wasm_sweep_warps) const double *occ_wasm_sweep_warps(void)
{
    return sweep_warps;
}

OCC_WASM_EXPORT(occ_wasm_sweep_current) int occ_wasm_sweep_current(int axis)
{
    if (!have_last_kernel) {
        return 0;
    }
    int value = 0;
    occ_sweep_current_value(&last_device, &last_kernel, (occ_sweep_axis)axis, &value, &last_error);
    return value;
}

OCC_WASM_EXPORT(occ_wasm_explain) const char *occ_wasm_explain(void)
{
    clear_error();
    explain_buffer[0] = '\0';
    if (need_last_kernel()) {
        occ_explain_text(&last_device, &last_kernel, explain_buffer, sizeof explain_buffer,
                         &last_error);
    }
    return explain_buffer;
}

OCC_WASM_EXPORT(occ_wasm_cluster) int occ_wasm_cluster(int cluster_size, int non_portable)
{
    clear_error();
    if (!need_last_kernel()) {
        return (int)OCC_ERR_INVALID_ARGUMENT;
    }
    /* A 1-D cluster: the driver counts only the size, never the shape. */
    occ_kernel k = last_kernel;
    k.cluster_x = cluster_size;
    k.cluster_y = 1;
    k.cluster_z = 1;
    k.cluster_non_portable = non_portable != 0;
    occ_cluster_result r;
    occ_status status = occ_cluster_calc(&last_device, &k, &r, &last_error);
    if (status != OCC_OK) {
        return (int)status;
    }
    int i = 0;
#define STORE_CLUSTER(field) cluster_buffer[i++] = (double)r.field;
    CLUSTER_FIELDS(STORE_CLUSTER)
#undef STORE_CLUSTER
    for (int g = 0; g < OCC_MAX_GPCS; g++) {
        bool used = g < r.gpc_count;
        cluster_buffer[i + g] = used ? (double)r.gpc_sms[g] : 0.0;
        cluster_buffer[i + OCC_MAX_GPCS + g] = used ? (double)r.gpc_clusters[g] : 0.0;
        cluster_buffer[i + 2 * OCC_MAX_GPCS + g] = used ? (double)r.gpc_active_sms[g] : 0.0;
    }
    return OCC_OK;
}

OCC_WASM_EXPORT(occ_wasm_cluster_result) const double *occ_wasm_cluster_result(void)
{
    return cluster_buffer;
}

OCC_WASM_EXPORT(occ_wasm_cluster_fields) const char *occ_wasm_cluster_fields(void)
{
    return CLUSTER_FIELDS(NAME_OF) "gpc_sms,gpc_clusters,gpc_active_sms";
}

OCC_WASM_EXPORT(occ_wasm_max_gpcs) int occ_wasm_max_gpcs(void)
{
    return OCC_MAX_GPCS;
}

OCC_WASM_EXPORT(occ_wasm_gpc_citation) const char *occ_wasm_gpc_citation(void)
{
    return have_last_kernel && last_device.gpc_citation != NULL ? last_device.gpc_citation : "";
}

OCC_WASM_EXPORT(occ_wasm_memory_model) int occ_wasm_memory_model(int gpu_index)
{
    occ_device d;
    clear_error();
    occ_status status = occ_gpu_at(gpu_index, &d, NULL, NULL, NULL);
    if (status != OCC_OK) {
        return (int)status;
    }
    occ_memory_model m;
    status = occ_memory_model_from_device(&d, &m, &last_error);
    if (status != OCC_OK) {
        /* Keep the facts the database does have; the page asks for the rest. */
        m.latency_ns = (double)d.mem_latency_ns;
        m.peak_gb_per_s = (double)d.mem_bandwidth_gb_per_s;
        m.sm_count = d.sm_count;
    }
    int i = 0;
#define STORE_MODEL(field) model_buffer[i++] = (double)m.field;
    MODEL_FIELDS(STORE_MODEL)
#undef STORE_MODEL
    return (int)status;
}

OCC_WASM_EXPORT(occ_wasm_model) const double *occ_wasm_model(void)
{
    return model_buffer;
}

OCC_WASM_EXPORT(occ_wasm_model_fields) const char *occ_wasm_model_fields(void)
{
    return MODEL_FIELDS(NAME_OF);
}

OCC_WASM_EXPORT(occ_wasm_latency)
int occ_wasm_latency(double warps_per_sm, double loads_in_flight, double bytes_per_load,
                     double latency_ns, double peak_gb_per_s, int sm_count)
{
    clear_error();
    const occ_memory_model model = {.latency_ns = latency_ns,
                                    .peak_gb_per_s = peak_gb_per_s,
                                    .loaded_latency_factor = 0.0,
                                    .max_bytes_in_flight_per_sm = 0.0,
                                    .sm_count = sm_count};
    const occ_latency_input input = {.warps_per_sm = warps_per_sm,
                                     .loads_in_flight_per_thread = loads_in_flight,
                                     .bytes_per_load = bytes_per_load,
                                     .active_sms = 0,
                                     .bytes_moved_per_byte_loaded = 0.0};
    occ_latency_result r;
    occ_status status = occ_latency_predict(&model, &input, &r, &last_error);
    if (status != OCC_OK) {
        return (int)status;
    }
    int i = 0;
#define STORE_LATENCY(field) latency_buffer[i++] = (double)r.field;
    LATENCY_FIELDS(STORE_LATENCY)
#undef STORE_LATENCY
    return OCC_OK;
}

OCC_WASM_EXPORT(occ_wasm_latency_result) const double *occ_wasm_latency_result(void)
{
    return latency_buffer;
}

OCC_WASM_EXPORT(occ_wasm_latency_fields) const char *occ_wasm_latency_fields(void)
{
    return LATENCY_FIELDS(NAME_OF);
}

OCC_WASM_EXPORT(occ_wasm_latency_bound_name) const char *occ_wasm_latency_bound_name(int bound)
{
    return occ_latency_bound_name((occ_latency_bound)bound);
}

OCC_WASM_EXPORT(occ_wasm_version) const char *occ_wasm_version(void)
{
    return occ_version();
}
