/*
 * cmd_gpus.c - `occ gpus`: the GPU database as a table or JSON.
 */
#include <string.h>

#include "calc_output.h"
#include "options.h"
#include "output.h"

enum { OPT_JSON, OPT_NAMES, OPT_HELP, OPT_END };

static const cli_option options[] = {
    [OPT_JSON] = {OPT_JSON, "json", NULL, "print every entry with all its fields as JSON"},
    [OPT_NAMES] = {OPT_NAMES, "names", NULL,
                   "print every name and alias --gpu takes, one a line (shell completion)"},
    [OPT_HELP] = {OPT_HELP, "help", NULL, "show this help (also -h)"},
};
_Static_assert(sizeof options / sizeof options[0] == OPT_END, "one entry per gpus option id");

static const cli_help help = {
    .name = "gpus",
    .summary = "list the GPU database",
    .usage = "occ gpus [--json | --names]",
    .description = "The GPU database: one generic entry per compute capability (5.0 to 12.1) and\n"
                   "named GPUs with their SM count, clocks, memory bandwidth, L2 and memory\n"
                   "latency. Any name or alias listed here works with --gpu.",
    .examples = "occ gpus\nocc gpus --names | grep -i h100\nocc gpus --json | jq '.gpus[] | "
                "select(.sm_count > 100) | .name'",
};

static const cli_option_table tables[] = {{options, OPT_END}};
const cli_command_spec gpus_spec = {&help, tables, 1};

typedef struct gpus_args {
    bool json;
    bool names;
    bool help;
} gpus_args;

static bool on_option(int id, const char *value, void *context, cli_error *err)
{
    gpus_args *a = context;
    switch (id) {
    case OPT_JSON: a->json = true; return true;
    case OPT_NAMES: a->names = true; return true;
    case OPT_HELP: a->help = true; return true;
    default: return cli_error_set(err, EXIT_USAGE, "argument '%.80s': is not an option", value);
    }
}

static void print_table(FILE *out)
{
    char arch[16];
    char text[32];
    int width = 4;
    for (int i = 0; i < occ_gpu_count(); i++) {
        occ_device d;
        occ_gpu_at(i, &d, NULL, NULL, NULL);
        int len = (int)strlen(d.name);
        width = len > width ? len : width;
    }
    fprintf(out, "%-*s %-7s %5s %6s %7s %9s %9s %8s  %s\n", width, "name", "arch", "SMs", "warps",
            "blocks", "regs", "smem/SM", "L2 MB", "aliases");
    for (int i = 0; i < occ_gpu_count(); i++) {
        occ_device d;
        bool named;
        const char *const *aliases;
        occ_gpu_at(i, &d, &named, &aliases, NULL);
        occ_arch_name(d.cc_major, d.cc_minor, arch, sizeof arch);
        char sms[16] = "-";
        char l2[16] = "-";
        if (d.sm_count > 0) {
            snprintf(sms, sizeof sms, "%d", d.sm_count);
        }
        if (d.l2_bytes > 0) {
            snprintf(l2, sizeof l2, "%.1f", d.l2_bytes / (1024.0 * 1024.0));
        }
        fprintf(out, "%-*s %-7s %5s %6d %7d %9d %9s %8s", width, d.name, arch, sms,
                occ_device_max_warps_per_sm(&d), d.max_blocks_per_sm, d.regs_per_sm,
                cli_format_bytes(d.smem_per_sm_bytes, text, sizeof text), l2);
        for (int a = 0; aliases[a] != NULL; a++) {
            fprintf(out, "%s%s", a == 0 ? "  " : ", ", aliases[a]);
        }
        fputc('\n', out);
    }
    fprintf(out,
            "\n%d entries: generic compute capabilities, then named GPUs. "
            "Look-up ignores case, spaces, '-' and '_'.\n",
            occ_gpu_count());
}

/* Each entry's name, then its aliases: what the shell completions offer
   after --gpu. */
static void print_names(FILE *out)
{
    for (int i = 0; i < occ_gpu_count(); i++) {
        occ_device d;
        const char *const *aliases;
        occ_gpu_at(i, &d, NULL, &aliases, NULL);
        fprintf(out, "%s\n", d.name);
        for (int a = 0; aliases[a] != NULL; a++) {
            fprintf(out, "%s\n", aliases[a]);
        }
    }
}

static void print_json(FILE *out)
{
    json_t *list = json_array();
    for (int i = 0; i < occ_gpu_count(); i++) {
        occ_device d;
        bool named;
        const char *const *aliases;
        occ_gpu_at(i, &d, &named, &aliases, NULL);
        json_t *entry = gpu_to_json(&d, named);
        json_t *names = json_array();
        for (int a = 0; aliases[a] != NULL; a++) {
            json_array_append_new(names, json_string(aliases[a]));
        }
        json_object_set_new(entry, "aliases", names);
        json_array_append_new(list, entry);
    }
    json_t *doc = json_pack("{s:s, s:i, s:s, s:o}", "schema", "occ.gpus", "version", 1,
                            "occ_version", occ_version(), "gpus", list);
    cli_print_json(out, doc);
}

int cmd_gpus(int argc, char **argv, const cli_io *io)
{
    gpus_args a = {0};
    cli_error err;
    if (!cli_parse_options(argc, argv, tables, 1, on_option, &a, &err)) {
        return cli_report(io, "gpus", &err);
    }
    if (a.help) {
        cli_print_help(io->out, &help, tables, 1);
    } else if (a.json && a.names) {
        return cli_fail(io, "gpus", EXIT_USAGE, "options --json and --names: choose one");
    } else if (a.names) {
        print_names(io->out);
    } else if (a.json) {
        print_json(io->out);
    } else {
        print_table(io->out);
    }
    return EXIT_OK;
}
