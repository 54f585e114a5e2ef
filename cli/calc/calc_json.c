/*
 * calc_json.c - `occ calc --json` and the GPU objects of `occ gpus --json`.
 * The schema is documented in docs/json.md; bump its version on any change
 * that is not a pure addition.
 */
#include <string.h>

#include "calc_output.h"
#include "cluster_json.h"

#define CALC_SCHEMA_VERSION 1

static json_t *limit_json(int limit)
{
    return limit == OCC_UNLIMITED ? json_null() : json_integer(limit);
}

/* An unknown product fact (0) is null in JSON. */
static json_t *known(int value)
{
    return value > 0 ? json_integer(value) : json_null();
}

bool gpu_is_named(const occ_device *d)
{
    /* A generic entry is named after its arch; anything else is a product. */
    char arch[16];
    occ_arch_name(d->cc_major, d->cc_minor, arch, sizeof arch);
    return strcmp(d->name, arch) != 0;
}

json_t *gpu_to_json(const occ_device *d, bool named)
{
    char arch[16];
    char cc[16];
    occ_arch_name(d->cc_major, d->cc_minor, arch, sizeof arch);
    snprintf(cc, sizeof cc, "%d.%d", d->cc_major, d->cc_minor);
    json_t *steps = json_array();
    for (int i = 0; i < d->carveout_step_count; i++) {
        json_array_append_new(steps, json_integer(d->carveout_steps_bytes[i]));
    }
    json_t *gpu = json_pack(
        "{s:s, s:s, s:s, s:b, s:o, s:o, s:o, s:o, s:o, "
        "s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:i, "
        "s:i, s:i, s:i, s:i, s:i, s:o, s:i, s:b}",
        "name", d->name, "arch", arch, "compute_capability", cc, "named", named, "sm_count",
        known(d->sm_count), "sm_clock_mhz", known(d->sm_clock_mhz), "mem_bandwidth_gb_per_s",
        known(d->mem_bandwidth_gb_per_s), "l2_bytes", known(d->l2_bytes), "mem_latency_ns",
        known(d->mem_latency_ns), "warp_size_threads", d->warp_size_threads,
        "max_threads_per_block", d->max_threads_per_block, "max_threads_per_sm",
        d->max_threads_per_sm, "max_warps_per_sm", occ_device_max_warps_per_sm(d),
        "max_blocks_per_sm", d->max_blocks_per_sm, "regs_per_sm", d->regs_per_sm, "regs_per_block",
        d->regs_per_block, "max_regs_per_thread", d->max_regs_per_thread, "reg_alloc_unit",
        d->reg_alloc_unit, "sub_partitions_per_sm", d->sub_partitions_per_sm, "smem_per_sm_bytes",
        d->smem_per_sm_bytes, "smem_per_block_bytes", d->smem_per_block_bytes,
        "smem_per_block_optin_bytes", d->smem_per_block_optin_bytes,
        "smem_reserved_per_block_bytes", d->smem_reserved_per_block_bytes, "smem_alloc_unit_bytes",
        d->smem_alloc_unit_bytes, "carveout_steps_bytes", steps, "barriers_per_block_slot",
        d->barriers_per_block_slot, "partitioned_gc", d->partitioned_gc);
    /* where the latency comes from (docs/hardware.md, "Memory latency") */
    json_object_set_new(gpu, "mem_latency_source",
                        json_string(occ_latency_source_name(d->mem_latency_source)));
    json_object_set_new(gpu, "mem_latency_citation",
                        d->mem_latency_citation != NULL ? json_string(d->mem_latency_citation)
                                                        : json_null());
    /* the GPCs as the cluster scheduler sees them (docs/occupancy-rules.md) */
    json_object_set_new(gpu, "gpc_layout", gpc_layout_to_json(d));
    return gpu;
}

static json_t *limiter_array(unsigned limiters)
{
    char buf[96];
    json_t *list = json_array();
    occ_limiter_list(limiters, buf, sizeof buf);
    char *save = NULL;
    for (char *name = strtok_r(buf, "+", &save); name != NULL; name = strtok_r(NULL, "+", &save)) {
        json_array_append_new(list, json_string(name));
    }
    return list;
}

static json_t *optin_json(int max_dyn)
{
    if (max_dyn == OCC_DYN_SMEM_OPTIN_MAX) {
        return json_string("max");
    }
    if (max_dyn == OCC_DYN_SMEM_NO_OPTIN) {
        return json_string("none");
    }
    return json_integer(max_dyn);
}

/* The configuration the driver is predicted to choose at launch
   (occ_launch_smem_config); null when --smem-config gave it or no block fits. */
static json_t *launch_config_json(const occ_device *d, const occ_kernel *k,
                                  occ_cache_preference cache)
{
    occ_smem_config_result c;
    if (k->smem_config_bytes > 0 || occ_launch_smem_config(d, k, cache, &c, NULL) != OCC_OK) {
        return json_null();
    }
    return json_pack("{s:i, s:o, s:o, s:i, s:s, s:b}", "config_bytes", c.config_bytes, "l1_bytes",
                     c.unified_cache_bytes > 0 ? json_integer(c.l1_bytes) : json_null(),
                     "limit_shared_mem", limit_json(c.limit_shared_mem), "blocks_per_sm",
                     c.blocks_per_sm, "rule", occ_smem_config_rule_name(c.rule), "measured",
                     c.measured);
}

static json_t *build(const occ_device *d, const occ_kernel *k, occ_cache_preference cache,
                     const occ_result *r)
{
    static const char *const gc_names[] = {"off", "on", "strict"};
    json_t *kernel =
        json_pack("{s:[i,i,i], s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:o, s:s, s:o}", "block",
                  k->block_x, k->block_y, k->block_z, "threads_per_block", r->threads_per_block,
                  "regs_per_thread", k->regs_per_thread, "static_smem_bytes", k->static_smem_bytes,
                  "dyn_smem_bytes", k->dyn_smem_bytes, "max_threads_per_block",
                  k->max_threads_per_block, "barriers", k->barriers, "carveout_percent",
                  k->carveout_percent, "max_dyn_smem_bytes", optin_json(k->max_dyn_smem_bytes),
                  "partitioned_gc", gc_names[k->partitioned_gc], "smem_config_bytes",
                  k->smem_config_bytes > 0 ? json_integer(k->smem_config_bytes) : json_null());
    json_t *limits = json_pack(
        "{s:o, s:o, s:o, s:o, s:o}", "warps", limit_json(r->limit_warps), "blocks",
        limit_json(r->limit_blocks), "registers", limit_json(r->limit_registers), "shared_mem",
        limit_json(r->limit_shared_mem), "barriers", limit_json(r->limit_barriers));
    json_t *allocation = json_pack(
        "{s:i, s:i, s:i, s:o, s:i, s:i, s:i, s:b, s:b, s:b}", "regs_per_warp",
        r->regs_per_warp_allocated, "regs_per_block", r->regs_per_block_allocated,
        "warps_per_sm_by_regs", r->warps_per_sm_by_regs, "smem_per_block_bytes",
        limit_json(r->smem_per_block_allocated_bytes), "smem_per_block_limit_bytes",
        r->smem_per_block_limit_bytes, "smem_per_sm_bytes", r->smem_per_sm_bytes,
        "smem_preferred_bytes", r->smem_preferred_bytes, "partitioned_gc_on", r->partitioned_gc_on,
        "needs_optin", r->needs_optin, "exceeds_launch_bounds", r->exceeds_launch_bounds);
    json_t *result = json_pack(
        "{s:i, s:i, s:i, s:i, s:i, s:f, s:o, s:o, s:o, s:o}", "blocks_per_sm", r->blocks_per_sm,
        "warps_per_sm", r->warps_per_sm, "threads_per_sm", r->threads_per_sm, "max_warps_per_sm",
        r->max_warps_per_sm, "warps_per_block", r->warps_per_block, "occupancy", r->occupancy,
        "limits", limits, "limiters", limiter_array(r->limiters), "zero_reason",
        r->zero_reason == OCC_ZERO_NONE ? json_null()
                                        : json_string(occ_zero_reason_text(r->zero_reason)),
        "allocation", allocation);
    json_object_set_new(result, "launch_smem_config", launch_config_json(d, k, cache));
    /* null without --cluster (docs/json.md) */
    json_object_set_new(result, "cluster", cluster_to_json(d, k));
    return json_pack("{s:s, s:i, s:s, s:o, s:o, s:o}", "schema", "occ.calc", "version",
                     CALC_SCHEMA_VERSION, "occ_version", occ_version(), "gpu",
                     gpu_to_json(d, gpu_is_named(d)), "kernel", kernel, "result", result);
}

json_t *calc_to_json(const occ_device *d, const occ_kernel *k, const occ_result *r)
{
    return build(d, k, OCC_CACHE_PREFER_NONE, r);
}

void calc_json_set_regs_given(json_t *doc, bool regs_given)
{
    json_t *kernel = json_object_get(doc, "kernel");
    if (kernel != NULL) {
        json_object_set_new(kernel, "regs_per_thread_given", json_boolean(regs_given));
    }
}

/* Nsight Compute's table of the launch (calc_nsight_view). */
static json_t *nsight_json(const calc_view *v)
{
    static const char *const sources[] = {"api", "predicted", "given"};
    static const struct {
        const char *key;
        occ_limiter which;
    } rows[] = {{"warps", OCC_LIMITER_WARPS},
                {"blocks", OCC_LIMITER_BLOCKS},
                {"registers", OCC_LIMITER_REGISTERS},
                {"shared_mem", OCC_LIMITER_SHARED_MEM},
                {"barriers", OCC_LIMITER_BARRIERS}};
    calc_nsight nv;
    calc_nsight_view(v->dev, v->kernel, v->cache, v->api, &nv);
    json_t *limits = json_object();
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        json_object_set_new(limits, rows[i].key,
                            limit_json(calc_nsight_limit(
                                v->dev, calc_limit_of(&nv.result, rows[i].which), rows[i].which)));
    }
    return json_pack("{s:i, s:s, s:o, s:i, s:i, s:f}", "smem_config_bytes", nv.smem_config_bytes,
                     "smem_config_source", sources[nv.config], "limits", limits, "blocks_per_sm",
                     nv.result.blocks_per_sm, "warps_per_sm", nv.result.warps_per_sm, "occupancy",
                     nv.result.occupancy);
}

json_t *calc_view_to_json(const calc_view *v)
{
    static const char *const caches[] = {"none", "shared", "l1", "equal"};
    json_t *doc = build(v->dev, v->kernel, v->cache, v->api);
    json_t *kernel = json_object_get(doc, "kernel");
    json_object_set_new(kernel, "cache_config", json_string(caches[v->cache]));
    json_object_set_new(kernel, "regs_per_thread_given", json_boolean(v->regs_given));
    json_object_set_new(json_object_get(doc, "result"), "nsight", nsight_json(v));
    return doc;
}
