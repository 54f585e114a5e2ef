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

const uint8_t *elf64_bytes(const elf64_file *elf, uint64_t offset, uint64_t length)
{
    if (elf->hole_to == 0 || offset + length <= elf->hole_from) {
        return elf->data + offset;
    }
    if (offset >= elf->hole_to) {
        return elf->tail + (offset - elf->hole_to);
    }
    return NULL;
}

const uint8_t *elf64_section_contents(const elf64_file *elf, const elf64_section *s, uint32_t index,
                                      insp_error *err)
{
    const uint8_t *p = elf64_bytes(elf, s->offset, s->size);
    if (p == NULL) {
        size_t len;
        const char *name = elf64_section_name(elf, s, &len);
        insp_fail_missing(err, (size_t)(elf->shoff + (uint64_t)index * ELF64_SHDR_BYTES),
                          "section %u '%.60s' was not kept", index, name);
    }
    return p;
}

uint64_t elf64_section_table_offset(const uint8_t *data, size_t size)
{
    /* gABI: e_shoff is the 8 bytes at 40 */
    return size >= ELF64_HEADER_BYTES && elf64_is_elf(data, size) ? insp_u64(data + 40) : 0;
}

/* Bytes the header points at, checked to lie in the file and be at hand. */
static const uint8_t *table_bytes(const elf64_file *elf, uint64_t offset, uint64_t length,
                                  size_t header_field, const char *what, insp_error *err)
{
    if (!insp_fits(elf->size, offset, length)) {
        insp_fail(err, header_field, "%s (%llu bytes at offset %llu) runs past the end (%zu bytes)",
                  what, (unsigned long long)length, (unsigned long long)offset, elf->size);
        return NULL;
    }
    const uint8_t *p = elf64_bytes(elf, offset, length);
    if (p == NULL) {
        insp_fail_missing(err, header_field, "%s (%llu bytes at offset %llu) was not kept", what,
                          (unsigned long long)length, (unsigned long long)offset);
    }
    return p;
}

/* elf->data, size, tail and hole are set; reads and checks the rest. */
static bool open_view(elf64_file *elf, size_t head_bytes, insp_error *err)
{
    const uint8_t *data = elf->data;
    size_t size = elf->size;
    if (!elf64_is_elf(data, head_bytes)) {
        return insp_fail(err, 0, "no ELF magic");
    }
    if (size < ELF64_HEADER_BYTES) {
        return insp_fail(err, size, "ELF header truncated: %zu of 64 bytes", size);
    }
    if (head_bytes < ELF64_HEADER_BYTES) {
        return insp_fail_missing(err, 0, "the ELF header was not kept");
    }
    /* e_ident[EI_CLASS] 2 = ELFCLASS64, e_ident[EI_DATA] 1 = little-endian */
    if (data[4] != 2 || data[5] != 1) {
        return insp_fail(err, 4, "not a little-endian ELF64 file (class %u, data %u)", data[4],
                         data[5]);
    }
    elf->abi_version = data[8];
    elf->type = insp_u16(data + 16);
    elf->machine = insp_u16(data + 18);
    elf->flags = insp_u32(data + 48);
    elf->shoff = elf64_section_table_offset(data, head_bytes);
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
        elf->shdrs = table_bytes(elf, elf->shoff, ELF64_SHDR_BYTES, 40, "section table", err);
        if (elf->shdrs == NULL) {
            return false;
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
    elf->shdrs = table_bytes(elf, elf->shoff, (uint64_t)elf->shnum * ELF64_SHDR_BYTES, 40,
                             "section table", err);
    if (elf->shdrs == NULL) {
        return false;
    }
    if (elf->shstrndx >= elf->shnum) {
        return insp_fail(err, 62, "section-name table index %u beyond %u sections", elf->shstrndx,
                         elf->shnum);
    }
    elf64_section names;
    elf64_section_at(elf, elf->shstrndx, &names);
    size_t names_header = (size_t)(elf->shoff + (uint64_t)elf->shstrndx * ELF64_SHDR_BYTES);
    if (names.type == ELF_SHT_NOBITS || !insp_fits(size, names.offset, names.size)) {
        return insp_fail(err, names_header, "section-name table runs past the end");
    }
    const uint8_t *shstr =
        table_bytes(elf, names.offset, names.size, names_header, "section-name table", err);
    if (shstr == NULL) {
        return false;
    }
    /* gABI: a string table's last byte is NUL; without it every name would
       read as empty and the file would seem to hold nothing */
    if (names.size == 0 || shstr[names.size - 1] != '\0') {
        return insp_fail(err, (size_t)(names.offset + (names.size > 0 ? names.size - 1 : 0)),
                         "section-name table (%llu bytes) does not end with a NUL",
                         (unsigned long long)names.size);
    }
    elf->shstr = shstr;
    elf->shstr_size = (size_t)names.size;
    return true;
}

bool elf64_open(const uint8_t *data, size_t size, elf64_file *elf, insp_error *err)
{
    memset(elf, 0, sizeof *elf);
    elf->data = data;
    elf->size = size;
    return open_view(elf, size, err);
}

bool elf64_open_split(const uint8_t *head, size_t head_bytes, const uint8_t *tail, size_t tail_from,
                      size_t size, elf64_file *elf, insp_error *err)
{
    memset(elf, 0, sizeof *elf);
    elf->data = head;
    elf->size = size;
    if (head_bytes > size) {
        head_bytes = size;
    }
    if (tail_from > size) {
        tail_from = size;
    }
    if (tail_from > head_bytes) {
        elf->tail = tail;
        elf->hole_from = head_bytes;
        elf->hole_to = tail_from;
    }
    return open_view(elf, head_bytes, err);
}

void elf64_section_at(const elf64_file *elf, uint32_t index, elf64_section *out)
{
    const uint8_t *p = elf->shdrs + (size_t)index * ELF64_SHDR_BYTES;
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
