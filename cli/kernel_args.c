/*
 * kernel_args.c - parsing the options that describe one kernel launch
 * (kernel_args.h), for every command that takes them.
 */
#include <string.h>

#include "kernel_args.h"

void kernel_args_init(kernel_args *a)
{
    memset(a, 0, sizeof *a);
    occ_kernel_init(&a->kernel);
}

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

static int bad_value(const cli_io *io, const char *command, const char *option, const char *value,
                     const char *what)
{
    return cli_fail(io, command, EXIT_USAGE, "option --%s: '%s' is not %s", option, value, what);
}

int kernel_args_apply(const char *command, int index, const char *value, kernel_args *a,
                      const cli_io *io)
{
    static const char *const names[KOPT_COUNT] = {
        "gpu",      "gpu-file",    "threads",  "regs",  "smem",           "dyn-smem",
        "carveout", "max-threads", "barriers", "optin", "partitioned-gc", "smem-config"};
    occ_kernel *k = &a->kernel;
    long long n;
    switch (index) {
    case KOPT_GPU: a->gpu = value; break;
    case KOPT_GPU_FILE: a->gpu_file = value; break;
    case KOPT_THREADS:
        if (!calc_parse_threads(value, k)) {
            return bad_value(io, command, "threads", value, "a block size such as 256 or 16x16");
        }
        a->threads_given = true;
        break;
    case KOPT_REGS:
        if (!cli_parse_int(value, 0, 255, &n)) {
            return bad_value(io, command, "regs", value, "a register count from 0 to 255");
        }
        k->regs_per_thread = (int)n;
        break;
    case KOPT_SMEM:
    case KOPT_DYN_SMEM:
    case KOPT_SMEM_CONFIG:
        if (!cli_parse_size(value, &n)) {
            return bad_value(io, command, names[index], value,
                             "a size in bytes such as 4096, 48K or 1.5KiB (at most 2147483647)");
        }
        if (index == KOPT_SMEM) {
            k->static_smem_bytes = (int)n;
        } else if (index == KOPT_DYN_SMEM) {
            k->dyn_smem_bytes = (int)n;
        } else {
            k->smem_config_bytes = (int)n;
        }
        break;
    case KOPT_CARVEOUT:
        if (!cli_parse_carveout(value, &k->carveout_percent)) {
            return bad_value(io, command, "carveout", value,
                             "'default' or a percentage from 0 to 100");
        }
        break;
    case KOPT_MAX_THREADS:
        if (!cli_parse_int(value, 1, 1024, &n)) {
            return bad_value(io, command, "max-threads", value, "a thread count from 1 to 1024");
        }
        k->max_threads_per_block = (int)n;
        break;
    case KOPT_BARRIERS:
        if (!cli_parse_int(value, 0, 16, &n)) {
            return bad_value(io, command, "barriers", value, "a barrier count from 0 to 16");
        }
        k->barriers = (int)n;
        break;
    case KOPT_OPTIN:
        if (strcmp(value, "max") == 0) {
            k->max_dyn_smem_bytes = OCC_DYN_SMEM_OPTIN_MAX;
        } else if (strcmp(value, "none") == 0) {
            k->max_dyn_smem_bytes = OCC_DYN_SMEM_NO_OPTIN;
        } else if (cli_parse_size(value, &n)) {
            k->max_dyn_smem_bytes = (int)n;
        } else {
            return bad_value(io, command, "optin", value, "'max', 'none' or a size in bytes");
        }
        break;
    case KOPT_PGC:
        if (strcmp(value, "off") == 0) {
            k->partitioned_gc = OCC_PGC_OFF;
        } else if (strcmp(value, "on") == 0) {
            k->partitioned_gc = OCC_PGC_ON;
        } else if (strcmp(value, "strict") == 0) {
            k->partitioned_gc = OCC_PGC_ON_STRICT;
        } else {
            return bad_value(io, command, "partitioned-gc", value, "one of off, on, strict");
        }
        break;
    default: break;
    }
    return EXIT_OK;
}

int kernel_args_resolve(const char *command, kernel_args *a, bool need_threads, occ_device *dev,
                        const cli_io *io)
{
    int code = cli_resolve_gpu(command, a->gpu, a->gpu_file, dev, io);
    if (code != EXIT_OK) {
        return code;
    }
    if (need_threads && !a->threads_given) {
        return cli_fail(io, command, EXIT_USAGE,
                        "option --threads: is required (threads per block, e.g. 256)");
    }
    occ_error err;
    if (occ_kernel_validate(dev, &a->kernel, &err) != OCC_OK) {
        return cli_fail(io, command, EXIT_USAGE, "%s", err.message);
    }
    return EXIT_OK;
}
