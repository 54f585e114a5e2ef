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

#include "calc_args.h"
#include "kernel_args.h"

static const cli_option options[] = {
    KERNEL_OPTIONS,
    {"warps", true, "W", "resident warps per SM (instead of the kernel's --threads, --regs...)"},
    {"ilp", true, "K", "independent loads in flight per thread (default 1)"},
    {"bytes-per-load", true, "B", "bytes each thread loads per load (default 4: a float)"},
    {"traffic-ratio", true, "R", "all bytes moved per byte loaded (default 1; 1.5 for a*x+y)"},
    {"latency-ns", true, "NS", "unloaded memory latency (default: the GPU's, if known)"},
    {"bandwidth", true, "GB/S", "reachable bandwidth in GB/s (default: the GPU's peak)"},
    {"sms", true, "N", "SM count (default: the GPU's)"},
    {"active-sms", true, "N", "SMs holding warps, for grids smaller than the GPU (default all)"},
    {"loaded-latency-factor", true, "A", "latency growth at full load, calibrated (default 0)"},
    {"request-limit", true, "BYTES", "per-SM limit on bytes in flight, calibrated (default none)"},
    {"warp-rate", true, "GB/S", "the most one warp's loads move, calibrated (default none)"},
    {"spill-ratio", true, "R", "spill (local memory) bytes per byte loaded (default 0)"},
    {"json", false, "", "print the prediction as JSON (docs/json.md, occ.latency)"},
    {"help", false, "", "show this help"},
};
enum {
    OPT_WARPS = KOPT_COUNT,
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
    OPT_HELP,
    OPT_COUNT
};

typedef struct latency_args {
    const cli_io *io;
    kernel_args k;
    double warps, ilp, bytes, ratio, latency, bandwidth, alpha, limit, warp_rate, spill;
    long long sms, active;
    bool warps_given;
    bool json;
    bool help;
} latency_args;

/* The numeric options: where each goes, its range, and the words for a bad
   value. */
typedef struct number_option {
    int index;
    size_t offset; /* of the double in latency_args */
    double lo, hi;
    const char *what;
} number_option;

static const number_option numbers[] = {
    {OPT_WARPS, offsetof(latency_args, warps), 0, 4096, "a warp count from 0 to 4096"},
    {OPT_ILP, offsetof(latency_args, ilp), 1e-6, 4096, "a count of loads from 0 to 4096"},
    {OPT_BYTES, offsetof(latency_args, bytes), 1e-6, 4096, "bytes per load from 0 to 4096"},
    {OPT_RATIO, offsetof(latency_args, ratio), 1, 1000, "a ratio of 1 or more"},
    {OPT_LATENCY, offsetof(latency_args, latency), 1e-3, 1e9, "a latency in ns above 0"},
    {OPT_BANDWIDTH, offsetof(latency_args, bandwidth), 1e-3, 1e9, "a bandwidth in GB/s above 0"},
    {OPT_ALPHA, offsetof(latency_args, alpha), 0, 1e6, "a factor of 0 or more"},
    {OPT_WARP_RATE, offsetof(latency_args, warp_rate), 0, 1e6, "a rate in GB/s of 0 or more"},
    {OPT_SPILL, offsetof(latency_args, spill), 0, 1000, "a ratio of 0 or more"},
};

static int on_option(int index, const char *value, void *context)
{
    latency_args *a = context;
    for (size_t i = 0; i < sizeof numbers / sizeof numbers[0]; i++) {
        const number_option *n = &numbers[i];
        if (n->index != index) {
            continue;
        }
        double *target = (double *)(void *)((char *)a + n->offset);
        if (!cli_parse_double(value, n->lo, n->hi, target)) {
            return cli_fail(a->io, "latency", EXIT_USAGE, "option --%s: '%s' is not %s",
                            options[index].name, value, n->what);
        }
        a->warps_given |= index == OPT_WARPS;
        return EXIT_OK;
    }
    long long n;
    switch (index) {
    case OPT_SMS:
    case OPT_ACTIVE:
        if (!cli_parse_int(value, 1, 1024, &n)) {
            return cli_fail(a->io, "latency", EXIT_USAGE,
                            "option --%s: '%s' is not an SM count from 1 to 1024",
                            options[index].name, value);
        }
        *(index == OPT_SMS ? &a->sms : &a->active) = n;
        return EXIT_OK;
    case OPT_LIMIT:
        if (!cli_parse_size(value, &n)) {
            return cli_fail(a->io, "latency", EXIT_USAGE,
                            "option --request-limit: '%s' is not a size in bytes", value);
        }
        a->limit = (double)n;
        return EXIT_OK;
    case OPT_JSON: a->json = true; return EXIT_OK;
    case OPT_HELP: a->help = true; return EXIT_OK;
    default: return kernel_args_apply("latency", index, value, &a->k, a->io);
    }
}

static const char *const description =
    "Little's law for loads: a busy memory system needs latency x bandwidth bytes in\n"
    "flight, and a kernel keeps resident warps x 32 x loads in flight per thread x bytes\n"
    "per load of them per SM. Warps (occupancy) and loads per thread (ILP) are\n"
    "interchangeable sources. Prints the predicted fraction of peak bandwidth, the\n"
    "occupancy needed at this ILP and the ILP needed at this occupancy. The model and\n"
    "its assumptions: docs/latency-model.md; occ lab calibrates it on a real GPU.\n"
    "\n"
    "examples:\n"
    "  occ latency --gpu H200 --threads 256 --regs 32 --ilp 2\n"
    "  occ latency --gpu A100 --warps 32 --ilp 4 --latency-ns 600";

static void print_text(FILE *out, const occ_device *d, const latency_args *a,
                       const occ_memory_model *m, const occ_latency_input *in,
                       const occ_latency_result *r)
{
    int max_warps = occ_device_max_warps_per_sm(d);
    char line[768];
    fprintf(out,
            "%s: %.0f ns latency, %.0f GB/s, %d SMs%s\n"
            "kernel: %g warps per SM (%.1f%% occupancy) x 32 threads x %g loads in flight x "
            "%g bytes\n\n",
            d->name, m->latency_ns, m->peak_gb_per_s, m->sm_count,
            m->loaded_latency_factor > 0 ? " (with loaded latency)" : "", in->warps_per_sm,
            in->warps_per_sm / max_warps * 100.0, in->loads_in_flight_per_thread,
            in->bytes_per_load);
    fprintf(out, "bytes in flight per SM      %10.0f\n", r->bytes_in_flight_per_sm);
    fprintf(out, "needed to saturate memory   %10.0f  (latency x bandwidth / SMs)\n",
            r->bytes_in_flight_needed_per_sm);
    fprintf(out, "predicted bandwidth         %10.0f GB/s  (%.0f%% of %.0f)\n",
            r->predicted_gb_per_s, r->fraction_of_peak * 100.0, m->peak_gb_per_s);
    fprintf(out, "bound by                    %10s\n\n", occ_latency_bound_name(r->bound));
    double warps_needed = r->warps_needed_per_sm;
    if (warps_needed <= max_warps) {
        snprintf(line, sizeof line,
                 "At %g loads in flight per thread, %.1f warps per SM (%.0f%% occupancy) "
                 "saturate memory.",
                 in->loads_in_flight_per_thread, warps_needed, warps_needed / max_warps * 100.0);
    } else {
        snprintf(line, sizeof line,
                 "At %g loads in flight per thread, %.1f warps per SM would be needed, more "
                 "than the %d an SM holds: raise the loads in flight per thread.",
                 in->loads_in_flight_per_thread, warps_needed, max_warps);
    }
    cli_print_wrapped(out, line, 0);
    if (in->warps_per_sm > 0) {
        snprintf(line, sizeof line,
                 "At %g warps per SM, %.1f independent loads in flight per thread saturate "
                 "memory.",
                 in->warps_per_sm, r->loads_per_thread_needed);
        cli_print_wrapped(out, line, 0);
    }
    if (r->bound == OCC_BOUND_BANDWIDTH) {
        cli_print_wrapped(out,
                          "Memory is saturated: more occupancy or more ILP buys no bandwidth "
                          "here.",
                          0);
    }
    (void)a;
}

int cmd_latency(int argc, char **argv, const cli_io *io)
{
    latency_args a = {.io = io, .ilp = 1, .bytes = 4, .ratio = 1};
    kernel_args_init(&a.k);
    int code = cli_parse_options("latency", argc, argv, options, OPT_COUNT, on_option, &a, io);
    if (code != EXIT_OK) {
        return code;
    }
    if (a.help) {
        cli_print_help(io->out,
                       "occ latency --gpu NAME (--warps W | --threads N [--regs N] ...) "
                       "[--ilp K] [--bytes-per-load B] [options]",
                       description, options, OPT_COUNT);
        return EXIT_OK;
    }
    if (a.warps_given && a.k.threads_given) {
        return cli_fail(io, "latency", EXIT_USAGE,
                        "options --warps and --threads: give one (warps, or the kernel)");
    }
    if (!a.warps_given && !a.k.threads_given) {
        return cli_fail(io, "latency", EXIT_USAGE,
                        "option --warps or --threads: one is required (resident warps, or "
                        "the kernel to compute them)");
    }
    occ_device dev;
    code = kernel_args_resolve("latency", &a.k, false, &dev, io);
    if (code != EXIT_OK) {
        return code;
    }
    if (a.warps_given && a.warps > occ_device_max_warps_per_sm(&dev)) {
        return cli_fail(io, "latency", EXIT_USAGE,
                        "option --warps: %g exceeds the %d warps an "
                        "SM of %s holds",
                        a.warps, occ_device_max_warps_per_sm(&dev), dev.name);
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
                        "GPU %s: has no measured memory latency in the database; give "
                        "--latency-ns (occ lab latency measures it)",
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
    occ_latency_input in = {.warps_per_sm = a.warps,
                            .loads_in_flight_per_thread = a.ilp,
                            .bytes_per_load = a.bytes,
                            .active_sms = (int)a.active,
                            .bytes_moved_per_byte_loaded = a.ratio,
                            .spill_bytes_per_byte_loaded = a.spill};
    occ_result calc;
    bool have_calc = false;
    occ_error err;
    if (!a.warps_given) {
        if (occ_calc(&dev, &a.k.kernel, &calc, &err) != OCC_OK) {
            return cli_fail(io, "latency", EXIT_USAGE, "%s", err.message);
        }
        in.warps_per_sm = calc.warps_per_sm;
        have_calc = true;
    }
    occ_latency_result r;
    if (occ_latency_predict(&m, &in, &r, &err) != OCC_OK) {
        return cli_fail(io, "latency", EXIT_USAGE, "%s", err.message);
    }
    int max_warps = occ_device_max_warps_per_sm(&dev);
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
        if (have_calc) {
            json_object_set_new(doc, "kernel_blocks_per_sm", json_integer(calc.blocks_per_sm));
        }
        cli_print_json(io->out, doc);
    } else {
        print_text(io->out, &dev, &a, &m, &in, &r);
    }
    return EXIT_OK;
}
