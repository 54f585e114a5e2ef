/*
 * archive_split.c - a static archive's members split into tasks
 * (archive_split.h), in chunks on up to c->jobs threads.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "archive_split.h"
#include "page_sweep.h"
#include "section_names.h"
#include "task_split.h"

/* An archive chunk keeps more, so that it never drops a name the
   collector would keep (take_chunk_tasks numbers them as a serial split
   does): 64 members with their own .rodata.* names can pass 256. */
#define CHUNK_MAX_SECTIONS 8192

typedef struct member_walk {
    size_t dropped_to; /* the archive's pages before this are forgotten */
    collector *c;
    insp_error *err;
    bool ok;
} member_walk;

/* Records an archive member; they are split after the walk (split_members). */
static void add_member(void *context, const char *name, size_t name_len, size_t offset, size_t size)
{
    member_walk *walk = context;
    collector *c = walk->c;
    if (!walk->ok || size == 0) {
        return;
    }
    if (c->member_count == c->member_cap) {
        size_t cap = c->member_cap > 0 ? c->member_cap * 2 : 64;
        member_span *bigger = realloc(c->members, cap * sizeof *bigger);
        if (bigger == NULL) {
            walk->ok = false;
            snprintf(walk->err->message, sizeof walk->err->message, "out of memory");
            return;
        }
        c->members = bigger;
        c->member_cap = cap;
    }
    member_span *m = &c->members[c->member_count++];
    *m = (member_span){c->file, offset, size, ""};
    snprintf(m->name, sizeof m->name, "%.*s", (int)(name_len < 79 ? name_len : 79), name);
    /* the walk maps each member's header, and with it what the kernel maps
       around it (a 2 MiB huge page of the page cache, at times): forgotten
       as it goes, or the walk alone maps most of the archive */
    if (offset - walk->dropped_to >= DROP_STEP_BYTES) {
        collect_drop_pages(c, &c->files[c->file], walk->dropped_to, offset - walk->dropped_to);
        walk->dropped_to = offset;
    }
}

/* Archive members are split in chunks of this many, each chunk on one
   thread into a collector of its own (its tasks, its section names), the
   chunks merged into the real collector in member order. */
#define MEMBERS_PER_CHUNK 64

typedef struct member_chunk {
    collector local;
    size_t failed; /* the member (index into c->members) that failed, or SIZE_MAX */
    insp_error err;
} member_chunk;

typedef struct member_splitting {
    collector *c;
    member_chunk *chunks;
    size_t first, count; /* c->members[first, first + count) */
    size_t chunk_count;
    atomic_size_t next;
} member_splitting;

/* An archive member is read as the file it was. Only host objects, cubins
   and fatbins can hold device code; other members (text) are passed over, as
   the linker passes over what it cannot link. A nested archive is never a
   member here: insp_archive_members reports its members instead. */
static bool split_member(collector *c, collector *local, const member_span *m, insp_error *err)
{
    local->file = m->file;
    insp_format format = insp_detect(c->files[m->file].data + m->offset, m->size);
    if (format == INSP_FORMAT_HOST_ELF || format == INSP_FORMAT_CUBIN ||
        format == INSP_FORMAT_FATBIN) {
        return collect_split_region(local, format, m->offset, m->size, err);
    }
    return true;
}

static void split_chunk(member_splitting *s, size_t index)
{
    collector *c = s->c;
    member_chunk *chunk = &s->chunks[index];
    collector *local = &chunk->local;
    local->opts = c->opts;
    local->filter = c->filter;
    local->files = c->files;
    local->page_bytes = c->page_bytes;
    local->walk_drops_swept = true;
    local->section_limit = CHUNK_MAX_SECTIONS;
    pthread_mutex_init(&local->error_lock, NULL);
    chunk->failed = SIZE_MAX;
    size_t from = s->first + index * MEMBERS_PER_CHUNK;
    size_t to = from + MEMBERS_PER_CHUNK < s->first + s->count ? from + MEMBERS_PER_CHUNK
                                                               : s->first + s->count;
    for (size_t m = from; m < to; m++) {
        if (!split_member(c, local, &c->members[m], &chunk->err)) {
            chunk->failed = m; /* a serial split stops at the first failure too */
            break;
        }
    }
}

static void *member_splitter_main(void *context)
{
    member_splitting *s = context;
    for (;;) {
        size_t i = atomic_fetch_add(&s->next, 1);
        if (i >= s->chunk_count) {
            return NULL;
        }
        split_chunk(s, i);
        /* Splitting maps each member's header, section table and what the
           kernel maps around them: over thousands of members that held most
           of a large archive resident (RssFile 346 MiB reading
           libcublasLt_static.a). The chunk's pages are forgotten once it is
           split (one madvise per member sent a TLB shootdown to every core
           per member; a sweep in member order waited on the slowest chunk);
           the tasks map their own bytes again. */
        const member_span *first = &s->c->members[s->first + i * MEMBERS_PER_CHUNK];
        size_t last_index =
            (i + 1) * MEMBERS_PER_CHUNK < s->count ? (i + 1) * MEMBERS_PER_CHUNK : s->count;
        const member_span *last = &s->c->members[s->first + last_index - 1];
        collect_drop_pages(s->c, &s->c->files[first->file], first->offset,
                           last->offset + last->size - first->offset);
    }
}

/* Moves one chunk's tasks into the collector, its section names made the
   collector's in member order (so that they are numbered as a serial split
   numbers them: the merge takes the lower number as the earlier section). */
static bool take_chunk_tasks(collector *c, collector *local)
{
    bool ok = !atomic_load(&local->failed);
    /* the chunk's names in the order it met them, as a serial split meets them */
    int *global =
        malloc((size_t)(local->section_count > 0 ? local->section_count : 1) * sizeof *global);
    ok = ok && global != NULL;
    for (int i = 0; ok && i < local->section_count; i++) {
        global[i] =
            collect_section_index(c, local->section_names[i], strlen(local->section_names[i]));
    }
    for (size_t i = 0; ok && i < local->task_count; i++) {
        task t = local->tasks[i];
        int section = t.section >= 0 ? global[t.section] : -1;
        task *added = collect_add_task(c, t.kind, t.offset, t.size);
        ok = added != NULL;
        if (ok) {
            *added = t;
            added->section = section;
        }
    }
    for (size_t i = 0; i < local->task_count; i++) {
        free(local->tasks[i].found);
    }
    free(local->tasks);
    free(global);
    for (int i = 0; i < local->section_count; i++) {
        free(local->section_names[i]);
    }
    free(local->section_names);
    free(local->section_slots);
    pthread_mutex_destroy(&local->error_lock);
    return ok;
}

/*
 * Splits archive members [first, member_count) on up to c->jobs threads:
 * serially, faulting in each member's headers cost libcublasLt_static.a
 * 0.24 s of its 0.56 s on the H200 machine. The first member that fails,
 * in member order, is the error, as a serial split would report it.
 */
static bool split_members(collector *c, size_t first, insp_error *err)
{
    member_splitting s;
    memset(&s, 0, sizeof s);
    s.c = c;
    s.first = first;
    s.count = c->member_count - first;
    s.chunk_count = (s.count + MEMBERS_PER_CHUNK - 1) / MEMBERS_PER_CHUNK;
    s.chunks = calloc(s.chunk_count > 0 ? s.chunk_count : 1, sizeof *s.chunks);
    if (s.chunks == NULL) {
        snprintf(err->message, sizeof err->message, "out of memory");
        return false;
    }
    int threads = c->jobs < 1 ? 1 : c->jobs;
    if ((size_t)threads > s.chunk_count) {
        threads = s.chunk_count > 0 ? (int)s.chunk_count : 1;
    }
    pthread_t ids[INSPECT_DEFAULT_JOBS_MAX];
    int started = 0;
    for (int i = 1; i < threads && started < INSPECT_DEFAULT_JOBS_MAX; i++) {
        if (pthread_create(&ids[started], NULL, member_splitter_main, &s) != 0) {
            break;
        }
        started++;
    }
    member_splitter_main(&s);
    for (int i = 0; i < started; i++) {
        pthread_join(ids[i], NULL);
    }
    bool ok = true;
    for (size_t i = 0; i < s.chunk_count; i++) {
        member_chunk *chunk = &s.chunks[i];
        if (ok && chunk->failed != SIZE_MAX) {
            ok = false;
            *err = chunk->err;
            int len = snprintf(err->message, sizeof err->message, "member %s: %s",
                               c->members[chunk->failed].name, chunk->err.message);
            if (len >= (int)sizeof err->message) {
                /* cut at the end: the member's name and the start of the reason stay */
                err->message[sizeof err->message - 1] = '\0';
            }
        }
        if (!take_chunk_tasks(c, &chunk->local) && ok) {
            ok = false;
            snprintf(err->message, sizeof err->message, "out of memory");
        }
    }
    free(s.chunks);
    return ok;
}

bool collect_split_archive(collector *c, const uint8_t *data, size_t base, size_t size,
                           insp_error *err)
{
    member_walk members = {base, c, err, true};
    size_t first = c->member_count;
    bool ok = insp_archive_members(data, size, add_member, &members, err) && members.ok &&
              split_members(c, first, err);
    collect_drop_pages(c, &c->files[c->file], base, size);
    return ok;
}
