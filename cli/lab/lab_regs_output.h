/*
 * lab_regs_output.h - how `occ lab regs` presents the regret table: text
 * (the table of docs/results/regs-h200/regret-v1.txt), Markdown
 * (lab_regs_text.c) or the occ.lab.regs JSON document (lab_regs_json.c).
 */
#ifndef OCC_CLI_LAB_REGS_OUTPUT_H
#define OCC_CLI_LAB_REGS_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>

#include "lab_regs_records.h"
#include "regs_regret.h"

/* The version of the occ.lab.regs document (docs/json.md). */
#define LAB_REGS_SCHEMA_VERSION 1

typedef enum lab_regs_format { LAB_REGS_TEXT, LAB_REGS_MARKDOWN, LAB_REGS_JSON } lab_regs_format;

/* Everything a presentation shows. */
typedef struct lab_regs_view {
    const lab_regs_analysis *analysis;
    const lab_regs_data *data;
    const lab_regs_options *options;
    const char *const *files; /* the records read */
    int file_count;
    const char *recommended; /* where the recommendations came from; NULL: none */
    bool per_cap;            /* every cap of every kernel too */
} lab_regs_view;

void lab_regs_print_text(FILE *out, const lab_regs_view *v);
void lab_regs_print_markdown(FILE *out, const lab_regs_view *v);
void lab_regs_print_json(FILE *out, const lab_regs_view *v);

/* What a presentation shares. */
const char *lab_regs_metric_name(lab_regs_metric metric); /* "median_ms" */
/* A regret or ratio as the tables show it: "12.3%", "-1.0%", "inf". */
const char *lab_regs_pct(double x, char *buf, size_t cap);
/* Why a kernel's recommendation misses, in words ("" when it does not). */
const char *lab_regs_miss_text(const lab_regs_row *row, char *buf, size_t cap);

#endif /* OCC_CLI_LAB_REGS_OUTPUT_H */
