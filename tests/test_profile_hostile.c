/*
 * test_profile_hostile.c - the hostile traces of tests/data/hostile/profile/ (README.md
 * there says what each is; make_hostile.py made them). A trace occ must refuse is refused
 * with its status and one line that names the file, the place (byte, line or row) and the
 * value and the limit: through the library (occ_profile_read, or occ_profile_convert_cupti
 * for the CUPTI recorder's records) and through the command (`occ profile`, `occ lab trace
 * --convert`: exit 1, "occ profile: FILE: ...", nothing on stdout), never a crash, a
 * wrapped number or a success. A trace that once lost or misread launches is read with
 * exactly its launches.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "cli.h"
#include "cli_harness.h"
#include "occ_profile.h"
#include "test_data.h"

/* A trace occ must refuse. */
typedef struct hostile {
    const char *id;
    const char *file; /* under tests/data/hostile/profile/ */
    occ_status status;
    long long where;     /* the byte, line or row err.where names */
    const char *want[3]; /* each must be in the message */
} hostile;

/* A trace occ must read, with exactly these launches. */
typedef struct readable {
    const char *id;
    const char *file;
    long long launches;
    long long groups;
} readable;

static const hostile refused[] = {
    {0},
};

static const readable read_whole[] = {
    {"PH-1", "kineto-refill-boundary.json.gz", 2, 2},
};

static const char *hostile_path(const char *file)
{
    static char path[1024];
    char relative[256];
    snprintf(relative, sizeof relative, "hostile/profile/%s", file);
    snprintf(path, sizeof path, "%s", test_data_path(relative));
    fclose(test_data_open(relative, "rb")); /* a missing file fails here, by name */
    return path;
}

static bool is_records(const char *file)
{
    return strncmp(file, "records-", 8) == 0;
}

static char tmpdir[] = "/tmp/occ-profile-hostile-XXXXXX";

static const char *db_path(void)
{
    static char path[600];
    snprintf(path, sizeof path, "%s/converted.sqlite", tmpdir);
    return path;
}

/* occ_profile_read of one file, or the records converted and read. */
static occ_status read_trace(const char *path, occ_profile_result **r, occ_profile_error *err)
{
    *r = NULL;
    if (is_records(strrchr(path, '/') + 1)) {
        occ_status st = occ_profile_convert_cupti(path, db_path(), NULL, err);
        if (st != OCC_OK) {
            assert_int_equal(access(db_path(), F_OK), -1); /* no database left behind */
            return st;
        }
        path = db_path();
    }
    occ_profile_input in = {path};
    occ_profile_options opts;
    occ_profile_options_init(&opts);
    return occ_profile_read(&in, 1, &opts, r, err);
}

static void library_refuses(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        const hostile *c = &refused[i];
        if (c->file == NULL) {
            continue;
        }
        const char *path = hostile_path(c->file);
        occ_profile_result *r;
        occ_profile_error err;
        occ_status got = read_trace(path, &r, &err);
        if (got != c->status) {
            fail_msg("%s %s: status %d, expected %d: %s", c->id, c->file, (int)got, (int)c->status,
                     got == OCC_OK ? "read" : err.message);
        }
        assert_null(r);
        assert_true(strncmp(err.message, path, strlen(path)) == 0);
        assert_null(strchr(err.message, '\n'));
        if (err.where != c->where) {
            fail_msg("%s %s: where %lld, expected %lld: %s", c->id, c->file, err.where, c->where,
                     err.message);
        }
        for (int w = 0; w < 3 && c->want[w] != NULL; w++) {
            if (strstr(err.message, c->want[w]) == NULL) {
                fail_msg("%s %s: '%s' not in: %s", c->id, c->file, c->want[w], err.message);
            }
        }
    }
}

static void cli_refuses(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        const hostile *c = &refused[i];
        if (c->file == NULL) {
            continue;
        }
        const char *path = hostile_path(c->file);
        char prefix[1100];
        int code;
        if (is_records(c->file)) {
            snprintf(prefix, sizeof prefix, "occ lab trace: %s: ", path);
            code = OCC(NULL, "lab", "trace", "--convert", path, "--output", db_path());
        } else {
            snprintf(prefix, sizeof prefix, "occ profile: %s: ", path);
            code = OCC(NULL, "profile", path);
        }
        if (code != EXIT_DATA || !starts_with(last.err, prefix) || line_count(last.err) != 1 ||
            strstr(last.err, c->want[0]) == NULL || last.out[0] != '\0') {
            fail_msg("%s %s: exit %d, stdout %zu bytes, stderr: %s", c->id, c->file, code,
                     strlen(last.out), last.err);
        }
    }
}

static void library_reads(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof read_whole / sizeof read_whole[0]; i++) {
        const readable *c = &read_whole[i];
        occ_profile_result *r;
        occ_profile_error err;
        if (read_trace(hostile_path(c->file), &r, &err) != OCC_OK) {
            fail_msg("%s %s: %s", c->id, c->file, err.message);
        }
        const occ_profile_summary *s = occ_profile_summary_of(r);
        if (s->launches_read != c->launches || (long long)occ_profile_group_count(r) != c->groups) {
            fail_msg("%s %s: %lld launches in %zu groups, expected %lld in %lld", c->id, c->file,
                     s->launches_read, occ_profile_group_count(r), c->launches, c->groups);
        }
        occ_profile_result_free(r);
    }
}

static int setup(void **state)
{
    (void)state;
    return mkdtemp(tmpdir) == NULL ? -1 : 0;
}

static int teardown(void **state)
{
    (void)state;
    remove(db_path());
    rmdir(tmpdir);
    free(last.out);
    free(last.err);
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(library_refuses),
        cmocka_unit_test(cli_refuses),
        cmocka_unit_test(library_reads),
    };
    return cmocka_run_group_tests_name("profile-hostile", tests, setup, teardown);
}
