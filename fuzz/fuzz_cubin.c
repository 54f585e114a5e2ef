/*
 * fuzz_cubin.c - fuzzes the cubin reader (inspect/formats/cubin.c, nvinfo.c,
 * elf64.c).
 */
#include "fuzz_inspect.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint8_t *copy = fuzz_copy(data, size);
    size_t sum = 0;
    insp_sink sink = {fuzz_touch_function, NULL, &sum};
    insp_error err = {0, "", false, false};
    bool ok = insp_cubin_parse(copy, size, 0, &sink, &err);
    fuzz_check_error(ok, &err, size);
    free(copy);
    return 0;
}
