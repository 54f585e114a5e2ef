/*
 * lab_analysis.h - the statistics of `occ lab` over what occ-lab measured:
 * the measured rows (residency, block size, spill, timeline blocks),
 * medians and rank correlation, the residency summary and its paired
 * comparison, the check of libocc's Little's-law model against the rows,
 * the block-size and spill summaries, and a timeline's achieved occupancy,
 * waves and tail.
 *
 * Plain arithmetic: no I/O, no printing, no global state; it allocates only
 * scratch memory it frees before returning. lab_data.h reads the records,
 * the CLI presents the results; tests/test_lab.c feeds
 * this library synthetic rows. docs/lab.md defines every figure.
 */
#ifndef OCC_LAB_ANALYSIS_H
#define OCC_LAB_ANALYSIS_H

#include <stdbool.h>
#include <stddef.h>

#include "occ.h"

/* The most rows of one experiment a records file may hold. */
#define LAB_MAX_ROWS 128

/* --- measured rows ------------------------------------------------------- */

typedef struct lab_residency_row {
    char label[32];
    int items;                   /* per thread; loads in flight = 2 x items */
    int launch_bound_min_blocks; /* __launch_bounds__(256, this); 0: none */
    int dyn_smem_bytes;          /* the reservation */
    int regs;
    int local_bytes;
    int blocks_per_sm;
    int warps_per_sm;
    int max_warps_per_sm;
    int loads_per_thread;
    int bytes_per_load;
    double bytes; /* moved per pass: read + written */
    double median_ms;
    bool checked;
} lab_residency_row;

typedef struct lab_blocksize_row {
    int threads;
    int blocks_per_sm;
    int warps_per_sm;
    int max_warps_per_sm;
    bool suggested;
    double bytes;
    double median_ms;
    bool checked;
} lab_blocksize_row;

typedef struct lab_spill_row {
    int min_blocks;
    int regs;
    int local_bytes;
    int blocks_per_sm;
    int warps_per_sm;
    int max_warps_per_sm;
    double median_ms;
    bool checked;
} lab_spill_row;

/* One block of a timeline launch: where and when it ran. */
typedef struct lab_block {
    int sm;
    double start_ns; /* from the launch's first block start */
    double end_ns;
} lab_block;

typedef struct lab_launch {
    char name[32];
    int grid;
    int threads;
    int blocks_per_sm; /* theoretical residency (driver) */
    int warps_per_sm;
    int max_warps_per_sm;
    int sm_count;
    double kernel_ms;
    lab_block *blocks; /* grid entries once read */
    int block_count;
} lab_launch;

/* --- statistics ---------------------------------------------------------- */

/* Median of n values (sorts a copy); 0 for n = 0. */
double lab_median(const double *values, int n);

/* Spearman's rank correlation (average ranks for ties); 0 when either side
   is constant, n < 2 or n > LAB_MAX_ROWS. */
double lab_spearman(const double *x, const double *y, int n);

/* GB/s (1e9 bytes/s) of `bytes` moved in `ms`; 0 when ms is not above 0. */
double lab_gb_per_s(double bytes, double ms);

/* --- residency ------------------------------------------------------------ */

/* Warp-wide loads in flight per SM: resident warps x loads per thread. */
int lab_residency_in_flight(const lab_residency_row *row);

typedef struct lab_residency_summary {
    int fastest;             /* index of the row with the most GB/s */
    int lowest_within;       /* lowest-occupancy row within 10% of the fastest time */
    int pair_high, pair_low; /* equal loads in flight, occupancy >= 4x apart,
                                times closest to equal; -1 when none */
    double pair_time_ratio;  /* low row's time / high row's time */
    int pair_count;          /* pairs that qualify */
    double pair_ratio_min, pair_ratio_max;
} lab_residency_summary;

/* Rows with median_ms above 0; fastest and lowest_within are -1 for n = 0. */
void lab_residency_summarise(const lab_residency_row *rows, int n, lab_residency_summary *out);

/* The Little's-law model (libocc) calibrated from ceiling and latency and
   one residency row, and its prediction error on every other row. */
typedef struct lab_model_check {
    bool ok;                        /* false: the inputs could not calibrate it */
    char why[320];                  /* when !ok */
    occ_memory_model model;         /* latency, peak, fitted loaded-latency factor
                                       and per-warp rate */
    int fit_row;                    /* the row the loaded-latency factor is fitted on */
    int warp_fit_row;               /* the row the per-warp rate is fitted on; -1: none */
    double predicted[LAB_MAX_ROWS]; /* GB/s per row */
    int rows_compared;              /* every row but the fit row */
    double median_error, max_error; /* relative: |pred - meas| / meas */
    double rank_correlation;
    int rows_compared_no_spill; /* the same without rows that use local memory */
    double median_error_no_spill, max_error_no_spill, rank_correlation_no_spill;
} lab_model_check;

/* peak_gb_per_s: measured copy ceiling (read + written); latency_ns: DRAM
   pointer chase; sm_count. The fit row is the one-item row (no local
   memory) whose GB/s is closest to half the ceiling: well inside the
   latency-bound range, where the loaded-latency factor shows most. The
   per-warp rate is fitted on the row with the fewest resident warps and,
   among those, the most loads per thread (no local memory): the row whose
   loads in flight promise most and whose warps deliver least; only if it
   falls more than 2% short of the latency term alone. A row's
   local memory counts as spill traffic, each byte stored and loaded once. */
void lab_model_check_run(const lab_residency_row *rows, int n, double peak_gb_per_s,
                         double latency_ns, int sm_count, lab_model_check *out);

/* --- block size and spill ------------------------------------------------- */

typedef struct lab_blocksize_summary {
    int fastest;
    int suggested;        /* index of the suggested row; -1 if not measured */
    int within_5_percent; /* rows whose time is within 5% of the fastest */
    bool suggested_is_fastest;
    double suggested_time_ratio; /* suggested / fastest */
} lab_blocksize_summary;

void lab_blocksize_summarise(const lab_blocksize_row *rows, int n, lab_blocksize_summary *out);

typedef struct lab_spill_summary {
    int fastest;
    int turn; /* first row where occupancy rose and the time grew
                 by more than 5% over the row before; -1: none */
    double turn_time_ratio;
} lab_spill_summary;

void lab_spill_summarise(const lab_spill_row *rows, int n, lab_spill_summary *out);

/* --- timeline ------------------------------------------------------------- */

#define LAB_TIMELINE_SAMPLES 200

typedef struct lab_timeline_summary {
    double duration_ns;           /* first start to last end */
    double achieved_occupancy;    /* time-averaged resident warps / max, over all SMs */
    double theoretical_occupancy; /* warps_per_sm / max_warps_per_sm */
    double waves_theoretical;     /* grid / (blocks_per_sm x SMs) */
    int waves_measured;           /* most blocks any SM ran, in slots-fulls (ceil) */
    double tail_ns;               /* from the last moment every slot was busy to the end */
    double full_ns;               /* time with every block slot busy */
    int sms_used;
    int min_blocks_per_sm, max_blocks_per_sm;         /* blocks each SM ran */
    double occupancy_over_time[LAB_TIMELINE_SAMPLES]; /* achieved, GPU-wide */
} lab_timeline_summary;

/* False, with one line in why (why_bytes long), when the launch has no
   blocks, SMs or residency, a block names an SM outside 0..sm_count-1 or
   ends before it starts, or scratch memory runs out. */
bool lab_timeline_analyse(const lab_launch *launch, lab_timeline_summary *out, char *why,
                          size_t why_bytes);

#endif /* OCC_LAB_ANALYSIS_H */
