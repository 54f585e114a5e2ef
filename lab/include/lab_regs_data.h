/*
 * lab_regs_data.h - occ-regs-bench's records (lab/regs/regs_bench.cu), one
 * JSON object a line, from one or more files (rounds may come as files of
 * their own), gathered per kernel for the regret analysis (regs_regret.h).
 * The records carry no format version: a newer runner adds fields and
 * kinds, which this reader skips. docs/regs.md describes every record and
 * what is refused.
 */
#ifndef OCC_LAB_REGS_DATA_H
#define OCC_LAB_REGS_DATA_H

#include <stdbool.h>
#include <stdio.h>

#include "lab_error.h"
#include "lab_lines.h" /* LAB_MAX_LINE_BYTES */
#include "regs_regret.h"

/* Limits: far above the runner's (128 kernels, 8192 timings a run). */
#define LAB_REGS_MAX_KERNELS 1024
#define LAB_REGS_MAX_RECORDS (1 << 20) /* over every file */
#define LAB_REGS_MAX_ROUND 100
#define LAB_REGS_NAME_BYTES 128  /* a kernel's name, with its NUL */
#define LAB_REGS_CUBIN_BYTES 256 /* a cubin's file name, with its NUL */

/* The run's regs_header (the last of the first file that has one). */
typedef struct lab_regs_header {
    bool present;
    int file;        /* the file it came from */
    char device[64]; /* "" when absent */
    char driver[64];
    /* -1: absent */
    long long cuda_driver_version, sm_count, n, warmups, runs, rounds;
    int distinct; /* -1 absent, 0, 1 */
} lab_regs_header;

/* What a record says beside the analysis's fields. */
typedef struct lab_regs_meta {
    int round; /* 1-based; 1 when the record has none */
    int file;  /* 0-based, in reading order */
    int line;
    char cubin[LAB_REGS_CUBIN_BYTES]; /* "" when the record names none */
} lab_regs_meta;

typedef struct lab_regs_kernel_data {
    char name[LAB_REGS_NAME_BYTES];
    lab_regs_record *records;
    lab_regs_meta *meta; /* one a record */
    int count, allocated;
    /* the launch, from its first regs_time (occ-regs-bench copies it from
       kernels.tsv): what occ regs computes the recommendation at */
    bool has_launch;
    int threads, dyn_smem_bytes;
    char arch[16]; /* "sm_90a" */
    /* what occ regs says (lab_regs_recommend.h) */
    bool has_recommendation;
    int recommended_cap;
    bool has_candidates;
    int *candidates;
    int candidate_count;
} lab_regs_kernel_data;

typedef struct lab_regs_data {
    lab_regs_header header;
    lab_regs_kernel_data *kernels; /* in the order first seen */
    int kernel_count, kernels_allocated;
    long record_count;
    int files;
    /* the first regs_error that names no kernel: the run itself failed
       (no GPU, an unreadable table or cubin folder) */
    char run_error[512];
    char run_error_stage[32];
} lab_regs_data;

/* Zeroes *data; free it with lab_regs_data_free. */
void lab_regs_data_init(lab_regs_data *data);
void lab_regs_data_free(lab_regs_data *data);

/* Reads one file of records from `in` into *data, after what earlier files
   added; `name` names the input in errors ("regs-times.jsonl", "<stdin>").
   Blank lines and unknown record kinds are skipped (a newer runner); a line
   over LAB_MAX_LINE_BYTES, a NUL byte, a line that is not a JSON object, a
   field of the wrong type or out of range, and a second record of one cubin
   in one round of one file are refused: false, with *err naming the file,
   the line and the value. */
bool lab_regs_data_read(FILE *in, const char *name, lab_regs_data *data, lab_error *err);

/* The kernel of that name, or NULL. */
lab_regs_kernel_data *lab_regs_kernel_find(lab_regs_data *data, const char *name);

#endif /* OCC_LAB_REGS_DATA_H */
