/*
 * lab.h - `occ lab`: what its files share. occ-lab (lab/, CUDA) measures and
 * prints records; these files read the records (lab_records.c), analyse
 * them (lab_analysis.c: plain arithmetic, unit-tested without a GPU), and
 * present them (lab_report.c: text, CSV, JSON; lab_svg.c: plots).
 * docs/lab.md describes every record and every derived figure.
 */
#ifndef OCC_CLI_LAB_H
#define OCC_CLI_LAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "occ.h"

/* --- records (what occ-lab printed) ------------------------------------- */

typedef struct lab_device_info {
    char name[64];
    int cc_major, cc_minor;
    int sm_count;
    int max_warps_per_sm;
    long long l2_bytes;
    int sm_clock_khz;
    int peak_gb_per_s;   /* from the memory clock and bus width */
    int driver_version;  /* 13000 = 13.0 */
    int runtime_version;
} lab_device_info;

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
    double bytes;      /* moved per pass: read + written */
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
    int blocks_per_sm;  /* theoretical residency (driver) */
    int warps_per_sm;
    int max_warps_per_sm;
    int sm_count;
    double kernel_ms;
    lab_block *blocks;  /* grid entries once read */
    int block_count;
} lab_launch;

#define LAB_MAX_ROWS 128
#define LAB_MAX_LAUNCHES 8

typedef struct lab_data {
    bool has_device;
    lab_device_info device;
    double memcpy_bytes, memcpy_ms;    /* ceiling, method memcpy (0: absent) */
    double copy_kernel_bytes, copy_kernel_ms;
    double dram_ns, dram_cycles;       /* latency over a buffer far past L2 */
    double dram_small_ns;              /* the same over 64 MiB */
    double l2_ns, l2_cycles;
    lab_residency_row residency[LAB_MAX_ROWS];
    int residency_count;
    lab_blocksize_row blocksize[LAB_MAX_ROWS];
    int blocksize_count;
    int suggested_threads;             /* cudaOccupancyMaxPotentialBlockSize */
    lab_spill_row spill[LAB_MAX_ROWS];
    int spill_count;
    lab_launch launches[LAB_MAX_LAUNCHES];
    int launch_count;
    bool has_verify;
    long long verify_comparisons, verify_mismatches;
    int verify_kernels;
    bool done;                          /* the "done" record came */
    char error[160];                    /* an "error" record's message, if any */
} lab_data;

/* Reads records from `in` (one JSON object a line) into *data, which it
   zeroes first. Unknown record kinds are skipped (newer occ-lab). Returns
   false with one line in msg on a malformed line. Free with lab_data_free. */
bool lab_records_read(FILE *in, lab_data *data, char *msg, size_t cap);
void lab_data_free(lab_data *data);

/* --- analysis (pure) ----------------------------------------------------- */

/* Median of n values (sorts a copy); 0 for n = 0. */
double lab_median(const double *values, int n);

/* Spearman's rank correlation (average ranks for ties); 0 when either side
   is constant or n < 2. */
double lab_spearman(const double *x, const double *y, int n);

/* GB/s (1e9 bytes/s) of `bytes` moved in `ms`. */
double lab_gb_per_s(double bytes, double ms);

/* Warp-wide loads in flight per SM: resident warps x loads per thread. */
int lab_residency_in_flight(const lab_residency_row *row);

typedef struct lab_residency_summary {
    int fastest;          /* index of the row with the most GB/s */
    int lowest_within;    /* lowest-occupancy row within 10% of the fastest time */
    int pair_high, pair_low; /* equal loads in flight, occupancy >= 4x apart,
                                times closest to equal; -1 when none */
    double pair_time_ratio;  /* low row's time / high row's time */
    int pair_count;          /* pairs that qualify */
    double pair_ratio_min, pair_ratio_max;
} lab_residency_summary;

void lab_residency_summarise(const lab_residency_row *rows, int n,
                             lab_residency_summary *out);

/* The Little's-law model (libocc) calibrated from ceiling and latency and
   one residency row, and its prediction error on every other row. */
typedef struct lab_model_check {
    bool ok;                   /* false: the inputs could not calibrate it */
    char why[320];             /* when !ok */
    occ_memory_model model;    /* latency, peak, fitted loaded-latency factor
                                  and per-warp rate */
    int fit_row;               /* the row the loaded-latency factor is fitted on */
    int warp_fit_row;          /* the row the per-warp rate is fitted on; -1: none */
    double predicted[LAB_MAX_ROWS]; /* GB/s per row */
    int rows_compared;         /* every row but the fit row */
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
    int turn;         /* first row where occupancy rose and the time grew
                         by more than 5% over the row before; -1: none */
    double turn_time_ratio;
} lab_spill_summary;

void lab_spill_summarise(const lab_spill_row *rows, int n, lab_spill_summary *out);

#define LAB_TIMELINE_SAMPLES 200

typedef struct lab_timeline_summary {
    double duration_ns;          /* first start to last end */
    double achieved_occupancy;   /* time-averaged resident warps / max, over all SMs */
    double theoretical_occupancy; /* warps_per_sm / max_warps_per_sm */
    double waves_theoretical;    /* grid / (blocks_per_sm x SMs) */
    int waves_measured;          /* most blocks any SM ran, in slots-fulls (ceil) */
    double tail_ns;              /* from the last moment every slot was busy to the end */
    double full_ns;              /* time with every block slot busy */
    int sms_used;
    int min_blocks_per_sm, max_blocks_per_sm; /* blocks each SM ran */
    double occupancy_over_time[LAB_TIMELINE_SAMPLES]; /* achieved, GPU-wide */
} lab_timeline_summary;

/* False (with msg) when a block names an SM outside 0..sm_count-1 or ends
   before it starts. */
bool lab_timeline_analyse(const lab_launch *launch, lab_timeline_summary *out, char *msg,
                          size_t cap);

/* --- presentation --------------------------------------------------------- */

typedef enum lab_format { LAB_TEXT, LAB_CSV, LAB_JSON } lab_format;

/* Which analyses to present (the experiments asked for). */
typedef struct lab_selection {
    bool ceiling, latency, residency, blocksize, spill, timeline, verify;
} lab_selection;

/* Prints the analysis; returns false (with msg) when the records lack what
   a selected experiment needs or a row was not checked. */
bool lab_report(FILE *out, const lab_data *data, const lab_selection *sel, lab_format format,
                char *msg, size_t cap);

/* Writes the SVG plots of the selected experiments into dir. */
bool lab_svg_write_all(const char *dir, const lab_data *data, const lab_selection *sel,
                       char *msg, size_t cap);

#endif /* OCC_CLI_LAB_H */
