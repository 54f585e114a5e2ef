/*
 * fatbin.c - fatbin containers and their entries (docs/binary-formats.md, checked
 * against nvcc -fatbin output by tests/test_inspect.c).
 *
 * Container: u32 magic 0xBA55ED50, u16 version 1, u16 header size 16,
 * u64 bytes of entries. Entry header (little-endian):
 *   0x00 u16 kind (1 PTX, 2 cubin, 8 LTO-IR)   0x04 u32 header size
 *   0x08 u64 padded payload size               0x10 u32 compressed size
 *   0x1C u32 SM number                         0x28 u64 flags
 *   0x38 u64 uncompressed size
 */
#include <stdlib.h>
#include <string.h>

#include "bytes.h"
#include "elf64.h"
#include "occ_inspect.h"

#define FATBIN_MAGIC 0xBA55ED50u /* fatbinary_section.h FATBIN_MAGIC */
#define FATBIN_HEADER_BYTES 16
#define ENTRY_MIN_HEADER_BYTES 0x40 /* smallest entry header seen (CUDA 11-13) */
#define ENTRY_MAX_HEADER_BYTES 0x1000
#define FLAG_LZ4 0x2000u             /* payload is a raw LZ4 block */
#define FLAG_ZSTD 0x8000u            /* payload is a zstd frame */
#define FLAG_ARCH_SPECIFIC 0x100000u /* sm_90a-style target */
#define FLAG_FAMILY 0x200000u        /* sm_100f-style target */
/* The decompressed size an entry may claim (occ_inspect.h says why these). */
#define MAX_UNCOMPRESSED_BYTES ((uint64_t)OCC_INSPECT_MAX_ENTRY_BYTES)
#define MAX_RATIO ((uint64_t)OCC_INSPECT_MAX_COMPRESSION_RATIO)

bool insp_fatbin_probe(const uint8_t *data, size_t size)
{
    return size >= FATBIN_HEADER_BYTES && insp_u32(data) == FATBIN_MAGIC &&
           insp_u16(data + 4) == 1 && insp_u16(data + 6) == FATBIN_HEADER_BYTES &&
           insp_fits(size, FATBIN_HEADER_BYTES, insp_u64(data + 8));
}

static bool filter_wants(const insp_filter *filter, int sm, char suffix)
{
    if (filter == NULL || filter->sm == 0) {
        return true;
    }
    return sm == filter->sm && (filter->any_suffix || suffix == filter->suffix);
}

static bool grow(insp_scratch *scratch, size_t bytes, size_t offset, insp_error *err)
{
    if (scratch->capacity >= bytes) {
        return true;
    }
    uint8_t *bigger = realloc(scratch->data, bytes);
    if (bigger == NULL) {
        return insp_fail(err, offset, "out of memory for a %zu-byte entry", bytes);
    }
    scratch->data = bigger;
    scratch->capacity = bytes;
    return true;
}

/*
 * Reading in part. A zstd cubin of tens of MB (NCCL 2.28's six linked cubins:
 * 50 to 134 MB) is nearly all machine code, which occ never reads: what it
 * reads comes first (ELF header, .shstrtab, .strtab, .symtab, .nv.info*:
 * NCCL's end by 4.3 MB) and last (the section table: 150 to 350 KB). So the
 * frame is decompressed a piece at a time, the head and the tail kept, the
 * middle decompressed into a small buffer and dropped: the memory is the
 * head, the tail and zstd's window (2 MB there) instead of the whole cubin,
 * and no thread waits for a buffer. zstd still decodes every byte; nothing
 * is skipped but memory. Where anything read lies in the middle, or the
 * layout is another, the entry is read whole: same result, more memory.
 */
typedef struct part_plan {
    size_t head_bytes;
    size_t tail_max_bytes;
    size_t window_max_bytes;
} part_plan;

static size_t or_default(size_t value, size_t fallback)
{
    return value > 0 ? value : fallback;
}

/* Whether the entry is read in part with these settings, and the plan. */
static bool plan_part(const insp_scratch *scratch, const insp_entry *e, const uint8_t *payload,
                      uint32_t packed_bytes, part_plan *plan)
{
    if (scratch == NULL || scratch->whole_only || e->compression != INSP_COMPRESSION_ZSTD ||
        e->uncompressed_bytes < or_default(scratch->part_min_bytes, INSP_PART_MIN_BYTES)) {
        return false;
    }
    plan->head_bytes = or_default(scratch->part_head_bytes, INSP_PART_HEAD_BYTES);
    plan->tail_max_bytes = or_default(scratch->part_tail_max_bytes, INSP_PART_TAIL_MAX_BYTES);
    plan->window_max_bytes = INSP_PART_WINDOW_MAX_BYTES;
    if (plan->head_bytes < ELF64_HEADER_BYTES) {
        return false;
    }
    size_t window = insp_zstd_window_bytes(payload, packed_bytes);
    return window > 0 && window <= plan->window_max_bytes &&
           plan->head_bytes + plan->tail_max_bytes < e->uncompressed_bytes;
}

/* The scratch a part read takes: head, tail, and (charged, not used here)
   zstd's window. */
static size_t part_bytes(const part_plan *plan)
{
    return plan->head_bytes + plan->tail_max_bytes + plan->window_max_bytes;
}

/* Reads the entry in part; false where it must be read whole (nothing has
   been reported then). */
static bool read_cubin_in_part(const uint8_t *payload, uint32_t packed_bytes, const insp_entry *e,
                               const part_plan *plan, insp_scratch *scratch, const insp_sink *sink)
{
    size_t size = (size_t)e->uncompressed_bytes;
    size_t need = plan->head_bytes + plan->tail_max_bytes;
    if (scratch->capacity < need) {
        if (scratch->fixed) {
            return false;
        }
        uint8_t *bigger = realloc(scratch->data, need);
        if (bigger == NULL) {
            return false;
        }
        scratch->data = bigger;
        scratch->capacity = need;
    }
    uint8_t *head = scratch->data;
    uint8_t *tail = scratch->data + plan->head_bytes;
    insp_zstd_stream stream;
    if (!insp_zstd_stream_open(&stream, payload, packed_bytes, plan->window_max_bytes)) {
        return false;
    }
    bool ok = insp_zstd_stream_read(&stream, head, plan->head_bytes);
    /* the section table, and everything after it, is the tail */
    uint64_t tail_from = ok ? elf64_section_table_offset(head, plan->head_bytes) : 0;
    ok = ok && tail_from >= plan->head_bytes && tail_from <= size &&
         size - tail_from <= plan->tail_max_bytes &&
         insp_zstd_stream_read(&stream, NULL, (size_t)tail_from - plan->head_bytes) &&
         insp_zstd_stream_read(&stream, tail, size - (size_t)tail_from) &&
         insp_zstd_stream_end(&stream);
    insp_zstd_stream_close(&stream);
    /* any failure, damage included, is left to the whole read to report */
    insp_error ignored;
    return ok && insp_cubin_parse_split(head, plan->head_bytes, tail, (size_t)tail_from, size,
                                        e->arch_suffix, sink, &ignored);
}

/* Reads one cubin entry's payload (decompressing if needed) and its functions. */
static bool read_cubin_entry(const uint8_t *payload, const insp_entry *e, uint32_t packed_bytes,
                             insp_scratch *scratch, const insp_sink *sink, insp_error *err)
{
    const uint8_t *cubin = payload;
    size_t cubin_size = (size_t)e->payload_bytes;
    if (e->compression != INSP_COMPRESSION_NONE) {
        if (packed_bytes > e->payload_bytes) {
            return insp_fail(err, e->offset,
                             "entry: compressed size %u exceeds its payload "
                             "of %llu bytes",
                             packed_bytes, (unsigned long long)e->payload_bytes);
        }
        if (e->uncompressed_bytes == 0) {
            return insp_fail(err, e->offset,
                             "sm_%d cubin entry: compressed, with no "
                             "uncompressed size",
                             e->sm);
        }
        /* Checked before any allocation: the size is the file's claim. */
        if (e->uncompressed_bytes > MAX_UNCOMPRESSED_BYTES) {
            return insp_fail_limit(err, e->offset,
                                   "sm_%d cubin entry claims %llu bytes "
                                   "decompressed, above the limit of %llu (%llu MiB)",
                                   e->sm, (unsigned long long)e->uncompressed_bytes,
                                   (unsigned long long)MAX_UNCOMPRESSED_BYTES,
                                   (unsigned long long)(MAX_UNCOMPRESSED_BYTES >> 20));
        }
        if (e->uncompressed_bytes > (uint64_t)packed_bytes * MAX_RATIO) {
            return insp_fail_limit(err, e->offset,
                                   "sm_%d cubin entry claims %llu bytes "
                                   "decompressed from %u, above the limit of %llu times its "
                                   "compressed size",
                                   e->sm, (unsigned long long)e->uncompressed_bytes, packed_bytes,
                                   (unsigned long long)MAX_RATIO);
        }
        part_plan plan;
        if (plan_part(scratch, e, payload, packed_bytes, &plan)) {
            if (read_cubin_in_part(payload, packed_bytes, e, &plan, scratch, sink)) {
                scratch->entries_in_part++;
                return true;
            }
            scratch->entries_part_refused++;
        }
        if (scratch != NULL && scratch->fixed && scratch->capacity < e->uncompressed_bytes) {
            /* the lent buffer was sized for a part read: the caller lends a whole one */
            return insp_fail_missing(err, e->offset, "sm_%d cubin entry: read whole", e->sm);
        }
        if (!grow(scratch, (size_t)e->uncompressed_bytes, e->offset, err)) {
            return false;
        }
        if (!insp_decompress_with(scratch, e->compression, payload, packed_bytes, scratch->data,
                                  (size_t)e->uncompressed_bytes, err)) {
            char reason[INSP_ERROR_MESSAGE_BYTES];
            snprintf(reason, sizeof reason, "%s", err != NULL ? err->message : "");
            return insp_fail(err, e->offset, "sm_%d cubin entry: %s", e->sm, reason);
        }
        cubin = scratch->data;
        cubin_size = (size_t)e->uncompressed_bytes;
    }
    insp_error inner;
    if (!insp_cubin_parse(cubin, cubin_size, e->arch_suffix, sink, &inner)) {
        if (e->compression == INSP_COMPRESSION_NONE) {
            /* an offset within the payload; the caller adds where it starts */
            if (err != NULL) {
                *err = inner;
            }
            return false;
        }
        return insp_fail(err, e->offset,
                         "sm_%d cubin entry, at offset %zu of its "
                         "decompressed bytes: %s",
                         e->sm, inner.offset, inner.message);
    }
    return true;
}

/* Checks a container header at data[0] and returns the end of its entries. */
static bool container_header(const uint8_t *data, size_t size, size_t *entries_start, size_t *end,
                             insp_error *err)
{
    if (size < FATBIN_HEADER_BYTES) {
        return insp_fail(err, 0, "fatbin header truncated: %zu of 16 bytes", size);
    }
    if (insp_u32(data) != FATBIN_MAGIC) {
        return insp_fail(err, 0, "no fatbin magic (0x%08x, expected 0xBA55ED50)", insp_u32(data));
    }
    uint16_t header_bytes = insp_u16(data + 6);
    uint64_t entries_bytes = insp_u64(data + 8);
    if (header_bytes < FATBIN_HEADER_BYTES) {
        return insp_fail(err, 6, "fatbin header size %u, expected at least 16", header_bytes);
    }
    if (!insp_fits(size, header_bytes, entries_bytes)) {
        return insp_fail(err, 8, "fatbin declares %llu bytes of entries; only %zu follow",
                         (unsigned long long)entries_bytes,
                         size > header_bytes ? size - header_bytes : 0);
    }
    *entries_start = header_bytes;
    *end = header_bytes + (size_t)entries_bytes;
    return true;
}

/* Decodes the entry header at data[at], which must lie with its payload
   before `end`; *entry_bytes receives header plus padded payload. */
static bool entry_header(const uint8_t *data, size_t at, size_t end, insp_entry *e,
                         size_t *entry_bytes, insp_error *err)
{
    if (end - at < ENTRY_MIN_HEADER_BYTES) {
        return insp_fail(err, at, "fatbin entry header truncated: %zu of %d bytes", end - at,
                         ENTRY_MIN_HEADER_BYTES);
    }
    const uint8_t *h = data + at;
    uint32_t header_bytes = insp_u32(h + 0x04);
    uint64_t padded_bytes = insp_u64(h + 0x08);
    if (header_bytes < ENTRY_MIN_HEADER_BYTES || header_bytes > ENTRY_MAX_HEADER_BYTES) {
        return insp_fail(err, at + 4, "fatbin entry header size %u is outside %d..%d", header_bytes,
                         ENTRY_MIN_HEADER_BYTES, ENTRY_MAX_HEADER_BYTES);
    }
    if (!insp_fits(end - at, header_bytes, padded_bytes)) {
        return insp_fail(err, at + 8,
                         "fatbin entry payload of %llu bytes runs past the "
                         "container end",
                         (unsigned long long)padded_bytes);
    }
    uint64_t flags = insp_u64(h + 0x28);
    memset(e, 0, sizeof *e);
    e->kind = insp_u16(h);
    uint32_t sm = insp_u32(h + 0x1C);
    e->sm = sm > 10000 ? 10000 : (int)sm;
    e->arch_suffix = (flags & FLAG_ARCH_SPECIFIC) ? 'a' : (flags & FLAG_FAMILY) ? 'f' : 0;
    e->compression = (flags & FLAG_ZSTD)  ? INSP_COMPRESSION_ZSTD
                     : (flags & FLAG_LZ4) ? INSP_COMPRESSION_LZ4
                                          : INSP_COMPRESSION_NONE;
    e->offset = at;
    e->payload_bytes = padded_bytes;
    e->uncompressed_bytes =
        e->compression != INSP_COMPRESSION_NONE ? insp_u64(h + 0x38) : padded_bytes;
    *entry_bytes = header_bytes + (size_t)padded_bytes;
    return true;
}

/* Reports the entry at data[at] and, if it is a wanted cubin, its functions. */
static bool read_entry(const uint8_t *data, size_t at, size_t end, const insp_filter *filter,
                       insp_scratch *scratch, const insp_sink *sink, size_t *entry_bytes,
                       insp_error *err)
{
    insp_entry e;
    if (!entry_header(data, at, end, &e, entry_bytes, err)) {
        return false;
    }
    e.skipped = !filter_wants(filter, e.sm, e.arch_suffix);
    if (sink != NULL && sink->entry != NULL) {
        sink->entry(sink->context, &e);
    }
    if (e.kind == INSP_ENTRY_CUBIN && !e.skipped) {
        const uint8_t *h = data + at;
        uint32_t header_bytes = insp_u32(h + 0x04);
        if (!read_cubin_entry(h + header_bytes, &e, insp_u32(h + 0x10), scratch, sink, err)) {
            if (err != NULL && e.compression == INSP_COMPRESSION_NONE) {
                err->offset += at + header_bytes;
            }
            return false;
        }
    }
    return true;
}

bool insp_fatbin_parse(const uint8_t *data, size_t size, const insp_filter *filter,
                       insp_scratch *scratch, const insp_sink *sink, size_t *consumed,
                       insp_error *err)
{
    size_t at;
    size_t end;
    if (!container_header(data, size, &at, &end, err)) {
        return false;
    }
    *consumed = end;
    while (at < end) {
        size_t entry_bytes = 0;
        if (!read_entry(data, at, end, filter, scratch, sink, &entry_bytes, err)) {
            return false;
        }
        at += entry_bytes;
    }
    return true;
}

bool insp_fatbin_entries(const uint8_t *data, size_t size, size_t base_offset, insp_region_fn found,
                         void *context, insp_error *err)
{
    size_t at;
    size_t end;
    if (!container_header(data, size, &at, &end, err)) {
        return false;
    }
    while (at < end) {
        insp_entry e;
        size_t entry_bytes = 0;
        if (!entry_header(data, at, end, &e, &entry_bytes, err)) {
            return false;
        }
        found(context, base_offset + at, entry_bytes, INSP_REGION_FILE);
        at += entry_bytes;
    }
    return true;
}

size_t insp_fatbin_entry_scratch_bytes(const uint8_t *data, size_t size, const insp_filter *filter,
                                       const insp_scratch *scratch)
{
    insp_entry e = {0};
    size_t entry_bytes = 0;
    if (!entry_header(data, 0, size, &e, &entry_bytes, NULL) || e.kind != INSP_ENTRY_CUBIN ||
        e.compression == INSP_COMPRESSION_NONE || !filter_wants(filter, e.sm, e.arch_suffix) ||
        e.uncompressed_bytes > MAX_UNCOMPRESSED_BYTES ||
        e.uncompressed_bytes > (uint64_t)insp_u32(data + 0x10) * MAX_RATIO) {
        return 0;
    }
    part_plan plan;
    uint32_t header_bytes = insp_u32(data + 0x04);
    uint32_t packed_bytes = insp_u32(data + 0x10);
    if (insp_fits(size, header_bytes, packed_bytes) &&
        plan_part(scratch, &e, data + header_bytes, packed_bytes, &plan)) {
        return part_bytes(&plan);
    }
    return (size_t)e.uncompressed_bytes;
}

bool insp_fatbin_entry_parse(const uint8_t *data, size_t size, const insp_filter *filter,
                             insp_scratch *scratch, const insp_sink *sink, insp_error *err)
{
    size_t entry_bytes = 0;
    if (!read_entry(data, 0, size, filter, scratch, sink, &entry_bytes, err)) {
        return false;
    }
    if (entry_bytes != size) {
        return insp_fail(err, 8, "fatbin entry of %zu bytes, expected %zu", entry_bytes, size);
    }
    return true;
}

bool insp_fatbin_regions(const uint8_t *data, size_t size, size_t base_offset,
                         insp_region_kind kind, insp_region_fn found, void *context,
                         insp_error *err)
{
    size_t at = 0;
    while (at < size) {
        if (size - at >= 4 && insp_u32(data + at) == FATBIN_MAGIC) {
            if (!insp_fatbin_probe(data + at, size - at)) {
                if (size - at < FATBIN_HEADER_BYTES) {
                    return insp_fail(err, base_offset + at,
                                     "fatbin header truncated: %zu of "
                                     "16 bytes",
                                     size - at);
                }
                uint64_t declared = insp_u64(data + at + 8);
                if (!insp_fits(size - at, FATBIN_HEADER_BYTES, declared)) {
                    return insp_fail(err, base_offset + at,
                                     "fatbin declares %llu bytes of "
                                     "entries; only %zu follow (truncated?)",
                                     (unsigned long long)declared, size - at - FATBIN_HEADER_BYTES);
                }
                return insp_fail(err, base_offset + at,
                                 "fatbin header: version %u, header "
                                 "size %u (expected 1 and 16)",
                                 insp_u16(data + at + 4), insp_u16(data + at + 6));
            }
            size_t length = FATBIN_HEADER_BYTES + (size_t)insp_u64(data + at + 8);
            found(context, base_offset + at, length, kind);
            at += length;
        } else {
            /* padding between containers: zeros up to the next 8-byte boundary */
            at += 8 - (at % 8);
        }
    }
    return true;
}
