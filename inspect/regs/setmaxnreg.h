/*
 * setmaxnreg.h - the register budgets of a warp-specialized kernel: its
 * `setmaxnreg` instructions (PTX ISA 8.0+, sm_90a and sm_100a), which warp
 * groups run each one, whether their budgets fit the SM's register file,
 * what ptxas said about them, and whether the compiled code still holds the
 * register reconfiguration (SASS USETMAXREG). Internal to libocc-inspect:
 * `occ regs` calls it once per kernel, after ptxas compiled the PTX.
 *
 *   insp_setmaxnreg smr;
 *   occ_inspect_error err;
 *   if (insp_setmaxnreg_analyse(ptx, ptx_bytes, "_Z2wsPf", log, log_bytes, cubin,
 *                               cubin_bytes, 168, 384, 1, &device, &smr, &err) != OCC_OK)
 *       return fail(err.message);
 *   if (smr.present) { write "setmaxnreg": with insp_setmaxnreg_json }
 *
 * The method, its sources and the encoding evidence: docs/setmaxnreg.md.
 */
#ifndef OCC_INSPECT_SETMAXNREG_H
#define OCC_INSPECT_SETMAXNREG_H

#include <stdbool.h>
#include <stddef.h>

#include "occ.h"
#include "occ_inspect.h"

/* PTX ISA, "setmaxnreg": the count is an immediate in 24..256, a multiple of 8. */
#define INSP_SMR_MIN_REGS 24
#define INSP_SMR_MAX_REGS 256
#define INSP_SMR_REGS_STEP 8
/* PTX ISA, "setmaxnreg": a warp group is four contiguous warps, 128 threads. */
#define INSP_SMR_WARP_GROUP_THREADS 128
/* 1,024 threads per block (every CUDA GPU) / 128. */
#define INSP_SMR_MAX_WARP_GROUPS 8
/* setmaxnreg instructions kept per kernel; more is refused (OCC_ERR_LIMIT):
   warp-specialized kernels hold two to six. */
#define INSP_SMR_MAX_SITES 64
/* Regions: one per site, and one for the groups that keep the count at entry. */
#define INSP_SMR_MAX_REGIONS (INSP_SMR_MAX_SITES + 1)
/* ptxas messages kept per kernel (each code once). */
#define INSP_SMR_MAX_MESSAGES 16
/* insp_setmaxnreg_errors's lines, each at most 400 bytes: one a message, the
   budget's and a silent drop's. */
#define INSP_SMR_ERRORS_BYTES ((INSP_SMR_MAX_MESSAGES + 2) * 400)
/* The PTX one call reads: 256 MB, above any module nvcc writes for one file,
   below what a 32-bit line count or the fuzzers would mind. */
#define INSP_SMR_MAX_PTX_BYTES (256u << 20)
/* Distinct register names in the entry: CUTLASS's largest kernels declare
   tens of thousands. */
#define INSP_SMR_MAX_REGISTER_NAMES (1u << 20)

/* Tri-state answers: fits and honoured. */
typedef enum insp_smr_answer {
    INSP_SMR_UNKNOWN = -1, /* cannot be told (JSON null) */
    INSP_SMR_NO = 0,
    INSP_SMR_YES = 1
} insp_smr_answer;

typedef enum insp_smr_action {
    INSP_SMR_AT_ENTRY = 0, /* no setmaxnreg: the count ptxas gave the kernel */
    INSP_SMR_INC = 1,      /* setmaxnreg.inc: waits for registers from the block's pool */
    INSP_SMR_DEC = 2       /* setmaxnreg.dec: gives registers back to the pool */
} insp_smr_action;

/* A region: what follows one setmaxnreg (or the kernel's entry), with the
   warp groups that may run it. */
typedef struct insp_smr_region {
    insp_smr_action action;
    int regs_per_thread;  /* the instruction's count; at entry regs_at_entry (0: unknown) */
    int line;             /* of the instruction in the PTX, from 1; 0 at entry */
    unsigned warp_groups; /* bit g: warp group g may run it (0: the groups are unknown) */
    bool groups_exact;    /* every group in warp_groups was told apart by decoded
                             branches on %tid.x; false: some branch was not decoded,
                             and warp_groups is what may run it */
} insp_smr_region;

/* One ptxas message about the kernel's registers. */
typedef struct insp_smr_message {
    char code[32];         /* ptxas's own code, "C7508"; for the messages that carry
                              none: "maxrregcount-ignored", "maxnreg-ignored",
                              "minnctapersm-out-of-range" (any "<directive>-out-of-range") */
    char text[200];        /* the line as ptxas wrote it, without "ptxas info    : " */
    bool drops_setmaxnreg; /* ptxas says it ignored the kernel's setmaxnreg */
} insp_smr_message;

/* One USETMAXREG of the cubin. */
typedef struct insp_smr_sass {
    insp_smr_action action; /* INC for TRY_ALLOC, DEC for DEALLOC, AT_ENTRY: another form */
    int regs_per_thread;    /* its register count */
    size_t offset;          /* in the kernel's .text section */
} insp_smr_sass;

typedef struct insp_setmaxnreg {
    bool present;          /* the entry holds setmaxnreg; false: nothing else is filled, and
                              the kernel's JSON carries no "setmaxnreg" object */
    int block_threads;     /* the block the budgets are for: the call's, else .reqntid,
                              else .maxntid; 0 unknown */
    int warp_group_count;  /* block_threads / 128 rounded up; 0 unknown */
    int regs_at_entry;     /* as given; 0 unknown */
    int blocks_per_sm;     /* as given; 0 unknown (the check counts one block) */
    int max_threads;       /* .maxntid x*y*z; 0 if none */
    int req_threads;       /* .reqntid x*y*z; 0 if none */
    int min_blocks_per_sm; /* .minnctapersm; 0 if none */

    int region_count;
    insp_smr_region regions[INSP_SMR_MAX_REGIONS]; /* by line; the at-entry region first */

    /* Per warp group (index < warp_group_count): the most registers per thread it
       may hold once its setmaxnreg ran (regs_at_entry if it runs none), 0 unknown. */
    int group_peak_regs[INSP_SMR_MAX_WARP_GROUPS];
    long long block_budget_regs; /* sum of group_peak_regs x 128; -1 unknown */
    long long budget_regs;       /* block_budget_regs x max(blocks_per_sm, 1); -1 unknown */
    long long pool_regs;         /* the block's pool: regs_at_entry x its warps' threads,
                                    per warp rounded to the allocation unit; -1 unknown */
    int regs_per_sm;             /* the device's register file */
    insp_smr_answer fits;        /* budget_regs <= regs_per_sm and block_budget_regs <= pool_regs */

    int message_count;
    insp_smr_message messages[INSP_SMR_MAX_MESSAGES];

    int usetmaxreg_count; /* USETMAXREG instructions in the kernel's code; -1 not read */
    insp_smr_sass usetmaxreg[INSP_SMR_MAX_SITES]; /* the first of them, in code order */
    insp_smr_answer honoured;
    char note[256]; /* why fits or honoured is what it is, one line ("" if nothing to say) */
} insp_setmaxnreg;

/*
 * Analyses the entry `entry` of a PTX module (text of `ptx_size` bytes, not
 * necessarily NUL-terminated) for setmaxnreg. The other inputs are optional:
 *   ptxas_stderr  what ptxas wrote for the compile (NULL: none read)
 *   cubin         what it wrote (NULL: honoured then comes from the messages)
 *   regs_at_entry ptxas's register count for the kernel (0: unknown)
 *   block_threads the launch's threads per block (0: the PTX's .reqntid or .maxntid)
 *   blocks_per_sm the launch's resident blocks (0: unknown, one block is checked)
 *   device        the register file (NULL: 64K registers, sm_90 and sm_100)
 * Returns OCC_OK with out->present false where the entry has no setmaxnreg
 * (and, without looking for the entry, where the module has none: occ regs
 * calls this for every kernel of a module); OCC_ERR_NOT_FOUND where the
 * module has setmaxnreg but no such entry; OCC_ERR_BAD_FORMAT
 * for a setmaxnreg that breaks the PTX ISA's rules (its count outside
 * 24..256 or not a multiple of 8, no .sync.aligned, neither .inc nor .dec),
 * an entry without a body, or a damaged cubin; OCC_ERR_LIMIT above the
 * limits above; OCC_ERR_OUT_OF_MEMORY. err->message names the value and
 * its line: "PTX line 41: setmaxnreg count 250 is not a multiple of 8".
 */
occ_status insp_setmaxnreg_analyse(const char *ptx, size_t ptx_size, const char *entry,
                                   const char *ptxas_stderr, size_t stderr_size,
                                   const unsigned char *cubin, size_t cubin_size, int regs_at_entry,
                                   int block_threads, int blocks_per_sm, const occ_device *device,
                                   insp_setmaxnreg *out, occ_inspect_error *err);

/*
 * The USETMAXREG instructions of `entry`'s code in a cubin (.text.<entry>):
 * *found of them, the first `max_list` in list[] (may be NULL), in code
 * order. *found is -1 where the cubin's arch is not one whose encoding occ
 * knows (sm_90 to sm_12x) or it has no such section. OCC_ERR_BAD_FORMAT for
 * a damaged cubin.
 */
occ_status insp_setmaxnreg_sass_count(const unsigned char *cubin, size_t cubin_size,
                                      const char *entry, int *found, insp_smr_sass *list,
                                      int max_list, occ_inspect_error *err);

/* "inc", "dec" or "entry". */
const char *insp_setmaxnreg_action_name(insp_smr_action action);

/*
 * Writes the kernel's "setmaxnreg" object (the value, not the key):
 *   {"regions":[{"action":"dec","line":41,"regs_per_thread":40,
 *                "warp_groups":[0],"warp_group_count":1,"regs":5120}, ...],
 *    "budget_regs":64512,"fits":true,"ptxas_messages":["C7508"],"honoured":true,
 *    "usetmaxreg_count":2,"block_budget_regs":64512,"pool_regs":64512,
 *    "regs_per_sm":65536,"errors":[],"note":""}
 * warp_groups null where they cannot be told; budget_regs, fits, honoured,
 * usetmaxreg_count (the cubin not read), block_budget_regs and pool_regs
 * null where unknown; errors as insp_setmaxnreg_errors gives them.
 */
typedef struct json_stream json_stream;
void insp_setmaxnreg_json(json_stream *s, const insp_setmaxnreg *smr);

/* The same object as a malloc'd, NUL-terminated string (free() it); NULL
   when out of memory. */
char *insp_setmaxnreg_json_string(const insp_setmaxnreg *smr);

/*
 * The findings that are errors, one line each into buf (separated by '\n',
 * NUL-terminated, cut at cap): budgets that do not fit (a possible
 * deadlock), each of ptxas's messages about the registers (C7504 to C7509,
 * "maxrregcount ... will be ignored", ".minnctapersm ... out of range", ...:
 * ptxas prints them as info lines or warnings and goes on), and a
 * setmaxnreg dropped with no message. Returns how many.
 */
int insp_setmaxnreg_errors(const insp_setmaxnreg *smr, char *buf, size_t cap);

#endif /* OCC_INSPECT_SETMAXNREG_H */
