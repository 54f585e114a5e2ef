/*
 * diff.h - what the files of `occ diff` share: the fields compared, one
 * entry per kernel that changed, was added, removed or moved, the gate
 * (--fail-on, --allow) and the report the outputs print.
 *
 *   cmd_diff.c    options, reading both sides (one occ_inspect_read each,
 *                 on two threads), a missing baseline, the order of work,
 *                 the exit status
 *   diff_match.c  matching by arch and mangled name, moved kernels, the
 *                 fields that changed, worst first
 *   diff_fields.c each field's name and its value on either side
 *   diff_gate.c   --fail-on items and thresholds, the --allow file
 *   diff_text.c   the table and --markdown
 *   diff_json.c   --json (schema occ.diff)
 */
#ifndef OCC_CLI_DIFF_H
#define OCC_CLI_DIFF_H

#include <stdint.h>
#include <stdio.h>

#include "cli.h"
#include "inspect_launches.h"
#include "inspect_risk.h"
#include "occ_inspect.h"

/* occ diff's exit status, as GNU diff's and grep's: 0 the gate passed (or
   there is none), 1 it failed, 2 trouble (a usage error; an input that
   cannot be read, is damaged or is not recognised; the output not written).
   The CLI's codes (cli.h: 1 for bad data, 2 for usage) are mapped onto these
   in cmd_diff.c; only a failed gate gives 1. */
enum {
    DIFF_EXIT_PASSED = 0,
    DIFF_EXIT_FAILED = 1,
    DIFF_EXIT_TROUBLE = 2,
};

/* The fields compared, in the order the outputs show them. */
typedef enum diff_field {
    DIFF_REGS = 0,
    DIFF_SPILL_STORES,       /* bytes, ptxas logs */
    DIFF_SPILL_LOADS,        /* bytes, ptxas logs */
    DIFF_SPILL_INSTRUCTIONS, /* cubins */
    DIFF_STACK,
    DIFF_SMEM, /* static shared memory, the driver's figure */
    DIFF_BARRIERS,
    DIFF_MAX_THREADS, /* __launch_bounds__ / .maxntid */
    DIFF_REQ_THREADS, /* .reqntid */
    DIFF_MAX_REGS,    /* the register cap (launch bounds' minimum blocks, maxrreg) */
    DIFF_CLUSTER,     /* __cluster_dims__ */
    DIFF_THREADS,     /* the block size the occupancy is computed at */
    DIFF_BLOCKS,      /* resident blocks per SM */
    DIFF_OCCUPANCY,
    DIFF_LIMITER,
    DIFF_FIELD_COUNT
} diff_field;

/* A field's JSON key ("regs", "occupancy"). */
const char *diff_field_key(diff_field field);

/* The field's value on one side as text for the table ("64", "50%",
   "registers+warps", "[128,1,1]", "-" for none). */
const char *diff_field_text(const occ_inspect_kernel *k, diff_field field, char *buf, size_t cap);

/* Writes the value as JSON (a number, a [x,y,z] list, a list of limiter
   names, or null) into buf. */
const char *diff_field_json(const occ_inspect_kernel *k, diff_field field, char *buf, size_t cap);

/* Whether the field differs between two kernels. */
bool diff_field_differs(const occ_inspect_kernel *a, const occ_inspect_kernel *b, diff_field field);

/* Occupancy in percent, 0 where the kernel has none (a device function, or
   no block fits). */
double diff_occupancy_percent(const occ_inspect_kernel *k);

/* Spill bytes (stores + loads, a log's unknown as 0). */
long long diff_spill_bytes(const occ_inspect_kernel *k);

typedef enum diff_status {
    DIFF_CHANGED = 0,
    DIFF_ADDED = 1,
    DIFF_REMOVED = 2,
    DIFF_MOVED = 3
} diff_status;

/* ---- the gate (diff_gate.c) ---------------------------------------------- */

/* What --fail-on can name. */
typedef enum gate_item {
    GATE_OCCUPANCY = 0, /* occupancy falls by more than N percentage points */
    GATE_BLOCKS,        /* resident blocks fall by more than N */
    GATE_REGS,          /* registers rise by more than N */
    GATE_SPILLS,        /* spill bytes or instructions rise by more than N */
    GATE_STACK,         /* stack rises by more than N bytes */
    GATE_SMEM,          /* static shared memory rises by more than N bytes */
    GATE_BARRIERS,      /* barriers rise by more than N */
    GATE_CEILING,       /* a kernel reaches the register ceiling */
    GATE_LAUNCH_BOUNDS, /* a launch starts to fail: above __launch_bounds__, off
                           .reqntid, cluster dims the GPU refuses */
    GATE_ADDED,
    GATE_REMOVED,
    GATE_MOVED,
    GATE_CHANGED, /* any change */
    GATE_ITEM_COUNT
} gate_item;

/* "occupancy", "regs", ... */
const char *gate_item_name(gate_item item);

typedef struct gate {
    bool on[GATE_ITEM_COUNT];
    double slack[GATE_ITEM_COUNT];  /* the threshold: how much is tolerated */
    char text[GATE_ITEM_COUNT][40]; /* as given: "occupancy-10%" */
} gate;

/* Parses --fail-on LIST ("occupancy-10%,regs+8,spills,added"): items
   separated by commas, repeated options adding up. */
bool gate_parse(const char *list, gate *g, cli_error *err);

/* One line of the --allow file. */
typedef struct allow_rule {
    char *pattern;  /* fnmatch glob on the printed or the mangled name */
    char *reason;   /* required: why the change is accepted */
    unsigned items; /* gate items it covers (bits of gate_item); all if 0 */
    int line;       /* in the file */
    size_t used;    /* failures it excused */
} allow_rule;

typedef struct allow_list {
    const char *path;
    allow_rule *rules;
    int count;
} allow_list;

/* Reads an --allow file: "[ITEM,ITEM: ]PATTERN # REASON" per line, '#'
   lines and blank lines skipped. A line without a reason, with an empty
   item list (": k*") or an item that is not one (the known ones listed) is
   an error naming the file and the line. */
bool allow_read(const char *path, FILE *in, allow_list *out, cli_error *err);
void allow_free(allow_list *list);

/* ---- the report ---------------------------------------------------------- */

typedef struct diff_entry {
    diff_status status;
    const occ_inspect_kernel *old_k; /* NULL when added */
    const occ_inspect_kernel *new_k; /* NULL when removed */
    uint32_t changed;                /* bit (1 << diff_field) per field that differs */
    uint32_t failed;                 /* bit (1 << gate_item) per item it fails, allowed or not */
    uint32_t excused;                /* of those, the items an --allow line accepts */
    const allow_rule *allowed;       /* the --allow line that accepts every failure, or NULL */
    kernel_risk risk;                /* of the new side (the old one when removed) */
} diff_entry;

typedef struct diff_side {
    const char *label; /* OLD or NEW as given */
    occ_inspect_result *result;
    size_t at_ceiling, spilling; /* over every kernel read */
} diff_side;

typedef struct diff_report {
    diff_side old_side, new_side;
    const occ_inspect_options *read;    /* what both sides were read with */
    const inspect_launch_set *launches; /* --launches, applied to both sides; NULL */
    diff_entry *entries;                /* changed, added, removed, moved: worst first */
    size_t entry_count;
    size_t unchanged, changed, added, removed, moved;
    uint32_t one_side_only; /* fields known to one side only (a ptxas log against a
                               binary) that differed and were not counted: bits
                               (1 << diff_field) */
    size_t failed;          /* entries that fail the gate and are not allowed */
    size_t allowed;         /* entries that would fail but an --allow line accepts */
    const gate *gate;
    const allow_list *allow;
} diff_report;

/* The fields that a ptxas log on one side and a binary on the other cannot
   both know: the log carries no launch bounds, register cap, cluster dims
   or spill instructions, a binary no spill bytes, and the occupancy then
   rests on what only the binary knows. 0 when both sides are of one kind. */
uint32_t diff_one_side_fields(const occ_inspect_kernel *a, const occ_inspect_kernel *b);

/* The fields of such bits by their JSON keys: "max_threads, max_regs". */
const char *diff_one_side_text(uint32_t bits, char *buf, size_t cap);

/* Matches the kernels of both sides and fills the report's entries and
   counts (diff_match.c). False only when out of memory. */
bool diff_compare(diff_report *report);

/* Applies the gate and the allow list to every entry, then orders the
   entries: failures first, then by status, worst change first. */
void gate_apply(diff_report *report);

/* Worst first within a status; failures before everything else. */
void diff_sort(diff_report *report);

/* Output (diff_text.c, diff_json.c). */
void diff_print_text(FILE *out, const diff_report *report);
void diff_print_markdown(FILE *out, const diff_report *report, int shown);
void diff_print_json(FILE *out, const diff_report *report);

/* --missing-baseline ok with no OLD: what --markdown and --json say instead
   of a comparison (the text output says nothing). `missing` is OLD as
   given; `new_side` was read, so that a broken NEW is still trouble. */
void diff_print_missing_markdown(FILE *out, const char *missing, const diff_side *new_side,
                                 const occ_inspect_options *read);
void diff_print_missing_json(FILE *out, const char *missing, const diff_side *new_side);

/* "3 kernels (occupancy-10%: 2, regs+8: 1)": what failed the gate, by item
   (a kernel counts for each item it fails). */
const char *diff_gate_summary(const diff_report *report, char *buf, size_t cap);

/* "moved" ... */
const char *diff_status_name(diff_status status);

#endif /* OCC_CLI_DIFF_H */
