/*
 * test_cli.c - the occ command line, run in-process through cli_main() with temporary
 * files for stdin, stdout and stderr: exit codes, the one-line error contract, and every
 * number the CLI prints checked against libocc's own occ_calc() for the same inputs.
 *
 * Table-driven families carry stable ids ("usage-4"); each case is its own cmocka test.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>
#include <zlib.h>

#include "cli.h"
#include "cli_harness.h"

/* ------------------------------------------------------------------------ */
/* Running occ                                                              */
/* ------------------------------------------------------------------------ */

static char temp_dir[64];     /* per-process directory for input files */
static char written[16][128]; /* files made there, removed by teardown_dir */
static int written_count;

/* Writes `content` to temp_dir/name; the path goes into path. */
static const char *write_file(const char *name, const char *content, char *path, size_t cap)
{
    snprintf(path, cap, "%s/%s", temp_dir, name);
    bool known = false;
    for (int i = 0; i < written_count; i++) {
        known |= strcmp(written[i], path) == 0;
    }
    if (!known) {
        assert_true(written_count < 16);
        snprintf(written[written_count++], sizeof written[0], "%s", path);
    }
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(content, f);
    assert_int_equal(fclose(f), 0);
    return path;
}

static int setup_dir(void **state)
{
    (void)state;
    snprintf(temp_dir, sizeof temp_dir, "/tmp/occ-test-cli-XXXXXX");
    return mkdtemp(temp_dir) != NULL ? 0 : -1;
}

static int teardown_dir(void **state)
{
    (void)state;
    for (int i = 0; i < written_count; i++) {
        unlink(written[i]);
    }
    written_count = 0;
    return rmdir(temp_dir);
}

/* ------------------------------------------------------------------------ */
/* The oracle: libocc itself                                                */
/* ------------------------------------------------------------------------ */

/* One launch, as flags and as the kernel libocc computes. */
typedef struct launch {
    const char *gpu;
    int x, y, z;
    int regs;
    int smem;     /* static, bytes */
    int dyn_smem; /* bytes */
    int carveout; /* OCC_CARVEOUT_DEFAULT or percent */
} launch;

static occ_result lib_calc(const launch *l)
{
    occ_device d;
    occ_kernel k;
    occ_result r;
    assert_int_equal(occ_gpu_find(l->gpu, &d, NULL), OCC_OK);
    occ_kernel_init(&k);
    k.block_x = l->x;
    k.block_y = l->y;
    k.block_z = l->z;
    k.regs_per_thread = l->regs;
    k.static_smem_bytes = l->smem;
    k.dyn_smem_bytes = l->dyn_smem;
    k.carveout_percent = l->carveout;
    assert_int_equal(occ_calc(&d, &k, &r, NULL), OCC_OK);
    return r;
}

/* Runs `occ calc` for a launch, with `extra` (NULL or "--json") appended. */
static int run_launch(const launch *l, const char *extra)
{
    char threads[48], regs[16], smem[16], dyn[16], carveout[16];
    snprintf(threads, sizeof threads, "%dx%dx%d", l->x, l->y, l->z);
    snprintf(regs, sizeof regs, "%d", l->regs);
    snprintf(smem, sizeof smem, "%d", l->smem);
    snprintf(dyn, sizeof dyn, "%d", l->dyn_smem);
    snprintf(carveout, sizeof carveout, "%d", l->carveout);
    const char *args[] = {"calc",   "--gpu",      l->gpu,   "--threads", threads,
                          "--regs", regs,         "--smem", smem,        "--dyn-smem",
                          dyn,      "--carveout", carveout, extra,       NULL};
    return run_cli(NULL, args);
}

/* Occupancy as the text output prints it: one decimal, ".0" dropped. */
static void percent_text(double fraction, char *buf, size_t cap)
{
    snprintf(buf, cap, "%.1f", fraction * 100.0);
    size_t len = strlen(buf);
    if (len > 2 && strcmp(buf + len - 2, ".0") == 0) {
        buf[len - 2] = '\0';
    }
    strncat(buf, "%", cap - strlen(buf) - 1);
}

/* The limiter words of the JSON and CSV outputs, each with its bit. */
static const struct {
    const char *name;
    unsigned bit;
} limiter_names[] = {
    {"warps", OCC_LIMITER_WARPS},         {"blocks", OCC_LIMITER_BLOCKS},
    {"registers", OCC_LIMITER_REGISTERS}, {"shared_mem", OCC_LIMITER_SHARED_MEM},
    {"barriers", OCC_LIMITER_BARRIERS},
};

static unsigned limiter_bit(const char *name)
{
    for (size_t i = 0; i < sizeof limiter_names / sizeof limiter_names[0]; i++) {
        if (strcmp(name, limiter_names[i].name) == 0) {
            return limiter_names[i].bit;
        }
    }
    fail_msg("unknown limiter name '%s'", name);
    return 0;
}

/* "registers+shared_mem" -> bits; "" -> 0. */
static unsigned limiter_bits_of_list(const char *list)
{
    unsigned bits = 0;
    char buf[128];
    snprintf(buf, sizeof buf, "%s", list);
    char *save = NULL;
    for (char *name = strtok_r(buf, "+", &save); name != NULL; name = strtok_r(NULL, "+", &save)) {
        unsigned bit = limiter_bit(name);
        assert_int_equal(bits & bit, 0); /* each limiter once */
        bits |= bit;
    }
    return bits;
}

/* ------------------------------------------------------------------------ */
/* Top level                                                                */
/* ------------------------------------------------------------------------ */

static void top_help_test(void **state)
{
    (void)state;
    assert_int_equal(OCC(NULL, "--help"), EXIT_OK);
    assert_non_null(strstr(last.out, "usage: occ <command> [options]"));
    assert_non_null(strstr(last.out, "\n  calc "));
    assert_non_null(strstr(last.out, "\n  gpus "));
    assert_string_equal(last.err, "");
}

static void top_version_test(void **state)
{
    (void)state;
    assert_int_equal(OCC(NULL, "--version"), EXIT_OK);
    assert_string_equal(last.out, "occ " OCC_VERSION_STRING "\n");
    assert_string_equal(last.err, "");
}

static void no_command_test(void **state)
{
    (void)state;
    const char *const args[] = {NULL};
    assert_int_equal(run_cli(NULL, args), EXIT_USAGE);
    assert_string_equal(last.out, "");
    assert_non_null(strstr(last.err, "usage: occ <command>"));
}

static void unknown_command_test(void **state)
{
    (void)state;
    assert_int_equal(OCC(NULL, "frobnicate", "--gpu", "H200"), EXIT_USAGE);
    assert_string_equal(last.out, "");
    assert_int_equal(line_count(last.err), 2);
    assert_non_null(strstr(last.err, "occ: 'frobnicate' is not a command"));
    assert_non_null(strstr(last.err, "occ: try 'occ --help'\n"));
}

/* Every command `occ --help` lists answers --help with its usage on stdout and exit 0. */
static void every_command_help_test(void **state)
{
    (void)state;
    assert_int_equal(OCC(NULL, "--help"), EXIT_OK);
    char *top = strdup(last.out);
    const char *list = strstr(top, "commands:\n");
    assert_non_null(list);
    list += strlen("commands:\n");
    int commands = 0;
    char line[256];
    for (int i = 0; line_at(list, i, line, sizeof line)[0] == ' '; i++) {
        char name[32];
        assert_int_equal(sscanf(line, " %31s", name), 1);
        assert_int_equal(OCC(NULL, name, "--help"), EXIT_OK);
        char usage[64];
        snprintf(usage, sizeof usage, "\nusage: occ %s", name);
        assert_non_null(strstr(last.out, usage));
        snprintf(usage, sizeof usage, "occ %s - ", name);
        assert_true(starts_with(last.out, usage));
        /* `occ help NAME` prints the same help */
        char *own = strdup(last.out);
        assert_int_equal(OCC(NULL, "help", name), EXIT_OK);
        assert_string_equal(last.out, own);
        free(own);
        assert_non_null(strstr(last.out, "\noptions:\n"));
        assert_non_null(strstr(last.out, "--help"));
        assert_string_equal(last.err, "");
        commands++;
    }
    assert_true(commands >= 2); /* calc and gpus at least */
    free(top);
}

static void calc_help_test(void **state)
{
    (void)state;
    assert_int_equal(OCC(NULL, "calc", "--help"), EXIT_OK);
    assert_non_null(strstr(last.out, "usage:"));
    /* Every option the parser knows is documented. */
    static const char *const options[] = {
        "--gpu ",           "--gpu-file", "--threads",     "--regs",     "--smem",
        "--dyn-smem",       "--carveout", "--max-threads", "--barriers", "--optin",
        "--partitioned-gc", "--json",     "--batch"};
    for (size_t i = 0; i < sizeof options / sizeof options[0]; i++) {
        assert_non_null(strstr(last.out, options[i]));
    }
    assert_string_equal(last.err, "");
    /* --help wins over missing required options. */
    assert_int_equal(OCC(NULL, "calc", "--threads", "256", "--help"), EXIT_OK);
}

/* ------------------------------------------------------------------------ */
/* calc: text output                                                        */
/* ------------------------------------------------------------------------ */

typedef struct text_case {
    launch l;
    const char *percent; /* hand-checked occupancy, or NULL to take libocc's */
} text_case;

/* The number in a "Block Limit X    N" row, or -1 for "-". */
static int table_value(const char *text, const char *row, bool *limiter)
{
    const char *p = strstr(text, row);
    assert_non_null(p);
    p += strlen(row);
    char value[32];
    assert_int_equal(sscanf(p, " %31s", value), 1);
    const char *end = strchr(p, '\n');
    assert_non_null(end);
    *limiter = false;
    const char *mark = strstr(p, "<- limiter");
    *limiter = mark != NULL && mark < end;
    return strcmp(value, "-") == 0 ? -1 : atoi(value);
}

/* The launch as Nsight shows it: occ_calc at the configuration the driver
   picks at launch (occ_launch_smem_config), where one is predicted. */
static occ_result nsight_calc(const launch *l, const occ_result *api)
{
    occ_device d;
    occ_kernel k;
    assert_int_equal(occ_gpu_find(l->gpu, &d, NULL), OCC_OK);
    occ_kernel_init(&k);
    k.block_x = l->x;
    k.block_y = l->y;
    k.block_z = l->z;
    k.regs_per_thread = l->regs;
    k.static_smem_bytes = l->smem;
    k.dyn_smem_bytes = l->dyn_smem;
    k.carveout_percent = l->carveout;
    occ_smem_config_result c;
    if (d.carveout_step_count == 0 ||
        occ_launch_smem_config(&d, &k, OCC_CACHE_PREFER_NONE, &c, NULL) != OCC_OK) {
        return *api;
    }
    k.smem_config_bytes = c.config_bytes;
    occ_result r;
    assert_int_equal(occ_calc(&d, &k, &r, NULL), OCC_OK);
    return r;
}

static void text_test(void **state)
{
    const text_case *c = *state;
    occ_result api = lib_calc(&c->l);
    occ_result r = nsight_calc(&c->l, &api);
    occ_device d;
    assert_int_equal(occ_gpu_find(c->l.gpu, &d, NULL), OCC_OK);
    assert_int_equal(run_launch(&c->l, NULL), EXIT_OK);
    assert_string_equal(last.err, "");

    static const struct {
        const char *row;
        occ_limiter which;
    } rows[] = {
        {"Block Limit Registers", OCC_LIMITER_REGISTERS},
        {"Block Limit Shared Mem", OCC_LIMITER_SHARED_MEM},
        {"Block Limit Warps", OCC_LIMITER_WARPS},
        {"Block Limit SM", OCC_LIMITER_BLOCKS},
        {"Block Limit Barriers", OCC_LIMITER_BARRIERS},
    };
    /* the marks say what binds the answer the words work through: the
       API's, unless the configuration at launch changes the blocks */
    unsigned limiters = r.blocks_per_sm == api.blocks_per_sm ? api.limiters : r.limiters;
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        const occ_result *of[2] = {&r, &api};
        int value[2];
        for (int j = 0; j < 2; j++) {
            value[j] = rows[i].which == OCC_LIMITER_REGISTERS    ? of[j]->limit_registers
                       : rows[i].which == OCC_LIMITER_SHARED_MEM ? of[j]->limit_shared_mem
                       : rows[i].which == OCC_LIMITER_WARPS      ? of[j]->limit_warps
                       : rows[i].which == OCC_LIMITER_BLOCKS     ? of[j]->limit_blocks
                                                                 : of[j]->limit_barriers;
        }
        int expect = value[0];
        /* Nsight caps Block Limit Barriers at the block slots (docs/ncu.md) */
        if (rows[i].which == OCC_LIMITER_BARRIERS && d.barriers_per_block_slot > 0 &&
            expect > d.max_blocks_per_sm) {
            expect = d.max_blocks_per_sm;
        }
        bool marked;
        int shown = table_value(last.out, rows[i].row, &marked);
        assert_int_equal(shown, expect == OCC_UNLIMITED ? -1 : expect);
        assert_int_equal(marked, (limiters & (unsigned)rows[i].which) != 0);
        /* the occupancy API's figure beside the row exactly where it differs */
        const char *row = strstr(last.out, rows[i].row);
        const char *end = strchr(row, '\n');
        const char *beside = strstr(row, "(occupancy API: ");
        if (value[1] == expect) {
            assert_true(beside == NULL || beside > end);
        } else {
            assert_true(beside != NULL && beside < end);
            char api_text[48];
            if (value[1] == OCC_UNLIMITED) {
                snprintf(api_text, sizeof api_text, "(occupancy API: -)\n");
            } else {
                snprintf(api_text, sizeof api_text, "(occupancy API: %d)\n", value[1]);
            }
            assert_int_equal(strncmp(beside, api_text, strlen(api_text)), 0);
        }
    }
    char active[64];
    snprintf(active, sizeof active, "%d of %d", r.warps_per_sm, r.max_warps_per_sm);
    const char *row = strstr(last.out, "Theoretical Active Warps per SM");
    assert_non_null(row);
    assert_non_null(strstr(row, active));

    char percent[32];
    percent_text(r.occupancy, percent, sizeof percent);
    if (c->percent != NULL) {
        assert_string_equal(percent, c->percent); /* the oracle agrees with the hand check */
    }
    row = strstr(last.out, "Theoretical Occupancy");
    assert_non_null(row);
    char shown[32];
    assert_int_equal(sscanf(row + strlen("Theoretical Occupancy"), " %31s", shown), 1);
    assert_string_equal(shown, percent);

    if (r.blocks_per_sm == 0) {
        assert_non_null(strstr(last.out, occ_zero_reason_text(r.zero_reason)));
    }
}

#define TEXT_CASE(id, gpu, x, y, z, regs, smem, dyn, carveout, percent)                            \
    {                                                                                              \
        id, text_test, NULL, NULL, &(text_case)                                                    \
        {                                                                                          \
            {gpu, x, y, z, regs, smem, dyn, carveout}, percent                                     \
        }                                                                                          \
    }

static const struct CMUnitTest text_tests[] = {
    /* 64 regs x 256 threads: 4 blocks x 8 warps = 32 of 64 warps. */
    TEXT_CASE("text-1", "H200", 256, 1, 1, 64, 0, 0, OCC_CARVEOUT_DEFAULT, "50%"),
    TEXT_CASE("text-2", "H200", 16, 16, 1, 32, 16384, 0, 50, NULL),
    TEXT_CASE("text-3", "sm_80", 128, 1, 1, 0, 0, 0, OCC_CARVEOUT_DEFAULT, NULL),
    /* 255 regs x 1024 threads needs 262,144 registers: zero blocks. */
    TEXT_CASE("text-4", "H200", 1024, 1, 1, 255, 0, 0, OCC_CARVEOUT_DEFAULT, "0%"),
    TEXT_CASE("text-5", "sm_75", 96, 1, 1, 40, 0, 20000, OCC_CARVEOUT_DEFAULT, NULL),
    TEXT_CASE("text-6", "sm_90", 8, 8, 4, 128, 1024, 4096, 0, NULL),
    TEXT_CASE("text-7", "sm_61", 192, 1, 1, 24, 8192, 0, OCC_CARVEOUT_DEFAULT, NULL),
};

/* ------------------------------------------------------------------------ */
/* calc --json                                                              */
/* ------------------------------------------------------------------------ */

static json_t *parse_json_output(void)
{
    json_error_t jerr;
    json_t *doc = json_loads(last.out, 0, &jerr);
    if (doc == NULL) {
        fail_msg("stdout is not JSON: line %d: %s", jerr.line, jerr.text);
    }
    return doc;
}

static json_int_t get_int(json_t *object, const char *key)
{
    json_t *v = json_object_get(object, key);
    if (!json_is_integer(v)) {
        fail_msg("'%s' is not an integer", key);
    }
    return json_integer_value(v);
}

/* An OCC_UNLIMITED limit is null; any other is its number. */
static void assert_limit(json_t *limits, const char *key, int expect)
{
    json_t *v = json_object_get(limits, key);
    assert_non_null(v);
    if (expect == OCC_UNLIMITED) {
        assert_true(json_is_null(v));
    } else {
        assert_true(json_is_integer(v));
        assert_int_equal(json_integer_value(v), expect);
    }
}

static void json_test(void **state)
{
    const launch *l = *state;
    occ_result r = lib_calc(l);
    assert_int_equal(run_launch(l, "--json"), EXIT_OK);
    assert_string_equal(last.err, "");
    json_t *doc = parse_json_output();

    assert_string_equal(json_string_value(json_object_get(doc, "schema")), "occ.calc");
    assert_int_equal(get_int(doc, "version"), 1);
    assert_string_equal(json_string_value(json_object_get(doc, "occ_version")), occ_version());

    occ_device d;
    assert_int_equal(occ_gpu_find(l->gpu, &d, NULL), OCC_OK);
    json_t *gpu = json_object_get(doc, "gpu");
    assert_string_equal(json_string_value(json_object_get(gpu, "name")), d.name);
    assert_int_equal(get_int(gpu, "max_warps_per_sm"), occ_device_max_warps_per_sm(&d));

    json_t *kernel = json_object_get(doc, "kernel");
    json_t *block = json_object_get(kernel, "block");
    assert_int_equal(json_array_size(block), 3);
    assert_int_equal(json_integer_value(json_array_get(block, 0)), l->x);
    assert_int_equal(json_integer_value(json_array_get(block, 1)), l->y);
    assert_int_equal(json_integer_value(json_array_get(block, 2)), l->z);
    assert_int_equal(get_int(kernel, "regs_per_thread"), l->regs);
    assert_int_equal(get_int(kernel, "static_smem_bytes"), l->smem);
    assert_int_equal(get_int(kernel, "dyn_smem_bytes"), l->dyn_smem);
    assert_int_equal(get_int(kernel, "carveout_percent"), l->carveout);

    json_t *result = json_object_get(doc, "result");
    assert_non_null(result);
    assert_int_equal(get_int(result, "blocks_per_sm"), r.blocks_per_sm);
    assert_int_equal(get_int(result, "warps_per_sm"), r.warps_per_sm);
    assert_int_equal(get_int(result, "threads_per_sm"), r.threads_per_sm);
    assert_int_equal(get_int(result, "max_warps_per_sm"), r.max_warps_per_sm);
    assert_int_equal(get_int(result, "warps_per_block"), r.warps_per_block);
    json_t *occupancy = json_object_get(result, "occupancy");
    assert_true(json_is_number(occupancy));
    assert_true(fabs(json_number_value(occupancy) - r.occupancy) < 1e-12);

    json_t *limits = json_object_get(result, "limits");
    assert_limit(limits, "warps", r.limit_warps);
    assert_limit(limits, "blocks", r.limit_blocks);
    assert_limit(limits, "registers", r.limit_registers);
    assert_limit(limits, "shared_mem", r.limit_shared_mem);
    assert_limit(limits, "barriers", r.limit_barriers);

    json_t *limiters = json_object_get(result, "limiters");
    assert_true(json_is_array(limiters));
    unsigned bits = 0;
    for (size_t i = 0; i < json_array_size(limiters); i++) {
        unsigned bit = limiter_bit(json_string_value(json_array_get(limiters, i)));
        assert_int_equal(bits & bit, 0);
        bits |= bit;
    }
    assert_int_equal(bits, r.limiters);

    json_t *zero = json_object_get(result, "zero_reason");
    if (r.zero_reason == OCC_ZERO_NONE) {
        assert_true(json_is_null(zero));
    } else {
        assert_string_equal(json_string_value(zero), occ_zero_reason_text(r.zero_reason));
    }
    json_t *allocation = json_object_get(result, "allocation");
    assert_int_equal(get_int(allocation, "regs_per_block"), r.regs_per_block_allocated);
    assert_int_equal(get_int(allocation, "smem_per_sm_bytes"), r.smem_per_sm_bytes);
    json_decref(doc);
}

#define JSON_CASE(id, gpu, x, y, z, regs, smem, dyn, carveout)                                     \
    {                                                                                              \
        id, json_test, NULL, NULL, &(launch)                                                       \
        {                                                                                          \
            gpu, x, y, z, regs, smem, dyn, carveout                                                \
        }                                                                                          \
    }

static const struct CMUnitTest json_tests[] = {
    JSON_CASE("json-1", "H200", 256, 1, 1, 64, 0, 0, OCC_CARVEOUT_DEFAULT),
    JSON_CASE("json-2", "H200", 16, 16, 1, 32, 16384, 0, 50),
    JSON_CASE("json-3", "sm_80", 128, 1, 1, 0, 0, 0, OCC_CARVEOUT_DEFAULT),
    JSON_CASE("json-4", "H200", 1024, 1, 1, 255, 0, 0, OCC_CARVEOUT_DEFAULT),
    JSON_CASE("json-5", "sm_75", 96, 1, 1, 40, 0, 20000, OCC_CARVEOUT_DEFAULT),
    JSON_CASE("json-6", "sm_52", 64, 2, 1, 72, 2048, 0, OCC_CARVEOUT_DEFAULT),
};

/* Registers unused: the registers limit is unlimited, so null (the case above must reach it). */
static void json_null_limit_test(void **state)
{
    (void)state;
    const launch l = {"sm_80", 128, 1, 1, 0, 0, 0, OCC_CARVEOUT_DEFAULT};
    assert_int_equal(lib_calc(&l).limit_registers, OCC_UNLIMITED);
    assert_int_equal(run_launch(&l, "--json"), EXIT_OK);
    json_t *doc = parse_json_output();
    json_t *limits = json_object_get(json_object_get(doc, "result"), "limits");
    assert_true(json_is_null(json_object_get(limits, "registers")));
    assert_true(json_is_integer(json_object_get(limits, "warps")));
    json_decref(doc);
}

/* ------------------------------------------------------------------------ */
/* calc: usage errors (exit 2, one line and the hint)                       */
/* ------------------------------------------------------------------------ */

typedef struct usage_case {
    const char *args[12]; /* after "calc"; NULL-terminated */
    const char *fragment; /* the first line contains this */
} usage_case;

static void usage_test(void **state)
{
    const usage_case *c = *state;
    const char *args[16] = {"calc"};
    for (int i = 0; c->args[i] != NULL; i++) {
        args[i + 1] = c->args[i];
    }
    assert_int_equal(run_cli(NULL, args), EXIT_USAGE);
    assert_string_equal(last.out, "");
    assert_int_equal(line_count(last.err), 2);
    char line[512];
    line_at(last.err, 0, line, sizeof line);
    assert_true(starts_with(line, "occ calc: "));
    if (strstr(line, c->fragment) == NULL) {
        fail_msg("'%s' lacks '%s'", line, c->fragment);
    }
    assert_string_equal(line_at(last.err, 1, line, sizeof line), "occ: try 'occ calc --help'");
}

#define USAGE_CASE(id, fragment, ...)                                                              \
    {                                                                                              \
        id, usage_test, NULL, NULL, &(usage_case)                                                  \
        {                                                                                          \
            {__VA_ARGS__, NULL}, fragment                                                          \
        }                                                                                          \
    }

static const struct CMUnitTest usage_tests[] = {
    USAGE_CASE("usage-1", "option --threads: '-1' is below the minimum, 1", "--gpu", "H200",
               "--threads", "-1"),
    USAGE_CASE("usage-2", "option --threads: '0' is below the minimum, 1", "--gpu", "H200",
               "--threads", "0"),
    USAGE_CASE("usage-3", "option --threads: '99999999999' is above the maximum, 1024", "--gpu",
               "H200", "--threads", "99999999999"),
    USAGE_CASE("usage-4", "option --threads: 'abc' is not", "--gpu", "H200", "--threads", "abc"),
    USAGE_CASE("usage-5", "threads 2048 exceed the 1024 per block of", "--gpu", "H200", "--threads",
               "32x64"),
    USAGE_CASE("usage-6", "option --regs: registers per thread: '256' is above the maximum, 255",
               "--gpu", "H200", "--threads", "256", "--regs", "256"),
    USAGE_CASE("usage-7", "closest:", "--gpu", "H20O", "--threads", "256"),
    USAGE_CASE("usage-8", "option --gpu: is required", "--threads", "256"),
    USAGE_CASE("usage-9", "option --threads: is required", "--gpu", "H200"),
    USAGE_CASE("usage-10", "option --bogus: is unknown", "--gpu", "H200", "--threads", "256",
               "--bogus"),
    USAGE_CASE("usage-11", "option --threads: needs a value", "--gpu", "H200", "--threads"),
    USAGE_CASE("usage-12", "give one, not both", "--gpu", "H200", "--gpu-file", "x.json",
               "--threads", "256"),
    USAGE_CASE("usage-13", "option --json: takes no value", "--gpu", "H200", "--threads", "256",
               "--json=1"),
    USAGE_CASE("usage-14", "argument 'H200': is not an option", "H200"),
    USAGE_CASE("usage-15", "option --smem: '1.3K' is not", "--gpu", "H200", "--threads", "256",
               "--smem", "1.3K"),
    USAGE_CASE("usage-16", "option --carveout: '101' is not", "--gpu", "H200", "--threads", "256",
               "--carveout", "101"),
    USAGE_CASE("usage-17", "option --barriers: barriers per block: '17' is above the maximum, 16",
               "--gpu", "H200", "--threads", "256", "--barriers", "17"),
    USAGE_CASE("usage-18", "option --max-threads: threads per block: '0' is below the minimum, 1",
               "--gpu", "H200", "--threads", "256", "--max-threads", "0"),
    USAGE_CASE("usage-19", "option --optin: 'lots' is not max, none or a size", "--gpu", "H200",
               "--threads", "256", "--optin", "lots"),
    USAGE_CASE("usage-20", "option --partitioned-gc: 'yes' is not", "--gpu", "sm_61", "--threads",
               "256", "--partitioned-gc", "yes"),
    USAGE_CASE("usage-21", "option --batch: takes every input from the CSV", "--batch", "x.csv",
               "--gpu", "H200"),
    USAGE_CASE("usage-22", "option --threads: 'x2' is not", "--gpu", "H200", "--threads", "x2"),
    USAGE_CASE("usage-23", "option --regs: registers per thread: '-3' is below the minimum, 0",
               "--gpu", "H200", "--threads", "256", "--regs", "-3"),
    USAGE_CASE("usage-24", "option --gpu: ", "--gpu", "", "--threads", "256"),
    USAGE_CASE("usage-25", "option --threads: '2000000' is above the maximum, 1024", "--gpu",
               "H200", "--threads", "2000000"),
};

/* The unknown-GPU message offers names that really resolve. */
static void unknown_gpu_suggests_test(void **state)
{
    (void)state;
    assert_int_equal(OCC(NULL, "calc", "--gpu", "H20O", "--threads", "256"), EXIT_USAGE);
    const char *closest = strstr(last.err, "closest: ");
    assert_non_null(closest);
    char names[256];
    line_at(closest + strlen("closest: "), 0, names, sizeof names);
    int count = 0;
    /* Split at ", " only: names hold spaces ("H100 SXM"). */
    for (char *name = names; name != NULL; count++) {
        char *next = strstr(name, ", ");
        if (next != NULL) {
            *next = '\0';
            next += 2;
        }
        occ_device d;
        if (occ_gpu_find(name, &d, NULL) != OCC_OK) {
            fail_msg("suggested name '%s' does not resolve", name);
        }
        assert_string_equal(d.name, name); /* suggestions are database names */
        name = next;
    }
    assert_true(count >= 1);
}

/* ------------------------------------------------------------------------ */
/* calc --gpu-file                                                          */
/* ------------------------------------------------------------------------ */

static void gpu_file_base_test(void **state)
{
    (void)state;
    char path[128];
    write_file("mine.json", "{\"name\":\"Mine\",\"base\":\"sm_90\",\"sm_count\":100}", path,
               sizeof path);
    /* What the file describes, built by hand for the oracle. */
    occ_device d;
    assert_int_equal(occ_gpu_find("sm_90", &d, NULL), OCC_OK);
    snprintf(d.name, sizeof d.name, "Mine");
    d.sm_count = 100;
    occ_kernel k;
    occ_kernel_init(&k);
    k.block_x = 256;
    k.regs_per_thread = 64;
    occ_result r;
    assert_int_equal(occ_calc(&d, &k, &r, NULL), OCC_OK);

    assert_int_equal(OCC(NULL, "calc", "--gpu-file", path, "--threads", "256", "--regs", "64"),
                     EXIT_OK);
    assert_true(starts_with(last.out, "Mine (sm_90): 256 threads"));
    assert_string_equal(last.err, "");

    assert_int_equal(
        OCC(NULL, "calc", "--gpu-file", path, "--threads", "256", "--regs", "64", "--json"),
        EXIT_OK);
    json_t *doc = parse_json_output();
    json_t *gpu = json_object_get(doc, "gpu");
    assert_string_equal(json_string_value(json_object_get(gpu, "name")), "Mine");
    assert_int_equal(get_int(gpu, "sm_count"), 100);
    assert_string_equal(json_string_value(json_object_get(gpu, "arch")), "sm_90");
    json_t *result = json_object_get(doc, "result");
    assert_int_equal(get_int(result, "blocks_per_sm"), r.blocks_per_sm);
    assert_int_equal(get_int(result, "warps_per_sm"), r.warps_per_sm);
    json_decref(doc);
}

/* A field in the file overrides the base, and the result follows it. */
static void gpu_file_override_test(void **state)
{
    (void)state;
    char path[128];
    write_file("half.json",
               "{\n  \"name\": \"Half\",\n  \"base\": \"H200\",\n  \"regs_per_sm\": 32768,\n"
               "  \"regs_per_block\": 32768\n}\n",
               path, sizeof path);
    occ_device d;
    assert_int_equal(occ_gpu_find("H200", &d, NULL), OCC_OK);
    snprintf(d.name, sizeof d.name, "Half");
    d.regs_per_sm = 32768;
    d.regs_per_block = 32768;
    occ_kernel k;
    occ_kernel_init(&k);
    k.block_x = 128;
    k.regs_per_thread = 64;
    occ_result r;
    occ_result full;
    assert_int_equal(occ_calc(&d, &k, &r, NULL), OCC_OK);
    occ_device h200;
    assert_int_equal(occ_gpu_find("H200", &h200, NULL), OCC_OK);
    assert_int_equal(occ_calc(&h200, &k, &full, NULL), OCC_OK);
    assert_true(r.limit_registers < full.limit_registers); /* the override matters */

    assert_int_equal(
        OCC(NULL, "calc", "--gpu-file", path, "--threads", "128", "--regs", "64", "--json"),
        EXIT_OK);
    json_t *doc = parse_json_output();
    json_t *result = json_object_get(doc, "result");
    assert_int_equal(get_int(result, "blocks_per_sm"), r.blocks_per_sm);
    assert_limit(json_object_get(result, "limits"), "registers", r.limit_registers);
    assert_int_equal(get_int(json_object_get(doc, "gpu"), "regs_per_sm"), 32768);
    json_decref(doc);
}

/* Without "base", a known cc_major/cc_minor starts from its generic entry. */
static void gpu_file_cc_test(void **state)
{
    (void)state;
    char path[128];
    write_file("cc.json", "{\"name\":\"Amp\",\"cc_major\":8,\"cc_minor\":0}", path, sizeof path);
    const launch l = {"sm_80", 96, 1, 1, 48, 8192, 0, OCC_CARVEOUT_DEFAULT};
    occ_result r = lib_calc(&l);
    assert_int_equal(OCC(NULL, "calc", "--gpu-file", path, "--threads", "96", "--regs", "48",
                         "--smem", "8K", "--json"),
                     EXIT_OK);
    json_t *doc = parse_json_output();
    json_t *result = json_object_get(doc, "result");
    assert_int_equal(get_int(result, "blocks_per_sm"), r.blocks_per_sm);
    assert_limit(json_object_get(result, "limits"), "shared_mem", r.limit_shared_mem);
    json_decref(doc);
}

typedef struct gpu_file_case {
    const char *content;   /* NULL: the file does not exist */
    const char *fragment;  /* the message contains this */
    const char *fragment2; /* and this, where not NULL */
} gpu_file_case;

/* A bad file: exit 1, one line "occ calc: PATH: ..." naming what is wrong, no hint. */
static void gpu_file_error_test(void **state)
{
    const gpu_file_case *c = *state;
    char path[128];
    if (c->content != NULL) {
        write_file("bad.json", c->content, path, sizeof path);
    } else {
        snprintf(path, sizeof path, "%s/does-not-exist.json", temp_dir);
    }
    assert_int_equal(OCC(NULL, "calc", "--gpu-file", path, "--threads", "256"), EXIT_DATA);
    assert_string_equal(last.out, "");
    assert_int_equal(line_count(last.err), 1);
    char prefix[160];
    snprintf(prefix, sizeof prefix, "occ calc: %s: ", path);
    assert_true(starts_with(last.err, prefix));
    if (strstr(last.err, c->fragment) == NULL ||
        (c->fragment2 != NULL && strstr(last.err, c->fragment2) == NULL)) {
        fail_msg("'%s' lacks '%s' / '%s'", last.err, c->fragment,
                 c->fragment2 != NULL ? c->fragment2 : "");
    }
}

#define GPU_FILE_CASE(id, content, fragment, fragment2)                                            \
    {                                                                                              \
        id, gpu_file_error_test, NULL, NULL, &(gpu_file_case)                                      \
        {                                                                                          \
            content, fragment, fragment2                                                           \
        }                                                                                          \
    }

static const struct CMUnitTest gpu_file_tests[] = {
    {"gpu-file-ok-1", gpu_file_base_test, NULL, NULL, NULL},
    {"gpu-file-ok-2", gpu_file_override_test, NULL, NULL, NULL},
    {"gpu-file-ok-3", gpu_file_cc_test, NULL, NULL, NULL},
    GPU_FILE_CASE("gpu-file-1", "{\"name\": \"Mine\",\n \"base\": \"sm_90\",\n \"sm_count\" 100}",
                  "line 3", NULL),
    GPU_FILE_CASE("gpu-file-2", "{\"name\":\"Mine\",\"base\":\"sm_90\",\"bogus\":1}",
                  "field 'bogus': is unknown", NULL),
    GPU_FILE_CASE("gpu-file-3", "{\"name\":\"Mine\",\"base\":\"sm_90\",\"sm_count\":\"many\"}",
                  "field 'sm_count': must be an integer", NULL),
    GPU_FILE_CASE("gpu-file-4", "{\"name\":\"Mine\",\"base\":\"sm_90\",\"regs_per_block\":70000}",
                  "regs_per_block", "70000"),
    GPU_FILE_CASE("gpu-file-5", NULL, "does-not-exist.json", NULL),
    GPU_FILE_CASE("gpu-file-6", "[1, 2, 3]", "must hold one JSON object", NULL),
    GPU_FILE_CASE("gpu-file-7", "{\"base\":\"sm_90\"}", "field 'name': is required", NULL),
    GPU_FILE_CASE("gpu-file-8", "{\"name\":\"Mine\",\"base\":\"Hopper9\"}",
                  "field 'base':", "no name in the database is close"),
    GPU_FILE_CASE("gpu-file-9", "{\"name\":\"Mine\",\"base\":90}", "field 'base':", NULL),
    GPU_FILE_CASE("gpu-file-10", "", "", NULL),
    GPU_FILE_CASE("gpu-file-11",
                  "{\"name\":\"Mine\",\"base\":\"sm_90\",\"sm_count\":1,"
                  "\"sm_count\":2}",
                  "sm_count", NULL),
    GPU_FILE_CASE("gpu-file-12", "{\"name\":\"Mine\",\"cc_major\":99}",
                  "field 'max_threads_per_sm': is required", NULL),
    GPU_FILE_CASE("gpu-file-13", "{\"name\":\"Mine\",\"base\":\"sm_90\",\"partitioned_gc\":1}",
                  "field 'partitioned_gc'", NULL),
    GPU_FILE_CASE("gpu-file-14",
                  "{\"name\":\"Mine\",\"base\":\"sm_90\",\"carveout_steps_bytes\":[0,8192]}",
                  "carveout_steps_bytes", NULL),
    GPU_FILE_CASE("gpu-file-15", "{\"name\":\"Mine\",\"base\":\"sm_90\",\"sm_count\":1e3}",
                  "field 'sm_count': must be an integer", NULL),
    GPU_FILE_CASE("gpu-file-16", "{\"name\":\"Mine\",\"base\":\"sm_90\",\"sm_count\":99999999999}",
                  "field 'sm_count'", NULL),
    GPU_FILE_CASE("gpu-file-17", "{\"name\":\"\",\"base\":\"sm_90\"}", "field 'name'", NULL),
};

/* ------------------------------------------------------------------------ */
/* calc --batch                                                             */
/* ------------------------------------------------------------------------ */

#define CSV_MAX_FIELDS 32
typedef struct csv_row {
    int count;
    char field[CSV_MAX_FIELDS][256];
    bool quoted[CSV_MAX_FIELDS];
} csv_row;

/* Splits one CSV line (RFC 4180 quoting) into row. */
static void csv_split(const char *line, csv_row *row)
{
    memset(row, 0, sizeof *row);
    const char *p = line;
    for (;;) {
        assert_true(row->count < CSV_MAX_FIELDS);
        char *f = row->field[row->count];
        size_t o = 0;
        if (*p == '"') {
            row->quoted[row->count] = true;
            for (p++; !(*p == '"' && p[1] != '"'); p++) {
                assert_true(*p != '\0'); /* an unterminated quote */
                if (*p == '"') {
                    p++; /* "" is one quote */
                }
                assert_true(o + 1 < sizeof row->field[0]);
                f[o++] = *p;
            }
            p++;
        } else {
            for (; *p != ',' && *p != '\0'; p++) {
                assert_true(o + 1 < sizeof row->field[0]);
                f[o++] = *p;
            }
        }
        f[o] = '\0';
        row->count++;
        if (*p != ',') {
            assert_int_equal(*p, '\0');
            return;
        }
        p++;
    }
}

static const char *const result_columns[] = {
    "blocks_per_sm",    "warps_per_sm",   "occupancy",
    "limit_warps",      "limit_blocks",   "limit_registers",
    "limit_shared_mem", "limit_barriers", "limiter",
    "warning",          "error"};
#define RESULT_COLUMNS 11

/* An int result column: empty for OCC_UNLIMITED. */
static void assert_csv_int(const char *field, int expect)
{
    if (expect == OCC_UNLIMITED) {
        assert_string_equal(field, "");
    } else {
        char text[16];
        snprintf(text, sizeof text, "%d", expect);
        assert_string_equal(field, text);
    }
}

/* A good output row: the input echoed, then libocc's numbers for the kernel. */
static void assert_csv_result(const csv_row *row, int inputs, const char *gpu, const occ_kernel *k)
{
    occ_device d;
    occ_result r;
    assert_int_equal(occ_gpu_find(gpu, &d, NULL), OCC_OK);
    assert_int_equal(occ_calc(&d, k, &r, NULL), OCC_OK);
    assert_int_equal(row->count, inputs + RESULT_COLUMNS);
    assert_csv_int(row->field[inputs + 0], r.blocks_per_sm);
    assert_csv_int(row->field[inputs + 1], r.warps_per_sm);
    assert_true(fabs(strtod(row->field[inputs + 2], NULL) - r.occupancy) < 1e-6);
    assert_csv_int(row->field[inputs + 3], r.limit_warps);
    assert_csv_int(row->field[inputs + 4], r.limit_blocks);
    assert_csv_int(row->field[inputs + 5], r.limit_registers);
    assert_csv_int(row->field[inputs + 6], r.limit_shared_mem);
    assert_csv_int(row->field[inputs + 7], r.limit_barriers);
    assert_int_equal(limiter_bits_of_list(row->field[inputs + 8]), r.limiters);
    if (r.exceeds_launch_bounds) {
        assert_non_null(strstr(row->field[inputs + 9], "__launch_bounds__"));
    } else {
        assert_string_equal(row->field[inputs + 9], "");
    }
    assert_string_equal(row->field[inputs + 10], "");
}

/* A bad output row: empty result columns and a quoted, non-empty error. */
static void assert_csv_error(const csv_row *row, const char *fragment)
{
    assert_true(row->count > RESULT_COLUMNS);
    int error = row->count - 1;
    for (int i = error - (RESULT_COLUMNS - 1); i < error; i++) {
        assert_string_equal(row->field[i], "");
    }
    assert_true(row->quoted[error]);
    if (strstr(row->field[error], fragment) == NULL) {
        fail_msg("error '%s' lacks '%s'", row->field[error], fragment);
    }
}

/* Checks the header: the input columns, then the result columns. */
static void assert_csv_header(const char *input_header)
{
    char line[1024];
    char expect[1024];
    size_t o = (size_t)snprintf(expect, sizeof expect, "%s", input_header);
    for (int i = 0; i < RESULT_COLUMNS; i++) {
        o += (size_t)snprintf(expect + o, sizeof expect - o, ",%s", result_columns[i]);
    }
    assert_string_equal(line_at(last.out, 0, line, sizeof line), expect);
}

static occ_kernel kernel_of(int x, int y, int regs, int smem, int dyn, int carveout)
{
    occ_kernel k;
    occ_kernel_init(&k);
    k.block_x = x;
    k.block_y = y;
    k.regs_per_thread = regs;
    k.static_smem_bytes = smem;
    k.dyn_smem_bytes = dyn;
    k.carveout_percent = carveout;
    return k;
}

#define BATCH_HEADER "gpu,threads,regs,smem,dyn_smem,carveout"
static const char mixed_csv[] = BATCH_HEADER "\n"
                                             "H200,256,64,0,0,default\n"
                                             "NoSuchGPU,256,64,0,0,\n"
                                             "H200,256,lots,0,0,\n"
                                             "H200,256,64\n"
                                             "H200,16x16,32,16K,0,50\n"
                                             "sm_80,128,0,0,40000,-1\n";

static void check_mixed_output(const char *source)
{
    assert_int_equal(last.code, EXIT_DATA);
    assert_int_equal(line_count(last.out), 7); /* header + one row per input row */
    assert_csv_header(BATCH_HEADER);
    char line[1024];
    csv_row row;

    occ_kernel k = kernel_of(256, 1, 64, 0, 0, OCC_CARVEOUT_DEFAULT);
    csv_split(line_at(last.out, 1, line, sizeof line), &row);
    assert_true(starts_with(line, "H200,256,64,0,0,default,"));
    assert_csv_result(&row, 6, "H200", &k);

    csv_split(line_at(last.out, 2, line, sizeof line), &row);
    assert_true(starts_with(line, "NoSuchGPU,256,64,0,0,,"));
    assert_csv_error(&row, "NoSuchGPU");

    csv_split(line_at(last.out, 3, line, sizeof line), &row);
    assert_true(starts_with(line, "H200,256,lots,0,0,,"));
    assert_csv_error(&row, "regs: 'lots' is not a whole number");

    csv_split(line_at(last.out, 4, line, sizeof line), &row);
    assert_true(starts_with(line, "H200,256,64,"));
    assert_csv_error(&row, "3 fields");

    k = kernel_of(16, 16, 32, 16384, 0, 50);
    csv_split(line_at(last.out, 5, line, sizeof line), &row);
    assert_csv_result(&row, 6, "H200", &k);

    k = kernel_of(128, 1, 0, 0, 40000, OCC_CARVEOUT_DEFAULT);
    csv_split(line_at(last.out, 6, line, sizeof line), &row);
    assert_csv_result(&row, 6, "sm_80", &k);

    /* One summary line naming the source, the count and the first bad line. */
    assert_int_equal(line_count(last.err), 1);
    char summary[256];
    snprintf(summary, sizeof summary,
             "occ calc: %s: 3 of 6 rows have errors (first: line 3: ", source);
    assert_true(starts_with(last.err, summary));
}

static void batch_mixed_test(void **state)
{
    (void)state;
    char path[128];
    write_file("mixed.csv", mixed_csv, path, sizeof path);
    OCC(NULL, "calc", "--batch", path);
    check_mixed_output(path);
}

static void batch_stdin_test(void **state)
{
    (void)state;
    char path[128];
    write_file("mixed.csv", mixed_csv, path, sizeof path);
    OCC(NULL, "calc", "--batch", path);
    char *from_file = strdup(last.out);
    OCC(mixed_csv, "calc", "--batch", "-");
    check_mixed_output("<stdin>");
    assert_string_equal(last.out, from_file);
    free(from_file);
}

/* A gzipped batch is inflated as it is read: the same rows out as the plain file, the
   same summary; gzip data cut short stops the run with one line saying so. */
static void batch_gzip_test(void **state)
{
    (void)state;
    char plain_path[128];
    write_file("mixed.csv", mixed_csv, plain_path, sizeof plain_path);
    OCC(NULL, "calc", "--batch", plain_path);
    char *plain_out = strdup(last.out);
    const char *plain_err = strstr(last.err, ": 3 of 6 rows");
    assert_non_null(plain_err);
    char *plain_summary = strdup(plain_err);
    char path[128];
    write_file("mixed.csv.gz", "", path, sizeof path);
    gzFile gz = gzopen(path, "wb");
    assert_non_null(gz);
    assert_int_equal(gzputs(gz, mixed_csv), (int)strlen(mixed_csv));
    assert_int_equal(gzclose(gz), Z_OK);
    OCC(NULL, "calc", "--batch", path);
    check_mixed_output(path);
    assert_string_equal(last.out, plain_out);
    assert_non_null(strstr(last.err, path));
    assert_string_equal(strstr(last.err, ": 3 of 6 rows"), plain_summary);
    /* the same file without its last 12 bytes: part of the trailer */
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    unsigned char bytes[4096];
    size_t n = fread(bytes, 1, sizeof bytes, f);
    fclose(f);
    assert_true(n > 12 && n < sizeof bytes);
    f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(bytes, 1, n - 12, f), n - 12);
    assert_int_equal(fclose(f), 0);
    assert_int_equal(OCC(NULL, "calc", "--batch", path), EXIT_DATA);
    assert_int_equal(line_count(last.err), 1);
    assert_non_null(strstr(last.err, "the gzip data is cut short"));
    free(plain_out);
    free(plain_summary);
}

/* Windows line ends and blank lines change nothing. */
static void batch_crlf_test(void **state)
{
    (void)state;
    OCC(mixed_csv, "calc", "--batch", "-");
    char *plain = strdup(last.out);
    char crlf[sizeof mixed_csv * 3];
    size_t o = 0;
    bool blank_added = false;
    for (const char *p = mixed_csv; *p != '\0'; p++) {
        if (*p == '\n') {
            crlf[o++] = '\r';
            crlf[o++] = '\n';
            if (!blank_added) { /* a blank line after the header */
                crlf[o++] = '\r';
                crlf[o++] = '\n';
                blank_added = true;
            }
        } else {
            crlf[o++] = *p;
        }
    }
    crlf[o] = '\0';
    OCC(crlf, "calc", "--batch", "-");
    assert_int_equal(last.code, EXIT_DATA);
    assert_string_equal(last.out, plain);
    free(plain);
}

/* RFC 4180 quoting: a quoted passed-through column may hold commas and quotes, a
   quoted value is read like a plain one, and an unclosed quote is a row error. */
static void batch_quoted_test(void **state)
{
    (void)state;
    OCC("name," BATCH_HEADER "\n"
        "\"scale, add \"\"v2\"\"\",H200,256,\"64\",0,0,\n"
        "\"unclosed,H200,256,64,0,0,\n",
        "calc", "--batch", "-");
    assert_int_equal(last.code, EXIT_DATA);
    /* three records; the unclosed quote ran to the end of the input, line break
       included, and is echoed quoted, so the last record spans two lines */
    assert_int_equal(line_count(last.out), 4);
    char line[1024];
    csv_row row;
    csv_split(line_at(last.out, 1, line, sizeof line), &row);
    assert_string_equal(row.field[0], "scale, add \"v2\"");
    occ_kernel k = kernel_of(256, 1, 64, 0, 0, OCC_CARVEOUT_DEFAULT);
    assert_csv_result(&row, 7, "H200", &k);
    assert_true(starts_with(line_at(last.out, 2, line, sizeof line), "\"unclosed,H200,"));
    line_at(last.out, 3, line, sizeof line);
    assert_true(starts_with(line, "\","));
    csv_split(line + 1, &row); /* the fields after the echoed one */
    assert_csv_error(&row, "quoted field is not closed");
}

/* A block above the row's max_threads: the driver's numbers, and a warning that the
   launch fails; not an error. */
static void batch_launch_bounds_warning_test(void **state)
{
    (void)state;
    OCC(BATCH_HEADER ",max_threads\nH200,512,32,0,0,,256\n", "calc", "--batch", "-");
    assert_int_equal(last.code, EXIT_OK);
    char line[1024];
    csv_row row;
    csv_split(line_at(last.out, 1, line, sizeof line), &row);
    occ_kernel k = kernel_of(512, 1, 32, 0, 0, OCC_CARVEOUT_DEFAULT);
    k.max_threads_per_block = 256;
    assert_csv_result(&row, 7, "H200", &k);
    assert_string_equal(row.field[7], "4"); /* what the H200's driver answered */
    assert_non_null(strstr(row.field[7 + 9], "the launch fails"));
}

/* Every output row has the header's column count, so a CSV reader keeps "error" in its
   column even for a row with too few or too many fields. */
static void batch_rectangular_test(void **state)
{
    (void)state;
    OCC(BATCH_HEADER "\nH200,256,64\nH200,256,64,0,0,,extra\nH200,256,64,0,0,\n", "calc", "--batch",
        "-");
    assert_int_equal(last.code, EXIT_DATA);
    assert_int_equal(line_count(last.out), 4);
    char line[1024];
    csv_row header;
    csv_split(line_at(last.out, 0, line, sizeof line), &header);
    assert_int_equal(header.count, 6 + RESULT_COLUMNS);
    for (int i = 1; i < 4; i++) {
        csv_row row;
        csv_split(line_at(last.out, i, line, sizeof line), &row);
        if (row.count != header.count) {
            fail_msg("row %d has %d fields, the header %d: %s", i, row.count, header.count, line);
        }
    }
}

static void batch_optional_columns_test(void **state)
{
    (void)state;
    static const char csv[] = BATCH_HEADER ",max_threads,barriers\n"
                                           "H200,256,64,0,0,,256,4\n"
                                           "H200,512,32,0,0,,256,\n"
                                           "H200,128,32,0,0,,,16\n";
    OCC(csv, "calc", "--batch", "-");
    assert_int_equal(last.code, EXIT_OK);
    assert_string_equal(last.err, "");
    assert_int_equal(line_count(last.out), 4);
    assert_csv_header(BATCH_HEADER ",max_threads,barriers");
    static const struct {
        int threads, regs, max_threads, barriers;
    } rows[] = {{256, 64, 256, 4}, {512, 32, 256, 1}, {128, 32, 0, 16}};
    for (int i = 0; i < 3; i++) {
        occ_kernel k = kernel_of(rows[i].threads, 1, rows[i].regs, 0, 0, OCC_CARVEOUT_DEFAULT);
        k.max_threads_per_block = rows[i].max_threads;
        k.barriers = rows[i].barriers;
        char line[1024];
        csv_row row;
        csv_split(line_at(last.out, i + 1, line, sizeof line), &row);
        assert_csv_result(&row, 8, "H200", &k);
    }
    /* The columns are read, not skipped: 16 barriers bind where the default 1 does not. */
    occ_kernel one_barrier = kernel_of(128, 1, 32, 0, 0, OCC_CARVEOUT_DEFAULT);
    occ_kernel sixteen = one_barrier;
    sixteen.barriers = 16;
    occ_device d;
    occ_result r1;
    occ_result r16;
    assert_int_equal(occ_gpu_find("H200", &d, NULL), OCC_OK);
    assert_int_equal(occ_calc(&d, &one_barrier, &r1, NULL), OCC_OK);
    assert_int_equal(occ_calc(&d, &sixteen, &r16, NULL), OCC_OK);
    assert_true(r16.limit_barriers < r1.limit_barriers);
    /* and a bad value in an optional column is that row's error. */
    OCC(BATCH_HEADER ",max_threads,barriers\nH200,128,32,0,0,,2000,\nH200,128,32,0,0,,,17\n",
        "calc", "--batch", "-");
    assert_int_equal(last.code, EXIT_DATA);
    char line[1024];
    csv_row row;
    csv_split(line_at(last.out, 1, line, sizeof line), &row);
    assert_csv_error(&row, "max_threads: '2000' is above the maximum, 1024");
    csv_split(line_at(last.out, 2, line, sizeof line), &row);
    assert_csv_error(&row, "barriers: '17' is above the maximum, 16");
}

/* A passed-through field is echoed as csv.h's writer quotes: where it holds a comma, quote,
   line break or an edge space or tab, its quotes doubled; otherwise bare, even where the
   input quoted it. The rows are built as one output line in memory (calc_batch.c), so
   this holds that line to the rules field by field, a long field included. */
typedef struct echo_case {
    const char *input; /* the note column as the input has it */
    const char *echo;  /* as the output must have it */
} echo_case;

static void batch_echo_test(void **state)
{
    (void)state;
    static char long_in[4000];
    static char long_out[4000];
    /* 1,800 quotes, doubled in the input: 3,602 bytes of a 4,096-byte record */
    long_in[0] = long_out[0] = '"';
    for (int i = 1; i <= 3600; i++) {
        long_in[i] = long_out[i] = '"';
    }
    long_in[3601] = long_out[3601] = '"';
    static const echo_case cases[] = {
        {"plain", "plain"},
        {"\"quoted plain\"", "quoted plain"},
        {"  trimmed  ", "trimmed"},
        {"\"a,b\"", "\"a,b\""},
        {"\"say \"\"hi\"\"\"", "\"say \"\"hi\"\"\""},
        {"\" edge\"", "\" edge\""},
        {"\"edge\t\"", "\"edge\t\""},
        {"\"two\nlines\"", "\"two\nlines\""},
        {"\"carriage\rreturn\"", "\"carriage\rreturn\""},
        {"", ""},
        {long_in, long_out},
    };
    char input[8192];
    char expect[8192];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        snprintf(input, sizeof input, "note,%s\n%s,H200,256,64,0,0,\n", BATCH_HEADER,
                 cases[i].input);
        assert_int_equal(OCC(input, "calc", "--batch", "-"), EXIT_OK);
        snprintf(expect, sizeof expect, "%s,H200,256,64,0,0,,", cases[i].echo);
        const char *row = strchr(last.out, '\n');
        assert_non_null(row);
        if (!starts_with(row + 1, expect)) {
            fail_msg("case %zu: '%.60s' echoed as '%.60s', not '%.60s'", i, cases[i].input, row + 1,
                     expect);
        }
    }
    /* a row of 64 fields, the most stored, each echoed in its place */
    char header[1024] = BATCH_HEADER;
    char line[1024] = "H200,256,64,0,0,";
    for (int c = 6; c < 64; c++) {
        snprintf(header + strlen(header), sizeof header - strlen(header), ",n%d", c);
        snprintf(line + strlen(line), sizeof line - strlen(line), ",\"v,%d\"", c);
    }
    snprintf(input, sizeof input, "%s\n%s\n", header, line);
    assert_int_equal(OCC(input, "calc", "--batch", "-"), EXIT_OK);
    char out_line[4096];
    line_at(last.out, 1, out_line, sizeof out_line);
    assert_true(starts_with(out_line, line));
}

/* The occupancy column is "%.6g" of libocc's occupancy on every row, exactly: the batch
   prints each distinct value once and reuses its text, which must never be another
   value's. Rows on three GPUs, each configuration twice. */
static void batch_occupancy_text_test(void **state)
{
    (void)state;
    static const char *const gpus[] = {"H200", "T4", "sm_61"};
    static const int regs[] = {0, 24, 40, 64, 96, 128, 168, 255};
    size_t cap = 1 << 20;
    char *input = malloc(cap);
    assert_non_null(input);
    size_t o = (size_t)snprintf(input, cap, "%s\n", BATCH_HEADER);
    int rows = 0;
    for (int pass = 0; pass < 2; pass++) {
        for (int g = 0; g < 3; g++) {
            for (int t = 32; t <= 1024; t += 32) {
                for (size_t r = 0; r < sizeof regs / sizeof regs[0]; r++) {
                    o += (size_t)snprintf(input + o, cap - o, "%s,%d,%d,0,%d,\n", gpus[g], t,
                                          regs[r], 1000 * t % 40000);
                    rows++;
                }
            }
        }
    }
    assert_int_equal(OCC(input, "calc", "--batch", "-"), EXIT_OK);
    assert_int_equal(line_count(last.out), rows + 1);
    char line[1024];
    int row = 1;
    for (int pass = 0; pass < 2; pass++) {
        for (int g = 0; g < 3; g++) {
            occ_device d;
            assert_int_equal(occ_gpu_find(gpus[g], &d, NULL), OCC_OK);
            for (int t = 32; t <= 1024; t += 32) {
                for (size_t r = 0; r < sizeof regs / sizeof regs[0]; r++) {
                    occ_kernel k =
                        kernel_of(t, 1, regs[r], 0, 1000 * t % 40000, OCC_CARVEOUT_DEFAULT);
                    occ_result res;
                    assert_int_equal(occ_calc(&d, &k, &res, NULL), OCC_OK);
                    char text[32];
                    snprintf(text, sizeof text, "%.6g", res.occupancy);
                    csv_row fields;
                    csv_split(line_at(last.out, row, line, sizeof line), &fields);
                    if (strcmp(fields.field[6 + 2], text) != 0) {
                        fail_msg("row %d (%s): occupancy '%s', not '%s'", row, line,
                                 fields.field[6 + 2], text);
                    }
                    row++;
                }
            }
        }
    }
    free(input);
}

typedef struct batch_fail_case {
    const char *input;    /* stdin; NULL: read a missing file */
    const char *fragment; /* the message contains this */
} batch_fail_case;

/* A batch that cannot start: exit 1, one line naming the source, no rows. */
static void batch_fail_test(void **state)
{
    const batch_fail_case *c = *state;
    if (c->input != NULL) {
        assert_int_equal(OCC(c->input, "calc", "--batch", "-"), EXIT_DATA);
    } else {
        char path[128];
        snprintf(path, sizeof path, "%s/missing.csv", temp_dir);
        assert_int_equal(OCC(NULL, "calc", "--batch", path), EXIT_DATA);
    }
    assert_string_equal(last.out, "");
    assert_int_equal(line_count(last.err), 1);
    assert_true(starts_with(last.err, "occ calc: "));
    if (strstr(last.err, c->fragment) == NULL) {
        fail_msg("'%s' lacks '%s'", last.err, c->fragment);
    }
}

#define BATCH_FAIL_CASE(id, input, fragment)                                                       \
    {                                                                                              \
        id, batch_fail_test, NULL, NULL, &(batch_fail_case)                                        \
        {                                                                                          \
            input, fragment                                                                        \
        }                                                                                          \
    }

static const struct CMUnitTest batch_tests[] = {
    {"batch-mixed-1", batch_mixed_test, NULL, NULL, NULL},
    {"batch-stdin-1", batch_stdin_test, NULL, NULL, NULL},
    {"batch-gzip-1", batch_gzip_test, NULL, NULL, NULL},
    {"batch-crlf-1", batch_crlf_test, NULL, NULL, NULL},
    {"batch-optional-1", batch_optional_columns_test, NULL, NULL, NULL},
    {"batch-rectangular-1", batch_rectangular_test, NULL, NULL, NULL},
    {"batch-quoted-1", batch_quoted_test, NULL, NULL, NULL},
    {"batch-launch-bounds-1", batch_launch_bounds_warning_test, NULL, NULL, NULL},
    {"batch-echo-1", batch_echo_test, NULL, NULL, NULL},
    {"batch-occupancy-text-1", batch_occupancy_text_test, NULL, NULL, NULL},
    BATCH_FAIL_CASE("batch-fail-1", "", "<stdin>: is empty"),
    BATCH_FAIL_CASE("batch-fail-2", "\n\n", "<stdin>: is empty"),
    BATCH_FAIL_CASE("batch-fail-3", "gpu,threads,regs,smem,dyn_smem\nH200,256,0,0,0\n",
                    "column 'carveout' is missing"),
    BATCH_FAIL_CASE("batch-fail-4", BATCH_HEADER ",regs\n", "column 'regs' appears twice"),
    BATCH_FAIL_CASE("batch-fail-5", NULL, "missing.csv: cannot open"),
    BATCH_FAIL_CASE("batch-fail-6", "threads,regs\n", "column 'gpu' is missing"),
};

/* A header alone is a valid, empty batch; an unknown column passes through,
   with a note only when it is near an input column's name. */
static void batch_edges_test(void **state)
{
    (void)state;
    assert_int_equal(OCC(BATCH_HEADER "\n", "calc", "--batch", "-"), EXIT_OK);
    assert_int_equal(line_count(last.out), 1);
    assert_csv_header(BATCH_HEADER);

    assert_int_equal(OCC(BATCH_HEADER ",note\nH200,256,64,0,0,,first\n", "calc", "--batch", "-"),
                     EXIT_OK);
    assert_csv_header(BATCH_HEADER ",note");
    char line[1024];
    csv_row row;
    csv_split(line_at(last.out, 1, line, sizeof line), &row);
    assert_string_equal(row.field[6], "first");
    occ_kernel k = kernel_of(256, 1, 64, 0, 0, OCC_CARVEOUT_DEFAULT);
    assert_csv_result(&row, 7, "H200", &k);
    /* a pass-through column is documented: no note on every run */
    assert_string_equal(last.err, "");
    /* a near miss of an input column is news: a misspelt input would pass through unread */
    assert_int_equal(OCC("gpu,threads,regs,smem,dyn_smem,carveout,barrier\nH200,256,64,0,0,,2\n",
                         "calc", "--batch", "-"),
                     EXIT_OK);
    assert_string_equal(last.err, "occ calc: <stdin>: column 'barrier' is not an input column "
                                  "(did you mean 'barriers'?); passed through\n");

    /* Columns in any order. */
    assert_int_equal(
        OCC("regs,gpu,carveout,threads,dyn_smem,smem\n64,H200,,256,0,0\n", "calc", "--batch", "-"),
        EXIT_OK);
    csv_split(line_at(last.out, 1, line, sizeof line), &row);
    assert_csv_result(&row, 6, "H200", &k);
}

/* ------------------------------------------------------------------------ */
/* gpus                                                                     */
/* ------------------------------------------------------------------------ */

static void gpus_text_test(void **state)
{
    (void)state;
    assert_int_equal(OCC(NULL, "gpus"), EXIT_OK);
    assert_string_equal(last.err, "");
    assert_non_null(strstr(last.out, "\nH200 "));
    assert_non_null(strstr(last.out, "\nsm_90 "));
    /* One row per entry, in database order, after the header. */
    char line[512];
    for (int i = 0; i < occ_gpu_count(); i++) {
        occ_device d;
        assert_int_equal(occ_gpu_at(i, &d, NULL, NULL, NULL), OCC_OK);
        line_at(last.out, i + 1, line, sizeof line);
        char name[OCC_DEVICE_NAME_BYTES + 2];
        snprintf(name, sizeof name, "%s ", d.name);
        if (!starts_with(line, name)) {
            fail_msg("row %d '%s' is not entry '%s'", i + 1, line, d.name);
        }
    }
}

static void gpus_json_test(void **state)
{
    (void)state;
    assert_int_equal(OCC(NULL, "gpus", "--json"), EXIT_OK);
    assert_string_equal(last.err, "");
    json_t *doc = parse_json_output();
    assert_string_equal(json_string_value(json_object_get(doc, "schema")), "occ.gpus");
    assert_int_equal(get_int(doc, "version"), 1);
    json_t *gpus = json_object_get(doc, "gpus");
    assert_true(json_is_array(gpus));
    assert_int_equal(json_array_size(gpus), (size_t)occ_gpu_count());
    bool saw_h200 = false;
    bool saw_sm90 = false;
    for (int i = 0; i < occ_gpu_count(); i++) {
        occ_device d;
        bool named;
        const char *const *aliases;
        assert_int_equal(occ_gpu_at(i, &d, &named, &aliases, NULL), OCC_OK);
        json_t *entry = json_array_get(gpus, (size_t)i);
        assert_string_equal(json_string_value(json_object_get(entry, "name")), d.name);
        assert_int_equal(json_is_true(json_object_get(entry, "named")), named);
        assert_int_equal(get_int(entry, "regs_per_sm"), d.regs_per_sm);
        assert_int_equal(get_int(entry, "smem_per_sm_bytes"), d.smem_per_sm_bytes);
        json_t *sms = json_object_get(entry, "sm_count");
        if (d.sm_count > 0) {
            assert_int_equal(json_integer_value(sms), d.sm_count);
        } else {
            assert_true(json_is_null(sms));
        }
        json_t *names = json_object_get(entry, "aliases");
        size_t alias_count = 0;
        while (aliases[alias_count] != NULL) {
            assert_string_equal(json_string_value(json_array_get(names, alias_count)),
                                aliases[alias_count]);
            alias_count++;
        }
        assert_int_equal(json_array_size(names), alias_count);
        saw_h200 |= strcmp(d.name, "H200") == 0;
        saw_sm90 |= strcmp(d.name, "sm_90") == 0;
    }
    assert_true(saw_h200 && saw_sm90);
    json_decref(doc);
}

static void gpus_bad_option_test(void **state)
{
    (void)state;
    assert_int_equal(OCC(NULL, "gpus", "--jsn"), EXIT_USAGE);
    assert_string_equal(last.out, "");
    assert_string_equal(last.err, "occ gpus: option --jsn: is unknown; did you mean --json?\n"
                                  "occ: try 'occ gpus --help'\n");
}

/* No --regs: 0 registers is no compiled kernel, so every command that
   describes one says so on stderr, the text says "(not given)" and JSON has
   kernel.regs_per_thread_given false; with --regs, nothing. */
static void regs_not_given_test(void **state)
{
    (void)state;
    static const char *const note = "note: --regs not given: computed with 0 registers per thread";
    assert_int_equal(OCC(NULL, "calc", "--gpu", "H200", "--threads", "256"), EXIT_OK);
    assert_true(starts_with(last.err, "occ calc: note: --regs not given"));
    assert_non_null(strstr(last.out, "0 registers per thread (not given),"));
    assert_int_equal(OCC(NULL, "explain", "--gpu", "H200", "--threads", "256"), EXIT_OK);
    assert_true(starts_with(last.err, "occ explain: "));
    assert_non_null(strstr(last.err, note));
    assert_non_null(strstr(last.out, "0 registers per thread (not given),"));
    assert_int_equal(OCC(NULL, "sweep", "smem", "--gpu", "H200", "--threads", "256"), EXIT_OK);
    assert_non_null(strstr(last.err, note));
    assert_int_equal(OCC(NULL, "suggest", "--gpu", "H200"), EXIT_OK);
    assert_non_null(strstr(last.err, note));
    /* --warps describes no kernel: nothing to note */
    assert_int_equal(OCC(NULL, "latency", "--gpu", "H200", "--warps", "32"), EXIT_OK);
    assert_null(strstr(last.err, note));

    static const char *const json_commands[][2] = {
        {"calc", NULL}, {"explain", NULL}, {"sweep", "regs"}, {"sweep", "cluster"}};
    for (size_t i = 0; i < sizeof json_commands / sizeof json_commands[0]; i++) {
        for (int given = 0; given < 2; given++) {
            const char *args[16] = {json_commands[i][0]};
            int n = 1;
            if (json_commands[i][1] != NULL) {
                args[n++] = json_commands[i][1];
            }
            const char *rest[] = {"--gpu", "H200", "--threads", "256", "--json"};
            for (size_t j = 0; j < sizeof rest / sizeof rest[0]; j++) {
                args[n++] = rest[j];
            }
            if (given) {
                args[n++] = "--regs";
                args[n++] = "0";
            }
            args[n] = NULL;
            assert_int_equal(run_cli(NULL, args), EXIT_OK);
            assert_int_equal(strstr(last.err, note) != NULL, !given);
            json_error_t jerr;
            json_t *doc = json_loads(last.out, 0, &jerr);
            assert_non_null(doc);
            json_t *flag = json_object_get(json_object_get(doc, "kernel"), "regs_per_thread_given");
            if (!json_is_boolean(flag) || json_is_true(flag) != (given != 0)) {
                fail_msg("%s %s: kernel.regs_per_thread_given is not %s", json_commands[i][0],
                         json_commands[i][1] != NULL ? json_commands[i][1] : "",
                         given ? "true" : "false");
            }
            json_decref(doc);
        }
    }
    assert_int_equal(OCC(NULL, "calc", "--gpu", "H200", "--threads", "256", "--regs", "0"),
                     EXIT_OK);
    assert_string_equal(last.err, "");
    assert_null(strstr(last.out, "(not given)"));
}

/* A family name that stands for one of several GPUs names the one it chose
   and the others; a full name, an alias of one product or an architecture
   says nothing. */
static void gpu_variant_note_test(void **state)
{
    (void)state;
    assert_int_equal(OCC(NULL, "calc", "--gpu", "A100", "--threads", "256", "--regs", "32"),
                     EXIT_OK);
    assert_non_null(strstr(last.err, "occ calc: note: --gpu A100 is the A100 SXM 40GB; the "
                                     "database also has A100 PCIe 40GB, A100 SXM 80GB, A100 PCIe "
                                     "80GB,"));
    assert_true(starts_with(last.out, "A100 SXM 40GB (sm_80):"));
    assert_int_equal(OCC(NULL, "suggest", "--gpu", "h100", "--regs", "32"), EXIT_OK);
    assert_non_null(strstr(last.err, "--gpu h100 is the H100 SXM; the database also has H100 "
                                     "PCIe, H100 NVL"));
    assert_int_equal(OCC(NULL, "calc", "--gpu", "4090", "--threads", "256", "--regs", "32"),
                     EXIT_OK);
    assert_non_null(strstr(last.err, "--gpu 4090 is the RTX 4090; the database also has RTX "
                                     "4090 D, RTX 4090 Laptop GPU"));
    static const char *const quiet[] = {"A100 SXM 40GB", "a100-80gb", "nvidia a100-sxm4-40gb",
                                        "H200",          "sm_80",     "8.0"};
    for (size_t i = 0; i < sizeof quiet / sizeof quiet[0]; i++) {
        assert_int_equal(OCC(NULL, "calc", "--gpu", quiet[i], "--threads", "256", "--regs", "32"),
                         EXIT_OK);
        if (last.err[0] != '\0') {
            fail_msg("--gpu '%s': %s", quiet[i], last.err);
        }
    }
}

/* occ sweep smem follows Nsight to 0 blocks at its last point on an H200
   (232,960 bytes: past the 227 KB a block may have by less than the 1 KB
   reserve), where occ calc of that allocation gives 1; the text says so. */
static void sweep_smem_quirk_test(void **state)
{
    (void)state;
    assert_int_equal(
        OCC(NULL, "sweep", "smem", "--gpu", "H200", "--threads", "256", "--regs", "32"), EXIT_OK);
    assert_non_null(strstr(last.out, "\n232960                        0        0       0.0%\n"));
    char *flat = strdup(last.out);
    assert_non_null(flat);
    for (char *p = flat; *p != '\0'; p++) {
        *p = *p == '\n' ? ' ' : *p;
    }
    assert_non_null(strstr(flat, "Note: At 232,960 bytes per block this chart shows 0 blocks, "
                                 "as Nsight Compute's does, where occ calc of the same allocation "
                                 "gives 1 block and the launch runs"));
    assert_non_null(strstr(flat, "the driver's 1 KB reserve included, to the 227 KB a block may "
                                 "have"));
    free(flat);
    /* ... and occ calc of it: 231,936 bytes of its own + 1 KB, at the same configuration */
    assert_int_equal(OCC(NULL, "calc", "--gpu", "H200", "--threads", "256", "--regs", "32",
                         "--dyn-smem", "231936", "--smem-config", "228K"),
                     EXIT_OK);
    assert_non_null(strstr(last.out, "One limit binds at 1 block per SM:"));
    /* without the opt-in the cap is 48 KB: two points part */
    assert_int_equal(OCC(NULL, "sweep", "smem", "--gpu", "H200", "--threads", "256", "--regs", "32",
                         "--optin", "none"),
                     EXIT_OK);
    flat = strdup(last.out);
    assert_non_null(flat);
    for (char *p = flat; *p != '\0'; p++) {
        *p = *p == '\n' ? ' ' : *p;
    }
    assert_non_null(strstr(flat, "Note: From 49,664 to 50,176 bytes per block this chart shows "
                                 "0 blocks"));
    assert_non_null(strstr(flat, "to the 48 KB a block may have"));
    free(flat);
    /* other axes, and CSV, carry no note */
    assert_int_equal(
        OCC(NULL, "sweep", "regs", "--gpu", "H200", "--threads", "256", "--regs", "32"), EXIT_OK);
    assert_null(strstr(last.out, "Note:"));
}

/* The first "1 <plural noun>" in text ("1 blocks per SM"), or NULL: a 1
   that is a whole number (not the end of 21, 0.1 or 1,001). */
static const char *one_plural(const char *text)
{
    static const char *const nouns[] = {"blocks", "warps",    "loads",    "threads", "registers",
                                        "SMs",    "clusters", "launches", "waves",   "rows",
                                        "pairs",  "elements", "bytes",    "times",   "GPCs"};
    for (const char *p = strstr(text, "1 "); p != NULL; p = strstr(p + 1, "1 ")) {
        if (p > text && ((p[-1] >= '0' && p[-1] <= '9') || p[-1] == '.' || p[-1] == ',')) {
            continue;
        }
        for (size_t i = 0; i < sizeof nouns / sizeof nouns[0]; i++) {
            size_t n = strlen(nouns[i]);
            if (strncmp(p + 2, nouns[i], n) == 0 &&
                !((p[2 + n] >= 'a' && p[2 + n] <= 'z') || (p[2 + n] >= 'A' && p[2 + n] <= 'Z'))) {
                return p;
            }
        }
    }
    return NULL;
}

/* Counts of one read in the singular, in every printer of a launch: 1-thread
   and 32-thread blocks, one block per SM, one load in flight, a cluster of 1,
   a grid of one block. */
static void singular_test(void **state)
{
    (void)state;
    static const char *const runs[][16] = {
        {"calc", "--gpu", "H200", "--threads", "1", "--regs", "1"},
        {"calc", "--gpu", "H200", "--threads", "32", "--regs", "255", "--dyn-smem", "200K",
         "--max-threads", "1"},
        {"calc", "--gpu", "H200", "--threads", "32", "--regs", "32", "--cluster", "1"},
        {"explain", "--gpu", "H200", "--threads", "1", "--regs", "1"},
        {"explain", "--gpu", "H200", "--threads", "32", "--regs", "255", "--dyn-smem", "200K"},
        {"sweep", "smem", "--gpu", "H200", "--threads", "32", "--regs", "255", "--dyn-smem",
         "200K"},
        {"suggest", "--gpu", "H200", "--regs", "32", "--threads", "32", "--blocks", "1"},
        {"suggest", "--gpu", "H200", "--regs", "32", "--elements", "1"},
        {"latency", "--gpu", "H200", "--warps", "1", "--ilp", "1", "--bytes-per-load", "1"},
        {"latency", "--gpu", "H200", "--threads", "32", "--regs", "255", "--dyn-smem", "200K"},
    };
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        assert_int_equal(run_cli(NULL, runs[i]), EXIT_OK);
        const char *bad = one_plural(last.out);
        if (bad != NULL) {
            fail_msg("occ %s %s: '%.40s'", runs[i][0], runs[i][1], bad);
        }
    }
    assert_int_equal(OCC(NULL, "calc", "--gpu", "H200", "--threads", "32", "--regs", "255",
                         "--dyn-smem", "200K"),
                     EXIT_OK);
    assert_non_null(strstr(last.out, "32 threads per block (1 warp)"));
    assert_non_null(strstr(last.out, "One limit binds at 1 block per SM:"));
    assert_non_null(strstr(last.out, "1 block x 1 warp = 1 of 64 warp slots"));
    assert_int_equal(OCC(NULL, "latency", "--gpu", "H200", "--warps", "1"), EXIT_OK);
    assert_non_null(strstr(last.out, "kernel: 1 warp per SM (1.6% occupancy) x 32 threads x 1 "
                                     "load in flight x 4 bytes"));
    assert_non_null(strstr(last.out, "At 1 load in flight per thread"));
    assert_int_equal(OCC(NULL, "suggest", "--gpu", "H200", "--regs", "32", "--blocks", "1"),
                     EXIT_OK);
    assert_non_null(strstr(last.out, "Launch: 1 block of 1024 threads"));
    assert_non_null(strstr(last.out, "warning: the one wave is 0% full"));
    /* the checker finds what it is for */
    assert_non_null(one_plural("at 1 blocks per SM"));
    assert_null(one_plural("at 21 blocks, 0.1 loads, 1,001 rows and 1 block"));
}

/* ------------------------------------------------------------------------ */

static const struct CMUnitTest top_tests[] = {
    {"top-help-1", top_help_test, NULL, NULL, NULL},
    {"top-version-1", top_version_test, NULL, NULL, NULL},
    {"top-none-1", no_command_test, NULL, NULL, NULL},
    {"top-unknown-1", unknown_command_test, NULL, NULL, NULL},
    {"help-every-command-1", every_command_help_test, NULL, NULL, NULL},
    {"calc-help-1", calc_help_test, NULL, NULL, NULL},
    {"json-null-limit-1", json_null_limit_test, NULL, NULL, NULL},
    {"unknown-gpu-suggests-1", unknown_gpu_suggests_test, NULL, NULL, NULL},
    {"batch-edges-1", batch_edges_test, NULL, NULL, NULL},
    {"gpus-text-1", gpus_text_test, NULL, NULL, NULL},
    {"gpus-json-1", gpus_json_test, NULL, NULL, NULL},
    {"gpus-bad-option-1", gpus_bad_option_test, NULL, NULL, NULL},
    {"regs-not-given-1", regs_not_given_test, NULL, NULL, NULL},
    {"gpu-variant-note-1", gpu_variant_note_test, NULL, NULL, NULL},
    {"sweep-smem-quirk-1", sweep_smem_quirk_test, NULL, NULL, NULL},
    {"singular-1", singular_test, NULL, NULL, NULL},
};

int main(void)
{
    int failed = 0;
    failed += cmocka_run_group_tests_name("top", top_tests, setup_dir, teardown_dir);
    failed += cmocka_run_group_tests_name("calc text", text_tests, NULL, NULL);
    failed += cmocka_run_group_tests_name("calc json", json_tests, NULL, NULL);
    failed += cmocka_run_group_tests_name("calc usage errors", usage_tests, NULL, NULL);
    failed += cmocka_run_group_tests_name("calc gpu-file", gpu_file_tests, setup_dir, teardown_dir);
    failed += cmocka_run_group_tests_name("calc batch", batch_tests, setup_dir, teardown_dir);
    free(last.out);
    free(last.err);
    return failed == 0 ? 0 : 1;
}
