/*
 * collector.c - what every part of a read records in the collector
 * (collector.h): its tasks, and the first failure of any thread.
 */
#include <stdlib.h>
#include <string.h>

#include "collector.h"

void collect_set_error(collector *c, occ_status status, int file, size_t offset,
                       const char *message)
{
    pthread_mutex_lock(&c->error_lock);
    if (!atomic_load(&c->failed)) {
        inspect_fail(&c->error, status, file, (long long)offset, "%s", message);
        atomic_store(&c->failed, true);
    }
    pthread_mutex_unlock(&c->error_lock);
}

occ_status collect_failure(const collector *c, occ_inspect_error *err)
{
    const occ_inspect_error *e = &c->error;
    for (size_t i = 0; i < c->member_count; i++) {
        const member_span *m = &c->members[i];
        if (m->file == e->input && e->offset >= 0 && (size_t)e->offset >= m->offset &&
            (size_t)e->offset - m->offset < m->size) {
            return inspect_fail(err, e->status, e->input, e->offset,
                                "%s: offset %lld: member %s: %s", c->files[e->input].path,
                                e->offset, m->name, e->message);
        }
    }
    return inspect_fail(err, e->status, e->input, e->offset, "%s: offset %lld: %s",
                        c->files[e->input].path, e->offset, e->message);
}

task *collect_add_task(collector *c, task_kind kind, size_t offset, size_t size)
{
    if (c->task_count == c->task_cap) {
        size_t cap = c->task_cap > 0 ? c->task_cap * 2 : 256;
        task *bigger = realloc(c->tasks, cap * sizeof *bigger);
        if (bigger == NULL) {
            collect_set_error(c, OCC_ERR_OUT_OF_MEMORY, c->file, 0, "out of memory");
            return NULL;
        }
        c->tasks = bigger;
        c->task_cap = cap;
    }
    task *t = &c->tasks[c->task_count++];
    memset(t, 0, sizeof *t);
    t->kind = kind;
    t->file = c->file;
    t->section = c->section;
    t->offset = offset;
    t->size = size;
    t->base = c->member_base;
    t->work = size;
    return t;
}
