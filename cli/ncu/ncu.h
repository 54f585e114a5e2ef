/*
 * ncu.h - `occ ncu`: Nsight Compute exports read, checked against libocc and
 * explained. The reader, the check and the gap model are libocc-profile's
 * (include/occ_profile.h, occ_profile_ncu_*; profile/formats/ncu_*.c,
 * profile/engine/ncu_*.c), named here as the command always named them;
 * ncu_gap.c explains the achieved occupancy; ncu_text.c and ncu_json.c print.
 */
#ifndef OCC_CLI_NCU_H
#define OCC_CLI_NCU_H

#include <stdbool.h>
#include <stdio.h>

#include "cli.h"
#include "occ_profile.h"

/* libocc-profile's names (include/occ_profile.h) as the command's. */
#define NCU_ACHIEVED_PCT OCC_PROFILE_NCU_ACHIEVED_PCT
#define NCU_BARRIERS OCC_PROFILE_NCU_BARRIERS
#define NCU_BLOCK_SIZE OCC_PROFILE_NCU_BLOCK_SIZE
#define NCU_CAUSE_CLUSTERS OCC_PROFILE_NCU_CAUSE_CLUSTERS
#define NCU_CAUSE_IN_KERNEL OCC_PROFILE_NCU_CAUSE_IN_KERNEL
#define NCU_CAUSE_NONE OCC_PROFILE_NCU_CAUSE_NONE
#define NCU_CAUSE_NOT_MEASURED OCC_PROFILE_NCU_CAUSE_NOT_MEASURED
#define NCU_CAUSE_NO_GRID OCC_PROFILE_NCU_CAUSE_NO_GRID
#define NCU_CAUSE_SMALL_GRID OCC_PROFILE_NCU_CAUSE_SMALL_GRID
#define NCU_CAUSE_TAIL OCC_PROFILE_NCU_CAUSE_TAIL
#define NCU_CLUSTER_SIZE OCC_PROFILE_NCU_CLUSTER_SIZE
#define NCU_CLUSTER_X OCC_PROFILE_NCU_CLUSTER_X
#define NCU_CLUSTER_Y OCC_PROFILE_NCU_CLUSTER_Y
#define NCU_CLUSTER_Z OCC_PROFILE_NCU_CLUSTER_Z
#define NCU_DEVICE_NAME_BYTES OCC_PROFILE_NCU_DEVICE_NAME_BYTES
#define NCU_DRIVER_SMEM OCC_PROFILE_NCU_DRIVER_SMEM
#define NCU_DURATION OCC_PROFILE_NCU_DURATION
#define NCU_DYN_SMEM OCC_PROFILE_NCU_DYN_SMEM
#define NCU_FIELD_COUNT OCC_PROFILE_NCU_FIELD_COUNT
#define NCU_GRID_SIZE OCC_PROFILE_NCU_GRID_SIZE
#define NCU_LIMIT_BARRIERS OCC_PROFILE_NCU_LIMIT_BARRIERS
#define NCU_LIMIT_BLOCKS OCC_PROFILE_NCU_LIMIT_BLOCKS
#define NCU_LIMIT_COUNT OCC_PROFILE_NCU_LIMIT_COUNT
#define NCU_LIMIT_REGISTERS OCC_PROFILE_NCU_LIMIT_REGISTERS
#define NCU_LIMIT_SHARED_MEM OCC_PROFILE_NCU_LIMIT_SHARED_MEM
#define NCU_LIMIT_WARPS OCC_PROFILE_NCU_LIMIT_WARPS
#define NCU_MAX_ACTIVE_CLUSTERS OCC_PROFILE_NCU_MAX_ACTIVE_CLUSTERS
#define NCU_MAX_FIELDS OCC_PROFILE_NCU_MAX_FIELDS
#define NCU_MAX_RECORD_BYTES OCC_PROFILE_NCU_MAX_RECORD_BYTES
#define NCU_MAX_SKIPPED_BYTES OCC_PROFILE_NCU_MAX_SKIPPED_BYTES
#define NCU_MAX_SKIPPED_LINES OCC_PROFILE_NCU_MAX_SKIPPED_LINES
#define NCU_MAX_SM_COUNT OCC_PROFILE_NCU_MAX_SM_COUNT
#define NCU_MISMATCH_BARRIERS OCC_PROFILE_NCU_MISMATCH_BARRIERS
#define NCU_MISMATCH_BLOCKS OCC_PROFILE_NCU_MISMATCH_BLOCKS
#define NCU_MISMATCH_CLUSTERS OCC_PROFILE_NCU_MISMATCH_CLUSTERS
#define NCU_MISMATCH_DRIVER_SMEM OCC_PROFILE_NCU_MISMATCH_DRIVER_SMEM
#define NCU_MISMATCH_KINDS OCC_PROFILE_NCU_MISMATCH_KINDS
#define NCU_MISMATCH_REGISTERS OCC_PROFILE_NCU_MISMATCH_REGISTERS
#define NCU_MISMATCH_SHARED_MEM OCC_PROFILE_NCU_MISMATCH_SHARED_MEM
#define NCU_MISMATCH_SMEM_CONFIG OCC_PROFILE_NCU_MISMATCH_SMEM_CONFIG
#define NCU_MISMATCH_THEORETICAL OCC_PROFILE_NCU_MISMATCH_THEORETICAL
#define NCU_MISMATCH_WARPS OCC_PROFILE_NCU_MISMATCH_WARPS
#define NCU_MISMATCH_WAVES OCC_PROFILE_NCU_MISMATCH_WAVES
#define NCU_PAGE_DETAILS OCC_PROFILE_NCU_PAGE_DETAILS
#define NCU_PAGE_RAW OCC_PROFILE_NCU_PAGE_RAW
#define NCU_REGS OCC_PROFILE_NCU_REGS
#define NCU_SMEM_CONFIG OCC_PROFILE_NCU_SMEM_CONFIG
#define NCU_SM_COUNT OCC_PROFILE_NCU_SM_COUNT
#define NCU_STATIC_SMEM OCC_PROFILE_NCU_STATIC_SMEM
#define NCU_THEORETICAL_PCT OCC_PROFILE_NCU_THEORETICAL_PCT
#define NCU_THEORETICAL_WARPS OCC_PROFILE_NCU_THEORETICAL_WARPS
#define NCU_WAVES OCC_PROFILE_NCU_WAVES
#define NCU_WORD_BYTES OCC_PROFILE_NCU_WORD_BYTES
typedef occ_profile_ncu_cause ncu_cause;
typedef occ_profile_ncu_check ncu_check;
typedef occ_profile_ncu_field ncu_field;
typedef occ_profile_ncu_gap ncu_gap;
typedef occ_profile_ncu_gpu ncu_gpu;
typedef occ_profile_ncu_launch ncu_launch;
typedef occ_profile_ncu_mismatch ncu_mismatch;
typedef occ_profile_ncu_number ncu_number;
typedef occ_profile_ncu_page ncu_page;
typedef occ_profile_ncu_reader ncu_reader;
#define ncu_parse_number occ_profile_ncu_parse_number
#define ncu_mismatch_name occ_profile_ncu_mismatch_name
#define ncu_cause_name occ_profile_ncu_cause_name
#define ncu_gap_compute occ_profile_ncu_gap_compute
#define ncu_limit_names occ_profile_ncu_limit_names

/* occ explain's advice for the kernels met last, so that the launches of
   one kernel compute it once. */
typedef struct ncu_explain_cache ncu_explain_cache;
ncu_explain_cache *ncu_explain_cache_new(void); /* NULL when out of memory */
void ncu_explain_cache_free(ncu_explain_cache *cache);

/* The explanation and advice, paragraphs separated by "\n" (unwrapped):
   what binds, what the grid allows, what is left, what to change. `cache`
   may be NULL. Returns a malloc'd string, NULL when out of memory. */
char *ncu_explain(const ncu_launch *l, const ncu_check *c, const ncu_gap *g,
                  ncu_explain_cache *cache);

/* The kernel's name without return type, template arguments and
   parameters ("void at::foo<float>(int)" -> "at::foo"), into buf. */
const char *ncu_short_name(const char *name, char *buf, size_t cap);

/* A launch of the ranking: where it is and what the text needs again. */
typedef struct ncu_ranked {
    int file_index;
    long long order; /* launches read before it: of equal scores the earlier ranks first */
    long long id;
    double score;      /* duration (us) x gap (points), or the gap */
    ncu_launch launch; /* name points at short_name */
    char short_name[256];
    ncu_check check;
    ncu_gap gap;
} ncu_ranked;

/* One input file, after the first pass. */
typedef struct ncu_file_info {
    const char *path; /* as given; "<stdin>" for '-' */
    ncu_page page;
    long long launches;
    long long agreed;                /* launches without a mismatch */
    long long timed;                 /* launches with a duration */
    char gpu[OCC_DEVICE_NAME_BYTES]; /* libocc's GPU for the first launch */
    int sm_count;                    /* the first launch's SMs */
    long long skipped_lines;         /* lines before the header, skipped */
} ncu_file_info;

/* Everything the output needs about the run, known after the first pass. */
typedef struct ncu_summary {
    int file_count;
    ncu_file_info *files;
    long long launches;
    long long agreed;
    long long mismatch_counts[NCU_MISMATCH_KINDS]; /* by bit number */
    bool by_time;             /* every launch had a duration: ranked by time x gap */
    const char *untimed_file; /* else a file with a launch without one */
    ncu_ranked *top;          /* the ranking, best first */
    int top_count;
} ncu_summary;

/* Text: the summary and the ranking with explanations. */
void ncu_print_text_summary(FILE *out, const ncu_summary *s);
/* Text: one file's heading and the table head; one row per launch. */
void ncu_print_text_file(FILE *out, const ncu_summary *s, int file_index);
void ncu_print_text_row(FILE *out, const ncu_launch *l, const ncu_check *c, const ncu_gap *g);

/* JSON (schema occ.ncu): the document's head, one kernel, the end. */
struct json_stream;
void ncu_json_begin(struct json_stream *js, const ncu_summary *s);
void ncu_json_kernel(struct json_stream *js, const ncu_summary *s, int file_index,
                     const ncu_launch *l, const ncu_check *c, const ncu_gap *g, bool first,
                     ncu_explain_cache *cache);
void ncu_json_end(struct json_stream *js);

#endif /* OCC_CLI_NCU_H */
