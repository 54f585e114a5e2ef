/*
 * archive_split.h - a static archive split into tasks (archive_split.c):
 * its members walked, then split on several threads in chunks, each member
 * as the file it was (task_split.h).
 */
#ifndef OCC_INSPECT_ARCHIVE_SPLIT_H
#define OCC_INSPECT_ARCHIVE_SPLIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "collector.h"

/* Splits the archive at file bytes [base, base + size) of c->file into
   tasks; an error names the member. Its pages are forgotten after. */
bool collect_split_archive(collector *c, const uint8_t *data, size_t base, size_t size,
                           insp_error *err);

#endif /* OCC_INSPECT_ARCHIVE_SPLIT_H */
