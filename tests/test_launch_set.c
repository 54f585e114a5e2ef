/*
 * test_launch_set.c - libocc-profile's launch reader, occ_profile_launches_read
 * (the launches of `occ inspect --launches` and `occ diff --launches`, and of
 * occ.inspect(launches=) in Python), through the public API only:
 *
 *   - launches-table: a launch table's names, globs, block XxYxZ, shared
 *     memory sizes, cluster, grid, weights and carveout, each cell as given;
 *   - launches-grid: a grid up to CUDA's limits (x 2^31-1, y and z 65535),
 *     not a block's 1024;
 *   - launches-bad-cell: each bad row or header refused with its status, line,
 *     column, value and limit, and no set left behind;
 *   - launches-stream: the same from a stream, and a stream that is no table;
 *   - launches-pipe: a table from a pipe by path (/dev/fd/N) reads; a profile
 *     from a pipe is refused in one line saying to write it to a file;
 *   - launches-profile: a Kineto trace's groups as launches, weighed by time;
 *   - launches-apply: the list given to occ_inspect_apply_launches, which
 *     fills its `matched` and `match`;
 *   - launches-names: a name matches the kernel it names (white space
 *     ignored, a '*' in it or not; or its mangled name), and only a name that
 *     names no kernel is tried as a glob;
 *   - launches-limits: the row limit, a missing file, NULL arguments.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>
#include <zlib.h>

#include <cmocka.h>

#include "occ_profile.h"

static char tmpdir[] = "/tmp/occ-launch-set-test-XXXXXX";

static const char *temp_path(const char *name)
{
    static char path[4][512];
    static int next;
    char *p = path[next++ % 4];
    snprintf(p, sizeof path[0], "%s/%s", tmpdir, name);
    return p;
}

static const char *write_file(const char *name, const char *text, size_t size)
{
    const char *path = temp_path(name);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(text, 1, size, f), size);
    fclose(f);
    return path;
}

static const char *write_text(const char *name, const char *text)
{
    return write_file(name, text, strlen(text));
}

/* Reads path; fails the test with the library's line unless it reads. */
static occ_profile_launches *read_ok(const char *path)
{
    occ_profile_launches *set = NULL;
    occ_profile_error err;
    occ_status st = occ_profile_launches_read(path, &set, &err);
    if (st != OCC_OK) {
        fail_msg("%s: status %d: %s", path, (int)st, err.message);
    }
    assert_non_null(set);
    return set;
}

/* ------------------------------------------------------------------------ */
/* launches-table                                                           */
/* ------------------------------------------------------------------------ */

static const char good_table[] = "kernel,block,dyn_smem,cluster,grid,weight,carveout\n"
                                 "*conv*,64,4K,,,3,50\n"
                                 "\"scale(float*, int)\",16x16,0,,132x2,1,\n"
                                 "nvjet_sm90_tst_256x128,384,213188,2,,0.5,\n"
                                 "_Z3addPf,8X8x4,1.5KiB,2x2x1,1024,,100\n";

static void check_good_table(occ_inspect_launch_list *l, const char *path)
{
    assert_non_null(l);
    assert_string_equal(l->path, path);
    assert_string_equal(l->kind, "table");
    assert_int_equal(l->count, 4);
    assert_non_null(l->matched);
    for (size_t i = 0; i < l->count; i++) {
        assert_false(l->matched[i]);
        assert_int_equal(l->launches[i].source, OCC_INSPECT_LAUNCH_TABLE);
        assert_null(l->launches[i].mangled);
        assert_int_equal(l->launches[i].smem_total_bytes, OCC_INSPECT_UNKNOWN);
    }
    static const struct {
        const char *name;
        bool glob;
        int block[3], dyn_smem, cluster[3];
        long long grid_blocks;
        double weight;
        int carveout;
    } want[4] = {
        {"*conv*", true, {64, 1, 1}, 4096, {0, 0, 0}, 0, 3.0, 50},
        /* a '*' makes a name one that may be a glob: it is tried as one only
           where it names no kernel (launches-names) */
        {"scale(float*, int)", true, {16, 16, 1}, 0, {0, 0, 0}, 264, 1.0, OCC_CARVEOUT_DEFAULT},
        {"nvjet_sm90_tst_256x128",
         false,
         {384, 1, 1},
         213188,
         {2, 1, 1},
         0,
         0.5,
         OCC_CARVEOUT_DEFAULT},
        {"_Z3addPf", false, {8, 8, 4}, 1536, {2, 2, 1}, 1024, 1.0, 100},
    };
    for (size_t i = 0; i < 4; i++) {
        const occ_inspect_launch *g = &l->launches[i];
        assert_string_equal(g->name, want[i].name);
        assert_int_equal(g->glob, want[i].glob);
        assert_memory_equal(g->block, want[i].block, sizeof g->block);
        assert_int_equal(g->dyn_smem_bytes, want[i].dyn_smem);
        assert_memory_equal(g->cluster, want[i].cluster, sizeof g->cluster);
        assert_int_equal(g->grid_blocks, want[i].grid_blocks);
        assert_true(g->weight == want[i].weight);
        assert_int_equal(g->carveout_percent, want[i].carveout);
    }
}

static void table_test(void **state)
{
    (void)state;
    const char *path = write_text("good.csv", good_table);
    occ_profile_launches *set = read_ok(path);
    check_good_table(occ_profile_launches_list(set), path);
    occ_profile_launches_free(set);
    /* gzip is read as it is; columns after kernel come in any order; a
       header alone is an empty set, not an error */
    const char *gz = temp_path("good.csv.gz");
    gzFile f = gzopen(gz, "wb");
    assert_non_null(f);
    gzputs(f, good_table);
    gzclose(f);
    set = read_ok(gz);
    check_good_table(occ_profile_launches_list(set), gz);
    occ_profile_launches_free(set);
    path = write_text("order.csv", "kernel,dyn_smem,block\nk,48K,32x2\n");
    set = read_ok(path);
    occ_inspect_launch_list *l = occ_profile_launches_list(set);
    assert_int_equal(l->count, 1);
    assert_string_equal(l->launches[0].name, "k");
    assert_int_equal(l->launches[0].dyn_smem_bytes, 48 * 1024);
    assert_int_equal(l->launches[0].block[1], 2);
    occ_profile_launches_free(set);
    path = write_text("empty.csv", "kernel,block,dyn_smem\n");
    set = read_ok(path);
    l = occ_profile_launches_list(set);
    assert_string_equal(l->kind, "table");
    assert_int_equal(l->count, 0);
    assert_non_null(l->launches);
    assert_non_null(l->matched);
    occ_profile_launches_free(set);
}

/* ------------------------------------------------------------------------ */
/* launches-grid                                                            */
/* ------------------------------------------------------------------------ */

static void grid_test(void **state)
{
    (void)state;
    /* one wave on an H200 (8 blocks of 256 threads on each of 132 SMs), the
       largest grid CUDA takes, and the shapes in between */
    const char *path = write_text("grid.csv", "kernel,block,dyn_smem,grid\n"
                                              "k,256,0,1056\n"
                                              "k,256,0,132x8\n"
                                              "k,256,0,2147483647x65535x65535\n"
                                              "k,256,0,1x65535\n"
                                              "k,256,0,\n");
    occ_profile_launches *set = read_ok(path);
    occ_inspect_launch_list *l = occ_profile_launches_list(set);
    static const long long want[] = {1056, 1056, 2147483647LL * 65535 * 65535, 65535, 0};
    assert_int_equal(l->count, sizeof want / sizeof want[0]);
    for (size_t i = 0; i < l->count; i++) {
        if (l->launches[i].grid_blocks != want[i]) {
            fail_msg("row %zu: grid_blocks %lld, want %lld", i + 2, l->launches[i].grid_blocks,
                     want[i]);
        }
    }
    occ_profile_launches_free(set);
}

/* ------------------------------------------------------------------------ */
/* launches-bad-cell                                                        */
/* ------------------------------------------------------------------------ */

static const struct {
    const char *id;
    const char *text;
    occ_status status;
    long long line;
    const char *want; /* after "PATH: " */
} bad_tables[] = {
    {"bad-block-0", "kernel,block,dyn_smem\nk,0,0\n", OCC_ERR_BAD_FORMAT, 2,
     "line 2: block: '0' is below the minimum, 1"},
    {"bad-block-2000", "kernel,block,dyn_smem\nk,64,0\nk,2000,0\n", OCC_ERR_BAD_FORMAT, 3,
     "line 3: block: '2000' is above the maximum, 1024"},
    {"bad-block-dim", "kernel,block,dyn_smem\nk,16x0,0\n", OCC_ERR_BAD_FORMAT, 2,
     "line 2: block: '16x0': dimension '0' is below the minimum, 1"},
    {"bad-block-4-dims", "kernel,block,dyn_smem\nk,2x2x2x2,0\n", OCC_ERR_BAD_FORMAT, 2,
     "line 2: block: '2x2x2x2' is not a block size such as 256, 16x16 or 8x8x4"},
    {"bad-dyn-smem-word", "kernel,block,dyn_smem\nk,64,lots\n", OCC_ERR_BAD_FORMAT, 2,
     "line 2: dyn_smem: 'lots' is not a size in bytes such as 4096, 48K or 1.5KiB"},
    {"bad-dyn-smem-huge", "kernel,block,dyn_smem\nk,64,4096M\n", OCC_ERR_BAD_FORMAT, 2,
     "line 2: dyn_smem: '4096M' is above the maximum, 2147483647 bytes"},
    {"bad-dyn-smem-half-byte", "kernel,block,dyn_smem\nk,64,1.5\n", OCC_ERR_BAD_FORMAT, 2,
     "line 2: dyn_smem: '1.5' is not a whole number of bytes"},
    {"bad-missing-dyn-smem", "kernel,block\nk,64\n", OCC_ERR_BAD_FORMAT, 1,
     "line 1: dyn_smem: missing: the header is kernel,block,dyn_smem[,cluster,grid,weight]"},
    {"bad-unknown-column", "kernel,blok,dyn_smem\n", OCC_ERR_BAD_FORMAT, 1,
     "line 1: blok: not a column (kernel, block, dyn_smem, cluster, grid, weight, carveout)"},
    {"bad-column-twice", "kernel,block,dyn_smem,block\n", OCC_ERR_BAD_FORMAT, 1,
     "line 1: block: appears twice"},
    {"bad-kernel-empty", "kernel,block,dyn_smem\n,64,0\n", OCC_ERR_BAD_FORMAT, 2,
     "line 2: kernel: empty: give a name or a glob"},
    {"bad-weight-negative", "kernel,block,dyn_smem,weight\nk,64,0,-1\n", OCC_ERR_BAD_FORMAT, 2,
     "line 2: weight: not a number of 0 or more (a share, a time, a count)"},
    {"bad-weight-nan", "kernel,block,dyn_smem,weight\nk,64,0,nan\n", OCC_ERR_BAD_FORMAT, 2,
     "line 2: weight: not a number of 0 or more"},
    {"bad-carveout-101", "kernel,block,dyn_smem,carveout\nk,64,0,101\n", OCC_ERR_BAD_FORMAT, 2,
     "line 2: carveout: '101' is above the maximum, 100"},
    {"bad-cluster-word", "kernel,block,dyn_smem,cluster\nk,64,0,two\n", OCC_ERR_BAD_FORMAT, 2,
     "line 2: cluster: 'two' is not a whole number"},
    {"bad-open-quote", "kernel,block,dyn_smem\n\"k,64,0\n", OCC_ERR_BAD_FORMAT, 2,
     "line 2: row: not a CSV record (too long, a NUL byte, or a quote left open)"},
    {"bad-grid-x", "kernel,block,dyn_smem,grid\nk,64,0,2147483648\n", OCC_ERR_BAD_FORMAT, 2,
     "line 2: grid: '2147483648' is above the maximum, 2147483647"},
    {"bad-grid-y", "kernel,block,dyn_smem,grid\nk,64,0,1x65536\n", OCC_ERR_BAD_FORMAT, 2,
     "line 2: grid: '1x65536': dimension '65536' is above the maximum, 65535"},
    {"bad-grid-z", "kernel,block,dyn_smem,grid\nk,64,0,1x1x65536\n", OCC_ERR_BAD_FORMAT, 2,
     "line 2: grid: '1x1x65536': dimension '65536' is above the maximum, 65535"},
    {"bad-grid-0", "kernel,block,dyn_smem,grid\nk,64,0,0\n", OCC_ERR_BAD_FORMAT, 2,
     "line 2: grid: '0' is below the minimum, 1"},
    {"bad-grid-4-dims", "kernel,block,dyn_smem,grid\nk,64,0,2x2x2x2\n", OCC_ERR_BAD_FORMAT, 2,
     "line 2: grid: '2x2x2x2' is not a grid such as 1056, 132x8 or 66x4x4"},
    /* a row of more fields than the header: a value would be dropped */
    {"bad-row-extra-field", "kernel,block,dyn_smem\nk,64,0\nk,64,0,2\n", OCC_ERR_BAD_FORMAT, 3,
     "line 3: row: 4 fields, but the header has 3 columns: field 4, '2', is in none (quote a "
     "kernel name that holds a comma)"},
    {"bad-row-unquoted-comma",
     "kernel,block,dyn_smem,cluster,grid,weight,carveout\n"
     "add(float*, int),64,0,,,,\n",
     OCC_ERR_BAD_FORMAT, 2,
     "line 2: row: 8 fields, but the header has 7 columns: field 8, '', is in none"},
    {"bad-row-20-fields",
     "kernel,block,dyn_smem\nk,64,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17\n",
     OCC_ERR_BAD_FORMAT, 2,
     "line 2: row: 20 fields, but the header has 3 columns: field 4, '1', is in none"},
    /* a header of more columns than are stored: refused at its first
       unknown or repeated column, which comes within the first 8 */
    {"bad-header-17-columns",
     "kernel,block,dyn_smem,cluster,grid,weight,carveout,"
     "c8,c9,c10,c11,c12,c13,c14,c15,c16,c17\n",
     OCC_ERR_BAD_FORMAT, 1, "line 1: c8: not a column"},
    {"bad-header-17-repeated",
     "kernel,block,dyn_smem,cluster,grid,weight,carveout,"
     "block,block,block,block,block,block,block,block,block,kernel\n",
     OCC_ERR_BAD_FORMAT, 1, "line 1: block: appears twice"},
    {"bad-header-empty-column", "kernel,block,dyn_smem,\nk,64,0,\n", OCC_ERR_BAD_FORMAT, 1,
     "line 1: header: column 4 has no name (the columns are kernel, block, dyn_smem, cluster, "
     "grid, weight, carveout)"},
    {"bad-line-after-quoted-newline", "kernel,block,dyn_smem\n\"a\nb\",64,0\nk,0,0\n",
     OCC_ERR_BAD_FORMAT, 4, "line 4: block: '0' is below the minimum, 1"},
};

static void bad_cell_test(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof bad_tables / sizeof bad_tables[0]; i++) {
        const char *path = write_text("bad.csv", bad_tables[i].text);
        occ_profile_launches *set = (occ_profile_launches *)&set; /* not NULL */
        occ_profile_error err;
        occ_status st = occ_profile_launches_read(path, &set, &err);
        char want[600];
        snprintf(want, sizeof want, "%s: %s", path, bad_tables[i].want);
        if (st != bad_tables[i].status || strncmp(err.message, want, strlen(want)) != 0) {
            fail_msg("%s: status %d, want %d; message '%s', want '%s'", bad_tables[i].id, (int)st,
                     (int)bad_tables[i].status, err.message, want);
        }
        if (set != NULL || err.status != st || err.where != bad_tables[i].line ||
            strchr(err.message, '\n') != NULL) {
            fail_msg("%s: set %p, err.status %d, err.where %lld", bad_tables[i].id, (void *)set,
                     (int)err.status, err.where);
        }
    }
    /* a NUL byte in a row */
    static const char nul_row[] = "kernel,block,dyn_smem\nk\0x,64,0\n";
    const char *path = write_file("nul.csv", nul_row, sizeof nul_row - 1);
    occ_profile_launches *set;
    occ_profile_error err;
    assert_int_equal(occ_profile_launches_read(path, &set, &err), OCC_ERR_BAD_FORMAT);
    assert_non_null(strstr(err.message, "line 2: row: not a CSV record"));
    assert_null(set);
}

/* ------------------------------------------------------------------------ */
/* launches-stream                                                          */
/* ------------------------------------------------------------------------ */

static void stream_test(void **state)
{
    (void)state;
    char *copy = strdup(good_table);
    assert_non_null(copy);
    FILE *in = fmemopen(copy, strlen(copy), "r");
    assert_non_null(in);
    occ_profile_launches *set;
    occ_profile_error err;
    assert_int_equal(occ_profile_launches_read_stream(in, "<memory>", &set, &err), OCC_OK);
    check_good_table(occ_profile_launches_list(set), "<memory>");
    occ_profile_launches_free(set);
    fclose(in);
    /* a bad cell names the stream */
    static char bad[] = "kernel,block,dyn_smem\nk,64,x\n";
    in = fmemopen(bad, strlen(bad), "r");
    assert_non_null(in);
    assert_int_equal(occ_profile_launches_read_stream(in, "<memory>", &set, &err),
                     OCC_ERR_BAD_FORMAT);
    assert_string_equal(err.message, "<memory>: line 2: dyn_smem: 'x' is not a size in bytes "
                                     "such as 4096, 48K or 1.5KiB");
    assert_null(set);
    fclose(in);
    /* a stream that is not a launch table: a profile is read by path only */
    static char json[] = "{\"traceEvents\": []}\n";
    in = fmemopen(json, strlen(json), "r");
    assert_non_null(in);
    assert_int_equal(occ_profile_launches_read_stream(in, "<memory>", &set, &err),
                     OCC_ERR_BAD_FORMAT);
    assert_non_null(strstr(err.message, "<memory>: line 1: not a launch table"));
    assert_null(set);
    fclose(in);
    free(copy);
}

/* ------------------------------------------------------------------------ */
/* launches-profile                                                         */
/* ------------------------------------------------------------------------ */

#define KERNEL(name, dur, smem, block)                                                             \
    "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"" name "\", \"dur\": " dur                   \
    ", \"args\": {\"registers per thread\": 16, \"shared memory\": " smem                          \
    ", \"grid\": [10, 2, 1], \"block\": " block "}}"

#define DEVICES                                                                                    \
    "{\"deviceProperties\": [{\"id\": 0, \"name\": \"NVIDIA H200\", \"computeMajor\": 9, "         \
    "\"computeMinor\": 0, \"numSms\": 132}], \"traceEvents\": ["
#define SCALE KERNEL("scale(float*,int)", "30", "8192", "[16, 16, 1]")
#define SCALE_AGAIN KERNEL("scale(float*,int)", "12", "8192", "[16, 16, 1]")
#define TRITON KERNEL("triton_poi_fused_0", "5", "0", "[128, 1, 1]")
static const char kineto_trace[] = DEVICES SCALE "," SCALE_AGAIN "," TRITON "]}";

static void profile_test(void **state)
{
    (void)state;
    const char *path = write_text("trace.json", kineto_trace);
    occ_profile_launches *set = read_ok(path);
    occ_inspect_launch_list *l = occ_profile_launches_list(set);
    assert_string_equal(l->kind, "profile");
    assert_string_equal(l->path, path);
    assert_int_equal(l->count, 2); /* two launches of one configuration are one group */
    /* groups come by GPU time, largest first */
    const occ_inspect_launch *scale = &l->launches[0];
    assert_string_equal(scale->name, "scale(float*,int)");
    assert_false(scale->glob);
    assert_int_equal(scale->source, OCC_INSPECT_LAUNCH_PROFILE);
    assert_int_equal(scale->block[0], 16);
    assert_int_equal(scale->block[1], 16);
    /* a PyTorch trace gives static + dynamic shared memory as one number */
    assert_int_equal(scale->dyn_smem_bytes, OCC_INSPECT_UNKNOWN);
    assert_int_equal(scale->smem_total_bytes, 8192);
    assert_int_equal(scale->grid_blocks, 20);
    assert_true(scale->weight == 42.0);
    assert_int_equal(scale->carveout_percent, OCC_CARVEOUT_DEFAULT);
    assert_string_equal(l->launches[1].name, "triton_poi_fused_0");
    assert_true(l->launches[1].weight == 5.0);
    assert_false(l->matched[0] || l->matched[1]);
    occ_profile_launches_free(set);
    /* a file that is neither a table nor a profile: the profile reader's refusal */
    path = write_text("neither.csv", "name,block\nk,64\n");
    occ_profile_error err;
    assert_int_equal(occ_profile_launches_read(path, &set, &err), OCC_ERR_BAD_FORMAT);
    assert_null(set);
    assert_int_equal(strncmp(err.message, path, strlen(path)), 0);
}

/* ------------------------------------------------------------------------ */
/* launches-pipe                                                            */
/* ------------------------------------------------------------------------ */

/* A pipe holding text, by path: "/dev/fd/N" (as the shell's <(...) gives,
   and /dev/stdin is for a pipe on stdin). *fd is its read end, to close. */
static const char *pipe_path(const char *text, int *fd)
{
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    /* small enough for the pipe's buffer: written before anything reads */
    assert_int_equal(write(fds[1], text, strlen(text)), (ssize_t)strlen(text));
    close(fds[1]);
    *fd = fds[0];
    static char path[32];
    snprintf(path, sizeof path, "/dev/fd/%d", fds[0]);
    return path;
}

static void pipe_test(void **state)
{
    (void)state;
    int fd;
    const char *path = pipe_path(good_table, &fd);
    occ_profile_launches *set = read_ok(path);
    check_good_table(occ_profile_launches_list(set), path);
    occ_profile_launches_free(set);
    close(fd);
    /* a profile cannot be looked at and then read again from a pipe: said so,
       not read from what the look left ("not a PyTorch profiler trace") */
    path = pipe_path(kineto_trace, &fd);
    occ_profile_error err;
    assert_int_equal(occ_profile_launches_read(path, &set, &err), OCC_ERR_IO);
    assert_null(set);
    char want[600];
    snprintf(want, sizeof want,
             "%s: not a launch table (its first line does not start with the column kernel), "
             "and a profile is read from a file, not a pipe: write it to a file and give that",
             path);
    assert_string_equal(err.message, want);
    close(fd);
    /* the same profile from a file, by a /dev/fd path too, reads */
    const char *file = write_text("trace.json", kineto_trace);
    fd = open(file, O_RDONLY);
    assert_true(fd >= 0);
    char by_fd[32];
    snprintf(by_fd, sizeof by_fd, "/dev/fd/%d", fd);
    set = read_ok(by_fd);
    assert_string_equal(occ_profile_launches_list(set)->kind, "profile");
    assert_int_equal(occ_profile_launches_list(set)->count, 2);
    occ_profile_launches_free(set);
    close(fd);
}

/* ------------------------------------------------------------------------ */
/* launches-apply                                                           */
/* ------------------------------------------------------------------------ */

static const char one_kernel_log[] =
    "ptxas info    : Compiling entry function '_Z5scalePfi' for 'sm_90'\n"
    "ptxas info    : Function properties for _Z5scalePfi\n"
    "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
    "ptxas info    : Used 16 registers, used 0 barriers, 368 bytes cmem[0]\n";

static void apply_test(void **state)
{
    (void)state;
    occ_inspect_input in = {"k.log", one_kernel_log, sizeof one_kernel_log - 1};
    occ_inspect_options opts;
    occ_inspect_options_init(&opts);
    occ_inspect_result *r;
    occ_inspect_error ierr;
    assert_int_equal(occ_inspect_read(&in, 1, &opts, &r, &ierr), OCC_OK);
    const char *path = write_text("apply.csv", "kernel,block,dyn_smem,weight\n"
                                               "\"scale(float*, int)\",16x16,8K,3\n"
                                               "*scale*,128,0,1\n"
                                               "not_here,64,0,4\n");
    occ_profile_launches *set = read_ok(path);
    occ_inspect_launch_list *l = occ_profile_launches_list(set);
    assert_int_equal(
        occ_inspect_apply_launches(r, &opts, l->launches, l->count, l->matched, &l->match, &ierr),
        OCC_OK);
    assert_true(l->matched[0]);
    assert_true(l->matched[1]);
    assert_false(l->matched[2]);
    assert_int_equal(l->match.launches, 3);
    assert_int_equal(l->match.matched, 2);
    assert_true(l->match.weight == 8.0);
    assert_true(l->match.matched_weight == 4.0);
    /* a row per launch of the kernel, at its block and shared memory */
    assert_int_equal(occ_inspect_kernel_count(r), 2);
    bool seen_16x16 = false;
    for (size_t i = 0; i < occ_inspect_kernel_count(r); i++) {
        const occ_inspect_kernel *k = occ_inspect_kernel_at(r, i);
        assert_int_equal(k->launch_source, OCC_INSPECT_LAUNCH_TABLE);
        if (k->launch_block[1] == 16) {
            seen_16x16 = true;
            assert_int_equal(k->launch_dyn_smem_bytes, 8192);
        }
    }
    assert_true(seen_16x16);
    occ_profile_launches_free(set);
    occ_inspect_result_free(r);
}

/* ------------------------------------------------------------------------ */
/* launches-names                                                           */
/* ------------------------------------------------------------------------ */

/* Two overloads: scale(float*, int) and scale(float const*, int). */
static const char two_kernel_log[] =
    "ptxas info    : Compiling entry function '_Z5scalePfi' for 'sm_90'\n"
    "ptxas info    : Function properties for _Z5scalePfi\n"
    "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
    "ptxas info    : Used 16 registers, used 0 barriers, 368 bytes cmem[0]\n"
    "ptxas info    : Compiling entry function '_Z5scalePKfi' for 'sm_90'\n"
    "ptxas info    : Function properties for _Z5scalePKfi\n"
    "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
    "ptxas info    : Used 24 registers, used 0 barriers, 368 bytes cmem[0]\n";

enum { HIT_SCALE = 1, HIT_SCALE_CONST = 2 }; /* which kernels a launch matched */

static const struct {
    const char *id;
    const char *cell; /* the kernel column, as CSV */
    unsigned want;
} name_cases[] = {
    /* a name that names a kernel matches it alone, its '*' no glob */
    {"name-star", "\"scale(float*, int)\"", HIT_SCALE},
    {"name-star-unspaced", "\"scale(float*,int)\"", HIT_SCALE},
    {"name-star-respaced", "\"scale(float const *, int)\"", HIT_SCALE_CONST},
    {"name-mangled", "_Z5scalePfi", HIT_SCALE},
    {"name-mangled-const", "_Z5scalePKfi", HIT_SCALE_CONST},
    /* a name that names none is a glob where it has glob characters */
    {"glob-both", "*scale*", HIT_SCALE | HIT_SCALE_CONST},
    {"glob-overloads", "scale(*)", HIT_SCALE | HIT_SCALE_CONST},
    {"glob-spaced", "\"scale(float const*,*\"", HIT_SCALE_CONST},
    {"glob-mangled", "_Z5scaleP?fi", HIT_SCALE_CONST},
    {"glob-none", "\"scale(double*, int)\"", 0},
    {"name-none", "scale", 0},
};

static void names_test(void **state)
{
    (void)state;
    occ_inspect_input in = {"k.log", two_kernel_log, sizeof two_kernel_log - 1};
    occ_inspect_options opts;
    occ_inspect_options_init(&opts);
    occ_inspect_error ierr;
    size_t n = sizeof name_cases / sizeof name_cases[0];
    char text[2048] = "kernel,block,dyn_smem\n";
    for (size_t i = 0; i < n; i++) {
        size_t len = strlen(text);
        snprintf(text + len, sizeof text - len, "%s,64,0\n", name_cases[i].cell);
    }
    const char *path = write_text("names.csv", text);
    occ_profile_launches *set = read_ok(path);
    occ_inspect_launch_list *l = occ_profile_launches_list(set);
    assert_int_equal(l->count, n);
    occ_inspect_result *r;
    assert_int_equal(occ_inspect_read(&in, 1, &opts, &r, &ierr), OCC_OK);
    assert_int_equal(
        occ_inspect_apply_launches(r, &opts, l->launches, l->count, l->matched, &l->match, &ierr),
        OCC_OK);
    unsigned got[sizeof name_cases / sizeof name_cases[0]] = {0};
    for (size_t i = 0; i < occ_inspect_kernel_count(r); i++) {
        const occ_inspect_kernel *k = occ_inspect_kernel_at(r, i);
        if (k->launch_source == OCC_INSPECT_LAUNCH_TABLE) {
            assert_true(k->launch_index >= 0 && (size_t)k->launch_index < n);
            got[k->launch_index] |=
                strcmp(k->mangled, "_Z5scalePfi") == 0 ? HIT_SCALE : HIT_SCALE_CONST;
        }
    }
    for (size_t i = 0; i < n; i++) {
        if (got[i] != name_cases[i].want || l->matched[i] != (name_cases[i].want != 0)) {
            fail_msg("%s: %s matched %u (matched %d), want %u", name_cases[i].id,
                     name_cases[i].cell, got[i], l->matched[i], name_cases[i].want);
        }
    }
    occ_profile_launches_free(set);
    occ_inspect_result_free(r);
}

/* ------------------------------------------------------------------------ */
/* launches-limits                                                          */
/* ------------------------------------------------------------------------ */

static void limits_test(void **state)
{
    (void)state;
    /* one row more than the limit: OCC_ERR_LIMIT at its line */
    static const char head[] = "kernel,block,dyn_smem\n";
    static const char row[] = "k,1,0\n";
    size_t rows = OCC_PROFILE_LAUNCH_TABLE_MAX_ROWS + 1;
    size_t size = sizeof head - 1 + rows * (sizeof row - 1);
    char *text = malloc(size + 1);
    assert_non_null(text);
    memcpy(text, head, sizeof head - 1);
    for (size_t i = 0; i < rows; i++) {
        memcpy(text + sizeof head - 1 + i * (sizeof row - 1), row, sizeof row - 1);
    }
    const char *path = write_file("many.csv", text, size);
    occ_profile_launches *set;
    occ_profile_error err;
    assert_int_equal(occ_profile_launches_read(path, &set, &err), OCC_ERR_LIMIT);
    char want[600];
    snprintf(want, sizeof want, "%s: line %zu: row: more than %d rows", path, rows + 1,
             OCC_PROFILE_LAUNCH_TABLE_MAX_ROWS);
    assert_string_equal(err.message, want);
    assert_null(set);
    /* exactly the limit reads */
    size -= sizeof row - 1;
    path = write_file("many.csv", text, size);
    set = read_ok(path);
    assert_int_equal(occ_profile_launches_list(set)->count, OCC_PROFILE_LAUNCH_TABLE_MAX_ROWS);
    occ_profile_launches_free(set);
    free(text);
    unlink(path);
    /* a record over the record limit */
    char long_row[OCC_PROFILE_LAUNCH_TABLE_MAX_RECORD_BYTES + 64];
    snprintf(long_row, sizeof long_row, "kernel,block,dyn_smem\n%0*d,64,0\n",
             OCC_PROFILE_LAUNCH_TABLE_MAX_RECORD_BYTES, 7);
    path = write_text("long.csv", long_row);
    assert_int_equal(occ_profile_launches_read(path, &set, &err), OCC_ERR_BAD_FORMAT);
    assert_non_null(strstr(err.message, "line 2: row: not a CSV record (too long"));
    /* a missing file: the profile reader's OCC_ERR_IO, naming it */
    assert_int_equal(occ_profile_launches_read("/nonexistent/t.csv", &set, &err), OCC_ERR_IO);
    assert_null(set);
    assert_int_equal(strncmp(err.message, "/nonexistent/t.csv: ", 20), 0);
    /* NULL arguments */
    assert_int_equal(occ_profile_launches_read(NULL, &set, &err), OCC_ERR_NULL_POINTER);
    assert_int_equal(occ_profile_launches_read(path, NULL, &err), OCC_ERR_NULL_POINTER);
    assert_int_equal(occ_profile_launches_read_stream(NULL, "x", &set, &err), OCC_ERR_NULL_POINTER);
    assert_null(occ_profile_launches_list(NULL));
    occ_profile_launches_free(NULL);
}

static int setup(void **state)
{
    (void)state;
    return mkdtemp(tmpdir) == NULL ? -1 : 0;
}

static int teardown(void **state)
{
    (void)state;
    static const char *const names[] = {"good.csv",  "good.csv.gz", "order.csv",  "empty.csv",
                                        "bad.csv",   "nul.csv",     "trace.json", "neither.csv",
                                        "apply.csv", "many.csv",    "long.csv",   "grid.csv",
                                        "names.csv"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        unlink(temp_path(names[i]));
    }
    return rmdir(tmpdir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(table_test),    cmocka_unit_test(grid_test),
        cmocka_unit_test(bad_cell_test), cmocka_unit_test(stream_test),
        cmocka_unit_test(pipe_test),     cmocka_unit_test(profile_test),
        cmocka_unit_test(apply_test),    cmocka_unit_test(names_test),
        cmocka_unit_test(limits_test),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
