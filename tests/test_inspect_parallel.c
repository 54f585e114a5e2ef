/*
 * test_inspect_parallel.c - what lets occ inspect read a library on many threads must not
 * change what it reads:
 *   - an entry read apart (insp_fatbin_entries + insp_fatbin_entry_parse) reports exactly
 *     what reading its whole container reports (id par-entries);
 *   - a section scanned in parts (insp_fatbin_candidates), with hits inside an earlier
 *     container dropped, finds exactly the containers of the whole-file scan (par-scan);
 *   - `occ inspect` prints the same bytes whatever --jobs is, and names the section each
 *     kernel came from: the first in file order when it is in several (par-cli);
 *   - the JSON writer's strings, integers and reals read back, through jansson's parser,
 *     as what was written, and its reals are formatted as jansson formats them (par-json).
 * The fixtures are nvcc's (tests/inspect/make_fixtures.sh); libextra.so keeps three fatbins
 * in a section of its own, as libcublasLt.so.13 keeps containers in .cask_resource.
 */
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>

#include "cli_harness.h"
#include "formats.h"
#include "json_stream.h"

static const char *fixtures;

static const char *fixture(const char *name)
{
    static char path[4][512];
    static int next;
    char *p = path[next++ % 4];
    snprintf(p, 512, "%s/%s", fixtures, name);
    return p;
}

static uint8_t *load(const char *name, size_t *size)
{
    FILE *f = fopen(fixture(name), "rb");
    if (f == NULL) {
        fail_msg("%s: missing fixture", name);
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    uint8_t *data = malloc((size_t)n + 1);
    assert_non_null(data);
    assert_int_equal(fread(data, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    *size = (size_t)n;
    return data;
}

/* ------------------------------------------------------------------------ */
/* What a reader reports, as text: one line per entry and per function      */
/* ------------------------------------------------------------------------ */

typedef struct report {
    char *text;
    size_t len, cap;
    uint64_t scratch_bytes; /* sum of uncompressed sizes of wanted compressed cubins */
} report;

static void append(report *r, const char *format, ...)
{
    char line[512];
    va_list args;
    va_start(args, format);
    int n = vsnprintf(line, sizeof line, format, args);
    va_end(args);
    assert_true(n > 0 && (size_t)n < sizeof line);
    if (r->len + (size_t)n + 1 > r->cap) {
        r->cap = (r->len + (size_t)n + 1) * 2;
        r->text = realloc(r->text, r->cap);
        assert_non_null(r->text);
    }
    memcpy(r->text + r->len, line, (size_t)n + 1);
    r->len += (size_t)n;
}

static void report_function(void *context, const insp_function *f)
{
    append(context,
           "fn %.*s sm_%d%c regs %d smem %d/%d stack %d frame %d bar %d max %d "
           "param %d spills %d\n",
           (int)f->name_len, f->name, f->sm, f->arch_suffix ? f->arch_suffix : ' ', f->regs,
           f->smem_bytes, f->smem_section_bytes, f->stack_bytes, f->frame_bytes, f->barriers,
           f->max_threads[0], f->param_bytes, f->spill_instructions);
}

static void report_entry(void *context, const insp_entry *e)
{
    report *r = context;
    append(r, "entry kind %d sm_%d%c compression %d bytes %llu/%llu\n", e->kind, e->sm,
           e->arch_suffix ? e->arch_suffix : ' ', (int)e->compression,
           (unsigned long long)e->payload_bytes, (unsigned long long)e->uncompressed_bytes);
    if (e->kind == INSP_ENTRY_CUBIN && e->compression != INSP_COMPRESSION_NONE) {
        r->scratch_bytes += e->uncompressed_bytes;
    }
}

typedef struct spans {
    size_t offset[256];
    size_t size[256];
    int count;
} spans;

static void add_span(void *context, size_t offset, size_t size, insp_region_kind kind)
{
    (void)kind;
    spans *s = context;
    assert_true(s->count < 256);
    s->offset[s->count] = offset;
    s->size[s->count] = size;
    s->count++;
}

/* par-entries: every container of a fatbin file, whole and entry by entry. */
static void check_entries_apart(const char *name)
{
    size_t size;
    uint8_t *data = load(name, &size);
    spans containers = {.count = 0};
    insp_error err;
    assert_true(insp_fatbin_regions(data, size, 0, INSP_REGION_FILE, add_span, &containers, &err));
    assert_true(containers.count > 0);
    report whole = {0};
    report apart = {0};
    insp_sink whole_sink = {report_function, report_entry, &whole};
    insp_sink apart_sink = {report_function, report_entry, &apart};
    insp_scratch scratch = {0};
    int entries = 0;
    uint64_t need = 0;
    for (int c = 0; c < containers.count; c++) {
        size_t consumed;
        const uint8_t *container = data + containers.offset[c];
        assert_true(insp_fatbin_parse(container, containers.size[c], NULL, &scratch, &whole_sink,
                                      &consumed, &err));
        spans list = {.count = 0};
        assert_true(insp_fatbin_entries(container, containers.size[c], containers.offset[c],
                                        add_span, &list, &err));
        for (int e = 0; e < list.count; e++) {
            const uint8_t *entry = data + list.offset[e];
            need += insp_fatbin_entry_scratch_bytes(entry, list.size[e], NULL, NULL);
            assert_true(
                insp_fatbin_entry_parse(entry, list.size[e], NULL, &scratch, &apart_sink, &err));
            /* an entry is only itself: one byte less is an error with an offset in it */
            insp_error short_err;
            assert_false(insp_fatbin_entry_parse(entry, list.size[e] - 1, NULL, &scratch,
                                                 &apart_sink, &short_err));
            assert_true(short_err.offset < list.size[e]);
        }
        entries += list.count;
        /* the entries tile the container after its 16-byte header */
        assert_int_equal(list.offset[0], containers.offset[c] + 16);
        assert_int_equal(list.offset[list.count - 1] + list.size[list.count - 1],
                         containers.offset[c] + containers.size[c]);
    }
    assert_true(entries > 1);
    assert_int_equal(need, whole.scratch_bytes);
    assert_non_null(whole.text);
    assert_string_equal(apart.text, whole.text);
    insp_scratch_free(&scratch);
    free(whole.text);
    free(apart.text);
    free(data);
}

static void entries_apart_test(void **state)
{
    (void)state;
    check_entries_apart("all.fatbin");     /* uncompressed, eight archs and PTX */
    check_entries_apart("speed.fatbin");   /* LZ4 */
    check_entries_apart("default.fatbin"); /* zstd */
}

/* The scratch a compressed entry needs is its uncompressed size; none otherwise, and none
   for an entry --arch skips. */
static void scratch_bytes_test(void **state)
{
    (void)state;
    size_t size;
    uint8_t *data = load("default.fatbin", &size);
    spans containers = {.count = 0};
    insp_error err;
    assert_true(insp_fatbin_regions(data, size, 0, INSP_REGION_FILE, add_span, &containers, &err));
    spans list = {.count = 0};
    assert_true(insp_fatbin_entries(data + containers.offset[0], containers.size[0],
                                    containers.offset[0], add_span, &list, &err));
    insp_filter none = {999, 0, true};
    int compressed = 0;
    for (int e = 0; e < list.count; e++) {
        const uint8_t *h = data + list.offset[e];
        report r = {0};
        insp_sink sink = {NULL, report_entry, &r};
        insp_scratch scratch = {0};
        assert_true(insp_fatbin_entry_parse(h, list.size[e], NULL, &scratch, &sink, &err));
        assert_int_equal(insp_fatbin_entry_scratch_bytes(h, list.size[e], NULL, NULL),
                         r.scratch_bytes);
        assert_int_equal(insp_fatbin_entry_scratch_bytes(h, list.size[e], &none, NULL), 0);
        compressed += r.scratch_bytes > 0;
        insp_scratch_free(&scratch);
        free(r.text);
    }
    assert_true(compressed > 0);
    free(data);
}

/* ------------------------------------------------------------------------ */
/* par-scan: section scans in parts                                         */
/* ------------------------------------------------------------------------ */

typedef struct part_scan {
    const uint8_t *data;
    size_t part_bytes;
    spans found; /* after dropping hits inside an earlier container */
    spans raw;   /* every hit of every part, for one section */
    insp_error *err;
    bool ok;
} part_scan;

static void scan_section_in_parts(void *context, const char *name, size_t name_len, size_t offset,
                                  size_t size, insp_region_kind kind)
{
    (void)name;
    (void)name_len;
    part_scan *p = context;
    if (kind != INSP_REGION_OTHER) {
        p->ok = p->ok && insp_fatbin_regions(p->data + offset, size, offset, kind, add_span,
                                             &p->found, p->err);
        return;
    }
    p->raw.count = 0;
    for (size_t at = offset; at < offset + size; at += p->part_bytes) {
        insp_fatbin_candidates(p->data, offset, size, at, at + p->part_bytes, add_span, &p->raw);
    }
    size_t next = 0;
    for (int i = 0; i < p->raw.count; i++) {
        if (p->raw.offset[i] >= next) {
            add_span(&p->found, p->raw.offset[i], p->raw.size[i], kind);
            next = insp_fatbin_next_offset(p->raw.offset[i], p->raw.size[i]);
        }
    }
}

static void scan_parts_test(void **state)
{
    (void)state;
    const char *files[] = {"libextra.so", "app", "app_rdc"};
    for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
        size_t size;
        uint8_t *data = load(files[f], &size);
        insp_error err;
        spans whole = {.count = 0};
        assert_true(insp_host_elf_fatbins(data, size, true, add_span, &whole, &err));
        assert_true(whole.count > 0);
        /* parts of 8 bytes (every aligned offset its own part), odd sizes, and larger */
        const size_t parts[] = {8, 24, 100, 4096, 1u << 20};
        for (size_t k = 0; k < sizeof parts / sizeof parts[0]; k++) {
            part_scan p = {data, parts[k], {.count = 0}, {.count = 0}, &err, true};
            assert_true(insp_host_elf_sections(data, size, true, scan_section_in_parts, &p, &err));
            assert_true(p.ok);
            assert_int_equal(p.found.count, whole.count);
            for (int i = 0; i < whole.count; i++) {
                assert_int_equal(p.found.offset[i], whole.offset[i]);
                assert_int_equal(p.found.size[i], whole.size[i]);
            }
        }
        free(data);
    }
}

/* ------------------------------------------------------------------------ */
/* par-cli                                                                  */
/* ------------------------------------------------------------------------ */

/* The section of `arch`'s row for `name` in occ's JSON, and its count. */
static const char *section_of(json_t *doc, const char *arch, const char *name, int *count)
{
    size_t i;
    json_t *fn;
    json_array_foreach(json_object_get(doc, "functions"), i, fn)
    {
        if (strcmp(json_string_value(json_object_get(fn, "arch")), arch) == 0 &&
            strcmp(json_string_value(json_object_get(fn, "name")), name) == 0) {
            *count = (int)json_integer_value(json_object_get(fn, "count"));
            return json_string_value(json_object_get(fn, "section"));
        }
    }
    fail_msg("no %s row for %s", arch, name);
    return NULL;
}

static void same_output_any_jobs_test(void **state)
{
    (void)state;
    const char *formats[] = {"--json", "--csv", "--summary", "--sort"};
    for (size_t k = 0; k < sizeof formats / sizeof formats[0]; k++) {
        const char *value = strcmp(formats[k], "--sort") == 0 ? "regs" : "--mangled";
        assert_int_equal(OCC(NULL, "inspect", formats[k], value, "--jobs", "1", "--functions",
                             fixture("libextra.so"), fixture("all.fatbin")),
                         0);
        char *one = strdup(last.out);
        for (int jobs = 2; jobs <= 7; jobs += 5) {
            char n[8];
            snprintf(n, sizeof n, "%d", jobs);
            assert_int_equal(OCC(NULL, "inspect", formats[k], value, "--jobs", n, "--functions",
                                 fixture("libextra.so"), fixture("all.fatbin")),
                             0);
            assert_string_equal(last.out, one);
        }
        free(one);
    }
}

static void section_test(void **state)
{
    (void)state;
    assert_int_equal(OCC(NULL, "inspect", "--json", fixture("libextra.so")), 0);
    json_error_t jerr;
    json_t *doc = json_loads(last.out, 0, &jerr);
    if (doc == NULL) {
        fail_msg("JSON: %s at line %d", jerr.text, jerr.line);
    }
    int count;
    /* sm_75 code is only in all.fatbin, kept in .kernels_extra */
    assert_string_equal(section_of(doc, "sm_75", "bounded(float*)", &count), ".kernels_extra");
    assert_int_equal(count, 1);
    /* sm_80 code is in both (speed.fatbin in .nv_fatbin, which comes first in the file,
       and three copies in .kernels_extra) */
    assert_string_equal(section_of(doc, "sm_80", "bounded(float*)", &count), ".nv_fatbin");
    assert_int_equal(count, 4);
    json_decref(doc);

    /* not from a host ELF file: no section */
    assert_int_equal(OCC(NULL, "inspect", "--json", fixture("all.fatbin")), 0);
    doc = json_loads(last.out, 0, &jerr);
    assert_non_null(doc);
    assert_null(section_of(doc, "sm_75", "bounded(float*)", &count));
    assert_true(json_is_null(
        json_object_get(json_array_get(json_object_get(doc, "functions"), 0), "section")));
    json_decref(doc);
}

/* ------------------------------------------------------------------------ */
/* par-json: the JSON writer                                                */
/* ------------------------------------------------------------------------ */

/* Writes one string with json_stream into memory and parses it back with jansson. */
static char *round_trip(const char *text, size_t len, size_t *out_len)
{
    json_stream s;
    json_stream_init_memory(&s);
    json_stream_raw(&s, "[", 1);
    json_stream_string(&s, text, len);
    json_stream_raw(&s, "]", 1);
    json_stream_flush(&s);
    assert_false(s.failed);
    json_error_t jerr;
    json_t *doc = json_loadb(s.memory, s.memory_bytes, JSON_ALLOW_NUL, &jerr);
    if (doc == NULL) {
        fail_msg("not JSON: %.*s (%s)", (int)s.memory_bytes, s.memory, jerr.text);
    }
    json_t *str = json_array_get(doc, 0);
    *out_len = json_string_length(str);
    char *copy = malloc(*out_len + 1);
    assert_non_null(copy);
    memcpy(copy, json_string_value(str), *out_len + 1);
    json_decref(doc);
    json_stream_free(&s);
    return copy;
}

static void json_strings_test(void **state)
{
    (void)state;
#define BYTES(literal) literal, sizeof(literal) - 1
#define SAME NULL, 0
    static const struct {
        const char *id;
        const char *in;
        size_t in_len;
        const char *out; /* NULL: the same as in */
        size_t out_len;
    } cases[] = {
        {"par-json-1", BYTES("void f<int>(float*)"), SAME},
        {"par-json-2", BYTES("quote \" backslash \\ slash /"), SAME},
        {"par-json-3", BYTES("tab\tnewline\ncr\r nul\0 bell\a del\x7f"), SAME},
        {"par-json-4", BYTES("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"), SAME},
        /* bytes that are not UTF-8 become U+FFFD, each on its own */
        {"par-json-5",
         BYTES("a\xff"
               "b"),
         BYTES("a\xef\xbf\xbd"
               "b")},
        {"par-json-6", BYTES("\xc3"), BYTES("\xef\xbf\xbd")},                 /* cut sequence */
        {"par-json-7", BYTES("\xc0\xaf"), BYTES("\xef\xbf\xbd\xef\xbf\xbd")}, /* overlong */
        {"par-json-8", BYTES("\xed\xa0\x80"),                                 /* a surrogate */
         BYTES("\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd")},
        {"par-json-9", BYTES(""), SAME},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t len;
        char *got = round_trip(cases[i].in, cases[i].in_len, &len);
        const char *want = cases[i].out != NULL ? cases[i].out : cases[i].in;
        size_t want_len = cases[i].out != NULL ? cases[i].out_len : cases[i].in_len;
        if (len != want_len || memcmp(got, want, len) != 0) {
            fail_msg("%s: read back %zu bytes, expected %zu", cases[i].id, len, want_len);
        }
        free(got);
    }
    /* longer than the stream's buffer, in memory and through a FILE alike */
    size_t big = 3 * JSON_STREAM_BUFFER_BYTES + 17;
    char *text = malloc(big);
    assert_non_null(text);
    for (size_t i = 0; i < big; i++) {
        text[i] = (char)('a' + i % 26);
    }
    text[big / 2] = '"';
    size_t len;
    char *got = round_trip(text, big, &len);
    assert_int_equal(len, big);
    assert_memory_equal(got, text, big);
    free(got);
    FILE *f = tmpfile();
    assert_non_null(f);
    json_stream s;
    json_stream_init(&s, f);
    json_stream_string(&s, text, big);
    json_stream_flush(&s);
    assert_int_equal(ftell(f), (long)big + 3); /* quotes and the one escaped '"' */
    fclose(f);
    free(text);
}

static void json_numbers_test(void **state)
{
    (void)state;
    const long long ints[] = {0, 1, -1, 42, 1234567890123LL, LLONG_MAX, LLONG_MIN};
    for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++) {
        json_stream s;
        json_stream_init_memory(&s);
        json_stream_int(&s, ints[i]);
        json_stream_flush(&s);
        json_t *want = json_integer(ints[i]);
        char *text = json_dumps(want, JSON_ENCODE_ANY);
        assert_int_equal(s.memory_bytes, strlen(text));
        assert_memory_equal(s.memory, text, s.memory_bytes);
        free(text);
        json_decref(want);
        json_stream_free(&s);
    }
    const double reals[] = {0.0,  1.0,         0.5,   2.0 / 3.0, 0.1, 1.0 / 64,
                            1e-7, 123456789.0, 1e300, -2.5e-300, 1e17};
    for (size_t i = 0; i < sizeof reals / sizeof reals[0]; i++) {
        json_stream s;
        json_stream_init_memory(&s);
        json_stream_double(&s, reals[i]);
        json_stream_flush(&s);
        json_t *want = json_real(reals[i]);
        char *text = json_dumps(want, JSON_ENCODE_ANY);
        if (s.memory_bytes != strlen(text) || memcmp(s.memory, text, s.memory_bytes) != 0) {
            fail_msg("real %.17g: wrote %.*s, jansson writes %s", reals[i], (int)s.memory_bytes,
                     s.memory, text);
        }
        free(text);
        json_decref(want);
        json_stream_free(&s);
    }
}

int main(void)
{
    const struct CMUnitTest plain_tests[] = {
        cmocka_unit_test(json_strings_test),
        cmocka_unit_test(json_numbers_test),
    };
    int failed = cmocka_run_group_tests_name("inspect-parallel-json", plain_tests, NULL, NULL);
    fixtures = getenv("OCC_INSPECT_FIXTURES");
    char stamp[512];
    snprintf(stamp, sizeof stamp, "%s/stamp", fixtures != NULL ? fixtures : "");
    if (fixtures == NULL || access(stamp, R_OK) != 0) {
        fprintf(stderr, "test_inspect_parallel: SKIP the nvcc cases: no fixtures (nvcc not "
                        "found at configure time)\n");
        return failed != 0 ? 1 : 77;
    }
    const struct CMUnitTest nvcc_tests[] = {
        cmocka_unit_test(entries_apart_test), cmocka_unit_test(scratch_bytes_test),
        cmocka_unit_test(scan_parts_test),    cmocka_unit_test(same_output_any_jobs_test),
        cmocka_unit_test(section_test),
    };
    failed += cmocka_run_group_tests_name("inspect-parallel-nvcc", nvcc_tests, NULL, NULL);
    free(last.out);
    free(last.err);
    return failed != 0 ? 1 : 0;
}
