/*
 * test_inspect.c - occ inspect's readers against nvcc's own output.
 *
 * tests/inspect/make_fixtures.sh compiles tests/inspect/kernels.cu (once per build directory)
 * into a fatbin for sm_75..sm_120 (+ PTX), compressed fatbins (LZ4 and zstd), bare cubins,
 * a relocatable cubin and host executables, each with the ptxas -v log of the same compile.
 * The oracle is ptxas: every kernel's registers, stack, shared memory, frame and barriers read
 * from the binaries must equal what ptxas printed. Facts fixed by kernels.cu's source
 * (launch bounds, cluster dims, register cap) are checked as such. Corrupt and truncated
 * inputs must fail with an offset inside the input, never crash (run under ASan in make test).
 *
 * Without nvcc the fixture tests are skipped (exit 77) after the log-parser cases ran.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include <jansson.h>

#include "cli.h"
#include "cli_harness.h"
#include "elf64.h"
#include "engine.h"
#include "test_data.h"

/* ------------------------------------------------------------------------ */
/* Collecting what a reader reports                                         */
/* ------------------------------------------------------------------------ */

typedef struct rec {
    char arch[16];
    char name[128];
    insp_function f;
} rec;

typedef struct recs {
    rec items[512];
    int count;
    insp_entry entries[64];
    int entry_count;
} recs;

static void collect_function(void *context, const insp_function *f)
{
    recs *r = context;
    assert_true(r->count < 512);
    rec *x = &r->items[r->count++];
    x->f = *f;
    x->f.name = NULL;
    assert_true(f->name_len < sizeof x->name);
    memcpy(x->name, f->name, f->name_len);
    x->name[f->name_len] = '\0';
    occ_inspect_arch_name(f->sm, f->arch_suffix, x->arch, sizeof x->arch);
}

static void collect_entry(void *context, const insp_entry *e)
{
    recs *r = context;
    if (r->entry_count < 64) {
        r->entries[r->entry_count++] = *e;
    }
}

static const rec *find(const recs *r, const char *arch, const char *name)
{
    for (int i = 0; i < r->count; i++) {
        if (strcmp(r->items[i].arch, arch) == 0 && strcmp(r->items[i].name, name) == 0) {
            return &r->items[i];
        }
    }
    return NULL;
}

static const char *fixtures;

static uint8_t *load(const char *name, size_t *size)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", fixtures, name);
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        fail_msg("%s: missing fixture", path);
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

static void parse_log(const char *name, recs *out)
{
    size_t size;
    uint8_t *text = load(name, &size);
    insp_sink sink = {collect_function, NULL, out};
    insp_error err;
    assert_int_equal(insp_detect(text, size), INSP_FORMAT_PTXAS_LOG);
    if (!insp_ptxas_log_parse((const char *)text, size, &sink, &err)) {
        fail_msg("%s: offset %zu: %s", name, err.offset, err.message);
    }
    free(text);
}

static void add_region(void *context, size_t offset, size_t size, insp_region_kind kind)
{
    (void)kind;
    size_t *list = context;
    list[1 + 2 * list[0]] = offset;
    list[2 + 2 * list[0]] = size;
    list[0]++;
}

/* Every function of a fatbin file, a cubin or a host ELF, through the library. */
static void parse_binary(const char *name, bool relfatbin, recs *out)
{
    size_t size;
    uint8_t *data = load(name, &size);
    insp_sink sink = {collect_function, collect_entry, out};
    insp_error err;
    insp_format format = insp_detect(data, size);
    if (format == INSP_FORMAT_CUBIN) {
        if (!insp_cubin_parse(data, size, 0, &sink, &err)) {
            fail_msg("%s: offset %zu: %s", name, err.offset, err.message);
        }
        free(data);
        return;
    }
    static size_t regions[1 + 2 * 256];
    regions[0] = 0;
    bool ok = format == INSP_FORMAT_FATBIN
                  ? insp_fatbin_regions(data, size, 0, INSP_REGION_FILE, add_region, regions, &err)
                  : insp_host_elf_fatbins(data, size, relfatbin, add_region, regions, &err);
    if (!ok) {
        fail_msg("%s: offset %zu: %s", name, err.offset, err.message);
    }
    assert_true(regions[0] > 0);
    insp_scratch scratch = {0};
    for (size_t i = 0; i < regions[0]; i++) {
        size_t consumed;
        size_t at = regions[1 + 2 * i];
        if (!insp_fatbin_parse(data + at, regions[2 + 2 * i], NULL, &scratch, &sink, &consumed,
                               &err)) {
            fail_msg("%s: container at %zu: offset %zu: %s", name, at, err.offset, err.message);
        }
        assert_int_equal(consumed, regions[2 + 2 * i]);
    }
    insp_scratch_free(&scratch);
    free(data);
}

/* ptxas is the oracle: every kernel it compiled, with its numbers, in `bin`. */
static void assert_matches_log(const recs *log, const recs *bin, const char *only_arch)
{
    int checked = 0;
    for (int i = 0; i < log->count; i++) {
        const rec *want = &log->items[i];
        if (only_arch != NULL && strcmp(want->arch, only_arch) != 0) {
            continue;
        }
        const rec *got = find(bin, want->arch, want->name);
        if (got == NULL) {
            fail_msg("%s %s: in the ptxas log, not in the binary", want->arch, want->name);
        }
        if (got->f.regs != want->f.regs || got->f.stack_bytes != want->f.stack_bytes ||
            got->f.smem_bytes != want->f.smem_bytes || got->f.frame_bytes != want->f.frame_bytes ||
            got->f.barriers != want->f.barriers || got->f.is_kernel != want->f.is_kernel) {
            fail_msg("%s %s: binary regs %d stack %d smem %d frame %d barriers %d; ptxas "
                     "%d %d %d %d %d",
                     want->arch, want->name, got->f.regs, got->f.stack_bytes, got->f.smem_bytes,
                     got->f.frame_bytes, got->f.barriers, want->f.regs, want->f.stack_bytes,
                     want->f.smem_bytes, want->f.frame_bytes, want->f.barriers);
        }
        /* a log that reports spill stores has cubin instructions annotated as spills */
        if (want->f.spill_store_bytes > 0) {
            assert_true(got->f.spill_instructions > 0);
        }
        checked++;
    }
    assert_true(checked > 0);
    /* and nothing the log does not know: every kernel of the binary was in the log */
    for (int i = 0; i < bin->count; i++) {
        const rec *got = &bin->items[i];
        if (got->f.is_kernel && (only_arch == NULL || strcmp(got->arch, only_arch) == 0) &&
            find(log, got->arch, got->name) == NULL) {
            fail_msg("%s %s: in the binary, not in the ptxas log", got->arch, got->name);
        }
    }
}

/* ------------------------------------------------------------------------ */
/* ptxas logs (no nvcc needed)                                              */
/* ------------------------------------------------------------------------ */

/* The CUDA 13.0 lines of docs/binary-formats.md, then a CUDA 11 style line, CRLF. */
static const char log_text[] =
    "ptxas info    : 4096 bytes gmem\n"
    "ptxas info    : Compiling entry function '_Z12spill_kernelPdPKdi' for 'sm_90'\n"
    "ptxas info    : Function properties for _Z12spill_kernelPdPKdi\n"
    "    3568 bytes stack frame, 3628 bytes spill stores, 7636 bytes spill loads\n"
    "ptxas info    : Used 32 registers, used 0 barriers, 3568 bytes cumulative stack size\n"
    "ptxas info    : Compiling entry function '_Z1kv' for 'sm_90a'\n"
    "ptxas info    : Used 12 registers, used 1 barriers, 4096 bytes smem, 372 bytes cmem[0]\n"
    "ptxas info    : Compiling entry function '_Z3oldv' for 'sm_80'\r\n"
    "ptxas info    : Function properties for _Z3oldv\r\n"
    "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\r\n"
    "ptxas info    : Used 17 registers, 336 bytes cmem[0]\r\n";

static void log_lines_test(void **state)
{
    (void)state;
    recs r = {0};
    insp_sink sink = {collect_function, NULL, &r};
    insp_error err;
    assert_true(insp_ptxas_log_parse(log_text, strlen(log_text), &sink, &err));
    assert_int_equal(r.count, 3);
    const rec *a = find(&r, "sm_90", "_Z12spill_kernelPdPKdi");
    assert_non_null(a);
    assert_int_equal(a->f.regs, 32);
    assert_int_equal(a->f.barriers, 0);
    assert_int_equal(a->f.stack_bytes, 3568);
    assert_int_equal(a->f.frame_bytes, 3568);
    assert_int_equal(a->f.spill_store_bytes, 3628);
    assert_int_equal(a->f.spill_load_bytes, 7636);
    const rec *b = find(&r, "sm_90a", "_Z1kv");
    assert_non_null(b);
    assert_int_equal(b->f.regs, 12);
    assert_int_equal(b->f.barriers, 1);
    assert_int_equal(b->f.smem_bytes, 4096);
    assert_int_equal(b->f.spill_store_bytes, INSP_UNKNOWN); /* no properties line */
    const rec *c = find(&r, "sm_80", "_Z3oldv");
    assert_non_null(c);
    assert_int_equal(c->f.regs, 17);
    assert_int_equal(c->f.barriers, INSP_UNKNOWN); /* older toolkits do not print it */
    assert_true(c->f.is_kernel);
}

/* Bad logs: one error with the offset of the bad line. */
static void log_errors_test(void **state)
{
    (void)state;
    static const struct {
        const char *id;
        const char *text;
        size_t offset;
    } cases[] = {
        {"log-bad-1", "ptxas info    : Used 8 registers\n", 16},
        {"log-bad-2", "ptxas info    : Compiling entry function '_Z1kv' for 'gfx90'\n", 16},
        {"log-bad-3",
         "x\nptxas info    : Compiling entry function '_Z1kv' for 'sm_90'\n"
         "ptxas info    : Used many registers\n",
         84},
        {"log-bad-4", "ptxas info    : Compiling entry function '_Z1kv\n", 16},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        recs r = {0};
        insp_sink sink = {collect_function, NULL, &r};
        insp_error err = {0, "", false, false};
        if (insp_ptxas_log_parse(cases[i].text, strlen(cases[i].text), &sink, &err)) {
            fail_msg("%s: accepted", cases[i].id);
        }
        if (err.offset != cases[i].offset || strlen(err.message) == 0) {
            fail_msg("%s: offset %zu (want %zu): %s", cases[i].id, err.offset, cases[i].offset,
                     err.message);
        }
    }
}

static void detect_test(void **state)
{
    (void)state;
    static const uint8_t fatbin[16] = {0x50, 0xED, 0x55, 0xBA, 1, 0, 16, 0};
    uint8_t cubin[20] = {0x7F, 'E', 'L', 'F', 2, 1};
    cubin[18] = 190;
    uint8_t host[20] = {0x7F, 'E', 'L', 'F', 2, 1};
    host[18] = 62;
    assert_int_equal(insp_detect(fatbin, sizeof fatbin), INSP_FORMAT_FATBIN);
    assert_int_equal(insp_detect(cubin, sizeof cubin), INSP_FORMAT_CUBIN);
    assert_int_equal(insp_detect(host, sizeof host), INSP_FORMAT_HOST_ELF);
    assert_int_equal(insp_detect((const uint8_t *)log_text, 40), INSP_FORMAT_PTXAS_LOG);
    assert_int_equal(insp_detect((const uint8_t *)"hello", 5), INSP_FORMAT_UNKNOWN);
}

/* The probe's kernel name as tests/data/h200-driver/h200-probe.txt writes it:
   "void smemk<8, 1024>(float*, float const*, int)" -> "smemk<8,1024>". */
static void probe_key(const char *printed, char *out, size_t cap)
{
    if (strncmp(printed, "void ", 5) == 0) {
        printed += 5;
    }
    size_t o = 0;
    for (const char *p = printed; *p != '\0' && *p != '(' && o + 1 < cap; p++) {
        if (*p != ' ') {
            out[o++] = *p;
        }
    }
    out[o] = '\0';
}

/* The probe's ptxas log, read by occ inspect, gives every kernel the registers, static
   shared memory and local memory the driver reported for the same build
   (cudaFuncGetAttributes: numRegs, sharedSizeBytes, localSizeBytes in h200-probe.txt). */
static void probe_log_vs_driver_test(void **state)
{
    (void)state;
    char log_path[1024];
    snprintf(log_path, sizeof log_path, "%s", test_data_path("h200-driver/h200-probe-ptxas.txt"));
    occ_inspect_options opts;
    occ_inspect_options_init(&opts);
    opts.jobs = 2;
    occ_inspect_input in = {log_path, NULL, 0};
    occ_inspect_result *r;
    occ_inspect_error err;
    if (occ_inspect_read(&in, 1, &opts, &r, &err) != OCC_OK) {
        fail_msg("%s", err.message);
    }
    assert_int_equal(occ_inspect_input_format(r, 0), OCC_INSPECT_FORMAT_PTXAS_LOG);
    FILE *probe = test_data_open("h200-driver/h200-probe.txt", "r");
    char line[512];
    int checked = 0;
    while (fgets(line, sizeof line, probe) != NULL) {
        char name[64];
        int regs, smem, local, max_threads;
        if (sscanf(line, "%63s regs %d static %d local %d maxThreads %d", name, &regs, &smem,
                   &local, &max_threads) != 5) {
            continue; /* device properties, the maxPotential lines, the summary */
        }
        const occ_inspect_kernel *k = NULL;
        for (size_t i = 0; i < occ_inspect_kernel_count(r); i++) {
            char key[64];
            probe_key(occ_inspect_kernel_at(r, i)->name, key, sizeof key);
            if (strcmp(key, name) == 0) {
                k = occ_inspect_kernel_at(r, i);
            }
        }
        if (k == NULL) {
            fail_msg("%s: in h200-probe.txt, not read from its ptxas log", name);
        }
        if (k->regs != regs || k->smem_bytes != smem || k->stack_bytes != local) {
            fail_msg("%s: log regs %d smem %d local %d; driver %d %d %d", name, k->regs,
                     k->smem_bytes, k->stack_bytes, regs, smem, local);
        }
        /* a log carries no launch bounds: lbk<64>'s __launch_bounds__(256), which the
           driver's maxThreads shows, is not in it, and the kernel says so */
        assert_true(k->from_log);
        assert_int_equal(k->max_threads[0], 0);
        checked++;
    }
    fclose(probe);
    assert_int_equal(checked, 30);
    occ_inspect_result_free(r);
}

/* ------------------------------------------------------------------------ */
/* Against nvcc output                                                      */
/* ------------------------------------------------------------------------ */

/* Every kernel of every arch: the fatbin's cubins equal ptxas -v. */
static void fatbin_vs_ptxas_test(void **state)
{
    (void)state;
    static recs log, bin;
    memset(&log, 0, sizeof log);
    memset(&bin, 0, sizeof bin);
    parse_log("all.log", &log);
    parse_binary("all.fatbin", false, &bin);
    assert_matches_log(&log, &bin, NULL);
    static const char *const archs[] = {"sm_75", "sm_80",  "sm_86",  "sm_89",
                                        "sm_90", "sm_90a", "sm_100", "sm_120"};
    for (size_t i = 0; i < sizeof archs / sizeof archs[0]; i++) {
        if (find(&bin, archs[i], "_Z5plainPfi") == NULL) {
            fail_msg("%s missing", archs[i]);
        }
    }
    /* the compute_120 PTX is an entry with no functions */
    bool ptx = false;
    for (int i = 0; i < bin.entry_count; i++) {
        ptx |= bin.entries[i].kind == INSP_ENTRY_PTX && bin.entries[i].sm == 120;
    }
    assert_true(ptx);
}

/* -Xfatbin -compress-all: speed makes LZ4, default and size make zstd; the numbers are
   those of the uncompressed build. */
static void compressed_test(void **state)
{
    (void)state;
    static const struct {
        const char *file;
        insp_compression method;
    } cases[] = {{"speed.fatbin", INSP_COMPRESSION_LZ4},
                 {"default.fatbin", INSP_COMPRESSION_ZSTD},
                 {"size.fatbin", INSP_COMPRESSION_ZSTD}};
    static recs log, bin;
    memset(&log, 0, sizeof log);
    parse_log("all.log", &log);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        memset(&bin, 0, sizeof bin);
        parse_binary(cases[i].file, false, &bin);
        int cubins = 0;
        for (int e = 0; e < bin.entry_count; e++) {
            if (bin.entries[e].kind == INSP_ENTRY_CUBIN) {
                assert_int_equal(bin.entries[e].compression, cases[i].method);
                cubins++;
            }
        }
        assert_int_equal(cubins, 2);
        assert_matches_log(&log, &bin, "sm_80");
        assert_matches_log(&log, &bin, "sm_90");
    }
}

/* ------------------------------------------------------------------------ */
/* Reading in part (inspect/formats/fatbin.c, "Reading in part")            */
/* ------------------------------------------------------------------------ */

static void assert_same_recs(const recs *want, const recs *got)
{
    assert_int_equal(got->count, want->count);
    for (int i = 0; i < want->count; i++) {
        const rec *w = &want->items[i];
        const rec *g = &got->items[i];
        assert_string_equal(g->arch, w->arch);
        assert_string_equal(g->name, w->name);
        assert_int_equal(g->f.regs, w->f.regs);
        assert_int_equal(g->f.smem_bytes, w->f.smem_bytes);
        assert_int_equal(g->f.smem_section_bytes, w->f.smem_section_bytes);
        assert_int_equal(g->f.stack_bytes, w->f.stack_bytes);
        assert_int_equal(g->f.frame_bytes, w->f.frame_bytes);
        assert_int_equal(g->f.barriers, w->f.barriers);
        assert_int_equal(g->f.is_kernel, w->f.is_kernel);
        assert_int_equal(g->f.param_bytes, w->f.param_bytes);
        assert_int_equal(g->f.max_regs, w->f.max_regs);
        assert_int_equal(g->f.spill_instructions, w->f.spill_instructions);
        assert_memory_equal(g->f.max_threads, w->f.max_threads, sizeof w->f.max_threads);
        assert_memory_equal(g->f.cluster_dims, w->f.cluster_dims, sizeof w->f.cluster_dims);
    }
}

typedef struct entry_list {
    size_t offset[16];
    size_t size[16];
    int count;
} entry_list;

static void list_entry(void *context, size_t offset, size_t size, insp_region_kind kind)
{
    (void)kind;
    entry_list *list = context;
    assert_true(list->count < 16);
    list->offset[list->count] = offset;
    list->size[list->count] = size;
    list->count++;
}

/* One entry read with `scratch`; the records and whether it read. */
static bool read_one_entry(const uint8_t *entry, size_t size, insp_scratch *scratch, recs *out,
                           insp_error *err)
{
    memset(out, 0, sizeof *out);
    insp_sink sink = {collect_function, NULL, out};
    return insp_fatbin_entry_parse(entry, size, NULL, scratch, &sink, err);
}

/* Where the fixture cubin's code starts and its section table: the head a
   part read needs (everything read precedes the code) and the tail. */
static void cubin_layout(const uint8_t *entry, size_t *code_from, size_t *tail_bytes)
{
    size_t header_bytes = insp_u32(entry + 4);
    size_t packed = insp_u32(entry + 0x10);
    size_t size = (size_t)insp_u64(entry + 0x38);
    uint8_t *cubin = malloc(size);
    assert_non_null(cubin);
    insp_error err;
    assert_true(
        insp_decompress(INSP_COMPRESSION_ZSTD, entry + header_bytes, packed, cubin, size, &err));
    elf64_file elf;
    assert_true(elf64_open(cubin, size, &elf, &err));
    *code_from = size;
    for (uint32_t i = 0; i < elf.shnum; i++) {
        elf64_section sec;
        size_t len;
        elf64_section_at(&elf, i, &sec);
        const char *name = elf64_section_name(&elf, &sec, &len);
        if (len > 6 && memcmp(name, ".text.", 6) == 0 && sec.offset < *code_from) {
            *code_from = (size_t)sec.offset;
        }
    }
    *tail_bytes = size - (size_t)elf.shoff;
    assert_true(*code_from >= 64 && *code_from < elf.shoff);
    free(cubin);
}

/* Each zstd cubin of default.fatbin and size.fatbin read in part gives what
   the whole read gives; a head or tail too small to hold what is read, and
   the read is whole instead, with the same result; a lent buffer too small
   for the whole read makes it say so (err.missing) and report nothing. */
static void part_read_test(void **state)
{
    (void)state;
    static const char *const files[] = {"default.fatbin", "size.fatbin"};
    static recs whole, part;
    int checked = 0;
    for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
        size_t size;
        uint8_t *data = load(files[f], &size);
        entry_list list = {.count = 0};
        insp_error err;
        assert_true(insp_fatbin_entries(data, size, 0, list_entry, &list, &err));
        for (int e = 0; e < list.count; e++) {
            const uint8_t *entry = data + list.offset[e];
            if (insp_u16(entry) != INSP_ENTRY_CUBIN || (insp_u64(entry + 0x28) & 0x8000) == 0) {
                continue;
            }
            size_t code_from, tail_bytes;
            cubin_layout(entry, &code_from, &tail_bytes);
            insp_scratch plain = {0};
            assert_true(read_one_entry(entry, list.size[e], &plain, &whole, &err));
            assert_true(whole.count > 0);
            assert_int_equal(plain.entries_in_part + plain.entries_part_refused, 0);
            /* in part: the head up to the code, the section table as the tail */
            insp_scratch in_part = {.part_min_bytes = 1,
                                    .part_head_bytes = code_from,
                                    .part_tail_max_bytes = tail_bytes};
            assert_true(read_one_entry(entry, list.size[e], &in_part, &part, &err));
            assert_int_equal(in_part.entries_in_part, 1);
            assert_int_equal(in_part.entries_part_refused, 0);
            assert_same_recs(&whole, &part);
            /* the head or the tail a byte short: read whole, the same */
            in_part.part_head_bytes = 64;
            assert_true(read_one_entry(entry, list.size[e], &in_part, &part, &err));
            in_part.part_head_bytes = code_from;
            in_part.part_tail_max_bytes = tail_bytes - 1;
            assert_true(read_one_entry(entry, list.size[e], &in_part, &part, &err));
            assert_int_equal(in_part.entries_in_part, 1);
            assert_int_equal(in_part.entries_part_refused, 2);
            assert_same_recs(&whole, &part);
            /* entries below part_min_bytes are read whole, not tried */
            in_part.part_min_bytes = (size_t)insp_u64(entry + 0x38) + 1;
            assert_true(read_one_entry(entry, list.size[e], &in_part, &part, &err));
            assert_int_equal(in_part.entries_in_part + in_part.entries_part_refused, 3);
            insp_scratch_free(&in_part);
            /* a lent buffer sized for the part read: the whole read is refused */
            uint8_t lent[64 + 4096];
            insp_scratch fixed = {.data = lent,
                                  .capacity = sizeof lent,
                                  .fixed = true,
                                  .part_min_bytes = 1,
                                  .part_head_bytes = 64,
                                  .part_tail_max_bytes = 4096};
            assert_false(read_one_entry(entry, list.size[e], &fixed, &part, &err));
            assert_true(err.missing);
            assert_int_equal(part.count, 0);
            fixed.data = NULL; /* not the scratch's to free */
            insp_scratch_free(&fixed);
            insp_scratch_free(&plain);
            checked++;
        }
        free(data);
    }
    assert_int_equal(checked, 4); /* sm_80 and sm_90 of each */
}

/* The engine's threads read in part as the readers do: the same rows from a
   compressed fatbin and a library with containers outside .nv_fatbin, read
   in part (12 KiB head, 4 KiB tail: the fixture cubins fit) and with every
   part read refused (a 64-byte head), each retried whole in a pooled buffer. */
static void part_read_engine_test(void **state)
{
    (void)state;
    char fatbin[512], library[512];
    snprintf(fatbin, sizeof fatbin, "%s/default.fatbin", fixtures);
    snprintf(library, sizeof library, "%s/libextra.so", fixtures);
    occ_inspect_input in[2] = {{fatbin, NULL, 0}, {library, NULL, 0}};
    occ_inspect_options opts;
    occ_inspect_options_init(&opts);
    opts.functions = true;
    opts.jobs = 3;
    occ_inspect_error err;
    occ_inspect_result *plain, *fits, *refused;
    inspect_part_tuning fit = {1, 12 << 10, 4 << 10};
    inspect_part_tuning too_small = {1, 64, 4 << 10};
    assert_int_equal(occ_inspect_read(in, 2, &opts, &plain, &err), OCC_OK);
    assert_int_equal(inspect_read_tuned(in, 2, &opts, &fit, &fits, &err), OCC_OK);
    assert_int_equal(inspect_read_tuned(in, 2, &opts, &too_small, &refused, &err), OCC_OK);
    occ_inspect_timing t;
    occ_inspect_timing_get(plain, &t);
    assert_int_equal(t.entries_in_part + t.entries_part_refused, 0);
    occ_inspect_timing_get(fits, &t);
    assert_true(t.entries_in_part >= 4); /* default.fatbin's and size.fatbin's */
    assert_int_equal(t.entries_part_refused, 0);
    occ_inspect_timing_get(refused, &t);
    assert_int_equal(t.entries_in_part, 0);
    assert_true(t.entries_part_refused >= 4);
    const occ_inspect_result *results[2] = {fits, refused};
    for (int r = 0; r < 2; r++) {
        assert_int_equal(occ_inspect_kernel_count(results[r]), occ_inspect_kernel_count(plain));
        for (size_t i = 0; i < occ_inspect_kernel_count(plain); i++) {
            /* rows are in the order the threads merged them: match by arch and name */
            const occ_inspect_kernel *want = occ_inspect_kernel_at(plain, i);
            const occ_inspect_kernel *got = NULL;
            for (size_t k = 0; k < occ_inspect_kernel_count(results[r]); k++) {
                const occ_inspect_kernel *x = occ_inspect_kernel_at(results[r], k);
                if (x->sm == want->sm && x->arch_suffix == want->arch_suffix &&
                    strcmp(x->mangled, want->mangled) == 0 && x->regs == want->regs &&
                    x->stack_bytes == want->stack_bytes) {
                    got = x;
                }
            }
            assert_non_null(got);
            assert_int_equal(got->sm, want->sm);
            assert_int_equal(got->regs, want->regs);
            assert_int_equal(got->smem_bytes, want->smem_bytes);
            assert_int_equal(got->stack_bytes, want->stack_bytes);
            assert_int_equal(got->count, want->count);
            assert_int_equal(got->blocks_per_sm, want->blocks_per_sm);
        }
    }
    occ_inspect_result_free(plain);
    occ_inspect_result_free(fits);
    occ_inspect_result_free(refused);
}

/* Bare cubins: sm_90a (the 'a' from .nv.compat), sm_75's older layout. */
static void bare_cubin_test(void **state)
{
    (void)state;
    static recs log, bin;
    memset(&log, 0, sizeof log);
    memset(&bin, 0, sizeof bin);
    parse_log("sm90a.log", &log);
    parse_binary("sm90a.cubin", false, &bin);
    assert_matches_log(&log, &bin, "sm_90a");
    memset(&log, 0, sizeof log);
    memset(&bin, 0, sizeof bin);
    parse_log("sm75.log", &log);
    parse_binary("sm75.cubin", false, &bin);
    assert_matches_log(&log, &bin, "sm_75");
}

/* Facts kernels.cu fixes in its source, on the cubins of every arch. */
static void source_facts_test(void **state)
{
    (void)state;
    static recs bin;
    memset(&bin, 0, sizeof bin);
    parse_binary("all.fatbin", false, &bin);
    int clustered = 0;
    for (int i = 0; i < bin.count; i++) {
        const rec *r = &bin.items[i];
        if (strcmp(r->name, "_Z7boundedPf") == 0) {
            assert_int_equal(r->f.max_threads[0], 128); /* __launch_bounds__(128, 4) */
            assert_int_equal(r->f.smem_bytes, 4096);    /* float tile[1024] */
            assert_int_equal(r->f.param_bytes, 8);      /* one pointer */
        } else if (strcmp(r->name, "_Z6cappedPf") == 0) {
            assert_int_equal(r->f.max_regs, 40); /* __maxnreg__(40) */
        } else if (strcmp(r->name, "_Z9clusteredPf") == 0) {
            assert_true(r->f.sm >= 90);                /* compiled from sm_90 only */
            assert_int_equal(r->f.cluster_dims[0], 2); /* __cluster_dims__(2, 1, 1) */
            assert_int_equal(r->f.cluster_dims[1], 1);
            assert_int_equal(r->f.cluster_dims[2], 1);
            clustered++;
        } else if (strcmp(r->name, "_Z5plainPfi") == 0) {
            assert_int_equal(r->f.max_threads[0], 0);
            assert_int_equal(r->f.max_regs, 0);
            assert_int_equal(r->f.param_bytes, 12); /* pointer + int */
        }
        /* the reserved-prefix rule: sm_90+ sections hold 1 KB more than the driver counts */
        assert_int_equal(r->f.smem_section_bytes - r->f.smem_bytes, r->f.sm >= 90 ? 1024 : 0);
    }
    assert_int_equal(clustered, 4); /* sm_90, sm_90a, sm_100, sm_120 */
    char *name = inspect_demangle("_Z12dynamic_smemIfEvPT_");
    assert_non_null(name);
    assert_string_equal(name, "void dynamic_smem<float>(float*)");
    free(name);
    assert_null(inspect_demangle("turing_cgemm_32x32_cc"));
}

/* -rdc: a relocatable cubin; device functions are functions, not kernels. */
static void rdc_test(void **state)
{
    (void)state;
    static recs log, bin;
    memset(&log, 0, sizeof log);
    memset(&bin, 0, sizeof bin);
    parse_log("rdc.log", &log);
    parse_binary("rdc.cubin", false, &bin);
    assert_matches_log(&log, &bin, "sm_90");
    const rec *callee = find(&bin, "sm_90", "_Z6calleePKii");
    assert_non_null(callee);
    assert_false(callee->f.is_kernel);
    assert_true(callee->f.relocatable);
}

/* Host executables: .nv_fatbin by default, __nv_relfatbin with --all. */
static void host_elf_test(void **state)
{
    (void)state;
    static recs log, bin;
    memset(&log, 0, sizeof log);
    memset(&bin, 0, sizeof bin);
    parse_log("app.log", &log);
    parse_binary("app", false, &bin);
    assert_matches_log(&log, &bin, "sm_90");
    bool ptx = false;
    for (int i = 0; i < bin.entry_count; i++) {
        ptx |= bin.entries[i].kind == INSP_ENTRY_PTX && bin.entries[i].sm == 120;
    }
    assert_true(ptx);
    memset(&bin, 0, sizeof bin);
    parse_binary("app_rdc", false, &bin);
    int linked = bin.count;
    for (int i = 0; i < bin.count; i++) {
        assert_false(bin.items[i].f.relocatable);
    }
    memset(&bin, 0, sizeof bin);
    parse_binary("app_rdc", true, &bin);
    int relocatable = 0;
    for (int i = 0; i < bin.count; i++) {
        relocatable += bin.items[i].f.relocatable;
    }
    assert_true(linked > 0);
    assert_true(relocatable > 0);
    assert_int_equal(bin.count, linked + relocatable);
}

/* Truncated and corrupted copies: an error with an offset inside the input, or success;
   never a crash or an overread (ASan build). */
static void corrupt_test(void **state)
{
    (void)state;
    static const char *const files[] = {"sm90a.cubin", "speed.fatbin", "default.fatbin", "app",
                                        "all.log"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        size_t size;
        uint8_t *data = load(files[i], &size);
        insp_format format = insp_detect(data, size);
        for (int step = 0; step < 160; step++) {
            size_t len = step < 80 ? size * (size_t)step / 80 : size;
            uint8_t *copy = malloc(len > 0 ? len : 1);
            assert_non_null(copy);
            memcpy(copy, data, len);
            if (step >= 80 && len > 0) {
                /* flip a byte somewhere in the first part, where the headers are */
                size_t at = ((size_t)step * 7919u) % (len < 4096 ? len : 4096);
                copy[at] ^= (uint8_t)(0x5A + step);
            }
            insp_sink sink = {NULL, NULL, NULL};
            insp_error err = {0, "", false, false};
            insp_scratch scratch = {0};
            size_t consumed;
            bool ok = true;
            switch (format) {
            case INSP_FORMAT_CUBIN: ok = insp_cubin_parse(copy, len, 0, &sink, &err); break;
            case INSP_FORMAT_FATBIN:
                ok = insp_fatbin_parse(copy, len, NULL, &scratch, &sink, &consumed, &err);
                break;
            case INSP_FORMAT_PTXAS_LOG:
                ok = insp_ptxas_log_parse((const char *)copy, len, &sink, &err);
                break;
            default: {
                static size_t regions[1 + 2 * 256];
                regions[0] = 0;
                ok = insp_host_elf_fatbins(copy, len, true, add_region, regions, &err);
                break;
            }
            }
            if (!ok) {
                assert_true(err.offset <= len);
                assert_true(strlen(err.message) > 0);
            }
            insp_scratch_free(&scratch);
            free(copy);
        }
        free(data);
    }
}

/* ------------------------------------------------------------------------ */
/* The command                                                              */
/* ------------------------------------------------------------------------ */

static const char *fixture(const char *name)
{
    static char path[4][512];
    static int next;
    char *p = path[next++ % 4];
    snprintf(p, 512, "%s/%s", fixtures, name);
    return p;
}

/* The JSON's occupancy is libocc's for the same kernel, and the CSV header is the issue's. */
static void cli_output_test(void **state)
{
    (void)state;
    assert_int_equal(OCC(NULL, "inspect", "--json", "--arch", "sm_90", fixture("all.fatbin")), 0);
    json_error_t jerr;
    json_t *doc = json_loads(last.out, 0, &jerr);
    if (doc == NULL) {
        fail_msg("JSON: %s at line %d", jerr.text, jerr.line);
    }
    json_t *functions = json_object_get(doc, "functions");
    assert_true(json_array_size(functions) >= 9);
    size_t i;
    json_t *fn;
    json_array_foreach(functions, i, fn)
    {
        /* --arch sm_90 takes sm_90 and sm_90a alike */
        assert_true(strncmp(json_string_value(json_object_get(fn, "arch")), "sm_90", 5) == 0);
        json_t *o = json_object_get(fn, "occupancy");
        assert_true(json_is_object(o));
        occ_device dev;
        assert_int_equal(occ_arch_find(9, 0, &dev, NULL), OCC_OK);
        occ_kernel k;
        occ_kernel_init(&k);
        k.regs_per_thread = (int)json_integer_value(json_object_get(fn, "regs"));
        k.static_smem_bytes = (int)json_integer_value(json_object_get(fn, "smem_bytes"));
        k.barriers = (int)json_integer_value(json_object_get(fn, "barriers"));
        json_t *bound = json_object_get(fn, "max_threads");
        if (json_is_array(bound)) {
            k.max_threads_per_block = (int)json_integer_value(json_array_get(bound, 0));
        }
        occ_block_size_result pick;
        assert_int_equal(occ_max_potential_block_size(&dev, &k, 0, NULL, NULL, &pick, NULL),
                         OCC_OK);
        assert_int_equal(json_integer_value(json_object_get(o, "threads")), pick.block_size);
        k.block_x = pick.block_size;
        occ_result r;
        assert_int_equal(occ_calc(&dev, &k, &r, NULL), OCC_OK);
        assert_int_equal(json_integer_value(json_object_get(o, "blocks_per_sm")), r.blocks_per_sm);
    }
    json_decref(doc);

    assert_int_equal(
        OCC(NULL, "inspect", "--csv", "--gpu", "H200", "--threads", "256", fixture("all.fatbin")),
        0);
    assert_true(strncmp(last.out, "arch,name,regs,smem,stack,", 26) == 0);
    assert_non_null(strstr(last.out, "\nsm_90a,bounded(float*),10,4096,0,"));
    /* sm_75 code does not run on an H200: no occupancy for it */
    assert_non_null(strstr(last.out, "arch does not run on this GPU"));

    assert_int_equal(OCC(NULL, "inspect", "--filter", "^bounded", "--mangled", fixture("app")), 0);
    assert_null(strstr(last.out, "bounded")); /* mangled names do not start so */
    assert_int_equal(OCC(NULL, "inspect", "--filter", "^bounded", fixture("app")), 0);
    assert_non_null(strstr(last.out, "bounded(float*)"));
    assert_non_null(strstr(last.out, "1 PTX entry for sm_120: no resource data"));

    assert_int_equal(
        OCC(NULL, "inspect", "--summary", fixture("all.fatbin"), fixture("speed.fatbin")), 0);
    assert_non_null(strstr(last.out, "Kernels by binding limiter"));
    assert_non_null(strstr(last.out, "[x2]")); /* sm_80/sm_90 kernels in both files */

    assert_int_equal(OCC(NULL, "inspect", fixture("all.log")), 0);
    assert_non_null(strstr(last.out, "void dynamic_smem<float>(float*)"));
}

static void cli_errors_test(void **state)
{
    (void)state;
    char path[64];
    snprintf(path, sizeof path, "/tmp/occ-inspect-test-%d.fatbin", (int)getpid());
    size_t size;
    uint8_t *data = load("default.fatbin", &size);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fwrite(data, 1, size / 2, f); /* truncated */
    fclose(f);
    free(data);
    assert_int_equal(OCC(NULL, "inspect", path), EXIT_DATA);
    assert_non_null(strstr(last.err, path));
    assert_non_null(strstr(last.err, "offset 0: fatbin declares"));
    assert_int_equal(strchr(last.err, '\n') - last.err + 1, (long)strlen(last.err)); /* one line */
    unlink(path);
    assert_int_equal(OCC(NULL, "inspect", "--sort", "size", fixture("app")), EXIT_USAGE);
    assert_int_equal(OCC(NULL, "inspect", "--arch", "gfx90", fixture("app")), EXIT_USAGE);
    assert_int_equal(OCC(NULL, "inspect", "--json", "--csv", fixture("app")), EXIT_USAGE);
    assert_int_equal(OCC(NULL, "inspect", "--filter", "(", fixture("app")), EXIT_USAGE);
    assert_int_equal(OCC(NULL, "inspect", "/nonexistent/x.cubin"), EXIT_DATA);
    assert_int_equal(OCC(NULL, "inspect", fixture("speed.err")), EXIT_DATA); /* empty */
    assert_int_equal(OCC(NULL, "inspect", "--help"), EXIT_OK);
    assert_non_null(strstr(last.out, "examples:"));
}

int main(void)
{
    const struct CMUnitTest plain_tests[] = {
        cmocka_unit_test(log_lines_test),
        cmocka_unit_test(log_errors_test),
        cmocka_unit_test(detect_test),
        cmocka_unit_test(probe_log_vs_driver_test),
    };
    int failed = cmocka_run_group_tests_name("inspect-log", plain_tests, NULL, NULL);
    fixtures = getenv("OCC_INSPECT_FIXTURES");
    char stamp[512];
    snprintf(stamp, sizeof stamp, "%s/stamp", fixtures != NULL ? fixtures : "");
    if (fixtures == NULL || access(stamp, R_OK) != 0) {
        fprintf(stderr, "test_inspect: SKIP the nvcc cases: no fixtures (nvcc not found at "
                        "configure time)\n");
        return failed != 0 ? 1 : 77;
    }
    const struct CMUnitTest nvcc_tests[] = {
        cmocka_unit_test(fatbin_vs_ptxas_test),
        cmocka_unit_test(compressed_test),
        cmocka_unit_test(part_read_test),
        cmocka_unit_test(part_read_engine_test),
        cmocka_unit_test(bare_cubin_test),
        cmocka_unit_test(source_facts_test),
        cmocka_unit_test(rdc_test),
        cmocka_unit_test(host_elf_test),
        cmocka_unit_test(corrupt_test),
        cmocka_unit_test(cli_output_test),
        cmocka_unit_test(cli_errors_test),
    };
    failed += cmocka_run_group_tests_name("inspect-nvcc", nvcc_tests, NULL, NULL);
    free(last.out);
    free(last.err);
    return failed != 0 ? 1 : 0;
}
