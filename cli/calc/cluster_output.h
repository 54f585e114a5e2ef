/*
 * cluster_output.h - how the kernel-launch commands show a thread-block
 * cluster launch (--cluster): the paragraph calc and explain print, `occ
 * sweep cluster`, and the persistent cluster grid of `occ suggest`
 * (docs/cli.md, docs/json.md). Its JSON objects are cluster_json.h's.
 */
#ifndef OCC_CLI_CLUSTER_OUTPUT_H
#define OCC_CLI_CLUSTER_OUTPUT_H

#include <jansson.h>

#include "cli.h"
#include "cluster_json.h"

/* The "Clusters" paragraph (occ_cluster_explain, wrapped); nothing without a
   cluster. */
void cluster_print_text(FILE *out, const occ_device *dev, const occ_kernel *kernel);

/* `occ sweep cluster`: the curve over cluster sizes as a table, CSV
   (value,max_active_clusters,blocks_per_sm,warps_per_sm,occupancy) or JSON
   (kernel.regs_per_thread_given from regs_given). */
bool cluster_sweep_print(FILE *out, const occ_device *dev, const occ_kernel *kernel,
                         bool regs_given, bool csv, bool json, cli_error *err);

/* The persistent grid of a cluster kernel at `block_threads` threads per
   block: max active clusters x cluster size, against a grid of SMs / cluster
   size clusters. Text when `doc` is NULL, else added to it as "cluster". */
void cluster_print_persistent(FILE *out, const occ_device *dev, const occ_kernel *kernel,
                              json_t *doc);

#endif /* OCC_CLI_CLUSTER_OUTPUT_H */
