/*
 * entry_read.h - one fatbin entry read by a worker (entry_read.c), a large
 * one in a buffer from the pool the process shares (budget.h).
 */
#ifndef OCC_INSPECT_ENTRY_READ_H
#define OCC_INSPECT_ENTRY_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "collector.h"

/* A buffer larger than this is released after each task, so that sixteen
   threads do not each keep the largest entry they ever saw. */
#define SCRATCH_KEEP_BYTES (2u << 20)

/* Reads one fatbin entry, a large one in a pooled buffer: the size of a
   part read where the entry is read in part (fatbin.c), and, should that
   find the entry must be read whole, then a whole one. Returns true with
   *deferred set where the pool is full and `wait` is not set. */
bool collect_read_entry(worker *w, const uint8_t *data, size_t size, bool wait, bool *deferred,
                        insp_error *err);

#endif /* OCC_INSPECT_ENTRY_READ_H */
