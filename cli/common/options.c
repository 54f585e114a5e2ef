/*
 * options.c - the option parser and the help printer of options.h.
 */
#include <assert.h>
#include <string.h>

#include "options.h"
#include "value_parse.h"

static const cli_option *find(const cli_option_table *tables, int table_count, const char *name,
                              size_t len)
{
    for (int t = 0; t < table_count; t++) {
        for (int o = 0; o < tables[t].count; o++) {
            const cli_option *opt = &tables[t].options[o];
            /* the table is keyed by id: entry o holds id first + o */
            assert(opt->name != NULL && opt->id == tables[t].options[0].id + o);
            if (strlen(opt->name) == len && strncmp(opt->name, name, len) == 0) {
                return opt;
            }
        }
    }
    return NULL;
}

/* The known option nearest an unknown one, if near enough to be a typo. */
static const char *closest(const cli_option_table *tables, int table_count, const char *name,
                           size_t len)
{
    char typed[64];
    snprintf(typed, sizeof typed, "%.*s", (int)(len < 63 ? len : 63), name);
    value_nearest nearest = value_nearest_start(typed);
    for (int t = 0; t < table_count; t++) {
        for (int o = 0; o < tables[t].count; o++) {
            /* a prefix of a longer option ("--dyn" for "--dyn-smem") counts as near */
            value_nearest_offer(&nearest, tables[t].options[o].name);
        }
    }
    return nearest.word;
}

bool cli_parse_options(int argc, char **argv, const cli_option_table *tables, int table_count,
                       cli_option_fn on_option, void *context, cli_error *err)
{
    bool options_end = false;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (!options_end && strcmp(arg, "--") == 0) {
            options_end = true;
            continue;
        }
        if (!options_end && strcmp(arg, "-h") == 0) {
            arg = "--help";
        }
        if (options_end || strncmp(arg, "--", 2) != 0) {
            if (!on_option(CLI_POSITIONAL, arg, context, err)) {
                return false;
            }
            continue;
        }
        const char *name = arg + 2;
        const char *eq = strchr(name, '=');
        size_t name_len = eq != NULL ? (size_t)(eq - name) : strlen(name);
        const cli_option *opt = find(tables, table_count, name, name_len);
        if (opt == NULL) {
            const char *near = closest(tables, table_count, name, name_len);
            if (near != NULL) {
                return cli_error_set(err, EXIT_USAGE,
                                     "option --%.*s: is unknown; did you mean --%s?",
                                     (int)(name_len < 80 ? name_len : 80), name, near);
            }
            return cli_error_set(err, EXIT_USAGE, "option --%.*s: is unknown",
                                 (int)(name_len < 80 ? name_len : 80), name);
        }
        const char *value = NULL;
        if (opt->metavar != NULL) {
            if (eq != NULL) {
                value = eq + 1;
            } else if (i + 1 < argc && strncmp(argv[i + 1], "--", 2) != 0) {
                value = argv[++i];
            } else {
                /* "--gpu --threads 256": the next word is an option, not a value */
                return cli_error_set(err, EXIT_USAGE, "option --%s: needs a value (%s)", opt->name,
                                     opt->metavar);
            }
        } else if (eq != NULL) {
            return cli_error_set(err, EXIT_USAGE, "option --%s: takes no value", opt->name);
        }
        if (!on_option(opt->id, value, context, err)) {
            if (opt->metavar != NULL && strncmp(err->message, "option --", 9) != 0) {
                cli_error_prefix(err, "option --%s: ", opt->name);
            }
            return false;
        }
    }
    return true;
}

void cli_print_help(FILE *out, const cli_help *help, const cli_option_table *tables,
                    int table_count)
{
    fprintf(out, "occ %s - %s\n\nusage: ", help->name, help->summary);
    for (const char *line = help->usage; *line != '\0';) {
        size_t len = strcspn(line, "\n");
        fprintf(out, "%s%.*s\n", line == help->usage ? "" : "       ", (int)len, line);
        line += len + (line[len] == '\n');
    }
    fprintf(out, "\n%s\n\noptions:\n", help->description);
    for (int t = 0; t < table_count; t++) {
        for (int o = 0; o < tables[t].count; o++) {
            const cli_option *opt = &tables[t].options[o];
            char left[48];
            if (opt->metavar != NULL) {
                snprintf(left, sizeof left, "--%s %s", opt->name, opt->metavar);
            } else {
                snprintf(left, sizeof left, "--%s", opt->name);
            }
            fprintf(out, "  %-24s %s\n", left, opt->help);
        }
    }
    if (help->examples != NULL) {
        fprintf(out, "\nexamples:\n");
        for (const char *line = help->examples; *line != '\0';) {
            size_t len = strcspn(line, "\n");
            fprintf(out, "  %.*s\n", (int)len, line);
            line += len + (line[len] == '\n');
        }
    }
}
