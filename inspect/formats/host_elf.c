/*
 * host_elf.c - where the fatbins of a host executable or shared library are.
 *
 * nvcc puts one fatbin container per translation unit into `.nv_fatbin`,
 * back to back and 8-aligned; -rdc builds put their pre-link code into
 * `__nv_relfatbin` (cuobjdump shows it only with -all); some libraries keep
 * containers in ordinary data sections (libcufft.so.12: `.ldata`,
 * 16-aligned). docs/binary-formats.md; checked on nvcc-built executables by
 * tests/test_inspect.c.
 */
#include <string.h>

#include "elf64.h"

#define ENTRY_MIN_HEADER_BYTES 0x40

static bool named(const char *name, size_t len, const char *want)
{
    return len == strlen(want) && memcmp(name, want, len) == 0;
}

/* A magic hit in an ordinary section counts only if a whole container with a
   sensible first entry follows. */
static bool plausible_container(const uint8_t *p, size_t avail)
{
    if (!insp_fatbin_probe(p, avail) || insp_u64(p + 8) < ENTRY_MIN_HEADER_BYTES) {
        return false;
    }
    uint16_t kind = insp_u16(p + 16);
    uint32_t header = insp_u32(p + 16 + 4);
    return (kind == INSP_ENTRY_PTX || kind == INSP_ENTRY_CUBIN || kind == INSP_ENTRY_LTOIR) &&
           header >= ENTRY_MIN_HEADER_BYTES && header <= insp_u64(p + 8);
}

size_t insp_fatbin_next_offset(size_t offset, size_t size)
{
    return offset + (size + 7) / 8 * 8;
}

void insp_fatbin_candidates(const uint8_t *file, size_t section_offset, size_t section_size,
                            size_t from, size_t to, insp_region_fn found, void *context)
{
    size_t section_end = section_offset + section_size;
    size_t at = (from + 7) / 8 * 8;
    if (at < section_offset) {
        at = (section_offset + 7) / 8 * 8;
    }
    if (to > section_end) {
        to = section_end;
    }
    for (; at < to && section_end - at >= 16; at += 8) {
        const uint8_t *p = file + at;
        if (insp_u32(p) == 0xBA55ED50u && plausible_container(p, section_end - at)) {
            found(context, at, 16 + (size_t)insp_u64(p + 8), INSP_REGION_OTHER);
        }
    }
}

typedef struct scan_state {
    insp_region_fn found;
    void *context;
    size_t next; /* candidates before this lie inside the last container */
} scan_state;

static void keep_first(void *context, size_t offset, size_t size, insp_region_kind kind)
{
    scan_state *state = context;
    if (offset >= state->next) {
        state->found(state->context, offset, size, kind);
        state->next = insp_fatbin_next_offset(offset, size);
    }
}

bool insp_host_elf_sections(const uint8_t *data, size_t size, bool relfatbin, insp_section_fn found,
                            void *context, insp_error *err)
{
    elf64_file elf;
    if (!elf64_open(data, size, &elf, err)) {
        return false;
    }
    for (uint32_t i = 0; i < elf.shnum; i++) {
        elf64_section s;
        elf64_section_at(&elf, i, &s);
        if (s.type == ELF_SHT_NOBITS || s.size == 0) {
            continue;
        }
        size_t len;
        const char *name = elf64_section_name(&elf, &s, &len);
        bool is_fatbin = named(name, len, ".nv_fatbin");
        bool is_rel = named(name, len, "__nv_relfatbin");
        if (!is_fatbin && !is_rel &&
            (s.type != ELF_SHT_PROGBITS || (s.flags & ELF_SHF_EXECINSTR) != 0 ||
             (len >= 6 && memcmp(name, ".debug", 6) == 0))) {
            continue;
        }
        if (!elf64_section_fits(&elf, &s, i, err)) {
            return false;
        }
        if (is_rel && !relfatbin) {
            continue;
        }
        found(context, name, len, (size_t)s.offset, (size_t)s.size,
              is_fatbin ? INSP_REGION_NV_FATBIN
              : is_rel  ? INSP_REGION_RELFATBIN
                        : INSP_REGION_OTHER);
    }
    return true;
}

typedef struct fatbins_state {
    const uint8_t *data;
    insp_region_fn found;
    void *context;
    insp_error *err;
    bool ok;
} fatbins_state;

static void read_section(void *context, const char *name, size_t name_len, size_t offset,
                         size_t size, insp_region_kind kind)
{
    (void)name;
    (void)name_len;
    fatbins_state *st = context;
    if (!st->ok) {
        return;
    }
    if (kind == INSP_REGION_OTHER) {
        scan_state scan = {st->found, st->context, 0};
        insp_fatbin_candidates(st->data, offset, size, offset, offset + size, keep_first, &scan);
    } else {
        st->ok = insp_fatbin_regions(st->data + offset, size, offset, kind, st->found, st->context,
                                     st->err);
    }
}

bool insp_host_elf_fatbins(const uint8_t *data, size_t size, bool relfatbin, insp_region_fn found,
                           void *context, insp_error *err)
{
    fatbins_state st = {data, found, context, err, true};
    return insp_host_elf_sections(data, size, relfatbin, read_section, &st, err) && st.ok;
}
