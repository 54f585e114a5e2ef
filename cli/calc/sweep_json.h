/*
 * sweep_json.h - `occ sweep AXIS --json`, schema occ.sweep (docs/json.md),
 * built here once for every axis: occ.calc's gpu and kernel, the axis, the
 * shared-memory configuration held fixed, the kernel as given (`current`,
 * shaped as a point) and the points.
 */
#ifndef OCC_CLI_SWEEP_JSON_H
#define OCC_CLI_SWEEP_JSON_H

#include <jansson.h>

#include "occ.h"

/* Version 2: `current` is a point on every axis (on `cluster` it was the
   cluster size) and `smem_config_bytes` is in every document. */
#define SWEEP_SCHEMA_VERSION 2

/* An occ_sweep axis (regs, smem, threads, barriers); `current` is the
   kernel's own value on the axis, `r` its occ_calc result. */
json_t *sweep_json_axis(const occ_device *dev, const occ_kernel *kernel, const char *axis_name,
                        int current, const occ_result *r, const occ_sweep_point *points, int count);

/* The cluster-size axis (occ_cluster_sweep's points); `current` is the point
   of the kernel's --cluster size, null without one. */
json_t *sweep_json_cluster(const occ_device *dev, const occ_kernel *kernel,
                           const occ_cluster_sweep_point *points, int count);

#endif /* OCC_CLI_SWEEP_JSON_H */
