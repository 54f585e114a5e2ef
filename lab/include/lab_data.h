/*
 * lab_data.h - occ-lab's records (lab/, CUDA), one JSON object a line,
 * read into a lab_data for the analysis (lab_analysis.h) and for `occ lab`'s
 * presentation. The writer is occ-lab (lab/main.cu, lab/record.cu); the
 * format's version is LAB_RECORDS_FORMAT (lab_format.h), which both use.
 * docs/lab.md describes every record.
 */
#ifndef OCC_LAB_DATA_H
#define OCC_LAB_DATA_H

#include <stdbool.h>
#include <stdio.h>

#include "lab_analysis.h"
#include "lab_error.h"
#include "lab_format.h"
#include "lab_lines.h" /* LAB_MAX_LINE_BYTES */

#define LAB_MAX_LAUNCHES 8

/* The largest grid and SM count a timeline launch may claim: far above any
   GPU's, low enough that the blocks' memory and the plots stay small. */
#define LAB_MAX_GRID (1 << 24)
#define LAB_MAX_SM_COUNT 4096

typedef struct lab_device_info {
    char name[64];
    int cc_major, cc_minor;
    int sm_count;
    int max_warps_per_sm;
    long long l2_bytes;
    int sm_clock_khz;
    int peak_gb_per_s;  /* from the memory clock and bus width */
    int driver_version; /* 13000 = 13.0 */
    int runtime_version;
} lab_device_info;

/* `occ lab gpcs`: the driver's answer for one cluster size at one launch
   (occ-lab's "gpcs_driver" record). */
typedef struct lab_gpcs_driver {
    int cluster_size, threads, regs, static_smem_bytes, dyn_smem_bytes, max_threads;
    int blocks_per_sm, driver_active_clusters; /* -1: the driver refused */
} lab_gpcs_driver;
#define LAB_MAX_GPCS_DRIVER LAB_MAX_ROWS

/* `occ lab clusters`: one persistent-grid launch ("cluster_persistent"). */
typedef struct lab_persistent_row {
    int cluster_size;
    bool grid_active; /* sized by max active clusters; else SMs / size */
    int clusters, blocks, driver_active_clusters, occ_active_clusters, sms_used;
    double median_ms, min_ms;
} lab_persistent_row;
#define LAB_MAX_PERSISTENT LAB_MAX_ROWS

typedef struct lab_data {
    bool has_device;
    lab_device_info device;
    double memcpy_bytes, memcpy_ms; /* ceiling, method memcpy (0: absent) */
    double copy_kernel_bytes, copy_kernel_ms;
    double dram_ns, dram_cycles; /* latency over a buffer far past L2 */
    double dram_small_ns;        /* the same over 64 MiB */
    double l2_ns, l2_cycles;
    lab_residency_row residency[LAB_MAX_ROWS];
    int residency_count;
    lab_blocksize_row blocksize[LAB_MAX_ROWS];
    int blocksize_count;
    int suggested_threads; /* cudaOccupancyMaxPotentialBlockSize */
    lab_spill_row spill[LAB_MAX_ROWS];
    int spill_count;
    lab_launch launches[LAB_MAX_LAUNCHES];
    int launch_count;
    bool has_verify;
    long long verify_comparisons, verify_mismatches;
    int verify_kernels;
    /* gpcs: SMs joined when they ran blocks of one cluster (union-find over
       SM ids), and the driver's answers */
    bool has_gpcs;
    int gpc_parent[LAB_MAX_SM_COUNT]; /* -1: the SM ran no cluster */
    lab_gpcs_driver gpcs_driver[LAB_MAX_GPCS_DRIVER];
    int gpcs_driver_count;
    lab_persistent_row persistent[LAB_MAX_PERSISTENT];
    int persistent_count;
    bool has_verify_clusters, verify_clusters_layout_known;
    long long verify_cluster_comparisons, verify_cluster_mismatches;
    bool done;       /* the "done" record came */
    char error[160]; /* an "error" record's message, if any */
} lab_data;

/* Reads records from `in` (one JSON object a line) into *data, which it
   zeroes first; `name` names the input in errors ("records.jsonl",
   "<stdin>"). Unknown record kinds are skipped (a newer occ-lab); a "lab"
   record of a format other than LAB_RECORDS_FORMAT, a line over
   LAB_MAX_LINE_BYTES, a NUL byte, a malformed line or a value out of range
   is refused: false, with *err naming the line. Free with lab_data_free,
   also after a refusal. */
bool lab_data_read(FILE *in, const char *name, lab_data *data, lab_error *err);
void lab_data_free(lab_data *data);

/* The GPC (lowest SM id) of an SM that ran a cluster block. */
int lab_gpc_root(lab_data *d, int sm);

#endif /* OCC_LAB_DATA_H */
