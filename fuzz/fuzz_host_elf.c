/*
 * fuzz_host_elf.c - fuzzes the host ELF reader (inspect/host_elf.c): section table, the
 * .nv_fatbin / __nv_relfatbin walks and the magic scan of other sections, then each
 * container found.
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
    insp_error err = {0, ""};
    size_t consumed;
    bool ok = insp_fatbin_parse(f->data + offset, size, NULL, &f->scratch, &sink, &consumed,
                                &err);
    fuzz_check_error(ok, &err, size);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint8_t *copy = fuzz_copy(data, size);
    found f = {copy, size, {NULL, 0, NULL}, 0};
    insp_error err = {0, ""};
    bool ok = insp_host_elf_fatbins(copy, size, true, on_region, &f, &err);
    fuzz_check_error(ok, &err, size);
    insp_scratch_free(&f.scratch);
    free(copy);
    return 0;
}
