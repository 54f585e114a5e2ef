/*
 * host_elf.c - where the fatbins of a host executable or shared library are.
 *
 * nvcc puts one fatbin container per translation unit into `.nv_fatbin`,
 * back to back and 8-aligned; -rdc builds put their pre-link code into
 * `__nv_relfatbin` (cuobjdump shows it only with -all); some libraries keep
 * containers in ordinary data sections (libcufft.so.12: `.ldata`,
 * 16-aligned). BINARY-FORMATS.md; checked on nvcc-built executables by
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

static void scan_section(const uint8_t *data, const elf64_section *s, insp_region_fn found,
                         void *context)
{
    size_t start = (size_t)s->offset;
    size_t size = (size_t)s->size;
    size_t at = (8 - start % 8) % 8;
    while (at + 16 <= size) {
        const uint8_t *p = data + start + at;
        if (insp_u32(p) == 0xBA55ED50u && plausible_container(p, size - at)) {
            size_t length = 16 + (size_t)insp_u64(p + 8);
            found(context, start + at, length, INSP_REGION_OTHER);
            at += (length + 7) / 8 * 8;
        } else {
            at += 8;
        }
    }
}

bool insp_host_elf_fatbins(const uint8_t *data, size_t size, bool relfatbin,
                           insp_region_fn found, void *context, insp_error *err)
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
        if (!is_fatbin && !is_rel && (s.type != ELF_SHT_PROGBITS ||
                                      (s.flags & ELF_SHF_EXECINSTR) != 0 ||
                                      (len >= 6 && memcmp(name, ".debug", 6) == 0))) {
            continue;
        }
        if (!elf64_section_fits(&elf, &s, i, err)) {
            return false;
        }
        if (is_fatbin || (is_rel && relfatbin)) {
            if (!insp_fatbin_regions(data + s.offset, (size_t)s.size, (size_t)s.offset,
                                     is_fatbin ? INSP_REGION_NV_FATBIN : INSP_REGION_RELFATBIN,
                                     found, context, err)) {
                return false;
            }
        } else if (!is_rel) {
            scan_section(data, &s, found, context);
        }
    }
    return true;
}
