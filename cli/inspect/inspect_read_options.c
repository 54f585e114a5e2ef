/*
 * inspect_read_options.c - the reading options occ inspect and occ diff
 * share (inspect_read_options.h): their names and help once, and their
 * values checked once.
 */
#include "inspect_read_options.h"

#include "inspect_output.h"
#include "values.h"

#define AT(id) [(id)-READ_OPTION_FIRST]
const cli_option inspect_read_options[READ_OPTION_COUNT - READ_OPTION_FIRST] = {
    AT(READ_THREADS) = {READ_THREADS, "threads", "N",
                        "block size: 256, 16x16 or 8x8x4 (default: the occupancy API's pick per "
                        "kernel)"},
    AT(READ_DYN_SMEM) = {READ_DYN_SMEM, "dyn-smem", "BYTES",
                         "dynamic shared memory per block: 4096, 48K"},
    AT(READ_LAUNCHES) = {READ_LAUNCHES, "launches", "FILE",
                         "each kernel at the launches of a profile or launch table"},
    AT(READ_ARCH) = {READ_ARCH, "arch", "ARCH",
                     "only this arch: sm_90 (also sm_90a), sm_90a (exactly)"},
    AT(READ_FILTER) = {READ_FILTER, "filter", "REGEX",
                       "only kernels whose printed name matches (POSIX ERE)"},
    AT(READ_FUNCTIONS) = {READ_FUNCTIONS, "functions", NULL,
                          "device functions too, not only kernels"},
    AT(READ_ALL) = {READ_ALL, "all", NULL,
                    "also read __nv_relfatbin (pre-link code of -rdc builds)"},
    AT(READ_JOBS) = {READ_JOBS, "jobs", "N",
                     "threads to read with (default: every core, at most 32)"},
};
#undef AT

/* --threads as occ calc takes it (256, 16x16, 8x8x4): the reader takes a
   block size as its thread count, the shape's product. */
static bool apply_threads(const char *value, occ_inspect_options *read, cli_error *err)
{
    int dims[3];
    if (!cli_parse_block(value, dims, err)) {
        return cli_error_prefix(err, "threads per block: ");
    }
    long long threads = (long long)dims[0] * dims[1] * dims[2];
    char count[24];
    snprintf(count, sizeof count, "%lld", threads);
    if (inspect_apply_read_option(INSPECT_READ_THREADS, count, read, err)) {
        return true;
    }
    if (dims[1] * dims[2] == 1) {
        return false; /* one number: the message names it */
    }
    return cli_error_set(err, EXIT_USAGE,
                         "threads per block: '%.40s' is %lld threads, above the maximum, 1024",
                         value, threads);
}

bool inspect_read_apply(int id, const char *value, const inspect_read_targets *t, cli_error *err)
{
    switch (id) {
    case GPU_OPTION_GPU: *t->gpu = value; return true;
    case GPU_OPTION_GPU_FILE: *t->gpu_file = value; return true;
    case READ_THREADS: return apply_threads(value, t->read, err);
    case READ_DYN_SMEM:
        return inspect_apply_read_option(INSPECT_READ_DYN_SMEM, value, t->read, err);
    case READ_LAUNCHES: *t->launches = value; return true;
    case READ_ARCH: return inspect_apply_read_option(INSPECT_READ_ARCH, value, t->read, err);
    case READ_FILTER: *t->filter = value; return true;
    case READ_FUNCTIONS: t->read->functions = true; return true;
    case READ_ALL: t->read->relfatbin = true; return true;
    case READ_JOBS: return inspect_apply_read_option(INSPECT_READ_JOBS, value, t->read, err);
    default: return cli_error_set(err, EXIT_USAGE, "reading option id %d is unknown", id);
    }
}
