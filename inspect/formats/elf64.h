/*
 * elf64.h - bounds-checked reading of little-endian ELF64 headers, shared by
 * the cubin and host ELF readers. Internal to inspect/formats/.
 *
 * Layouts: the System V gABI (ELF-64 Object File Format, version 1.5),
 * "ELF Header", "Sections", "Symbol Table".
 */
#ifndef OCC_INSPECT_ELF64_H
#define OCC_INSPECT_ELF64_H

#include "bytes.h"

#define ELF64_HEADER_BYTES 64 /* gABI: sizeof(Elf64_Ehdr) */
#define ELF64_SHDR_BYTES 64   /* gABI: sizeof(Elf64_Shdr) */
#define ELF64_SYM_BYTES 24    /* gABI: sizeof(Elf64_Sym) */
#define ELF_SHT_SYMTAB 2      /* gABI section types */
#define ELF_SHT_NOBITS 8
#define ELF_SHT_PROGBITS 1
#define ELF_SHF_EXECINSTR 0x4    /* gABI section flag */
#define ELF_ET_REL 1             /* gABI e_type */
#define ELF_EM_CUDA 190          /* gABI machine list: EM_CUDA, NVIDIA CUDA */
#define ELF_SHN_LORESERVE 0xff00 /* gABI: section indexes from here on are special */
#define ELF_SHN_XINDEX 0xffff    /* gABI: the real index is elsewhere (extended numbering) */

typedef struct elf64_section {
    uint32_t name; /* offset into the section-name table */
    uint32_t type;
    uint64_t flags;
    uint64_t offset; /* file offset of the contents */
    uint64_t size;
    uint32_t link;
    uint32_t info;
} elf64_section;

typedef struct elf64_file {
    const uint8_t *data; /* bytes [0, hole_from) of the file, or all of them */
    size_t size;
    /* A file read in part (elf64_open_split): bytes [hole_from, hole_to)
       are absent and [hole_to, size) are at `tail`. No hole: both 0. */
    const uint8_t *tail;
    uint64_t hole_from, hole_to;
    const uint8_t *shdrs; /* the section header table */
    uint16_t type;        /* e_type */
    uint16_t machine;     /* e_machine */
    uint8_t abi_version;  /* e_ident[EI_ABIVERSION] */
    uint32_t flags;       /* e_flags */
    uint64_t shoff;       /* section header table */
    uint32_t shnum;
    uint32_t shstrndx;
    const uint8_t *shstr; /* section-name table contents */
    size_t shstr_size;
} elf64_file;

/* True if data starts with the ELF magic. */
bool elf64_is_elf(const uint8_t *data, size_t size);

/* Checks the header and section table bounds (a file without a section
   table is an error: nothing in it can be found); fills *elf. */
bool elf64_open(const uint8_t *data, size_t size, elf64_file *elf, insp_error *err);

/* The same for a file of `size` bytes of which only [0, head_bytes) (at
   `head`) and [tail_from, size) (at `tail`) are at hand. Fails with
   err->missing set where the header, section table or section-name table
   lies in what is absent. */
bool elf64_open_split(const uint8_t *head, size_t head_bytes, const uint8_t *tail, size_t tail_from,
                      size_t size, elf64_file *elf, insp_error *err);

/* Bytes [offset, offset + length) of the file, which the caller has checked
   lie in it; NULL where any of them is in the absent part. */
const uint8_t *elf64_bytes(const elf64_file *elf, uint64_t offset, uint64_t length);

/* A section's contents the caller reads, which elf64_section_fits has
   checked lie in the file; NULL with err->missing set where a file read in
   part lacks them. */
const uint8_t *elf64_section_contents(const elf64_file *elf, const elf64_section *s, uint32_t index,
                                      insp_error *err);

/* e_shoff of the ELF64 header at data[0], or 0 where `size` bytes hold no
   ELF header (where a section table starts: a file read in part keeps it). */
uint64_t elf64_section_table_offset(const uint8_t *data, size_t size);

/* Section header `index` (< shnum); its contents need not fit (NOBITS). */
void elf64_section_at(const elf64_file *elf, uint32_t index, elf64_section *out);

/* The section's name, or "" if its offset is out of range; never NULL.
 *len receives its length. */
const char *elf64_section_name(const elf64_file *elf, const elf64_section *s, size_t *len);

/* Checks that a section's contents lie in the file (NOBITS always do). */
bool elf64_section_fits(const elf64_file *elf, const elf64_section *s, uint32_t index,
                        insp_error *err);

#endif /* OCC_INSPECT_ELF64_H */
