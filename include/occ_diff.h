/*
 * occ_diff.h - what a build changed in its kernels, and a CI gate over it:
 * the engine of `occ diff`, part of libocc-inspect. C, Python (occ.diff) and
 * the CLI share it; the CLI keeps its options and its table and Markdown.
 *
 *   occ_inspect_result *old_r, *new_r;          (occ_inspect_read, each side)
 *   occ_diff_gate gate = {0};
 *   occ_inspect_error err;
 *   occ_diff_gate_parse("occupancy-10%,regs+8,spills", &gate, &err);
 *   occ_diff_report report = {.old_side = {"old.so", old_r},
 *                             .new_side = {"new.so", new_r},
 *                             .read = &opts, .gate = &gate};
 *   if (occ_diff_compare(&report, &err) == OCC_OK) {
 *       occ_diff_json_write(&report, stdout, &err);   (schema occ.diff)
 *       passed = report.failed == 0;
 *   }
 *   occ_diff_report_free(&report);
 *
 * Kernels are matched by arch and mangled name (and launch, where a launch
 * list gave a kernel several rows); a kernel whose name changed but whose
 * demangled base name and resources did not is moved. Every field compared
 * is read from the occ_inspect_kernel libocc-inspect returned; nothing is
 * recomputed but the risk (occ_inspect_risk_of). Errors come back as an
 * occ_status and an occ_inspect_error whose message is one line naming the
 * value and what was expected. Nothing is printed.
 */
#ifndef OCC_DIFF_H
#define OCC_DIFF_H

#include "occ_inspect.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The version of the occ.diff JSON document (docs/json.md). */
#define OCC_DIFF_SCHEMA_VERSION 1

/* The fields compared, in the order the outputs show them. */
typedef enum occ_diff_field {
    OCC_DIFF_REGS = 0,
    OCC_DIFF_SPILL_STORES,       /* bytes, ptxas logs */
    OCC_DIFF_SPILL_LOADS,        /* bytes, ptxas logs */
    OCC_DIFF_SPILL_INSTRUCTIONS, /* cubins */
    OCC_DIFF_STACK,
    OCC_DIFF_SMEM, /* static shared memory, the driver's figure */
    OCC_DIFF_BARRIERS,
    OCC_DIFF_MAX_THREADS, /* __launch_bounds__ / .maxntid */
    OCC_DIFF_REQ_THREADS, /* .reqntid */
    OCC_DIFF_MAX_REGS,    /* the register cap (launch bounds' minimum blocks, maxrreg) */
    OCC_DIFF_CLUSTER,     /* __cluster_dims__ */
    OCC_DIFF_THREADS,     /* the block size the occupancy is computed at */
    OCC_DIFF_BLOCKS,      /* resident blocks per SM */
    OCC_DIFF_OCCUPANCY,
    OCC_DIFF_LIMITER,
    OCC_DIFF_FIELD_COUNT
} occ_diff_field;

/* A field's JSON key ("regs", "occupancy"); "?" outside the enum. */
const char *occ_diff_field_key(occ_diff_field field);

/* The field's value on one side as text for a table ("64", "50.0%",
   "warps+registers", "128", "16x16x1", "-" for none), into buf. */
const char *occ_diff_field_text(const occ_inspect_kernel *k, occ_diff_field field, char *buf,
                                size_t cap);

/* The value as JSON (a number, an [x,y,z] list, a list of limiter keys, or
   null), into buf. */
const char *occ_diff_field_json(const occ_inspect_kernel *k, occ_diff_field field, char *buf,
                                size_t cap);

/* Whether the field differs between two kernels. */
bool occ_diff_field_differs(const occ_inspect_kernel *a, const occ_inspect_kernel *b,
                            occ_diff_field field);

/* Occupancy in percent, 0 where the kernel has none (a device function, or
   no block fits). */
double occ_diff_occupancy_percent(const occ_inspect_kernel *k);

/* Spill bytes (stores + loads, a log's unknown as 0). */
long long occ_diff_spill_bytes(const occ_inspect_kernel *k);

/* The fields that a ptxas log on one side and a binary on the other cannot
   both know: the log carries no launch bounds, register cap, cluster dims
   or spill instructions, a binary no spill bytes, and the occupancy then
   rests on what only the binary knows. 0 when both sides are of one kind.
   Bits (1 << occ_diff_field). */
unsigned occ_diff_one_side_fields(const occ_inspect_kernel *a, const occ_inspect_kernel *b);

/* The fields of such bits by their JSON keys: "max_threads, max_regs". */
const char *occ_diff_one_side_text(unsigned bits, char *buf, size_t cap);

typedef enum occ_diff_status {
    OCC_DIFF_CHANGED = 0,
    OCC_DIFF_ADDED = 1,
    OCC_DIFF_REMOVED = 2,
    OCC_DIFF_MOVED = 3
} occ_diff_status;

/* "changed", "added", "removed", "moved"; "?" outside the enum. */
const char *occ_diff_status_name(occ_diff_status status);

/* ---- the gate ------------------------------------------------------------ */

/* What a gate can name (docs/diff.md, "The gate"). */
typedef enum occ_diff_gate_item {
    OCC_DIFF_GATE_OCCUPANCY = 0, /* occupancy falls by more than N percentage points */
    OCC_DIFF_GATE_BLOCKS,        /* resident blocks fall by more than N */
    OCC_DIFF_GATE_REGS,          /* registers rise by more than N */
    OCC_DIFF_GATE_SPILLS,        /* spill bytes or instructions rise by more than N */
    OCC_DIFF_GATE_STACK,         /* stack rises by more than N bytes */
    OCC_DIFF_GATE_SMEM,          /* static shared memory rises by more than N bytes */
    OCC_DIFF_GATE_BARRIERS,      /* barriers rise by more than N */
    OCC_DIFF_GATE_CEILING,       /* a kernel reaches the register ceiling */
    OCC_DIFF_GATE_LAUNCH_BOUNDS, /* a launch starts to fail: above __launch_bounds__,
                                    off .reqntid, cluster dims the GPU refuses */
    OCC_DIFF_GATE_ADDED,
    OCC_DIFF_GATE_REMOVED,
    OCC_DIFF_GATE_MOVED,
    OCC_DIFF_GATE_CHANGED, /* any change */
    OCC_DIFF_GATE_ITEM_COUNT
} occ_diff_gate_item;

/* "occupancy", "regs", "launch-bounds", ...; "?" outside the enum. */
const char *occ_diff_gate_item_name(occ_diff_gate_item item);

/* Zero it before the first occ_diff_gate_parse. */
typedef struct occ_diff_gate {
    bool on[OCC_DIFF_GATE_ITEM_COUNT];
    double slack[OCC_DIFF_GATE_ITEM_COUNT];  /* the threshold: how much is tolerated */
    char text[OCC_DIFF_GATE_ITEM_COUNT][40]; /* as given: "occupancy-10%" */
} occ_diff_gate;

/* Parses a list of items ("occupancy-10%,regs+8,spills,added"), separated
   by commas, into g; parsing several lists into one gate adds them up. A
   threshold is the change tolerated: regs+8 lets registers grow by 8 and
   fails at 9; occupancy-10% lets occupancy fall by 10 points. An unknown
   item (with the nearest one), a threshold on an item that takes none, the
   wrong sign or an empty list: OCC_ERR_INVALID_ARGUMENT. */
occ_status occ_diff_gate_parse(const char *list, occ_diff_gate *g, occ_inspect_error *err);

/* One line of an allow file. */
typedef struct occ_diff_allow_rule {
    char *pattern;  /* fnmatch glob on the printed or the mangled name */
    char *reason;   /* required: why the change is accepted */
    unsigned items; /* gate items it covers (bits of occ_diff_gate_item); all if 0 */
    int line;       /* in the file */
    size_t used;    /* failures it excused */
} occ_diff_allow_rule;

typedef struct occ_diff_allow_list {
    const char *path; /* as given; not owned */
    occ_diff_allow_rule *rules;
    int count;
} occ_diff_allow_list;

/* The largest allow file read: thousands of lines. */
#define OCC_DIFF_ALLOW_MAX_BYTES (4 << 20)

/* Parses an allow file's text: "[ITEM, ITEM: ]PATTERN # REASON" per line,
   '#' lines and blank lines skipped. A line without a reason, with an empty
   item list (": k*"), an item that is not one or a NUL byte is
   OCC_ERR_BAD_FORMAT naming `path` and the line. Free with
   occ_diff_allow_free, also after an error. */
occ_status occ_diff_allow_parse(const char *path, const char *text, size_t size,
                                occ_diff_allow_list *out, occ_inspect_error *err);

/* Reads and parses the file at path ("-" is not special): OCC_ERR_IO when
   it cannot be read, OCC_ERR_LIMIT above OCC_DIFF_ALLOW_MAX_BYTES. */
occ_status occ_diff_allow_read(const char *path, occ_diff_allow_list *out, occ_inspect_error *err);

void occ_diff_allow_free(occ_diff_allow_list *list);

/* ---- the report ---------------------------------------------------------- */

typedef struct occ_diff_entry {
    occ_diff_status status;
    const occ_inspect_kernel *old_k;    /* NULL when added */
    const occ_inspect_kernel *new_k;    /* NULL when removed */
    unsigned changed;                   /* bit (1 << occ_diff_field) per field that differs */
    unsigned failed;                    /* bit (1 << occ_diff_gate_item) per item it fails,
                                           allowed or not */
    unsigned excused;                   /* of those, the items an allow line accepts */
    const occ_diff_allow_rule *allowed; /* the allow line that accepts every failure */
    occ_inspect_risk risk;              /* of the new side (the old one when removed) */
} occ_diff_entry;

typedef struct occ_diff_side {
    const char *label; /* OLD or NEW as given */
    occ_inspect_result *result;
    size_t at_ceiling, spilling; /* over every kernel read (occ_diff_compare) */
} occ_diff_side;

/* The caller sets the inputs (both sides, read, and optionally launches,
   gate and allow); occ_diff_compare fills the rest. */
typedef struct occ_diff_report {
    occ_diff_side old_side, new_side;
    const occ_inspect_options *read;         /* what both sides were read with */
    const occ_inspect_launch_list *launches; /* applied to both sides, or NULL */
    const occ_diff_gate *gate;               /* NULL: nothing fails */
    occ_diff_allow_list *allow;              /* NULL: none (its rules' `used` are counted) */
    occ_diff_entry *entries;                 /* changed, added, removed, moved: worst first */
    size_t entry_count;
    size_t unchanged, changed, added, removed, moved;
    unsigned one_side_only; /* fields known to one side only (a ptxas log against a
                               binary) that differed and were not counted: bits
                               (1 << occ_diff_field) */
    size_t failed;          /* entries that fail the gate and are not allowed */
    size_t allowed;         /* entries that would fail but an allow line accepts */
} occ_diff_report;

/* Counts the side's kernels at the register ceiling and spilling (what
   occ_diff_compare does for both sides), for a side shown alone. */
void occ_diff_side_count(occ_diff_side *side, const occ_inspect_options *read);

/* Matches the kernels of both sides, fills the entries and counts, applies
   the gate and the allow list, and orders the entries: failures first, then
   by status, the worst change first. OCC_ERR_NULL_POINTER without both sides
   and read; OCC_ERR_OUT_OF_MEMORY. */
occ_status occ_diff_compare(occ_diff_report *report, occ_inspect_error *err);

/* Frees the entries (not the sides, the gate or the allow list). */
void occ_diff_report_free(occ_diff_report *report);

/* "3 kernels (occupancy-10%: 2, regs+8: 1)": what failed the gate, by item
   (a kernel counts for each item it fails), into buf. */
const char *occ_diff_gate_summary(const occ_diff_report *report, char *buf, size_t cap);

/* ---- reading both sides, and a whole diff in one call --------------------- */

/* Both sides, read at once (occ_inspect_read on two threads), each then
   filtered by `filter` (a POSIX extended regular expression, or NULL). */
typedef struct occ_diff_sides {
    occ_inspect_result *old_result, *new_result; /* free with occ_inspect_result_free */
    double old_seconds, new_seconds;             /* each side's reading */
    int failed_side;                             /* 0 OLD, 1 NEW, -1 none */
} occ_diff_sides;

/* On an error neither result is kept and err's line names the input. */
occ_status occ_diff_read(const occ_inspect_input *old_inputs, int old_count,
                         const occ_inspect_input *new_inputs, int new_count,
                         const occ_inspect_options *options, const char *filter,
                         occ_diff_sides *out, occ_inspect_error *err);

/* What occ diff --json does, as one call (Python's occ.diff): the gate and
   the allow file are checked first, then both sides read, given the
   launches, compared, and the document made. */
typedef struct occ_diff_request {
    const occ_inspect_input *old_inputs;
    int old_count;
    const occ_inspect_input *new_inputs;
    int new_count;
    const char *old_label, *new_label; /* the sides as the document names them */
    const occ_inspect_options *read;
    const char *filter;                /* or NULL */
    occ_inspect_launch_list *launches; /* or NULL (libocc-profile's
                                          occ_profile_launches_read) */
    const char *fail_on;               /* a gate list, or NULL: nothing fails */
    const char *allow_path;            /* an allow file, or NULL */
} occ_diff_request;

/* *text: the occ.diff document (free with occ_inspect_text_free); *failed
   (may be NULL): the entries that fail the gate and are not allowed. */
occ_status occ_diff_run_json(const occ_diff_request *request, char **text, size_t *size,
                             size_t *failed, occ_inspect_error *err);

/* The occ.diff JSON document (docs/json.md) written to out: OCC_ERR_IO when
   it cannot be written. Declared where <stdio.h> was included first. */
#ifdef EOF
occ_status occ_diff_json_write(const occ_diff_report *report, FILE *out, occ_inspect_error *err);
#endif

/* The same document in memory: *text (NUL-terminated, *size bytes) is
   freed with occ_inspect_text_free. */
occ_status occ_diff_json_text(const occ_diff_report *report, char **text, size_t *size,
                              occ_inspect_error *err);

/* With no OLD (a first run before any baseline exists): the document that
   says so (missing_baseline: `missing` as given, and NEW's side), with none
   of a comparison's fields. Declared where <stdio.h> was included first. */
#ifdef EOF
occ_status occ_diff_missing_json_write(FILE *out, const char *missing,
                                       const occ_diff_side *new_side, occ_inspect_error *err);
#endif

#ifdef __cplusplus
}
#endif

#endif /* OCC_DIFF_H */
