/*
 * collector.h - the state of one occ_inspect_read that its files share
 * (collector.c): the inputs, the tasks they are split into, the threads'
 * workers, the section names, and the first failure of any thread.
 * Internal to collect.c and the files it is split into.
 */
#ifndef OCC_INSPECT_COLLECTOR_H
#define OCC_INSPECT_COLLECTOR_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

#include "engine.h"
#include "input_file.h"

typedef enum task_kind {
    TASK_WHOLE = 0, /* a ptxas log or a cubin file */
    TASK_ENTRY = 1, /* one fatbin entry */
    TASK_SCAN = 2   /* part of a data section, to scan for containers */
} task_kind;

typedef struct candidate {
    size_t offset;
    size_t size;
} candidate;

typedef struct task {
    task_kind kind;
    int file;
    int section;   /* collector.section_names index, or -1 */
    size_t offset; /* file bytes [offset, offset + size) */
    size_t size;
    size_t section_offset; /* TASK_SCAN: the whole section */
    size_t section_size;
    size_t base;         /* where the archive member (or file) the task is in starts:
                            containers are scanned for at 8-byte steps from there */
    size_t work;         /* bytes it reads (decompressed size of a compressed
                            entry): sets the order of the run (compare_work) */
    atomic_bool started; /* the sweep may pass it (collect_drop_started_tasks) */
    candidate *found;    /* TASK_SCAN: containers found, in file order */
    size_t found_count, found_cap;
} task;

typedef struct worker {
    struct collector *c;
    pthread_t thread;
    inspect_row *rows;
    size_t row_count, row_cap;
    size_t functions_read;
    double pool_wait_seconds;
    occ_inspect_no_data nodata[INSPECT_MAX_NO_DATA];
    int nodata_count;
    int entries_skipped;
    insp_scratch scratch;
    int section;        /* of the task being read */
    int file;           /* of the task being read */
    size_t task_offset; /* where the task's buffer starts in its file */
    bool exact_offsets; /* functions' offsets are in the file (not in a
                           decompressed entry): add them to task_offset */
    bool failed;        /* out of memory */
} worker;

/* An archive member with code, so that an error found later, on a thread,
   can name it. */
#define MEMBER_NAME_BYTES 80
typedef struct member_span {
    int file;
    size_t offset, size;
    char name[MEMBER_NAME_BYTES];
} member_span;

typedef struct collector {
    const occ_inspect_options *opts;
    insp_filter filter; /* the options' arch, as the readers take it */
    input_file *files;
    task *tasks;
    size_t task_count, task_cap;
    size_t round_start; /* tasks [round_start, task_count) are this round's */
    size_t *run_order;  /* this round's task indices, in the order compare_work sets */
    atomic_size_t next_task;
    /* Forgetting the pages of finished tasks (collect_drop_started_tasks): */
    pthread_mutex_t drop_lock;
    size_t sweep_next; /* tasks before this (in file order) are swept */
    int sweep_file;    /* the pending span of file bytes, not yet forgotten */
    size_t sweep_from, sweep_to;
    atomic_bool failed;
    pthread_mutex_t error_lock;
    occ_inspect_error error; /* the first failure */
    long page_bytes;
    inspect_names *names;        /* every function name, once */
    pthread_mutex_t budget_lock; /* guards deferred */
    size_t *deferred;            /* task indices set aside this round (budget_lock) */
    size_t deferred_count;
    char **section_names; /* section_count of section_cap, at most section_limit */
    int section_count, section_cap, section_limit;
    int *section_slots; /* hash table of section_names indices (-1: empty) */
    size_t slot_count;  /* a power of two, at least twice section_cap */
    /* set while one file is split into tasks */
    int file;
    int section;
    size_t member_base;   /* where the archive member being split starts (0: a file) */
    member_span *members; /* archive members with code, in file order */
    size_t member_count, member_cap;
    size_t drop_from;      /* pages before this are already forgotten */
    int jobs;              /* threads */
    bool walk_drops_swept; /* splitting an archive member: its walked pages
                              are forgotten by split_members, per chunk */
} collector;

/* Keeps the first failure of any thread; the others stop at their next task. */
void collect_set_error(collector *c, occ_status status, int file, size_t offset,
                       const char *message);

/* The first failure of the threads, with its input's path in front. */
occ_status collect_failure(const collector *c, occ_inspect_error *err);

/* A new task of c->file (in c->section, in the member at c->member_base),
   its work its size; NULL, with the failure set, when out of memory. */
task *collect_add_task(collector *c, task_kind kind, size_t offset, size_t size);

#endif /* OCC_INSPECT_COLLECTOR_H */
