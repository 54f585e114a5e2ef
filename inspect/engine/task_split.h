/*
 * task_split.h - an input split into tasks by its format (task_split.c):
 * one per fatbin entry, so that one large container does not keep a thread
 * busy while the others wait, and parts of the data sections to scan for
 * containers kept outside .nv_fatbin.
 */
#ifndef OCC_INSPECT_TASK_SPLIT_H
#define OCC_INSPECT_TASK_SPLIT_H

#include <stdbool.h>
#include <stddef.h>

#include "collector.h"

/* Splits file bytes [base, base + size), one input of `format` (a whole
   file, or a member of an archive), into tasks. Error offsets count from
   the file's start. */
bool collect_split_region(collector *c, insp_format format, size_t base, size_t size,
                          insp_error *err);

/* After the scan round: the containers found in each section (those inside
   an earlier one dropped, as insp_host_elf_fatbins does) become entry tasks.
   Scan tasks are in file order, so each section's parts follow each other.
   *file is the input that failed. */
bool collect_add_scanned_containers(collector *c, size_t scan_end, insp_error *err, int *file);

#endif /* OCC_INSPECT_TASK_SPLIT_H */
