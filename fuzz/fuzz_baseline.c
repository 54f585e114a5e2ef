/*
 * fuzz_baseline.c - fuzzes the baseline reader (inspect/formats/baseline.c): the frame and
 * its split into parts, each part's function objects, and the same document split into
 * parts of one function each, which must read the same functions.
 *
 * Seeds (corpus/baseline/): valid.json, `occ inspect --save` of the ptxas log of
 * tests/diff/variants.cu; sorted_indented.json, the same through Python's json.dump with
 * sorted keys and indentation (schema last); escapes.json, one function whose name holds
 * \u escapes and a surrogate pair, with an unknown nested key; bad_newer_version.json
 * (version 2), bad_missing_regs.json, truncated.json (cut at 700 bytes).
 */
#include "fuzz_inspect.h"

typedef struct parts {
    const uint8_t *data;
    size_t size;
    size_t functions;
    size_t sum;
    bool failed;
} parts;

static void count_function(void *context, const insp_function *f)
{
    parts *p = context;
    p->functions++;
    fuzz_touch_function(&p->sum, f);
}

static void on_part(void *context, size_t offset, size_t size, insp_region_kind kind)
{
    (void)kind;
    parts *p = context;
    if (offset > p->size || size > p->size - offset) {
        fprintf(stderr, "part %zu+%zu beyond %zu bytes\n", offset, size, p->size);
        abort();
    }
    uint8_t *part = fuzz_copy(p->data + offset, size);
    insp_sink sink = {count_function, NULL, p};
    insp_error err = {0, "", false, false};
    bool ok = insp_baseline_parse(part, size, &sink, &err);
    fuzz_check_error(ok, &err, size);
    p->failed = p->failed || !ok;
    free(part);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint8_t *copy = fuzz_copy(data, size);
    parts big = {copy, size, 0, 0, false};
    parts one = {copy, size, 0, 0, false};
    insp_error err = {0, "", false, false};
    bool ok = insp_baseline_split(copy, size, 1 << 20, on_part, &big, &err);
    fuzz_check_error(ok, &err, size);
    if (ok && insp_baseline_split(copy, size, 1, on_part, &one, &err) &&
        (big.failed != one.failed || (!big.failed && big.functions != one.functions))) {
        fprintf(stderr, "one part read %zu functions, parts of one %zu\n", big.functions,
                one.functions);
        abort();
    }
    free(copy);
    return 0;
}
