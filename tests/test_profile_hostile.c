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
#include <sqlite3.h>

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
    size_t longest_name; /* the longest group name's bytes */
} readable;

static const hostile refused[] = {
    /* Kineto JSON */
    {"PH-K1",
     "kineto-grid-1e300.json",
     OCC_ERR_BAD_FORMAT,
     147,
     {"byte 147: grid 1e300 is not a whole number in 0..2147483647", NULL, NULL}},
    {"PH-K2",
     "kineto-yajl-error.json",
     OCC_ERR_BAD_FORMAT,
     147,
     {"byte 147: not valid JSON in this value", "I expect ',' or '}')", NULL}},
    {"PH-K3",
     "kineto-gzip-no-trailer.json.gz",
     OCC_ERR_BAD_FORMAT,
     365,
     {"byte 365: the gzip data cannot be decompressed", "cut short", NULL}},
    {"PH-K4",
     "kineto-gzip-cut-large.json.gz",
     OCC_ERR_BAD_FORMAT,
     200350,
     {"byte 200350: the gzip data cannot be decompressed", "cut short", NULL}},
    {"PH-K5",
     "kineto-300-devices.json",
     OCC_ERR_LIMIT,
     21,
     {"byte 21: more than 256 devices", NULL, NULL}},
    /* nsys stats CSV */
    {"PH-C1",
     "nsys-grid-neg-5e9.csv",
     OCC_ERR_BAD_FORMAT,
     2,
     {"line 2: GrdX '-5000000000' is outside -2147483648..2147483647", NULL, NULL}},
    {"PH-C2",
     "nsys-regs-1e9.csv",
     OCC_ERR_BAD_FORMAT,
     2,
     {"line 2: 1000000000 registers per thread is outside 0..255", NULL, NULL}},
    {"PH-C3",
     "nsys-smem-5000mb.csv",
     OCC_ERR_BAD_FORMAT,
     2,
     {"line 2: StcSMem '5000' (5000000000 bytes) is outside", NULL, NULL}},
    {"PH-C4",
     "nsys-grid-hex.csv",
     OCC_ERR_BAD_FORMAT,
     2,
     {"line 2: GrdX '0x10' is not a whole number", NULL, NULL}},
    {"PH-C5",
     "nsys-device-id-20-digits.csv",
     OCC_ERR_BAD_FORMAT,
     2,
     {"line 2: Device 'NVIDIA H200 (99999999999999999999)'", "outside 0..1048576", NULL}},
    {"PH-C6", "nsys-nul.csv", OCC_ERR_BAD_FORMAT, 2, {"line 2: a NUL byte", NULL, NULL}},
    {"PH-C7",
     "nsys-open-quote.csv",
     OCC_ERR_BAD_FORMAT,
     2,
     {"line 2: a quoted field is not closed before the end of the file", NULL, NULL}},
    {"PH-C8",
     "nsys-bare-cr.csv",
     OCC_ERR_BAD_FORMAT,
     1,
     {"line 1: a carriage return inside the header", NULL, NULL}},
    {"PH-C9",
     "nsys-70-fields.csv",
     OCC_ERR_BAD_FORMAT,
     1,
     {"line 1: more than 64 fields", NULL, NULL}},
    {"PH-C10",
     "nsys-gzip-cut-large.csv.gz",
     OCC_ERR_BAD_FORMAT,
     1998,
     {"line 1998: cannot be read: unexpected end of file", NULL, NULL}},
    {"PH-C11",
     "nsys-newline-in-number.csv",
     OCC_ERR_BAD_FORMAT,
     2,
     {"line 2: DymSMem '0.000?1' is not a number", NULL, NULL}},
    {"PH-C12",
     "nsys-line-numbers.csv",
     OCC_ERR_BAD_FORMAT,
     4,
     {"line 4: 300 registers per thread is outside 0..255", NULL, NULL}},
    /* Nsight Systems SQLite */
    {"PH-S1",
     "sqlite-cluster-65536.sqlite",
     OCC_ERR_BAD_FORMAT,
     1,
     {"CUPTI_ACTIVITY_KIND_KERNEL row 1: cluster x 65536 is outside 0..16", NULL, NULL}},
    {"PH-S2",
     "sqlite-dangling-name.sqlite",
     OCC_ERR_BAD_FORMAT,
     2,
     {"CUPTI_ACTIVITY_KIND_KERNEL row 2: demangledName 999999 is no id of StringIds", NULL, NULL}},
    {"PH-S3",
     "sqlite-null-name.sqlite",
     OCC_ERR_BAD_FORMAT,
     2,
     {"CUPTI_ACTIVITY_KIND_KERNEL row 2: demangledName is NULL", NULL, NULL}},
    {"PH-S4",
     "sqlite-kernel-view.sqlite",
     OCC_ERR_BAD_FORMAT,
     -1,
     {"CUPTI_ACTIVITY_KIND_KERNEL is a view, not a table", NULL, NULL}},
    {"PH-S5",
     "sqlite-cut.sqlite",
     OCC_ERR_BAD_FORMAT,
     -1,
     {"cannot read the schema: database disk image is malformed", NULL, NULL}},
    {"PH-S6",
     "sqlite-gpu-id-text.sqlite",
     OCC_ERR_BAD_FORMAT,
     1,
     {"TARGET_INFO_GPU row 1: id 'abc' is not an integer", NULL, NULL}},
    {"PH-S7",
     "sqlite-gpu-cc-1000.sqlite",
     OCC_ERR_BAD_FORMAT,
     1,
     {"TARGET_INFO_GPU row 1: computeMajor 1000 is outside 0..99", NULL, NULL}},
    {"PH-S8",
     "sqlite-ids-without-stringids.sqlite",
     OCC_ERR_BAD_FORMAT,
     1,
     {"row 1: demangledName is the id 1, but the database has no StringIds table", NULL, NULL}},
    /* the CUPTI recorder's records (occ_profile_convert_cupti) */
    {"PH-R1",
     "records-cluster-65536.tsv",
     OCC_ERR_BAD_FORMAT,
     3,
     {"line 3: cluster x 65536 is outside 0..16", NULL, NULL}},
    {"PH-R2", "records-nul.tsv", OCC_ERR_BAD_FORMAT, 3, {"line 3: a NUL byte", NULL, NULL}},
    {"PH-R3", "records-nul-end.tsv", OCC_ERR_BAD_FORMAT, 4, {"line 4: a NUL byte", NULL, NULL}},
    {"PH-R4",
     "records-device-field.tsv",
     OCC_ERR_BAD_FORMAT,
     2,
     {"line 2: field 2 '-1' of a device is not a whole number in 0..1048576", NULL, NULL}},
};

static const readable read_whole[] = {
    {"PH-1", "kineto-refill-boundary.json.gz", 2, 2, 17},
    /* names are C strings: cut at a NUL (one group, not two printed alike), and at
       OCC_PROFILE_MAX_NAME_LENGTH (names of 20,000 and 19,000 bytes: one group) */
    {"PH-2", "kineto-name-nul.json", 2, 1, 1},
    {"PH-3", "nsys-name-20000.csv", 2, 1, OCC_PROFILE_MAX_NAME_LENGTH},
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
        size_t longest = 0;
        for (size_t g = 0; g < occ_profile_group_count(r); g++) {
            size_t n = strlen(occ_profile_group_at(r, g)->name);
            longest = n > longest ? n : longest;
        }
        if (s->launches_read != c->launches || (long long)occ_profile_group_count(r) != c->groups ||
            longest != c->longest_name) {
            fail_msg("%s %s: %lld launches in %zu groups, longest name %zu bytes; expected %lld "
                     "in %lld, %zu",
                     c->id, c->file, s->launches_read, occ_profile_group_count(r), longest,
                     c->launches, c->groups, c->longest_name);
        }
        occ_profile_result_free(r);
    }
}

/* PH-S9: a StringIds value above SQLite's length limit (1 MB: names are cut at 16 KB)
   is refused as a limit, with its row, not as a damaged database. Made here: 1 MB does not
   belong in the repository. */
static void value_too_long(void **state)
{
    (void)state;
    char records[600], db[600];
    snprintf(records, sizeof records, "%s/long.tsv", tmpdir);
    snprintf(db, sizeof db, "%s/long.sqlite", tmpdir);
    FILE *f = fopen(records, "w");
    assert_non_null(f);
    fputs("# occ-trace 1\nD\t0\tNVIDIA H200\t132\t9\t0\nK\t0\t1\t7\t2\t4000\t5000\t1056\t1"
          "\t1\t256\t1\t1\t64\t16384\t0\t0\t233472\t0\t-1\t0\t0\t0\t0\t0\t0\t0\tk\nE\t1\t0\n",
          f);
    fclose(f);
    occ_profile_error err;
    assert_int_equal(occ_profile_convert_cupti(records, db, NULL, &err), OCC_OK);
    sqlite3 *handle;
    assert_int_equal(sqlite3_open(db, &handle), SQLITE_OK);
    assert_int_equal(
        sqlite3_exec(handle,
                     "UPDATE StringIds SET value = printf('%.*c', 1100000, 'x') "
                     "WHERE id = (SELECT demangledName FROM CUPTI_ACTIVITY_KIND_KERNEL)",
                     NULL, NULL, NULL),
        SQLITE_OK);
    sqlite3_close(handle);
    occ_profile_result *r;
    occ_profile_input in = {db};
    assert_int_equal(occ_profile_read(&in, 1, NULL, &r, &err), OCC_ERR_LIMIT);
    assert_null(r);
    assert_int_equal(err.where, 1);
    assert_non_null(strstr(err.message, "row 1: a value longer than 1048576 bytes"));
    remove(records);
    remove(db);
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
        cmocka_unit_test(value_too_long),
    };
    return cmocka_run_group_tests_name("profile-hostile", tests, setup, teardown);
}
