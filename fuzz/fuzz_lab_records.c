/*
 * fuzz_lab_records.c - fuzzes the reader of occ-lab's records (lab_data.h,
 * lab_data_read, through fmemopen). A refusal must be one line; records
 * accepted must lie within the reader's limits: row counts, launches and
 * their blocks inside their grids, and the GPC union-find rooted at the
 * lowest SM id of each group.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "lab_data.h"

static void check(bool ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "fuzz_lab_records: invariant broken: %s\n", what);
        abort();
    }
}

static void check_accepted(lab_data *d)
{
    check(d->residency_count >= 0 && d->residency_count <= LAB_MAX_ROWS, "residency rows");
    check(d->blocksize_count >= 0 && d->blocksize_count <= LAB_MAX_ROWS, "blocksize rows");
    check(d->spill_count >= 0 && d->spill_count <= LAB_MAX_ROWS, "spill rows");
    check(d->gpcs_driver_count >= 0 && d->gpcs_driver_count <= LAB_MAX_GPCS_DRIVER,
          "gpcs_driver rows");
    check(d->persistent_count >= 0 && d->persistent_count <= LAB_MAX_PERSISTENT,
          "cluster_persistent rows");
    check(d->launch_count >= 0 && d->launch_count <= LAB_MAX_LAUNCHES, "launches");
    for (int i = 0; i < d->launch_count; i++) {
        const lab_launch *l = &d->launches[i];
        check(l->grid >= 1 && l->grid <= LAB_MAX_GRID, "a launch's grid");
        check(l->block_count >= 0 && l->block_count <= l->grid, "blocks inside the grid");
        check(l->blocks != NULL, "a launch's blocks");
        check(strspn(l->name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") ==
                      strlen(l->name) &&
                  l->name[0] != '\0',
              "a launch name fit for a file name");
    }
    for (int sm = 0; sm < LAB_MAX_SM_COUNT; sm++) {
        if (d->gpc_parent[sm] < 0) {
            continue;
        }
        int root = lab_gpc_root(d, sm);
        check(root >= 0 && root <= sm && d->gpc_parent[root] == root,
              "a GPC's root is its lowest SM");
    }
    check(memchr(d->device.name, '\0', sizeof d->device.name) != NULL, "the device name ends");
    check(memchr(d->error, '\0', sizeof d->error) != NULL, "the error message ends");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FILE *in = size > 0 ? fmemopen((void *)(uintptr_t)data, size, "r") : fopen("/dev/null", "r");
    check(in != NULL, "fmemopen");
    lab_data *d = malloc(sizeof *d);
    check(d != NULL, "memory");
    lab_error err = {""};
    if (lab_data_read(in, "<fuzz>", d, &err)) {
        check_accepted(d);
    } else {
        check(err.message[0] != '\0' && strchr(err.message, '\n') == NULL, "a refusal is one line");
    }
    lab_data_free(d);
    free(d);
    fclose(in);
    return 0;
}
