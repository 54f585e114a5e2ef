/*
 * setmaxnreg_ptx.c - which warp groups of an entry run which setmaxnreg
 * (docs/setmaxnreg.md, "Which warp groups run which setmaxnreg").
 *
 * A warp-specialized kernel sends one warp group (the producer) to
 * setmaxnreg.dec and the others (the consumers) to setmaxnreg.inc by a
 * branch on the warp group's index, %tid.x / 128. nvcc writes that index as
 * `and.b32 %r, %tid.x, -128`, `shr.u32 %r, %tid.x, 7` or a `setp` on %tid.x
 * against 127; CUTLASS passes it through `shfl.sync.idx` to make it uniform.
 * Two steps tell the groups apart, each per warp (32 threads) so that a
 * warp index (%tid.x / 32, then / 4) is followed as well:
 *
 * 1. Values. Each register gets one abstract value for the whole entry, the
 *    join of all its definitions iterated to a fixed point: %tid.x itself,
 *    one value per warp (a constant, or what an operation on %tid.x gives
 *    every thread of a warp alike, found by evaluating it for each thread),
 *    one value for the whole block that is not known (a kernel parameter,
 *    %ctaid, and what operations on such values give), or unknown. A
 *    predicate is 0 or 1 per warp.
 * 2. Paths. The control-flow graph is walked from the entry carrying, per
 *    warp, the set of register counts it may hold (bit 0: the count at
 *    entry; bit k: 8k registers). A branch on a predicate known per warp
 *    sends each warp its own way; any other branch sends it both ways and
 *    marks it uncertain, so what is reported is what may happen. Bit 1
 *    (SMR_HELD_BLOCK_AT_ENTRY) is the count at entry while every warp of the
 *    block is still on one path, which only branches the whole block takes
 *    alike keep: an exit there (`if (n < N) return;` on a kernel parameter)
 *    is one every warp takes before any setmaxnreg, and holds no budget.
 *
 * The PTX is read as text, every read checked against its size; memory is
 * bounded by SMR_MAX_INSTRUCTIONS and INSP_SMR_MAX_REGISTER_NAMES.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inspect_error.h"
#include "setmaxnreg_ptx.h"

#define SMR_MAX_WARPS 32    /* 1,024 threads per block / 32 */
#define SMR_WARP_THREADS 32 /* threads per warp on every CUDA GPU */
#define SMR_MAX_PASSES 64   /* value passes before giving up on the values */
#define SMR_MAX_OPCODE_PARTS 8
#define SMR_MAX_SMR_FUNCS 256 /* .func names holding setmaxnreg kept; more: any call counts */

occ_status smr_fail(occ_inspect_error *err, occ_status status, long long offset, const char *format,
                    ...)
{
    va_list args;
    va_start(args, format);
    insp_error_vset(err, status, -1, offset, format, args);
    va_end(args);
    return status;
}

/* ------------------------------------------------------------------------ */
/* Tokens                                                                   */
/* ------------------------------------------------------------------------ */

typedef enum tok_kind { TOK_END, TOK_WORD, TOK_PUNCT, TOK_STRING } tok_kind;

typedef struct token {
    tok_kind kind;
    const char *text;
    size_t len;
    int line;
} token;

typedef struct lexer {
    const char *text;
    size_t size;
    size_t pos;
    int line;
} lexer;

static bool word_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '$' || c == '%' || c == '.';
}

static bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v' || c == '\0';
}

/* The next token; comments and white space are skipped. A word runs over
   letters, digits, _ $ % . and a "::" inside it (ld.shared::cta). */
static token lex_next(lexer *lx)
{
    for (;;) {
        if (lx->pos >= lx->size) {
            token end = {TOK_END, lx->text + lx->size, 0, lx->line};
            return end;
        }
        char c = lx->text[lx->pos];
        char next = lx->pos + 1 < lx->size ? lx->text[lx->pos + 1] : 0;
        if (c == '\n') {
            lx->line++;
            lx->pos++;
        } else if (is_space(c)) {
            lx->pos++;
        } else if (c == '/' && next == '/') {
            while (lx->pos < lx->size && lx->text[lx->pos] != '\n') {
                lx->pos++;
            }
        } else if (c == '/' && next == '*') {
            lx->pos += 2;
            while (lx->pos < lx->size && !(lx->text[lx->pos] == '*' && lx->pos + 1 < lx->size &&
                                           lx->text[lx->pos + 1] == '/')) {
                lx->line += lx->text[lx->pos] == '\n';
                lx->pos++;
            }
            lx->pos = lx->pos + 2 <= lx->size ? lx->pos + 2 : lx->size;
        } else {
            break;
        }
    }
    token t = {TOK_PUNCT, lx->text + lx->pos, 0, lx->line};
    size_t start = lx->pos;
    char c = lx->text[lx->pos];
    if (word_char(c)) {
        t.kind = TOK_WORD;
        while (lx->pos < lx->size) {
            char d = lx->text[lx->pos];
            if (word_char(d)) {
                lx->pos++;
            } else if (d == ':' && lx->pos + 1 < lx->size && lx->text[lx->pos + 1] == ':') {
                lx->pos += 2;
            } else {
                break;
            }
        }
    } else if (c == '"') {
        t.kind = TOK_STRING;
        lx->pos++;
        while (lx->pos < lx->size && lx->text[lx->pos] != '"' && lx->text[lx->pos] != '\n') {
            lx->pos += lx->text[lx->pos] == '\\' && lx->pos + 1 < lx->size ? 2 : 1;
        }
        if (lx->pos < lx->size && lx->text[lx->pos] == '"') {
            lx->pos++;
        }
    } else {
        lx->pos++;
    }
    t.len = lx->pos - start;
    return t;
}

static bool tok_is(token t, const char *word)
{
    size_t n = strlen(word);
    return t.kind == TOK_WORD && t.len == n && memcmp(t.text, word, n) == 0;
}

static bool tok_punct(token t, char c)
{
    return t.kind == TOK_PUNCT && t.text[0] == c;
}

/* A PTX integer: decimal, 0x hex, 0b binary or 0 octal, an optional minus
   before it and U after it. False for anything else (floats: 0f..., 0d...). */
static bool parse_int(const char *s, size_t len, int64_t *out)
{
    size_t i = 0;
    bool negative = false;
    if (i < len && s[i] == '-') {
        negative = true;
        i++;
    }
    if (len > i && s[len - 1] == 'U') {
        len--;
    }
    if (i >= len) {
        return false;
    }
    unsigned base = 10;
    if (len - i > 2 && s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X')) {
        base = 16;
        i += 2;
    } else if (len - i > 2 && s[i] == '0' && (s[i + 1] == 'b' || s[i + 1] == 'B')) {
        base = 2;
        i += 2;
    } else if (len - i > 1 && s[i] == '0') {
        base = 8;
        i++;
    }
    uint64_t v = 0;
    for (; i < len; i++) {
        char c = s[i];
        unsigned d = c >= '0' && c <= '9'   ? (unsigned)(c - '0')
                     : c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10)
                     : c >= 'A' && c <= 'F' ? (unsigned)(c - 'A' + 10)
                                            : 99u;
        if (d >= base || v > (UINT64_MAX - d) / base) {
            return false;
        }
        v = v * base + d;
    }
    /* 64-bit patterns above INT64_MAX (0xFFFFFFFFFFFFFF80) keep their bits */
    *out = negative ? (int64_t)(0 - v) : (int64_t)v;
    return true;
}

/* ------------------------------------------------------------------------ */
/* Names: registers, labels and functions of one entry, each an id          */
/* ------------------------------------------------------------------------ */

typedef struct name_slot {
    const char *name; /* NULL: empty */
    uint32_t len;
    int32_t id;
} name_slot;

typedef struct name_map {
    name_slot *slots;
    size_t cap; /* a power of two, or 0 */
    size_t count;
} name_map;

static uint64_t name_hash(const char *s, size_t len)
{
    uint64_t h = 14695981039346656037ull; /* FNV-1a, 64-bit */
    for (size_t i = 0; i < len; i++) {
        h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
    }
    return h;
}

static int32_t map_find(const name_map *m, const char *s, size_t len)
{
    if (m->cap == 0) {
        return -1;
    }
    for (size_t i = name_hash(s, len) & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
        const name_slot *slot = &m->slots[i];
        if (slot->name == NULL) {
            return -1;
        }
        if (slot->len == len && memcmp(slot->name, s, len) == 0) {
            return slot->id;
        }
    }
}

/* The id of the name, a new one (the count so far) if it is new; -1 when
   out of memory. */
static int32_t map_intern(name_map *m, const char *s, size_t len)
{
    int32_t found = map_find(m, s, len);
    if (found >= 0) {
        return found;
    }
    if ((m->count + 1) * 2 > m->cap) {
        size_t cap = m->cap != 0 ? m->cap * 2 : 256;
        name_slot *slots = calloc(cap, sizeof *slots);
        if (slots == NULL) {
            return -1;
        }
        for (size_t i = 0; i < m->cap; i++) {
            if (m->slots[i].name != NULL) {
                size_t j = name_hash(m->slots[i].name, m->slots[i].len) & (cap - 1);
                while (slots[j].name != NULL) {
                    j = (j + 1) & (cap - 1);
                }
                slots[j] = m->slots[i];
            }
        }
        free(m->slots);
        m->slots = slots;
        m->cap = cap;
    }
    size_t i = name_hash(s, len) & (m->cap - 1);
    while (m->slots[i].name != NULL) {
        i = (i + 1) & (m->cap - 1);
    }
    m->slots[i].name = s;
    m->slots[i].len = (uint32_t)len;
    m->slots[i].id = (int32_t)m->count;
    return (int32_t)m->count++;
}

/* ------------------------------------------------------------------------ */
/* Instructions                                                             */
/* ------------------------------------------------------------------------ */

typedef enum opnd_kind {
    OPND_OTHER = 0, /* anything not read here: [addr], {vector}, a float */
    OPND_LITERAL,   /* an integer */
    OPND_REG,       /* a name: a register, a label, a function */
    OPND_TID_X,     /* %tid.x */
    OPND_NOT_REG,   /* !%p */
    OPND_PAIR,      /* %p|%q */
    OPND_BLOCK_SREG /* a special register every thread of a block reads alike: %ctaid.x, ... */
} opnd_kind;

typedef struct operand {
    uint32_t offset, len; /* the text, for labels and messages */
    int32_t reg, reg2;    /* name ids (reg2: a pair's second) */
    int64_t literal;
    uint8_t kind;
} operand;

typedef enum insn_kind {
    INSN_OTHER = 0, /* writes what its first operand names: unknown values */
    INSN_NO_WRITE,  /* st, red, bar, fence, ...: writes no register */
    INSN_VALUE,     /* an operation whose value is followed (op below) */
    INSN_BRA,       /* bra: a direct branch */
    INSN_BRX,       /* brx.idx: an indirect branch */
    INSN_END,       /* ret, exit, trap */
    INSN_CALL,      /* call */
    INSN_SMR,       /* setmaxnreg */
    INSN_LD_PARAM   /* ld.param: a kernel parameter where it names one of the entry's */
} insn_kind;

typedef enum value_op {
    OP_MOV,
    OP_CVT,
    OP_AND,
    OP_OR,
    OP_XOR,
    OP_NOT,
    OP_ADD,
    OP_SUB,
    OP_MUL,
    OP_DIV,
    OP_REM,
    OP_SHL,
    OP_SHR,
    OP_MIN,
    OP_MAX,
    OP_NEG,
    OP_SETP,
    OP_SELP,
    OP_SHFL
} value_op;

typedef enum cmp_op { CMP_EQ, CMP_NE, CMP_LT, CMP_LE, CMP_GT, CMP_GE } cmp_op;
typedef enum bool_op { BOOL_NONE, BOOL_AND, BOOL_OR, BOOL_XOR } bool_op;

typedef struct insn {
    uint32_t op_offset, op_len;
    uint32_t operand_first, operand_count;
    uint32_t dst_first, dst_count; /* names in the first operand, outside [] */
    int32_t guard;                 /* the guard predicate's id, -1 none */
    int32_t line;
    int32_t target; /* INSN_BRA: the instruction its label is at; INSN_SMR: the site */
    uint8_t guard_negated;
    uint8_t kind;
    /* INSN_VALUE: the operation and its type (width in bits, signedness);
       cvt's source type, mul.wide's doubling, setp's comparison */
    uint8_t op, width, is_signed, src_width, src_signed, cmp, boolean;
} insn;

typedef struct label_ref {
    int32_t name;  /* id */
    uint32_t insn; /* the instruction after the label */
} label_ref;

/* Growable arrays of the entry. */
typedef struct body {
    insn *insns;
    size_t insn_count, insn_cap;
    operand *operands;
    size_t operand_count, operand_cap;
    int32_t *dsts;
    size_t dst_count, dst_cap;
    label_ref *labels;
    size_t label_count, label_cap;
    name_map names;
} body;

static bool grow(void **array, size_t *cap, size_t count, size_t item_bytes)
{
    if (count < *cap) {
        return true;
    }
    size_t cap2 = *cap != 0 ? *cap * 2 : 256;
    void *bigger = realloc(*array, cap2 * item_bytes);
    if (bigger == NULL) {
        return false;
    }
    *array = bigger;
    *cap = cap2;
    return true;
}

/* The opcode's parts: "setp.eq.s32" -> setp, eq, s32. */
typedef struct parts {
    const char *text[SMR_MAX_OPCODE_PARTS];
    size_t len[SMR_MAX_OPCODE_PARTS];
    int count; /* SMR_MAX_OPCODE_PARTS + 1: more than fit */
} parts;

static void split_opcode(const char *op, size_t len, parts *p)
{
    p->count = 0;
    size_t start = 0;
    for (size_t i = 0; i <= len; i++) {
        if (i == len || op[i] == '.') {
            if (p->count == SMR_MAX_OPCODE_PARTS) {
                p->count++;
                return;
            }
            p->text[p->count] = op + start;
            p->len[p->count] = i - start;
            p->count++;
            start = i + 1;
        }
    }
}

static bool part_is(const parts *p, int i, const char *word)
{
    size_t n = strlen(word);
    return i < p->count && i < SMR_MAX_OPCODE_PARTS && p->len[i] == n &&
           memcmp(p->text[i], word, n) == 0;
}

/* An integer type: .u32 -> 32 unsigned, .s16 -> 16 signed, .b64, .pred -> 1. */
static bool int_type(const parts *p, int i, uint8_t *width, uint8_t *is_signed)
{
    if (i >= p->count || i >= SMR_MAX_OPCODE_PARTS) {
        return false;
    }
    if (part_is(p, i, "pred")) {
        *width = 1;
        *is_signed = 0;
        return true;
    }
    const char *t = p->text[i];
    size_t n = p->len[i];
    if (n < 2 || (t[0] != 'u' && t[0] != 's' && t[0] != 'b')) {
        return false;
    }
    static const char *const widths[] = {"8", "16", "32", "64"};
    static const uint8_t bits[] = {8, 16, 32, 64};
    for (int w = 0; w < 4; w++) {
        if (n - 1 == strlen(widths[w]) && memcmp(t + 1, widths[w], n - 1) == 0) {
            *width = bits[w];
            *is_signed = t[0] == 's';
            return true;
        }
    }
    return false;
}

static bool in_list(const parts *p, const char *const *words)
{
    for (; *words != NULL; words++) {
        if (part_is(p, 0, *words)) {
            return true;
        }
    }
    return false;
}

/* Decodes an opcode into its kind and, for the operations followed, the
   operation and its types. Anything with modifiers not understood (a
   saturation, a carry, a float type) is INSN_OTHER: its result unknown. */
static void decode_opcode(insn *in, const char *op, size_t len)
{
    static const char *const no_write[] = {
        "st",        "red", "bar",     "barrier",  "membar",    "fence", "prefetch",
        "prefetchu", "cp",  "pmevent", "stmatrix", "nanosleep", NULL};
    static const char *const ends[] = {"ret", "exit", "trap", NULL};
    static const char *const compares[] = {"eq", "ne", "lt", "le", "gt",
                                           "ge", "lo", "ls", "hi", "hs"};
    static const uint8_t compare_ops[] = {CMP_EQ, CMP_NE, CMP_LT, CMP_LE, CMP_GT,
                                          CMP_GE, CMP_LT, CMP_LE, CMP_GT, CMP_GE};
    static const struct {
        const char *name;
        uint8_t op;
    } simple[] = {{"mov", OP_MOV}, {"and", OP_AND}, {"or", OP_OR},    {"xor", OP_XOR},
                  {"not", OP_NOT}, {"add", OP_ADD}, {"sub", OP_SUB},  {"div", OP_DIV},
                  {"rem", OP_REM}, {"shl", OP_SHL}, {"shr", OP_SHR},  {"min", OP_MIN},
                  {"max", OP_MAX}, {"neg", OP_NEG}, {"selp", OP_SELP}};
    parts p;
    split_opcode(op, len, &p);
    in->kind = INSN_OTHER;
    if (p.count > SMR_MAX_OPCODE_PARTS) {
        return;
    }
    if (part_is(&p, 0, "setmaxnreg")) {
        in->kind = INSN_SMR;
    } else if (part_is(&p, 0, "bra")) {
        in->kind = INSN_BRA;
    } else if (part_is(&p, 0, "brx")) {
        in->kind = INSN_BRX;
    } else if (in_list(&p, ends)) {
        in->kind = INSN_END;
    } else if (part_is(&p, 0, "call")) {
        in->kind = INSN_CALL;
    } else if (part_is(&p, 0, "ld") && part_is(&p, 1, "param")) {
        in->kind = INSN_LD_PARAM;
    } else if (in_list(&p, no_write)) {
        in->kind = INSN_NO_WRITE;
    }
    if (in->kind != INSN_OTHER) {
        return;
    }
    bool ok = false;
    for (size_t i = 0; !ok && i < sizeof simple / sizeof simple[0]; i++) {
        if (part_is(&p, 0, simple[i].name)) {
            in->op = simple[i].op;
            ok = p.count == 2 && int_type(&p, 1, &in->width, &in->is_signed);
        }
    }
    if (part_is(&p, 0, "cvt")) {
        in->op = OP_CVT;
        ok = p.count == 3 && int_type(&p, 1, &in->width, &in->is_signed) &&
             int_type(&p, 2, &in->src_width, &in->src_signed);
    } else if (part_is(&p, 0, "mul")) {
        /* mul.lo keeps the low half; mul.wide doubles the width (the
           source's type is the one written) */
        in->op = OP_MUL;
        ok = p.count == 3 && (part_is(&p, 1, "lo") || part_is(&p, 1, "wide")) &&
             int_type(&p, 2, &in->src_width, &in->src_signed);
        in->width = (uint8_t)(part_is(&p, 1, "wide") ? in->src_width * 2 : in->src_width);
        in->is_signed = in->src_signed;
        ok = ok && in->width <= 64;
    } else if (part_is(&p, 0, "setp")) {
        in->op = OP_SETP;
        in->boolean = BOOL_NONE;
        if (p.count == 4) {
            in->boolean = part_is(&p, 2, "and")   ? BOOL_AND
                          : part_is(&p, 2, "or")  ? BOOL_OR
                          : part_is(&p, 2, "xor") ? BOOL_XOR
                                                  : BOOL_NONE;
        }
        for (size_t c = 0; c < sizeof compares / sizeof compares[0]; c++) {
            if (part_is(&p, 1, compares[c])) {
                in->cmp = compare_ops[c];
                ok = (p.count == 3 || (p.count == 4 && in->boolean != BOOL_NONE)) &&
                     int_type(&p, p.count - 1, &in->src_width, &in->src_signed);
            }
        }
        in->width = 1;
        in->is_signed = 0;
    } else if (part_is(&p, 0, "shfl")) {
        /* shfl.sync.idx.b32 d[|p], a, lane, clamp, mask: every mode moves a
           value between the lanes of one warp */
        in->op = OP_SHFL;
        ok = (p.count == 4 && part_is(&p, 1, "sync")) || p.count == 3;
        ok = ok && part_is(&p, p.count - 1, "b32");
        in->width = 32;
        in->is_signed = 0;
    }
    if (ok && in->op != OP_CVT && in->op != OP_MUL && in->op != OP_SETP) {
        in->src_width = in->width;
        in->src_signed = in->is_signed;
    }
    if (ok) {
        in->kind = INSN_VALUE;
    }
}

/* ------------------------------------------------------------------------ */
/* The entry's body                                                         */
/* ------------------------------------------------------------------------ */

typedef struct reader {
    const char *ptx;
    size_t size;
    const char *entry;
    occ_inspect_error *err;
    body b;
} reader;

static bool is_name_start(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' || c == '%';
}

static occ_status out_of_memory(reader *r)
{
    return smr_fail(r->err, OCC_ERR_OUT_OF_MEMORY, -1, "out of memory reading PTX entry '%s'",
                    r->entry);
}

static occ_status intern(reader *r, token t, int32_t *id)
{
    if (r->b.names.count >= INSP_SMR_MAX_REGISTER_NAMES &&
        map_find(&r->b.names, t.text, t.len) < 0) {
        return smr_fail(r->err, OCC_ERR_LIMIT, (long long)(t.text - r->ptx),
                        "PTX line %d: entry '%s' names more than %u registers and labels", t.line,
                        r->entry, (unsigned)INSP_SMR_MAX_REGISTER_NAMES);
    }
    *id = map_intern(&r->b.names, t.text, t.len);
    return *id < 0 ? out_of_memory(r) : OCC_OK;
}

/* PTX ISA, "Special Registers": the ones every thread of a block reads
   alike (the block's index and the grid's and block's shapes). */
static bool block_special_register(token t)
{
    static const char *const names[] = {"%ctaid",
                                        "%nctaid",
                                        "%ntid",
                                        "%clusterid",
                                        "%nclusterid",
                                        "%cluster_ctaid",
                                        "%cluster_nctaid",
                                        "%cluster_ctarank",
                                        "%cluster_nctarank",
                                        "%gridid",
                                        NULL};
    for (int i = 0; names[i] != NULL; i++) {
        size_t n = strlen(names[i]);
        if (t.len >= n && memcmp(t.text, names[i], n) == 0 &&
            (t.len == n || (t.len == n + 2 && t.text[n] == '.'))) {
            return true;
        }
    }
    return false;
}

/* Classifies an operand from its first (up to) three tokens. */
static occ_status classify_operand(reader *r, operand *o, const token *tokens, int count)
{
    o->kind = OPND_OTHER;
    o->reg = o->reg2 = -1;
    if (count == 1 && tokens[0].kind == TOK_WORD) {
        if (parse_int(tokens[0].text, tokens[0].len, &o->literal)) {
            o->kind = OPND_LITERAL;
        } else if (tok_is(tokens[0], "%tid.x")) {
            o->kind = OPND_TID_X;
        } else if (block_special_register(tokens[0])) {
            o->kind = OPND_BLOCK_SREG;
        } else if (is_name_start(tokens[0].text[0])) {
            o->kind = OPND_REG;
            return intern(r, tokens[0], &o->reg);
        }
    } else if (count == 2 && tok_punct(tokens[0], '-') && tokens[1].kind == TOK_WORD &&
               tokens[1].text == tokens[0].text + 1) {
        if (parse_int(tokens[0].text, tokens[1].len + 1, &o->literal)) {
            o->kind = OPND_LITERAL;
        }
    } else if (count == 2 && tok_punct(tokens[0], '!') && tokens[1].kind == TOK_WORD &&
               is_name_start(tokens[1].text[0])) {
        o->kind = OPND_NOT_REG;
        return intern(r, tokens[1], &o->reg);
    } else if (count == 3 && tokens[0].kind == TOK_WORD && tok_punct(tokens[1], '|') &&
               tokens[2].kind == TOK_WORD && is_name_start(tokens[0].text[0]) &&
               is_name_start(tokens[2].text[0])) {
        o->kind = OPND_PAIR;
        occ_status st = intern(r, tokens[0], &o->reg);
        return st != OCC_OK ? st : intern(r, tokens[2], &o->reg2);
    }
    return OCC_OK;
}

/* Reads one instruction's operands, up to its ';'. */
static occ_status read_operands(reader *r, lexer *lx, insn *in, token opcode)
{
    in->operand_first = (uint32_t)r->b.operand_count;
    in->dst_first = (uint32_t)r->b.dst_count;
    token first[3];
    int first_count = 0;
    int depth = 0; /* of [], {} and () inside the instruction */
    int square = 0;
    bool any = false;
    size_t start = 0;
    for (;;) {
        token t = lex_next(lx);
        if (t.kind == TOK_END) {
            return smr_fail(r->err, OCC_ERR_BAD_FORMAT, (long long)(opcode.text - r->ptx),
                            "PTX line %d: instruction '%.*s' in entry '%s' has no ';'", opcode.line,
                            (int)(opcode.len < 60 ? opcode.len : 60), opcode.text, r->entry);
        }
        bool ends = depth == 0 && (tok_punct(t, ';') || tok_punct(t, ','));
        if (ends) {
            if (any) {
                if (!grow((void **)&r->b.operands, &r->b.operand_cap, r->b.operand_count,
                          sizeof *r->b.operands)) {
                    return out_of_memory(r);
                }
                operand *o = &r->b.operands[r->b.operand_count++];
                memset(o, 0, sizeof *o);
                o->offset = (uint32_t)start;
                o->len = (uint32_t)((size_t)(t.text - r->ptx) - start);
                while (o->len > 0 && is_space(r->ptx[o->offset + o->len - 1])) {
                    o->len--;
                }
                occ_status st = classify_operand(r, o, first, first_count > 3 ? 4 : first_count);
                if (st != OCC_OK) {
                    return st;
                }
                in->operand_count++;
            }
            any = false;
            first_count = 0;
            if (tok_punct(t, ';')) {
                return OCC_OK;
            }
            continue;
        }
        if (!any) {
            start = (size_t)(t.text - r->ptx);
            any = true;
        }
        if (first_count < 3) {
            first[first_count] = t;
        }
        first_count++;
        if (tok_punct(t, '[') || tok_punct(t, '{') || tok_punct(t, '(')) {
            depth++;
            square += tok_punct(t, '[');
        } else if ((tok_punct(t, ']') || tok_punct(t, '}') || tok_punct(t, ')')) && depth > 0) {
            depth--;
            square -= tok_punct(t, ']') && square > 0;
        }
        /* what the first operand names outside [] is what the instruction writes */
        if (in->operand_count == 0 && square == 0 && t.kind == TOK_WORD &&
            is_name_start(t.text[0])) {
            int32_t id;
            occ_status st = intern(r, t, &id);
            if (st != OCC_OK) {
                return st;
            }
            if (!grow((void **)&r->b.dsts, &r->b.dst_cap, r->b.dst_count, sizeof *r->b.dsts)) {
                return out_of_memory(r);
            }
            r->b.dsts[r->b.dst_count++] = id;
            in->dst_count++;
        }
    }
}

/* Up to cap - 4 bytes of text for a message, cut at the first control
   character (an operand may run over lines), "..." where cut. */
static const char *shown(const char *text, size_t len, char *out, size_t cap)
{
    size_t n = 0;
    while (n < len && n + 4 < cap && (unsigned char)text[n] >= 0x20 && text[n] != 0x7F) {
        out[n] = text[n];
        n++;
    }
    if (n < len) {
        memcpy(out + n, "...", 4);
    } else {
        out[n] = '\0';
    }
    return out;
}

/* Checks a setmaxnreg against the PTX ISA's rules ("setmaxnreg": the
   qualifiers .inc or .dec, .sync.aligned, .u32, one immediate count in
   24..256, a multiple of 8). */
static occ_status check_setmaxnreg(reader *r, const insn *in, smr_site *site)
{
    const char *op = r->ptx + in->op_offset;
    int op_shown = (int)(in->op_len < 60 ? in->op_len : 60);
    parts p;
    split_opcode(op, in->op_len, &p);
    long long at = (long long)in->op_offset;
    if (!part_is(&p, 1, "inc") && !part_is(&p, 1, "dec")) {
        return smr_fail(r->err, OCC_ERR_BAD_FORMAT, at,
                        "PTX line %d: '%.*s': setmaxnreg needs .inc or .dec", in->line, op_shown,
                        op);
    }
    if (p.count != 5 || !part_is(&p, 2, "sync") || !part_is(&p, 3, "aligned") ||
        !part_is(&p, 4, "u32")) {
        return smr_fail(r->err, OCC_ERR_BAD_FORMAT, at,
                        "PTX line %d: '%.*s': setmaxnreg is written "
                        "setmaxnreg.%s.sync.aligned.u32",
                        in->line, op_shown, op, part_is(&p, 1, "inc") ? "inc" : "dec");
    }
    if (in->operand_count != 1) {
        return smr_fail(r->err, OCC_ERR_BAD_FORMAT, at,
                        "PTX line %d: setmaxnreg takes one register count, not %u operands",
                        in->line, in->operand_count);
    }
    const operand *o = &r->b.operands[in->operand_first];
    if (o->kind != OPND_LITERAL) {
        char text[48];
        return smr_fail(r->err, OCC_ERR_BAD_FORMAT, (long long)o->offset,
                        "PTX line %d: setmaxnreg count '%s' is not an integer constant", in->line,
                        shown(r->ptx + o->offset, o->len, text, sizeof text));
    }
    long long n = (long long)o->literal;
    if (n < INSP_SMR_MIN_REGS) {
        return smr_fail(r->err, OCC_ERR_BAD_FORMAT, (long long)o->offset,
                        "PTX line %d: setmaxnreg count %lld is below the minimum, %d", in->line, n,
                        INSP_SMR_MIN_REGS);
    }
    if (n > INSP_SMR_MAX_REGS) {
        return smr_fail(r->err, OCC_ERR_BAD_FORMAT, (long long)o->offset,
                        "PTX line %d: setmaxnreg count %lld is above the maximum, %d", in->line, n,
                        INSP_SMR_MAX_REGS);
    }
    if (n % INSP_SMR_REGS_STEP != 0) {
        return smr_fail(r->err, OCC_ERR_BAD_FORMAT, (long long)o->offset,
                        "PTX line %d: setmaxnreg count %lld is not a multiple of %d", in->line, n,
                        INSP_SMR_REGS_STEP);
    }
    site->action = part_is(&p, 1, "inc") ? INSP_SMR_INC : INSP_SMR_DEC;
    site->regs_per_thread = (int)n;
    site->line = in->line;
    site->offset = in->op_offset;
    return OCC_OK;
}

/* Skips a directive inside the body: to its ';', or to the end of its line
   for .loc and .file, which have none. */
static void skip_directive(lexer *lx, token directive)
{
    bool to_line_end = tok_is(directive, ".loc") || tok_is(directive, ".file");
    for (;;) {
        lexer save = *lx;
        token t = lex_next(lx);
        if (t.kind == TOK_END || tok_punct(t, ';')) {
            return;
        }
        if (tok_punct(t, '}') || tok_punct(t, '{') || (to_line_end && t.line != directive.line)) {
            *lx = save;
            return;
        }
    }
}

/* Reads the body after its '{' into r->b and the sites into out. */
static occ_status read_body(reader *r, lexer *lx, smr_ptx *out)
{
    int depth = 0;
    for (;;) {
        token t = lex_next(lx);
        if (t.kind == TOK_END) {
            return smr_fail(r->err, OCC_ERR_BAD_FORMAT, (long long)r->size,
                            "PTX: entry '%s' has no closing '}'", r->entry);
        }
        if (tok_punct(t, '}')) {
            if (depth == 0) {
                return OCC_OK;
            }
            depth--;
            continue;
        }
        if (tok_punct(t, '{')) {
            depth++;
            continue;
        }
        if (t.kind != TOK_WORD && !tok_punct(t, '@')) {
            continue; /* a stray ';' or what ptxas will refuse */
        }
        if (t.kind == TOK_WORD) {
            lexer save = *lx;
            token colon = lex_next(lx);
            if (tok_punct(colon, ':')) {
                int32_t id;
                occ_status st = intern(r, t, &id);
                if (st != OCC_OK) {
                    return st;
                }
                if (!grow((void **)&r->b.labels, &r->b.label_cap, r->b.label_count,
                          sizeof *r->b.labels)) {
                    return out_of_memory(r);
                }
                label_ref *l = &r->b.labels[r->b.label_count++];
                l->name = id;
                l->insn = (uint32_t)r->b.insn_count;
                continue;
            }
            *lx = save;
            if (t.text[0] == '.') {
                skip_directive(lx, t);
                continue;
            }
        }
        if (r->b.insn_count >= SMR_MAX_INSTRUCTIONS) {
            return smr_fail(r->err, OCC_ERR_LIMIT, (long long)(t.text - r->ptx),
                            "PTX line %d: entry '%s' has more than %u instructions", t.line,
                            r->entry, (unsigned)SMR_MAX_INSTRUCTIONS);
        }
        if (!grow((void **)&r->b.insns, &r->b.insn_cap, r->b.insn_count, sizeof *r->b.insns)) {
            return out_of_memory(r);
        }
        insn *in = &r->b.insns[r->b.insn_count];
        memset(in, 0, sizeof *in);
        in->guard = -1;
        in->target = -1;
        token opcode = t;
        if (tok_punct(t, '@')) {
            token g = lex_next(lx);
            if (tok_punct(g, '!')) {
                in->guard_negated = 1;
                g = lex_next(lx);
            }
            opcode = lex_next(lx);
            if (g.kind != TOK_WORD || opcode.kind != TOK_WORD) {
                return smr_fail(r->err, OCC_ERR_BAD_FORMAT, (long long)(t.text - r->ptx),
                                "PTX line %d: a guard '@' in entry '%s' without a predicate "
                                "and an instruction",
                                t.line, r->entry);
            }
            occ_status st = intern(r, g, &in->guard);
            if (st != OCC_OK) {
                return st;
            }
        }
        in->op_offset = (uint32_t)(opcode.text - r->ptx);
        in->op_len = (uint32_t)opcode.len;
        in->line = opcode.line;
        decode_opcode(in, opcode.text, opcode.len);
        occ_status st = read_operands(r, lx, in, opcode);
        if (st != OCC_OK) {
            return st;
        }
        if (in->kind == INSN_SMR) {
            if (out->site_count >= INSP_SMR_MAX_SITES) {
                return smr_fail(r->err, OCC_ERR_LIMIT, (long long)in->op_offset,
                                "PTX line %d: entry '%s' has more than %d setmaxnreg "
                                "instructions",
                                in->line, r->entry, INSP_SMR_MAX_SITES);
            }
            smr_site *site = &out->sites[out->site_count];
            memset(site, 0, sizeof *site);
            st = check_setmaxnreg(r, in, site);
            if (st != OCC_OK) {
                return st;
            }
            in->target = out->site_count++;
        }
        r->b.insn_count++;
    }
}

/* ------------------------------------------------------------------------ */
/* The module: the entry, its directives, and the .func that hold setmaxnreg */
/* ------------------------------------------------------------------------ */

typedef struct module_scan {
    bool found;
    bool has_body;
    lexer body; /* just after the entry's '{' */
    int entry_line;
    const char *params; /* the entry's parameter list, "(...)" */
    size_t params_len;
    token smr_funcs[SMR_MAX_SMR_FUNCS];
    int smr_func_count;
    bool smr_funcs_overflow;
    lexer rest; /* after the entry's body */
} module_scan;

/* Reads up to three numbers of a directive (".maxntid 384, 1, 1"). */
static void read_dims(lexer *lx, int *dims, int max)
{
    for (int i = 0; i < max; i++) {
        lexer save = *lx;
        token t = lex_next(lx);
        int64_t v;
        if (t.kind != TOK_WORD || !parse_int(t.text, t.len, &v) || v < 0 || v > 0x7FFFFFFF) {
            *lx = save;
            return;
        }
        dims[i] = (int)v;
        save = *lx;
        if (!tok_punct(lex_next(lx), ',')) {
            *lx = save;
            return;
        }
    }
}

/* Skips a balanced group after its opening token. */
static void skip_group(lexer *lx, char open, char close)
{
    int depth = 1;
    while (depth > 0) {
        token t = lex_next(lx);
        if (t.kind == TOK_END) {
            return;
        }
        depth += tok_punct(t, open) ? 1 : tok_punct(t, close) ? -1 : 0;
    }
}

/* Skips a function body after its '{'; true if it holds setmaxnreg. */
static bool skip_body(lexer *lx)
{
    int depth = 1;
    bool has = false;
    while (depth > 0) {
        token t = lex_next(lx);
        if (t.kind == TOK_END) {
            return has;
        }
        depth += tok_punct(t, '{') ? 1 : tok_punct(t, '}') ? -1 : 0;
        has = has || (t.kind == TOK_WORD && t.len >= 10 && memcmp(t.text, "setmaxnreg", 10) == 0);
    }
    return has;
}

/* Reads the module's functions from lx on: the entry's directives and body
   (where entry is not NULL: the scan stops after its body, and m->rest is
   where to go on), and the .func bodies that hold setmaxnreg. */
static void scan_module(lexer *start, const char *entry, smr_ptx *out, module_scan *m)
{
    lexer lx = *start;
    size_t entry_len = entry != NULL ? strlen(entry) : 0;
    int depth = 0;
    for (;;) {
        token t = lex_next(&lx);
        if (t.kind == TOK_END) {
            return;
        }
        if (tok_punct(t, '{')) {
            depth++;
        } else if (tok_punct(t, '}')) {
            depth -= depth > 0;
        }
        bool is_entry = tok_is(t, ".entry");
        if (depth != 0 || (!is_entry && !tok_is(t, ".func"))) {
            continue;
        }
        token name = lex_next(&lx);
        if (tok_punct(name, '(')) { /* a .func's return parameter */
            skip_group(&lx, '(', ')');
            name = lex_next(&lx);
        }
        if (name.kind != TOK_WORD) {
            continue;
        }
        bool ours = is_entry && entry != NULL && !m->found && name.len == entry_len &&
                    memcmp(name.text, entry, entry_len) == 0;
        int max_threads[3] = {0, 0, 0}, req_threads[3] = {0, 0, 0}, min_blocks[1] = {0},
            max_regs[1] = {0};
        for (;;) {
            token d = lex_next(&lx);
            if (d.kind == TOK_END || tok_punct(d, ';')) {
                break; /* a declaration: no body */
            }
            if (tok_punct(d, '(')) {
                skip_group(&lx, '(', ')');
                if (ours) {
                    m->params = d.text;
                    m->params_len = lx.pos - (size_t)(d.text - lx.text);
                }
            } else if (tok_is(d, ".maxntid")) {
                read_dims(&lx, max_threads, 3);
            } else if (tok_is(d, ".reqntid")) {
                read_dims(&lx, req_threads, 3);
            } else if (tok_is(d, ".minnctapersm")) {
                read_dims(&lx, min_blocks, 1);
            } else if (tok_is(d, ".maxnreg")) {
                read_dims(&lx, max_regs, 1);
            } else if (tok_punct(d, '{')) {
                if (ours) {
                    m->has_body = true;
                    m->body = lx;
                }
                bool has_smr = skip_body(&lx);
                if (has_smr && !is_entry) {
                    if (m->smr_func_count < SMR_MAX_SMR_FUNCS) {
                        m->smr_funcs[m->smr_func_count++] = name;
                    } else {
                        m->smr_funcs_overflow = true;
                    }
                }
                break;
            }
        }
        if (ours) {
            m->found = true;
            m->entry_line = name.line;
            memcpy(out->max_threads, max_threads, sizeof max_threads);
            memcpy(out->req_threads, req_threads, sizeof req_threads);
            out->min_blocks_per_sm = min_blocks[0];
            out->max_regs = max_regs[0];
            if (m->has_body) {
                m->rest = lx; /* a module of many kernels is read once per kernel: stop */
                return;
            }
        }
    }
}

/* ------------------------------------------------------------------------ */
/* Values                                                                   */
/* ------------------------------------------------------------------------ */

/* V_BLOCK: one value every thread of the block shares, not known (a kernel
   parameter, %ctaid.x). */
typedef enum value_kind { V_NONE = 0, V_TID, V_WARP, V_TOP, V_BLOCK } value_kind;

/* An abstract value: V_WARP holds one value per warp. */
typedef struct aval {
    uint8_t kind;
    int64_t v[SMR_MAX_WARPS];
} aval;

typedef struct values {
    uint8_t *kind;    /* per name id */
    uint32_t *vector; /* per name id: its V_WARP values in pool */
    bool *written;    /* per name id: some instruction writes it */
    int64_t *pool;    /* vectors of `warps` values */
    size_t pool_count, pool_cap;
    int warps;
    int threads;
    bool tid_tracked;
    const char *ptx;    /* the module, for ld.param's address */
    const char *params; /* the entry's parameter list; NULL: unknown */
    size_t params_len;
} values;

static int64_t norm(int64_t v, int width, bool is_signed)
{
    if (width >= 64) {
        return v;
    }
    uint64_t mask = (1ull << width) - 1;
    uint64_t u = (uint64_t)v & mask;
    if (is_signed && ((u >> (width - 1)) & 1u)) {
        return (int64_t)(u | ~mask);
    }
    return (int64_t)u;
}

static void read_operand(const values *vs, const operand *o, int width, bool is_signed, aval *out)
{
    out->kind = V_TOP;
    if (o->kind == OPND_LITERAL) {
        out->kind = V_WARP;
        for (int w = 0; w < vs->warps; w++) {
            out->v[w] = norm(o->literal, width, is_signed);
        }
    } else if (o->kind == OPND_TID_X) {
        out->kind = vs->tid_tracked ? V_TID : V_TOP;
    } else if (o->kind == OPND_BLOCK_SREG) {
        out->kind = V_BLOCK;
    } else if (o->kind == OPND_REG && vs->written[o->reg]) {
        out->kind = vs->kind[o->reg];
        if (out->kind == V_WARP) {
            const int64_t *v = &vs->pool[(size_t)vs->vector[o->reg] * (size_t)vs->warps];
            for (int w = 0; w < vs->warps; w++) {
                out->v[w] = norm(v[w], width, is_signed);
            }
        }
    }
}

/* A value's, or %tid.x's, value for thread t. */
static int64_t thread_value(const aval *a, int t)
{
    return a->kind == V_TID ? t : a->v[t / SMR_WARP_THREADS];
}

static bool compare(uint8_t cmp, int64_t a, int64_t b, bool is_signed)
{
    uint64_t ua = (uint64_t)a, ub = (uint64_t)b;
    switch (cmp) {
    case CMP_EQ: return a == b;
    case CMP_NE: return a != b;
    case CMP_LT: return is_signed ? a < b : ua < ub;
    case CMP_LE: return is_signed ? a <= b : ua <= ub;
    case CMP_GT: return is_signed ? a > b : ua > ub;
    default: return is_signed ? a >= b : ua >= ub;
    }
}

/* One operation on one thread's values; false where PTX leaves it
   undefined (a division by zero). */
static bool apply(const insn *in, int64_t a, int64_t b, int64_t c, int64_t *out)
{
    uint64_t ua = (uint64_t)a, ub = (uint64_t)b;
    int width = in->width;
    bool s = in->is_signed;
    switch (in->op) {
    case OP_MOV:
    case OP_CVT:
    case OP_SHFL: *out = a; break;
    case OP_AND: *out = (int64_t)(ua & ub); break;
    case OP_OR: *out = (int64_t)(ua | ub); break;
    case OP_XOR: *out = (int64_t)(ua ^ ub); break;
    case OP_NOT: *out = width == 1 ? (int64_t)(ua == 0) : (int64_t)~ua; break;
    case OP_ADD: *out = (int64_t)(ua + ub); break;
    case OP_SUB: *out = (int64_t)(ua - ub); break;
    case OP_MUL: *out = (int64_t)(ua * ub); break;
    case OP_NEG: *out = (int64_t)(0 - ua); break;
    case OP_MIN: *out = compare(CMP_LT, a, b, s) ? a : b; break;
    case OP_MAX: *out = compare(CMP_GT, a, b, s) ? a : b; break;
    case OP_DIV:
    case OP_REM:
        if (b == 0 || (s && b == -1)) {
            return false;
        }
        if (s) {
            *out = in->op == OP_DIV ? a / b : a % b;
        } else {
            uint64_t ma = (uint64_t)norm(a, width, false), mb = (uint64_t)norm(b, width, false);
            *out = (int64_t)(in->op == OP_DIV ? ma / mb : ma % mb);
        }
        break;
    case OP_SHL:
        /* PTX: shift amounts above the width are clamped to it */
        *out = ub >= (uint64_t)width ? 0 : (int64_t)(ua << ub);
        break;
    case OP_SHR:
        if (s) {
            *out = ub >= (uint64_t)width ? (a < 0 ? -1 : 0) : a >> ub;
        } else {
            uint64_t m = (uint64_t)norm(a, width, false);
            *out = ub >= (uint64_t)width ? 0 : (int64_t)(m >> ub);
        }
        break;
    case OP_SELP: *out = c != 0 ? a : b; break;
    default: return false;
    }
    *out = norm(*out, width, s);
    return true;
}

/* Whether a value is the same in every thread of the block: V_BLOCK, or
   V_WARP with one value in every warp (a constant). */
static bool block_wide(const values *vs, const aval *a)
{
    if (a->kind == V_BLOCK) {
        return true;
    }
    if (a->kind != V_WARP) {
        return false;
    }
    for (int w = 1; w < vs->warps; w++) {
        if (a->v[w] != a->v[0]) {
            return false;
        }
    }
    return true;
}

/* Whether ld.param's address operand ("[name]", "[name+8]") names one of
   the entry's own parameters, which every thread reads alike (a .param
   declared in the body, a call's argument or result, is not one). */
static bool reads_entry_param(const values *vs, const operand *addr)
{
    if (vs->params == NULL || addr->kind != OPND_OTHER || addr->len < 3 ||
        vs->ptx[addr->offset] != '[') {
        return false;
    }
    const char *name = vs->ptx + addr->offset + 1;
    size_t left = addr->len - 1, n = 0;
    while (n < left && (name[n] == ' ' || name[n] == '\t')) {
        name++;
        left--;
    }
    while (n < left && word_char(name[n])) {
        n++;
    }
    if (n == 0 || name[0] == '%') {
        return false; /* a register holding an address */
    }
    for (size_t i = 0; i + n <= vs->params_len; i++) {
        const char *at = vs->params + i;
        if (memcmp(at, name, n) == 0 && (i == 0 || !word_char(at[-1])) &&
            (i + n == vs->params_len || !word_char(at[n]))) {
            return true;
        }
    }
    return false;
}

/* Evaluates an instruction for every thread where an input is %tid.x, for
   every warp otherwise; a result that differs between a warp's threads is
   unknown. res2: setp's second predicate (q in p|q). */
static void evaluate(const values *vs, const body *b, const insn *in, aval *res, aval *res2)
{
    const operand *ops = &b->operands[in->operand_first];
    res->kind = res2->kind = V_TOP;
    int wanted = in->op == OP_NOT || in->op == OP_NEG || in->op == OP_MOV || in->op == OP_CVT ? 2
                 : in->op == OP_SELP                                                          ? 4
                 : in->op == OP_SHFL                                                          ? 5
                                                                                              : 3;
    if (in->op == OP_SETP) {
        wanted = in->boolean != BOOL_NONE ? 4 : 3;
    }
    if ((int)in->operand_count != wanted) {
        return;
    }
    aval in_a, in_b, in_c;
    int shift_width = in->op == OP_SHL || in->op == OP_SHR ? 32 : in->src_width;
    bool shift_signed = in->op == OP_SHL || in->op == OP_SHR ? false : in->src_signed;
    read_operand(vs, &ops[1], in->src_width, in->src_signed, &in_a);
    in_b.kind = in_c.kind = V_WARP;
    memset(in_b.v, 0, sizeof in_b.v);
    memset(in_c.v, 0, sizeof in_c.v);
    if (wanted >= 3 && in->op != OP_SHFL) {
        read_operand(vs, &ops[2], shift_width, shift_signed, &in_b);
    }
    if (in->op == OP_SELP || (in->op == OP_SETP && in->boolean != BOOL_NONE)) {
        const operand *c = &ops[3];
        operand plain = *c;
        plain.kind = c->kind == OPND_NOT_REG ? OPND_REG : c->kind;
        read_operand(vs, &plain, 1, false, &in_c);
        if (c->kind == OPND_NOT_REG && in_c.kind == V_WARP) {
            for (int w = 0; w < vs->warps; w++) {
                in_c.v[w] = in_c.v[w] == 0;
            }
        }
    }
    if (in_a.kind == V_NONE || in_b.kind == V_NONE || in_c.kind == V_NONE) {
        res->kind = res2->kind = V_NONE;
        return;
    }
    if (in_a.kind == V_TOP || in_b.kind == V_TOP || in_c.kind == V_TOP || in_c.kind == V_TID) {
        return;
    }
    if (in_a.kind == V_BLOCK || in_b.kind == V_BLOCK || in_c.kind == V_BLOCK) {
        /* one value for the block where every other input is one too */
        if (block_wide(vs, &in_a) && block_wide(vs, &in_b) && block_wide(vs, &in_c)) {
            res->kind = res2->kind = V_BLOCK;
        }
        return;
    }
    if (in->op == OP_SHFL) {
        /* d|p: p says whether the source lane was in range, not followed */
        if (in_a.kind == V_WARP) {
            *res = in_a;
        }
        return;
    }
    if ((in->op == OP_MOV || (in->op == OP_CVT && in->width >= 16)) && in_a.kind == V_TID) {
        res->kind = V_TID;
        return;
    }
    bool per_thread = in_a.kind == V_TID || in_b.kind == V_TID;
    res->kind = res2->kind = V_WARP;
    for (int w = 0; w < vs->warps; w++) {
        int first = w * SMR_WARP_THREADS;
        int last = per_thread
                       ? (first + SMR_WARP_THREADS < vs->threads ? first + 31 : vs->threads - 1)
                       : first;
        for (int t = first; t <= last; t++) {
            int64_t a = thread_value(&in_a, t), bv = thread_value(&in_b, t), cv = in_c.v[w];
            int64_t r1, r2 = 0;
            if (in->op == OP_SETP) {
                bool p = compare(in->cmp, norm(a, in->src_width, in->src_signed),
                                 norm(bv, in->src_width, in->src_signed), in->src_signed);
                bool q = !p;
                if (in->boolean == BOOL_AND) {
                    p = p && cv;
                    q = q && cv;
                } else if (in->boolean == BOOL_OR) {
                    p = p || cv;
                    q = q || cv;
                } else if (in->boolean == BOOL_XOR) {
                    p = p != (cv != 0);
                    q = q != (cv != 0);
                }
                r1 = p;
                r2 = q;
            } else if (!apply(in, a, bv, cv, &r1)) {
                res->kind = res2->kind = V_TOP;
                return;
            }
            if (t == first) {
                res->v[w] = r1;
                res2->v[w] = r2;
            } else if (res->v[w] != r1) {
                res->kind = res2->kind = V_TOP;
                return;
            }
        }
    }
}

/* Joins a new definition into a register's value; *changed when it moved.
   False when out of memory. */
static bool join_value(values *vs, int32_t reg, const aval *a, bool *changed)
{
    uint8_t k = vs->kind[reg];
    if (a->kind == V_NONE || k == V_TOP) {
        return true;
    }
    if (k == V_NONE) {
        if (a->kind == V_WARP) {
            if (!grow((void **)&vs->pool, &vs->pool_cap, vs->pool_count + (size_t)vs->warps,
                      sizeof *vs->pool)) {
                /* grow() doubles from the count asked: enough for one vector */
                return false;
            }
            vs->vector[reg] = (uint32_t)(vs->pool_count / (size_t)vs->warps);
            memcpy(&vs->pool[vs->pool_count], a->v, (size_t)vs->warps * sizeof *a->v);
            vs->pool_count += (size_t)vs->warps;
        }
        vs->kind[reg] = a->kind;
        *changed = true;
        return true;
    }
    bool same = k == a->kind;
    if (same && k == V_WARP) {
        const int64_t *v = &vs->pool[(size_t)vs->vector[reg] * (size_t)vs->warps];
        same = memcmp(v, a->v, (size_t)vs->warps * sizeof *a->v) == 0;
    }
    if (!same) {
        vs->kind[reg] = V_TOP;
        *changed = true;
    }
    return true;
}

static void set_top(values *vs, int32_t reg, bool *changed)
{
    if (vs->kind[reg] != V_TOP) {
        vs->kind[reg] = V_TOP;
        *changed = true;
    }
}

/* Settles every register's value; false when out of memory. */
static bool settle_values(values *vs, const body *b, bool *converged)
{
    for (size_t i = 0; i < b->insn_count; i++) {
        const insn *in = &b->insns[i];
        for (uint32_t d = 0; d < in->dst_count; d++) {
            if (in->kind == INSN_OTHER || in->kind == INSN_VALUE || in->kind == INSN_CALL ||
                in->kind == INSN_LD_PARAM) {
                vs->written[b->dsts[in->dst_first + d]] = true;
            }
        }
    }
    *converged = false;
    for (int pass = 0; pass < SMR_MAX_PASSES && !*converged; pass++) {
        bool changed = false;
        for (size_t i = 0; i < b->insn_count; i++) {
            const insn *in = &b->insns[i];
            if (in->kind == INSN_OTHER || in->kind == INSN_CALL) {
                for (uint32_t d = 0; d < in->dst_count; d++) {
                    set_top(vs, b->dsts[in->dst_first + d], &changed);
                }
                continue;
            }
            if (in->kind == INSN_LD_PARAM) {
                bool param = in->operand_count == 2 &&
                             reads_entry_param(vs, &b->operands[in->operand_first + 1]);
                aval block = {.kind = V_BLOCK};
                for (uint32_t d = 0; d < in->dst_count; d++) {
                    if (!param) {
                        set_top(vs, b->dsts[in->dst_first + d], &changed);
                    } else if (!join_value(vs, b->dsts[in->dst_first + d], &block, &changed)) {
                        return false;
                    }
                }
                continue;
            }
            if (in->kind != INSN_VALUE || in->operand_count == 0) {
                continue;
            }
            const operand *dst = &b->operands[in->operand_first];
            if (dst->kind != OPND_REG && dst->kind != OPND_PAIR) {
                for (uint32_t d = 0; d < in->dst_count; d++) {
                    set_top(vs, b->dsts[in->dst_first + d], &changed);
                }
                continue;
            }
            aval r1, r2;
            evaluate(vs, b, in, &r1, &r2);
            /* a guarded definition may not happen: the register then keeps
               another definition's value, which the join takes in as well */
            if (!join_value(vs, dst->reg, &r1, &changed)) {
                return false;
            }
            if (dst->kind == OPND_PAIR) {
                if (in->op != OP_SETP) {
                    r2.kind = V_TOP;
                }
                if (!join_value(vs, dst->reg2, &r2, &changed)) {
                    return false;
                }
            }
        }
        *converged = !changed;
    }
    return true;
}

/* ------------------------------------------------------------------------ */
/* Paths                                                                    */
/* ------------------------------------------------------------------------ */

typedef struct walk {
    const body *b;
    const values *vs;
    smr_ptx *out;
    const module_scan *m;
    const char *ptx;
    int warps;
    uint32_t *block_of; /* per instruction: its block, or UINT32_MAX */
    uint32_t *starts;   /* per block: its first instruction */
    size_t block_count;
    uint64_t *in_held; /* per block, per warp */
    uint32_t *in_uncertain;
    uint32_t *queue;
    bool *queued;
    size_t queue_head, queue_tail; /* a ring of block_count + 1 */
    uint64_t held[SMR_MAX_WARPS];  /* what each warp may hold after its setmaxnreg */
    uint32_t site_warps[INSP_SMR_MAX_SITES];
    uint32_t site_uncertain[INSP_SMR_MAX_SITES];
    uint32_t uncertain_seen;
} walk;

/* 1 true, 0 false, -1 unknown: the guard of `in` for warp w; GUARD_BLOCK:
   unknown, but the same for every warp of the block. */
#define GUARD_BLOCK 2
static int guard_for(const walk *wk, const insn *in, int w)
{
    if (in->guard < 0) {
        return 1;
    }
    if (wk->vs->written[in->guard] && wk->vs->kind[in->guard] == V_BLOCK) {
        return GUARD_BLOCK;
    }
    if (!wk->vs->written[in->guard] || wk->vs->kind[in->guard] != V_WARP) {
        return -1;
    }
    int64_t v = wk->vs->pool[(size_t)wk->vs->vector[in->guard] * (size_t)wk->warps + (size_t)w];
    return (v != 0) != (in->guard_negated != 0);
}

static void enqueue(walk *wk, size_t block)
{
    if (!wk->queued[block]) {
        wk->queued[block] = true;
        wk->queue[wk->queue_tail] = (uint32_t)block;
        wk->queue_tail = (wk->queue_tail + 1) % (wk->block_count + 1);
    }
}

/* Joins a state into a block's entry. */
static void flow_into(walk *wk, size_t block, const uint64_t *held, uint32_t uncertain)
{
    uint64_t *in = &wk->in_held[block * (size_t)wk->warps];
    bool changed = false;
    for (int w = 0; w < wk->warps; w++) {
        if ((in[w] | held[w]) != in[w]) {
            in[w] |= held[w];
            changed = true;
        }
    }
    if ((wk->in_uncertain[block] | uncertain) != wk->in_uncertain[block]) {
        wk->in_uncertain[block] |= uncertain;
        changed = true;
    }
    if (changed) {
        enqueue(wk, block);
    }
}

/* Where the warps part ways (or may), none of them is on the whole block's
   path any more: its bit becomes the plain count at entry. */
static void leave_block_path(walk *wk, uint64_t *held)
{
    for (int w = 0; w < wk->warps; w++) {
        if (held[w] & SMR_HELD_BLOCK_AT_ENTRY) {
            held[w] = (held[w] & ~(uint64_t)SMR_HELD_BLOCK_AT_ENTRY) | SMR_HELD_AT_ENTRY;
        }
    }
}

/* An exit: what the warps hold there is their budget. The whole block's
   path at entry (SMR_HELD_BLOCK_AT_ENTRY) is not recorded: every warp leaves
   there and none ran a setmaxnreg, so nothing waits for registers. */
static void record_exit(walk *wk, const uint64_t *held, uint32_t uncertain, uint32_t warps)
{
    for (int w = 0; w < wk->warps; w++) {
        if ((warps >> w) & 1u) {
            wk->held[w] |= held[w] & SMR_HELD_AT_ENTRY;
            if (held[w] != 0) {
                wk->uncertain_seen |= uncertain & (1u << w);
            }
        }
    }
}

static void note_undecoded(walk *wk, const insn *in)
{
    if (wk->out->undecoded_branch_line == 0) {
        wk->out->undecoded_branch_line = in->line;
    }
}

static bool calls_smr_function(const walk *wk, const insn *in)
{
    if (wk->m->smr_funcs_overflow) {
        return true;
    }
    for (uint32_t o = 0; o < in->operand_count; o++) {
        const operand *op = &wk->b->operands[in->operand_first + o];
        const char *text = wk->ptx + op->offset;
        for (int f = 0; f < wk->m->smr_func_count; f++) {
            const token *name = &wk->m->smr_funcs[f];
            if (op->len == name->len && memcmp(text, name->text, name->len) == 0) {
                return true;
            }
        }
    }
    return false;
}

/* Runs one block from its entry state. */
static void run_block(walk *wk, size_t block)
{
    uint64_t held[SMR_MAX_WARPS];
    memcpy(held, &wk->in_held[block * (size_t)wk->warps], (size_t)wk->warps * sizeof *held);
    uint32_t uncertain = wk->in_uncertain[block];
    size_t end = block + 1 < wk->block_count ? wk->starts[block + 1] : wk->b->insn_count;
    for (size_t i = wk->starts[block]; i < end; i++) {
        const insn *in = &wk->b->insns[i];
        if (in->kind == INSN_SMR) {
            smr_site *site = &wk->out->sites[in->target];
            uint64_t bit = 1ull << (site->regs_per_thread / INSP_SMR_REGS_STEP);
            leave_block_path(wk, held);
            for (int w = 0; w < wk->warps; w++) {
                int g = held[w] != 0 ? guard_for(wk, in, w) : 0;
                g = g == GUARD_BLOCK ? -1 : g;
                if (g == 0) {
                    continue;
                }
                if (g < 0) {
                    uncertain |= 1u << w;
                    note_undecoded(wk, in);
                }
                held[w] = g > 0 ? bit : held[w] | bit;
                wk->held[w] |= bit;
                wk->site_warps[in->target] |= 1u << w;
                wk->site_uncertain[in->target] |= uncertain & (1u << w);
                wk->uncertain_seen |= uncertain & (1u << w);
            }
        } else if (in->kind == INSN_CALL && calls_smr_function(wk, in)) {
            wk->out->calls_setmaxnreg = true;
        } else if (in->kind == INSN_BRX) {
            wk->out->indirect_branch = true;
            return;
        } else if (in->kind == INSN_END || in->kind == INSN_BRA) {
            uint64_t taken[SMR_MAX_WARPS], stays[SMR_MAX_WARPS];
            uint32_t taken_warps = 0;
            /* the whole block's path goes on where every warp decides alike */
            int first = -2;
            bool apart = false;
            for (int w = 0; w < wk->warps; w++) {
                if (held[w] & SMR_HELD_BLOCK_AT_ENTRY) {
                    int g = guard_for(wk, in, w);
                    apart = apart || g < 0 || (first != -2 && g != first);
                    first = g;
                }
            }
            if (apart) {
                leave_block_path(wk, held);
            }
            for (int w = 0; w < wk->warps; w++) {
                int g = held[w] != 0 ? guard_for(wk, in, w) : 0;
                g = g == GUARD_BLOCK ? -1 : g;
                taken[w] = g != 0 ? held[w] : 0;
                stays[w] = g != 1 ? held[w] : 0;
                if (g < 0) {
                    uncertain |= 1u << w;
                    note_undecoded(wk, in);
                }
                taken_warps |= taken[w] != 0 ? 1u << w : 0;
            }
            if (in->kind == INSN_END) {
                record_exit(wk, taken, uncertain, taken_warps);
            } else if (in->target >= 0) {
                flow_into(wk, wk->block_of[in->target], taken, uncertain);
            } else {
                /* a label not in the entry: ptxas refuses it; follow nothing */
                wk->out->indirect_branch = true;
            }
            memcpy(held, stays, sizeof held);
        }
    }
    if (end < wk->b->insn_count) {
        flow_into(wk, block + 1, held, uncertain);
    } else {
        uint32_t all = wk->warps == 32 ? 0xFFFFFFFFu : (1u << wk->warps) - 1;
        record_exit(wk, held, uncertain, all); /* the end of the body */
    }
}

/* Resolves branch targets and cuts the body into blocks. */
static bool build_blocks(walk *wk, name_map *names)
{
    const body *b = wk->b;
    size_t n = b->insn_count;
    /* label id -> instruction, through a table indexed by name id */
    int32_t *label_insn = malloc((names->count + 1) * sizeof *label_insn);
    bool *leader = calloc(n + 1, 1);
    if (label_insn == NULL || leader == NULL) {
        free(label_insn);
        free(leader);
        return false;
    }
    for (size_t i = 0; i < names->count; i++) {
        label_insn[i] = -1;
    }
    for (size_t l = 0; l < b->label_count; l++) {
        label_insn[b->labels[l].name] = (int32_t)b->labels[l].insn;
    }
    leader[0] = true;
    for (size_t i = 0; i < n; i++) {
        insn *in = &b->insns[i];
        if (in->kind == INSN_BRA) {
            in->target = -1;
            const operand *t = in->operand_count == 1 ? &b->operands[in->operand_first] : NULL;
            if (t != NULL && t->kind == OPND_REG && label_insn[t->reg] >= 0) {
                in->target = label_insn[t->reg];
                leader[in->target] = true;
            }
        }
        if (in->kind == INSN_BRA || in->kind == INSN_BRX || in->kind == INSN_END) {
            leader[i + 1] = true;
        }
    }
    free(label_insn);
    wk->block_count = 0;
    for (size_t i = 0; i < n; i++) {
        wk->block_count += leader[i];
    }
    wk->starts = malloc((wk->block_count + 1) * sizeof *wk->starts);
    wk->block_of = malloc((n + 1) * sizeof *wk->block_of);
    if (wk->starts == NULL || wk->block_of == NULL) {
        free(leader);
        return false;
    }
    size_t block = 0;
    for (size_t i = 0; i < n; i++) {
        if (leader[i]) {
            wk->starts[block++] = (uint32_t)i;
        }
        wk->block_of[i] = (uint32_t)(block - 1);
    }
    wk->block_of[n] = UINT32_MAX;
    free(leader);
    /* a branch to the end of the body (a label after the last instruction)
       is an exit; make it one */
    for (size_t i = 0; i < n; i++) {
        insn *in = &b->insns[i];
        if (in->kind == INSN_BRA && in->target == (int32_t)n) {
            in->kind = INSN_END;
        }
    }
    return true;
}

/* Walks the paths; false when out of memory. */
static bool walk_paths(walk *wk, name_map *names)
{
    bool ok = build_blocks(wk, names);
    size_t blocks = wk->block_count;
    if (ok && blocks > 0) {
        wk->in_held = calloc(blocks * (size_t)wk->warps, sizeof *wk->in_held);
        wk->in_uncertain = calloc(blocks, sizeof *wk->in_uncertain);
        wk->queue = malloc((blocks + 1) * sizeof *wk->queue);
        wk->queued = calloc(blocks, sizeof *wk->queued);
        ok = wk->in_held != NULL && wk->in_uncertain != NULL && wk->queue != NULL &&
             wk->queued != NULL;
    }
    if (ok && blocks > 0) {
        uint64_t start[SMR_MAX_WARPS];
        for (int w = 0; w < wk->warps; w++) {
            start[w] = SMR_HELD_BLOCK_AT_ENTRY;
        }
        flow_into(wk, 0, start, 0);
        /* sets only grow, each of warps x 33 bits per block: this ends */
        while (wk->queue_head != wk->queue_tail) {
            size_t block = wk->queue[wk->queue_head];
            wk->queue_head = (wk->queue_head + 1) % (blocks + 1);
            wk->queued[block] = false;
            run_block(wk, block);
        }
    } else if (ok) {
        for (int w = 0; w < wk->warps; w++) {
            wk->held[w] = SMR_HELD_AT_ENTRY;
        }
    }
    free(wk->in_held);
    free(wk->in_uncertain);
    free(wk->queue);
    free(wk->queued);
    free(wk->starts);
    free(wk->block_of);
    return ok;
}

/* Warp masks to warp-group masks: group g holds warps 4g..4g+3. */
static unsigned groups_of(uint32_t warps)
{
    unsigned groups = 0;
    for (int g = 0; g < INSP_SMR_MAX_WARP_GROUPS; g++) {
        groups |= (warps >> (4 * g)) & 0xFu ? 1u << g : 0;
    }
    return groups;
}

static int product(const int dims[3])
{
    long long p = 1;
    bool any = false;
    for (int i = 0; i < 3; i++) {
        if (dims[i] > 0) {
            p *= dims[i];
            any = true;
        }
    }
    return any && p <= 0x7FFFFFFF ? (int)p : 0;
}

static bool one_dimensional(const int dims[3])
{
    return dims[1] <= 1 && dims[2] <= 1;
}

static occ_status analyse_body(reader *r, module_scan *m, int block_threads, smr_ptx *out)
{
    lexer lx = m->body;
    occ_status st = read_body(r, &lx, out);
    if (st != OCC_OK || out->site_count == 0) {
        return st;
    }
    /* a .func defined after the entry that it calls: read the rest */
    for (size_t i = 0; i < r->b.insn_count; i++) {
        if (r->b.insns[i].kind == INSN_CALL) {
            scan_module(&m->rest, NULL, out, m);
            break;
        }
    }
    out->block_threads = block_threads > 0               ? block_threads
                         : product(out->req_threads) > 0 ? product(out->req_threads)
                                                         : product(out->max_threads);
    if (out->block_threads <= 0 || out->block_threads > 1024) {
        out->block_threads = 0;
        return OCC_OK; /* the groups cannot be told: only the sites */
    }
    int warps = (out->block_threads + SMR_WARP_THREADS - 1) / SMR_WARP_THREADS;
    out->warp_group_count = (warps + 3) / 4;
    out->tid_tracked = one_dimensional(out->max_threads) && one_dimensional(out->req_threads);
    size_t names = r->b.names.count + 1;
    values vs;
    memset(&vs, 0, sizeof vs);
    vs.warps = warps;
    vs.threads = out->block_threads;
    vs.tid_tracked = out->tid_tracked;
    vs.ptx = r->ptx;
    vs.params = m->params;
    vs.params_len = m->params_len;
    vs.kind = calloc(names, sizeof *vs.kind);
    vs.vector = calloc(names, sizeof *vs.vector);
    vs.written = calloc(names, sizeof *vs.written);
    bool converged = false;
    bool ok = vs.kind != NULL && vs.vector != NULL && vs.written != NULL &&
              settle_values(&vs, &r->b, &converged);
    if (ok && !converged) {
        /* values still moving: use none of them */
        out->not_converged = true;
        memset(vs.kind, V_TOP, names);
    }
    walk wk;
    memset(&wk, 0, sizeof wk);
    wk.b = &r->b;
    wk.vs = &vs;
    wk.out = out;
    wk.m = m;
    wk.ptx = r->ptx;
    wk.warps = warps;
    ok = ok && walk_paths(&wk, &r->b.names);
    free(vs.kind);
    free(vs.vector);
    free(vs.written);
    free(vs.pool);
    if (!ok) {
        return out_of_memory(r);
    }
    for (int s = 0; s < out->site_count; s++) {
        out->sites[s].groups = groups_of(wk.site_warps[s]);
        out->sites[s].uncertain = groups_of(wk.site_uncertain[s]);
    }
    for (int g = 0; g < out->warp_group_count; g++) {
        for (int w = 4 * g; w < 4 * g + 4 && w < warps; w++) {
            out->held[g] |= wk.held[w];
        }
    }
    out->uncertain = groups_of(wk.uncertain_seen);
    return OCC_OK;
}

occ_status smr_ptx_analyse(const char *ptx, size_t size, const char *entry, int block_threads,
                           smr_ptx *out, occ_inspect_error *err)
{
    if (ptx == NULL || entry == NULL || out == NULL) {
        return smr_fail(err, OCC_ERR_NULL_POINTER, -1, "setmaxnreg: no PTX, entry or result");
    }
    memset(out, 0, sizeof *out);
    if (size > INSP_SMR_MAX_PTX_BYTES) {
        return smr_fail(err, OCC_ERR_LIMIT, -1, "PTX: %zu bytes is above the limit, %u", size,
                        (unsigned)INSP_SMR_MAX_PTX_BYTES);
    }
    /* most modules hold no setmaxnreg: no entry of theirs needs reading */
    static const char needle[] = "setmaxnreg";
    const char *at = ptx;
    size_t left = size;
    bool any = false;
    while (!any && left >= sizeof needle - 1) {
        const char *s = memchr(at, 's', left - (sizeof needle - 2));
        if (s == NULL) {
            break;
        }
        any = memcmp(s, needle, sizeof needle - 1) == 0;
        left -= (size_t)(s - at) + 1;
        at = s + 1;
    }
    if (!any) {
        return OCC_OK;
    }
    module_scan m;
    memset(&m, 0, sizeof m);
    lexer lx = {ptx, size, 0, 1};
    scan_module(&lx, entry, out, &m);
    if (!m.found) {
        return smr_fail(err, OCC_ERR_NOT_FOUND, -1, "PTX: no .entry '%s' in the module", entry);
    }
    if (!m.has_body) {
        return smr_fail(err, OCC_ERR_BAD_FORMAT, -1,
                        "PTX line %d: .entry '%s' is declared without a body", m.entry_line, entry);
    }
    reader r;
    memset(&r, 0, sizeof r);
    r.ptx = ptx;
    r.size = size;
    r.entry = entry;
    r.err = err;
    occ_status st = analyse_body(&r, &m, block_threads, out);
    free(r.b.insns);
    free(r.b.operands);
    free(r.b.dsts);
    free(r.b.labels);
    free(r.b.names.slots);
    return st;
}
