/*
 * fuzz_baseline_round_trip.c - the baseline writer and its reader fuzzed together, after
 * zstd's tests/fuzz/simple_round_trip.c: a baseline is read (occ_inspect_read), written
 * (occ_inspect_baseline_write), read again and written again. Whatever the first reading
 * accepted, the writer's document must read back to the same functions, field by field,
 * with the same occupancy, and write again byte for byte; the occ.inspect document of the
 * same result (occ_inspect_json_write, the same kernel renderer) must be JSON with as many
 * functions.
 *
 * The input is a document when it starts with '{' or white space (the seeds in
 * corpus/baseline_round_trip/: the baselines of corpus/baseline/, and the hostile ones of
 * tests/data/hostile/; a mutated one that reads as a ptxas log is written as a baseline
 * all the same); otherwise its bytes
 * describe functions (describe_functions), so that names with every kind of escape and
 * UTF-8, and every field's extremes, reach the writer without the fuzzer having to find
 * JSON first.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "occ_inspect.h"

/* At most this many functions described: enough for merging and order to matter. */
#define MAX_DESCRIBED 64

typedef struct bytes_in {
    const uint8_t *data;
    size_t size, at;
} bytes_in;

/* The next byte, 0 past the end. */
static unsigned take(bytes_in *in)
{
    return in->at < in->size ? in->data[in->at++] : 0;
}

static unsigned take16(bytes_in *in)
{
    unsigned hi = take(in);
    return hi << 8 | take(in);
}

/* One character of a name, as the document spells it: plain, escaped or UTF-8. */
static void name_char(FILE *doc, unsigned b)
{
    static const char *const spelled[] = {"\\\"",
                                          "\\\\",
                                          "\\/",
                                          "\\b",
                                          "\\f",
                                          "\\n",
                                          "\\r",
                                          "\\t",
                                          "\xc3\xa9",
                                          "\\u00e9",
                                          "\xe2\x82\xac",
                                          "\\u20ac",
                                          "\xf0\x9f\x98\x80",
                                          "\\ud83d\\ude00",
                                          "\x7f",
                                          "\\u0001"};
    if (b < 0x60) {
        unsigned c = 0x21 + b % 0x5e; /* printable ASCII but space, quote and backslash */
        if (c == '"' || c == '\\') {
            c = '_';
        }
        fputc((int)c, doc);
    } else if (b < 0x80) {
        fputc(' ', doc);
    } else {
        fputs(spelled[b % (sizeof spelled / sizeof spelled[0])], doc);
    }
}

static void int_or_null(FILE *doc, const char *key, unsigned selector, unsigned value)
{
    if (selector % 4 == 0) {
        fprintf(doc, ",\"%s\":null", key);
    } else {
        fprintf(doc, ",\"%s\":%u", key, value);
    }
}

static void dims(FILE *doc, const char *key, bytes_in *in)
{
    unsigned how = take(in);
    if (how % 3 == 0) {
        fprintf(doc, ",\"%s\":null", key);
    } else {
        fprintf(doc, ",\"%s\":[%u,%u,%u]", key, take(in) % 5 * (how % 2 == 0 ? 256 : 1),
                take(in) % 3, take(in) % 3);
    }
}

/* A baseline document of the functions the bytes describe: per function a name of 1 to 24
   characters (name_char), an arch, a kind, and each field from the next bytes. */
static char *describe_functions(const uint8_t *data, size_t size, size_t *doc_size)
{
    static const int archs[] = {50, 60, 70, 75, 80, 86, 89, 90, 100, 103, 120};
    static const char suffixes[] = {0, 'a', 'f'};
    bytes_in in = {data, size, 0};
    char *text = NULL;
    FILE *doc = open_memstream(&text, doc_size);
    if (doc == NULL) {
        abort();
    }
    fputs("{\"schema\":\"occ.baseline\",\"version\":1,\"functions\":[", doc);
    for (int n = 0; n < MAX_DESCRIBED && in.at < in.size; n++) {
        fputs(n > 0 ? ",{\"mangled\":\"" : "{\"mangled\":\"", doc);
        unsigned name_len = 1 + take(&in) % 24;
        for (unsigned i = 0; i < name_len; i++) {
            name_char(doc, take(&in));
        }
        unsigned arch = take(&in);
        char suffix = suffixes[arch / 16 % 3];
        fprintf(doc, "\",\"arch\":\"sm_%d", archs[arch % (sizeof archs / sizeof archs[0])]);
        if (suffix != 0) {
            fputc(suffix, doc);
        }
        unsigned flags = take(&in);
        fprintf(doc, "\",\"kind\":\"%s\"", flags & 1 ? "kernel" : "function");
        fprintf(doc, ",\"relocatable\":%s", flags & 2 ? "true" : "false");
        fprintf(doc, ",\"from_log\":%s", flags & 4 ? "true" : "false");
        fprintf(doc, ",\"explicit_cluster\":%s", flags & 8 ? "true" : "false");
        fprintf(doc, ",\"count\":%u", 1 + (flags & 16 ? take16(&in) : 0));
        fprintf(doc, ",\"regs\":%u", take(&in));
        fprintf(doc, ",\"smem_bytes\":%u", take16(&in) * 2);
        fprintf(doc, ",\"stack_bytes\":%u", take16(&in));
        fprintf(doc, ",\"frame_bytes\":%u", take(&in));
        fprintf(doc, ",\"spill_instructions\":%u", take(&in));
        unsigned nulls = take(&in);
        int_or_null(doc, "smem_section_bytes", nulls, take16(&in));
        int_or_null(doc, "spill_store_bytes", nulls >> 1, take(&in));
        int_or_null(doc, "spill_load_bytes", nulls >> 2, take(&in));
        int_or_null(doc, "barriers", nulls >> 3, take(&in) % 17);
        int_or_null(doc, "param_bytes", nulls >> 4, take16(&in) % 32768);
        int_or_null(doc, "max_regs", nulls >> 5, take(&in));
        int_or_null(doc, "max_cluster_rank", nulls >> 6, take(&in) % 17);
        dims(doc, "max_threads", &in);
        dims(doc, "req_threads", &in);
        dims(doc, "cluster_dims", &in);
        fputc('}', doc);
    }
    fputs("]}", doc);
    if (fclose(doc) != 0) {
        abort();
    }
    return text;
}

/* One baseline read as occ diff reads an input: in memory, one thread (so that which of two
   merged copies comes first never depends on timing), on each kernel's own arch. */
static occ_inspect_result *read_baseline(const void *data, size_t size, bool must)
{
    occ_inspect_options options;
    occ_inspect_options_init(&options);
    options.functions = true;
    options.jobs = 1;
    occ_inspect_input in = {"baseline.json", data, size};
    occ_inspect_result *r = NULL;
    occ_inspect_error err;
    if (occ_inspect_read(&in, 1, &options, &r, &err) != OCC_OK) {
        if (must) {
            fprintf(stderr, "the writer's baseline does not read back: %s\n", err.message);
            fwrite(data, 1, size, stderr);
            abort();
        }
        /* not checked for one line: limits.c names a function as it is spelt,
           control characters included */
        if (err.message[0] == '\0') {
            fprintf(stderr, "a refusal without a reason\n");
            abort();
        }
        return NULL;
    }
    return r;
}

static char *write_baseline(occ_inspect_result *r, size_t *size)
{
    occ_inspect_options options;
    occ_inspect_options_init(&options);
    options.functions = true;
    char *text = NULL;
    FILE *out = open_memstream(&text, size);
    occ_inspect_error err;
    if (out == NULL || occ_inspect_baseline_write(r, &options, NULL, out, &err) != OCC_OK) {
        fprintf(stderr, "occ_inspect_baseline_write failed: %s\n", err.message);
        abort();
    }
    fclose(out);
    return text;
}

static bool same_dims(const int a[3], const int b[3])
{
    return a[0] == b[0] && a[1] == b[1] && a[2] == b[2];
}

/* Every field a baseline keeps, and the occupancy computed from them. */
static void expect_same_kernel(const occ_inspect_kernel *a, const occ_inspect_kernel *b, size_t i)
{
    bool same =
        strcmp(a->mangled, b->mangled) == 0 && strcmp(a->name, b->name) == 0 && a->sm == b->sm &&
        a->arch_suffix == b->arch_suffix && a->is_kernel == b->is_kernel &&
        a->relocatable == b->relocatable && a->from_log == b->from_log && a->regs == b->regs &&
        a->smem_bytes == b->smem_bytes && a->smem_section_bytes == b->smem_section_bytes &&
        a->stack_bytes == b->stack_bytes && a->frame_bytes == b->frame_bytes &&
        a->spill_store_bytes == b->spill_store_bytes &&
        a->spill_load_bytes == b->spill_load_bytes &&
        a->spill_instructions == b->spill_instructions && a->barriers == b->barriers &&
        same_dims(a->max_threads, b->max_threads) && same_dims(a->req_threads, b->req_threads) &&
        a->max_regs == b->max_regs && same_dims(a->cluster_dims, b->cluster_dims) &&
        a->explicit_cluster == b->explicit_cluster && a->max_cluster_rank == b->max_cluster_rank &&
        a->param_bytes == b->param_bytes && a->count == b->count &&
        a->has_occupancy == b->has_occupancy && a->blocks_per_sm == b->blocks_per_sm &&
        a->threads == b->threads && a->occupancy == b->occupancy && a->limiters == b->limiters &&
        a->cluster_size == b->cluster_size;
    if (!same) {
        fprintf(stderr,
                "function %zu changed in the round trip: %s (%d regs, count %d) read "
                "back as %s (%d regs, count %d)\n",
                i, a->mangled, a->regs, a->count, b->mangled, b->regs, b->count);
        abort();
    }
}

/* The occ.inspect document of r is JSON and lists every function. */
static void expect_inspect_document(const occ_inspect_result *r)
{
    occ_inspect_options options;
    occ_inspect_options_init(&options);
    options.jobs = 2; /* the rows formatted on two threads, written in order */
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    occ_inspect_error err;
    if (out == NULL || occ_inspect_json_write(r, &options, NULL, out, &err) != OCC_OK) {
        abort();
    }
    fclose(out);
    json_error_t jerr;
    json_t *doc = json_loadb(text, size, JSON_REJECT_DUPLICATES, &jerr);
    if (doc == NULL ||
        json_array_size(json_object_get(doc, "functions")) != occ_inspect_kernel_count(r)) {
        fprintf(stderr, "the occ.inspect document is not JSON of %zu functions (%s)\n",
                occ_inspect_kernel_count(r), doc == NULL ? jerr.text : "count differs");
        abort();
    }
    json_decref(doc);
    free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    bool document = size > 0 && (data[0] == '{' || data[0] == ' ' || data[0] == '\n');
    size_t doc_size = size;
    char *described = document ? NULL : describe_functions(data, size, &doc_size);
    const void *doc = document ? (const void *)data : described;
    occ_inspect_result *first = read_baseline(doc, doc_size, false);
    if (first == NULL) {
        free(described);
        return 0;
    }
    size_t written_size;
    char *written = write_baseline(first, &written_size); /* sorts first by name */
    occ_inspect_result *second = read_baseline(written, written_size, true);
    occ_inspect_error err;
    if (occ_inspect_sort(second, OCC_INSPECT_BY_NAME, &err) != OCC_OK) {
        abort();
    }
    size_t count = occ_inspect_kernel_count(first);
    if (occ_inspect_kernel_count(second) != count) {
        fprintf(stderr, "%zu functions written, %zu read back\n", count,
                occ_inspect_kernel_count(second));
        abort();
    }
    for (size_t i = 0; i < count; i++) {
        expect_same_kernel(occ_inspect_kernel_at(first, i), occ_inspect_kernel_at(second, i), i);
    }
    /* the same from the options on: the inputs line names the first reading's format,
       which may be another (a mutated baseline can read as a ptxas log) */
    size_t again_size;
    char *again = write_baseline(second, &again_size);
    const char *from = strstr(written, "\n\"options\":");
    const char *again_from = strstr(again, "\n\"options\":");
    if (from == NULL || again_from == NULL || strcmp(from, again_from) != 0) {
        fprintf(stderr, "written again, the baseline differs:\n%s\n%s\n", written, again);
        abort();
    }
    expect_inspect_document(first);
    free(again);
    free(written);
    occ_inspect_result_free(second);
    occ_inspect_result_free(first);
    free(described);
    return 0;
}
