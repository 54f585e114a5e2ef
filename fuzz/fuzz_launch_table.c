/*
 * fuzz_launch_table.c - fuzzes the launch table reader (profile/formats/launch_table.c,
 * occ_profile_launches_read: `--launches FILE` of occ inspect and occ diff, and
 * occ.inspect(launches=)): the header's columns, names and globs, block and cluster dims,
 * sizes with units, weights, carveouts, quotes, NUL bytes, gzip.
 *
 * The input is read from a stream (fmemopen, occ_profile_launches_read_stream), then from
 * a file by path (occ_profile_launches_read). A table must read alike both ways: the same
 * launches, or the same refusal, one line naming the input. Every launch read holds what
 * the format allows (dims 1..1024, sizes within an int, carveout 0..100, weights finite
 * and not negative, a name). An input that is no table goes to the profile readers by
 * path, which must refuse it in one line or read it.
 *
 * Seeds (corpus/launch_table/): tables of docs/inspect.md and tests/test_launch_set.c,
 * gzipped, with CRLF, a byte-order mark, quoted names with commas and quotes, the columns
 * reordered; a bad cell of each column; a header alone; no table at all.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_profile.h"

#define FUZZ_NAME "<fuzz>"
/* occ_profile_launches_read_stream's refusal of a stream that is no table */
#define NOT_A_TABLE                                                                                \
    FUZZ_NAME ": line 1: not a launch table: its header does not start with the column kernel "    \
              "(a profile is read from a file)"

static bool dims_ok(const int d[3], int lo)
{
    for (int i = 0; i < 3; i++) {
        if (d[i] < lo || d[i] > 1024) {
            return false;
        }
    }
    return true;
}

/* What every launch a table gives must hold. */
static void check_list(const occ_inspect_launch_list *l, const char *path)
{
    if (l == NULL || l->launches == NULL || l->matched == NULL || strcmp(l->path, path) != 0) {
        fuzz_profile_fail("a set without its list", path);
    }
    if (strcmp(l->kind, "table") != 0 || l->count > OCC_PROFILE_LAUNCH_TABLE_MAX_ROWS) {
        fuzz_profile_fail("a stream read as something other than a table", l->kind);
    }
    for (size_t i = 0; i < l->count; i++) {
        const occ_inspect_launch *g = &l->launches[i];
        bool cluster_none = g->cluster[0] == 0 && g->cluster[1] == 0 && g->cluster[2] == 0;
        if (g->name == NULL || g->name[0] == '\0' || g->mangled != NULL || l->matched[i] ||
            g->glob != (strpbrk(g->name, "*?[") != NULL) || !dims_ok(g->block, 1) ||
            !(cluster_none || dims_ok(g->cluster, 1)) || g->dyn_smem_bytes < 0 ||
            g->smem_total_bytes != OCC_INSPECT_UNKNOWN || g->grid_blocks < 0 ||
            g->grid_blocks > 2147483647LL * 65535 * 65535 || !isfinite(g->weight) ||
            g->weight < 0 || g->source != OCC_INSPECT_LAUNCH_TABLE ||
            (g->carveout_percent != OCC_CARVEOUT_DEFAULT &&
             (g->carveout_percent < 0 || g->carveout_percent > 100))) {
            fuzz_profile_fail("a launch the table format does not allow", g->name);
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* A private copy: fmemopen wants a writable buffer, and ASan then sees its exact end. */
    char *copy = malloc(size + 1);
    if (copy == NULL) {
        abort();
    }
    if (size > 0) {
        memcpy(copy, data, size);
    }
    FILE *in = size > 0 ? fmemopen(copy, size, "r") : fopen("/dev/null", "r");
    if (in == NULL) {
        fuzz_profile_fail("fmemopen", NULL);
    }
    occ_profile_launches *streamed = NULL;
    occ_profile_error serr;
    occ_status st = occ_profile_launches_read_stream(in, FUZZ_NAME, &streamed, &serr);
    fclose(in);
    free(copy);
    fuzz_profile_check_error(st, &serr, FUZZ_NAME);
    if ((st == OCC_OK) != (streamed != NULL)) {
        fuzz_profile_fail("a set beside an error, or none without one", serr.message);
    }
    if (st == OCC_OK) {
        check_list(occ_profile_launches_list(streamed), FUZZ_NAME);
    }

    const char *path = fuzz_profile_write(0, ".csv", data, size);
    occ_profile_launches *read = NULL;
    occ_profile_error perr;
    occ_status pst = occ_profile_launches_read(path, &read, &perr);
    fuzz_profile_check_error(pst, &perr, path);
    if ((pst == OCC_OK) != (read != NULL)) {
        fuzz_profile_fail("a set beside an error, or none without one", perr.message);
    }
    bool not_table = st == OCC_ERR_BAD_FORMAT && strcmp(serr.message, NOT_A_TABLE) == 0;
    if (!not_table) {
        /* a table: the same launches, or the same refusal after the name */
        if (pst != st) {
            fuzz_profile_fail("a table read otherwise from a file than from a stream",
                              perr.message);
        }
        if (st != OCC_OK &&
            strcmp(serr.message + strlen(FUZZ_NAME), perr.message + strlen(path)) != 0) {
            fuzz_profile_fail("a table refused otherwise from a file than from a stream",
                              perr.message);
        }
        if (st == OCC_OK) {
            const occ_inspect_launch_list *a = occ_profile_launches_list(streamed);
            const occ_inspect_launch_list *b = occ_profile_launches_list(read);
            check_list(b, path);
            if (a->count != b->count) {
                fuzz_profile_fail("a table read otherwise from a file than from a stream", NULL);
            }
            for (size_t i = 0; i < a->count; i++) {
                const occ_inspect_launch *x = &a->launches[i], *y = &b->launches[i];
                if (strcmp(x->name, y->name) != 0 || memcmp(x->block, y->block, sizeof x->block) ||
                    x->dyn_smem_bytes != y->dyn_smem_bytes || x->weight != y->weight ||
                    x->carveout_percent != y->carveout_percent) {
                    fuzz_profile_fail("a launch read otherwise from a file", x->name);
                }
            }
        }
    } else if (pst == OCC_OK && strcmp(occ_profile_launches_list(read)->kind, "profile") != 0) {
        fuzz_profile_fail("a file that is no table read as one", NULL);
    }
    occ_profile_launches_free(streamed);
    occ_profile_launches_free(read);
    return 0;
}
