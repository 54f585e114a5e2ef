/*
 * test_inspect_hostile.c - the hostile inputs of tests/data/hostile/ (README.md there says
 * what each is; make_hostile.py made them). Each must be refused with the status, one line
 * naming the value and the limit, and an offset inside the file: through the library
 * (occ_inspect_read) and through `occ inspect` (exit 1, "occ inspect: FILE: ..."), never a
 * crash, a wrapped number or "0 kernels" with exit 0. The untouched cubin the hostile ones
 * are copies of is read, so each copy fails for its own reason.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cli.h"
#include "cli_harness.h"
#include "formats.h"
#include "occ_inspect.h"
#include "test_data.h"

typedef struct hostile {
    const char *file; /* under tests/data/hostile/ */
    occ_status status;
    const char *want[3]; /* each must be in the message */
} hostile;

static const hostile cases[] = {
    {"log-regs-999999999.log",
     OCC_ERR_BAD_FORMAT,
     {"999999999 registers per thread", "the limit is 255", NULL}},
    {"log-regs-999999999999.log",
     OCC_ERR_BAD_FORMAT,
     {"'999999999999 registers'", "too large", "2147483647"}},
    {"log-spill-overflow.log",
     OCC_ERR_BAD_FORMAT,
     {"4294967296 bytes spill stores", "too large", "2147483647"}},
    {"log-barriers-99.log", OCC_ERR_BAD_FORMAT, {"99 barriers", "the limit is 16", NULL}},
    {"log-bom.log",
     OCC_ERR_BAD_FORMAT,
     {"offset 0: starts with a UTF-8 byte-order mark (EF BB BF)", NULL, NULL}},
    {"cubin-shstrtab-no-nul.cubin",
     OCC_ERR_BAD_FORMAT,
     {"section-name table", "does not end with a NUL", NULL}},
    {"host-shstrtab-no-nul.so",
     OCC_ERR_BAD_FORMAT,
     {"section-name table", "does not end with a NUL", NULL}},
    {"cubin-symbol-section-index.cubin",
     OCC_ERR_BAD_FORMAT,
     {"section index 65024", "8 sections", NULL}},
    {"cubin-no-section-table.cubin", OCC_ERR_BAD_FORMAT, {"no section table", NULL, NULL}},
    {"cubin-symbol-xindex.cubin",
     OCC_ERR_BAD_FORMAT,
     {"extended section index (SHN_XINDEX)", NULL, NULL}},
    {"cubin-regs-16394.cubin",
     OCC_ERR_BAD_FORMAT,
     {"16394 registers per thread", "the limit is 255", NULL}},
    {"cubin-smem-2p64.cubin",
     OCC_ERR_BAD_FORMAT,
     {"18446744073709551615 bytes of shared memory", NULL, NULL}},
    {"cubin-launch-bounds-overflow.cubin",
     OCC_ERR_BAD_FORMAT,
     {"16777215x16777215x16777215 threads per block", "the limit is 1024", NULL}},
    {"fatbin-entry-too-large.fatbin",
     OCC_ERR_LIMIT,
     {"1099511627776 bytes decompressed", "limit of 167772160 (160 MiB)", NULL}},
    {"fatbin-entry-ratio.fatbin",
     OCC_ERR_LIMIT,
     {"8193 bytes decompressed from 16", "limit of 512 times", NULL}},
    {"archive-nested-5-deep.a",
     OCC_ERR_BAD_FORMAT,
     {"member level1.a: member level2.a: member level3.a: member level4.a: ",
      "archives nested more than 4 deep", NULL}},
    {"archive-nested-thin.a",
     OCC_ERR_BAD_FORMAT,
     {"member thin.a is a thin archive (ar --thin)", NULL, NULL}},
    {"baseline-functions-twice.json",
     OCC_ERR_BAD_FORMAT,
     {"offset 52: baseline: \"functions\" appears twice in the document", NULL, NULL}},
    {"baseline-version-twice.json",
     OCC_ERR_BAD_FORMAT,
     {"baseline: \"version\" appears twice in the document", NULL, NULL}},
    {"baseline-regs-twice.json",
     OCC_ERR_BAD_FORMAT,
     {"baseline: \"regs\" appears twice in a function", NULL, NULL}},
    {"baseline-not-utf8.json",
     OCC_ERR_BAD_FORMAT,
     {"byte 0xe9 in a string is not UTF-8", NULL, NULL}},
};

static const char *hostile_path(const char *file)
{
    static char path[1024];
    char relative[256];
    snprintf(relative, sizeof relative, "hostile/%s", file);
    snprintf(path, sizeof path, "%s", test_data_path(relative));
    return path;
}

static uint8_t *load(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        fail_msg("%s: cannot open", path);
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    uint8_t *bytes = malloc((size_t)n + 1);
    assert_non_null(bytes);
    assert_int_equal(fread(bytes, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    *size = (size_t)n;
    return bytes;
}

/* The untouched cubin: one kernel, k(), 32 registers, 256 bytes of shared memory; the
   same with its section count and name table index in section 0 (gABI extended section
   numbering, which files of 65,280 sections or more need); and the cubin in an archive
   inside an archive, which read as "0 kernels". */
static void baseline_test(void **state)
{
    (void)state;
    const char *files[] = {"cubin-baseline.cubin", "cubin-extended-numbering.cubin",
                           "archive-nested.a"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        occ_inspect_options opts;
        occ_inspect_options_init(&opts);
        occ_inspect_input in = {hostile_path(files[i]), NULL, 0};
        occ_inspect_result *r;
        occ_inspect_error err;
        if (occ_inspect_read(&in, 1, &opts, &r, &err) != OCC_OK) {
            fail_msg("%s", err.message);
        }
        assert_int_equal(occ_inspect_kernel_count(r), 1);
        const occ_inspect_kernel *k = occ_inspect_kernel_at(r, 0);
        assert_string_equal(k->name, "k()");
        assert_int_equal(k->sm, 90);
        assert_int_equal(k->regs, 32);
        assert_int_equal(k->smem_bytes, 256);
        assert_true(k->has_occupancy);
        occ_inspect_result_free(r);
    }
}

static void library_test(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const hostile *c = &cases[i];
        const char *path = hostile_path(c->file);
        size_t size;
        uint8_t *bytes = load(path, &size);
        free(bytes);
        for (int jobs = 1; jobs <= 3; jobs += 2) {
            occ_inspect_options opts;
            occ_inspect_options_init(&opts);
            opts.jobs = jobs;
            occ_inspect_input in = {path, NULL, 0};
            occ_inspect_result *r = (occ_inspect_result *)&opts; /* must become NULL */
            occ_inspect_error err;
            occ_status got = occ_inspect_read(&in, 1, &opts, &r, &err);
            if (got != c->status) {
                fail_msg("%s: status %d, expected %d: %s", c->file, (int)got, (int)c->status,
                         got == OCC_OK ? "read" : err.message);
            }
            assert_null(r);
            assert_int_equal(err.input, 0);
            assert_true(err.offset >= 0 && (size_t)err.offset < size);
            assert_true(strncmp(err.message, path, strlen(path)) == 0);
            assert_null(strchr(err.message, '\n'));
            for (int w = 0; w < 3 && c->want[w] != NULL; w++) {
                if (strstr(err.message, c->want[w]) == NULL) {
                    fail_msg("%s: '%s' not in: %s", c->file, c->want[w], err.message);
                }
            }
        }
    }
}

static void cli_test(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const hostile *c = &cases[i];
        const char *path = hostile_path(c->file);
        char prefix[1100];
        snprintf(prefix, sizeof prefix, "occ inspect: %s: offset ", path);
        for (int output = 0; output < 3; output++) {
            const char *flag = output == 0 ? "--summary" : output == 1 ? "--json" : "--csv";
            int code = OCC(NULL, "inspect", flag, path);
            if (code != EXIT_DATA || !starts_with(last.err, prefix) || line_count(last.err) != 1 ||
                strstr(last.err, c->want[0]) == NULL || last.out[0] != '\0') {
                fail_msg("%s %s: exit %d, stdout %zu bytes, stderr: %s", flag, c->file, code,
                         strlen(last.out), last.err);
            }
        }
    }
}

/* The refused claims allocate nothing: the scratch a thread would borrow for the entry is
   0 bytes, and reading it leaves an empty scratch empty. */
static void bounded_memory_test(void **state)
{
    (void)state;
    const char *files[] = {"fatbin-entry-too-large.fatbin", "fatbin-entry-ratio.fatbin"};
    for (size_t i = 0; i < 2; i++) {
        size_t size;
        uint8_t *bytes = load(hostile_path(files[i]), &size);
        const uint8_t *entry = bytes + 16; /* after the container header */
        size_t entry_bytes = size - 16;
        assert_int_equal(insp_fatbin_entry_scratch_bytes(entry, entry_bytes, NULL, NULL), 0);
        insp_scratch scratch = {0};
        insp_error err = {0, "", false, false};
        assert_false(insp_fatbin_entry_parse(entry, entry_bytes, NULL, &scratch, NULL, &err));
        assert_true(err.over_limit);
        assert_int_equal(scratch.capacity, 0);
        assert_null(scratch.data);
        insp_scratch_free(&scratch);
        free(bytes);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(baseline_test),
        cmocka_unit_test(library_test),
        cmocka_unit_test(cli_test),
        cmocka_unit_test(bounded_memory_test),
    };
    int failed = cmocka_run_group_tests_name("inspect-hostile", tests, NULL, NULL);
    free(last.out);
    free(last.err);
    return failed != 0 ? 1 : 0;
}
