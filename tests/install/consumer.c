/*
 * consumer.c - a program from outside the project that uses the installed
 * libocc and libocc-inspect: the install tests build it through pkg-config
 * (shared and static) and through find_package(occ), and run it.
 *
 *   consumer PTXAS_LOG < ROWS
 *
 * It checks what such a program relies on:
 *  - the library it runs with is the version its header names;
 *  - occ_calc on the H200 gives the driver's blocks per SM for each row of
 *    ROWS ("regs static_smem max_threads block dyn_smem carveout
 *    driver_blocks": rows of tests/data/h200-driver, measured on an H200),
 *    on the H200 as a GPU description (docs/gpu-file.md) read by
 *    occ_inspect_gpu_from_json: libocc-inspect's JSON reader links too;
 *  - occ_inspect_read reads PTXAS_LOG; each kernel is printed as
 *    "NAME REGS" for the test to hold against the log it wrote.
 * Prints "rows N mismatches M"; exits 0 when every row matched.
 */
#include <stdio.h>
#include <string.h>

#include "occ.h"
#include "occ_inspect.h"

static long check_rows(const occ_device *gpu)
{
    long rows = 0;
    long mismatches = 0;
    int regs, static_smem, max_threads, block, dyn_smem, carveout, driver_blocks;
    while (scanf("%d %d %d %d %d %d %d", &regs, &static_smem, &max_threads, &block, &dyn_smem,
                 &carveout, &driver_blocks) == 7) {
        occ_kernel k;
        occ_kernel_init(&k);
        k.block_x = block;
        k.regs_per_thread = regs;
        k.static_smem_bytes = static_smem;
        k.max_threads_per_block = max_threads;
        k.dyn_smem_bytes = dyn_smem;
        k.carveout_percent = carveout;
        occ_result r;
        occ_error err;
        rows++;
        if (occ_calc(gpu, &k, &r, &err) != OCC_OK) {
            fprintf(stderr, "row %ld: occ_calc failed: %s\n", rows, err.message);
            mismatches++;
        } else if (r.blocks_per_sm != driver_blocks) {
            fprintf(stderr, "row %ld: driver %d blocks per SM, libocc %d\n", rows, driver_blocks,
                    r.blocks_per_sm);
            mismatches++;
        }
    }
    printf("rows %ld mismatches %ld\n", rows, mismatches);
    return rows > 0 ? mismatches : -1;
}

static int print_kernels(const char *path)
{
    occ_inspect_options options;
    occ_inspect_options_init(&options);
    occ_inspect_input input = {.path = path};
    occ_inspect_result *result;
    occ_inspect_error err;
    if (occ_inspect_read(&input, 1, &options, &result, &err) != OCC_OK) {
        fprintf(stderr, "occ_inspect_read: %s\n", err.message);
        return 1;
    }
    for (size_t i = 0; i < occ_inspect_kernel_count(result); i++) {
        const occ_inspect_kernel *k = occ_inspect_kernel_at(result, i);
        printf("%s %d\n", k->name, k->regs);
    }
    occ_inspect_result_free(result);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: consumer PTXAS_LOG < ROWS\n");
        return 2;
    }
    if (strcmp(occ_version(), OCC_VERSION_STRING) != 0) {
        fprintf(stderr, "libocc %s runs, but the header is %s's\n", occ_version(),
                OCC_VERSION_STRING);
        return 1;
    }
    occ_device gpu;
    occ_error err;
    if (occ_gpu_find("H200", &gpu, &err) != OCC_OK) {
        fprintf(stderr, "occ_gpu_find: %s\n", err.message);
        return 1;
    }
    static const char description[] = "{\"name\": \"H200 from JSON\", \"base\": \"H200\"}";
    occ_device described;
    occ_inspect_error ierr;
    if (occ_inspect_gpu_from_json(description, sizeof description - 1, "consumer.json", &described,
                                  &ierr) != OCC_OK ||
        described.sm_count != gpu.sm_count || described.regs_per_sm != gpu.regs_per_sm) {
        fprintf(stderr, "occ_inspect_gpu_from_json: %s\n", ierr.message);
        return 1;
    }
    long mismatches = check_rows(&described);
    int inspect_failed = print_kernels(argv[1]);
    return mismatches == 0 && !inspect_failed ? 0 : 1;
}
