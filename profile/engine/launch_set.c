/*
 * launch_set.c - occ_profile_launches_read: the launch configurations a
 * program makes, from a launch table (launch_table.c) or a profile's groups,
 * as the occ_inspect_launch_list that occ_inspect_apply_launches takes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "launch_table.h"
#include "prof_engine.h"

struct occ_profile_launches {
    occ_inspect_launch_list list;
    char *path;                  /* list.path: a copy of the path or name given */
    prof_launch_rows rows;       /* the launches (and a table's names) */
    occ_profile_result *profile; /* a profile's groups, which its launches' names point into */
};

static occ_status set_new(const char *path, occ_profile_launches **out, occ_profile_error *err)
{
    occ_profile_launches *set = calloc(1, sizeof *set);
    char *copy = strdup(path);
    if (set == NULL || copy == NULL) {
        free(set);
        free(copy);
        return prof_error(err, OCC_ERR_OUT_OF_MEMORY, path, 0, -1, "out of memory");
    }
    set->path = copy;
    set->list.path = copy;
    set->list.kind = "table";
    *out = set;
    return OCC_OK;
}

/* The list over what the set holds, once read: `matched` false for each. */
static occ_status set_finish(occ_profile_launches *set, occ_profile_error *err)
{
    size_t n = set->rows.count;
    set->list.matched = calloc(n > 0 ? n : 1, sizeof *set->list.matched);
    if (set->list.matched == NULL ||
        (set->rows.launches == NULL && !prof_launch_rows_grow(&set->rows, false))) {
        return prof_error(err, OCC_ERR_OUT_OF_MEMORY, set->path, 0, -1, "out of memory");
    }
    set->list.launches = set->rows.launches;
    set->list.count = n;
    return OCC_OK;
}

/* A profile's groups as launches: each weighed by its GPU time. */
static occ_status from_profile(occ_profile_launches *set, occ_profile_error *err)
{
    occ_profile_input in = {set->path};
    occ_profile_options opts;
    occ_profile_options_init(&opts);
    occ_status st = occ_profile_read(&in, 1, &opts, &set->profile, err);
    if (st != OCC_OK) {
        return st;
    }
    set->list.kind = "profile";
    size_t n = occ_profile_group_count(set->profile);
    for (size_t i = 0; i < n; i++) {
        if (!prof_launch_rows_grow(&set->rows, false)) {
            return prof_error(err, OCC_ERR_OUT_OF_MEMORY, set->path, 0, -1, "out of memory");
        }
        const occ_profile_group *g = occ_profile_group_at(set->profile, i);
        occ_inspect_launch *l = &set->rows.launches[set->rows.count++];
        memset(l, 0, sizeof *l);
        l->name = g->name;
        l->mangled = g->mangled;
        memcpy(l->block, g->block, sizeof l->block);
        /* a PyTorch profile gives static + dynamic shared memory only */
        bool split = g->dyn_smem_bytes != OCC_PROFILE_UNKNOWN;
        l->dyn_smem_bytes = split ? g->dyn_smem_bytes : OCC_INSPECT_UNKNOWN;
        l->smem_total_bytes = split ? OCC_INSPECT_UNKNOWN : g->smem_bytes;
        memcpy(l->cluster, g->cluster, sizeof l->cluster);
        l->grid_blocks = (long long)g->grid[0] * (g->grid[1] > 0 ? g->grid[1] : 1) *
                         (g->grid[2] > 0 ? g->grid[2] : 1);
        l->weight = g->gpu_time_us;
        l->source = OCC_INSPECT_LAUNCH_PROFILE;
        l->carveout_percent = g->carveout_percent >= 0 ? g->carveout_percent : OCC_CARVEOUT_DEFAULT;
    }
    return OCC_OK;
}

/* The set as it was read, or freed on an error. */
static occ_status done(occ_profile_launches *set, occ_status st, occ_profile_launches **out,
                       occ_profile_error *err)
{
    if (st == OCC_OK) {
        st = set_finish(set, err);
    }
    if (st != OCC_OK) {
        occ_profile_launches_free(set);
        set = NULL;
    }
    *out = set;
    return st;
}

/* A pipe, socket or character device (/dev/stdin from a pipe, <(...)):
   what is read of it is gone, so it cannot be looked at and then read
   again. A regular file, or /dev/stdin redirected from one, opens afresh. */
static bool is_read_once(FILE *f)
{
    struct stat st;
    return fstat(fileno(f), &st) == 0 &&
           (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode) || S_ISCHR(st.st_mode));
}

occ_status occ_profile_launches_read(const char *path, occ_profile_launches **out,
                                     occ_profile_error *err)
{
    if (out != NULL) {
        *out = NULL;
    }
    if (path == NULL || out == NULL) {
        return prof_error(err, OCC_ERR_NULL_POINTER, NULL, -1, -1, "path and out are required");
    }
    occ_profile_launches *set;
    occ_status st = set_new(path, &set, err);
    if (st != OCC_OK) {
        return st;
    }
    bool is_table = false;
    bool read_once = false;
    /* a file that cannot be opened is the profile reader's to name */
    FILE *f = fopen(path, "rb");
    if (f != NULL) {
        read_once = is_read_once(f);
        st = prof_read_launch_table(f, set->path, &is_table, &set->rows, err);
        fclose(f);
    }
    if (st == OCC_OK && !is_table && read_once) {
        /* the profile reader opens the path again, and would find what the
           check for a table left of the pipe: nothing, or a cut profile */
        st = prof_error(err, OCC_ERR_IO, set->path, 0, -1,
                        "not a launch table (its first line does not start with the column "
                        "kernel), and a profile is read from a file, not a pipe: write it to a "
                        "file and give that");
    } else if (st == OCC_OK && !is_table) {
        st = from_profile(set, err);
    }
    return done(set, st, out, err);
}

occ_status occ_profile_launches_read_stream(FILE *in, const char *name, occ_profile_launches **out,
                                            occ_profile_error *err)
{
    if (out != NULL) {
        *out = NULL;
    }
    if (in == NULL || name == NULL || out == NULL) {
        return prof_error(err, OCC_ERR_NULL_POINTER, NULL, -1, -1, "in, name and out are required");
    }
    occ_profile_launches *set;
    occ_status st = set_new(name, &set, err);
    if (st != OCC_OK) {
        return st;
    }
    bool is_table;
    st = prof_read_launch_table(in, set->path, &is_table, &set->rows, err);
    if (st == OCC_OK && !is_table) {
        st = prof_error(err, OCC_ERR_BAD_FORMAT, name, 0, 1,
                        "line 1: not a launch table: its header does not start with the column "
                        "kernel (a profile is read from a file)");
    }
    return done(set, st, out, err);
}

occ_inspect_launch_list *occ_profile_launches_list(occ_profile_launches *set)
{
    return set != NULL ? &set->list : NULL;
}

void occ_profile_launches_free(occ_profile_launches *set)
{
    if (set == NULL) {
        return;
    }
    prof_launch_rows_free(&set->rows);
    occ_profile_result_free(set->profile);
    free(set->list.matched);
    free(set->path);
    free(set);
}
