/*
 * setmaxnreg_ptx.h - the PTX half of insp_setmaxnreg_analyse: one entry's
 * setmaxnreg instructions and the warp groups that reach each one. Internal
 * to inspect/regs/ (setmaxnreg.c is its one caller, the fuzzer its other).
 */
#ifndef OCC_INSPECT_SETMAXNREG_PTX_H
#define OCC_INSPECT_SETMAXNREG_PTX_H

#include <stdint.h>

#include "setmaxnreg.h"

/* Instructions read in one entry; more is refused (OCC_ERR_LIMIT). nvcc's
   largest CUTLASS kernels are near 100,000. */
#define SMR_MAX_INSTRUCTIONS (1u << 20)

/* Bit 0 of a held-set: the count at entry; bit k (3..32): 8k registers.
   Bit 1, while the paths are walked: the count at entry with every warp of
   the block still on one path (setmaxnreg_ptx.c); never in held[] below. */
#define SMR_HELD_AT_ENTRY 1u
#define SMR_HELD_BLOCK_AT_ENTRY 2u

typedef struct smr_site {
    insp_smr_action action;
    int regs_per_thread;
    int line;
    size_t offset;      /* of the instruction in the PTX */
    unsigned groups;    /* warp groups that may run it */
    unsigned uncertain; /* of those, the ones an undecoded branch led there */
} smr_site;

typedef struct smr_ptx {
    int max_threads[3]; /* .maxntid; 0 where absent */
    int req_threads[3]; /* .reqntid */
    int min_blocks_per_sm;
    int max_regs; /* .maxnreg */
    int block_threads;
    int warp_group_count; /* 0: the block is unknown, nothing below group-wise */
    int site_count;
    smr_site sites[INSP_SMR_MAX_SITES];
    /* Per warp group: what it may hold after its setmaxnreg instructions
       (their counts), with SMR_HELD_AT_ENTRY where it may end the kernel
       without one; 0 where it reaches neither. */
    uint64_t held[INSP_SMR_MAX_WARP_GROUPS];
    unsigned uncertain;        /* groups an undecoded branch led anywhere */
    bool tid_tracked;          /* %tid.x told warp groups apart (a 1-D block) */
    bool indirect_branch;      /* brx.idx: the groups were not followed */
    bool calls_setmaxnreg;     /* calls a .func that holds setmaxnreg */
    bool not_converged;        /* the registers' values were not settled: none used */
    int undecoded_branch_line; /* the first branch on a value not told apart, 0 none */
} smr_ptx;

/*
 * Reads entry `entry` of the module and fills *out. block_threads > 0 is the
 * launch's block; 0 takes .reqntid, else .maxntid. OCC_ERR_NOT_FOUND,
 * OCC_ERR_BAD_FORMAT, OCC_ERR_LIMIT and OCC_ERR_OUT_OF_MEMORY as
 * insp_setmaxnreg_analyse says.
 */
occ_status smr_ptx_analyse(const char *ptx, size_t size, const char *entry, int block_threads,
                           smr_ptx *out, occ_inspect_error *err);

/* Fills err (when not NULL) with status, offset and the line; returns status. */
occ_status smr_fail(occ_inspect_error *err, occ_status status, long long offset, const char *format,
                    ...) __attribute__((format(printf, 4, 5)));

#endif /* OCC_INSPECT_SETMAXNREG_PTX_H */
