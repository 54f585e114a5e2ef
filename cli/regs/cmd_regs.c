/*
 * cmd_regs.c - `occ regs FILE [-- NVCC-ARGS]`: what each register cap costs
 * in spills and buys in warps. FILE is PTX, a .cu (compiled by nvcc -ptx
 * with the arguments after --), or a fatbin or binary that embeds PTX. The
 * engine is libocc-inspect's (include/occ_regs.h): the toolkit's own ptxas
 * at every cap where the launch's occupancy changes, in parallel and
 * cached; here are the options, the progress line and the printers
 * (regs_text.c, regs_svg.c, and the engine's JSON).
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gpu_select.h"
#include "options.h"
#include "output.h"
#include "regs.h"
#include "values.h"

enum {
    OPT_THREADS = GPU_OPTION_COUNT,
    OPT_DYN_SMEM,
    OPT_ARCH,
    OPT_KERNEL,
    OPT_CAPS,
    OPT_MIN_BLOCKS,
    OPT_JOBS,
    OPT_PTXAS,
    OPT_NVCC,
    OPT_CACHE_DIR,
    OPT_NO_CACHE,
    OPT_BYTES_LOADED,
    OPT_ILP,
    OPT_BYTES_PER_LOAD,
    OPT_JSON,
    OPT_SVG,
    OPT_HELP,
    OPT_END
};

#define OPT_FIRST OPT_THREADS
#define ROW(id) [(id)-OPT_FIRST]
static const cli_option options[] = {
    ROW(OPT_THREADS) = {OPT_THREADS, "threads", "N",
                        "block size: 256, 16x16 (default: .reqntid, .maxntid, else 256)"},
    ROW(OPT_DYN_SMEM) = {OPT_DYN_SMEM, "dyn-smem", "BYTES",
                         "dynamic shared memory per block: 4096, 48K (default 0)"},
    ROW(OPT_ARCH) = {OPT_ARCH, "arch", "ARCH",
                     "compile for sm_90, sm_90a, ... (default: --gpu's, else the PTX's "
                     ".target); in a binary it picks the PTX"},
    ROW(OPT_KERNEL) = {OPT_KERNEL, "kernel", "GLOB",
                       "only kernels whose mangled or demangled name matches (fnmatch)"},
    ROW(OPT_CAPS) = {OPT_CAPS, "caps", "LIST",
                     "caps to compile at: 64,48,32 (default: the occupancy staircase's steps)"},
    ROW(OPT_MIN_BLOCKS) = {OPT_MIN_BLOCKS, "min-blocks", "LIST",
                           "__launch_bounds__ minimum blocks to compile: 1,2,4, or none "
                           "(default: 1 to what the block size allows)"},
    ROW(OPT_JOBS) = {OPT_JOBS, "jobs", "N", "compiles at once, 1..64 (default: every core)"},
    ROW(OPT_PTXAS) = {OPT_PTXAS, "ptxas", "PATH",
                      "the ptxas to run (default: $CUDA_HOME/bin, PATH, /usr/local/cuda/bin)"},
    ROW(OPT_NVCC) = {OPT_NVCC, "nvcc", "PATH", "the nvcc for a .cu (default: found as ptxas is)"},
    ROW(OPT_CACHE_DIR) = {OPT_CACHE_DIR, "cache-dir", "DIR",
                          "the compile cache (default: $OCC_CACHE_DIR, $XDG_CACHE_HOME/occ/regs, "
                          "~/.cache/occ/regs)"},
    ROW(OPT_NO_CACHE) = {OPT_NO_CACHE, "no-cache", NULL, "compile everything, store nothing"},
    ROW(OPT_BYTES_LOADED) = {OPT_BYTES_LOADED, "bytes-loaded", "B",
                             "global bytes a thread loads per pass where it spills: turns on "
                             "the latency model's prediction"},
    ROW(OPT_ILP) = {OPT_ILP, "ilp", "K",
                    "with --bytes-loaded: independent loads in flight per thread (default 1)"},
    ROW(OPT_BYTES_PER_LOAD) = {OPT_BYTES_PER_LOAD, "bytes-per-load", "B",
                               "with --bytes-loaded: bytes per load (default 4)"},
    ROW(OPT_JSON) = {OPT_JSON, "json", NULL, "JSON (schema occ.regs, docs/regs.md)"},
    ROW(OPT_SVG) = {OPT_SVG, "svg", "FILE", "also write spills and occupancy against the cap"},
    ROW(OPT_HELP) = {OPT_HELP, "help", NULL, "show this help (also -h)"},
};
_Static_assert(sizeof options / sizeof options[0] == OPT_END - OPT_FIRST,
               "one entry per regs option id");

static const cli_help help = {
    .name = "regs",
    .summary = "what each register cap costs in spills and buys in warps (ptxas sweep)",
    .usage = "occ regs [options] FILE.ptx\n"
             "occ regs [options] FILE.cu [-- NVCC-ARGS]\n"
             "occ regs [options] --arch ARCH FILE.fatbin|FILE.so",
    .description =
        "Compiles a kernel's PTX with the toolkit's own ptxas (-v) without a cap and at\n"
        "every cap where the launch's occupancy changes (the staircase's steps: for each\n"
        "block count, the most registers that fit it, below the unconstrained compile's\n"
        "registers and above them up to 255), and as __launch_bounds__(threads, N) for\n"
        "each N the block size allows. For each: registers, spill stores and loads,\n"
        "stack, blocks per SM and occupancy at the launch (--gpu, --threads,\n"
        "--dyn-smem). Then the cap to use and why: no cap, unless a cap adds blocks with\n"
        "no spills and no more stack, and never a compile that cannot run (docs/regs.md);\n"
        "the cliff where spills start; the caps that buy warps only by spilling; and the\n"
        "caps worth timing: no cap and each block count's highest cap without spills.\n"
        "\n"
        "FILE is PTX, a .cu (nvcc -ptx, with the arguments after --), or a fatbin,\n"
        "executable, shared library or object with PTX in it (--arch picks it). Without\n"
        "--gpu the occupancy is on the generic GPU of the arch compiled for. Compiles run\n"
        "in parallel and are cached by content (ptxas version, arch, arguments, PTX).\n"
        "\n"
        "For a warp-specialized kernel (setmaxnreg, sm_90a/sm_100a): its warp groups'\n"
        "register budgets against the block's registers at entry and the SM's, each cap's\n"
        "fit (a cap that does not fit hangs, and is never recommended), whether the code\n"
        "still reconfigures registers (SASS USETMAXREG), and ptxas's C7504-C7509 and\n"
        "ignored-directive messages, as errors (docs/setmaxnreg.md).\n"
        "\n"
        "Exit status: 0 ok; 1 an input, ptxas or nvcc that fails (the line says which),\n"
        "or a kernel with setmaxnreg errors (the report is printed in full, then one line\n"
        "names the first); 2 a usage error (a cap below ptxas's lowest for the arch\n"
        "included).",
    .examples = "occ regs --gpu H200 kernel.ptx\n"
                "occ regs --gpu H200 --threads 128 --kernel 'gemm*' gemm.cu -- -O3 -std=c++17\n"
                "occ regs --gpu H200 --caps 128,96,64 --min-blocks none --json kernel.ptx\n"
                "occ regs --gpu H100 --arch sm_90 --svg caps.svg libkernels.so",
};

static const cli_option_table tables[] = {GPU_OPTION_TABLE, {options, OPT_END - OPT_FIRST}};
const cli_command_spec regs_spec = {&help, tables, 2};

typedef struct regs_args {
    occ_regs_options o;
    gpu_choice gpu;
    occ_device device;
    const char *file;
    int caps[OCC_REGS_MAX_CAPS];
    int min_blocks[OCC_REGS_MAX_MIN_BLOCKS];
    const char *svg_path;
    bool json;
    bool help;
} regs_args;

/* "64,48,32": each whole number in [lo, hi], at most max of them. */
static bool parse_list(const char *text, long long lo, long long hi, int *out, int max, int *count,
                       cli_error *err)
{
    *count = 0;
    const char *p = text;
    for (;;) {
        const char *comma = strchr(p, ',');
        size_t len = comma != NULL ? (size_t)(comma - p) : strlen(p);
        char item[32];
        if (len == 0 || len >= sizeof item) {
            return cli_error_set(err, EXIT_USAGE, "'%.60s' is not a list of numbers (64,48,32)",
                                 text);
        }
        if (*count == max) {
            return cli_error_set(err, EXIT_USAGE, "'%.60s': at most %d values", text, max);
        }
        memcpy(item, p, len);
        item[len] = '\0';
        long long v;
        if (!cli_parse_int(item, lo, hi, &v, err)) {
            return false;
        }
        out[(*count)++] = (int)v;
        if (comma == NULL) {
            return true;
        }
        p = comma + 1;
    }
}

/* sm_90, sm_90a, sm_100f, compute_90, 90 */
static bool parse_arch(const char *text, int *sm, char *suffix, cli_error *err)
{
    const char *p = text;
    if (strncmp(p, "sm_", 3) == 0) {
        p += 3;
    } else if (strncmp(p, "compute_", 8) == 0) {
        p += 8;
    }
    int v = 0;
    int digits = 0;
    while (*p >= '0' && *p <= '9' && digits < 4) {
        v = v * 10 + (*p++ - '0');
        digits++;
    }
    char s = 0;
    if (*p == 'a' || *p == 'f') {
        s = *p++;
    }
    if (digits < 2 || *p != '\0' || v < 50) {
        return cli_error_set(err, EXIT_USAGE,
                             "option --arch: '%.40s' is not an arch such as sm_90 or sm_90a", text);
    }
    *sm = v;
    *suffix = s;
    return true;
}

static bool parse_positive(const char *value, const char *what, double *out, cli_error *err)
{
    if (!cli_parse_double(value, 1e-9, 1e9, out, err)) {
        return cli_error_prefix(err, "%s: ", what);
    }
    return true;
}

static bool on_option(int id, const char *value, void *context, cli_error *err)
{
    regs_args *a = context;
    long long n;
    switch (id) {
    case CLI_POSITIONAL:
        if (a->file != NULL) {
            return cli_error_set(err, EXIT_USAGE,
                                 "'%.200s': one FILE only (nvcc's arguments go after --)", value);
        }
        a->file = value;
        return true;
    case OPT_THREADS: {
        int dims[3];
        if (!cli_parse_block(value, dims, err)) {
            return cli_error_prefix(err, "option --threads: ");
        }
        long long threads = (long long)dims[0] * dims[1] * dims[2];
        if (threads > 1024) {
            return cli_error_set(err, EXIT_USAGE,
                                 "option --threads: '%.40s' is %lld threads, above the maximum, "
                                 "1024",
                                 value, threads);
        }
        a->o.threads = (int)threads;
        return true;
    }
    case OPT_DYN_SMEM:
        if (!cli_parse_size(value, &n, err)) {
            return cli_error_prefix(err, "option --dyn-smem: ");
        }
        a->o.dyn_smem_bytes = (int)n;
        return true;
    case OPT_ARCH: return parse_arch(value, &a->o.arch_sm, &a->o.arch_suffix, err);
    case OPT_KERNEL: a->o.kernel_glob = value; return true;
    case OPT_CAPS:
        if (!parse_list(value, 1, 255, a->caps, OCC_REGS_MAX_CAPS, &a->o.cap_count, err)) {
            return cli_error_prefix(err, "option --caps: ");
        }
        a->o.caps = a->caps;
        return true;
    case OPT_MIN_BLOCKS:
        if (strcmp(value, "none") == 0) {
            a->o.min_blocks = NULL;
            a->o.min_blocks_count = -1;
            return true;
        }
        if (!parse_list(value, 1, OCC_REGS_MAX_MIN_BLOCKS, a->min_blocks, OCC_REGS_MAX_MIN_BLOCKS,
                        &a->o.min_blocks_count, err)) {
            return cli_error_prefix(err, "option --min-blocks: ");
        }
        a->o.min_blocks = a->min_blocks;
        return true;
    case OPT_JOBS:
        if (!cli_parse_int(value, 1, OCC_REGS_MAX_JOBS, &n, err)) {
            return cli_error_prefix(err, "option --jobs: ");
        }
        a->o.jobs = (int)n;
        return true;
    case OPT_PTXAS: a->o.ptxas = value; return true;
    case OPT_NVCC: a->o.nvcc = value; return true;
    case OPT_CACHE_DIR: a->o.cache_dir = value; return true;
    case OPT_NO_CACHE: a->o.cache_dir = ""; return true;
    case OPT_BYTES_LOADED:
        return parse_positive(value, "option --bytes-loaded", &a->o.bytes_loaded_per_thread, err);
    case OPT_ILP:
        return parse_positive(value, "option --ilp", &a->o.loads_in_flight_per_thread, err);
    case OPT_BYTES_PER_LOAD:
        return parse_positive(value, "option --bytes-per-load", &a->o.bytes_per_load, err);
    case OPT_JSON: a->json = true; return true;
    case OPT_SVG: a->svg_path = value; return true;
    case OPT_HELP: a->help = true; return true;
    default:
        if (id >= 0 && id < GPU_OPTION_COUNT) {
            return gpu_option_apply(id, value, &a->gpu, err);
        }
        return cli_error_set(err, EXIT_USAGE, "option id %d is not a regs option", id);
    }
}

/* The progress line, where stderr is a terminal: "compiled 7 of 12". */
static void progress(void *context, int done, int total, bool cached)
{
    (void)cached;
    FILE *err = context;
    fprintf(err, "\rocc regs: compiled %d of %d", done, total);
    fflush(err);
}

static int exit_code(occ_status status)
{
    return status == OCC_ERR_INVALID_ARGUMENT ? EXIT_USAGE : EXIT_DATA;
}

/* The kernels whose setmaxnreg findings are errors (a budget that does not
   fit, a message of ptxas's, setmaxnreg dropped): after the whole report,
   one line that counts them and names the first, and exit status 1, as
   occ calc --batch does for bad rows (docs/regs.md, "Exit status"). */
static int setmaxnreg_errors(const occ_regs_result *r, const cli_io *io)
{
    size_t bad = 0;
    const occ_regs_kernel *first = NULL;
    for (size_t i = 0; i < occ_regs_kernel_count(r); i++) {
        const occ_regs_kernel *k = occ_regs_kernel_at(r, i);
        if (k->setmaxnreg != NULL && k->setmaxnreg->errors[0] != '\0') {
            first = first != NULL ? first : k;
            bad++;
        }
    }
    if (first == NULL) {
        return EXIT_OK;
    }
    const char *errors = first->setmaxnreg->errors;
    const char *nl = strchr(errors, '\n');
    int len = (int)(nl != NULL ? (size_t)(nl - errors) : strlen(errors));
    char name[300];
    return cli_fail(io, "regs", EXIT_DATA, "setmaxnreg errors in %zu %s; %s: %.*s", bad,
                    bad == 1 ? "kernel" : "kernels", cli_visible(first->name, name, sizeof name),
                    len < 400 ? len : 400, errors);
}

static int run(regs_args *a, const char *const *nvcc_args, int nvcc_arg_count, const cli_io *io)
{
    a->o.nvcc_args = nvcc_args;
    a->o.nvcc_arg_count = nvcc_arg_count;
    int fd = fileno(io->err);
    bool terminal = fd >= 0 && isatty(fd);
    if (terminal) {
        a->o.progress = progress;
        a->o.progress_context = io->err;
    }
    occ_regs_result *r = NULL;
    occ_inspect_error ierr;
    occ_status status = occ_regs_run(a->file, NULL, 0, &a->o, &r, &ierr);
    if (terminal) {
        fputs("\r\033[K", io->err);
    }
    if (status != OCC_OK) {
        return cli_fail(io, "regs", exit_code(status), "%s", ierr.message);
    }
    int code = EXIT_OK;
    cli_error err;
    if (a->json) {
        occ_regs_json_write(r, io->out, &ierr); /* a write error is the CLI's check */
    } else {
        regs_print_text(io->out, r, a->o.bytes_loaded_per_thread > 0);
    }
    if (a->svg_path != NULL && !regs_write_svg(a->svg_path, r, &err)) {
        code = cli_report(io, "regs", &err);
    }
    if (code == EXIT_OK) {
        code = setmaxnreg_errors(r, io);
    }
    occ_regs_result_free(r);
    return code;
}

int cmd_regs(int argc, char **argv, const cli_io *io)
{
    regs_args a;
    memset(&a, 0, sizeof a);
    occ_regs_options_init(&a.o);
    /* nvcc's arguments: everything after the first "--" */
    int own_argc = argc;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0) {
            own_argc = i;
            break;
        }
    }
    const char *const *nvcc_args = (const char *const *)(argv + own_argc + 1);
    int nvcc_arg_count = own_argc < argc ? argc - own_argc - 1 : 0;
    cli_error err;
    if (!cli_parse_options(own_argc, argv, tables, 2, on_option, &a, &err)) {
        return cli_report(io, "regs", &err);
    }
    if (a.help) {
        cli_print_help(io->out, &help, tables, 2);
        return EXIT_OK;
    }
    if (a.file == NULL) {
        return cli_fail(io, "regs", EXIT_USAGE, "give FILE: a .ptx, a .cu, or a binary with PTX");
    }
    if (nvcc_arg_count > 0 && strlen(a.file) > 3 &&
        strcmp(a.file + strlen(a.file) - 3, ".cu") != 0) {
        return cli_fail(io, "regs", EXIT_USAGE,
                        "arguments after -- are nvcc's, for a .cu FILE; '%.200s' is not one",
                        a.file);
    }
    if (a.gpu.gpu != NULL || a.gpu.gpu_file != NULL) {
        if (!cli_resolve_gpu(a.gpu.gpu, a.gpu.gpu_file, io->in, &a.device, &err)) {
            return cli_report(io, "regs", &err);
        }
        a.o.device = &a.device;
    }
    return run(&a, nvcc_args, nvcc_arg_count, io);
}
