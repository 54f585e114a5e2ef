/*
 * cluster_json.h - the JSON of a thread-block cluster launch and of the
 * GPU's GPC layout, which occ calc's result.cluster and gpu.gpc_layout and
 * every document built on occ.calc hold (docs/json.md). A leaf: libocc and
 * jansson only.
 */
#ifndef OCC_CLI_CLUSTER_JSON_H
#define OCC_CLI_CLUSTER_JSON_H

#include <jansson.h>

#include "occ.h"

/* occ calc --json's result.cluster: null when the kernel has no cluster. */
json_t *cluster_to_json(const occ_device *dev, const occ_kernel *kernel);

/* The GPU's GPC layout: {source, citation, gpc_sms} (gpc_sms null when unknown). */
json_t *gpc_layout_to_json(const occ_device *dev);

#endif /* OCC_CLI_CLUSTER_JSON_H */
