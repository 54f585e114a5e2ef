/*
 * cli.c - the command table of occ, top-level help and version.
 */
#include <string.h>

#include "cli.h"

static const cli_command commands[] = {
    {"calc", "occupancy of one kernel launch on one GPU (or a CSV batch)", cmd_calc},
    {"explain", "the occupancy worked step by step, and what would change it", cmd_explain},
    {"sweep", "resident warps as one input varies (Nsight's occupancy charts)", cmd_sweep},
    {"suggest", "the block size the occupancy API picks, waves and grid advice", cmd_suggest},
    {"latency", "Little's law: do the loads in flight saturate memory?", cmd_latency},
    {"gpus", "list the GPU database", cmd_gpus},
    {"inspect", "resources and occupancy of every kernel in a binary or ptxas log", cmd_inspect},
    {"lab", "measure occupancy's effects on the GPU present (needs occ-lab)", cmd_lab},
};
static const int command_count = (int)(sizeof commands / sizeof commands[0]);

static void print_usage(FILE *out)
{
    fprintf(out,
            "occ %s - CUDA occupancy, explained and measured\n"
            "\n"
            "usage: occ <command> [options]\n"
            "       occ <command> --help\n"
            "       occ --version\n"
            "\n"
            "commands:\n",
            occ_version());
    for (int i = 0; i < command_count; i++) {
        fprintf(out, "  %-8s %s\n", commands[i].name, commands[i].summary);
    }
    fprintf(out,
            "\n"
            "example:\n"
            "  occ calc --gpu H200 --threads 256 --regs 64 --smem 16K\n"
            "\n"
            "exit status: 0 ok, 1 data or runtime error, 2 usage error\n");
}

int cli_main(int argc, char **argv, const cli_io *io)
{
    if (argc < 2) {
        print_usage(io->err);
        return EXIT_USAGE;
    }
    const char *name = argv[1];
    if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0 || strcmp(name, "help") == 0) {
        print_usage(io->out);
        return EXIT_OK;
    }
    if (strcmp(name, "--version") == 0 || strcmp(name, "-V") == 0) {
        fprintf(io->out, "occ %s\n", occ_version());
        return EXIT_OK;
    }
    for (int i = 0; i < command_count; i++) {
        if (strcmp(name, commands[i].name) == 0) {
            return commands[i].run(argc - 1, argv + 1, io);
        }
    }
    fprintf(io->err, "occ: '%s' is not a command; commands are:", name);
    for (int i = 0; i < command_count; i++) {
        fprintf(io->err, " %s", commands[i].name);
    }
    fprintf(io->err, "\nocc: try 'occ --help'\n");
    return EXIT_USAGE;
}
