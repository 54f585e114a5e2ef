/*
 * thread_pool.h - runs a round of tasks on the workers' threads
 * (thread_pool.c).
 */
#ifndef OCC_INSPECT_THREAD_POOL_H
#define OCC_INSPECT_THREAD_POOL_H

#include "collector.h"

/* Runs tasks [round_start, task_count) on up to `jobs` threads, the very
   large ones first (compare_work). */
occ_status collect_run_round(collector *c, worker *workers, int jobs, occ_inspect_error *err);

#endif /* OCC_INSPECT_THREAD_POOL_H */
