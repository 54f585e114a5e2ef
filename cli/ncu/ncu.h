/*
 * ncu.h - `occ ncu`: Nsight Compute exports read, checked against libocc and
 * explained. The reader and the check are libocc-profile's
 * (include/occ_profile.h, occ_profile_ncu_*; profile/formats/ncu_*.c,
 * profile/engine/ncu_*.c), the gap model libocc's (occ_achieved_gap);
 * ncu_gap.c explains the achieved occupancy; ncu_text.c and ncu_json.c print.
 */
#ifndef OCC_CLI_NCU_H
#define OCC_CLI_NCU_H

#include <stdbool.h>
#include <stdio.h>

#include "cli.h"
#include "occ_profile.h"

/* occ explain's advice for the kernels met last, so that the launches of
   one kernel compute it once. */
typedef struct ncu_explain_cache ncu_explain_cache;
ncu_explain_cache *ncu_explain_cache_new(void); /* NULL when out of memory */
void ncu_explain_cache_free(ncu_explain_cache *cache);

/* The explanation and advice, paragraphs separated by "\n" (unwrapped):
   what binds, what the grid allows, what is left, what to change. `cache`
   may be NULL. Returns a malloc'd string, NULL when out of memory. */
char *ncu_explain(const occ_profile_ncu_launch *l, const occ_profile_ncu_check *c,
                  const occ_gap_result *g, ncu_explain_cache *cache);

/* The kernel's name without return type, template arguments and
   parameters ("void at::foo<float>(int)" -> "at::foo"), into buf. */
const char *ncu_short_name(const char *name, char *buf, size_t cap);

/* A launch of the ranking: where it is and what the text needs again. */
typedef struct ncu_ranked {
    int file_index;
    long long order; /* launches read before it: of equal scores the earlier ranks first */
    long long id;
    double score;                  /* duration (us) x gap (points), or the gap */
    occ_profile_ncu_launch launch; /* name points at short_name */
    char short_name[256];
    occ_profile_ncu_check check;
    occ_gap_result gap;
} ncu_ranked;

/* One input file, after the first pass. */
typedef struct ncu_file_info {
    const char *path; /* as given; "<stdin>" for '-' */
    occ_profile_ncu_page page;
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
    long long mismatch_counts[OCC_PROFILE_NCU_MISMATCH_KINDS]; /* by bit number */
    bool by_time;             /* every launch had a duration: ranked by time x gap */
    const char *untimed_file; /* else a file with a launch without one */
    ncu_ranked *top;          /* the ranking, best first */
    int top_count;
} ncu_summary;

/* Text: the summary and the ranking with explanations. */
void ncu_print_text_summary(FILE *out, const ncu_summary *s);
/* Text: one file's heading and the table head; one row per launch. */
void ncu_print_text_file(FILE *out, const ncu_summary *s, int file_index);
void ncu_print_text_row(FILE *out, const occ_profile_ncu_launch *l, const occ_profile_ncu_check *c,
                        const occ_gap_result *g);

/* JSON (schema occ.ncu): the document's head, one kernel, the end. */
struct json_stream;
void ncu_json_begin(struct json_stream *js, const ncu_summary *s);
void ncu_json_kernel(struct json_stream *js, const ncu_summary *s, int file_index,
                     const occ_profile_ncu_launch *l, const occ_profile_ncu_check *c,
                     const occ_gap_result *g, bool first, ncu_explain_cache *cache);
void ncu_json_end(struct json_stream *js);

#endif /* OCC_CLI_NCU_H */
