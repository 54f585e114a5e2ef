/*
 * budget.c - the reading budget of the whole process (budget.h). One lock
 * guards the stream bytes and the pool of large buffers of every read under
 * way; a buffer given back wakes whoever waits for room, whichever read it
 * belongs to. No read waits while holding a pooled buffer, and a stream is
 * copied before its read takes any, so every wait ends.
 */
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

#include "budget.h"
#include "occ_inspect.h"

#define POOL_BUFFERS 32

typedef struct large_buffer {
    uint8_t *data;
    size_t capacity;
    bool in_use;
} large_buffer;

static struct {
    pthread_mutex_t lock;
    pthread_cond_t freed;
    large_buffer pool[POOL_BUFFERS]; /* data NULL: an empty slot */
    size_t pool_bytes;               /* capacity of every pooled buffer */
    size_t in_use_bytes;             /* capacity of the pooled buffers being used */
    size_t stream_bytes;             /* held by stream copies */
} budget = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, {{NULL, 0, false}}, 0, 0, 0};

static double now_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Whether `bytes` more of pool fit beside the streams and the pool. */
static bool pool_fits(size_t bytes)
{
    return budget.pool_bytes + bytes <= INSP_POOL_BUDGET_BYTES &&
           budget.pool_bytes + budget.stream_bytes + bytes <= OCC_INSPECT_MEMORY_BUDGET_BYTES;
}

/* Frees unused pooled buffers, largest first, until `bytes` more of pool
   fit or none is left to free. Called with the lock held. */
static void shrink_pool(size_t bytes)
{
    while (!pool_fits(bytes)) {
        int largest = -1;
        for (int i = 0; i < POOL_BUFFERS; i++) {
            const large_buffer *b = &budget.pool[i];
            if (b->data != NULL && !b->in_use &&
                (largest < 0 || b->capacity > budget.pool[largest].capacity)) {
                largest = i;
            }
        }
        if (largest < 0) {
            return;
        }
        /* the slot empties in place: other threads hold indices into the pool */
        free(budget.pool[largest].data);
        budget.pool_bytes -= budget.pool[largest].capacity;
        budget.pool[largest] = (large_buffer){NULL, 0, false};
    }
}

static int empty_slot(void)
{
    for (int i = 0; i < POOL_BUFFERS; i++) {
        if (budget.pool[i].data == NULL) {
            return i;
        }
    }
    return -1;
}

size_t insp_budget_stream_bytes(void)
{
    pthread_mutex_lock(&budget.lock);
    size_t held = budget.stream_bytes;
    pthread_mutex_unlock(&budget.lock);
    return held;
}

bool insp_budget_stream_take(size_t bytes)
{
    pthread_mutex_lock(&budget.lock);
    bool ok = false;
    while (budget.stream_bytes + bytes <= OCC_INSPECT_MAX_STREAM_BYTES) {
        size_t total = budget.stream_bytes + bytes;
        /* the unused buffers go first; buffers in use come back */
        if (budget.pool_bytes + total > OCC_INSPECT_MEMORY_BUDGET_BYTES) {
            shrink_pool(SIZE_MAX / 2);
        }
        if (budget.pool_bytes + total <= OCC_INSPECT_MEMORY_BUDGET_BYTES) {
            budget.stream_bytes = total;
            ok = true;
            break;
        }
        pthread_cond_wait(&budget.freed, &budget.lock);
    }
    pthread_mutex_unlock(&budget.lock);
    return ok;
}

void insp_budget_stream_give(size_t bytes)
{
    pthread_mutex_lock(&budget.lock);
    budget.stream_bytes -= bytes < budget.stream_bytes ? bytes : budget.stream_bytes;
    pthread_cond_broadcast(&budget.freed);
    pthread_mutex_unlock(&budget.lock);
}

int insp_pool_acquire(size_t bytes, bool wait, double *waited, uint8_t **data, size_t *capacity)
{
    pthread_mutex_lock(&budget.lock);
    int got = -1;
    for (;;) {
        for (int i = 0; i < POOL_BUFFERS; i++) {
            const large_buffer *b = &budget.pool[i];
            if (b->data != NULL && !b->in_use && b->capacity >= bytes &&
                (got < 0 || b->capacity < budget.pool[got].capacity)) {
                got = i;
            }
        }
        if (got >= 0) {
            break;
        }
        bool alone = budget.in_use_bytes == 0;
        if (alone || budget.in_use_bytes + bytes <= INSP_POOL_BUDGET_BYTES) {
            shrink_pool(bytes);
            int slot = empty_slot();
            if (slot < 0) {
                shrink_pool(SIZE_MAX / 2); /* every slot holds an unused buffer */
                slot = empty_slot();
            }
            /* larger than the budget: only where nothing else is held, so
               that the entry is still read */
            bool room = pool_fits(bytes) || (alone && budget.stream_bytes == 0);
            if (alone && !room) {
                got = INSP_POOL_OVER_BUDGET; /* streams hold the rest until their reads end */
                break;
            }
            uint8_t *fresh = slot >= 0 && room ? malloc(bytes) : NULL;
            if (fresh != NULL) {
                got = slot;
                budget.pool[got] = (large_buffer){fresh, bytes, false};
                budget.pool_bytes += bytes;
                break;
            }
            if (room && (slot >= 0 || alone)) {
                got = INSP_POOL_OUT_OF_MEMORY;
                break;
            }
        }
        if (!wait) {
            got = INSP_POOL_BUSY;
            break;
        }
        double asleep = now_seconds();
        pthread_cond_wait(&budget.freed, &budget.lock);
        *waited += now_seconds() - asleep;
    }
    if (got >= 0) {
        budget.pool[got].in_use = true;
        budget.in_use_bytes += budget.pool[got].capacity;
        *data = budget.pool[got].data;
        *capacity = budget.pool[got].capacity;
    }
    pthread_mutex_unlock(&budget.lock);
    return got;
}

void insp_pool_release(int index)
{
    pthread_mutex_lock(&budget.lock);
    budget.pool[index].in_use = false;
    budget.in_use_bytes -= budget.pool[index].capacity;
    pthread_cond_broadcast(&budget.freed);
    pthread_mutex_unlock(&budget.lock);
}

void insp_pool_trim(void)
{
    pthread_mutex_lock(&budget.lock);
    for (int i = 0; i < POOL_BUFFERS; i++) {
        large_buffer *b = &budget.pool[i];
        if (b->data != NULL && !b->in_use) {
            free(b->data);
            budget.pool_bytes -= b->capacity;
            *b = (large_buffer){NULL, 0, false};
        }
    }
    pthread_mutex_unlock(&budget.lock);
}
