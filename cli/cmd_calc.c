/*
 * cmd_calc.c - `occ calc`: the occupancy of one kernel launch on one GPU,
 * as a table, as words, as JSON, or for every row of a CSV batch.
 */
#include <string.h>

#include "calc_args.h"

static const cli_option options[] = {
    {"gpu", true, "NAME", "GPU name, alias or arch: H200, a100-80gb, sm_90, 9.0"},
    {"gpu-file", true, "FILE", "a GPU described in JSON (docs/gpu-file.md)"},
    {"threads", true, "N", "threads per block: 256, or 16x16, or 8x8x4"},
    {"regs", true, "N", "registers per thread (ptxas: Used N registers)"},
    {"smem", true, "BYTES", "static shared memory per block: 4096, 48K, 1.5KiB"},
    {"dyn-smem", true, "BYTES", "dynamic shared memory per block (launch argument)"},
    {"carveout", true, "PCT", "shared memory carveout preference: default, or 0..100"},
    {"max-threads", true, "N", "the kernel's __launch_bounds__ maximum threads per block"},
    {"barriers", true, "N", "block barriers the kernel uses (default 1)"},
    {"optin", true, "BYTES", "cudaFuncAttributeMaxDynamicSharedMemorySize: max (default), "
                             "none, or bytes"},
    {"partitioned-gc", true, "MODE", "partitioned global caching: off (default), on, strict"},
    {"json", false, "", "print the full result as JSON (docs/json.md)"},
    {"batch", true, "FILE", "CSV of launches, '-' for stdin (docs/cli.md); CSV out"},
    {"help", false, "", "show this help"},
};
enum {
    OPT_GPU, OPT_GPU_FILE, OPT_THREADS, OPT_REGS, OPT_SMEM, OPT_DYN_SMEM, OPT_CARVEOUT,
    OPT_MAX_THREADS, OPT_BARRIERS, OPT_OPTIN, OPT_PGC, OPT_JSON, OPT_BATCH, OPT_HELP,
    OPT_COUNT
};

typedef struct calc_args {
    const cli_io *io;
    occ_kernel kernel;
    const char *gpu;
    const char *gpu_file;
    const char *batch;
    bool json;
    bool help;
    bool threads_given;
} calc_args;

bool calc_parse_threads(const char *text, occ_kernel *k)
{
    char buf[64];
    size_t len = strlen(text);
    if (len == 0 || len >= sizeof buf) {
        return false;
    }
    memcpy(buf, text, len + 1);
    int dims[3] = {1, 1, 1};
    int n = 0;
    char *save = NULL;
    for (char *part = strtok_r(buf, "xX", &save); part != NULL;
         part = strtok_r(NULL, "xX", &save)) {
        long long v;
        if (n == 3 || !cli_parse_int(part, 1, 1 << 20, &v)) {
            return false;
        }
        dims[n++] = (int)v;
    }
    /* strtok skips empty pieces, so reject them here: "x2", "2x", "2xx2". */
    bool empty_piece = text[0] == 'x' || text[0] == 'X' || text[len - 1] == 'x' ||
                       text[len - 1] == 'X' || strstr(text, "xx") != NULL ||
                       strstr(text, "xX") != NULL || strstr(text, "Xx") != NULL ||
                       strstr(text, "XX") != NULL;
    if (n == 0 || empty_piece) {
        return false;
    }
    k->block_x = dims[0];
    k->block_y = dims[1];
    k->block_z = dims[2];
    return true;
}

static int bad_value(const calc_args *a, const char *option, const char *value, const char *what)
{
    return cli_fail(a->io, "calc", EXIT_USAGE, "option --%s: '%s' is not %s", option, value, what);
}

static int on_option(int index, const char *value, void *context)
{
    calc_args *a = context;
    occ_kernel *k = &a->kernel;
    long long n;
    switch (index) {
    case OPT_GPU: a->gpu = value; break;
    case OPT_GPU_FILE: a->gpu_file = value; break;
    case OPT_THREADS:
        if (!calc_parse_threads(value, k)) {
            return bad_value(a, "threads", value, "a block size such as 256 or 16x16");
        }
        a->threads_given = true;
        break;
    case OPT_REGS:
        if (!cli_parse_int(value, 0, 255, &n)) {
            return bad_value(a, "regs", value, "a register count from 0 to 255");
        }
        k->regs_per_thread = (int)n;
        break;
    case OPT_SMEM:
    case OPT_DYN_SMEM:
        if (!cli_parse_size(value, &n)) {
            return bad_value(a, options[index].name, value,
                             "a size in bytes such as 4096, 48K or 1.5KiB (at most 2147483647)");
        }
        if (index == OPT_SMEM) {
            k->static_smem_bytes = (int)n;
        } else {
            k->dyn_smem_bytes = (int)n;
        }
        break;
    case OPT_CARVEOUT:
        if (!cli_parse_carveout(value, &k->carveout_percent)) {
            return bad_value(a, "carveout", value, "'default' or a percentage from 0 to 100");
        }
        break;
    case OPT_MAX_THREADS:
        if (!cli_parse_int(value, 1, 1024, &n)) {
            return bad_value(a, "max-threads", value, "a thread count from 1 to 1024");
        }
        k->max_threads_per_block = (int)n;
        break;
    case OPT_BARRIERS:
        if (!cli_parse_int(value, 0, 16, &n)) {
            return bad_value(a, "barriers", value, "a barrier count from 0 to 16");
        }
        k->barriers = (int)n;
        break;
    case OPT_OPTIN:
        if (strcmp(value, "max") == 0) {
            k->max_dyn_smem_bytes = OCC_DYN_SMEM_OPTIN_MAX;
        } else if (strcmp(value, "none") == 0) {
            k->max_dyn_smem_bytes = OCC_DYN_SMEM_NO_OPTIN;
        } else if (cli_parse_size(value, &n)) {
            k->max_dyn_smem_bytes = (int)n;
        } else {
            return bad_value(a, "optin", value, "'max', 'none' or a size in bytes");
        }
        break;
    case OPT_PGC:
        if (strcmp(value, "off") == 0) {
            k->partitioned_gc = OCC_PGC_OFF;
        } else if (strcmp(value, "on") == 0) {
            k->partitioned_gc = OCC_PGC_ON;
        } else if (strcmp(value, "strict") == 0) {
            k->partitioned_gc = OCC_PGC_ON_STRICT;
        } else {
            return bad_value(a, "partitioned-gc", value, "one of off, on, strict");
        }
        break;
    case OPT_JSON: a->json = true; break;
    case OPT_BATCH: a->batch = value; break;
    case OPT_HELP: a->help = true; break;
    default: break;
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
    occ_kernel_init(&a.kernel);
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
        if (a.gpu != NULL || a.gpu_file != NULL || a.threads_given || a.json) {
            return cli_fail(io, "calc", EXIT_USAGE,
                            "option --batch: takes every input from the CSV; give no other "
                            "option");
        }
        return calc_batch(a.batch, io);
    }
    occ_device dev;
    code = cli_resolve_gpu("calc", a.gpu, a.gpu_file, &dev, io);
    if (code != EXIT_OK) {
        return code;
    }
    if (!a.threads_given) {
        return cli_fail(io, "calc", EXIT_USAGE,
                        "option --threads: is required (threads per block, e.g. 256)");
    }
    occ_result r;
    occ_error err;
    if (occ_calc(&dev, &a.kernel, &r, &err) != OCC_OK) {
        return cli_fail(io, "calc", EXIT_USAGE, "%s", err.message);
    }
    if (a.json) {
        json_t *doc = calc_to_json(&dev, &a.kernel, &r);
        json_dumpf(doc, io->out, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
        fputc('\n', io->out);
        json_decref(doc);
    } else {
        calc_print_text(io->out, &dev, &a.kernel, &r);
    }
    return EXIT_OK;
}
