/*
 * commands.c - the command table of occ, top-level help, `occ help CMD`,
 * `occ version`, and the check that everything written reached its file.
 */
#include <errno.h>
#include <string.h>

#include "value_parse.h"
#include "cli.h"
#include "options.h"
#include "output.h"

/* A command: what it says about itself (name, summary, help, options) and
   what it runs. */
typedef struct command {
    const cli_command_spec *spec;
    int (*run)(int argc, char **argv, const cli_io *io);
} command;

static const command commands[] = {
    {&calc_spec, cmd_calc},       {&explain_spec, cmd_explain}, {&sweep_spec, cmd_sweep},
    {&suggest_spec, cmd_suggest}, {&latency_spec, cmd_latency}, {&gpus_spec, cmd_gpus},
    {&inspect_spec, cmd_inspect}, {&diff_spec, cmd_diff},       {&ncu_spec, cmd_ncu},
    {&profile_spec, cmd_profile}, {&lab_spec, cmd_lab},         {&regs_spec, cmd_regs},
};
#define COMMAND_COUNT ((int)(sizeof commands / sizeof commands[0]))

const char cli_tagline[] = "CUDA occupancy, explained and measured";

int cli_command_count(void)
{
    return COMMAND_COUNT;
}

const cli_command_spec *cli_command_spec_at(int index)
{
    return index >= 0 && index < COMMAND_COUNT ? commands[index].spec : NULL;
}

static void print_usage(FILE *out)
{
    fprintf(out,
            "occ %s - %s\n"
            "\n"
            "usage: occ <command> [options]\n"
            "       occ help <command>      (or occ <command> --help)\n"
            "       occ version\n"
            "\n"
            "commands:\n",
            occ_version(), cli_tagline);
    for (int i = 0; i < COMMAND_COUNT; i++) {
        fprintf(out, "  %-8s %s\n", commands[i].spec->help->name, commands[i].spec->help->summary);
    }
    fprintf(out, "\n"
                 "example:\n"
                 "  occ calc --gpu H200 --threads 256 --regs 64 --smem 16K\n"
                 "\n"
                 "exit status: 0 ok, 1 data or runtime error, 2 usage error\n");
}

static const command *find_command(const char *name)
{
    for (int i = 0; i < COMMAND_COUNT; i++) {
        if (strcmp(name, commands[i].spec->help->name) == 0) {
            return &commands[i];
        }
    }
    return NULL;
}

static int unknown_command(const char *name, const cli_io *io)
{
    value_nearest nearest = value_nearest_start(name);
    for (int i = 0; i < COMMAND_COUNT; i++) {
        value_nearest_offer(&nearest, commands[i].spec->help->name);
    }
    cli_error err;
    if (nearest.word != NULL) {
        cli_error_set(&err, EXIT_USAGE, "'%.80s' is not a command; did you mean '%s'?", name,
                      nearest.word);
    } else {
        cli_error_set(&err, EXIT_USAGE,
                      "'%.80s' is not a command; commands are calc, explain, sweep, suggest, "
                      "latency, gpus, inspect, diff, ncu, profile, lab, regs",
                      name);
    }
    fputs("occ: ", io->err);
    cli_put_visible(io->err, err.message);
    fputs("\nocc: try 'occ --help'\n", io->err);
    return EXIT_USAGE;
}

/* The command's run, then the check every output needs: a write that failed
   (a full disk, a closed pipe) fails the command, whatever it printed. */
static int run_and_flush(const command *c, int argc, char **argv, const cli_io *io)
{
    int code = c->run(argc, argv, io);
    errno = 0;
    bool failed = fflush(io->out) != 0 || ferror(io->out);
    if (failed) {
        int e = errno;
        return cli_fail(io, c->spec->help->name, EXIT_DATA, "cannot write the output: %s",
                        e != 0 ? strerror(e) : "write error");
    }
    return code;
}

int cli_main(int argc, char **argv, const cli_io *io)
{
    if (argc < 2) {
        print_usage(io->err);
        return EXIT_USAGE;
    }
    const char *name = argv[1];
    if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0 ||
        (strcmp(name, "help") == 0 && argc == 2)) {
        print_usage(io->out);
        return fflush(io->out) == 0 && !ferror(io->out) ? EXIT_OK : EXIT_DATA;
    }
    if (strcmp(name, "--version") == 0 || strcmp(name, "-V") == 0 || strcmp(name, "version") == 0) {
        fprintf(io->out, "occ %s\n", occ_version());
        return fflush(io->out) == 0 && !ferror(io->out) ? EXIT_OK : EXIT_DATA;
    }
    if (strcmp(name, "help") == 0) {
        /* `occ help calc` is `occ calc --help`, printed from the same spec */
        const command *c = find_command(argv[2]);
        if (c == NULL) {
            return unknown_command(argv[2], io);
        }
        const cli_command_spec *spec = c->spec;
        cli_print_help(io->out, spec->help, spec->tables, spec->table_count);
        return fflush(io->out) == 0 && !ferror(io->out) ? EXIT_OK : EXIT_DATA;
    }
    const command *c = find_command(name);
    if (c == NULL) {
        return unknown_command(name, io);
    }
    return run_and_flush(c, argc - 1, argv + 1, io);
}
