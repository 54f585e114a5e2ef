/*
 * names.c - one copy of each distinct function name.
 *
 * A library lists the same kernel once per arch (libtorch_cuda.so: 128,276
 * functions, about 21,000 distinct names over twelve archs), so names are
 * kept once, in a table the reading threads share, and each is demangled
 * once, after the reading, on every thread. The table also gives every name
 * its rank in printed-name order, so that sorting rows compares integers
 * rather than long templated names.
 *
 * The table is split into shards, each with its own lock, so that sixteen
 * threads adding names rarely wait for each other.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"

#define NAME_SHARDS 64 /* a power of two: the low hash bits pick one */
#define NAME_BLOCK_BYTES (256u << 10)
#define DEMANGLE_CHUNK 64 /* names a thread takes at a time */

typedef struct name_block {
    struct name_block *next;
    size_t used;
    size_t cap;
    _Alignas(max_align_t) char bytes[];
} name_block;

typedef struct name_shard {
    pthread_mutex_t lock;
    inspect_name **slots; /* open addressing, linear probing; NULL: empty */
    size_t cap;           /* a power of two, or 0 */
    size_t count;
    name_block *blocks; /* where the entries and their bytes live */
} name_shard;

struct inspect_names {
    name_shard shards[NAME_SHARDS];
    inspect_name **all; /* every name, in printed order, after finish */
    size_t count;
};

uint64_t inspect_name_hash(const char *name, size_t len)
{
    /* FNV-1a, 64-bit; the identity hash of a row continues from it */
    uint64_t h = 14695981039346656037ull;
    for (size_t i = 0; i < len; i++) {
        h = (h ^ (unsigned char)name[i]) * 1099511628211ull;
    }
    return h;
}

inspect_names *inspect_names_create(void)
{
    inspect_names *t = calloc(1, sizeof *t);
    if (t == NULL) {
        return NULL;
    }
    for (int i = 0; i < NAME_SHARDS; i++) {
        pthread_mutex_init(&t->shards[i].lock, NULL);
    }
    return t;
}

/* `bytes` from the shard's blocks, aligned for an inspect_name. */
static void *shard_alloc(name_shard *s, size_t bytes)
{
    bytes = (bytes + _Alignof(max_align_t) - 1) / _Alignof(max_align_t) * _Alignof(max_align_t);
    if (s->blocks == NULL || s->blocks->cap - s->blocks->used < bytes) {
        size_t cap = bytes > NAME_BLOCK_BYTES ? bytes : NAME_BLOCK_BYTES;
        name_block *b = malloc(sizeof *b + cap);
        if (b == NULL) {
            return NULL;
        }
        b->next = s->blocks;
        b->used = 0;
        b->cap = cap;
        s->blocks = b;
    }
    void *out = s->blocks->bytes + s->blocks->used;
    s->blocks->used += bytes;
    return out;
}

static bool shard_grow(name_shard *s)
{
    size_t cap = s->cap > 0 ? s->cap * 2 : 256;
    inspect_name **slots = calloc(cap, sizeof *slots);
    if (slots == NULL) {
        return false;
    }
    for (size_t i = 0; i < s->cap; i++) {
        inspect_name *n = s->slots[i];
        if (n != NULL) {
            /* the shard took the low bits; probe with the ones above them */
            size_t at = (size_t)(n->hash >> 6) & (cap - 1);
            while (slots[at] != NULL) {
                at = (at + 1) & (cap - 1);
            }
            slots[at] = n;
        }
    }
    free(s->slots);
    s->slots = slots;
    s->cap = cap;
    return true;
}

const inspect_name *inspect_names_add(inspect_names *t, const char *name, size_t len, uint64_t hash)
{
    name_shard *s = &t->shards[hash & (NAME_SHARDS - 1)];
    pthread_mutex_lock(&s->lock);
    inspect_name *found = NULL;
    if (s->cap > 0) {
        for (size_t at = (size_t)(hash >> 6) & (s->cap - 1); s->slots[at] != NULL;
             at = (at + 1) & (s->cap - 1)) {
            inspect_name *n = s->slots[at];
            if (n->hash == hash && n->length == len && memcmp(n->mangled, name, len) == 0) {
                found = n;
                break;
            }
        }
    }
    if (found == NULL && ((s->count + 1) * 2 <= s->cap || shard_grow(s))) {
        inspect_name *n = shard_alloc(s, sizeof *n + len + 1);
        if (n != NULL) {
            char *copy = (char *)(n + 1);
            memcpy(copy, name, len);
            copy[len] = '\0';
            *n = (inspect_name){copy, copy, NULL, hash, 0, len};
            size_t at = (size_t)(hash >> 6) & (s->cap - 1);
            while (s->slots[at] != NULL) {
                at = (at + 1) & (s->cap - 1);
            }
            s->slots[at] = n;
            s->count++;
            found = n;
        }
    }
    pthread_mutex_unlock(&s->lock);
    return found;
}

typedef struct demangle_work {
    inspect_names *t;
    atomic_size_t next; /* the first name no thread has taken */
} demangle_work;

static void *demangle_some(void *context)
{
    demangle_work *w = context;
    inspect_names *t = w->t;
    for (;;) {
        size_t from = atomic_fetch_add(&w->next, DEMANGLE_CHUNK);
        if (from >= t->count) {
            return NULL;
        }
        size_t to = t->count - from < DEMANGLE_CHUNK ? t->count : from + DEMANGLE_CHUNK;
        for (size_t i = from; i < to; i++) {
            char *printed = inspect_demangle(t->all[i]->mangled);
            if (printed != NULL) {
                t->all[i]->demangled = printed;
                t->all[i]->printed = printed;
            }
        }
    }
}

static int by_printed(const void *a, const void *b)
{
    const inspect_name *x = *(inspect_name *const *)a;
    const inspect_name *y = *(inspect_name *const *)b;
    return strcmp(x->printed, y->printed);
}

bool inspect_names_finish(inspect_names *t, bool demangle, int jobs)
{
    size_t total = 0;
    for (int i = 0; i < NAME_SHARDS; i++) {
        total += t->shards[i].count;
    }
    t->all = malloc((total > 0 ? total : 1) * sizeof *t->all);
    if (t->all == NULL) {
        return false;
    }
    for (int i = 0; i < NAME_SHARDS; i++) {
        const name_shard *s = &t->shards[i];
        for (size_t k = 0; k < s->cap; k++) {
            if (s->slots[k] != NULL) {
                t->all[t->count++] = s->slots[k];
            }
        }
    }
    if (demangle) {
        demangle_work work = {t, 0};
        pthread_t *helpers = jobs > 1 ? calloc((size_t)jobs - 1, sizeof *helpers) : NULL;
        int started = 0;
        while (helpers != NULL && started < jobs - 1 &&
               pthread_create(&helpers[started], NULL, demangle_some, &work) == 0) {
            started++;
        }
        demangle_some(&work);
        for (int i = 0; i < started; i++) {
            pthread_join(helpers[i], NULL);
        }
        free(helpers);
    }
    qsort(t->all, t->count, sizeof *t->all, by_printed);
    for (size_t i = 0; i < t->count; i++) {
        /* equal printed names (two mangled names, one demangled form) share a rank */
        t->all[i]->rank = i > 0 && strcmp(t->all[i - 1]->printed, t->all[i]->printed) == 0
                              ? t->all[i - 1]->rank
                              : (uint32_t)i;
    }
    return true;
}

size_t inspect_names_count(const inspect_names *t)
{
    size_t total = 0;
    for (int i = 0; i < NAME_SHARDS; i++) {
        total += t->shards[i].count;
    }
    return total;
}

void inspect_names_free(inspect_names *t)
{
    if (t == NULL) {
        return;
    }
    for (int i = 0; i < NAME_SHARDS; i++) {
        name_shard *s = &t->shards[i];
        for (size_t k = 0; k < s->cap; k++) {
            if (s->slots[k] != NULL) {
                free(s->slots[k]->demangled);
            }
        }
        free(s->slots);
        while (s->blocks != NULL) {
            name_block *b = s->blocks;
            s->blocks = b->next;
            free(b);
        }
        pthread_mutex_destroy(&s->lock);
    }
    free(t->all);
    free(t);
}
