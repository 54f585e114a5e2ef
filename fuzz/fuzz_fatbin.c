/*
 * fuzz_fatbin.c - fuzzes the fatbin reader (inspect/formats/fatbin.c, decompress.c and the
 * cubin reader behind it): the container walk of a .fatbin file, then each container, read
 * whole and again entry by entry as occ inspect's threads read it, and each entry once more
 * with reading in part on for any size (a 12 KiB head and 4 KiB tail: the tests' fixture
 * cubins fit, others fall back to a whole read), which must report the same.
 */
#include "fuzz_inspect.h"

typedef struct regions {
    const uint8_t *data;
    size_t size;
    insp_scratch scratch;
    insp_scratch part; /* reads zstd cubins of any size in part */
    size_t sum;
    size_t entries[64][2]; /* offset, size of the current container's first entries */
    size_t entry_count;
} regions;

static void on_entry_span(void *context, size_t offset, size_t size, insp_region_kind kind)
{
    (void)kind;
    regions *r = context;
    if (r->entry_count < 64) {
        r->entries[r->entry_count][0] = offset;
        r->entries[r->entry_count][1] = size;
        r->entry_count++;
    }
}

static void on_region(void *context, size_t offset, size_t size, insp_region_kind kind)
{
    (void)kind;
    regions *r = context;
    if (offset > r->size || size > r->size - offset) {
        fprintf(stderr, "region %zu+%zu beyond %zu bytes\n", offset, size, r->size);
        abort();
    }
    insp_sink sink = {fuzz_touch_function, NULL, &r->sum};
    insp_error err = {0, "", false, false};
    size_t consumed;
    bool ok = insp_fatbin_parse(r->data + offset, size, NULL, &r->scratch, &sink, &consumed, &err);
    fuzz_check_error(ok, &err, size);
    /* the same container apart: the walk over entry headers, then each entry */
    r->entry_count = 0;
    ok = insp_fatbin_entries(r->data + offset, size, offset, on_entry_span, r, &err);
    fuzz_check_error(ok, &err, size);
    for (size_t i = 0; ok && i < r->entry_count; i++) {
        size_t at = r->entries[i][0];
        size_t bytes = r->entries[i][1];
        if (at < offset || at > r->size || bytes > r->size - at) {
            fprintf(stderr, "entry %zu+%zu outside the container\n", at, bytes);
            abort();
        }
        (void)insp_fatbin_entry_scratch_bytes(r->data + at, bytes, NULL, NULL);
        insp_error entry_err = {0, "", false, false};
        bool entry_ok =
            insp_fatbin_entry_parse(r->data + at, bytes, NULL, &r->scratch, &sink, &entry_err);
        fuzz_check_error(entry_ok, &entry_err, bytes);
        /* read in part, or given up on and read whole: the same either way */
        size_t whole_sum = 0;
        size_t part_sum = 0;
        insp_sink whole_sink = {fuzz_touch_function, NULL, &whole_sum};
        insp_sink part_sink = {fuzz_touch_function, NULL, &part_sum};
        (void)insp_fatbin_entry_scratch_bytes(r->data + at, bytes, NULL, &r->part);
        bool whole_ok = insp_fatbin_entry_parse(r->data + at, bytes, NULL, &r->scratch, &whole_sink,
                                                &entry_err);
        bool part_ok =
            insp_fatbin_entry_parse(r->data + at, bytes, NULL, &r->part, &part_sink, &entry_err);
        if (whole_ok != part_ok || whole_sum != part_sum) {
            fprintf(stderr, "entry at %zu: read whole %d (sum %zu), in part %d (sum %zu)\n", at,
                    whole_ok, whole_sum, part_ok, part_sum);
            abort();
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint8_t *copy = fuzz_copy(data, size);
    regions r = {.data = copy, .size = size};
    r.part.part_min_bytes = 1;
    r.part.part_head_bytes = 12288;
    r.part.part_tail_max_bytes = 4096;
    insp_error err = {0, "", false, false};
    bool ok = insp_fatbin_regions(copy, size, 0, INSP_REGION_FILE, on_region, &r, &err);
    fuzz_check_error(ok, &err, size);
    insp_scratch_free(&r.scratch);
    insp_scratch_free(&r.part);
    free(copy);
    return 0;
}
