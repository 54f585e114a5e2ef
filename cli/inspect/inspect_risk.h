/*
 * inspect_risk.h - kernels at risk: at the register ceiling, spilling, or a
 * few registers or bytes of shared memory from losing a resident block (the
 * next occupancy cliff). `occ inspect --summary` counts and lists them;
 * `occ diff` flags each changed or added kernel. The cliffs come from
 * libocc's occ_calc, at the block size the kernel's occupancy was computed
 * at, with the registers or the shared memory raised.
 */
#ifndef OCC_CLI_INSPECT_RISK_H
#define OCC_CLI_INSPECT_RISK_H

#include <stdio.h>

#include "occ_inspect.h"

/* "Near" a cliff: within half a register allocation step. Registers are
   allocated per warp in units of 256 on every arch occ knows (8 per
   thread), so any register-bound kernel is within 8 of a step; 4 singles
   out those a small code change pushes over. */
#define RISK_NEAR_REGS 4
/* Within 1 KB of shared memory per block: eight allocation units of 128
   bytes (sm_80 to sm_120), one row of 256 floats of a tile. */
#define RISK_NEAR_SMEM_BYTES 1024

typedef struct kernel_risk {
    bool at_ceiling;         /* registers at the kernel's own ceiling: its register
                                cap (__maxnreg__, -maxrregcount, or the one ptxas
                                derived from __launch_bounds__, as the cubin
                                records it), else the arch's maximum (255) */
    int ceiling;             /* that ceiling */
    bool own_cap;            /* the ceiling is the kernel's own cap */
    bool launch_bounds;      /* the block size is above __launch_bounds__: the launch fails */
    bool reqntid;            /* the block size is not the kernel's .reqntid: it fails */
    bool cluster_refused;    /* the compiled cluster dims cannot launch on the GPU */
    bool spilling;           /* spill stores or loads (a log), spill instructions (a cubin) */
    bool has_cliffs;         /* a block fits, so the cliffs below were computed */
    int blocks_per_sm;       /* at the kernel's own figures */
    int regs_to_cliff;       /* fewest registers per thread more that lose a block;
                                0: none does (up to the ceiling or the kernel's own
                                register cap, which ptxas keeps to by spilling) */
    int smem_to_cliff_bytes; /* fewest bytes of shared memory per block more that
                                lose a block (past the per-block maximum, the
                                block cannot launch); 0: none */
} kernel_risk;

/* Only the flags that need no search: the ceiling, spills and the launch. */
void kernel_risk_flags(const occ_inspect_kernel *k, const occ_inspect_options *opts,
                       kernel_risk *out);

/*
 * The risk of one kernel read with `opts` (the device, dynamic shared memory
 * and block size its occupancy used). Device functions, kernels without an
 * occupancy and kernels compiled with __cluster_dims__ (whose figure is a
 * cluster launch's) get the ceiling and spill flags only.
 */
void kernel_risk_of(const occ_inspect_kernel *k, const occ_inspect_options *opts, kernel_risk *out);

/* Within RISK_NEAR_REGS / RISK_NEAR_SMEM_BYTES of a cliff. */
bool kernel_risk_near_regs(const kernel_risk *r);
bool kernel_risk_near_smem(const kernel_risk *r);

/* A flag that says the launch fails: launch_bounds, reqntid, cluster_dims. */
bool kernel_risk_fails(const kernel_risk *r);

/* Any flag. */
bool kernel_risk_any(const kernel_risk *r);

/* The flags in words: "launch_bounds, reqntid, cluster_dims, ceiling, spills,
   regs+2, smem+512B"; "-" for none. */
const char *kernel_risk_text(const kernel_risk *r, char *buf, size_t cap);

/* The flags as a JSON array of strings: ["launch_bounds", "regs+2"]; []. */
struct json_stream;
void kernel_risk_json_flags(struct json_stream *s, const kernel_risk *r);

/* The --summary section: how many kernels carry each flag, then the first
   ten at risk in the result's order, with their flags. */
void inspect_print_risk(FILE *out, const occ_inspect_result *r, const occ_inspect_options *opts);

#endif /* OCC_CLI_INSPECT_RISK_H */
