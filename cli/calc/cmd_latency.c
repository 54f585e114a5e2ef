/*
 * cmd_latency.c - `occ latency`: Little's law for a kernel's loads. Bytes in
 * flight per SM from resident warps (given, or from occ_calc of the kernel)
 * and loads in flight per thread; the GPU's latency and bandwidth (from the
 * database or given) say what fraction of peak that sustains, the occupancy
 * needed at this ILP and the ILP needed at this occupancy
 * (occ_latency_predict in libocc; docs/latency-model.md).
 */
#include <stddef.h>
#include <string.h>

#include "calc_output.h"
#include "launch.h"
#include "output.h"
#include "values.h"

enum {
    OPT_WARPS = LAUNCH_OPTION_COUNT,
    OPT_ILP,
    OPT_BYTES,
    OPT_RATIO,
    OPT_LATENCY,
    OPT_BANDWIDTH,
    OPT_SMS,
    OPT_ACTIVE,
    OPT_ALPHA,
    OPT_LIMIT,
    OPT_WARP_RATE,
    OPT_SPILL,
    OPT_JSON,
    OPT_END
};

#define ROW(id) [id - LAUNCH_OPTION_COUNT]
static const cli_option options[] = {
    ROW(OPT_WARPS) = {OPT_WARPS, "warps", "W",
                      "resident warps per SM, above 0 (instead of the kernel's --threads, ...)"},
    ROW(OPT_ILP) = {OPT_ILP, "ilp", "K", "independent loads in flight per thread (default 1)"},
    ROW(OPT_BYTES) = {OPT_BYTES, "bytes-per-load", "B",
                      "bytes each thread loads per load (default 4: a float)"},
    ROW(OPT_RATIO) = {OPT_RATIO, "traffic-ratio", "R",
                      "all bytes moved per byte loaded (default 1; 1.5 for a*x+y)"},
    ROW(OPT_LATENCY) = {OPT_LATENCY, "latency-ns", "NS",
                        "unloaded memory latency (default: the GPU's, with its source)"},
    ROW(OPT_BANDWIDTH) = {OPT_BANDWIDTH, "bandwidth", "GB/S",
                          "reachable bandwidth in GB/s (default: the GPU's peak)"},
    ROW(OPT_SMS) = {OPT_SMS, "sms", "N", "SM count, 1..1024 (default: the GPU's)"},
    ROW(OPT_ACTIVE) = {OPT_ACTIVE, "active-sms", "N",
                       "SMs holding warps, 1..the SM count, for grids smaller than the GPU"},
    ROW(OPT_ALPHA) = {OPT_ALPHA, "loaded-latency-factor", "A",
                      "latency growth at full load, calibrated (default 0)"},
    ROW(OPT_LIMIT) = {OPT_LIMIT, "request-limit", "BYTES",
                      "per-SM limit on bytes in flight, calibrated (default none)"},
    ROW(OPT_WARP_RATE) = {OPT_WARP_RATE, "warp-rate", "GB/S",
                          "the most one warp's loads move, calibrated (default none)"},
    ROW(OPT_SPILL) = {OPT_SPILL, "spill-ratio", "R",
                      "spill (local memory) bytes per byte loaded (default 0)"},
    ROW(OPT_JSON) = {OPT_JSON, "json", NULL,
                     "print the prediction as JSON (docs/json.md, occ.latency)"},
};
#undef ROW
_Static_assert(sizeof options / sizeof options[0] == OPT_END - LAUNCH_OPTION_COUNT,
               "one entry per latency option id");

static const cli_help help = {
    .name = "latency",
    .summary = "Little's law: do the loads in flight saturate memory?",
    .usage = "occ latency --gpu NAME (--warps W | --threads N [--regs N] ...) [--ilp K] "
             "[--bytes-per-load B] [options]",
    .description =
        "Little's law for loads: a busy memory system needs latency x bandwidth bytes in\n"
        "flight, and a kernel keeps resident warps x 32 x loads in flight per thread x\n"
        "bytes per load of them per SM. Warps (occupancy) and loads per thread (ILP) are\n"
        "interchangeable sources. Prints the predicted fraction of peak bandwidth, the\n"
        "occupancy needed at this ILP and the ILP needed at this occupancy. The model\n"
        "and its assumptions: docs/latency-model.md; occ lab calibrates it on a real\n"
        "GPU. Every GPU has a memory latency: measured by occ, published for the\n"
        "product, or its architecture's; the output says which (docs/hardware.md).\n"
        "A kernel with no block resident, or --warps 0, has no loads in flight: that is\n"
        "an error (exit 1), not advice.",
    .examples = "occ latency --gpu H200 --threads 256 --regs 32 --ilp 2\n"
                "occ latency --gpu A100 --warps 32 --ilp 4 --latency-ns 600",
};

static const cli_option_table tables[] = {LAUNCH_OPTION_TABLE,
                                          {options, OPT_END - LAUNCH_OPTION_COUNT}};
const cli_command_spec latency_spec = {&help, tables, (int)(sizeof tables / sizeof tables[0])};

typedef struct latency_args {
    double warps, ilp, bytes, ratio, latency, bandwidth, alpha, limit, warp_rate, spill;
    long long sms;
    const char *active; /* --active-sms, read once the SM count is known */
    bool warps_given;
    bool json;
} latency_args;

/* The numeric options: where each goes and its range; a range that excludes
   its low end says "above" it ("--ilp 0": loads in flight must be above 0). */
typedef struct number_option {
    int id;
    size_t offset; /* of the double in latency_args */
    double lo, hi;
    bool lo_excluded;
    const char *what;
} number_option;

static const number_option numbers[] = {
    {OPT_WARPS, offsetof(latency_args, warps), 0, 4096, true, "warps per SM"},
    {OPT_ILP, offsetof(latency_args, ilp), 0, 4096, true, "loads in flight per thread"},
    {OPT_BYTES, offsetof(latency_args, bytes), 0, 4096, true, "bytes per load"},
    {OPT_RATIO, offsetof(latency_args, ratio), 1, 1000, false, "bytes moved per byte loaded"},
    {OPT_LATENCY, offsetof(latency_args, latency), 0, 1e9, true, "latency in ns"},
    {OPT_BANDWIDTH, offsetof(latency_args, bandwidth), 0, 1e9, true, "bandwidth in GB/s"},
    {OPT_ALPHA, offsetof(latency_args, alpha), 0, 1e6, false, "loaded-latency factor"},
    {OPT_WARP_RATE, offsetof(latency_args, warp_rate), 0, 1e6, false, "GB/s per warp"},
    {OPT_SPILL, offsetof(latency_args, spill), 0, 1000, false, "spill bytes per byte loaded"},
};

static bool on_option(int id, const char *value, void *context, cli_error *err)
{
    latency_args *a = context;
    for (size_t i = 0; i < sizeof numbers / sizeof numbers[0]; i++) {
        const number_option *n = &numbers[i];
        if (n->id != id) {
            continue;
        }
        double *target = (double *)(void *)((char *)a + n->offset);
        if (!cli_parse_double(value, n->lo, n->hi, target, err)) {
            return cli_error_prefix(err, "%s: ", n->what);
        }
        if (n->lo_excluded && *target <= n->lo) {
            return cli_error_set(err, EXIT_USAGE, "%s: '%.40s' must be above %g (up to %g)",
                                 n->what, value, n->lo, n->hi);
        }
        a->warps_given |= id == OPT_WARPS;
        return true;
    }
    long long n;
    switch (id) {
    case OPT_SMS:
        if (!cli_parse_int(value, 1, 1024, &a->sms, err)) {
            return cli_error_prefix(err, "SM count: ");
        }
        return true;
    case OPT_ACTIVE:
        /* its range is 1 .. the SM count, known once the GPU is */
        a->active = value;
        return true;
    case OPT_LIMIT:
        if (!cli_parse_size(value, &n, err)) {
            return false;
        }
        a->limit = (double)n;
        return true;
    case OPT_JSON: a->json = true; return true;
    default: return cli_error_set(err, EXIT_USAGE, "argument '%.80s': is not an option", value);
    }
}

static void print_text(FILE *out, const occ_device *d, const occ_memory_model *m,
                       const occ_latency_input *in, const occ_latency_result *r)
{
    int max_warps = occ_device_max_warps_per_sm(d);
    char line[768];
    fprintf(out,
            "%s: %.0f ns latency, %.0f GB/s, %d SMs%s\n"
            "kernel: %g %s per SM (%.1f%% occupancy) x 32 threads x %g %s in flight x "
            "%g %s\n\n",
            d->name, m->latency_ns, m->peak_gb_per_s, m->sm_count,
            m->loaded_latency_factor > 0 ? " (with loaded latency)" : "", in->warps_per_sm,
            cli_plural(in->warps_per_sm, "warp", "warps"), in->warps_per_sm / max_warps * 100.0,
            in->loads_in_flight_per_thread,
            cli_plural(in->loads_in_flight_per_thread, "load", "loads"), in->bytes_per_load,
            cli_plural(in->bytes_per_load, "byte", "bytes"));
    fprintf(out, "bytes in flight per SM      %10.0f\n", r->bytes_in_flight_per_sm);
    fprintf(out, "needed to saturate memory   %10.0f  (latency x bandwidth / SMs)\n",
            r->bytes_in_flight_needed_per_sm);
    fprintf(out, "predicted bandwidth         %10.0f GB/s  (%.0f%% of %.0f)\n",
            r->predicted_gb_per_s, r->fraction_of_peak * 100.0, m->peak_gb_per_s);
    fprintf(out, "bound by                    %10s\n\n", occ_latency_bound_name(r->bound));
    double warps_needed = r->warps_needed_per_sm;
    if (warps_needed <= max_warps) {
        snprintf(line, sizeof line,
                 "At %g %s in flight per thread, %.1f warps per SM (%.0f%% occupancy) "
                 "saturate memory.",
                 in->loads_in_flight_per_thread,
                 cli_plural(in->loads_in_flight_per_thread, "load", "loads"), warps_needed,
                 warps_needed / max_warps * 100.0);
    } else {
        snprintf(line, sizeof line,
                 "At %g %s in flight per thread, %.1f warps per SM would be needed, more "
                 "than the %d an SM holds: raise the loads in flight per thread.",
                 in->loads_in_flight_per_thread,
                 cli_plural(in->loads_in_flight_per_thread, "load", "loads"), warps_needed,
                 max_warps);
    }
    cli_print_wrapped(out, line, 0);
    if (in->warps_per_sm > 0) {
        snprintf(line, sizeof line,
                 "At %g %s per SM, %.1f independent loads in flight per thread saturate "
                 "memory.",
                 in->warps_per_sm, cli_plural(in->warps_per_sm, "warp", "warps"),
                 r->loads_per_thread_needed);
        cli_print_wrapped(out, line, 0);
    }
    if (r->bound == OCC_BOUND_BANDWIDTH) {
        cli_print_wrapped(out,
                          "Memory is saturated: more occupancy or more ILP buys no bandwidth "
                          "here.",
                          0);
    }
}

int cmd_latency(int argc, char **argv, const cli_io *io)
{
    latency_args a = {.ilp = 1, .bytes = 4, .ratio = 1};
    launch_args la;
    launch_args_init(&la);
    launch_command cmd = {&latency_spec, on_option, &a, false, false};
    cli_error cerr;
    bool done;
    if (!launch_parse(&cmd, argc, argv, io, &la, &done, &cerr)) {
        return cli_report(io, "latency", &cerr);
    }
    if (done) {
        return EXIT_OK;
    }
    if (a.warps_given && la.threads_given) {
        return cli_fail(io, "latency", EXIT_USAGE,
                        "options --warps and --threads: give one (warps, or the kernel)");
    }
    if (!a.warps_given && !la.threads_given) {
        return cli_fail(io, "latency", EXIT_USAGE,
                        "option --warps or --threads: one is required (resident warps, or "
                        "the kernel to compute them)");
    }
    occ_device dev;
    if (!launch_resolve(&cmd, io, &la, &dev, &cerr)) {
        return cli_report(io, "latency", &cerr);
    }
    if (a.warps_given && a.warps > occ_device_max_warps_per_sm(&dev)) {
        return cli_fail(io, "latency", EXIT_USAGE,
                        "option --warps: %g exceeds the %d warps an SM of %s holds", a.warps,
                        occ_device_max_warps_per_sm(&dev), dev.name);
    }
    occ_memory_model m = {.latency_ns = a.latency > 0 ? a.latency : dev.mem_latency_ns,
                          .peak_gb_per_s =
                              a.bandwidth > 0 ? a.bandwidth : dev.mem_bandwidth_gb_per_s,
                          .loaded_latency_factor = a.alpha,
                          .max_bytes_in_flight_per_sm = a.limit,
                          .sm_count = a.sms > 0 ? (int)a.sms : dev.sm_count,
                          .max_gb_per_s_per_warp = a.warp_rate};
    if (m.latency_ns <= 0) {
        return cli_fail(io, "latency", EXIT_USAGE,
                        "GPU %s: has no memory latency in the database; give --latency-ns "
                        "(occ lab latency measures it)",
                        dev.name);
    }
    if (m.peak_gb_per_s <= 0) {
        return cli_fail(io, "latency", EXIT_USAGE,
                        "GPU %s: has no memory bandwidth in the database; give --bandwidth",
                        dev.name);
    }
    if (m.sm_count <= 0) {
        return cli_fail(io, "latency", EXIT_USAGE,
                        "GPU %s: has no SM count in the database; give --sms", dev.name);
    }
    long long active_sms = 0;
    if (a.active != NULL && !cli_parse_int(a.active, 1, m.sm_count, &active_sms, &cerr)) {
        return cli_fail(io, "latency", EXIT_USAGE, "option --active-sms: %s (%s has %d SMs)",
                        cerr.message, dev.name, m.sm_count);
    }
    occ_latency_input in = {.warps_per_sm = a.warps,
                            .loads_in_flight_per_thread = a.ilp,
                            .bytes_per_load = a.bytes,
                            .active_sms = (int)active_sms,
                            .bytes_moved_per_byte_loaded = a.ratio,
                            .spill_bytes_per_byte_loaded = a.spill};
    occ_result calc;
    bool have_calc = false;
    occ_error err;
    if (!a.warps_given) {
        if (occ_calc(&dev, &la.kernel, &calc, &err) != OCC_OK) {
            return cli_fail(io, "latency", EXIT_USAGE, "%s", err.message);
        }
        if (calc.warps_per_sm <= 0) {
            /* no block resident: no loads in flight, and no advice that helps */
            return cli_fail(io, "latency", EXIT_DATA,
                            "nothing fits: no block of this kernel is resident on %s (%s)",
                            dev.name, occ_zero_reason_text(calc.zero_reason));
        }
        in.warps_per_sm = calc.warps_per_sm;
        have_calc = true;
    }
    /* A cluster launch keeps only its active clusters' SMs busy, with their
       blocks spread over them (occ_cluster_calc). */
    occ_cluster_result cluster;
    if (la.cluster_given && occ_cluster_calc(&dev, &la.kernel, &cluster, &err) == OCC_OK &&
        cluster.active_sms > 0) {
        if (a.active == NULL) {
            in.active_sms = cluster.active_sms;
        }
        if (have_calc) {
            in.warps_per_sm =
                (double)cluster.active_blocks * calc.warps_per_block / cluster.active_sms;
        }
    }
    occ_latency_result r;
    if (occ_latency_predict(&m, &in, &r, &err) != OCC_OK) {
        return cli_fail(io, "latency", EXIT_USAGE, "%s", err.message);
    }
    int max_warps = occ_device_max_warps_per_sm(&dev);
    const char *source = a.latency > 0 ? "given" : occ_latency_source_name(dev.mem_latency_source);
    const char *citation = a.latency > 0 ? NULL : dev.mem_latency_citation;
    if (a.json) {
        json_t *doc = json_pack(
            "{s:s, s:i, s:s, s:o, s:{s:f, s:f, s:f, s:f, s:i, s:f}, s:{s:f, s:f, s:f, s:f, s:i, "
            "s:f, s:f}, s:{s:f, s:f, s:f, s:f, s:f, s:s, s:f, s:f, s:f}}",
            "schema", "occ.latency", "version", 1, "occ_version", occ_version(), "gpu",
            gpu_to_json(&dev, dev.sm_count > 0), "model", "latency_ns", m.latency_ns,
            "peak_gb_per_s", m.peak_gb_per_s, "loaded_latency_factor", m.loaded_latency_factor,
            "max_bytes_in_flight_per_sm", m.max_bytes_in_flight_per_sm, "sm_count", m.sm_count,
            "max_gb_per_s_per_warp", m.max_gb_per_s_per_warp, "input", "warps_per_sm",
            in.warps_per_sm, "occupancy", in.warps_per_sm / max_warps, "loads_in_flight_per_thread",
            in.loads_in_flight_per_thread, "bytes_per_load", in.bytes_per_load, "active_sms",
            in.active_sms > 0 ? in.active_sms : m.sm_count, "bytes_moved_per_byte_loaded", a.ratio,
            "spill_bytes_per_byte_loaded", a.spill, "prediction", "bytes_in_flight_per_sm",
            r.bytes_in_flight_per_sm, "bytes_in_flight_needed_per_sm",
            r.bytes_in_flight_needed_per_sm, "predicted_gb_per_s", r.predicted_gb_per_s,
            "fraction_of_peak", r.fraction_of_peak, "loaded_latency_ns", r.loaded_latency_ns,
            "bound", occ_latency_bound_name(r.bound), "warps_needed_per_sm", r.warps_needed_per_sm,
            "occupancy_needed", r.warps_needed_per_sm / max_warps, "loads_per_thread_needed",
            r.loads_per_thread_needed);
        json_t *model = json_object_get(doc, "model");
        json_object_set_new(model, "latency_source", json_string(source));
        json_object_set_new(model, "latency_citation",
                            citation != NULL ? json_string(citation) : json_null());
        if (have_calc) {
            json_object_set_new(doc, "kernel_blocks_per_sm", json_integer(calc.blocks_per_sm));
        }
        cli_print_json(io->out, doc);
    } else {
        print_text(io->out, &dev, &m, &in, &r);
        if (citation != NULL) {
            fputc('\n', io->out);
            cli_print_wrappedf(io->out, 0, "Memory latency %.0f ns (%s%s): %s.", m.latency_ns,
                               source,
                               dev.mem_latency_source == OCC_LATENCY_ARCHITECTURE
                                   ? ": no figure of this GPU, its architecture's"
                                   : "",
                               citation);
        } else if (a.latency > 0) {
            fprintf(io->out, "\nMemory latency %.0f ns: given (--latency-ns).\n", m.latency_ns);
        } else if (dev.mem_latency_source == OCC_LATENCY_GIVEN) {
            fprintf(io->out, "\nMemory latency %.0f ns: given (--gpu-file).\n", m.latency_ns);
        }
    }
    return EXIT_OK;
}
