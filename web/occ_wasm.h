/*
 * occ_wasm.h - what the occupancy page's JavaScript calls in occ.wasm.
 *
 * The page shows only numbers libocc computed: these functions wrap the
 * public API (include/occ.h) in calls WebAssembly can make with plain
 * numbers. Results go to static buffers the page reads from the module's
 * memory; each buffer's layout is described by a comma-separated list of
 * field names (the *_fields functions), so the C side alone decides the
 * order and the JavaScript looks fields up by name.
 *
 * Every value is a double: the limits and counts are integers no larger
 * than OCC_UNLIMITED (2^31 - 1), which a double holds exactly.
 *
 * Nothing here is thread-safe or reentrant; the page calls it from one
 * thread, one call at a time.
 */
#ifndef OCC_WASM_H
#define OCC_WASM_H

#include "occ.h"

/* GPU database */

/* Entries in the database (generic compute capabilities first). */
int occ_wasm_gpu_count(void);

/* Fills the device buffer with entry `index` (see occ_wasm_gpu_fields) and
   returns a pointer to it; returns 0 (NULL) for an index out of range. */
const double *occ_wasm_gpu(int index);

/* The field names of the device buffer, comma-separated. */
const char *occ_wasm_gpu_fields(void);

/* The display name of entry `index` ("H200", "sm_90"); "" out of range. */
const char *occ_wasm_gpu_name(int index);

/* Entry `index`'s aliases separated by commas ("" when none). */
const char *occ_wasm_gpu_aliases(int index);

/* The input buffer for a string argument, and its size in bytes. */
char *occ_wasm_input(void);
int occ_wasm_input_bytes(void);

/* The database index of the GPU named by the input buffer (a name, alias,
   architecture or compute capability, as occ_gpu_find takes it); -1 when
   none matches, with the reason in occ_wasm_error(). */
int occ_wasm_gpu_find(void);

/* Occupancy */

/*
 * occ_calc for one kernel: entry `gpu_index` of the database, a 1-D block of
 * `threads`, and the kernel's other attributes (carveout -1 for the
 * driver's default). Every other kernel attribute keeps occ_kernel_init's
 * default, as in `occ calc`. Returns the occ_status; on OCC_OK the result
 * buffer holds the answer (occ_wasm_calc_fields), otherwise occ_wasm_error()
 * says why. The kernel is remembered for occ_wasm_sweep and
 * occ_wasm_explain.
 */
int occ_wasm_calc(int gpu_index, int threads, int regs, int static_smem_bytes, int dyn_smem_bytes,
                  int carveout_percent, int barriers);

/* The result buffer of the last successful occ_wasm_calc. */
const double *occ_wasm_result(void);

/* The field names of the result buffer, comma-separated. */
const char *occ_wasm_calc_fields(void);

/* The field and message of the last failure ("" after success). */
const char *occ_wasm_error(void);
const char *occ_wasm_error_field(void);

/* occ_limiter_name for one occ_limiter bit ("registers"). */
const char *occ_wasm_limiter_name(int limiter_bit);

/* The sentence on why zero blocks fit, for an occ_zero_reason. */
const char *occ_wasm_zero_reason_text(int reason);

/* Staircases and the explanation, for the kernel of the last successful
   occ_wasm_calc */

/*
 * occ_sweep along `axis` (an occ_sweep_axis: 0 registers, 1 shared memory,
 * 2 block size, 3 barriers). Returns the number of points, their x values
 * and warps per SM in the two sweep buffers; -1 on failure (occ_wasm_error).
 */
int occ_wasm_sweep(int axis);
const double *occ_wasm_sweep_values(void);
const double *occ_wasm_sweep_warps(void);

/* The kernel's own x on the axis (occ_sweep_current_value). */
int occ_wasm_sweep_current(int axis);

/* occ_explain_text: the explanation `occ explain` gives, as headed
   paragraphs; "" on failure (occ_wasm_error). */
const char *occ_wasm_explain(void);

/* Thread-block clusters, for the kernel of the last successful occ_wasm_calc */

/*
 * occ_cluster_calc for a 1-D cluster of `cluster_size` blocks (the driver
 * counts only the size), with cluster_non_portable when `non_portable` is
 * non-zero. Returns the occ_status; on OCC_OK the cluster buffer
 * (occ_wasm_cluster_fields) holds the answer: the scalar fields, then
 * gpc_sms, gpc_clusters and gpc_active_sms, occ_wasm_max_gpcs() entries
 * each (gpc_count of them used). Otherwise occ_wasm_error() says why (a
 * compute capability below 9.0, a size over the limit).
 */
int occ_wasm_cluster(int cluster_size, int non_portable);
const double *occ_wasm_cluster_result(void);
const char *occ_wasm_cluster_fields(void);
int occ_wasm_max_gpcs(void);

/* The GPC layout's source in a few words (occ_device.gpc_citation) for the
   last kernel's GPU; "" when it has none. */
const char *occ_wasm_gpc_citation(void);

/* Little's law */

/*
 * Loads the database's memory model of entry `gpu_index` into the model
 * buffer (occ_wasm_model_fields). Returns the occ_status of
 * occ_memory_model_from_device: where the database lacks a fact the buffer
 * still holds what it knows (0 for the unknown ones) and occ_wasm_error()
 * names the missing field.
 */
int occ_wasm_memory_model(int gpu_index);
const double *occ_wasm_model(void);
const char *occ_wasm_model_fields(void);

/*
 * occ_latency_predict for `warps_per_sm` resident warps, each thread with
 * `loads_in_flight` independent loads of `bytes_per_load` bytes, on a
 * memory system of `latency_ns` and `peak_gb_per_s` over `sm_count` SMs
 * (no loaded-latency growth, no request limit). Returns the occ_status; the
 * latency buffer (occ_wasm_latency_fields) holds the prediction.
 */
int occ_wasm_latency(double warps_per_sm, double loads_in_flight, double bytes_per_load,
                     double latency_ns, double peak_gb_per_s, int sm_count);
const double *occ_wasm_latency_result(void);
const char *occ_wasm_latency_fields(void);

/* occ_latency_bound_name ("latency", "bandwidth", ...). */
const char *occ_wasm_latency_bound_name(int bound);

/* The library version, "0.1.0". */
const char *occ_wasm_version(void);

#endif /* OCC_WASM_H */
