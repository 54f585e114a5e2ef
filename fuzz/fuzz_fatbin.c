/*
 * fuzz_fatbin.c - fuzzes the fatbin reader (inspect/fatbin.c, decompress.c and the cubin
 * reader behind it): the container walk of a .fatbin file, then each container.
 */
#include "fuzz_inspect.h"

typedef struct regions {
    const uint8_t *data;
    size_t size;
    insp_scratch scratch;
    size_t sum;
} regions;

static void on_region(void *context, size_t offset, size_t size, insp_region_kind kind)
{
    (void)kind;
    regions *r = context;
    if (offset > r->size || size > r->size - offset) {
        fprintf(stderr, "region %zu+%zu beyond %zu bytes\n", offset, size, r->size);
        abort();
    }
    insp_sink sink = {fuzz_touch_function, NULL, &r->sum};
    insp_error err = {0, ""};
    size_t consumed;
    bool ok = insp_fatbin_parse(r->data + offset, size, NULL, &r->scratch, &sink, &consumed, &err);
    fuzz_check_error(ok, &err, size);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint8_t *copy = fuzz_copy(data, size);
    regions r = {copy, size, {NULL, 0, NULL}, 0};
    insp_error err = {0, ""};
    bool ok = insp_fatbin_regions(copy, size, 0, INSP_REGION_FILE, on_region, &r, &err);
    fuzz_check_error(ok, &err, size);
    insp_scratch_free(&r.scratch);
    free(copy);
    return 0;
}
