/*
 * options.h - the one option parser every command uses, and the help it
 * prints from the same tables (the man pages are generated from them too).
 *
 * A command's options are a table keyed by id: each entry sits at index
 * `id - first id` (designated initializers) and carries its id, and each
 * table has a _Static_assert on its size, so an entry cannot drift from its
 * enum. A command may take several tables (the launch options shared by
 * calc, explain, sweep, suggest and latency, then its own).
 */
#ifndef OCC_CLI_OPTIONS_H
#define OCC_CLI_OPTIONS_H

#include "cli.h"

/* One option: "--name VALUE", "--name=VALUE", or a flag (metavar NULL). */
typedef struct cli_option {
    int id;              /* the command's enum value */
    const char *name;    /* without the leading "--" */
    const char *metavar; /* "N", "BYTES"; NULL for a flag */
    const char *help;    /* one line */
} cli_option;

typedef struct cli_option_table {
    const cli_option *options;
    int count;
} cli_option_table;

/* The id the callback gets for an argument that is not an option (a file,
   an axis, an experiment): its value is the argument. */
#define CLI_POSITIONAL (-1)

/* Called with each option's id and value (NULL for a flag) in order. */
typedef bool (*cli_option_fn)(int id, const char *value, void *context, cli_error *err);

/*
 * Walks argv[1..]. "--" ends the options; "-h" means "--help" (every command
 * has one); "-" and anything not starting with "--" are positional. A value
 * that starts with "--" is taken for a forgotten value ("--gpu --threads
 * 256": --gpu needs a value). An unknown option fails with the closest
 * known name when one is near ("did you mean --regs?").
 */
bool cli_parse_options(int argc, char **argv, const cli_option_table *tables, int table_count,
                       cli_option_fn on_option, void *context, cli_error *err);

/* What `occ CMD --help` prints besides the options, and the man page's. */
typedef struct cli_help {
    const char *name;        /* "calc" */
    const char *summary;     /* one line: occ --help's list, the man page's NAME */
    const char *usage;       /* "occ calc --gpu NAME --threads N [options]"; lines
                                after the first are further forms */
    const char *description; /* paragraphs, lines of at most 80 columns */
    const char *examples;    /* lines of commands; may be NULL */
} cli_help;

void cli_print_help(FILE *out, const cli_help *help, const cli_option_table *tables,
                    int table_count);

/* Everything a command says about itself: `occ CMD --help` and `man occ-CMD`
   are printed from it. */
typedef struct cli_command_spec {
    const cli_help *help;
    const cli_option_table *tables;
    int table_count;
} cli_command_spec;

/* Each command's spec (in its cmd_*.c). */
extern const cli_command_spec calc_spec, explain_spec, sweep_spec, suggest_spec, latency_spec,
    gpus_spec, inspect_spec, diff_spec, ncu_spec, profile_spec, lab_spec, regs_spec;

/* The command table of cli/commands.c, in `occ --help`'s order, and the
   one-line description of occ itself: for what is generated from them (the
   man pages, cli/man/). */
extern const char cli_tagline[];
int cli_command_count(void);
const cli_command_spec *cli_command_spec_at(int index); /* NULL out of range */

#endif /* OCC_CLI_OPTIONS_H */
