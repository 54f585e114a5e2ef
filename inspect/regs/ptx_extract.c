/*
 * ptx_extract.c - the PTX a binary carries: the fatbin containers of a
 * .fatbin file or of a host ELF file (insp_host_elf_fatbins: .nv_fatbin,
 * __nv_relfatbin and containers kept in other sections), their entries
 * walked as libocc-inspect's fatbin reader walks them (inspect/formats/
 * fatbin.c, whose header layout this repeats), and the PTX entry of the
 * arch asked for decompressed (LZ4 or zstd, within the reader's limits).
 * The entry header, as docs/binary-formats.md gives it:
 *
 *   0x00 u16 kind (1 PTX)        0x04 u32 header size
 *   0x08 u64 padded payload size 0x10 u32 compressed size
 *   0x1C u32 SM number           0x28 u64 flags (0x2000 LZ4, 0x8000 zstd,
 *   0x38 u64 uncompressed size        0x100000 'a', 0x200000 'f')
 */
#include <stdlib.h>
#include <string.h>

#include "bytes.h"
#include "formats.h"
#include "regs_internal.h"

#define ENTRY_KIND_PTX 1
#define FLAG_LZ4 0x2000u
#define FLAG_ZSTD 0x8000u
#define FLAG_ARCH_SPECIFIC 0x100000u
#define FLAG_FAMILY 0x200000u
#define MAX_PTX_ENTRIES 4096

typedef struct ptx_candidate {
    size_t offset; /* of the entry header, in the file */
    int sm;
    char suffix;
} ptx_candidate;

typedef struct walk {
    const uint8_t *data;
    size_t size;
    ptx_candidate found[MAX_PTX_ENTRIES];
    int count;
    bool failed;
    insp_error error;
} walk;

static void on_entry(void *context, size_t offset, size_t size, insp_region_kind kind)
{
    (void)kind;
    walk *w = context;
    if (size < 0x40 || !insp_fits(w->size, offset, size) || w->count == MAX_PTX_ENTRIES) {
        return;
    }
    const uint8_t *h = w->data + offset;
    if (insp_u16(h) != ENTRY_KIND_PTX) {
        return;
    }
    uint64_t flags = insp_u64(h + 0x28);
    uint32_t sm = insp_u32(h + 0x1C);
    ptx_candidate *c = &w->found[w->count++];
    c->offset = offset;
    c->sm = sm > 10000 ? 10000 : (int)sm;
    c->suffix = (flags & FLAG_ARCH_SPECIFIC) ? 'a' : (flags & FLAG_FAMILY) ? 'f' : 0;
}

static void on_container(void *context, size_t offset, size_t size, insp_region_kind kind)
{
    (void)kind;
    walk *w = context;
    if (w->failed || !insp_fits(w->size, offset, size)) {
        return;
    }
    insp_error err;
    if (!insp_fatbin_entries(w->data + offset, size, offset, on_entry, w, &err)) {
        w->failed = true;
        w->error = err;
        w->error.offset += offset;
    }
}

/* The better of two candidates for (want_sm, want_suffix). */
static bool better(const ptx_candidate *a, const ptx_candidate *b, int want_sm, char want_suffix)
{
    if (want_sm > 0) {
        /* a suffixed entry runs only on its own arch */
        bool a_fits =
            a->sm <= want_sm && (a->suffix == 0 || (a->sm == want_sm && a->suffix == want_suffix));
        bool b_fits =
            b->sm <= want_sm && (b->suffix == 0 || (b->sm == want_sm && b->suffix == want_suffix));
        if (a_fits != b_fits) {
            return a_fits;
        }
    }
    if (a->sm != b->sm) {
        return a->sm > b->sm;
    }
    return a->suffix == want_suffix && b->suffix != want_suffix;
}

static occ_status entry_text(const uint8_t *data, size_t size, const ptx_candidate *c, char **ptx,
                             size_t *ptx_size, occ_inspect_error *err)
{
    const uint8_t *h = data + c->offset;
    uint32_t header_bytes = insp_u32(h + 0x04);
    uint64_t padded = insp_u64(h + 0x08);
    uint32_t packed = insp_u32(h + 0x10);
    uint64_t flags = insp_u64(h + 0x28);
    uint64_t unpacked = insp_u64(h + 0x38);
    if (!insp_fits(size - c->offset, header_bytes, padded)) {
        return regs_fail(err, OCC_ERR_BAD_FORMAT,
                         "offset %zu: the sm_%d PTX entry runs past the "
                         "file's end",
                         c->offset, c->sm);
    }
    const uint8_t *payload = h + header_bytes;
    insp_compression method = (flags & FLAG_ZSTD)  ? INSP_COMPRESSION_ZSTD
                              : (flags & FLAG_LZ4) ? INSP_COMPRESSION_LZ4
                                                   : INSP_COMPRESSION_NONE;
    size_t text_bytes = (size_t)padded;
    if (method != INSP_COMPRESSION_NONE) {
        if (packed > padded || unpacked == 0 || unpacked > OCC_REGS_MAX_PTX_BYTES ||
            unpacked > (uint64_t)packed * OCC_INSPECT_MAX_COMPRESSION_RATIO) {
            return regs_fail(err, OCC_ERR_BAD_FORMAT,
                             "offset %zu: the sm_%d PTX entry claims %llu bytes from %u "
                             "compressed (at most %zu, %d times)",
                             c->offset, c->sm, (unsigned long long)unpacked, packed,
                             OCC_REGS_MAX_PTX_BYTES, OCC_INSPECT_MAX_COMPRESSION_RATIO);
        }
        text_bytes = (size_t)unpacked;
    } else if (padded > OCC_REGS_MAX_PTX_BYTES) {
        return regs_fail(err, OCC_ERR_LIMIT, "offset %zu: the sm_%d PTX entry is above %zu bytes",
                         c->offset, c->sm, OCC_REGS_MAX_PTX_BYTES);
    }
    char *text = malloc(text_bytes + 1);
    if (text == NULL) {
        return regs_fail(err, OCC_ERR_OUT_OF_MEMORY, "out of memory for %zu bytes of PTX",
                         text_bytes);
    }
    if (method == INSP_COMPRESSION_NONE) {
        memcpy(text, payload, text_bytes);
    } else {
        insp_error derr;
        if (!insp_decompress(method, payload, packed, (uint8_t *)text, text_bytes, &derr)) {
            free(text);
            return regs_fail(err, OCC_ERR_BAD_FORMAT, "offset %zu: the sm_%d PTX entry: %s",
                             c->offset, c->sm, derr.message);
        }
    }
    text[text_bytes] = '\0';
    /* the payload is padded with NULs */
    *ptx_size = strlen(text);
    *ptx = text;
    return OCC_OK;
}

occ_status regs_ptx_extract(const uint8_t *data, size_t size, int want_sm, char want_suffix,
                            char **ptx, size_t *ptx_size, int *found_sm, char *found_suffix,
                            const char **kind_name, occ_inspect_error *err)
{
    *ptx = NULL;
    insp_format format = insp_detect(data, size);
    *kind_name = insp_format_name(format);
    walk *w = calloc(1, sizeof *w);
    if (w == NULL) {
        return regs_fail(err, OCC_ERR_OUT_OF_MEMORY, "out of memory");
    }
    w->data = data;
    w->size = size;
    insp_error ierr;
    bool ok = true;
    switch (format) {
    case INSP_FORMAT_FATBIN:
        ok = insp_fatbin_regions(data, size, 0, INSP_REGION_FILE, on_container, w, &ierr);
        break;
    case INSP_FORMAT_HOST_ELF:
        ok = insp_host_elf_fatbins(data, size, true, on_container, w, &ierr);
        break;
    case INSP_FORMAT_CUBIN:
        free(w);
        return regs_fail(err, OCC_ERR_BAD_FORMAT,
                         "a cubin holds no PTX: give the .ptx, the .cu, or a fatbin or binary "
                         "built with PTX (-gencode ...,code=compute_XX)");
    default:
        free(w);
        return regs_fail(err, OCC_ERR_BAD_FORMAT,
                         "not PTX (no .version directive first), a .cu file, or a fatbin or "
                         "binary that embeds PTX (found: %s)",
                         insp_format_name(format));
    }
    if (!ok || w->failed) {
        insp_error *e = ok ? &w->error : &ierr;
        occ_status s = regs_fail(err, OCC_ERR_BAD_FORMAT, "offset %zu: %s", e->offset, e->message);
        free(w);
        return s;
    }
    if (w->count == 0) {
        free(w);
        return regs_fail(err, OCC_ERR_NOT_FOUND,
                         "no PTX in this %s: it was built without -gencode ...,code=compute_XX",
                         *kind_name);
    }
    const ptx_candidate *best = &w->found[0];
    for (int i = 1; i < w->count; i++) {
        if (better(&w->found[i], best, want_sm, want_suffix)) {
            best = &w->found[i];
        }
    }
    if (want_sm > 0 &&
        (best->sm > want_sm ||
         (best->suffix != 0 && (best->sm != want_sm || best->suffix != want_suffix)))) {
        char archs[256] = "";
        size_t used = 0;
        for (int i = 0; i < w->count && used < sizeof archs - 16; i++) {
            char name[16];
            occ_inspect_arch_name(w->found[i].sm, w->found[i].suffix, name, sizeof name);
            used += (size_t)snprintf(archs + used, sizeof archs - used, "%scompute_%s",
                                     i > 0 ? ", " : "", name + 3);
        }
        char want[16];
        occ_inspect_arch_name(want_sm, want_suffix, want, sizeof want);
        free(w);
        return regs_fail(err, OCC_ERR_NOT_FOUND,
                         "no PTX for %s or an arch below it: this file's PTX is for %s", want,
                         archs);
    }
    ptx_candidate chosen = *best;
    free(w);
    *found_sm = chosen.sm;
    *found_suffix = chosen.suffix;
    return entry_text(data, size, &chosen, ptx, ptx_size, err);
}
