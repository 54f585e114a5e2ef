/*
 * cmd_explain.c - `occ explain`: occ_calc's answer worked step by step with
 * the kernel's numbers, what is left over, the smallest change of each input
 * that gains residency, and the caution that occupancy is not speed. The
 * words and numbers come from occ_explain() in libocc (the web page shows
 * the same text).
 */
#include <string.h>

#include "calc_output.h"
#include "cluster_output.h"
#include "launch.h"
#include "output.h"

enum { OPT_JSON = LAUNCH_OPTION_COUNT, OPT_END };

static const cli_option options[] = {
    [OPT_JSON -
     LAUNCH_OPTION_COUNT] = {OPT_JSON, "json", NULL,
                             "print the explanation as JSON (docs/json.md, occ.explain)"},
};
_Static_assert(sizeof options / sizeof options[0] == OPT_END - LAUNCH_OPTION_COUNT,
               "one entry per explain option id");

static const cli_help help = {
    .name = "explain",
    .summary = "the occupancy worked step by step, and what would change it",
    .usage = "occ explain --gpu NAME --threads N [--regs N] [--smem BYTES] [--dyn-smem BYTES] "
             "[options]",
    .description =
        "Works out the occupancy the way a person would by hand: each resource's limit\n"
        "with this kernel's numbers (registers per warp and their rounding,\n"
        "sub-partitions, shared memory with the driver's reserve and the carveout, warp\n"
        "and block slots, barriers), the minimum and every limit that ties; then what is\n"
        "left over, the smallest change of each input that gains residency, and when\n"
        "more occupancy buys nothing.",
    .examples = "occ explain --gpu H200 --threads 256 --regs 64 --smem 16K\n"
                "occ explain --gpu A100 --threads 128 --regs 32 --dyn-smem 100K --json",
};

static const cli_option_table tables[] = {LAUNCH_OPTION_TABLE,
                                          {options, OPT_END - LAUNCH_OPTION_COUNT}};
const cli_command_spec explain_spec = {&help, tables, (int)(sizeof tables / sizeof tables[0])};

static bool on_option(int id, const char *value, void *context, cli_error *err)
{
    bool *json = context;
    if (id == OPT_JSON) {
        *json = true;
        return true;
    }
    return cli_error_set(err, EXIT_USAGE, "argument '%.80s': is not an option", value);
}

static json_t *option_json(const occ_explain_option *o)
{
    return json_pack("{s:i, s:i, s:i, s:f}", "value", o->value, "blocks_per_sm", o->blocks_per_sm,
                     "warps_per_sm", o->warps_per_sm, "occupancy", o->occupancy);
}

static json_t *explanation_json(const occ_device *dev, const occ_kernel *k,
                                const occ_explanation *e)
{
    static const char *const inputs[4] = {"regs", "smem", "threads", "barriers"};
    json_t *doc = calc_to_json(dev, k, &e->result);
    json_object_set_new(doc, "schema", json_string("occ.explain"));
    json_object_set_new(doc, "summary", json_string(e->summary));
    json_t *steps = json_array();
    for (int i = 0; i < e->step_count; i++) {
        const occ_explain_step *s = &e->steps[i];
        json_array_append_new(steps, json_pack("{s:s, s:o, s:b, s:s}", "resource",
                                               occ_limiter_name(s->resource), "limit_blocks",
                                               s->limit_blocks == OCC_UNLIMITED
                                                   ? json_null()
                                                   : json_integer(s->limit_blocks),
                                               "binds", s->binds, "text", s->text));
    }
    json_object_set_new(doc, "steps", steps);
    json_object_set_new(
        doc, "waste",
        json_pack("{s:i, s:i, s:i, s:i, s:i, s:i, s:s}", "regs_unallocated_per_sm",
                  e->regs_unallocated_per_sm, "regs_rounding_per_warp", e->regs_rounding_per_warp,
                  "smem_unused_per_sm_bytes", e->smem_unused_per_sm_bytes, "warp_slots_unused",
                  e->warp_slots_unused, "warp_slots_stranded", e->warp_slots_stranded,
                  "idle_lanes_per_block", e->idle_lanes_per_block, "text", e->waste));
    json_t *changes = json_array();
    for (int i = 0; i < e->change_count; i++) {
        const occ_explain_change *c = &e->changes[i];
        json_array_append_new(
            changes, json_pack("{s:s, s:i, s:b, s:o, s:o, s:s}", "input", inputs[c->input],
                               "current_value", c->current_value, "helps", c->helps, "next",
                               c->helps ? option_json(&c->next) : json_null(), "best",
                               c->helps ? option_json(&c->best) : json_null(), "text", c->text));
    }
    json_object_set_new(doc, "changes", changes);
    json_object_set_new(doc, "caution", json_string(e->caution));
    return doc;
}

/* The kernel in one line, then libocc's own text (occ_explain_text, the web
   page's too), each line wrapped: bullets hang by two columns. */
static void print_explanation(FILE *out, const occ_device *dev, const occ_kernel *k,
                              bool regs_given, char *text)
{
    char arch[16], st[32], dy[32];
    int threads = k->block_x * k->block_y * k->block_z;
    occ_arch_name(dev->cc_major, dev->cc_minor, arch, sizeof arch);
    fprintf(out,
            "%s (%s): %d %s per block, %d %s per thread%s, %s static + %s "
            "dynamic bytes of shared memory per block\n\n",
            dev->name, arch, threads, cli_plural(threads, "thread", "threads"), k->regs_per_thread,
            cli_plural(k->regs_per_thread, "register", "registers"),
            regs_given ? "" : " (not given)", group_digits(k->static_smem_bytes, st, sizeof st),
            group_digits(k->dyn_smem_bytes, dy, sizeof dy));
    for (char *line = text; *line != '\0';) {
        char *end = strchr(line, '\n');
        if (end != NULL) {
            *end = '\0';
        }
        bool bullet = (line[0] == '*' || line[0] == '-') && line[1] == ' ';
        cli_print_wrapped(out, line, bullet ? 2 : 0);
        if (end == NULL) {
            break;
        }
        line = end + 1;
    }
}

int cmd_explain(int argc, char **argv, const cli_io *io)
{
    bool json = false;
    launch_args la;
    launch_args_init(&la);
    launch_command cmd = {&explain_spec, on_option, &json, true, false};
    occ_device dev;
    cli_error err;
    bool done;
    if (!launch_setup(&cmd, argc, argv, io, &la, &dev, &done, &err)) {
        return cli_report(io, "explain", &err);
    }
    if (done) {
        return EXIT_OK;
    }
    occ_error oerr;
    occ_status status;
    if (json) {
        static occ_explanation e;
        status = occ_explain(&dev, &la.kernel, &e, &oerr);
        if (status == OCC_OK) {
            json_t *doc = explanation_json(&dev, &la.kernel, &e);
            calc_json_set_regs_given(doc, la.regs_given);
            cli_print_json(io->out, doc);
        }
    } else {
        static char text[OCC_EXPLAIN_TEXT_MAX];
        status =
            occ_explain_text(&dev, &la.kernel, text, sizeof text, &oerr) > 0 ? OCC_OK : oerr.status;
        if (status == OCC_OK) {
            print_explanation(io->out, &dev, &la.kernel, la.regs_given, text);
            cluster_print_text(io->out, &dev, &la.kernel); /* with --cluster */
        }
    }
    if (status != OCC_OK) {
        /* a cut text is occ's failure, not the user's: never print it */
        return cli_fail(io, "explain", status == OCC_ERR_TEXT_TRUNCATED ? EXIT_DATA : EXIT_USAGE,
                        "%s", oerr.message);
    }
    return EXIT_OK;
}
