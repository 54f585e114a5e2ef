/*
 * launch.h - the options that describe one kernel launch on one GPU, and the
 * setup calc, explain, sweep, suggest and latency share: parse the command
 * line, print the help, find the GPU, check the kernel.
 */
#ifndef OCC_CLI_LAUNCH_H
#define OCC_CLI_LAUNCH_H

#include "cli.h"
#include "gpu_select.h"
#include "options.h"

/* The launch options' ids: --gpu and --gpu-file are the shared GPU options
   (gpu_select.h, the table inspect, diff, ncu and profile start with), the
   others this file's; a command's own ids start at LAUNCH_OPTION_COUNT. */
enum launch_option_id {
    LAUNCH_GPU = GPU_OPTION_GPU,
    LAUNCH_GPU_FILE = GPU_OPTION_GPU_FILE,
    LAUNCH_THREADS = GPU_OPTION_COUNT,
    LAUNCH_REGS,
    LAUNCH_SMEM,
    LAUNCH_DYN_SMEM,
    LAUNCH_CARVEOUT,
    LAUNCH_MAX_THREADS,
    LAUNCH_BARRIERS,
    LAUNCH_OPTIN,
    LAUNCH_PGC,
    LAUNCH_SMEM_CONFIG,
    LAUNCH_CLUSTER,
    LAUNCH_CLUSTER_NON_PORTABLE,
    LAUNCH_CLUSTER_POLICY,
    LAUNCH_HELP,
    LAUNCH_OPTION_COUNT
};

/* The launch options after the GPU's, keyed by id - LAUNCH_THREADS. A
   command's tables start with LAUNCH_OPTION_TABLE, which is two tables: the
   shared GPU options (GPU_OPTION_TABLE) and these. */
extern const cli_option launch_options[LAUNCH_OPTION_COUNT - LAUNCH_THREADS];
#define LAUNCH_OPTION_TABLE                                                                        \
    GPU_OPTION_TABLE,                                                                              \
    {                                                                                              \
        launch_options, LAUNCH_OPTION_COUNT - LAUNCH_THREADS                                       \
    }

typedef struct launch_args {
    occ_kernel kernel;
    gpu_choice gpu; /* --gpu or --gpu-file */
    bool threads_given;
    bool regs_given;    /* --regs: else the kernel has 0 registers, and a note says so */
    bool cluster_given; /* --cluster: kernel.cluster_x/_y/_z are set */
    bool any_given;     /* any launch option but --help */
    bool help;
} launch_args;

/* One kernel-launch command: its help and tables (the launch table first),
   and what it does with its own options and positional arguments. */
typedef struct launch_command {
    const cli_command_spec *spec;
    cli_option_fn on_option; /* ids from LAUNCH_OPTION_COUNT, and CLI_POSITIONAL */
    void *context;
    bool need_threads;           /* --threads is required */
    bool kernel_without_threads; /* the kernel's other inputs count without --threads
                                    (suggest picks the block size) */
} launch_command;

/* The driver's defaults for the kernel (occ_kernel_init), nothing given. */
void launch_args_init(launch_args *args);

/* Parses argv into *args (set up by launch_args_init, plus any default the
   command implies) and the command's own options through on_option. On
   --help prints the help and sets *done. Otherwise finds the GPU and checks
   the kernel against it. */
bool launch_setup(const launch_command *cmd, int argc, char **argv, const cli_io *io,
                  launch_args *args, occ_device *dev, bool *done, cli_error *err);

/* launch_setup's two halves, for a command that decides in between (calc
   --batch needs no GPU): parse (and --help), then the GPU and the check. */
bool launch_parse(const launch_command *cmd, int argc, char **argv, const cli_io *io,
                  launch_args *args, bool *done, cli_error *err);
bool launch_resolve(const launch_command *cmd, const cli_io *io, launch_args *args, occ_device *dev,
                    cli_error *err);

/* One launch option into the kernel; false with the reason for a bad value. */
bool launch_apply(int id, const char *value, launch_args *args, cli_error *err);

#endif /* OCC_CLI_LAUNCH_H */
