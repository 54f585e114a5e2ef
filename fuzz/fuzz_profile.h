/*
 * fuzz_profile.h - what the libocc-profile fuzz targets share. The readers take a path,
 * not a buffer, so each input is written to a temporary file (one path per process,
 * rewritten for every input, removed at exit). A sink checks what a reader hands on: every
 * launch passes prof_launch_check (the readers promise to hand on only checked launches)
 * and every name byte is touched, so ASan sees an overread at once. A refusal must be one
 * line starting with the file's path.
 */
#ifndef OCC_FUZZ_PROFILE_H
#define OCC_FUZZ_PROFILE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"
#include "prof_engine.h"
#include "prof_formats.h"

static inline void fuzz_profile_fail(const char *what, const char *detail)
{
    fprintf(stderr, "fuzz_profile: %s: %s\n", what, detail ? detail : "");
    abort();
}

static char fuzz_profile_paths[2][512];

/* The files, and what SQLite leaves beside a database an input says is in WAL mode. */
static void fuzz_profile_remove(void)
{
    static const char *const beside[] = {"", "-wal", "-shm", "-journal"};
    for (int i = 0; i < 2; i++) {
        for (int j = 0; j < 4 && fuzz_profile_paths[i][0]; j++) {
            char path[sizeof fuzz_profile_paths[i] + 16];
            snprintf(path, sizeof path, "%.511s%.8s", fuzz_profile_paths[i], beside[j]);
            remove(path);
        }
    }
}

/* This process's temporary file `slot` (0 or 1), ending in `suffix`. */
static inline const char *fuzz_profile_path(int slot, const char *suffix)
{
    if (fuzz_profile_paths[slot][0] == '\0') {
        const char *dir = getenv("TMPDIR");
        snprintf(fuzz_profile_paths[slot], sizeof fuzz_profile_paths[slot],
                 "%s/occ-fuzz-profile-%ld-%d%s", dir && dir[0] ? dir : "/tmp", (long)getpid(), slot,
                 suffix);
        atexit(fuzz_profile_remove);
    }
    return fuzz_profile_paths[slot];
}

/* Writes the input as temporary file `slot`; returns its path. */
static inline const char *fuzz_profile_write(int slot, const char *suffix, const uint8_t *data,
                                             size_t size)
{
    const char *path = fuzz_profile_path(slot, suffix);
    FILE *f = fopen(path, "wb");
    if (f == NULL || (size > 0 && fwrite(data, 1, size, f) != size) || fclose(f) != 0) {
        fuzz_profile_fail("cannot write", path);
    }
    return path;
}

typedef struct fuzz_profile_count {
    const char *path;
    long long launches;
    long long devices;
    size_t sum;
} fuzz_profile_count;

static inline occ_status fuzz_profile_launch(void *context, const prof_launch *l,
                                             occ_profile_error *err)
{
    fuzz_profile_count *c = context;
    occ_profile_error why;
    if (prof_launch_check(l, c->path, 0, 0, "launch", &why) != OCC_OK) {
        fuzz_profile_fail("a reader handed on an unchecked launch", why.message);
    }
    if (l->name == NULL || (l->mangled == NULL && l->mangled_length != 0)) {
        fuzz_profile_fail("a launch without a name", NULL);
    }
    for (size_t i = 0; i < l->name_length; i++) {
        c->sum += (unsigned char)l->name[i];
    }
    for (size_t i = 0; l->mangled && i < l->mangled_length; i++) {
        c->sum += (unsigned char)l->mangled[i];
    }
    c->launches++;
    (void)err;
    return OCC_OK;
}

static inline occ_status fuzz_profile_device(void *context, const prof_device *d,
                                             occ_profile_error *err)
{
    fuzz_profile_count *c = context;
    if (d->name == NULL) {
        fuzz_profile_fail("a device without a name", NULL);
    }
    c->sum += strlen(d->name) + (size_t)d->sm_count;
    c->devices++;
    (void)err;
    return OCC_OK;
}

static inline bool fuzz_profile_names(const occ_profile_error *err, const char *path)
{
    size_t n = strlen(path);
    return strncmp(err->message, path, n) == 0 && err->message[n] == ':';
}

/* A refusal names the file first and is one line. */
static inline void fuzz_profile_check_error(occ_status st, const occ_profile_error *err,
                                            const char *path)
{
    if (st == OCC_OK) {
        return;
    }
    if (err->status != st || !fuzz_profile_names(err, path) || strchr(err->message, '\n') ||
        err->where < -1) {
        fuzz_profile_fail("a refusal that is not one line naming the file", err->message);
    }
}

/* occ_profile_read of one file, every group walked (its names touched). Returns the
   status, with *err; the launches read in *launches (0 on an error). */
static inline occ_status fuzz_profile_read(const char *path, long long *launches,
                                           occ_profile_error *err)
{
    occ_profile_input in = {path};
    occ_profile_options opts;
    occ_profile_options_init(&opts);
    occ_profile_result *r = NULL;
    occ_status st = occ_profile_read(&in, 1, &opts, &r, err);
    fuzz_profile_check_error(st, err, path);
    *launches = 0;
    if (st != OCC_OK) {
        if (r != NULL) {
            fuzz_profile_fail("a result beside an error", err->message);
        }
        return st;
    }
    const occ_profile_summary *s = occ_profile_summary_of(r);
    long long sum = 0;
    size_t bytes = 0;
    for (size_t i = 0; i < occ_profile_group_count(r); i++) {
        const occ_profile_group *g = occ_profile_group_at(r, i);
        bytes += strlen(g->name) + (g->mangled ? strlen(g->mangled) : 0);
        if (strlen(g->name) > OCC_PROFILE_MAX_NAME_LENGTH) {
            fuzz_profile_fail("a name longer than OCC_PROFILE_MAX_NAME_LENGTH", NULL);
        }
        if (g->device < 0 || (size_t)g->device >= occ_profile_device_count(r) || g->launches < 1) {
            fuzz_profile_fail("a group without a device or a launch", g->name);
        }
        sum += g->launches;
        occ_kernel k;
        if (g->computed && occ_profile_group_kernel(r, i, &k, NULL) != OCC_OK) {
            fuzz_profile_fail("a computed group without its kernel", g->name);
        }
    }
    if (sum != s->launches_read || s->launches_computed > s->launches_read) {
        fuzz_profile_fail("the groups' launches are not the launches read", NULL);
    }
    size_t ranked[8];
    if (occ_profile_rank(r, ranked, 8) > 8 || bytes == (size_t)-1) {
        fuzz_profile_fail("rank wrote past its array", NULL);
    }
    *launches = s->launches_read;
    occ_profile_result_free(r);
    return OCC_OK;
}

#endif /* OCC_FUZZ_PROFILE_H */
