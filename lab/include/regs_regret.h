/*
 * regs_regret.h - the regret table of `occ lab regs` (issue 20): every
 * register cap of every kernel timed by occ-regs-bench (lab/regs/), scored
 * against the kernel's measured best as
 *
 *     regret(cap) = time at the cap / best time - 1
 *
 * for four choices a kernel: no cap; the cap that maximises occupancy (the
 * most blocks an SM, the highest such cap on a tie); the recommended cap
 * (occ regs's); and the best measured time among the caps occ regs names as
 * candidates. The goal for the recommendation (issue 20): a median regret of
 * at most 1.5 %, a maximum of at most 5 %, and never more than 1 % slower
 * than no cap.
 *
 * The rules (docs/regs.md, "occ lab regs"):
 * - A record's time counts only when the record is "checked" (finite
 *   outputs, bit-equal to the reference cubin's), or, with a tolerance,
 *   when its outputs are all finite and its checksum is within tolerance x
 *   the reference's sum of magnitudes ("tolerated", marked '*'). A cap with
 *   a record that does not count (a hang, a failed launch, another result)
 *   has no time and an infinite regret.
 * - A cubin timed in several rounds is timed as the median of its rounds'
 *   times (median_ms, or min_ms).
 * - Cubins of one kernel with equal code hashes (the same machine code with
 *   the same registers), and a cubin the runner did not time because its
 *   code equals an earlier one's (regs_same), share one time: the median of
 *   every counted timing of that code. Their differences are noise, not
 *   regret. A cap that failed keeps its failure.
 * - A recommended or candidate cap that was not measured is scored at the
 *   highest measured cap below it, and marked approximate.
 *
 * Plain arithmetic: no I/O, nothing printed. The CLI reads the records
 * (cli/lab/lab_regs_records.h) and presents the result (lab_regs_output.h);
 * tests/test_lab_regs.c holds this library to hand-worked examples and to
 * the committed H200 table.
 */
#ifndef OCC_LAB_REGS_REGRET_H
#define OCC_LAB_REGS_REGRET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "occ.h"

/* The cap of the unconstrained compile ("none"; null in the records). */
#define LAB_REGS_NO_CAP 0
/* --maxrregcount's range. */
#define LAB_REGS_MAX_CAP 255
/* Distinct caps a kernel can have: none and 1..255. */
#define LAB_REGS_CAP_SLOTS (LAB_REGS_MAX_CAP + 1)

/* The goal for the recommendation. */
#define LAB_REGS_GOAL_MEDIAN 0.015
#define LAB_REGS_GOAL_MAX 0.05
#define LAB_REGS_GOAL_VS_NONE 0.01

typedef enum lab_regs_kind {
    LAB_REGS_TIME,  /* regs_time: the cubin was timed */
    LAB_REGS_ERROR, /* regs_error: it failed (load, launch, hang, ...) */
    LAB_REGS_SAME   /* regs_same: not timed; its code is that of same_as_cap's */
} lab_regs_kind;

typedef enum lab_regs_stage {
    LAB_REGS_STAGE_OTHER,    /* "failed" */
    LAB_REGS_STAGE_HANG,     /* "hangs" */
    LAB_REGS_STAGE_OCCUPANCY /* "cannot launch" */
} lab_regs_stage;

/* One record of one cubin (one round of it). */
typedef struct lab_regs_record {
    lab_regs_kind kind;
    int cap;            /* LAB_REGS_NO_CAP or 1..255 */
    int regs;           /* -1: unknown */
    int blocks_per_sm;  /* -1: unknown */
    int local_bytes;    /* -1: unknown */
    uint64_t code_hash; /* 0: unknown (never grouped) */
    /* LAB_REGS_TIME */
    bool checked;
    double median_ms, min_ms; /* 0: absent */
    bool has_outputs, has_finite_outputs;
    double outputs, finite_outputs;
    bool has_checksum;
    double checksum;
    double abs_checksum; /* 0: absent (the checksum's magnitude is used) */
    int reference_cap;   /* whose outputs it was compared with */
    /* LAB_REGS_ERROR */
    lab_regs_stage stage;
    /* LAB_REGS_SAME */
    int same_as_cap;
} lab_regs_record;

/* One kernel's records and what occ regs says of it. */
typedef struct lab_regs_kernel {
    const char *name;
    const lab_regs_record *records;
    int record_count;
    bool has_recommendation;
    int recommended_cap; /* LAB_REGS_NO_CAP: no cap */
    bool has_candidates;
    const int *candidates; /* caps; LAB_REGS_NO_CAP: no cap */
    int candidate_count;
} lab_regs_kernel;

typedef enum lab_regs_metric { LAB_REGS_MEDIAN_MS, LAB_REGS_MIN_MS } lab_regs_metric;

typedef struct lab_regs_options {
    lab_regs_metric metric;
    double tolerance; /* 0: bit-equal outputs only */
    bool group;       /* cubins of equal code hash share one time */
} lab_regs_options;

/* What each cap of a kernel came to. */
typedef struct lab_regs_cap {
    int cap;
    int regs, blocks_per_sm, local_bytes; /* -1: unknown */
    uint64_t code_hash;                   /* 0: unknown */
    int timings;                          /* records of its own that were timed (rounds) */
    bool timed;                           /* false: only regs_same records (not timed itself) */
    int group;                            /* index (into the row's caps) of its group's first cap */
    int group_size;                       /* caps sharing its time, itself included */
    bool counts;                          /* it has a time */
    double ms;                            /* with counts */
    bool tolerated;                       /* a timing counted only within the tolerance */
    bool output_failed;  /* a timed record of its own did not pass the output check */
    const char *failure; /* without counts: "wrong output", "no time", "hangs",
                            "cannot launch", "failed", "not measured" */
} lab_regs_cap;

/* One of the four choices of a kernel. */
typedef struct lab_regs_choice {
    bool present;
    int cap;          /* the cap scored */
    int asked;        /* the cap recommended (or the candidate) before approximation */
    bool approximate; /* not measured: scored at the highest measured cap below */
    bool has_ms;
    double ms;
    double regret;           /* INFINITY without a time */
    const char *failure;     /* NULL with a time */
    int blocks_per_sm, regs; /* -1: unknown */
    bool tolerated;
    /* the recommended cap only: its time / no cap's - 1; INFINITY when it has
       no time, absent when no cap has none */
    bool has_vs_none;
    double vs_none;
    /* the candidates only */
    int candidates;          /* caps named */
    int candidates_measured; /* of them, scored at a measured cap */
} lab_regs_choice;

/* Why a recommendation misses (issue 20's next work). */
typedef struct lab_regs_miss {
    bool missed;
    bool failed; /* the recommended cap has no time (recommended.failure) */
    bool far;    /* its regret is above LAB_REGS_GOAL_MEDIAN */
    bool slower; /* more than LAB_REGS_GOAL_VS_NONE slower than no cap (and ran) */
} lab_regs_miss;

typedef struct lab_regs_row {
    const char *name;   /* the input's */
    int caps_measured;  /* caps with a time */
    int caps_tolerated; /* of them, counted only within the tolerance */
    bool has_best;      /* false: no cap has a time ("no cap measured correctly") */
    int best_cap;
    double best_ms;
    lab_regs_choice best, none, occupancy, recommended, candidates;
    bool worse_than_none; /* recommended.vs_none above LAB_REGS_GOAL_VS_NONE */
    lab_regs_miss miss;
    lab_regs_cap caps[LAB_REGS_CAP_SLOTS]; /* no cap first, then the highest cap first */
    int cap_count;
    int codes;      /* distinct codes (a hash and its registers) among the caps; 0: none known */
    int max_rounds; /* most timings of one cap */
} lab_regs_row;

/* Median and maximum regret of one choice over the kernels that have it. */
typedef struct lab_regs_summary {
    bool present;
    int kernels;
    double median, max;
} lab_regs_summary;

typedef struct lab_regs_analysis {
    lab_regs_row *rows; /* sorted by name (byte order) */
    int row_count;
    lab_regs_summary none, occupancy, recommended, candidates;
    /* the goal, over the rows with a recommendation */
    bool goal_median, goal_max, goal_vs_none;
    int worse_than_none; /* rows with worse_than_none */
    int missed;          /* rows with miss.missed */
    int not_checked;     /* caps with a timed record that failed the output check */
    int tolerated;       /* caps counted within the tolerance */
    int cubins;          /* caps of all kernels (one cubin each) */
    int codes;           /* distinct codes over all kernels (0: none known) */
    int max_rounds;      /* most timings of one cap */
    bool grouped;        /* groups by code hash applied (options.group and a hash known) */
} lab_regs_analysis;

/* "none" or the cap's number, into buf (at least 8 bytes). */
const char *lab_regs_cap_label(int cap, char *buf, size_t cap_bytes);

/*
 * Scores `count` kernels. OCC_ERR_INVALID_ARGUMENT (with err naming the
 * kernel and the value) for a cap outside 0..255, a negative tolerance, a
 * record count below 0 or two kernels of one name; OCC_ERR_OUT_OF_MEMORY.
 * Free out with lab_regs_analysis_free, also after an error.
 */
occ_status lab_regs_analyse(const lab_regs_kernel *kernels, int count,
                            const lab_regs_options *options, lab_regs_analysis *out,
                            occ_error *err);

void lab_regs_analysis_free(lab_regs_analysis *analysis);

#endif /* OCC_LAB_REGS_REGRET_H */
