/*
 * cubin.c - the functions of one cubin (NVIDIA ELF) and their resources.
 *
 * Where each number lives (docs/binary-formats.md; each checked against ptxas -v
 * for the same compile by tests/test_inspect.c):
 *   registers        module .nv.info REGCOUNT [symbol, n], else sh_info >> 24
 *                    of .text.<k> (cubins of older toolkits)
 *   stack per thread module .nv.info MIN_STACK_SIZE (MAX_STACK_SIZE in -rdc cubins)
 *   stack frame      module .nv.info FRAME_SIZE
 *   static smem      size of .nv.shared.<k>, less the 1 KB reserved prefix the
 *                    sm_90+ layout (marked by .nv.shared.reserved.*) puts in it
 *   the rest         the kernel's own .nv.info.<k> (see nvinfo.h)
 * A function is a FUNC symbol whose section is `.text.<its name>`; entry
 * functions (kernels) carry st_other 0x10.
 */
#include <stdlib.h>
#include <string.h>

#include "elf64.h"
#include "nvinfo.h"

#define STO_CUDA_ENTRY 0x10 /* st_other of __global__ functions (readelf on nvcc output) */
#define STT_FUNC 2          /* gABI symbol type */
/* On sm_90+ the driver reserves the first 1 KB of a block's shared memory
   and CUDA 13 cubins include it in .nv.shared.<k>; ptxas -v and the driver
   report the size without it (docs/binary-formats.md, checked by the tests). */
#define RESERVED_SMEM_PREFIX_BYTES 1024

typedef struct cubin_reader {
    elf64_file elf;
    const uint8_t *symtab;
    size_t symtab_offset; /* in the file, for error offsets */
    size_t symbol_count;
    const uint8_t *strtab;
    size_t strtab_size;
    insp_function *functions;
    size_t function_count;
    int *function_of_symbol;  /* symbol index -> functions[] index or -1 */
    int *function_of_section; /* .text section index -> functions[] index or -1 */
    bool has_reserved_smem;
    char suffix;
} cubin_reader;

static bool starts_with(const char *s, size_t len, const char *prefix)
{
    size_t n = strlen(prefix);
    return len >= n && memcmp(s, prefix, n) == 0;
}

/* The symbol's name inside .strtab, or NULL if it is not NUL-terminated there. */
static const char *symbol_name(const cubin_reader *r, uint32_t offset, size_t *len)
{
    if (offset >= r->strtab_size) {
        return NULL;
    }
    const char *name = (const char *)r->strtab + offset;
    const void *nul = memchr(name, '\0', r->strtab_size - offset);
    if (nul == NULL) {
        return NULL;
    }
    *len = (size_t)((const char *)nul - name);
    return name;
}

/* A table the reader indexes into must lie in the file: in range, and not
   SHT_NOBITS (whose offset points at no bytes of the file). */
static bool table_in_file(const elf64_file *elf, const elf64_section *s, uint32_t index,
                          const char *what, insp_error *err)
{
    if (s->type == ELF_SHT_NOBITS && s->size > 0) {
        return insp_fail(err, (size_t)(elf->shoff + (uint64_t)index * ELF64_SHDR_BYTES),
                         "the %s (section %u) has no bytes in the file (SHT_NOBITS)", what, index);
    }
    /* A table is read from the file whatever its type says: even an empty
       one must start inside it, or its address is outside the mapping. */
    if (!insp_fits(elf->size, s->offset, s->size)) {
        return insp_fail(err, (size_t)(elf->shoff + (uint64_t)index * ELF64_SHDR_BYTES),
                         "the %s (section %u, %llu bytes at offset %llu) runs past the end "
                         "(%zu bytes)",
                         what, index, (unsigned long long)s->size, (unsigned long long)s->offset,
                         elf->size);
    }
    return elf64_section_fits(elf, s, index, err);
}

static bool find_tables(cubin_reader *r, insp_error *err)
{
    const elf64_file *elf = &r->elf;
    for (uint32_t i = 0; i < elf->shnum; i++) {
        elf64_section s;
        elf64_section_at(elf, i, &s);
        size_t len;
        const char *name = elf64_section_name(elf, &s, &len);
        if (s.type == ELF_SHT_SYMTAB && r->symtab == NULL) {
            if (!table_in_file(elf, &s, i, "symbol table", err)) {
                return false;
            }
            if (s.link >= elf->shnum) {
                return insp_fail(err, (size_t)(elf->shoff + (uint64_t)i * ELF64_SHDR_BYTES),
                                 "symbol table links to section %u of %u", s.link, elf->shnum);
            }
            elf64_section strings;
            elf64_section_at(elf, s.link, &strings);
            if (!table_in_file(elf, &strings, s.link, "string table", err)) {
                return false;
            }
            r->symtab = elf64_section_contents(elf, &s, i, err);
            r->strtab = elf64_section_contents(elf, &strings, s.link, err);
            if (r->symtab == NULL || r->strtab == NULL) {
                return false;
            }
            r->symtab_offset = (size_t)s.offset;
            r->symbol_count = (size_t)(s.size / ELF64_SYM_BYTES);
            r->strtab_size = (size_t)strings.size;
        } else if (starts_with(name, len, ".nv.shared.reserved.")) {
            r->has_reserved_smem = true;
        }
    }
    return true;
}

static bool collect_functions(cubin_reader *r, insp_error *err)
{
    const elf64_file *elf = &r->elf;
    r->function_of_symbol = malloc((r->symbol_count > 0 ? r->symbol_count : 1) * sizeof(int));
    r->function_of_section = malloc(elf->shnum * sizeof(int) + sizeof(int));
    r->functions = calloc(r->symbol_count > 0 ? r->symbol_count : 1, sizeof(insp_function));
    if (r->function_of_symbol == NULL || r->function_of_section == NULL || r->functions == NULL) {
        return insp_fail(err, 0, "out of memory for %zu symbols", r->symbol_count);
    }
    for (uint32_t i = 0; i < elf->shnum; i++) {
        r->function_of_section[i] = -1;
    }
    int sm = elf->abi_version >= 8 ? (int)((elf->flags >> 8) & 0xFF) : (int)(elf->flags & 0xFF);
    for (size_t i = 0; i < r->symbol_count; i++) {
        r->function_of_symbol[i] = -1;
        const uint8_t *sym = r->symtab + i * ELF64_SYM_BYTES;
        uint32_t name_offset = insp_u32(sym);
        uint8_t info = sym[4];
        uint8_t other = sym[5];
        uint16_t shndx = insp_u16(sym + 6);
        if ((info & 0xF) != STT_FUNC) {
            continue;
        }
        if (shndx == ELF_SHN_XINDEX) {
            /* the index is in an SHT_SYMTAB_SHNDX table, which cubins do not
               have: skipping the function would drop a kernel silently */
            return insp_fail(err, r->symtab_offset + i * ELF64_SYM_BYTES + 6,
                             "function symbol %zu: extended section index (SHN_XINDEX) is "
                             "not supported",
                             i);
        }
        if (shndx == 0 || shndx >= ELF_SHN_LORESERVE) {
            continue; /* undefined, or a special index (absolute, common) */
        }
        if (shndx >= elf->shnum) {
            return insp_fail(err, r->symtab_offset + i * ELF64_SYM_BYTES + 6,
                             "function symbol %zu: section index %u, but the file has %u "
                             "sections",
                             i, shndx, elf->shnum);
        }
        size_t name_len;
        const char *name = symbol_name(r, name_offset, &name_len);
        if (name == NULL) {
            return insp_fail(err, r->symtab_offset + i * ELF64_SYM_BYTES,
                             "symbol %zu: name offset %u is outside .strtab", i, name_offset);
        }
        /* Only a function that owns its section: `.text.<name>`. Sub-functions
           inlined into a kernel's section are not separate functions. */
        elf64_section text;
        elf64_section_at(elf, shndx, &text);
        size_t text_len;
        const char *text_name = elf64_section_name(elf, &text, &text_len);
        if (text_len != name_len + 6 || memcmp(text_name, ".text.", 6) != 0 ||
            memcmp(text_name + 6, name, name_len) != 0 || r->function_of_section[shndx] >= 0) {
            continue;
        }
        insp_function *f = &r->functions[r->function_count];
        memset(f, 0, sizeof *f);
        f->offset = r->symtab_offset + i * ELF64_SYM_BYTES;
        f->name = name;
        f->name_len = name_len;
        f->sm = sm;
        f->arch_suffix = r->suffix;
        f->is_kernel = (other & STO_CUDA_ENTRY) != 0;
        f->relocatable = elf->type == ELF_ET_REL;
        /* Cubins without a REGCOUNT record (older toolkits; 4,058 sm_75..89
           functions of libcublasLt.so.13, docs/results/inspect-h200) keep the
           count in bits 24..31 of the .text section's sh_info; REGCOUNT, read
           later, wins where both exist. */
        f->regs = (int)(text.info >> 24);
        f->smem_section_bytes = 0;
        f->spill_store_bytes = INSP_UNKNOWN;
        f->spill_load_bytes = INSP_UNKNOWN;
        f->param_bytes = INSP_UNKNOWN;
        r->function_of_symbol[i] = (int)r->function_count;
        r->function_of_section[shndx] = (int)r->function_count;
        r->function_count++;
    }
    return true;
}

/* Module-level .nv.info: [symbol, value] pairs for every function. */
static bool read_module_info(cubin_reader *r, const uint8_t *data, size_t size,
                             size_t section_offset, insp_error *err)
{
    size_t pos = 0;
    nvinfo_record rec;
    int got;
    bool have_min_stack = false;
    while ((got = nvinfo_next(data, size, &pos, &rec, err)) == 1) {
        if (rec.format != NVINFO_SVAL || rec.payload_bytes < 8) {
            continue;
        }
        uint32_t sym = insp_u32(rec.payload);
        uint32_t value = insp_u32(rec.payload + 4);
        if (sym >= r->symbol_count || r->function_of_symbol[sym] < 0) {
            continue;
        }
        int v = value > 0x7FFFFFFFu ? 0x7FFFFFFF : (int)value;
        insp_function *f = &r->functions[r->function_of_symbol[sym]];
        switch (rec.attribute) {
        case NVINFO_REGCOUNT: f->regs = v; break;
        case NVINFO_FRAME_SIZE: f->frame_bytes = v; break;
        case NVINFO_MIN_STACK_SIZE:
            f->stack_bytes = v;
            have_min_stack = true;
            break;
        case NVINFO_MAX_STACK_SIZE:
            if (!have_min_stack) {
                f->stack_bytes = v;
            }
            break;
        default: break;
        }
    }
    if (got < 0) {
        err->offset += section_offset;
        return false;
    }
    return true;
}

static void read_dims(const nvinfo_record *rec, int dims[3])
{
    if (rec->payload_bytes >= 12) {
        for (int d = 0; d < 3; d++) {
            uint32_t v = insp_u32(rec->payload + 4 * d);
            dims[d] = v > 0xFFFFFFu ? 0xFFFFFF : (int)v;
        }
    }
}

/* A kernel's own .nv.info.<k>. */
static bool read_function_info(insp_function *f, const uint8_t *data, size_t size,
                               size_t section_offset, insp_error *err)
{
    size_t pos = 0;
    nvinfo_record rec;
    int got;
    while ((got = nvinfo_next(data, size, &pos, &rec, err)) == 1) {
        switch (rec.attribute) {
        case NVINFO_MAX_THREADS: read_dims(&rec, f->max_threads); break;
        case NVINFO_REQNTID: read_dims(&rec, f->req_threads); break;
        case NVINFO_CTA_PER_CLUSTER: read_dims(&rec, f->cluster_dims); break;
        case NVINFO_EXPLICIT_CLUSTER: f->explicit_cluster = true; break;
        case NVINFO_MAX_CLUSTER_RANK: f->max_cluster_rank = (int)(rec.value & 0xFFFF); break;
        case NVINFO_CBANK_PARAM_SIZE: f->param_bytes = (int)(rec.value & 0xFFFF); break;
        case NVINFO_MAXREG_COUNT:
            /* 255 (the hardware maximum) means no cap was asked for */
            f->max_regs = rec.value >= 255 ? 0 : (int)rec.value;
            break;
        case NVINFO_NUM_BARRIERS: f->barriers = (int)(rec.value & 0xFF); break;
        case NVINFO_ANNOTATIONS:
            for (size_t p = 0; p + 8 <= rec.payload_bytes; p += 8) {
                if (insp_u32(rec.payload + p) == 1) {
                    f->spill_instructions++;
                }
            }
            break;
        default: break;
        }
    }
    if (got < 0) {
        err->offset += section_offset;
        return false;
    }
    return true;
}

/* .nv.compat records are .nv.info-shaped; attribute 0x09 = 1 marks sm_XXa. */
static char compat_suffix(const uint8_t *data, size_t size)
{
    size_t pos = 0;
    nvinfo_record rec;
    while (nvinfo_next(data, size, &pos, &rec, NULL) == 1) {
        if (rec.attribute == NVINFO_COMPAT_ARCH_SPECIFIC && rec.format == NVINFO_BVAL &&
            rec.value == 1) {
            return 'a';
        }
    }
    return 0;
}

static bool read_sections(cubin_reader *r, insp_error *err)
{
    const elf64_file *elf = &r->elf;
    for (uint32_t i = 0; i < elf->shnum; i++) {
        elf64_section s;
        elf64_section_at(elf, i, &s);
        size_t len;
        const char *name = elf64_section_name(elf, &s, &len);
        if (!starts_with(name, len, ".nv.")) {
            continue;
        }
        if (!elf64_section_fits(elf, &s, i, err)) {
            return false;
        }
        /* NOBITS sections (.nv.shared.*) have a size but no contents, and their
           offset need not lie in the file: form no pointer from it. Only
           what is read must be at hand (.nv.constant* of a cubin read in
           part is not). */
        bool nobits = s.type == ELF_SHT_NOBITS;
        size_t size = nobits ? 0 : (size_t)s.size;
        int owner = s.info < elf->shnum ? r->function_of_section[s.info] : -1;
        bool module_info = len == 8 && memcmp(name, ".nv.info", 8) == 0;
        bool function_info = !module_info && starts_with(name, len, ".nv.info.") && owner >= 0;
        const uint8_t *contents = NULL;
        if (module_info || function_info) {
            contents = nobits ? elf->data : elf64_section_contents(elf, &s, i, err);
            if (contents == NULL) {
                return false;
            }
        }
        if (module_info) {
            if (!read_module_info(r, contents, size, (size_t)s.offset, err)) {
                return false;
            }
        } else if (function_info) {
            if (!read_function_info(&r->functions[owner], contents, size, (size_t)s.offset, err)) {
                return false;
            }
        } else if (starts_with(name, len, ".nv.shared.") &&
                   !starts_with(name, len, ".nv.shared.reserved.") && owner >= 0) {
            insp_function *f = &r->functions[owner];
            if (s.size > 0x7FFFFFFF) {
                return insp_fail(err, (size_t)(elf->shoff + (uint64_t)i * ELF64_SHDR_BYTES),
                                 "section %u '%.60s': %llu bytes of shared memory, more than "
                                 "any GPU has",
                                 i, name, (unsigned long long)s.size);
            }
            f->smem_section_bytes = (int)s.size;
        }
    }
    return true;
}

/* Reads the functions of an opened cubin and reports them. */
static bool parse_opened(cubin_reader *r, char suffix_hint, const insp_sink *sink, insp_error *err)
{
    if (r->elf.machine != ELF_EM_CUDA) {
        return insp_fail(err, 18, "ELF machine %u is not a cubin (EM_CUDA 190)", r->elf.machine);
    }
    r->suffix = suffix_hint;
    bool ok = find_tables(r, err);
    for (uint32_t i = 0; ok && r->suffix == 0 && i < r->elf.shnum; i++) {
        elf64_section s;
        size_t len;
        elf64_section_at(&r->elf, i, &s);
        const char *name = elf64_section_name(&r->elf, &s, &len);
        if (len == 10 && memcmp(name, ".nv.compat", 10) == 0 &&
            insp_fits(r->elf.size, s.offset, s.size) && s.type != ELF_SHT_NOBITS) {
            const uint8_t *compat = elf64_section_contents(&r->elf, &s, i, err);
            ok = compat != NULL;
            if (ok) {
                r->suffix = compat_suffix(compat, (size_t)s.size);
            }
        }
    }
    ok = ok && collect_functions(r, err) && read_sections(r, err);
    /* reported only once all is read: a cubin read in part that lacks
       something is read again whole, and nothing may be reported twice */
    for (size_t i = 0; ok && i < r->function_count; i++) {
        insp_function *f = &r->functions[i];
        f->smem_bytes = f->smem_section_bytes;
        if (r->has_reserved_smem) {
            f->smem_bytes = f->smem_section_bytes >= RESERVED_SMEM_PREFIX_BYTES
                                ? f->smem_section_bytes - RESERVED_SMEM_PREFIX_BYTES
                                : 0;
        }
        if (sink != NULL && sink->function != NULL) {
            sink->function(sink->context, f);
        }
    }
    free(r->functions);
    free(r->function_of_symbol);
    free(r->function_of_section);
    return ok;
}

bool insp_cubin_parse(const uint8_t *data, size_t size, char suffix_hint, const insp_sink *sink,
                      insp_error *err)
{
    cubin_reader r;
    memset(&r, 0, sizeof r);
    return elf64_open(data, size, &r.elf, err) && parse_opened(&r, suffix_hint, sink, err);
}

bool insp_cubin_parse_split(const uint8_t *head, size_t head_bytes, const uint8_t *tail,
                            size_t tail_from, size_t size, char suffix_hint, const insp_sink *sink,
                            insp_error *err)
{
    cubin_reader r;
    memset(&r, 0, sizeof r);
    return elf64_open_split(head, head_bytes, tail, tail_from, size, &r.elf, err) &&
           parse_opened(&r, suffix_hint, sink, err);
}
