/*
 * task_split.c - splits an input, or an archive member, into tasks by its
 * format (task_split.h); archives go to archive_split.c member by member.
 */
#include <stdint.h>

#include "archive_split.h"
#include "page_sweep.h"
#include "section_names.h"
#include "task_split.h"

/* Data sections are scanned for containers in parts of this size, in
   parallel (libcublasLt.so.13 has ~260 MB of them); small, since each
   thread holds its part's pages until it is scanned. */
#define SCAN_PART_BYTES (1u << 20)
/* A baseline's functions are read in parts of about this size, in parallel
   (a baseline of libtorch_cuda.so is tens of MB). */
#define BASELINE_PART_BYTES (256u << 10)

static void add_entry(void *context, size_t offset, size_t size, insp_region_kind kind)
{
    (void)kind;
    collector *c = context;
    task *t = collect_add_task(c, TASK_ENTRY, offset, size);
    if (t != NULL) {
        /* a compressed cubin's work is its decompressed size */
        size_t unpacked =
            insp_fatbin_entry_scratch_bytes(c->files[c->file].data + offset, size, NULL, NULL);
        t->work = unpacked > size ? unpacked : size;
    }
    collect_drop_walked(c, offset, false);
}

/* Splits the container at file offset `offset` into entry tasks. */
static bool add_container(collector *c, size_t offset, size_t size, insp_error *err)
{
    const input_file *file = &c->files[c->file];
    if (!insp_fatbin_entries(file->data + offset, size, offset, add_entry, c, err)) {
        err->offset += offset;
        return false;
    }
    return true;
}

typedef struct region_walk {
    collector *c;
    insp_error *err;
    bool ok;
} region_walk;

static void add_region(void *context, size_t offset, size_t size, insp_region_kind kind)
{
    (void)kind;
    region_walk *walk = context;
    if (walk->ok) {
        walk->ok = add_container(walk->c, offset, size, walk->err);
    }
}

typedef struct section_walk {
    collector *c;
    insp_error *err;
    bool ok;
} section_walk;

/* A host ELF section: its containers' entries become tasks now, or, for a
   section to scan, its parts do. */
static void add_section(void *context, const char *name, size_t name_len, size_t offset,
                        size_t size, insp_region_kind kind)
{
    section_walk *walk = context;
    collector *c = walk->c;
    if (!walk->ok) {
        return;
    }
    offset += c->member_base; /* the reader counts from the member's start */
    c->section = collect_section_index(c, name, name_len);
    if (kind == INSP_REGION_OTHER) {
        for (size_t at = 0; at < size; at += SCAN_PART_BYTES) {
            task *t = collect_add_task(c, TASK_SCAN, offset + at,
                                       size - at < SCAN_PART_BYTES ? size - at : SCAN_PART_BYTES);
            if (t != NULL) {
                t->section_offset = offset;
                t->section_size = size;
            }
        }
        return;
    }
    region_walk regions = {c, walk->err, true};
    c->drop_from = offset;
    walk->ok = insp_fatbin_regions(c->files[c->file].data + offset, size, offset, kind, add_region,
                                   &regions, walk->err) &&
               regions.ok;
    collect_drop_walked(c, offset + size, true);
}

bool collect_add_scanned_containers(collector *c, size_t scan_end, insp_error *err, int *file)
{
    size_t next = 0;
    for (size_t i = 0; i < scan_end; i++) {
        task t = c->tasks[i]; /* a copy: collect_add_task may move the array */
        if (t.kind != TASK_SCAN) {
            continue;
        }
        if (t.offset == t.section_offset) {
            next = 0;
        }
        c->file = t.file;
        c->section = t.section;
        c->drop_from = t.offset;
        size_t walked_end = t.offset + t.size;
        for (size_t k = 0; k < t.found_count; k++) {
            if (t.found[k].offset < next) {
                continue;
            }
            next = insp_fatbin_next_offset(t.found[k].offset, t.found[k].size);
            if (!add_container(c, t.found[k].offset, t.found[k].size, err)) {
                *file = t.file;
                return false;
            }
            if (t.found[k].offset + t.found[k].size > walked_end) {
                walked_end = t.found[k].offset + t.found[k].size;
            }
        }
        collect_drop_walked(c, walked_end, true);
    }
    return true;
}

static void add_baseline_part(void *context, size_t offset, size_t size, insp_region_kind kind)
{
    (void)kind;
    collect_add_task(context, TASK_WHOLE, offset, size);
}

bool collect_split_region(collector *c, insp_format format, size_t base, size_t size,
                          insp_error *err)
{
    const uint8_t *data = c->files[c->file].data + base;
    c->member_base = base;
    c->section = -1;
    bool ok = true;
    switch (format) {
    case INSP_FORMAT_PTXAS_LOG:
    case INSP_FORMAT_CUBIN: collect_add_task(c, TASK_WHOLE, base, size); break;
    case INSP_FORMAT_FATBIN: {
        region_walk regions = {c, err, true};
        c->drop_from = base;
        ok = insp_fatbin_regions(data, size, base, INSP_REGION_FILE, add_region, &regions, err) &&
             regions.ok;
        collect_drop_walked(c, base + size, true);
        break;
    }
    case INSP_FORMAT_HOST_ELF: {
        section_walk sections = {c, err, true};
        /* an object (.o) has not been linked: its -rdc code is only in
           __nv_relfatbin, which cuobjdump shows for it too */
        bool relfatbin = c->opts->relfatbin || insp_host_elf_is_object(data, size);
        ok = insp_host_elf_sections(data, size, relfatbin, add_section, &sections, err);
        if (!ok) {
            err->offset += base; /* the section table's own errors count from the member */
        }
        ok = ok && sections.ok;
        break;
    }
    case INSP_FORMAT_ARCHIVE: ok = collect_split_archive(c, data, base, size, err); break;
    case INSP_FORMAT_BASELINE:
        ok = insp_baseline_split(data, size, BASELINE_PART_BYTES, add_baseline_part, c, err);
        break;
    default: ok = false; break;
    }
    c->member_base = 0;
    return ok;
}
