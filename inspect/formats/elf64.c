/*
 * elf64.c - bounds-checked ELF64 header and section reading.
 *
 * Own code rather than libelf: cubins arrive as slices of a mapped file or of
 * a decompression buffer, thousands per library, and only the section table
 * and one symbol table are read; these few checked reads keep that
 * allocation-free and are fuzzed with the readers (fuzz/).
 */
#include <string.h>

#include "elf64.h"

bool elf64_is_elf(const uint8_t *data, size_t size)
{
    return size >= 4 && memcmp(data, "\177ELF", 4) == 0;
}

bool elf64_open(const uint8_t *data, size_t size, elf64_file *elf, insp_error *err)
{
    memset(elf, 0, sizeof *elf);
    if (!elf64_is_elf(data, size)) {
        return insp_fail(err, 0, "no ELF magic");
    }
    if (size < ELF64_HEADER_BYTES) {
        return insp_fail(err, size, "ELF header truncated: %zu of 64 bytes", size);
    }
    /* e_ident[EI_CLASS] 2 = ELFCLASS64, e_ident[EI_DATA] 1 = little-endian */
    if (data[4] != 2 || data[5] != 1) {
        return insp_fail(err, 4, "not a little-endian ELF64 file (class %u, data %u)", data[4],
                         data[5]);
    }
    elf->data = data;
    elf->size = size;
    elf->abi_version = data[8];
    elf->type = insp_u16(data + 16);
    elf->machine = insp_u16(data + 18);
    elf->flags = insp_u32(data + 48);
    elf->shoff = insp_u64(data + 40);
    uint16_t shentsize = insp_u16(data + 58);
    elf->shnum = insp_u16(data + 60);
    elf->shstrndx = insp_u16(data + 62);
    /* Kernels and fatbins are found by section: a file without a section
       table cannot be read, which is an error, not "no kernels". */
    if (elf->shoff == 0) {
        return insp_fail(err, 40,
                         "ELF file has no section table (e_shoff 0); occ finds "
                         "kernels and fatbins by section");
    }
    if (shentsize != ELF64_SHDR_BYTES) {
        return insp_fail(err, 58, "section header size %u, expected 64", shentsize);
    }
    if (elf->shnum == 0 || elf->shstrndx == ELF_SHN_XINDEX) {
        /* gABI "Extended Section Numbering": 65,280 sections or more keep the
           count in section 0's sh_size and the name table's index in its
           sh_link */
        if (!insp_fits(size, elf->shoff, ELF64_SHDR_BYTES)) {
            return insp_fail(err, 40,
                             "section table at offset %llu runs past the end (%zu "
                             "bytes)",
                             (unsigned long long)elf->shoff, size);
        }
        elf64_section first;
        elf->shnum = 1;
        elf64_section_at(elf, 0, &first);
        if (insp_u16(data + 60) == 0) {
            if (first.size == 0 || first.size > UINT32_MAX) {
                return insp_fail(err, 60, "section count 0 with %llu in section 0's sh_size",
                                 (unsigned long long)first.size);
            }
            elf->shnum = (uint32_t)first.size;
        } else {
            elf->shnum = insp_u16(data + 60);
        }
        if (elf->shstrndx == ELF_SHN_XINDEX) {
            elf->shstrndx = first.link;
        }
    }
    if (!insp_fits(size, elf->shoff, (uint64_t)elf->shnum * ELF64_SHDR_BYTES)) {
        return insp_fail(err, 40,
                         "section table (%u entries at offset %llu) runs past the "
                         "end (%zu bytes)",
                         elf->shnum, (unsigned long long)elf->shoff, size);
    }
    if (elf->shstrndx >= elf->shnum) {
        return insp_fail(err, 62, "section-name table index %u beyond %u sections", elf->shstrndx,
                         elf->shnum);
    }
    elf64_section names;
    elf64_section_at(elf, elf->shstrndx, &names);
    if (names.type == ELF_SHT_NOBITS || !insp_fits(size, names.offset, names.size)) {
        return insp_fail(err, (size_t)(elf->shoff + (uint64_t)elf->shstrndx * ELF64_SHDR_BYTES),
                         "section-name table runs past the end");
    }
    /* gABI: a string table's last byte is NUL; without it every name would
       read as empty and the file would seem to hold nothing */
    if (names.size == 0 || data[names.offset + names.size - 1] != '\0') {
        return insp_fail(err, (size_t)(names.offset + (names.size > 0 ? names.size - 1 : 0)),
                         "section-name table (%llu bytes) does not end with a NUL",
                         (unsigned long long)names.size);
    }
    elf->shstr = data + names.offset;
    elf->shstr_size = (size_t)names.size;
    return true;
}

void elf64_section_at(const elf64_file *elf, uint32_t index, elf64_section *out)
{
    const uint8_t *p = elf->data + elf->shoff + (size_t)index * ELF64_SHDR_BYTES;
    out->name = insp_u32(p);
    out->type = insp_u32(p + 4);
    out->flags = insp_u64(p + 8);
    out->offset = insp_u64(p + 24);
    out->size = insp_u64(p + 32);
    out->link = insp_u32(p + 40);
    out->info = insp_u32(p + 44);
}

const char *elf64_section_name(const elf64_file *elf, const elf64_section *s, size_t *len)
{
    if (s->name >= elf->shstr_size) {
        *len = 0;
        return "";
    }
    const char *name = (const char *)elf->shstr + s->name;
    const void *nul = memchr(name, '\0', elf->shstr_size - s->name);
    if (nul == NULL) {
        *len = 0;
        return "";
    }
    *len = (size_t)((const char *)nul - name);
    return name;
}

bool elf64_section_fits(const elf64_file *elf, const elf64_section *s, uint32_t index,
                        insp_error *err)
{
    if (s->type == ELF_SHT_NOBITS || insp_fits(elf->size, s->offset, s->size)) {
        return true;
    }
    size_t len;
    const char *name = elf64_section_name(elf, s, &len);
    return insp_fail(err, (size_t)(elf->shoff + (uint64_t)index * ELF64_SHDR_BYTES),
                     "section %u '%.60s' (%llu bytes at offset %llu) runs past the end "
                     "(%zu bytes)",
                     index, name, (unsigned long long)s->size, (unsigned long long)s->offset,
                     elf->size);
}
