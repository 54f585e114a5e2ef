/*
 * cmd_calc.c - `occ calc`: the occupancy of one kernel launch on one GPU,
 * as a table, as words, as JSON, or for every row of a CSV batch.
 */
#include <string.h>

#include "calc_output.h"
#include "cluster_output.h"
#include "launch.h"
#include "output.h"

enum { OPT_JSON = LAUNCH_OPTION_COUNT, OPT_BATCH, OPT_CACHE_CONFIG, OPT_END };

static const cli_option options[] = {
    [OPT_JSON - LAUNCH_OPTION_COUNT] = {OPT_JSON, "json", NULL,
                                        "print the full result as JSON (docs/json.md)"},
    [OPT_BATCH - LAUNCH_OPTION_COUNT] = {OPT_BATCH, "batch", "FILE",
                                         "CSV of launches, '-' for stdin (docs/cli.md); CSV out"},
    [OPT_CACHE_CONFIG - LAUNCH_OPTION_COUNT] = {OPT_CACHE_CONFIG, "cache-config", "PREF",
                                                "cudaFuncSetCacheConfig: none (default), shared, "
                                                "l1, equal"},
};
_Static_assert(sizeof options / sizeof options[0] == OPT_END - LAUNCH_OPTION_COUNT,
               "one entry per calc option id");

static const cli_help help = {
    .name = "calc",
    .summary = "occupancy of one kernel launch on one GPU (or a CSV batch)",
    .usage = "occ calc --gpu NAME --threads N [--regs N] [--smem BYTES] [--dyn-smem BYTES] "
             "[options]\nocc calc --batch FILE",
    .description =
        "The occupancy of one kernel launch: resident blocks and warps per SM, the\n"
        "block count each resource allows (Nsight Compute's Block Limit rows), the\n"
        "limiter, and the allocation behind it. Computed as the CUDA driver does.\n"
        "\n"
        "The table is Nsight Compute's: computed at the shared-memory configuration\n"
        "the driver picks at launch (or --smem-config's), Block Limit Barriers capped at\n"
        "the block slots, and the occupancy API's own figure beside any row where it\n"
        "differs. --json gives both (result is the API's, result.nsight the table).\n"
        "\n"
        "--batch reads CSV (RFC 4180) with the header gpu,threads,regs,smem,dyn_smem,\n"
        "carveout (optional columns max_threads, barriers; others are passed through)\n"
        "and writes each row followed by blocks_per_sm,warps_per_sm,occupancy,\n"
        "limit_warps,limit_blocks,limit_registers,limit_shared_mem,limit_barriers,\n"
        "limiter,warning,error. A bad row keeps its place with an error and the run goes\n"
        "on; the exit status is then 1. A record may hold at most 4096 bytes.",
    .examples = "occ calc --gpu H200 --threads 256 --regs 64 --smem 16K\n"
                "occ calc --gpu A100 --threads 128 --regs 32 --dyn-smem 48K --json\n"
                "occ calc --batch launches.csv > occupancy.csv",
};

static const cli_option_table tables[] = {LAUNCH_OPTION_TABLE,
                                          {options, OPT_END - LAUNCH_OPTION_COUNT}};
const cli_command_spec calc_spec = {&help, tables, (int)(sizeof tables / sizeof tables[0])};

typedef struct calc_args {
    const char *batch;
    bool json;
    bool cache_given;
    occ_cache_preference cache;
} calc_args;

static bool parse_cache(const char *value, occ_cache_preference *out, cli_error *err)
{
    static const struct {
        const char *name;
        occ_cache_preference cache;
    } names[] = {{"none", OCC_CACHE_PREFER_NONE},
                 {"shared", OCC_CACHE_PREFER_SHARED},
                 {"l1", OCC_CACHE_PREFER_L1},
                 {"equal", OCC_CACHE_PREFER_EQUAL}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (strcmp(value, names[i].name) == 0) {
            *out = names[i].cache;
            return true;
        }
    }
    return cli_error_set(err, EXIT_USAGE,
                         "option --cache-config: '%.40s' is not one of none, "
                         "shared, l1, equal",
                         value);
}

static bool on_option(int id, const char *value, void *context, cli_error *err)
{
    calc_args *a = context;
    switch (id) {
    case OPT_JSON: a->json = true; return true;
    case OPT_BATCH: a->batch = value; return true;
    case OPT_CACHE_CONFIG: a->cache_given = true; return parse_cache(value, &a->cache, err);
    default: return cli_error_set(err, EXIT_USAGE, "argument '%.80s': is not an option", value);
    }
}

int cmd_calc(int argc, char **argv, const cli_io *io)
{
    calc_args a = {0};
    launch_args la;
    launch_args_init(&la);
    launch_command cmd = {&calc_spec, on_option, &a, true, false};
    cli_error err;
    bool done;
    if (!launch_parse(&cmd, argc, argv, io, &la, &done, &err)) {
        return cli_report(io, "calc", &err);
    }
    if (done) {
        return EXIT_OK;
    }
    if (a.batch != NULL) {
        if (la.any_given || a.json || a.cache_given) {
            return cli_fail(io, "calc", EXIT_USAGE,
                            "option --batch: takes every input from the CSV; give no other "
                            "option");
        }
        return calc_batch(a.batch, io);
    }
    occ_device dev;
    if (!launch_resolve(&cmd, io, &la, &dev, &err)) {
        return cli_report(io, "calc", &err);
    }
    /* The occupancy API reads a cache preference as a carveout where the
       kernel gives none; the driver's choice at launch reads it as it is. */
    occ_kernel api_kernel = la.kernel;
    api_kernel.carveout_percent = calc_cache_carveout(la.kernel.carveout_percent, a.cache);
    occ_result r;
    occ_error oerr;
    if (occ_calc(&dev, &api_kernel, &r, &oerr) != OCC_OK) {
        return cli_fail(io, "calc", EXIT_USAGE, "%s", oerr.message);
    }
    const calc_view view = {&dev, &la.kernel, a.cache, &r, la.regs_given};
    if (a.json) {
        cli_print_json(io->out, calc_view_to_json(&view));
    } else {
        calc_print_text(io->out, &view);
        cluster_print_text(io->out, &dev, &la.kernel); /* with --cluster */
    }
    return EXIT_OK;
}
