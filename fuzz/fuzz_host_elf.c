/*
 * fuzz_host_elf.c - fuzzes the host ELF reader (inspect/formats/host_elf.c): section table,
 * the .nv_fatbin / __nv_relfatbin walks and the magic scan of other sections, then each
 * container found; and the scan again in small parts, as occ inspect's threads run it,
 * which must find the same containers.
 */
#include "fuzz_inspect.h"

typedef struct found {
    const uint8_t *data;
    size_t size;
    insp_scratch scratch;
    size_t sum;
} found;

static void on_region(void *context, size_t offset, size_t size, insp_region_kind kind)
{
    (void)kind;
    found *f = context;
    if (offset > f->size || size > f->size - offset) {
        fprintf(stderr, "region %zu+%zu beyond %zu bytes\n", offset, size, f->size);
        abort();
    }
    insp_sink sink = {fuzz_touch_function, NULL, &f->sum};
    insp_error err = {0, "", false, false};
    size_t consumed;
    bool ok = insp_fatbin_parse(f->data + offset, size, NULL, &f->scratch, &sink, &consumed, &err);
    fuzz_check_error(ok, &err, size);
}

typedef struct part_scan {
    const uint8_t *data;
    size_t found; /* containers kept */
    size_t next;  /* hits before this lie inside the last kept container */
} part_scan;

static void on_candidate(void *context, size_t offset, size_t size, insp_region_kind kind)
{
    (void)kind;
    (void)size;
    part_scan *p = context;
    if (offset >= p->next) {
        p->found++;
        p->next = insp_fatbin_next_offset(offset, size);
    }
}

static void count_region(void *context, size_t offset, size_t size, insp_region_kind kind);

static void on_section(void *context, const char *name, size_t name_len, size_t offset, size_t size,
                       insp_region_kind kind)
{
    (void)name;
    (void)name_len;
    part_scan *p = context;
    if (kind == INSP_REGION_OTHER) {
        p->next = 0;
        for (size_t at = offset; at < offset + size; at += 40) { /* odd-sized parts */
            insp_fatbin_candidates(p->data, offset, size, at, at + 40, on_candidate, p);
        }
        return;
    }
    insp_error err;
    if (!insp_fatbin_regions(p->data + offset, size, offset, kind, count_region, &p->found, &err)) {
        p->found = SIZE_MAX / 2; /* the whole-file walk failed too: nothing to compare */
    }
}

static void count_region(void *context, size_t offset, size_t size, insp_region_kind kind)
{
    (void)offset;
    (void)size;
    (void)kind;
    (*(size_t *)context)++;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint8_t *copy = fuzz_copy(data, size);
    found f = {copy, size, {0}, 0};
    insp_error err = {0, "", false, false};
    bool ok = insp_host_elf_fatbins(copy, size, true, on_region, &f, &err);
    fuzz_check_error(ok, &err, size);
    if (ok) {
        size_t whole = 0;
        insp_host_elf_fatbins(copy, size, true, count_region, &whole, &err);
        part_scan parts = {copy, 0, 0};
        if (insp_host_elf_sections(copy, size, true, on_section, &parts, &err) &&
            parts.found < SIZE_MAX / 2 && parts.found != whole) {
            fprintf(stderr, "scan in parts found %zu containers, whole %zu\n", parts.found, whole);
            abort();
        }
    }
    insp_scratch_free(&f.scratch);
    free(copy);
    return 0;
}
