/*
 * launch.c - the kernel-launch options and their setup (launch.h).
 */
#include <string.h>

#include "gpu_alias.h"
#include "gpu_select.h"
#include "launch.h"
#include "values.h"

/* --gpu and --gpu-file come first, from gpu_options (gpu_select.c): the same
   lines in every command's help. */
#define ROW(id) [id - LAUNCH_THREADS]
const cli_option launch_options[LAUNCH_OPTION_COUNT - LAUNCH_THREADS] = {
    ROW(LAUNCH_THREADS) = {LAUNCH_THREADS, "threads", "N",
                           "threads per block: 256, or 16x16, or 8x8x4"},
    ROW(LAUNCH_REGS) = {LAUNCH_REGS, "regs", "N", "registers per thread (ptxas: Used N registers)"},
    ROW(LAUNCH_SMEM) = {LAUNCH_SMEM, "smem", "BYTES",
                        "static shared memory per block: 4096, 48K, 1.5KiB"},
    ROW(LAUNCH_DYN_SMEM) = {LAUNCH_DYN_SMEM, "dyn-smem", "BYTES",
                            "dynamic shared memory per block (launch argument)"},
    ROW(LAUNCH_CARVEOUT) = {LAUNCH_CARVEOUT, "carveout", "PCT",
                            "shared memory carveout preference: default, or 0..100"},
    ROW(LAUNCH_MAX_THREADS) = {LAUNCH_MAX_THREADS, "max-threads", "N",
                               "the kernel's __launch_bounds__ maximum threads per block"},
    ROW(LAUNCH_BARRIERS) = {LAUNCH_BARRIERS, "barriers", "N",
                            "block barriers the kernel uses, 0..16 (default 1)"},
    ROW(LAUNCH_OPTIN) =
        {LAUNCH_OPTIN, "optin", "BYTES",
         "cudaFuncAttributeMaxDynamicSharedMemorySize: max (default), none, or bytes"},
    ROW(LAUNCH_PGC) = {LAUNCH_PGC, "partitioned-gc", "MODE",
                       "partitioned global caching: off (default), on, strict"},
    ROW(LAUNCH_SMEM_CONFIG) = {LAUNCH_SMEM_CONFIG, "smem-config", "BYTES",
                               "the SM's shared memory configuration, as Nsight shows it (default: "
                               "the carveout's)"},
    ROW(LAUNCH_CLUSTER) =
        {LAUNCH_CLUSTER, "cluster", "N",
         "thread-block cluster: blocks per cluster, 2, or a shape 2x2x1 (CC 9.0+)"},
    ROW(LAUNCH_CLUSTER_NON_PORTABLE) = {LAUNCH_CLUSTER_NON_PORTABLE, "cluster-non-portable", NULL,
                                        "cudaFuncAttributeNonPortableClusterSizeAllowed: clusters "
                                        "above 8 blocks"},
    ROW(LAUNCH_CLUSTER_POLICY) = {LAUNCH_CLUSTER_POLICY, "cluster-policy", "POLICY",
                                  "cluster scheduling: default, spread, load-balancing"},
    ROW(LAUNCH_HELP) = {LAUNCH_HELP, "help", NULL, "show this help (also -h)"},
};
#undef ROW
_Static_assert(sizeof launch_options / sizeof launch_options[0] ==
                   LAUNCH_OPTION_COUNT - LAUNCH_THREADS,
               "one entry per launch option id after the GPU options");

void launch_args_init(launch_args *a)
{
    memset(a, 0, sizeof *a);
    occ_kernel_init(&a->kernel);
}

/* "2", "4x2" or "2x2x2": each dimension 1..64 (the most the driver's
   occupancy API was asked about; libocc checks the product). */
static bool parse_cluster(const char *text, occ_kernel *k, cli_error *err)
{
    int dims[3] = {1, 1, 1};
    int n = 0;
    for (const char *p = text;; n++) {
        size_t len = strcspn(p, "xX");
        char part[24];
        long long v;
        cli_error why;
        if (n == 3 || len == 0 || len >= sizeof part) {
            return cli_error_set(err, EXIT_USAGE,
                                 "'%.40s' is not a cluster such as 2, 4x2 or 2x2x2 (blocks per "
                                 "cluster in x, y, z)",
                                 text);
        }
        memcpy(part, p, len);
        part[len] = '\0';
        if (!cli_parse_int(part, 1, OCC_CLUSTER_OCCUPANCY_MAX, &v, &why)) {
            return cli_error_set(err, EXIT_USAGE, "blocks per cluster: '%.40s': %s", text,
                                 why.message);
        }
        dims[n] = (int)v;
        if (p[len] == '\0') {
            break;
        }
        p += len + 1;
    }
    k->cluster_x = dims[0];
    k->cluster_y = dims[1];
    k->cluster_z = dims[2];
    return true;
}

bool launch_apply(int id, const char *value, launch_args *a, cli_error *err)
{
    occ_kernel *k = &a->kernel;
    long long n;
    a->any_given |= id != LAUNCH_HELP;
    switch ((enum launch_option_id)id) {
    case LAUNCH_GPU:
    case LAUNCH_GPU_FILE: return gpu_option_apply(id, value, &a->gpu, err);
    case LAUNCH_THREADS: {
        int dims[3];
        if (!cli_parse_block(value, dims, err)) {
            return false;
        }
        k->block_x = dims[0];
        k->block_y = dims[1];
        k->block_z = dims[2];
        a->threads_given = true;
        return true;
    }
    case LAUNCH_REGS:
        if (!cli_parse_int(value, 0, 255, &n, err)) {
            return cli_error_prefix(err, "registers per thread: ");
        }
        k->regs_per_thread = (int)n;
        a->regs_given = true;
        return true;
    case LAUNCH_SMEM:
    case LAUNCH_DYN_SMEM:
    case LAUNCH_SMEM_CONFIG:
        if (!cli_parse_size(value, &n, err)) {
            return false;
        }
        *(id == LAUNCH_SMEM       ? &k->static_smem_bytes
          : id == LAUNCH_DYN_SMEM ? &k->dyn_smem_bytes
                                  : &k->smem_config_bytes) = (int)n;
        return true;
    case LAUNCH_CARVEOUT: return cli_parse_carveout(value, &k->carveout_percent, err);
    case LAUNCH_MAX_THREADS:
        if (!cli_parse_int(value, 1, 1024, &n, err)) {
            return cli_error_prefix(err, "threads per block: ");
        }
        k->max_threads_per_block = (int)n;
        return true;
    case LAUNCH_BARRIERS:
        if (!cli_parse_int(value, 0, 16, &n, err)) {
            return cli_error_prefix(err, "barriers per block: ");
        }
        k->barriers = (int)n;
        return true;
    case LAUNCH_OPTIN:
        if (strcmp(value, "max") == 0) {
            k->max_dyn_smem_bytes = OCC_DYN_SMEM_OPTIN_MAX;
        } else if (strcmp(value, "none") == 0) {
            k->max_dyn_smem_bytes = OCC_DYN_SMEM_NO_OPTIN;
        } else if (value[0] < '0' || value[0] > '9') {
            return cli_error_set(err, EXIT_USAGE,
                                 "'%.40s' is not max, none or a size in bytes such as 48K", value);
        } else if (cli_parse_size(value, &n, err)) {
            k->max_dyn_smem_bytes = (int)n;
        } else {
            return false;
        }
        return true;
    case LAUNCH_PGC:
        if (strcmp(value, "off") == 0) {
            k->partitioned_gc = OCC_PGC_OFF;
        } else if (strcmp(value, "on") == 0) {
            k->partitioned_gc = OCC_PGC_ON;
        } else if (strcmp(value, "strict") == 0) {
            k->partitioned_gc = OCC_PGC_ON_STRICT;
        } else {
            return cli_error_set(err, EXIT_USAGE, "'%.40s' is not one of off, on, strict", value);
        }
        return true;
    case LAUNCH_CLUSTER: a->cluster_given = true; return parse_cluster(value, k, err);
    case LAUNCH_CLUSTER_NON_PORTABLE: k->cluster_non_portable = true; return true;
    case LAUNCH_CLUSTER_POLICY:
        if (strcmp(value, "default") == 0) {
            k->cluster_policy = OCC_CLUSTER_POLICY_DEFAULT;
        } else if (strcmp(value, "spread") == 0) {
            k->cluster_policy = OCC_CLUSTER_POLICY_SPREAD;
        } else if (strcmp(value, "load-balancing") == 0) {
            k->cluster_policy = OCC_CLUSTER_POLICY_LOAD_BALANCING;
        } else {
            return cli_error_set(err, EXIT_USAGE,
                                 "'%.40s' is not one of default, spread, load-balancing", value);
        }
        return true;
    case LAUNCH_HELP: a->help = true; return true;
    case LAUNCH_OPTION_COUNT: break;
    }
    return cli_error_set(err, EXIT_USAGE, "option id %d is not a launch option", id);
}

typedef struct setup_context {
    const launch_command *cmd;
    launch_args *args;
} setup_context;

static bool on_option(int id, const char *value, void *context, cli_error *err)
{
    setup_context *s = context;
    if (id >= 0 && id < LAUNCH_OPTION_COUNT) {
        return launch_apply(id, value, s->args, err);
    }
    if (s->cmd->on_option == NULL) {
        return cli_error_set(err, EXIT_USAGE, "argument '%.80s': is not an option", value);
    }
    return s->cmd->on_option(id, value, s->cmd->context, err);
}

bool launch_parse(const launch_command *cmd, int argc, char **argv, const cli_io *io,
                  launch_args *args, bool *done, cli_error *err)
{
    *done = false;
    setup_context s = {cmd, args};
    if (!cli_parse_options(argc, argv, cmd->spec->tables, cmd->spec->table_count, on_option, &s,
                           err)) {
        return false;
    }
    if (args->help) {
        cli_print_help(io->out, cmd->spec->help, cmd->spec->tables, cmd->spec->table_count);
        *done = true;
    }
    return true;
}

bool launch_resolve(const launch_command *cmd, const cli_io *io, launch_args *args, occ_device *dev,
                    cli_error *err)
{
    if (!cli_resolve_gpu(args->gpu.gpu, args->gpu.gpu_file, io->in, dev, err)) {
        return false;
    }
    if (cmd->need_threads && !args->threads_given) {
        return cli_error_set(err, EXIT_USAGE,
                             "option --threads: is required (threads per block, e.g. 256)");
    }
    occ_error oerr;
    if (occ_kernel_validate(dev, &args->kernel, &oerr) != OCC_OK) {
        return cli_error_set(err, EXIT_USAGE, "%s", oerr.message);
    }
    /* 0 registers is no compiled kernel: say so rather than answer for it
       quietly (--warps alone describes no kernel) */
    if (!args->regs_given &&
        (args->threads_given || cmd->need_threads || cmd->kernel_without_threads)) {
        fprintf(io->err,
                "occ %s: note: --regs not given: computed with 0 registers per thread; give "
                "ptxas's 'Used N registers' (nvcc -Xptxas -v, or occ inspect)\n",
                cmd->spec->help->name);
    }
    cli_gpu_alias_note(io->err, cmd->spec->help->name, args->gpu.gpu, dev);
    /* A cluster the driver would refuse (or a GPU without clusters or an SM
       count) is a usage error of --cluster, before any output. */
    occ_cluster_result cluster;
    if (args->cluster_given && occ_cluster_calc(dev, &args->kernel, &cluster, &oerr) != OCC_OK) {
        bool portable_cap =
            !args->kernel.cluster_non_portable &&
            args->kernel.cluster_x * args->kernel.cluster_y * args->kernel.cluster_z >
                OCC_CLUSTER_PORTABLE_MAX;
        return cli_error_set(err, EXIT_USAGE, "option --cluster: %s%s", oerr.message,
                             portable_cap ? "; allow it with --cluster-non-portable" : "");
    }
    return true;
}

bool launch_setup(const launch_command *cmd, int argc, char **argv, const cli_io *io,
                  launch_args *args, occ_device *dev, bool *done, cli_error *err)
{
    return launch_parse(cmd, argc, argv, io, args, done, err) &&
           (*done || launch_resolve(cmd, io, args, dev, err));
}
