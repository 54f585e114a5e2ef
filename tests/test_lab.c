/*
 * test_lab.c - the analysis behind `occ lab`, on synthetic inputs whose
 * answers are worked out by hand in the comments: medians, rank
 * correlation, the residency summary and paired comparison, the model
 * check, block-size and spill summaries, a timeline's achieved occupancy,
 * waves and tail, the record reader (its bounded lines, its format check
 * and its refusal of values no GPU produces), and `occ lab` itself on saved
 * records, with a missing or GPU-less occ-lab, and on the GPU present when
 * there is one (skipped, with one line saying why, when there is none).
 * Ids: lab-<area>-<n>.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "cli.h"
#include "cli_harness.h"
#include "lab_records.h"
#include "options.h"
#include "test_data.h"

#define NEAR(a, b) assert_true(fabs((a) - (b)) < 1e-9)

/* lab-median-1: odd and even counts; the input stays unsorted. */
static void median_test(void **state)
{
    (void)state;
    double odd[] = {5, 1, 3};
    double even[] = {4, 1, 3, 2};
    NEAR(lab_median(odd, 3), 3.0);
    NEAR(lab_median(even, 4), 2.5);
    NEAR(odd[0], 5.0);
    NEAR(lab_median(odd, 0), 0.0);
}

/* lab-rank-1..3: monotone, reversed, and ties. With x = 1..4 and
   y = {1, 1, 2, 2}: ranks of y are 1.5, 1.5, 3.5, 3.5; the products of
   deviations sum to 4, the squares to 5 and 4, so rho = 4 / sqrt(20). */
static void spearman_test(void **state)
{
    (void)state;
    double x[] = {1, 2, 3, 4};
    double up[] = {10, 20, 35, 100};
    double down[] = {9, 7, 5, 1};
    double ties[] = {1, 1, 2, 2};
    double flat[] = {3, 3, 3, 3};
    NEAR(lab_spearman(x, up, 4), 1.0);
    NEAR(lab_spearman(x, down, 4), -1.0);
    NEAR(lab_spearman(x, ties, 4), 4.0 / sqrt(20.0));
    NEAR(lab_spearman(x, flat, 4), 0.0);
}

static lab_residency_row row(const char *label, int items, int warps, double ms)
{
    lab_residency_row r;
    memset(&r, 0, sizeof r);
    snprintf(r.label, sizeof r.label, "%s", label);
    r.items = items;
    r.warps_per_sm = warps;
    r.max_warps_per_sm = 64;
    r.loads_per_thread = 2 * items;
    r.bytes_per_load = 4;
    r.bytes = 3e6;
    r.median_ms = ms;
    r.checked = true;
    return r;
}

/* lab-residency-1: A (64 warps x 2 = 128 in flight, 1.0 ms) is fastest.
   Within 10% (<= 1.1 ms): A and C (32 warps, 1.1 ms); C has fewer warps.
   Equal loads in flight (128) at occupancies >= 4x apart: only A and B
   (64 vs 16 warps), ratio 1.2 / 1.0; A and C are only 2x apart. */
static void residency_summary_test(void **state)
{
    (void)state;
    lab_residency_row rows[] = {row("A", 1, 64, 1.0), row("B", 4, 16, 1.2), row("C", 2, 32, 1.1),
                                row("D", 1, 8, 5.0)};
    lab_residency_summary s;
    lab_residency_summarise(rows, 4, &s);
    assert_int_equal(s.fastest, 0);
    assert_int_equal(s.lowest_within, 2);
    assert_int_equal(s.pair_high, 0);
    assert_int_equal(s.pair_low, 1);
    assert_int_equal(s.pair_count, 1);
    NEAR(s.pair_time_ratio, 1.2);
    assert_int_equal(lab_residency_in_flight(&rows[1]), 128);
}

/* lab-residency-2: no pair when no two rows share loads in flight. */
static void residency_no_pair_test(void **state)
{
    (void)state;
    lab_residency_row rows[] = {row("A", 1, 64, 1.0), row("B", 1, 8, 3.0)};
    lab_residency_summary s;
    lab_residency_summarise(rows, 2, &s);
    assert_int_equal(s.pair_high, -1);
    assert_int_equal(s.pair_count, 0);
}

/* lab-model-1: rows made by a known model (latency 500 ns, 3000 GB/s,
   factor 1.5, 100 SMs) through libocc's own prediction: the check must
   pick the one-item row nearest 1500 GB/s, recover the factor, fit no
   per-warp rate (no row falls short of the latency term), and find zero
   error and perfect rank order on the rest. */
static void model_round_trip_test(void **state)
{
    (void)state;
    occ_memory_model truth = {
        .latency_ns = 500, .peak_gb_per_s = 3000, .loaded_latency_factor = 1.5, .sm_count = 100};
    const int warps[] = {4, 8, 12, 16, 6, 10};
    const int items[] = {1, 1, 1, 1, 2, 2};
    lab_residency_row rows[6];
    double measured[6];
    for (int i = 0; i < 6; i++) {
        rows[i] = row("r", items[i], warps[i], 1.0);
        occ_latency_input in = {.warps_per_sm = warps[i],
                                .loads_in_flight_per_thread = 2 * items[i],
                                .bytes_per_load = 4,
                                .bytes_moved_per_byte_loaded = 1.5};
        occ_latency_result res;
        assert_int_equal(occ_latency_predict(&truth, &in, &res, NULL), OCC_OK);
        measured[i] = res.predicted_gb_per_s;
        assert_true(measured[i] < 0.98 * truth.peak_gb_per_s); /* unsaturated */
        rows[i].median_ms = rows[i].bytes / (measured[i] * 1e6);
    }
    int expect_fit = -1;
    for (int i = 0; i < 6; i++) {
        if (items[i] == 1 &&
            (expect_fit < 0 || fabs(measured[i] - 1500) < fabs(measured[expect_fit] - 1500))) {
            expect_fit = i;
        }
    }
    lab_model_check m;
    lab_model_check_run(rows, 6, 3000, 500, 100, &m);
    assert_true(m.ok);
    assert_int_equal(m.fit_row, expect_fit);
    assert_true(fabs(m.model.loaded_latency_factor - 1.5) < 1e-6);
    /* The truth has no per-warp rate: the fewest-warp row meets the latency
       term, so no rate is fitted and the row stays among those checked. */
    assert_int_equal(m.warp_fit_row, -1);
    assert_true(m.model.max_gb_per_s_per_warp == 0.0);
    assert_int_equal(m.rows_compared, 5);
    assert_true(m.median_error < 1e-6);
    assert_true(m.max_error < 1e-6);
    NEAR(m.rank_correlation, 1.0);
}

/* lab-model-3: rows from a truth with a per-warp rate that binds only its
   lone high-ILP row: the check fits the rate on that row, recovers it, and
   predicts the others exactly. */
static void model_warp_rate_test(void **state)
{
    (void)state;
    occ_memory_model truth = {
        .latency_ns = 500, .peak_gb_per_s = 3000, .loaded_latency_factor = 1.5, .sm_count = 100};
    const int warps[] = {4, 8, 16, 32, 4};
    const int items[] = {1, 1, 1, 1, 16};
    occ_latency_input high = {.warps_per_sm = 4,
                              .loads_in_flight_per_thread = 32,
                              .bytes_per_load = 4,
                              .bytes_moved_per_byte_loaded = 1.5};
    occ_latency_result free_run;
    assert_int_equal(occ_latency_predict(&truth, &high, &free_run, NULL), OCC_OK);
    /* half of what its loads in flight would move */
    truth.max_gb_per_s_per_warp = 0.5 * free_run.predicted_gb_per_s / 1.5 / (4 * 100);
    lab_residency_row rows[5];
    for (int i = 0; i < 5; i++) {
        rows[i] = row("r", items[i], warps[i], 1.0);
        occ_latency_input in = {.warps_per_sm = warps[i],
                                .loads_in_flight_per_thread = 2 * items[i],
                                .bytes_per_load = 4,
                                .bytes_moved_per_byte_loaded = 1.5};
        occ_latency_result res;
        assert_int_equal(occ_latency_predict(&truth, &in, &res, NULL), OCC_OK);
        assert_int_equal(res.bound == OCC_BOUND_WARP_RATE, i == 4);
        rows[i].median_ms = rows[i].bytes / (res.predicted_gb_per_s * 1e6);
    }
    lab_model_check m;
    lab_model_check_run(rows, 5, 3000, 500, 100, &m);
    assert_true(m.ok);
    assert_int_equal(m.warp_fit_row, 4);
    NEAR(m.model.max_gb_per_s_per_warp, truth.max_gb_per_s_per_warp);
    assert_true(fabs(m.model.loaded_latency_factor - 1.5) < 1e-6);
    assert_int_equal(m.rows_compared, 3);
    assert_true(m.max_error < 1e-6);
}

/* lab-model-2: without a ceiling the check says why instead. */
static void model_needs_inputs_test(void **state)
{
    (void)state;
    lab_residency_row rows[] = {row("A", 1, 64, 1.0), row("B", 1, 8, 3.0), row("C", 1, 4, 6.0)};
    lab_model_check m;
    lab_model_check_run(rows, 3, 0.0, 500, 100, &m);
    assert_false(m.ok);
    assert_non_null(strstr(m.why, "ceiling"));
}

/* lab-blocksize-1: times 1.0, 1.04, 1.06, 1.2 with the last suggested: two
   sizes within 5%, the suggestion is not the fastest, 1.2x its time. */
static void blocksize_summary_test(void **state)
{
    (void)state;
    lab_blocksize_row rows[4];
    memset(rows, 0, sizeof rows);
    const double ms[] = {1.0, 1.04, 1.06, 1.2};
    for (int i = 0; i < 4; i++) {
        rows[i].threads = 256 * (i + 1);
        rows[i].median_ms = ms[i];
    }
    rows[3].suggested = true;
    lab_blocksize_summary s;
    lab_blocksize_summarise(rows, 4, &s);
    assert_int_equal(s.fastest, 0);
    assert_int_equal(s.within_5_percent, 2);
    assert_int_equal(s.suggested, 3);
    assert_false(s.suggested_is_fastest);
    NEAR(s.suggested_time_ratio, 1.2);
}

/* lab-spill-1: occupancy rises at rows 2 and 3; row 2 is the first to be
   more than 5% slower than the row before (2.3 / 1.0). */
static void spill_summary_test(void **state)
{
    (void)state;
    lab_spill_row rows[4];
    memset(rows, 0, sizeof rows);
    const int warps[] = {24, 24, 32, 40};
    const double ms[] = {1.0, 1.0, 2.3, 3.0};
    for (int i = 0; i < 4; i++) {
        rows[i].min_blocks = i + 1;
        rows[i].warps_per_sm = warps[i];
        rows[i].max_warps_per_sm = 64;
        rows[i].median_ms = ms[i];
    }
    lab_spill_summary s;
    lab_spill_summarise(rows, 4, &s);
    assert_int_equal(s.fastest, 0);
    assert_int_equal(s.turn, 2);
    NEAR(s.turn_time_ratio, 2.3);
}

/* lab-timeline-1: 2 SMs, 2 slots each, blocks of 8 warps (64 max a SM).
   SM 0 runs [0,10], [0,10], [10,20]; SM 1 runs [0,10], [0,10].
   Duration 20 ns; busy block-ns 50, so achieved = 50 x 8 / (20 x 2 x 64)
   = 0.15625 against 16 / 64 = 0.25 theoretical. Waves: 5 / 4 = 1.25, and
   SM 0 ran 3 blocks in 2 slots: 2 waves seen. All 4 slots are busy from
   0 to 10, so the tail is 10 ns; at 5 ns 4 blocks x 8 warps of 128 are
   resident (0.25), at 15 ns one (0.0625). */
static void timeline_test(void **state)
{
    (void)state;
    lab_block blocks[] = {{0, 0, 10}, {0, 0, 10}, {0, 10, 20}, {1, 0, 10}, {1, 0, 10}};
    lab_launch l;
    memset(&l, 0, sizeof l);
    snprintf(l.name, sizeof l.name, "t");
    l.grid = 5;
    l.blocks_per_sm = 2;
    l.warps_per_sm = 16;
    l.max_warps_per_sm = 64;
    l.sm_count = 2;
    l.blocks = blocks;
    l.block_count = 5;
    lab_timeline_summary t;
    char msg[128];
    assert_true(lab_timeline_analyse(&l, &t, msg, sizeof msg));
    NEAR(t.duration_ns, 20.0);
    NEAR(t.achieved_occupancy, 0.15625);
    NEAR(t.theoretical_occupancy, 0.25);
    NEAR(t.waves_theoretical, 1.25);
    assert_int_equal(t.waves_measured, 2);
    NEAR(t.tail_ns, 10.0);
    NEAR(t.full_ns, 10.0);
    assert_int_equal(t.sms_used, 2);
    assert_int_equal(t.min_blocks_per_sm, 2);
    assert_int_equal(t.max_blocks_per_sm, 3);
    NEAR(t.occupancy_over_time[LAB_TIMELINE_SAMPLES / 4], 0.25);
    NEAR(t.occupancy_over_time[3 * LAB_TIMELINE_SAMPLES / 4], 0.0625);
}

/* lab-timeline-2: a block on an SM the GPU does not have is an error. */
static void timeline_bad_sm_test(void **state)
{
    (void)state;
    lab_block blocks[] = {{0, 0, 10}, {7, 0, 10}};
    lab_launch l;
    memset(&l, 0, sizeof l);
    snprintf(l.name, sizeof l.name, "bad");
    l.grid = 2;
    l.blocks_per_sm = 1;
    l.warps_per_sm = 8;
    l.max_warps_per_sm = 64;
    l.sm_count = 2;
    l.blocks = blocks;
    l.block_count = 2;
    lab_timeline_summary t;
    char msg[128];
    assert_false(lab_timeline_analyse(&l, &t, msg, sizeof msg));
    assert_non_null(strstr(msg, "SM 7"));
}

/* Reads `size` bytes of records (NULs allowed) through lab_records_read. */
static bool read_bytes(const char *bytes, size_t size, lab_data *d, cli_error *err)
{
    FILE *f = tmpfile();
    assert_non_null(f);
    assert_int_equal(fwrite(bytes, 1, size, f), size);
    rewind(f);
    bool ok = lab_records_read(f, "test.jsonl", d, err);
    fclose(f);
    return ok;
}

static bool read_text(const char *text, lab_data *d, cli_error *err)
{
    return read_bytes(text, strlen(text), d, err);
}

/* lab-records-1..3: a malformed line names its number; a block without
   its launch is refused; unknown kinds are skipped. */
static void records_test(void **state)
{
    (void)state;
    lab_data *d = malloc(sizeof *d);
    assert_non_null(d);
    cli_error err;
    assert_false(read_text("{\"record\":\"done\"}\n{oops\n", d, &err));
    assert_int_equal(err.code, EXIT_DATA);
    assert_non_null(strstr(err.message, "test.jsonl: line 2"));
    lab_data_free(d);
    assert_false(read_text("{\"record\":\"block\",\"launch\":\"x\",\"block\":0,\"sm\":0,"
                           "\"start_ns\":0,\"end_ns\":1}\n",
                           d, &err));
    assert_non_null(strstr(err.message, "no launch record"));
    lab_data_free(d);
    assert_true(
        read_text("{\"record\":\"newer\",\"a\":1}\n\n  \n{\"record\":\"done\"}\n", d, &err));
    assert_true(d->done);
    lab_data_free(d);
    free(d);
}

/* lab-records-4: the "lab" record's format: 1 is read; 999 (or 1.5, or a
   string) is refused naming the value and the format this occ reads. */
static void records_format_test(void **state)
{
    (void)state;
    lab_data *d = malloc(sizeof *d);
    assert_non_null(d);
    cli_error err;
    assert_true(read_text("{\"record\":\"lab\",\"format\":1}\n{\"record\":\"done\"}\n", d, &err));
    lab_data_free(d);
    assert_false(
        read_text("{\"record\":\"lab\",\"format\":999}\n{\"record\":\"done\"}\n", d, &err));
    assert_non_null(strstr(err.message, "line 1: records format 999 is unknown; this occ reads "
                                        "format 1"));
    assert_false(d->done); /* nothing after the refusal is read */
    lab_data_free(d);
    assert_false(read_text("{\"record\":\"lab\",\"format\":1.5}\n", d, &err));
    assert_non_null(strstr(err.message, "records format 1.5 is unknown"));
    lab_data_free(d);
    assert_false(read_text("{\"record\":\"lab\",\"format\":\"1\"}\n", d, &err));
    assert_non_null(strstr(err.message, "'format' is not a number"));
    lab_data_free(d);
    free(d);
}

static double seconds_since(const struct timespec *start)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - start->tv_sec) + (double)(now.tv_nsec - start->tv_nsec) / 1e9;
}

/* lab-records-5..7: lines are bounded. A line of exactly the limit is
   read; one byte more is refused naming the limit; a 300 MB line without a
   line end (a sparse file: no disk, no time to write) is refused once the
   limit is read, promptly, with the rest of the file left unread. */
static void records_line_limit_test(void **state)
{
    (void)state;
    lab_data *d = malloc(sizeof *d);
    char *line = malloc(LAB_MAX_LINE_BYTES + 2);
    assert_true(d != NULL && line != NULL);
    cli_error err;
    const char *done = "{\"record\":\"done\"}";
    memset(line, ' ', LAB_MAX_LINE_BYTES + 1);
    memcpy(line, done, strlen(done));
    line[LAB_MAX_LINE_BYTES] = '\n';
    assert_true(read_bytes(line, LAB_MAX_LINE_BYTES + 1, d, &err));
    assert_true(d->done);
    lab_data_free(d);
    line[LAB_MAX_LINE_BYTES] = ' ';
    line[LAB_MAX_LINE_BYTES + 1] = '\n';
    assert_false(read_bytes(line, LAB_MAX_LINE_BYTES + 2, d, &err));
    assert_non_null(strstr(err.message, "line 1: longer than the limit of 65536 bytes"));
    lab_data_free(d);

    FILE *f = tmpfile();
    assert_non_null(f);
    assert_int_equal(ftruncate(fileno(f), 300L * 1000 * 1000), 0);
    struct timespec start;
    clock_gettime(CLOCK_MONOTONIC, &start);
    assert_false(lab_records_read(f, "sparse", d, &err));
    assert_true(seconds_since(&start) < 2.0);
    assert_non_null(strstr(err.message, "sparse: line 1: longer than the limit of 65536 bytes"));
    /* read up to the limit and the one byte that shows the line goes on */
    assert_int_equal(ftell(f), LAB_MAX_LINE_BYTES + 1);
    fclose(f);
    lab_data_free(d);
    free(line);
    free(d);
}

/* lab-records-8: a NUL byte inside a short line is named, not parsed. */
static void records_nul_test(void **state)
{
    (void)state;
    lab_data *d = malloc(sizeof *d);
    assert_non_null(d);
    cli_error err;
    static const char bytes[] = "{\"record\":\"done\"}\n{\"record\"\0:\"done\"}\n";
    assert_false(read_bytes(bytes, sizeof bytes - 1, d, &err));
    assert_non_null(strstr(err.message, "line 2: holds a NUL byte at byte 10"));
    lab_data_free(d);
    free(d);
}

/* lab-records-9..14: values no occ-lab writes are refused with the line,
   the field and the value: a launch name that would leave the --out
   directory, blocks out of order, a time of -1, a warp count whose product
   with the loads would overflow, a control character in a label, a grid
   past the limit. */
static void records_values_test(void **state)
{
    (void)state;
    lab_data *d = malloc(sizeof *d);
    assert_non_null(d);
    cli_error err;
#define LAUNCH(name, grid)                                                                         \
    "{\"record\":\"launch\",\"launch\":\"" name "\",\"grid\":" #grid ",\"threads\":32,"            \
    "\"blocks_per_sm\":1,\"warps_per_sm\":1,\"max_warps_per_sm\":64,\"sm_count\":2,"               \
    "\"kernel_ms\":1}\n"
#define BLOCK(index)                                                                               \
    "{\"record\":\"block\",\"launch\":\"t\",\"block\":" #index ",\"sm\":0,\"start_ns\":0,"         \
    "\"end_ns\":1}\n"
#define RESIDENCY(label, warps, ms)                                                                \
    "{\"record\":\"residency\",\"label\":\"" label "\",\"items\":1,"                               \
    "\"launch_bound_min_blocks\":0,\"dyn_smem_bytes\":0,\"regs\":16,\"local_bytes\":0,"            \
    "\"blocks_per_sm\":8,\"warps_per_sm\":" #warps ",\"max_warps_per_sm\":64,"                     \
    "\"loads_per_thread\":2,\"bytes_per_load\":4,\"bytes\":1000,\"median_ms\":" #ms ","            \
    "\"checked\":true}\n"
    assert_true(read_text(LAUNCH("t", 2) BLOCK(0) BLOCK(1), d, &err));
    assert_int_equal(d->launches[0].block_count, 2);
    lab_data_free(d);
    assert_false(read_text(LAUNCH("../../x", 2), d, &err));
    assert_non_null(strstr(err.message, "line 1: launch field 'launch' is '../../x'; a launch "
                                        "name may hold only letters, digits"));
    lab_data_free(d);
    assert_false(read_text(LAUNCH("t", 3) BLOCK(0) BLOCK(0), d, &err));
    assert_non_null(strstr(err.message, "line 3: block 0 of launch 't' is out of order (block 1 "
                                        "comes next)"));
    lab_data_free(d);
    assert_false(read_text(LAUNCH("t", 16777217), d, &err));
    assert_non_null(strstr(err.message, "'grid' is 16777217; it must be a whole number from 1 "
                                        "to 16777216"));
    lab_data_free(d);
    assert_true(read_text(RESIDENCY("A", 64, 0.5), d, &err));
    assert_int_equal(d->residency_count, 1);
    lab_data_free(d);
    assert_false(read_text(RESIDENCY("A", 64, -1), d, &err));
    assert_non_null(strstr(err.message, "residency field 'median_ms' is -1; a measured time "
                                        "must be above 0"));
    lab_data_free(d);
    assert_false(read_text(RESIDENCY("A", 2000000000, 1), d, &err));
    assert_non_null(strstr(err.message, "'warps_per_sm' is 2000000000; it must be a whole "
                                        "number from 0 to 32768"));
    lab_data_free(d);
    assert_false(read_text(RESIDENCY("A\\u001b[2J", 64, 1), d, &err));
    assert_non_null(strstr(err.message, "'label' holds the control character 0x1b"));
    lab_data_free(d);
#undef LAUNCH
#undef BLOCK
#undef RESIDENCY
    free(d);
}

/* lab-records-15: a name longer than its field is cut at a character
   boundary: "é" is two bytes, and 31 bytes hold 15 of them, not 15.5. */
static void records_utf8_cut_test(void **state)
{
    (void)state;
    lab_data *d = malloc(sizeof *d);
    assert_non_null(d);
    cli_error err;
    char text[512] = "{\"record\":\"residency\",\"label\":\"";
    for (int i = 0; i < 20; i++) {
        strcat(text, "\xc3\xa9");
    }
    strcat(text, "\",\"items\":1,\"launch_bound_min_blocks\":0,\"dyn_smem_bytes\":0,\"regs\":16,"
                 "\"local_bytes\":0,\"blocks_per_sm\":8,\"warps_per_sm\":64,"
                 "\"max_warps_per_sm\":64,\"loads_per_thread\":2,\"bytes_per_load\":4,"
                 "\"bytes\":1000,\"median_ms\":1,\"checked\":true}\n");
    assert_true(read_text(text, d, &err));
    assert_int_equal(strlen(d->residency[0].label), 30);
    lab_data_free(d);
    free(d);
}

/* ---------------------------------------------------------- occ lab --- */

static const char *fixture(void)
{
    return test_data_path("lab-small.jsonl");
}

/* lab-cli-1: saved records analysed without a GPU; the verdict lines end
   the output with the rows worked out in residency_summary_test's shape
   (A fastest at 100 GB/s, half the 200 GB/s ceiling; C lowest within 10%;
   A and B the equal-in-flight pair, ratio 1.20). */
static void cli_records_test(void **state)
{
    (void)state;
    assert_int_equal(OCC(NULL, "lab", "residency", "--records", fixture()), EXIT_OK);
    assert_non_null(strstr(last.out, "fastest: A at 100% occupancy, 100 GB/s, 50.0% of"));
    assert_non_null(strstr(last.out, "lowest occupancy within 10% of the fastest: C at 50.0%"));
    assert_non_null(strstr(last.out, "A at 100.0% and B at 25.0% occupancy (4x apart), time "
                                     "ratio 1.20"));
    assert_int_equal(OCC(NULL, "lab", "residency", "--records", fixture(), "--json"), EXIT_OK);
    assert_non_null(strstr(last.out, "\"schema\": \"occ.lab\""));
    assert_non_null(strstr(last.out, "\"lowest_occupancy_within_10_percent\": \"C\""));
    assert_int_equal(OCC(NULL, "lab", "residency", "--records", fixture(), "--csv"), EXIT_OK);
    assert_non_null(strstr(last.out, "\nB,8,0,200000,32,0,2,0.2500,256,0.012000,83.3,0.4167,"));
}

/* lab-cli-2: an experiment the records lack: one line, exit 1. */
static void cli_missing_test(void **state)
{
    (void)state;
    assert_int_equal(OCC(NULL, "lab", "timeline", "--records", fixture()), EXIT_DATA);
    assert_int_equal(line_count(last.err), 1);
    assert_non_null(strstr(last.err, "no timeline launches"));
}

/* lab-cli-3..4: no occ-lab, and an occ-lab that finds no GPU: one line
   saying why, exit 1. */
static void cli_no_lab_test(void **state)
{
    (void)state;
    setenv("OCC_LAB", "/nonexistent/occ-lab", 1);
    assert_int_equal(OCC(NULL, "lab", "verify"), EXIT_DATA);
    assert_int_equal(line_count(last.err), 1);
    assert_non_null(strstr(last.err, "occ-lab is not built"));

    char script[] = "/tmp/occ-lab-fake-XXXXXX";
    int fd = mkstemp(script);
    assert_true(fd >= 0);
    const char *body = "#!/bin/sh\n"
                       "echo '{\"record\":\"error\",\"kind\":\"no_gpu\",\"message\":\"none "
                       "here\"}'\nexit 3\n";
    assert_int_equal(write(fd, body, strlen(body)), (ssize_t)strlen(body));
    close(fd);
    assert_int_equal(chmod(script, 0755), 0);
    setenv("OCC_LAB", script, 1);
    assert_int_equal(OCC(NULL, "lab", "verify"), EXIT_DATA);
    assert_int_equal(line_count(last.err), 1);
    assert_non_null(strstr(last.err, "no CUDA GPU present (none here)"));
    unlink(script);
    unsetenv("OCC_LAB");
}

/* lab-cli-5: usage errors exit 2, with one line and the hint. */
static void cli_usage_test(void **state)
{
    (void)state;
    assert_int_equal(OCC(NULL, "lab"), EXIT_USAGE);
    assert_non_null(strstr(last.err, "no experiment named; experiments are residency,"));
    assert_int_equal(OCC(NULL, "lab", "nonsense"), EXIT_USAGE);
    assert_non_null(strstr(last.err, "'nonsense' is not an experiment; experiments are"));
    assert_int_equal(OCC(NULL, "lab", "residncy"), EXIT_USAGE);
    assert_non_null(strstr(last.err, "'residncy' is not an experiment; did you mean "
                                     "'residency'?"));
    assert_int_equal(OCC(NULL, "lab", "residency", "--bogus"), EXIT_USAGE);
    assert_non_null(strstr(last.err, "option --bogus: is unknown"));
    assert_int_equal(OCC(NULL, "lab", "residency", "spill"), EXIT_USAGE);
    assert_non_null(strstr(last.err, "argument 'spill': one experiment at a time"));
    assert_int_equal(OCC(NULL, "lab", "residency", "--json", "--csv"), EXIT_USAGE);
    assert_non_null(strstr(last.err, "options --json and --csv: give one"));
    assert_int_equal(OCC(NULL, "lab", "residency", "--records"), EXIT_USAGE);
    assert_non_null(strstr(last.err, "option --records: needs a value (FILE)"));
    assert_int_equal(OCC(NULL, "lab", "residency", "--out="), EXIT_USAGE);
    assert_non_null(strstr(last.err, "option --out: is empty; give a directory"));
    assert_int_equal(line_count(last.err), 2); /* the line and the --help hint */
    assert_int_equal(OCC(NULL, "lab", "--help"), EXIT_OK);
    assert_non_null(strstr(last.out, "example"));
}

/* lab-cli-6: the help names each experiment's source plainly, by the
   document's title and the experiment (users have no "seed" files), with no
   course-day history wording, in description lines of at most 80 columns,
   and `occ help lab` prints the same. */
static void cli_help_test(void **state)
{
    (void)state;
    assert_int_equal(OCC(NULL, "lab", "--help"), EXIT_OK);
    char *help = strdup(last.out);
    assert_non_null(help);
    assert_true(starts_with(help, "occ lab - measure occupancy's effects"));
    assert_null(strstr(help, "Day "));
    assert_null(strstr(help, "seed"));
    assert_null(strstr(help, "day "));
    assert_non_null(strstr(help, "the TLP-vs-ILP experiment of \"Occupancy is not\n"));
    assert_non_null(strstr(help, "the goal\", a GPU course's page; docs/sources.md)"));
    assert_non_null(strstr(help, "(the same page's block-size comparison)"));
    assert_non_null(strstr(help, "spills (the same page's launch-bounds comparison)"));
    assert_non_null(strstr(help, "--records FILE"));
    /* the description's lines: at most 80 columns (options.h) */
    const char *text = lab_spec.help->description;
    for (const char *end; *text != '\0'; text = *end == '\n' ? end + 1 : end) {
        end = text + strcspn(text, "\n");
        assert_true(end - text <= 80);
    }
    assert_int_equal(OCC(NULL, "lab", "residency", "-h"), EXIT_OK);
    assert_string_equal(last.out, help);
    assert_int_equal(OCC(NULL, "help", "lab"), EXIT_OK);
    assert_string_equal(last.out, help);
    free(help);
}

/* lab-cli-7: records with no line ends (/dev/zero) are refused at the line
   limit, promptly and in one line, instead of filling memory. */
static void cli_endless_line_test(void **state)
{
    (void)state;
    struct timespec start;
    clock_gettime(CLOCK_MONOTONIC, &start);
    assert_int_equal(OCC(NULL, "lab", "all", "--records", "/dev/zero"), EXIT_DATA);
    assert_true(seconds_since(&start) < 5.0);
    assert_int_equal(line_count(last.err), 1);
    assert_non_null(strstr(last.err, "occ lab: /dev/zero: line 1: longer than the limit of "
                                     "65536 bytes"));
}

/* lab-cli-8: records of an unknown format: one line naming the value and
   the format known, exit 1. */
static void cli_unknown_format_test(void **state)
{
    (void)state;
    assert_int_equal(OCC("{\"record\":\"lab\",\"format\":999,\"occ_version\":\"9.0.0\"}\n", "lab",
                         "residency", "--records", "-"),
                     EXIT_DATA);
    assert_int_equal(line_count(last.err), 1);
    assert_non_null(strstr(last.err, "occ lab: <stdin>: line 1: records format 999 is unknown; "
                                     "this occ reads format 1"));
}

/* lab-cli-9: --records DIR/records.jsonl --out DIR keeps the records (the
   copy would otherwise empty its own source) and writes the plots; a
   directory given as the records is named. */
static void cli_out_dir_test(void **state)
{
    (void)state;
    char dir[] = "/tmp/occ-lab-out-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char records[64], plot[64];
    snprintf(records, sizeof records, "%s/records.jsonl", dir);
    snprintf(plot, sizeof plot, "%s/residency-occupancy.svg", dir);
    FILE *from = fopen(fixture(), "rb");
    FILE *to = fopen(records, "wb");
    assert_true(from != NULL && to != NULL);
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, from)) > 0) {
        assert_int_equal(fwrite(buf, 1, n, to), n);
    }
    long size = ftell(to);
    fclose(from);
    assert_int_equal(fclose(to), 0);
    assert_int_equal(OCC(NULL, "lab", "residency", "--records", records, "--out", dir), EXIT_OK);
    struct stat st;
    assert_int_equal(stat(records, &st), 0);
    assert_int_equal(st.st_size, size);
    assert_int_equal(stat(plot, &st), 0);
    assert_true(st.st_size > 0);

    assert_int_equal(OCC(NULL, "lab", "residency", "--records", dir), EXIT_DATA);
    assert_non_null(strstr(last.err, "it is a directory"));
    unlink(plot);
    snprintf(plot, sizeof plot, "%s/residency-in-flight.svg", dir);
    unlink(plot);
    unlink(records);
    assert_int_equal(rmdir(dir), 0);
}

/* lab-gpu-1: on the GPU present, occ lab verify --quick finds libocc and
   the driver agreeing everywhere. Skipped, with one line saying why, where
   occ-lab is not built or finds no GPU. */
static void gpu_verify_test(void **state)
{
    (void)state;
    const char *occ = getenv("OCC_BINARY");
    char lab[4096];
    const char *slash = occ != NULL ? strrchr(occ, '/') : NULL;
    if (slash == NULL) {
        fprintf(stderr, "gpu_verify_test: skipped: OCC_BINARY is not set (run under ctest)\n");
        skip();
    }
    snprintf(lab, sizeof lab, "%.*s/occ-lab", (int)(slash - occ), occ);
    if (access(lab, X_OK) != 0) {
        fprintf(stderr, "gpu_verify_test: skipped: occ-lab is not built (no %s)\n", lab);
        skip();
    }
    setenv("OCC_LAB", lab, 1);
    int code = OCC(NULL, "lab", "verify", "--quick");
    unsetenv("OCC_LAB");
    if (code == EXIT_DATA && strstr(last.err, "no CUDA GPU present") != NULL) {
        fprintf(stderr, "gpu_verify_test: skipped: %s", last.err);
        skip();
    }
    assert_int_equal(code, EXIT_OK);
    assert_non_null(strstr(last.out, " 0 mismatches"));
}

/* lab-gpcs-1: the H200's records of `occ-lab gpcs clusters verify`
   (tests/data/README.md): the GPCs joined from the SMs that shared
   clusters are the layout the separate cluster probe measured
   (tests/data/h200-clusters/), every driver answer equals libocc's on it,
   and the saved --gpu-file gives the driver's 15 clusters of 7. */
static void cli_gpcs_test(void **state)
{
    (void)state;
    const char *records = test_data_path("h200-lab/lab-clusters.jsonl");
    char dir[] = "/tmp/occ-lab-gpcs-XXXXXX";
    assert_non_null(mkdtemp(dir));
    assert_int_equal(OCC(NULL, "lab", "gpcs", "--records", records, "--out", dir), EXIT_OK);
    assert_non_null(strstr(last.out, "SMs per GPC: 18,18,16,16,16,16,16,8,2,2,2,2"));
    assert_non_null(strstr(last.out, "32 of 32 answers equal libocc's"));
    char layout[128];
    snprintf(layout, sizeof layout, "%s/gpu-layout.json", dir);
    assert_int_equal(OCC(NULL, "calc", "--gpu-file", layout, "--threads", "1024", "--regs", "64",
                         "--cluster", "7", "--json"),
                     EXIT_OK);
    assert_non_null(strstr(last.out, "\"max_active_clusters\": 15"));
    unlink(layout);
    char saved[128];
    snprintf(saved, sizeof saved, "%s/records.jsonl", dir);
    unlink(saved);
    rmdir(dir);
    /* and verify's cluster sweep: every comparison equal */
    assert_int_equal(OCC(NULL, "lab", "verify", "--records", records), EXIT_OK);
    assert_non_null(strstr(last.out, "499712 comparisons of max active clusters"));
    assert_non_null(strstr(last.out, "0 mismatches"));
}

/* lab-gpcs-2: one driver answer changed: occ lab gpcs says so and fails. */
static void cli_gpcs_mismatch_test(void **state)
{
    (void)state;
    FILE *in = fopen(test_data_path("h200-lab/lab-clusters.jsonl"), "r");
    assert_non_null(in);
    char path[] = "/tmp/occ-lab-gpcs-bad-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *out = fdopen(fd, "w");
    char line[4096];
    bool changed = false;
    while (fgets(line, sizeof line, in) != NULL) {
        char *at = strstr(line, "\"driver_active_clusters\":15}");
        if (!changed && strstr(line, "\"gpcs_driver\"") != NULL && at != NULL) {
            strcpy(at, "\"driver_active_clusters\":16}\n");
            changed = true;
        }
        fputs(line, out);
    }
    fclose(in);
    fclose(out);
    assert_true(changed);
    OCC(NULL, "lab", "gpcs", "--records", path);
    unlink(path);
    assert_int_equal(last.code, EXIT_DATA);
    assert_true(last.err[0] != '\0');
}

/* lab-clusters-1: the persistent cluster kernel on the H200: for 7-block
   clusters a grid of max active clusters (15) uses 105 SMs and leaves 27
   idle, and is faster than the grid sized by SM count (18 clusters). */
static void cli_clusters_test(void **state)
{
    (void)state;
    assert_int_equal(
        OCC(NULL, "lab", "clusters", "--records", test_data_path("h200-lab/lab-clusters.jsonl")),
        EXIT_OK);
    char line[256];
    const char *rows[2] = {NULL, NULL};
    for (int i = 0; line_at(last.out, i, line, sizeof line)[0] != '\0' || i < 3; i++) {
        if (strncmp(line, "     7 sms ", 11) == 0) {
            rows[0] = strstr(last.out, line);
        } else if (strncmp(line, "     7 active ", 14) == 0) {
            rows[1] = strstr(last.out, line);
        }
        if (i > 200) {
            break;
        }
    }
    assert_non_null(rows[0]);
    assert_non_null(rows[1]);
    double ms_sms = 0, ms_active = 0;
    int clusters = 0, blocks = 0, driver = 0, occ = 0, used = 0, idle = 0;
    assert_int_equal(sscanf(rows[1], " 7 active %d %d %d %d %d %d %lf", &clusters, &blocks, &driver,
                            &occ, &used, &idle, &ms_active),
                     7);
    assert_int_equal(clusters, 15);
    assert_int_equal(driver, occ);
    assert_int_equal(used, 105);
    assert_int_equal(idle, 27);
    assert_int_equal(sscanf(rows[0], " 7 sms %d %d %d %d %d %d %lf", &clusters, &blocks, &driver,
                            &occ, &used, &idle, &ms_sms),
                     7);
    assert_int_equal(clusters, 18);
    assert_true(ms_active < ms_sms);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(cli_gpcs_test),
        cmocka_unit_test(cli_gpcs_mismatch_test),
        cmocka_unit_test(cli_clusters_test),
        cmocka_unit_test(median_test),
        cmocka_unit_test(spearman_test),
        cmocka_unit_test(residency_summary_test),
        cmocka_unit_test(residency_no_pair_test),
        cmocka_unit_test(model_round_trip_test),
        cmocka_unit_test(model_needs_inputs_test),
        cmocka_unit_test(model_warp_rate_test),
        cmocka_unit_test(blocksize_summary_test),
        cmocka_unit_test(spill_summary_test),
        cmocka_unit_test(timeline_test),
        cmocka_unit_test(timeline_bad_sm_test),
        cmocka_unit_test(records_test),
        cmocka_unit_test(records_format_test),
        cmocka_unit_test(records_line_limit_test),
        cmocka_unit_test(records_nul_test),
        cmocka_unit_test(records_values_test),
        cmocka_unit_test(records_utf8_cut_test),
        cmocka_unit_test(cli_records_test),
        cmocka_unit_test(cli_missing_test),
        cmocka_unit_test(cli_no_lab_test),
        cmocka_unit_test(cli_usage_test),
        cmocka_unit_test(cli_help_test),
        cmocka_unit_test(cli_endless_line_test),
        cmocka_unit_test(cli_unknown_format_test),
        cmocka_unit_test(cli_out_dir_test),
        cmocka_unit_test(gpu_verify_test),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
