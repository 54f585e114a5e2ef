/*
 * cmd_gpus.c - `occ gpus`: the GPU database as a table or JSON.
 */
#include <string.h>

#include "calc_args.h"

static const cli_option options[] = {
    {"json", false, "", "print every entry with all its fields as JSON"},
    {"help", false, "", "show this help"},
};
enum { OPT_JSON, OPT_HELP, OPT_COUNT };

typedef struct gpus_args {
    bool json;
    bool help;
} gpus_args;

static int on_option(int index, const char *value, void *context)
{
    gpus_args *a = context;
    (void)value;
    if (index == OPT_JSON) {
        a->json = true;
    } else if (index == OPT_HELP) {
        a->help = true;
    }
    return EXIT_OK;
}

static void print_table(FILE *out)
{
    char arch[16];
    char text[32];
    int width = 4;
    for (int i = 0; i < occ_gpu_count(); i++) {
        occ_device d;
        occ_gpu_at(i, &d, NULL, NULL);
        int len = (int)strlen(d.name);
        width = len > width ? len : width;
    }
    fprintf(out, "%-*s %-7s %5s %6s %7s %9s %9s %8s  %s\n", width, "name", "arch", "SMs",
            "warps", "blocks", "regs", "smem/SM", "L2 MB", "aliases");
    for (int i = 0; i < occ_gpu_count(); i++) {
        occ_device d;
        bool named;
        const char *const *aliases;
        occ_gpu_at(i, &d, &named, &aliases);
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
    fprintf(out, "\n%d entries: generic compute capabilities, then named GPUs. "
                 "Look-up ignores case, spaces, '-' and '_'.\n",
            occ_gpu_count());
}

static void print_json(FILE *out)
{
    json_t *list = json_array();
    for (int i = 0; i < occ_gpu_count(); i++) {
        occ_device d;
        bool named;
        const char *const *aliases;
        occ_gpu_at(i, &d, &named, &aliases);
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
    json_dumpf(doc, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    fputc('\n', out);
    json_decref(doc);
}

int cmd_gpus(int argc, char **argv, const cli_io *io)
{
    gpus_args a = {0};
    int code = cli_parse_options("gpus", argc, argv, options, OPT_COUNT, on_option, &a, io);
    if (code != EXIT_OK) {
        return code;
    }
    if (a.help) {
        cli_print_help(io->out, "occ gpus [--json]",
                       "The GPU database: one generic entry per compute capability (5.0 to 12.1)\n"
                       "and named GPUs with their SM count, clocks, memory bandwidth and L2.\n"
                       "Any name or alias listed here works with --gpu.",
                       options, OPT_COUNT);
        return EXIT_OK;
    }
    if (a.json) {
        print_json(io->out);
    } else {
        print_table(io->out);
    }
    return EXIT_OK;
}
