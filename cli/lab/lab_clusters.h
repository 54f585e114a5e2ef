/*
 * lab_clusters.h - `occ lab gpcs`, `occ lab clusters` and the cluster part
 * of `occ lab verify`: the GPC layout joined from the records, checked
 * against the driver's answers through libocc and against the database,
 * written as a --gpu-file, and the persistent-grid table (lab_clusters.c).
 */
#ifndef OCC_CLI_LAB_CLUSTERS_H
#define OCC_CLI_LAB_CLUSTERS_H

#include <stdbool.h>
#include <stdio.h>

#include "cli.h"
#include "lab_output.h"
#include "lab_records.h"
#include "occ.h"

/* The measured layout: SMs of each GPC, largest first. False (EXIT_DATA)
   without gpcs records, or with more GPCs than OCC_MAX_GPCS. */
bool lab_gpcs_layout(lab_data *d, int gpc_sms[OCC_MAX_GPCS], int *gpc_count, cli_error *err);

/* Presents what gpcs / clusters / verify's cluster part selected; false
   (EXIT_DATA, after printing) when a driver answer differs from libocc's on
   the measured layout, or records are missing. */
bool lab_clusters_report(FILE *out, lab_data *d, bool gpcs, bool clusters, bool verify,
                         lab_format format, cli_error *err);

/* DIR/gpu-layout.json: a --gpu-file (docs/gpu-file.md) of the measured GPU. */
bool lab_gpcs_write_gpu_file(const char *dir, lab_data *d, cli_error *err);

#endif /* OCC_CLI_LAB_CLUSTERS_H */
