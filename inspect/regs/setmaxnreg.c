/*
 * setmaxnreg.c - a warp-specialized kernel's register budgets checked
 * (setmaxnreg.h; docs/setmaxnreg.md): the warp groups' budgets against the
 * block's pool and the SM's register file, ptxas's messages about them,
 * and whether the cubin still reconfigures registers (SASS USETMAXREG).
 * The PTX is read by setmaxnreg_ptx.c.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "elf64.h"
#include "setmaxnreg_ptx.h"
#include "json_stream.h"

/* CUDA C++ Programming Guide, "Technical Specifications per Compute
   Capability": 64K 32-bit registers per SM and a register allocation unit
   of 256 per warp on compute capability 9.0 and 10.0; used where no
   device is given. */
#define SMR_DEFAULT_REGS_PER_SM 65536
#define SMR_DEFAULT_REG_ALLOC_UNIT 256
#define SMR_WARP_THREADS 32

/*
 * USETMAXREG in the cubin (docs/setmaxnreg.md, "Reading USETMAXREG from the
 * cubin"): each instruction of sm_90 to sm_12x is 16 bytes, and bits 0-11
 * of its first little-endian 64-bit word are 0x9c8 for USETMAXREG alone;
 * bits 32-40 hold its register count and bits 72-73 (bits 8-9 of the
 * second word) are 2 for TRY_ALLOC (setmaxnreg.inc) and 1 for DEALLOC
 * (.dec). Found by compiling the same PTX with and without setmaxnreg with
 * ptxas 13.0 for sm_90a, sm_100a, sm_100f, sm_103a, sm_110a, sm_120a and
 * sm_121a; tests/test_setmaxnreg.c holds it to ptxas, and
 * tests/gpu/setmaxnreg_sass.sh to nvdisasm.
 */
#define SASS_INSTRUCTION_BYTES 16
#define SASS_OPCODE_MASK 0xFFFull
#define SASS_USETMAXREG 0x9C8ull
#define SASS_COUNT_SHIFT 32
#define SASS_COUNT_MASK 0x1FFull
#define SASS_FORM_SHIFT 8 /* in the second word */
#define SASS_FORM_TRY_ALLOC 2u
#define SASS_FORM_DEALLOC 1u
#define SASS_FIRST_SM 90 /* the first arch with setmaxnreg */
#define SASS_LAST_SM 129 /* the last family whose encoding was checked: sm_12x */

const char *insp_setmaxnreg_action_name(insp_smr_action action)
{
    switch (action) {
    case INSP_SMR_INC: return "inc";
    case INSP_SMR_DEC: return "dec";
    default: return "entry";
    }
}

/* ------------------------------------------------------------------------ */
/* SASS                                                                     */
/* ------------------------------------------------------------------------ */

occ_status insp_setmaxnreg_sass_count(const unsigned char *cubin, size_t cubin_size,
                                      const char *entry, int *found, insp_smr_sass *list,
                                      int max_list, occ_inspect_error *err)
{
    if (cubin == NULL || entry == NULL || found == NULL) {
        return smr_fail(err, OCC_ERR_NULL_POINTER, -1, "setmaxnreg: no cubin, entry or result");
    }
    *found = -1;
    elf64_file elf;
    insp_error ie;
    memset(&ie, 0, sizeof ie);
    if (!elf64_open(cubin, cubin_size, &elf, &ie)) {
        return smr_fail(err, OCC_ERR_BAD_FORMAT, (long long)ie.offset, "cubin: offset %zu: %s",
                        ie.offset, ie.message);
    }
    if (elf.machine != ELF_EM_CUDA) {
        return smr_fail(err, OCC_ERR_BAD_FORMAT, 18,
                        "cubin: ELF machine %u is not a cubin (EM_CUDA 190)", elf.machine);
    }
    /* docs/binary-formats.md: the SM is bits 8-15 of e_flags from
       EI_ABIVERSION 8 on, bits 0-7 before */
    int sm = elf.abi_version >= 8 ? (int)((elf.flags >> 8) & 0xFF) : (int)(elf.flags & 0xFF);
    if (sm < SASS_FIRST_SM || sm > SASS_LAST_SM) {
        return OCC_OK;
    }
    size_t entry_len = strlen(entry);
    for (uint32_t i = 0; i < elf.shnum; i++) {
        elf64_section s;
        size_t len;
        elf64_section_at(&elf, i, &s);
        const char *name = elf64_section_name(&elf, &s, &len);
        if (len != entry_len + 6 || memcmp(name, ".text.", 6) != 0 ||
            memcmp(name + 6, entry, entry_len) != 0) {
            continue;
        }
        if (s.type == ELF_SHT_NOBITS) {
            return OCC_OK;
        }
        if (!elf64_section_fits(&elf, &s, i, &ie)) {
            return smr_fail(err, OCC_ERR_BAD_FORMAT, (long long)ie.offset, "cubin: offset %zu: %s",
                            ie.offset, ie.message);
        }
        const uint8_t *text = elf64_section_contents(&elf, &s, i, &ie);
        if (text == NULL) {
            return smr_fail(err, OCC_ERR_BAD_FORMAT, (long long)ie.offset, "cubin: offset %zu: %s",
                            ie.offset, ie.message);
        }
        int n = 0;
        for (uint64_t at = 0; at + SASS_INSTRUCTION_BYTES <= s.size; at += SASS_INSTRUCTION_BYTES) {
            uint64_t word = insp_u64(text + at);
            if ((word & SASS_OPCODE_MASK) == SASS_USETMAXREG) {
                if (list != NULL && n < max_list) {
                    uint64_t form = (insp_u64(text + at + 8) >> SASS_FORM_SHIFT) & 3u;
                    list[n].action = form == SASS_FORM_TRY_ALLOC ? INSP_SMR_INC
                                     : form == SASS_FORM_DEALLOC ? INSP_SMR_DEC
                                                                 : INSP_SMR_AT_ENTRY;
                    list[n].regs_per_thread = (int)((word >> SASS_COUNT_SHIFT) & SASS_COUNT_MASK);
                    list[n].offset = (size_t)at;
                }
                n += n < 0x7FFFFFFF;
            }
        }
        *found = n;
        return OCC_OK;
    }
    return OCC_OK;
}

/* ------------------------------------------------------------------------ */
/* ptxas's messages                                                         */
/* ------------------------------------------------------------------------ */

typedef struct text_span {
    const char *text;
    size_t len;
} text_span;

/* Where needle starts in s, or -1. */
static long find(text_span s, const char *needle)
{
    size_t n = strlen(needle);
    for (size_t i = 0; n <= s.len && i <= s.len - n; i++) {
        if (memcmp(s.text + i, needle, n) == 0) {
            return (long)i;
        }
    }
    return -1;
}

/* The word after `before` up to a character in `stops`: "for entry X," -> X. */
static bool word_after(text_span line, const char *before, const char *stops, text_span *out)
{
    long at = find(line, before);
    if (at < 0) {
        return false;
    }
    size_t from = (size_t)at + strlen(before), to = from;
    while (to < line.len && strchr(stops, line.text[to]) == NULL) {
        to++;
    }
    out->text = line.text + from;
    out->len = to - from;
    return out->len > 0;
}

/* Letters, digits and '_' only: a directive's name, fit for a code. */
static bool plain_word(text_span w)
{
    for (size_t i = 0; i < w.len; i++) {
        char c = w.text[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_')) {
            return false;
        }
    }
    return true;
}

/* The function a message names is the entry, or one of its outlined parts
   ("name$83"). */
static bool names_entry(text_span name, const char *entry)
{
    size_t n = strlen(entry);
    return name.len >= n && memcmp(name.text, entry, n) == 0 &&
           (name.len == n || name.text[n] == '$');
}

static void add_message(insp_setmaxnreg *out, const char *code, size_t code_len, text_span text,
                        bool drops)
{
    for (int i = 0; i < out->message_count; i++) {
        if (strlen(out->messages[i].code) == code_len &&
            memcmp(out->messages[i].code, code, code_len) == 0) {
            out->messages[i].drops_setmaxnreg |= drops;
            return;
        }
    }
    if (out->message_count >= INSP_SMR_MAX_MESSAGES) {
        return;
    }
    insp_smr_message *m = &out->messages[out->message_count++];
    snprintf(m->code, sizeof m->code, "%.*s", (int)code_len, code);
    snprintf(m->text, sizeof m->text, "%.*s", (int)(text.len < 199 ? text.len : 199), text.text);
    m->drops_setmaxnreg = drops;
}

/*
 * One line of ptxas's stderr (docs/setmaxnreg.md, "ptxas's messages";
 * ptxas 13.0's texts):
 *   ptxas info    : (C7508) Potential Performance Loss: 'setmaxnreg' ignored; ...
 *   ptxas info    : (C7509) Potential Performance Loss: wgmma.mma_async ... in the
 *                   function 'NAME'
 *   ptxas ..., line 116; fatal   : (C7406) setmaxnreg.dec has register count ...
 *   ptxas warning : Too big maxrregcount value specified 300, will be ignored
 *   ptxas warning : Too many maxnreg specified for entry NAME, will be ignored
 *   ptxas warning : Value of minnctapersm for entry NAME is out of range. ...
 *   ptxas ..., line 43; error   : Instruction 'setmaxnreg.inc' not supported on .target ...
 * A message that names another function is that function's.
 */
static void read_message_line(text_span line, const char *entry, insp_setmaxnreg *out)
{
    text_span text = line;
    long colon = find(line, ": ");
    if (colon >= 0) {
        text.text += colon + 2;
        text.len -= (size_t)colon + 2;
    }
    while (text.len > 0 && text.text[0] == ' ') {
        text.text++;
        text.len--;
    }
    text_span name;
    if (word_after(line, "function '", "'", &name) && !names_entry(name, entry)) {
        return;
    }
    long code_at = find(line, "(C");
    bool coded = code_at >= 0 && (size_t)code_at + 7 <= line.len && line.text[code_at + 6] == ')';
    for (int i = 2; coded && i < 6; i++) {
        coded = line.text[code_at + i] >= '0' && line.text[code_at + i] <= '9';
    }
    bool about_registers = find(line, "setmaxnreg") >= 0 || find(line, "setmaxreg") >= 0 ||
                           find(line, "Potential Performance Loss") >= 0;
    if (coded && about_registers) {
        add_message(out, line.text + code_at + 1, 5, text, find(line, "' ignored") >= 0);
    } else if (find(line, "'setmaxnreg") >= 0 && find(line, "not supported on .target") >= 0) {
        static const char code[] = "setmaxnreg-unsupported-target";
        add_message(out, code, sizeof code - 1, text, true);
    } else if (find(line, "maxrregcount") >= 0 && find(line, "will be ignored") >= 0) {
        static const char code[] = "maxrregcount-ignored";
        add_message(out, code, sizeof code - 1, text, false);
    } else if (word_after(line, "maxnreg specified for entry ", ", ", &name) &&
               find(line, "will be ignored") >= 0) {
        static const char code[] = "maxnreg-ignored";
        if (names_entry(name, entry)) {
            add_message(out, code, sizeof code - 1, text, false);
        }
    } else if (find(line, "Value of ") >= 0 && find(line, " is out of range") >= 0 &&
               word_after(line, " for entry ", " ", &name)) {
        text_span directive;
        if (names_entry(name, entry) && word_after(line, "Value of ", " ", &directive) &&
            directive.len < 16 && plain_word(directive)) {
            char code[32];
            int n = snprintf(code, sizeof code, "%.*s-out-of-range", (int)directive.len,
                             directive.text);
            add_message(out, code, (size_t)n, text, false);
        }
    }
}

static void read_messages(const char *text, size_t size, const char *entry, insp_setmaxnreg *out)
{
    size_t at = 0;
    while (at < size) {
        const char *nl = memchr(text + at, '\n', size - at);
        size_t end = nl != NULL ? (size_t)(nl - text) : size;
        text_span line = {text + at, end - at};
        while (line.len > 0 &&
               (line.text[line.len - 1] == '\r' || line.text[line.len - 1] == ' ')) {
            line.len--;
        }
        read_message_line(line, entry, out);
        at = end + 1;
    }
}

/* ------------------------------------------------------------------------ */
/* Budgets                                                                  */
/* ------------------------------------------------------------------------ */

static int popcount64(uint64_t v)
{
    int n = 0;
    for (; v != 0; v &= v - 1) {
        n++;
    }
    return n;
}

/* The most registers per thread a held-set stands for; 0 if unknown. */
static int peak_of(uint64_t held, int regs_at_entry)
{
    int peak = 0;
    for (int k = 63; k >= 1; k--) {
        if ((held >> k) & 1u) {
            peak = k * INSP_SMR_REGS_STEP;
            break;
        }
    }
    if (held & SMR_HELD_AT_ENTRY) {
        if (regs_at_entry <= 0) {
            return 0;
        }
        peak = regs_at_entry > peak ? regs_at_entry : peak;
    }
    return peak;
}

/* Registers per warp at a per-thread count, rounded to the allocation unit. */
static long long warp_regs(int regs_per_thread, int alloc_unit)
{
    long long regs = (long long)regs_per_thread * SMR_WARP_THREADS;
    return (regs + alloc_unit - 1) / alloc_unit * alloc_unit;
}

static int warps_in_group(int block_threads, int group)
{
    int warps = (block_threads + SMR_WARP_THREADS - 1) / SMR_WARP_THREADS - 4 * group;
    return warps < 0 ? 0 : warps > 4 ? 4 : warps;
}

static void fill_regions(const smr_ptx *p, insp_setmaxnreg *out, const bool *group_exact)
{
    unsigned at_entry = 0;
    for (int g = 0; g < p->warp_group_count; g++) {
        at_entry |= (p->held[g] & SMR_HELD_AT_ENTRY) || p->held[g] == 0 ? 1u << g : 0;
    }
    bool unknown = p->warp_group_count == 0 || p->indirect_branch;
    if (at_entry != 0 && !unknown) {
        insp_smr_region *r = &out->regions[out->region_count++];
        r->action = INSP_SMR_AT_ENTRY;
        r->regs_per_thread = out->regs_at_entry;
        r->warp_groups = at_entry;
        r->groups_exact = true;
        for (int g = 0; g < p->warp_group_count; g++) {
            r->groups_exact &= !((at_entry >> g) & 1u) || group_exact[g];
        }
    }
    for (int s = 0; s < p->site_count; s++) {
        insp_smr_region *r = &out->regions[out->region_count++];
        r->action = p->sites[s].action;
        r->regs_per_thread = p->sites[s].regs_per_thread;
        r->line = p->sites[s].line;
        r->warp_groups = unknown ? 0 : p->sites[s].groups;
        r->groups_exact = !unknown;
        for (int g = 0; !unknown && g < p->warp_group_count; g++) {
            r->groups_exact &= !((r->warp_groups >> g) & 1u) || group_exact[g];
        }
    }
}

/* The budgets and fits, with the note saying why. */
static void check_budget(const smr_ptx *p, const occ_device *device, insp_setmaxnreg *out)
{
    int alloc_unit = device != NULL && device->reg_alloc_unit > 0 ? device->reg_alloc_unit
                                                                  : SMR_DEFAULT_REG_ALLOC_UNIT;
    out->regs_per_sm =
        device != NULL && device->regs_per_sm > 0 ? device->regs_per_sm : SMR_DEFAULT_REGS_PER_SM;
    out->block_budget_regs = out->budget_regs = out->pool_regs = -1;
    out->fits = INSP_SMR_UNKNOWN;
    bool group_exact[INSP_SMR_MAX_WARP_GROUPS];
    bool all_exact = true;
    for (int g = 0; g < INSP_SMR_MAX_WARP_GROUPS; g++) {
        group_exact[g] = g < p->warp_group_count &&
                         (popcount64(p->held[g]) <= 1 || !((p->uncertain >> g) & 1u)) &&
                         !p->calls_setmaxnreg && !p->indirect_branch;
        all_exact &= g >= p->warp_group_count || group_exact[g];
    }
    fill_regions(p, out, group_exact);
    if (p->warp_group_count == 0) {
        snprintf(out->note, sizeof out->note,
                 "the block size is unknown (no threads given, no .maxntid or .reqntid): the "
                 "warp groups cannot be told");
        return;
    }
    if (p->indirect_branch) {
        snprintf(out->note, sizeof out->note,
                 "an indirect branch (brx.idx) or a branch out of the entry: the warp groups' "
                 "paths were not followed");
        return;
    }
    if (p->calls_setmaxnreg) {
        snprintf(out->note, sizeof out->note,
                 "the entry calls a .func that runs setmaxnreg: its budgets are not counted");
        return;
    }
    long long block = 0;
    for (int g = 0; g < p->warp_group_count; g++) {
        uint64_t held = p->held[g] != 0 ? p->held[g] : SMR_HELD_AT_ENTRY;
        out->group_peak_regs[g] = peak_of(held, out->regs_at_entry);
        if (out->group_peak_regs[g] == 0) {
            snprintf(out->note, sizeof out->note,
                     "warp group %d keeps the count at entry, which is unknown (give ptxas's "
                     "register count)",
                     g);
            return;
        }
        block +=
            warp_regs(out->group_peak_regs[g], alloc_unit) * warps_in_group(out->block_threads, g);
    }
    out->block_budget_regs = block;
    out->budget_regs = block * (out->blocks_per_sm > 0 ? out->blocks_per_sm : 1);
    int warps = (out->block_threads + SMR_WARP_THREADS - 1) / SMR_WARP_THREADS;
    if (out->regs_at_entry > 0) {
        out->pool_regs = warp_regs(out->regs_at_entry, alloc_unit) * warps;
    }
    /* where ptxas dropped the setmaxnreg, the code never asks the pool: only
       the budgets the PTX meant are checked, against the register file */
    bool over_pool = out->pool_regs >= 0 && out->block_budget_regs > out->pool_regs &&
                     out->honoured != INSP_SMR_NO;
    bool over_sm = out->budget_regs > out->regs_per_sm;
    if (!over_pool && !over_sm) {
        out->fits = INSP_SMR_YES;
        return;
    }
    out->fits = all_exact ? INSP_SMR_NO : INSP_SMR_UNKNOWN;
    const char *may = all_exact ? "" : "may ";
    if (over_pool) {
        snprintf(out->note, sizeof out->note,
                 "the warp groups %sask for %lld registers per block, above the %lld it holds "
                 "at entry (%d per thread x %d threads): setmaxnreg.inc can wait forever",
                 may, out->block_budget_regs, out->pool_regs, out->regs_at_entry,
                 out->block_threads);
    } else {
        snprintf(out->note, sizeof out->note,
                 "the warp groups %sask for %lld registers per block x %d blocks = %lld, above "
                 "the SM's %d",
                 may, out->block_budget_regs, out->blocks_per_sm > 0 ? out->blocks_per_sm : 1,
                 out->budget_regs, out->regs_per_sm);
    }
}

/* honoured, and why where the cubin and the messages disagree (why: a
   note's bytes). */
static void decide_honoured(const smr_ptx *p, int sass_found, insp_setmaxnreg *out, char *why)
{
    bool drops = false;
    const char *dropping = NULL;
    for (int i = 0; i < out->message_count; i++) {
        if (out->messages[i].drops_setmaxnreg) {
            drops = true;
            dropping = dropping != NULL ? dropping : out->messages[i].code;
        }
    }
    out->usetmaxreg_count = sass_found;
    why[0] = '\0';
    if (sass_found > 0) {
        out->honoured = INSP_SMR_YES;
        if (drops) {
            snprintf(why, sizeof out->note,
                     "the code holds %d USETMAXREG: ptxas's %s (which names no kernel) is about "
                     "another kernel of the compile",
                     sass_found, dropping);
            /* not this kernel's: its code kept what they say was dropped */
            int kept = 0;
            for (int i = 0; i < out->message_count; i++) {
                if (!out->messages[i].drops_setmaxnreg) {
                    out->messages[kept++] = out->messages[i];
                }
            }
            out->message_count = kept;
        }
        /* each setmaxnreg of the PTX is a USETMAXREG of the same form and count */
        for (int i = 0; why[0] == '\0' && i < p->site_count; i++) {
            bool seen = false;
            for (int k = 0; k < sass_found && k < INSP_SMR_MAX_SITES; k++) {
                seen = seen || (out->usetmaxreg[k].action == p->sites[i].action &&
                                out->usetmaxreg[k].regs_per_thread == p->sites[i].regs_per_thread);
            }
            if (!seen) {
                snprintf(why, sizeof out->note,
                         "setmaxnreg.%s %d (PTX line %d) has no USETMAXREG of its form and count "
                         "in the code",
                         insp_setmaxnreg_action_name(p->sites[i].action),
                         p->sites[i].regs_per_thread, p->sites[i].line);
            }
        }
    } else if (sass_found == 0) {
        out->honoured = INSP_SMR_NO;
        if (!drops) {
            snprintf(why, sizeof out->note,
                     "the code holds no USETMAXREG for its %d setmaxnreg, and ptxas said nothing",
                     p->site_count);
        }
    } else {
        out->honoured = drops ? INSP_SMR_NO : INSP_SMR_UNKNOWN;
    }
}

/* x*y*z of a .maxntid or .reqntid (0: absent; a missing y or z is 1). */
static int threads_of(const int dims[3])
{
    long long n = 1;
    for (int i = 0; i < 3; i++) {
        n *= dims[i] > 0 ? dims[i] : 1;
    }
    return dims[0] > 0 && n <= 0x7FFFFFFF ? (int)n : 0;
}

occ_status insp_setmaxnreg_analyse(const char *ptx, size_t ptx_size, const char *entry,
                                   const char *ptxas_stderr, size_t stderr_size,
                                   const unsigned char *cubin, size_t cubin_size, int regs_at_entry,
                                   int block_threads, int blocks_per_sm, const occ_device *device,
                                   insp_setmaxnreg *out, occ_inspect_error *err)
{
    if (out == NULL) {
        return smr_fail(err, OCC_ERR_NULL_POINTER, -1, "setmaxnreg: no result");
    }
    memset(out, 0, sizeof *out);
    if (regs_at_entry < 0 || regs_at_entry > 255) {
        return smr_fail(err, OCC_ERR_INVALID_ARGUMENT, -1,
                        "setmaxnreg: registers at entry: %d is outside 0..255", regs_at_entry);
    }
    if (block_threads < 0 || block_threads > 1024) {
        return smr_fail(err, OCC_ERR_INVALID_ARGUMENT, -1,
                        "setmaxnreg: threads per block: %d is outside 0..1024", block_threads);
    }
    if (blocks_per_sm < 0) {
        return smr_fail(err, OCC_ERR_INVALID_ARGUMENT, -1,
                        "setmaxnreg: blocks per SM: %d is below 0", blocks_per_sm);
    }
    smr_ptx *p = malloc(sizeof *p);
    if (p == NULL) {
        return smr_fail(err, OCC_ERR_OUT_OF_MEMORY, -1, "out of memory");
    }
    occ_status st = smr_ptx_analyse(ptx, ptx_size, entry, block_threads, p, err);
    if (st != OCC_OK || p->site_count == 0) {
        free(p);
        return st;
    }
    int sass_found = -1;
    if (cubin != NULL) {
        st = insp_setmaxnreg_sass_count(cubin, cubin_size, entry, &sass_found, out->usetmaxreg,
                                        INSP_SMR_MAX_SITES, err);
        if (st != OCC_OK) {
            free(p);
            return st;
        }
    }
    out->present = true;
    out->block_threads = p->block_threads;
    out->warp_group_count = p->warp_group_count;
    out->regs_at_entry = regs_at_entry;
    out->blocks_per_sm = blocks_per_sm;
    out->max_threads = threads_of(p->max_threads);
    out->req_threads = threads_of(p->req_threads);
    out->min_blocks_per_sm = p->min_blocks_per_sm;
    if (ptxas_stderr != NULL) {
        read_messages(ptxas_stderr, stderr_size, entry, out);
    }
    char why_honoured[sizeof out->note];
    decide_honoured(p, sass_found, out, why_honoured);
    check_budget(p, device, out);
    if (out->note[0] == '\0') {
        snprintf(out->note, sizeof out->note, "%s", why_honoured);
    }
    free(p);
    return OCC_OK;
}

/* ------------------------------------------------------------------------ */
/* Errors                                                                   */
/* ------------------------------------------------------------------------ */

int insp_setmaxnreg_errors(const insp_setmaxnreg *smr, char *buf, size_t cap)
{
    size_t used = 0;
    int n = 0;
    buf[0] = '\0';
    bool dropped_said = false;
    for (int i = 0; i < smr->message_count; i++) {
        dropped_said = dropped_said || smr->messages[i].drops_setmaxnreg;
    }
    for (int item = -1; item <= smr->message_count; item++) {
        char line[400];
        line[0] = '\0';
        if (item == -1 && smr->fits == INSP_SMR_NO) {
            /* the note says which budget and which limit */
            snprintf(line, sizeof line, "setmaxnreg can deadlock: %s", smr->note);
        } else if (item >= 0 && item < smr->message_count) {
            snprintf(line, sizeof line, "ptxas: %s", smr->messages[item].text);
        } else if (item == smr->message_count && smr->honoured == INSP_SMR_NO && !dropped_said) {
            snprintf(line, sizeof line,
                     "setmaxnreg dropped: the code holds no USETMAXREG for the kernel's %d "
                     "setmaxnreg, and ptxas said nothing",
                     smr->region_count -
                         (smr->region_count > 0 && smr->regions[0].action == INSP_SMR_AT_ENTRY));
        }
        if (line[0] == '\0') {
            continue;
        }
        int w = snprintf(buf + used, cap - used, "%s%s", n > 0 ? "\n" : "", line);
        if (w < 0 || (size_t)w >= cap - used) {
            buf[used] = '\0'; /* no room: the line is left out whole */
            break;
        }
        used += (size_t)w;
        n++;
    }
    return n;
}

/* ------------------------------------------------------------------------ */
/* JSON                                                                     */
/* ------------------------------------------------------------------------ */

static void answer(json_stream *s, insp_smr_answer a)
{
    json_stream_lit(s, a == INSP_SMR_YES ? "true" : a == INSP_SMR_NO ? "false" : "null");
}

static void region_json(json_stream *s, const insp_setmaxnreg *smr, const insp_smr_region *r)
{
    json_stream_lit(s, "\"action\":");
    json_stream_cstring(s, insp_setmaxnreg_action_name(r->action));
    json_stream_key(s, "line");
    json_stream_int_or_null(s, r->line, r->line > 0);
    json_stream_key(s, "regs_per_thread");
    json_stream_int_or_null(s, r->regs_per_thread, r->regs_per_thread > 0);
    bool known = r->warp_groups != 0 && r->groups_exact;
    json_stream_key(s, "warp_groups");
    int count = 0;
    long long regs = 0;
    if (known) {
        json_stream_raw(s, "[", 1);
        for (int g = 0; g < INSP_SMR_MAX_WARP_GROUPS; g++) {
            if ((r->warp_groups >> g) & 1u) {
                json_stream_raw(s, ",", count++ > 0 ? 1 : 0);
                json_stream_int(s, g);
                regs += (long long)r->regs_per_thread * SMR_WARP_THREADS *
                        warps_in_group(smr->block_threads, g);
            }
        }
        json_stream_raw(s, "]", 1);
    } else {
        json_stream_null(s);
    }
    json_stream_key(s, "warp_group_count");
    json_stream_int_or_null(s, count, known);
    json_stream_key(s, "regs");
    json_stream_int_or_null(s, regs, known && r->regs_per_thread > 0);
}

void insp_setmaxnreg_json(json_stream *s, const insp_setmaxnreg *smr)
{
    json_stream_lit(s, "{\"regions\":");
    json_stream_raw(s, "[", 1);
    for (int i = 0; i < smr->region_count; i++) {
        if (i > 0) {
            json_stream_raw(s, ",", 1);
        }
        json_stream_raw(s, "{", 1);
        region_json(s, smr, &smr->regions[i]);
        json_stream_raw(s, "}", 1);
    }
    json_stream_raw(s, "]", 1);
    json_stream_key(s, "budget_regs");
    json_stream_int_or_null(s, smr->budget_regs, smr->budget_regs >= 0);
    json_stream_key(s, "fits");
    answer(s, smr->fits);
    json_stream_key(s, "ptxas_messages");
    json_stream_raw(s, "[", 1);
    for (int i = 0; i < smr->message_count; i++) {
        json_stream_raw(s, ",", i > 0 ? 1 : 0);
        json_stream_cstring(s, smr->messages[i].code);
    }
    json_stream_raw(s, "]", 1);
    json_stream_key(s, "honoured");
    answer(s, smr->honoured);
    json_stream_key(s, "usetmaxreg_count");
    json_stream_int_or_null(s, smr->usetmaxreg_count, smr->usetmaxreg_count >= 0);
    json_stream_key(s, "block_budget_regs");
    json_stream_int_or_null(s, smr->block_budget_regs, smr->block_budget_regs >= 0);
    json_stream_key(s, "pool_regs");
    json_stream_int_or_null(s, smr->pool_regs, smr->pool_regs >= 0);
    json_stream_key(s, "regs_per_sm");
    json_stream_int(s, smr->regs_per_sm);
    json_stream_key(s, "errors");
    char errors[INSP_SMR_ERRORS_BYTES];
    insp_setmaxnreg_errors(smr, errors, sizeof errors);
    json_stream_lines(s, errors);
    json_stream_key(s, "note");
    json_stream_cstring(s, smr->note);
    json_stream_raw(s, "}", 1);
}

char *insp_setmaxnreg_json_string(const insp_setmaxnreg *smr)
{
    json_stream s;
    json_stream_init_memory(&s);
    insp_setmaxnreg_json(&s, smr);
    size_t size;
    char *text = json_stream_take_text(&s, &size);
    json_stream_free(&s);
    return text;
}
