/*
 * options.c - the one option parser every command uses:
 * "--name VALUE", "--name=VALUE" and flags, with one-line errors.
 */
#include <stdarg.h>
#include <string.h>

#include "cli.h"

int cli_fail(const cli_io *io, const char *command, int code, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    fprintf(io->err, "occ %s: ", command);
    vfprintf(io->err, format, args);
    fprintf(io->err, "\n");
    va_end(args);
    if (code == EXIT_USAGE) {
        fprintf(io->err, "occ: try 'occ %s --help'\n", command);
    }
    return code;
}

int cli_parse_options(const char *command, int argc, char **argv, const cli_option *options,
                      int option_count, cli_option_fn on_option, void *context,
                      const cli_io *io)
{
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (strncmp(arg, "--", 2) != 0 || arg[2] == '\0') {
            return cli_fail(io, command, EXIT_USAGE, "argument '%s': is not an option", arg);
        }
        const char *name = arg + 2;
        const char *eq = strchr(name, '=');
        size_t name_len = eq != NULL ? (size_t)(eq - name) : strlen(name);
        int found = -1;
        for (int o = 0; o < option_count; o++) {
            if (strlen(options[o].name) == name_len &&
                strncmp(options[o].name, name, name_len) == 0) {
                found = o;
                break;
            }
        }
        if (found < 0) {
            return cli_fail(io, command, EXIT_USAGE, "option --%.*s: is unknown", (int)name_len,
                            name);
        }
        const char *value = NULL;
        if (options[found].takes_value) {
            if (eq != NULL) {
                value = eq + 1;
            } else if (i + 1 < argc) {
                value = argv[++i];
            } else {
                return cli_fail(io, command, EXIT_USAGE, "option --%s: needs a value (%s)",
                                options[found].name, options[found].metavar);
            }
        } else if (eq != NULL) {
            return cli_fail(io, command, EXIT_USAGE, "option --%s: takes no value",
                            options[found].name);
        }
        int code = on_option(found, value, context);
        if (code != EXIT_OK) {
            return code;
        }
    }
    return EXIT_OK;
}

void cli_print_help(FILE *out, const char *usage, const char *description,
                    const cli_option *options, int option_count)
{
    fprintf(out, "usage: %s\n\n%s\n\noptions:\n", usage, description);
    for (int o = 0; o < option_count; o++) {
        char left[48];
        if (options[o].takes_value) {
            snprintf(left, sizeof left, "--%s %s", options[o].name, options[o].metavar);
        } else {
            snprintf(left, sizeof left, "--%s", options[o].name);
        }
        fprintf(out, "  %-24s %s\n", left, options[o].help);
    }
}
