/*
 * sweep_json.c - the occ.sweep document (sweep_json.h) of every axis, on one
 * base.
 */
#include "sweep_json.h"

#include "calc_output.h"

/* What every axis shares; takes `current` and `points`. */
static json_t *sweep_doc(const occ_device *d, const occ_kernel *k, const occ_result *r,
                         const char *axis_name, json_t *current, json_t *points)
{
    json_t *doc = calc_to_json(d, k, r);
    json_object_set_new(doc, "schema", json_string("occ.sweep"));
    json_object_set_new(doc, "version", json_integer(SWEEP_SCHEMA_VERSION));
    json_object_del(doc, "result");
    json_object_set_new(doc, "axis", json_string(axis_name));
    json_object_set_new(doc, "smem_config_bytes", json_integer(r->smem_per_sm_bytes));
    json_object_set_new(doc, "current", current);
    json_object_set_new(doc, "points", points);
    return doc;
}

json_t *sweep_json_axis(const occ_device *d, const occ_kernel *k, const char *axis_name,
                        int current, const occ_result *r, const occ_sweep_point *p, int n)
{
    json_t *points = json_array();
    for (int i = 0; i < n; i++) {
        json_array_append_new(points, json_pack("{s:i, s:i, s:i, s:f}", "value", p[i].value,
                                                "blocks_per_sm", p[i].blocks_per_sm, "warps_per_sm",
                                                p[i].warps_per_sm, "occupancy", p[i].occupancy));
    }
    json_t *now =
        json_pack("{s:i, s:i, s:i, s:f}", "value", current, "blocks_per_sm", r->blocks_per_sm,
                  "warps_per_sm", r->warps_per_sm, "occupancy", r->occupancy);
    return sweep_doc(d, k, r, axis_name, now, points);
}

static json_t *cluster_point(const occ_cluster_sweep_point *p)
{
    return json_pack("{s:i, s:i, s:i, s:f, s:f, s:i}", "value", p->cluster_size,
                     "max_active_clusters", p->max_active_clusters, "blocks_per_sm",
                     p->blocks_per_sm, "warps_per_sm", p->warps_per_sm, "occupancy", p->occupancy,
                     "active_sms", p->active_sms);
}

json_t *sweep_json_cluster(const occ_device *d, const occ_kernel *k,
                           const occ_cluster_sweep_point *p, int n)
{
    occ_result r;
    occ_calc(d, k, &r, NULL);
    const bool has_cluster = k->cluster_x != 0 || k->cluster_y != 1 || k->cluster_z != 1;
    const int size = k->cluster_x * k->cluster_y * k->cluster_z;
    json_t *points = json_array();
    json_t *current = json_null();
    for (int i = 0; i < n; i++) {
        json_array_append_new(points, cluster_point(&p[i]));
        if (has_cluster && p[i].cluster_size == size) {
            json_decref(current);
            current = cluster_point(&p[i]);
        }
    }
    json_t *doc = sweep_doc(d, k, &r, "cluster", current, points);
    /* the GPC layout the counts stand on, as result.cluster says it */
    occ_cluster_result c;
    occ_kernel one = *k;
    one.cluster_x = 1;
    one.cluster_y = one.cluster_z = 1;
    occ_cluster_calc(d, &one, &c, NULL);
    json_object_set_new(doc, "exact", json_boolean(c.exact));
    json_object_set_new(doc, "gpc_layout_source", json_string(occ_gpc_source_name(c.gpc_source)));
    return doc;
}
