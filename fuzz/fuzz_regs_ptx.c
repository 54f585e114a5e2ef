/*
 * fuzz_regs_ptx.c - fuzzes occ regs' parsers (inspect/regs/): the PTX module reader
 * and the __launch_bounds__ rewrite, which must give PTX the reader reads back with
 * the same entries, each carrying the new .minnctapersm; the PTX found in a fatbin or
 * host ELF file (ptx_extract.c); and the cache entry reader (cache.c), on the same
 * bytes.
 */
#include "fuzz_inspect.h"
#include "regs_internal.h"

static void fail(const char *what)
{
    fprintf(stderr, "fuzz_regs_ptx: %s\n", what);
    abort();
}

static void module_and_rewrite(const char *text, size_t size)
{
    ptx_module m;
    occ_inspect_error err;
    if (regs_ptx_parse(text, size, &m, &err) != OCC_OK) {
        if (err.message[0] == '\0' || strchr(err.message, '\n') != NULL) {
            fail("a refusal without one line");
        }
        return;
    }
    bool *selected = calloc(m.entry_count + 1, sizeof *selected);
    int *threads = calloc(m.entry_count + 1, sizeof *threads);
    if (selected == NULL || threads == NULL) {
        abort();
    }
    for (size_t i = 0; i < m.entry_count; i++) {
        const ptx_entry *e = &m.entries[i];
        if (e->name_at + e->name_len > size || e->body_at >= size || text[e->body_at] != '{' ||
            e->minncta_at + e->minncta_len > e->body_at) {
            fail("an entry outside its text");
        }
        selected[i] = true;
        threads[i] = 64;
    }
    size_t out_size = 0;
    char *variant = regs_ptx_with_min_blocks(text, size, &m, selected, threads, 3, &out_size);
    if (variant == NULL) {
        abort();
    }
    ptx_module again;
    if (regs_ptx_parse(variant, out_size, &again, &err) != OCC_OK) {
        fprintf(stderr, "%s\n", err.message);
        fail("the rewrite does not read back");
    }
    if (again.entry_count != m.entry_count) {
        fail("the rewrite changed the entries");
    }
    for (size_t i = 0; i < m.entry_count; i++) {
        const ptx_entry *a = &m.entries[i], *b = &again.entries[i];
        if (a->name_len != b->name_len ||
            memcmp(text + a->name_at, variant + b->name_at, a->name_len) != 0 ||
            b->minnctapersm != 3 || (b->maxntid[0] == 0 && b->reqntid[0] == 0)) {
            fail("the rewrite lost a name or a directive");
        }
    }
    regs_ptx_module_free(&again);
    regs_ptx_module_free(&m);
    free(variant);
    free(selected);
    free(threads);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* the PTX reader reads text with a NUL after it, as regs_read_file gives it */
    char *text = malloc(size + 1);
    if (text == NULL) {
        abort();
    }
    memcpy(text, data, size);
    text[size] = '\0';
    module_and_rewrite(text, size);

    uint8_t *copy = fuzz_copy(data, size);
    char *ptx = NULL;
    size_t ptx_size = 0;
    int sm = 0;
    char suffix = 0;
    const char *kind = NULL;
    if (regs_ptx_extract(copy, size, 90, 0, &ptx, &ptx_size, &sm, &suffix, &kind, NULL) == OCC_OK) {
        if (ptx == NULL || ptx[ptx_size] != '\0' || sm > 90) {
            fail("extracted PTX not NUL-terminated, or of another arch");
        }
        module_and_rewrite(ptx, ptx_size);
    }
    free(ptx);
    free(copy);

    /* the same bytes as a cache entry, under the key its header names */
    char key[65] = "0000000000000000000000000000000000000000000000000000000000000000";
    if (size > 79 && memcmp(text, "occ-regs-cache 1 ", 17) == 0) {
        memcpy(key, text + 17, 64);
    }
    regs_cache_entry entry;
    if (regs_cache_entry_parse(text, size, key, false, &entry)) {
        if (entry.log != text || entry.log[entry.log_size] != '\0' ||
            entry.log_size + entry.cubin_size > size) {
            fail("a cache entry read outside its text");
        }
        free(entry.cubin);
    }
    free(text);
    return 0;
}
