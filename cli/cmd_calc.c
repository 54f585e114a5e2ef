/*
 * cmd_calc.c - `occ calc`: the occupancy of one kernel launch on one GPU,
 * as a table, as words, as JSON, or for every row of a CSV batch.
 */
#include <string.h>

#include "calc_args.h"
#include "kernel_args.h"

static const cli_option options[] = {
    KERNEL_OPTIONS,
    {"json", false, "", "print the full result as JSON (docs/json.md)"},
    {"batch", true, "FILE", "CSV of launches, '-' for stdin (docs/cli.md); CSV out"},
    {"help", false, "", "show this help"},
};
enum { OPT_JSON = KOPT_COUNT, OPT_BATCH, OPT_HELP, OPT_COUNT };

typedef struct calc_args {
    const cli_io *io;
    kernel_args k;
    const char *batch;
    bool json;
    bool help;
} calc_args;

static int on_option(int index, const char *value, void *context)
{
    calc_args *a = context;
    switch (index) {
    case OPT_JSON: a->json = true; break;
    case OPT_BATCH: a->batch = value; break;
    case OPT_HELP: a->help = true; break;
    default: return kernel_args_apply("calc", index, value, &a->k, a->io);
    }
    return EXIT_OK;
}

static const char *const description =
    "The occupancy of one kernel launch: resident blocks and warps per SM, the\n"
    "block count each resource allows (Nsight Compute's Block Limit rows), the\n"
    "limiter, and the allocation behind it. Computed as the CUDA driver does.\n"
    "\n"
    "--batch reads CSV with the header gpu,threads,regs,smem,dyn_smem,carveout\n"
    "(optional columns max_threads, barriers) and writes each row followed by\n"
    "blocks_per_sm,warps_per_sm,occupancy,limit_warps,limit_blocks,limit_registers,\n"
    "limit_shared_mem,limit_barriers,limiter,warning,error. A bad row gets an error and\n"
    "the run goes on; the exit status is then 1. Quoted CSV fields are understood.";

int cmd_calc(int argc, char **argv, const cli_io *io)
{
    calc_args a = {.io = io};
    kernel_args_init(&a.k);
    int code = cli_parse_options("calc", argc, argv, options, OPT_COUNT, on_option, &a, io);
    if (code != EXIT_OK) {
        return code;
    }
    if (a.help) {
        cli_print_help(io->out,
                       "occ calc --gpu NAME --threads N [--regs N] [--smem BYTES] "
                       "[--dyn-smem BYTES] [options]\n       occ calc --batch FILE",
                       description, options, OPT_COUNT);
        return EXIT_OK;
    }
    if (a.batch != NULL) {
        if (a.k.gpu != NULL || a.k.gpu_file != NULL || a.k.threads_given || a.json) {
            return cli_fail(io, "calc", EXIT_USAGE,
                            "option --batch: takes every input from the CSV; give no other "
                            "option");
        }
        return calc_batch(a.batch, io);
    }
    occ_device dev;
    code = kernel_args_resolve("calc", &a.k, true, &dev, io);
    if (code != EXIT_OK) {
        return code;
    }
    occ_result r;
    occ_error err;
    if (occ_calc(&dev, &a.k.kernel, &r, &err) != OCC_OK) {
        return cli_fail(io, "calc", EXIT_USAGE, "%s", err.message);
    }
    if (a.json) {
        json_t *doc = calc_to_json(&dev, &a.k.kernel, &r);
        cli_print_json(io->out, doc);
    } else {
        calc_print_text(io->out, &dev, &a.k.kernel, &r);
    }
    return EXIT_OK;
}
