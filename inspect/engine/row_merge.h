/*
 * row_merge.h - the workers' rows and counts gathered into the result
 * (row_merge.c), identical functions found in several places merged into
 * one row.
 */
#ifndef OCC_INSPECT_ROW_MERGE_H
#define OCC_INSPECT_ROW_MERGE_H

#include <stdbool.h>

#include "collector.h"

/* Moves the rows of workers[0, count) into out->rows (each worker's freed
   as copied), merges duplicates, and sums the counts and timings. False
   when out of memory. */
bool collect_merge_workers(worker *workers, int count, occ_inspect_result *out);

#endif /* OCC_INSPECT_ROW_MERGE_H */
