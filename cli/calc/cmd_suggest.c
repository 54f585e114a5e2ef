/*
 * cmd_suggest.c - `occ suggest`: launch configuration advice. The block size
 * cudaOccupancyMaxPotentialBlockSize would pick (occ_max_potential_block_size),
 * every block size that reaches the maximum occupancy, and for a given
 * problem or grid the waves, the last wave's fill and the persistent grid
 * (occ_launch_waves).
 */
#include <math.h>
#include <string.h>

#include "calc_output.h"
#include "cluster_output.h"
#include "launch.h"
#include "output.h"
#include "values.h"

enum { OPT_ELEMENTS = LAUNCH_OPTION_COUNT, OPT_PER_THREAD, OPT_BLOCKS, OPT_SMS, OPT_JSON, OPT_END };

/* The largest problem and grid taken: 10^15 elements, and a grid of at most
   10^15 blocks (a grid that large needs gridDim.y or .z: see GRID_X_MAX). */
#define ELEMENTS_MAX 1000000000000000LL
#define BLOCKS_MAX 1000000000000000LL
/* CUDA's gridDim.x limit from compute capability 3.0 on (CUDA C++
   Programming Guide, "Technical Specifications per Compute Capability"). */
#define GRID_X_MAX 2147483647LL

#define ROW(id) [id - LAUNCH_OPTION_COUNT]
static const cli_option options[] = {
    ROW(OPT_ELEMENTS) = {OPT_ELEMENTS, "elements", "N",
                         "the problem size, 1..10^15: grid = ceil(N / (per-thread x block size))"},
    ROW(OPT_PER_THREAD) = {OPT_PER_THREAD, "per-thread", "K",
                           "elements each thread handles, 1..65536 (default 1)"},
    ROW(OPT_BLOCKS) = {OPT_BLOCKS, "blocks", "G",
                       "the grid size in blocks, 1..10^15 (instead of --elements)"},
    ROW(OPT_SMS) = {OPT_SMS, "sms", "N", "SM count, for a generic GPU entry (sm_90) that has none"},
    ROW(OPT_JSON) = {OPT_JSON, "json", NULL,
                     "print the advice as JSON (docs/json.md, occ.suggest)"},
};
#undef ROW
_Static_assert(sizeof options / sizeof options[0] == OPT_END - LAUNCH_OPTION_COUNT,
               "one entry per suggest option id");

static const cli_help help = {
    .name = "suggest",
    .summary = "the block size the occupancy API picks, waves and grid advice",
    .usage = "occ suggest --gpu NAME [--regs N] [--smem BYTES] [--dyn-smem BYTES] "
             "[--elements N [--per-thread K] | --blocks G] [options]",
    .description =
        "Launch configuration advice: the block size cudaOccupancyMaxPotentialBlockSize\n"
        "picks (the same answer: the largest block size with the most resident\n"
        "threads) and the grid that fills the GPU once; every block size that reaches\n"
        "the maximum occupancy; and, given --elements (with --per-thread) or --blocks,\n"
        "the waves per SM as Nsight reports them, how full the last wave is, and the\n"
        "persistent-grid size. --threads, if given, is your current block size, shown\n"
        "beside the pick. When no block size fits (the shared memory asked for is more\n"
        "than an SM has), it says so and exits 1.\n"
        "\n"
        "The pick is a starting point, not the fastest launch: measure a few sizes.",
    .examples = "occ suggest --gpu H200 --regs 64\n"
                "occ suggest --gpu A100 --regs 32 --smem 16K --elements 100000000 "
                "--per-thread 4",
};

static const cli_option_table tables[] = {LAUNCH_OPTION_TABLE,
                                          {options, OPT_END - LAUNCH_OPTION_COUNT}};
const cli_command_spec suggest_spec = {&help, tables, (int)(sizeof tables / sizeof tables[0])};

/* Below this fill of the last wave, and with few enough waves that the tail
   is a visible share of the launch, say that the tail costs time. */
#define MOSTLY_EMPTY_LAST_WAVE 0.5
#define TAIL_WARNING_MIN_IDLE 0.05

typedef struct suggest_args {
    long long elements;
    long long per_thread;
    long long blocks;
    long long sms;
    bool json;
} suggest_args;

static bool on_option(int id, const char *value, void *context, cli_error *err)
{
    suggest_args *a = context;
    long long *target = NULL;
    long long hi = 0;
    const char *what = NULL;
    switch (id) {
    case OPT_ELEMENTS: target = &a->elements, hi = ELEMENTS_MAX, what = "elements"; break;
    case OPT_PER_THREAD: target = &a->per_thread, hi = 65536, what = "elements per thread"; break;
    case OPT_BLOCKS: target = &a->blocks, hi = BLOCKS_MAX, what = "blocks"; break;
    case OPT_SMS: target = &a->sms, hi = 1024, what = "SMs"; break;
    case OPT_JSON: a->json = true; return true;
    default: return cli_error_set(err, EXIT_USAGE, "argument '%.80s': is not an option", value);
    }
    if (!cli_parse_int(value, 1, hi, target, err)) {
        return cli_error_prefix(err, "%s: ", what);
    }
    return true;
}

typedef struct advice {
    occ_block_size_result pick;
    int best_warps;
    int sizes[1024 / 32];
    int size_count;
    bool have_launch;
    long long grid_blocks;
    int launch_block_size;
    occ_result launch;
    occ_waves_result waves;
} advice;

static void print_sizes(FILE *out, const int *sizes, int n)
{
    /* Runs of consecutive multiples of 32 as ranges: 128-256, 512. */
    for (int i = 0; i < n;) {
        int j = i;
        while (j + 1 < n && sizes[j + 1] == sizes[j] + 32) {
            j++;
        }
        fprintf(out, "%s", i > 0 ? ", " : "");
        if (j - i >= 2) {
            fprintf(out, "%d-%d (every 32)", sizes[i], sizes[j]);
        } else if (j > i) {
            fprintf(out, "%d, %d", sizes[i], sizes[j]);
        } else {
            fprintf(out, "%d", sizes[i]);
        }
        i = j + 1;
    }
    fputc('\n', out);
}

/* Whether the last wave's idle slots are worth a warning: a mostly empty
   last wave that is a visible share of the whole launch (one wave in 113
   that is 1% idle is not). */
static bool tail_matters(const occ_waves_result *w)
{
    return w->last_wave_fraction < MOSTLY_EMPTY_LAST_WAVE &&
           w->tail_idle_fraction >= TAIL_WARNING_MIN_IDLE;
}

static void print_text(FILE *out, const occ_device *d, const suggest_args *a, const launch_args *la,
                       const advice *v)
{
    fprintf(out,
            "%s: cudaOccupancyMaxPotentialBlockSize picks %d threads per block: %d %s of "
            "%d warps per SM, %.1f%% occupancy; min grid %d blocks (one full wave on %d "
            "SMs).\n",
            d->name, v->pick.block_size, v->pick.blocks_per_sm,
            v->pick.blocks_per_sm == 1 ? "block" : "blocks", (v->pick.block_size + 31) / 32,
            v->pick.occupancy * 100.0, v->pick.min_grid_size, d->sm_count);
    fprintf(out, "\nBlock sizes that reach the maximum occupancy (%.1f%%): ",
            (double)v->best_warps / occ_device_max_warps_per_sm(d) * 100.0);
    print_sizes(out, v->sizes, v->size_count);
    if (la->threads_given) {
        occ_result r;
        occ_calc(d, &la->kernel, &r, NULL);
        fprintf(out, "Your %d threads per block: %d %s, %.1f%% occupancy.\n", r.threads_per_block,
                r.blocks_per_sm, r.blocks_per_sm == 1 ? "block" : "blocks", r.occupancy * 100.0);
    }
    if (v->have_launch) {
        const occ_waves_result *w = &v->waves;
        fprintf(out, "\nLaunch: %lld %s of %d %s", v->grid_blocks,
                cli_plural((double)v->grid_blocks, "block", "blocks"), v->launch_block_size,
                cli_plural(v->launch_block_size, "thread", "threads"));
        if (a->elements > 0) {
            fprintf(out, " (%lld %s, %lld per thread)", a->elements,
                    cli_plural((double)a->elements, "element", "elements"),
                    a->per_thread > 0 ? a->per_thread : 1);
        }
        fprintf(out,
                "\n  waves per SM: %.2f (%lld full %s, the last %.0f%% full: %lld of %lld "
                "block slots)\n  persistent grid: %lld blocks (%d per SM x %d SMs)\n",
                w->waves_per_sm, w->full_waves, w->full_waves == 1 ? "wave" : "waves",
                w->last_wave_fraction * 100.0, w->last_wave_blocks, w->persistent_grid_blocks,
                w->persistent_grid_blocks, v->launch.blocks_per_sm, d->sm_count);
        if (v->grid_blocks > GRID_X_MAX) {
            cli_print_wrappedf(out, 2,
                               "note: %lld blocks is more than gridDim.x allows (2,147,483,647): "
                               "launch a 2-D or 3-D grid, or a persistent grid.",
                               v->grid_blocks);
        }
        if (tail_matters(w)) {
            long long waves = w->full_waves + (w->last_wave_blocks > 0 ? 1 : 0);
            char which[64] = "the one wave";
            if (waves != 1) {
                snprintf(which, sizeof which, "the last of %lld waves", waves);
            }
            cli_print_wrappedf(
                out, 2,
                "warning: %s is %.0f%% full: if blocks take equal time, "
                "%.0f%% of the block slots sit idle over the launch. A grid of whole waves (a "
                "multiple of %lld blocks), a persistent grid of %lld blocks looping over the "
                "work, or more work per block shortens the tail.",
                which, w->last_wave_fraction * 100.0, w->tail_idle_fraction * 100.0,
                w->persistent_grid_blocks, w->persistent_grid_blocks);
        }
    }
    fputc('\n', out);
    cli_print_wrapped(
        out,
        "The pick maximises occupancy, which is not the same as minimising time: treat it "
        "as a starting point and time a few sizes. On a memory-bound kernel the API "
        "suggested 1024 threads, 1024 was not the fastest, and nine of thirteen block sizes "
        "ran within 5% of the best (a block-size sweep on a Tesla T4: docs/sources.md).",
        0);
}

static json_t *advice_json(const occ_device *d, const suggest_args *a, const advice *v)
{
    json_t *sizes = json_array();
    for (int i = 0; i < v->size_count; i++) {
        json_array_append_new(sizes, json_integer(v->sizes[i]));
    }
    json_t *doc = json_pack(
        "{s:s, s:i, s:s, s:o, s:i, s:i, s:i, s:f, s:i, s:o}", "schema", "occ.suggest", "version", 1,
        "occ_version", occ_version(), "gpu", gpu_to_json(d, d->sm_count > 0), "block_size",
        v->pick.block_size, "min_grid_size", v->pick.min_grid_size, "blocks_per_sm",
        v->pick.blocks_per_sm, "occupancy", v->pick.occupancy, "max_occupancy_warps_per_sm",
        v->best_warps, "max_occupancy_block_sizes", sizes);
    if (v->have_launch) {
        const occ_waves_result *w = &v->waves;
        json_object_set_new(
            doc, "launch",
            json_pack("{s:I, s:i, s:I, s:I, s:f, s:I, s:I, s:f, s:I, s:f, s:b}", "grid_blocks",
                      (json_int_t)v->grid_blocks, "block_size", v->launch_block_size, "elements",
                      (json_int_t)a->elements, "per_thread",
                      (json_int_t)(a->per_thread > 0 ? a->per_thread : 1), "waves_per_sm",
                      w->waves_per_sm, "full_waves", (json_int_t)w->full_waves, "last_wave_blocks",
                      (json_int_t)w->last_wave_blocks, "last_wave_fraction", w->last_wave_fraction,
                      "persistent_grid_blocks", (json_int_t)w->persistent_grid_blocks,
                      "tail_idle_fraction", w->tail_idle_fraction, "mostly_empty_last_wave",
                      tail_matters(w)));
        json_object_set_new(json_object_get(doc, "launch"), "above_grid_x_limit",
                            json_boolean(v->grid_blocks > GRID_X_MAX));
    } else {
        json_object_set_new(doc, "launch", json_null());
    }
    return doc;
}

int cmd_suggest(int argc, char **argv, const cli_io *io)
{
    suggest_args a = {0};
    launch_args la;
    launch_args_init(&la);
    la.kernel.block_x = 32; /* ignored by the pick; valid for the checks */
    launch_command cmd = {&suggest_spec, on_option, &a, false, true};
    cli_error cerr;
    bool done;
    if (!launch_parse(&cmd, argc, argv, io, &la, &done, &cerr)) {
        return cli_report(io, "suggest", &cerr);
    }
    if (done) {
        return EXIT_OK;
    }
    if (a.elements > 0 && a.blocks > 0) {
        return cli_fail(io, "suggest", EXIT_USAGE, "options --elements and --blocks: give one");
    }
    if (a.per_thread > 0 && a.elements == 0) {
        return cli_fail(io, "suggest", EXIT_USAGE, "option --per-thread: needs --elements");
    }
    occ_device dev;
    if (!launch_resolve(&cmd, io, &la, &dev, &cerr)) {
        return cli_report(io, "suggest", &cerr);
    }
    if (a.sms > 0) {
        dev.sm_count = (int)a.sms;
    }
    advice v;
    memset(&v, 0, sizeof v);
    occ_error err;
    if (occ_max_potential_block_size(&dev, &la.kernel, 0, NULL, NULL, &v.pick, &err) != OCC_OK) {
        return cli_fail(io, "suggest", EXIT_DATA, "%s", err.message);
    }
    if (v.pick.block_size <= 0 || v.pick.blocks_per_sm <= 0) {
        /* Nothing fits at any block size: say why, from the smallest block. */
        occ_result r;
        occ_kernel k = la.kernel;
        k.block_x = 32;
        k.block_y = k.block_z = 1;
        occ_calc(&dev, &k, &r, NULL);
        return cli_fail(io, "suggest", EXIT_DATA, "no block size fits on %s: %s", dev.name,
                        occ_zero_reason_text(r.zero_reason));
    }
    /* Every whole-warp block size within the limits, by resident warps. */
    int limit = dev.max_threads_per_block;
    if (la.kernel.max_threads_per_block > 0 && la.kernel.max_threads_per_block < limit) {
        limit = la.kernel.max_threads_per_block;
    }
    occ_result per_size[1024 / 32 + 1];
    for (int t = 32; t <= limit; t += 32) {
        occ_kernel k = la.kernel;
        k.block_x = t;
        k.block_y = k.block_z = 1;
        occ_calc(&dev, &k, &per_size[t / 32], NULL);
        if (per_size[t / 32].warps_per_sm > v.best_warps) {
            v.best_warps = per_size[t / 32].warps_per_sm;
        }
    }
    for (int t = 32; t <= limit; t += 32) {
        if (v.best_warps > 0 && per_size[t / 32].warps_per_sm == v.best_warps) {
            v.sizes[v.size_count++] = t;
        }
    }
    if (a.elements > 0 || a.blocks > 0) {
        if (dev.sm_count <= 0) {
            return cli_fail(io, "suggest", EXIT_USAGE,
                            "GPU %s: has no SM count (a generic entry); name a GPU or give --sms",
                            dev.name);
        }
        v.launch_block_size = la.threads_given
                                  ? la.kernel.block_x * la.kernel.block_y * la.kernel.block_z
                                  : v.pick.block_size;
        long long per_block =
            (long long)v.launch_block_size * (a.per_thread > 0 ? a.per_thread : 1);
        v.grid_blocks = a.blocks > 0 ? a.blocks : (a.elements + per_block - 1) / per_block;
        occ_kernel k = la.kernel;
        k.block_x = v.launch_block_size;
        k.block_y = k.block_z = 1;
        occ_calc(&dev, &k, &v.launch, NULL);
        if (v.launch.blocks_per_sm <= 0) {
            return cli_fail(io, "suggest", EXIT_DATA, "%d threads per block cannot run on %s: %s",
                            v.launch_block_size, dev.name,
                            occ_zero_reason_text(v.launch.zero_reason));
        }
        if (occ_launch_waves(v.launch.blocks_per_sm, dev.sm_count, v.grid_blocks, &v.waves, &err) !=
            OCC_OK) {
            return cli_fail(io, "suggest", EXIT_DATA, "%s", err.message);
        }
        v.have_launch = true;
    }
    /* With --cluster: the persistent cluster grid at the given block size,
       or at the pick's (cluster_output.c). */
    occ_kernel cluster_kernel = la.kernel;
    if (!la.threads_given) {
        cluster_kernel.block_x = v.pick.block_size > 0 ? v.pick.block_size : 32;
        cluster_kernel.block_y = cluster_kernel.block_z = 1;
    }
    if (a.json) {
        json_t *doc = advice_json(&dev, &a, &v);
        if (la.cluster_given) {
            cluster_print_persistent(io->out, &dev, &cluster_kernel, doc);
        } else {
            json_object_set_new(doc, "cluster", json_null());
        }
        cli_print_json(io->out, doc);
    } else {
        print_text(io->out, &dev, &a, &la, &v);
        cluster_print_persistent(io->out, &dev, &cluster_kernel, NULL); /* with --cluster */
    }
    return EXIT_OK;
}
