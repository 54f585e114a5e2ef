/*
 * row_sink.h - the sink the readers of inspect/formats/ report to
 * (row_sink.c): each function read becomes a worker's row, with its
 * occupancy; entries without code are counted by kind and arch.
 */
#ifndef OCC_INSPECT_ROW_SINK_H
#define OCC_INSPECT_ROW_SINK_H

#include "collector.h"

/* insp_sink.function, context a worker: a function's row, unless the
   options filter it out; a function beyond its arch's limits fails the read. */
void collect_on_function(void *context, const insp_function *f);

/* insp_sink.entry, context a worker: counts the entries skipped and those
   without cubin (PTX, LTO IR) by kind and arch. */
void collect_on_entry(void *context, const insp_entry *e);

#endif /* OCC_INSPECT_ROW_SINK_H */
