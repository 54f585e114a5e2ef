/*
 * page_sweep.h - keeping the memory of mapped inputs small (page_sweep.c):
 * the pages of each entry or scanned part are forgotten once read
 * (MADV_DONTNEED on a read-only private file mapping only forgets them; a
 * later read maps them again from the page cache), in steps rather than one
 * system call per task.
 */
#ifndef OCC_INSPECT_PAGE_SWEEP_H
#define OCC_INSPECT_PAGE_SWEEP_H

#include <stdbool.h>
#include <stddef.h>

#include "collector.h"

/* Pages are forgotten in steps of this size (the walk over entry headers,
   the sweep behind the tasks) rather than one system call per entry: each
   call sends a TLB shootdown to every core. 8 MiB rather than 16: a 418 MB
   archive of 20,000 members peaked at 131 MB rather than 134 to 146 MB at
   --jobs 16 (2-core build machine), at no cost in time. */
#define DROP_STEP_BYTES (8u << 20)

/* Forgets the pages wholly inside [offset, offset + size) of a mapped file. */
void collect_drop_pages(const collector *c, const input_file *file, size_t offset, size_t size);

/* Forgets the pages of started tasks, in file order (page_sweep.c says
   how); `all`: waits for another sweep to end, and forgets the last span. */
void collect_drop_started_tasks(collector *c, bool all);

/* A task starts: the sweep may pass it from now on. */
void collect_start_task(collector *c, task *t);

/* A task is finished: a large one forgets its own pages. */
void collect_finish_task(collector *c, const task *t);

/* Forgets the walked pages of c->file before `offset` once DROP_STEP_BYTES
   have gathered, or at once when `now`. */
void collect_drop_walked(collector *c, size_t offset, bool now);

#endif /* OCC_INSPECT_PAGE_SWEEP_H */
