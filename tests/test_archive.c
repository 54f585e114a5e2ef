/*
 * test_archive.c - static libraries (`ar` archives) in occ inspect and occ diff.
 *
 * The oracle is the member itself: an archive must give exactly the rows its members give
 * when each is read as a file (every field, counts merged the same way).
 *
 * Always (hand-made archives around tests/data/hostile/cubin-baseline.cubin, written here
 * byte by byte after ar(5)):
 *   - System V / GNU names (symbol table, "//" long names, a 3-byte member that puts the
 *     next one off an 8-byte boundary) and BSD 4.4 names ("#1/N", "__.SYMDEF SORTED")
 *     (archive-names);
 *   - damaged archives fail with one line naming the file, the offset and what is wrong;
 *     a damaged member is named (archive-hostile);
 *   - 300 members, split on several threads: the rows of one thread, and the first damaged
 *     member in member order named (archive-hostile);
 *   - archives inside an archive give their members' rows, four levels deep; a fifth level,
 *     a thin archive inside, and damage inside are refused with the nested member named
 *     (archive-nested).
 * With nvcc (tests/diff/make_fixtures.sh; without it the rest is skipped, exit 77):
 *   - libvariants.a (a text file, an -rdc object under a long name, a whole-program object,
 *     an object keeping a fatbin outside .nv_fatbin) gives what its members give read
 *     alone; an -rdc object alone shows its kernels; libsections.a's kernels keep their
 *     section though a chunk of its members names more than 256; libvariants.a inside
 *     another archive gives its rows, and occ diff against it finds nothing (archive-members);
 *   - occ diff of two cubins agrees with occ diff of the ptxas logs of the same compiles
 *     (diff-cubins);
 *   - the toolkit's libcudadevrt.a equals its member read alone, and a *_static.a reads
 *     (archive-toolkit; each skipped with one line where absent).
 */
#include <glob.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>

#include "cli.h"
#include "cli_harness.h"
#include "test_data.h"

/* ------------------------------------------------------------------------ */
/* Helpers                                                                  */
/* ------------------------------------------------------------------------ */

static json_t *parse_json(const char *text)
{
    json_error_t jerr;
    json_t *doc = json_loads(text, 0, &jerr);
    if (doc == NULL) {
        fail_msg("not JSON (%s at line %d): %.300s", jerr.text, jerr.line, text);
    }
    return doc;
}

/* The "functions" of `occ inspect --json --functions PATHS...` (at most 3 paths). */
static json_t *functions_of(const char *a, const char *b, const char *c)
{
    if (c != NULL) {
        OCC(NULL, "inspect", "--json", "--functions", "--sort", "name", a, b, c);
    } else if (b != NULL) {
        OCC(NULL, "inspect", "--json", "--functions", "--sort", "name", a, b);
    } else {
        OCC(NULL, "inspect", "--json", "--functions", "--sort", "name", a);
    }
    if (last.code != EXIT_OK) {
        fail_msg("occ inspect %s: exit %d, stderr: %s", a, last.code, last.err);
    }
    json_t *doc = parse_json(last.out);
    json_t *functions = json_incref(json_object_get(doc, "functions"));
    json_decref(doc);
    return functions;
}

static void assert_same_functions(json_t *a, json_t *b)
{
    if (!json_equal(a, b)) {
        char *ta = json_dumps(a, JSON_COMPACT);
        char *tb = json_dumps(b, JSON_COMPACT);
        fail_msg("the archive gave\n%.2000s\nits members\n%.2000s", ta, tb);
    }
}

typedef struct bytes {
    unsigned char *data;
    size_t size;
} bytes;

static bytes read_all(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        fail_msg("%s: cannot open", path);
    }
    bytes b = {malloc(1 << 20), 0};
    assert_non_null(b.data);
    b.size = fread(b.data, 1, 1 << 20, f);
    fclose(f);
    return b;
}

/* An archive written member by member (ar(5)). */
typedef struct archive {
    unsigned char data[2 << 20];
    size_t size;
} archive;

static void ar_start(archive *a)
{
    memcpy(a->data, "!<arch>\n", 8);
    a->size = 8;
}

/* A 60-byte header with `name` (up to 16 bytes) and `size`, then the data, padded to even. */
static void ar_add(archive *a, const char *name, const void *data, size_t size)
{
    char header[61];
    snprintf(header, sizeof header, "%-16.16s%-12s%-6s%-6s%-8s%-10zu`\n", name, "0", "0", "0",
             "644", size);
    assert_true(a->size + 60 + size + 1 <= sizeof a->data);
    memcpy(a->data + a->size, header, 60);
    a->size += 60;
    memcpy(a->data + a->size, data, size);
    a->size += size;
    if (a->size % 2 != 0) {
        a->data[a->size++] = '\n';
    }
}

static const char *ar_write(const void *data, size_t size)
{
    static char paths[4][64];
    static int next;
    char *path = paths[next++ % 4];
    snprintf(path, 64, "/tmp/occ-test-archive-XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, data, size), (ssize_t)size);
    close(fd);
    return path;
}

static const char *cubin_path(void)
{
    static char path[1024];
    snprintf(path, sizeof path, "%s", test_data_path("hostile/cubin-baseline.cubin"));
    return path;
}

/* ------------------------------------------------------------------------ */
/* archive-names                                                            */
/* ------------------------------------------------------------------------ */

static void test_system_v_names(void **state)
{
    (void)state;
    bytes cubin = read_all(cubin_path());
    static archive a;
    ar_start(&a);
    static const char symbols[8] = {0};
    ar_add(&a, "/", symbols, sizeof symbols);
    static const char names[] = "a_member_name_longer_than_sixteen.cubin/\n";
    ar_add(&a, "//", names, sizeof names - 1);
    ar_add(&a, "note.txt/", "abc", 3);
    size_t member_at = a.size + 60;
    ar_add(&a, "/0", cubin.data, cubin.size);
    /* the member's data is off an 8-byte boundary: offsets must count from it */
    assert_true(member_at % 8 != 0);
    const char *path = ar_write(a.data, a.size);
    json_t *from_archive = functions_of(path, NULL, NULL);
    json_t *from_file = functions_of(cubin_path(), NULL, NULL);
    assert_true(json_array_size(from_file) > 0);
    assert_same_functions(from_archive, from_file);
    json_decref(from_archive);
    json_decref(from_file);
    OCC(NULL, "inspect", path);
    assert_non_null(strstr(last.out, "(archive)"));
    /* the same member twice: merged with a count, as two files are */
    ar_add(&a, "again.cubin/", cubin.data, cubin.size);
    path = ar_write(a.data, a.size);
    from_archive = functions_of(path, NULL, NULL);
    from_file = functions_of(cubin_path(), cubin_path(), NULL);
    assert_int_equal(json_integer_value(json_object_get(json_array_get(from_archive, 0), "count")),
                     2);
    assert_same_functions(from_archive, from_file);
    json_decref(from_archive);
    json_decref(from_file);
    free(cubin.data);
}

static void test_bsd_names(void **state)
{
    (void)state;
    bytes cubin = read_all(cubin_path());
    static archive a;
    ar_start(&a);
    /* "#1/N": the name is the first N bytes of the data (NUL-padded), counted in its size */
    static const char symdef[28] = "__.SYMDEF SORTED\0\0\0\0";
    ar_add(&a, "#1/20", symdef, sizeof symdef);
    static unsigned char member[1 << 15];
    static const char name[24] = "a_bsd_long_name.cubin";
    memcpy(member, name, sizeof name);
    assert_true(cubin.size + sizeof name <= sizeof member);
    memcpy(member + sizeof name, cubin.data, cubin.size);
    ar_add(&a, "#1/24", member, sizeof name + cubin.size);
    ar_add(&a, "short.cubin", cubin.data, cubin.size); /* BSD short name, space-padded */
    const char *path = ar_write(a.data, a.size);
    json_t *from_archive = functions_of(path, NULL, NULL);
    json_t *from_file = functions_of(cubin_path(), cubin_path(), NULL);
    assert_same_functions(from_archive, from_file);
    json_decref(from_archive);
    json_decref(from_file);
    /* an archive of text only: no kernels, no error */
    ar_start(&a);
    ar_add(&a, "README/", "no code here\n", 13);
    path = ar_write(a.data, a.size);
    OCC(NULL, "inspect", path);
    assert_int_equal(last.code, EXIT_OK);
    assert_non_null(strstr(last.out, "0 kernels (0 read"));
    free(cubin.data);
}

/* ------------------------------------------------------------------------ */
/* archive-hostile                                                          */
/* ------------------------------------------------------------------------ */

static void expect_refused(const void *data, size_t size, const char *want)
{
    const char *path = ar_write(data, size);
    OCC(NULL, "inspect", path);
    char prefix[128];
    snprintf(prefix, sizeof prefix, "occ inspect: %s: offset ", path);
    if (last.code != EXIT_DATA || !starts_with(last.err, prefix) ||
        strstr(last.err, want) == NULL || line_count(last.err) != 1) {
        fail_msg("wanted '%s': exit %d, stderr: %s", want, last.code, last.err);
    }
    unlink(path);
}

static void test_hostile_archives(void **state)
{
    (void)state;
    static archive a;
    expect_refused("!<thin>\n", 8, "a thin archive (ar --thin)");
    ar_start(&a);
    memset(a.data + a.size, ' ', 30);
    expect_refused(a.data, a.size + 30, "offset 8: member header cut short: 30 of 60 bytes");
    ar_start(&a);
    ar_add(&a, "x/", "abcd", 4);
    a.data[8 + 58] = '!';
    expect_refused(a.data, a.size, "offset 66: member header does not end with");
    ar_start(&a);
    ar_add(&a, "x/", "abcd", 4);
    memcpy(a.data + 8 + 48, "4x        ", 10);
    expect_refused(a.data, a.size, "offset 56: member size is not a decimal number");
    ar_start(&a);
    ar_add(&a, "x/", "abcd", 4);
    memcpy(a.data + 8 + 48, "400       ", 10);
    expect_refused(a.data, a.size,
                   "member of 400 bytes runs past the end of the archive (4 bytes left");
    ar_start(&a);
    ar_add(&a, "/0", "abcd", 4);
    expect_refused(a.data, a.size, "refers to a long-name table (\"//\") that no member");
    ar_start(&a);
    ar_add(&a, "//", "x/\n", 3);
    ar_add(&a, "/99", "abcd", 4);
    expect_refused(a.data, a.size, "member name '/99' is beyond the 3 bytes of the long-name");
    ar_start(&a);
    ar_add(&a, "#1/100", "abcd", 4);
    expect_refused(a.data, a.size, "BSD member name of 100 bytes is longer than the member");
    /* a damaged member: its name, and the offset in the archive */
    bytes cubin = read_all(cubin_path());
    ar_start(&a);
    ar_add(&a, "cut.cubin/", cubin.data, 100);
    expect_refused(a.data, a.size, "member cut.cubin: ");
    free(cubin.data);
}

/* Archives of more members than one thread splits (64 per chunk): the rows
   do not depend on the threads, and of two damaged members the first in
   member order is the one named, however the threads met them. */
static void test_many_members(void **state)
{
    (void)state;
    enum { MEMBERS = 300 };
    bytes cubin = read_all(cubin_path());
    static archive a;
    char name[32];
    ar_start(&a);
    for (int i = 0; i < MEMBERS; i++) {
        snprintf(name, sizeof name, "k%d.cubin/", i);
        ar_add(&a, name, cubin.data, cubin.size);
    }
    const char *path = ar_write(a.data, a.size);
    OCC(NULL, "inspect", "--json", "--functions", "--jobs", "1", path);
    assert_int_equal(last.code, EXIT_OK);
    json_t *serial = parse_json(last.out);
    OCC(NULL, "inspect", "--json", "--functions", "--jobs", "8", path);
    assert_int_equal(last.code, EXIT_OK);
    json_t *parallel = parse_json(last.out);
    json_t *functions = json_object_get(parallel, "functions");
    assert_true(json_array_size(functions) > 0);
    assert_int_equal(json_integer_value(json_object_get(json_array_get(functions, 0), "count")),
                     MEMBERS);
    assert_same_functions(json_object_get(serial, "functions"), functions);
    json_decref(serial);
    json_decref(parallel);
    unlink(path);
    ar_start(&a);
    for (int i = 0; i < MEMBERS; i++) {
        bool damaged = i == 150 || i == 250;
        snprintf(name, sizeof name, "%s%d.cubin/", damaged ? "cut" : "k", i);
        ar_add(&a, name, cubin.data, damaged ? 100 : cubin.size);
    }
    expect_refused(a.data, a.size, "member cut150.cubin: ");
    path = ar_write(a.data, a.size);
    OCC(NULL, "inspect", "--jobs", "1", path);
    assert_int_equal(last.code, EXIT_DATA);
    assert_non_null(strstr(last.err, "member cut150.cubin: "));
    unlink(path);
    free(cubin.data);
}

/* ------------------------------------------------------------------------ */
/* archive-nested                                                           */
/* ------------------------------------------------------------------------ */

/* `inside`, a whole archive, as the only member `name` of a new one (`ar q outer.a
   inner.a`). */
static void ar_wrap(archive *outer, const char *name, const archive *inside)
{
    ar_start(outer);
    ar_add(outer, name, inside->data, inside->size);
}

/* An archive inside an archive (`ar q big.a a.a`) gives the rows its members give read
   as files; it read as "0 kernels" with exit 0, and a diff against it would have shown
   every kernel removed. Four levels read; a fifth, a thin archive inside, and damage
   inside a nested archive are refused with the nested member named. */
static void test_nested_archives(void **state)
{
    (void)state;
    bytes cubin = read_all(cubin_path());
    static archive inner, outer, deeper;
    ar_start(&inner);
    ar_add(&inner, "k.cubin/", cubin.data, cubin.size);
    ar_add(&inner, "note.txt/", "abc", 3);
    ar_start(&outer);
    ar_add(&outer, "direct.cubin/", cubin.data, cubin.size);
    ar_add(&outer, "inner.a/", inner.data, inner.size);
    const char *path = ar_write(outer.data, outer.size);
    json_t *from_archive = functions_of(path, NULL, NULL);
    json_t *from_files = functions_of(cubin_path(), cubin_path(), NULL);
    assert_int_equal(json_integer_value(json_object_get(json_array_get(from_archive, 0), "count")),
                     2);
    assert_same_functions(from_archive, from_files);
    json_decref(from_archive);
    OCC(NULL, "inspect", "--json", path);
    json_t *doc = parse_json(last.out);
    assert_int_equal(json_integer_value(json_object_get(doc, "entries_skipped")), 0);
    json_decref(doc);
    unlink(path);
    /* four archives, one in the other: read; five: refused */
    static archive levels[2];
    ar_start(&levels[0]);
    ar_add(&levels[0], "k.cubin/", cubin.data, cubin.size);
    for (int level = 1; level < 4; level++) {
        ar_wrap(&levels[level % 2], "level.a/", &levels[(level + 1) % 2]);
    }
    path = ar_write(levels[1].data, levels[1].size);
    from_archive = functions_of(path, NULL, NULL);
    json_t *one = functions_of(cubin_path(), NULL, NULL);
    assert_same_functions(from_archive, one);
    json_decref(from_archive);
    json_decref(one);
    unlink(path);
    ar_wrap(&deeper, "level.a/", &levels[1]);
    /* the fifth archive's data: four times past a magic and a header (8 + 60 bytes) */
    expect_refused(deeper.data, deeper.size,
                   "offset 272: member level.a: member level.a: member level.a: member level.a: "
                   "archives nested more than 4 deep");
    /* a thin archive inside: its members are elsewhere */
    ar_start(&outer);
    ar_add(&outer, "thin.a/", "!<thin>\n", 8);
    expect_refused(outer.data, outer.size,
                   "offset 68: member thin.a is a thin archive (ar --thin), whose members are "
                   "separate files");
    /* damage inside: the offset in the file, the nested archive named */
    ar_start(&inner);
    memset(inner.data + inner.size, ' ', 30);
    inner.size += 30;
    ar_wrap(&outer, "inner.a/", &inner);
    expect_refused(outer.data, outer.size,
                   "offset 76: member inner.a: member header cut short: 30 of 60 bytes");
    ar_start(&inner);
    ar_add(&inner, "cut.cubin/", cubin.data, 100);
    ar_wrap(&outer, "inner.a/", &inner);
    expect_refused(outer.data, outer.size, "member inner.a(cut.cubin): ");
    json_decref(from_files);
    free(cubin.data);
}

/* ------------------------------------------------------------------------ */
/* With nvcc: archive-members, diff-cubins, archive-toolkit                 */
/* ------------------------------------------------------------------------ */

static const char *fixtures;

static const char *fixture(const char *name)
{
    static char paths[4][1024];
    static int next;
    char *p = paths[next++ % 4];
    snprintf(p, 1024, "%s/%s", fixtures, name);
    return p;
}

static void test_archive_is_its_members(void **state)
{
    (void)state;
    json_t *from_archive = functions_of(fixture("libvariants.a"), NULL, NULL);
    json_t *from_files = functions_of(fixture("variants_relocatable_device_code.o"),
                                      fixture("whole.o"), fixture("extra.o"));
    assert_true(json_array_size(from_files) > 0);
    assert_same_functions(from_archive, from_files);
    /* all three kinds are there: unlinked -rdc code, linked code, a container found by
       scanning .kernels_extra */
    bool relocatable = false, linked = false, scanned = false;
    size_t i;
    json_t *f;
    json_array_foreach(from_archive, i, f)
    {
        const char *section = json_string_value(json_object_get(f, "section"));
        relocatable = relocatable || json_is_true(json_object_get(f, "relocatable"));
        linked = linked || (section != NULL && strcmp(section, ".nv_fatbin") == 0);
        scanned = scanned || (section != NULL && strcmp(section, ".kernels_extra") == 0);
    }
    assert_true(relocatable && linked && scanned);
    json_decref(from_archive);
    json_decref(from_files);
}

/* The names of the kernels of one file, sorted, joined. */
static char *kernel_names(const char *path)
{
    OCC(NULL, "inspect", "--csv", "--mangled", "--sort", "name", path);
    assert_int_equal(last.code, EXIT_OK);
    size_t cap = strlen(last.out) + 1;
    char *names = calloc(cap, 1);
    assert_non_null(names);
    char line[2048];
    for (int i = 1; i < line_count(last.out); i++) {
        line_at(last.out, i, line, sizeof line);
        /* the last column is the mangled name */
        strcat(names, strrchr(line, ',') + 1);
        strcat(names, " ");
    }
    return names;
}

/* libsections.a: a chunk of members meets more than 256 section names before
   .kernels_extra, which the first member made known: the kernels read from it
   are named with their section, with one thread and with four alike. */
static void test_many_section_names(void **state)
{
    (void)state;
    const char *path = fixture("libsections.a");
    OCC(NULL, "inspect", "--json", "--jobs", "1", path);
    assert_int_equal(last.code, EXIT_OK);
    json_t *serial = parse_json(last.out);
    OCC(NULL, "inspect", "--json", "--jobs", "4", path);
    assert_int_equal(last.code, EXIT_OK);
    json_t *parallel = parse_json(last.out);
    json_t *functions = json_object_get(parallel, "functions");
    assert_true(json_array_size(functions) > 0);
    for (size_t i = 0; i < json_array_size(functions); i++) {
        const char *section =
            json_string_value(json_object_get(json_array_get(functions, i), "section"));
        if (section == NULL || strcmp(section, ".kernels_extra") != 0) {
            fail_msg("function %zu: section %s, wanted .kernels_extra", i,
                     section != NULL ? section : "null");
        }
    }
    assert_same_functions(json_object_get(serial, "functions"), functions);
    json_decref(serial);
    json_decref(parallel);
}

/* libvariants.a inside another archive, beside a cubin: its kernels are there, and occ diff
   of the library against the nested one finds nothing removed, added or changed. */
static void test_nested_library(void **state)
{
    (void)state;
    bytes library = read_all(fixture("libvariants.a"));
    bytes cubin = read_all(fixture("old.cubin"));
    static archive outer;
    ar_start(&outer);
    ar_add(&outer, "libvariants.a/", library.data, library.size);
    ar_add(&outer, "old.cubin/", cubin.data, cubin.size);
    const char *path = ar_write(outer.data, outer.size);
    json_t *from_nested = functions_of(path, NULL, NULL);
    json_t *from_files = functions_of(fixture("libvariants.a"), fixture("old.cubin"), NULL);
    assert_true(json_array_size(from_files) > 0);
    assert_same_functions(from_nested, from_files);
    json_decref(from_nested);
    json_decref(from_files);
    ar_start(&outer);
    ar_add(&outer, "libvariants.a/", library.data, library.size);
    path = ar_write(outer.data, outer.size);
    OCC(NULL, "diff", "--functions", "--fail-on", "removed,added,changed", fixture("libvariants.a"),
        path);
    if (last.code != EXIT_OK) {
        fail_msg("occ diff of libvariants.a and the archive holding it: exit %d\n%s%s", last.code,
                 last.out, last.err);
    }
    unlink(path);
    free(library.data);
    free(cubin.data);
}

static void test_rdc_object_alone(void **state)
{
    (void)state;
    /* same source, same arch: the -rdc object's kernels are the cubin's */
    char *from_object = kernel_names(fixture("variants_relocatable_device_code.o"));
    char *from_cubin = kernel_names(fixture("old.cubin"));
    assert_true(strlen(from_cubin) > 0);
    assert_string_equal(from_object, from_cubin);
    free(from_object);
    free(from_cubin);
}

static void test_diff_of_cubins_agrees_with_logs(void **state)
{
    (void)state;
    OCC(NULL, "diff", "--json", "--gpu", "H200", "--threads", "256", fixture("old.log"),
        fixture("new.log"));
    assert_int_equal(last.code, EXIT_OK);
    json_t *logs = parse_json(last.out);
    OCC(NULL, "diff", "--json", "--gpu", "H200", "--threads", "256", fixture("old.cubin"),
        fixture("new.cubin"));
    assert_int_equal(last.code, EXIT_OK);
    json_t *cubins = parse_json(last.out);
    assert_true(json_equal(json_object_get(logs, "counts"), json_object_get(cubins, "counts")));
    json_t *a = json_object_get(logs, "changed");
    json_t *b = json_object_get(cubins, "changed");
    assert_int_equal(json_array_size(a), json_array_size(b));
    for (size_t i = 0; i < json_array_size(a); i++) {
        json_t *x = json_array_get(a, i);
        json_t *y = json_array_get(b, i);
        static const char *const same[] = {"mangled",     "regs",      "smem_bytes",
                                           "stack_bytes", "occupancy", "blocks_per_sm"};
        for (size_t k = 0; k < sizeof same / sizeof same[0]; k++) {
            if (!json_equal(json_object_get(x, same[k]), json_object_get(y, same[k]))) {
                fail_msg("%s: %s differs between the logs and the cubins",
                         json_string_value(json_object_get(x, "mangled")), same[k]);
            }
        }
    }
    /* cubins carry spill instructions where logs carry bytes: the spiller's grew */
    OCC(NULL, "diff", "--fail-on", "spills", fixture("old.cubin"), fixture("new.cubin"));
    assert_int_equal(last.code, EXIT_DATA);
    assert_non_null(strstr(last.err, "gate failed: 1 kernel (spills: 1)"));
    json_decref(logs);
    json_decref(cubins);
}

static void test_toolkit_archives(void **state)
{
    (void)state;
    const char *devrt = "/usr/local/cuda/lib64/libcudadevrt.a";
    struct stat st;
    if (stat(devrt, &st) != 0) {
        print_message("test_archive: %s is absent: its check is skipped\n", devrt);
    } else {
        /* its members, taken out by ar, read as files */
        char dir[] = "/tmp/occ-test-devrt-XXXXXX";
        assert_non_null(mkdtemp(dir));
        char command[1200];
        snprintf(command, sizeof command, "cd '%s' && ar x '%s'", dir, devrt);
        assert_int_equal(system(command), 0);
        glob_t members;
        char pattern[64];
        snprintf(pattern, sizeof pattern, "%s/*", dir);
        assert_int_equal(glob(pattern, 0, NULL, &members), 0);
        assert_true(members.gl_pathc >= 1 && members.gl_pathc <= 3);
        json_t *from_archive = functions_of(devrt, NULL, NULL);
        json_t *from_members =
            functions_of(members.gl_pathv[0], members.gl_pathc > 1 ? members.gl_pathv[1] : NULL,
                         members.gl_pathc > 2 ? members.gl_pathv[2] : NULL);
        assert_true(json_array_size(from_archive) > 0);
        assert_same_functions(from_archive, from_members);
        json_decref(from_archive);
        json_decref(from_members);
        for (size_t i = 0; i < members.gl_pathc; i++) {
            unlink(members.gl_pathv[i]);
        }
        globfree(&members);
        rmdir(dir);
    }
    glob_t statics;
    if (glob("/usr/local/cuda/lib64/*_static.a", 0, NULL, &statics) != 0) {
        print_message("test_archive: no *_static.a in /usr/local/cuda/lib64: its check is "
                      "skipped\n");
        return;
    }
    OCC(NULL, "inspect", "--summary", statics.gl_pathv[0]);
    if (last.code != EXIT_OK || strstr(last.out, "(archive)") == NULL) {
        fail_msg("%s: exit %d, stderr: %s", statics.gl_pathv[0], last.code, last.err);
    }
    globfree(&statics);
}

int main(void)
{
    const struct CMUnitTest always[] = {
        cmocka_unit_test(test_system_v_names),   cmocka_unit_test(test_bsd_names),
        cmocka_unit_test(test_hostile_archives), cmocka_unit_test(test_many_members),
        cmocka_unit_test(test_nested_archives),
    };
    int failed = cmocka_run_group_tests_name("archives made here", always, NULL, NULL);
    if (failed != 0) {
        return failed;
    }
    fixtures = getenv("OCC_DIFF_FIXTURES");
    char stamp[1024];
    snprintf(stamp, sizeof stamp, "%s/stamp", fixtures != NULL ? fixtures : "");
    if (fixtures == NULL || access(stamp, F_OK) != 0) {
        printf("test_archive: no nvcc-made fixtures (nvcc not found): the nvcc cases are "
               "skipped\n");
        return 77;
    }
    const struct CMUnitTest with_nvcc[] = {
        cmocka_unit_test(test_archive_is_its_members),
        cmocka_unit_test(test_nested_library),
        cmocka_unit_test(test_rdc_object_alone),
        cmocka_unit_test(test_many_section_names),
        cmocka_unit_test(test_diff_of_cubins_agrees_with_logs),
        cmocka_unit_test(test_toolkit_archives),
    };
    return cmocka_run_group_tests_name("archives and cubins made by nvcc", with_nvcc, NULL, NULL);
}
