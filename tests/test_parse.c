/*
 * test_parse.c - the CLI's checked value parsers and number formats (cli/parse.c and
 * cli_parse_block in cli/common/values.c).
 *
 * Every case is its own cmocka test named by a stable id ("size-3"), so a failure names the
 * input at fault and the other cases still run. Ids are never renumbered: new cases take the
 * next free number of their family.
 */
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "options.h"
#include "output.h"
#include "values.h"

/* Written into out-parameters before a call, to see whether a rejected input touched them. */
#define UNTOUCHED (-424242LL)

/* ------------------------------------------------------------------------ */
/* cli_parse_int                                                            */
/* ------------------------------------------------------------------------ */

typedef struct int_case {
    const char *text;
    long long lo, hi; /* the accepted range passed to the parser */
    bool ok;
    long long value; /* when ok */
} int_case;

static void int_test(void **state)
{
    const int_case *c = *state;
    long long got = UNTOUCHED;
    cli_error err;
    bool ok = cli_parse_int(c->text, c->lo, c->hi, &got, &err);
    assert_int_equal(ok, c->ok);
    /* A rejected value must leave the output alone: callers keep their default. */
    assert_int_equal(got, c->ok ? c->value : UNTOUCHED);
}

#define INT_CASE(id, text, lo, hi, ok, value)                                                      \
    {                                                                                              \
        id, int_test, NULL, NULL, &(int_case)                                                      \
        {                                                                                          \
            text, lo, hi, ok, value                                                                \
        }                                                                                          \
    }

static const struct CMUnitTest int_tests[] = {
    INT_CASE("int-1", "256", 1, 1024, true, 256),
    INT_CASE("int-2", "1", 1, 1024, true, 1),
    INT_CASE("int-3", "1024", 1, 1024, true, 1024),
    INT_CASE("int-4", "0", 1, 1024, false, 0),
    INT_CASE("int-5", "1025", 1, 1024, false, 0),
    INT_CASE("int-6", "-5", -10, 10, true, -5),
    INT_CASE("int-7", "-1", 0, 10, false, 0),
    INT_CASE("int-8", "+7", 0, 10, true, 7),
    INT_CASE("int-9", "007", 0, 10, true, 7),
    INT_CASE("int-10", "", 0, 10, false, 0),
    INT_CASE("int-11", "-", -10, 10, false, 0),
    INT_CASE("int-12", "+", 0, 10, false, 0),
    INT_CASE("int-13", "12a", 0, 100, false, 0),
    INT_CASE("int-14", " 12", 0, 100, false, 0),
    INT_CASE("int-15", "12 ", 0, 100, false, 0),
    INT_CASE("int-16", "1e3", 0, 100000, false, 0),
    INT_CASE("int-17", "0x10", 0, 100, false, 0),
    INT_CASE("int-18", "1.0", 0, 100, false, 0),
    INT_CASE("int-19", "2147483647", 0, INT_MAX, true, INT_MAX),
    INT_CASE("int-20", "2147483648", 0, INT_MAX, false, 0),
    INT_CASE("int-21", "99999999999", 0, INT_MAX, false, 0),
    /* Beyond long long: must be refused, not wrapped. */
    INT_CASE("int-22", "99999999999999999999999", LLONG_MIN, LLONG_MAX, false, 0),
    INT_CASE("int-23", "-99999999999999999999999", LLONG_MIN, LLONG_MAX, false, 0),
    INT_CASE("int-24", "--1", -10, 10, false, 0),
    INT_CASE("int-25", "255", 0, 255, true, 255),
    INT_CASE("int-26", "256", 0, 255, false, 0),
};

/* ------------------------------------------------------------------------ */
/* cli_parse_size                                                           */
/* ------------------------------------------------------------------------ */

typedef struct size_case {
    const char *text;
    bool ok;
    long long bytes;
} size_case;

static void size_test(void **state)
{
    const size_case *c = *state;
    long long got = UNTOUCHED;
    cli_error err;
    bool ok = cli_parse_size(c->text, &got, &err);
    assert_int_equal(ok, c->ok);
    assert_int_equal(got, c->ok ? c->bytes : UNTOUCHED);
}

#define SIZE_CASE(id, text, ok, bytes)                                                             \
    {                                                                                              \
        id, size_test, NULL, NULL, &(size_case)                                                    \
        {                                                                                          \
            text, ok, bytes                                                                        \
        }                                                                                          \
    }

static const struct CMUnitTest size_tests[] = {
    SIZE_CASE("size-1", "48K", true, 49152),
    SIZE_CASE("size-2", "1.5KiB", true, 1536),
    SIZE_CASE("size-3", "64KB", true, 65536),
    SIZE_CASE("size-4", "2M", true, 2097152),
    SIZE_CASE("size-5", "1000B", true, 1000),
    /* 1.3 KiB is 1331.2 bytes: not a whole number of bytes. */
    SIZE_CASE("size-6", "1.3K", false, 0),
    SIZE_CASE("size-7", "", false, 0),
    SIZE_CASE("size-8", "-1", false, 0),
    SIZE_CASE("size-9", "abc", false, 0),
    SIZE_CASE("size-10", "1e3", false, 0),
    SIZE_CASE("size-11", "99999999999", false, 0),
    SIZE_CASE("size-12", "0", true, 0),
    SIZE_CASE("size-13", "4096", true, 4096),
    SIZE_CASE("size-14", "48k", true, 49152),
    SIZE_CASE("size-15", "48kb", true, 49152),
    SIZE_CASE("size-16", "1.25K", true, 1280),
    SIZE_CASE("size-17", "0.5K", true, 512),
    SIZE_CASE("size-18", "1.5MiB", true, 1572864),
    SIZE_CASE("size-19", "2147483647", true, 2147483647),
    SIZE_CASE("size-20", "2147483648", false, 0),
    /* 2048 MiB is 2^31: one past the int every libocc size is. */
    SIZE_CASE("size-21", "2048M", false, 0),
    SIZE_CASE("size-22", "2047M", true, 2047LL * 1024 * 1024),
    SIZE_CASE("size-23", "48 K", false, 0),
    SIZE_CASE("size-24", "48KBB", false, 0),
    SIZE_CASE("size-25", "K", false, 0),
    SIZE_CASE("size-26", ".", false, 0),
    SIZE_CASE("size-27", "1.001K", false, 0),
    SIZE_CASE("size-28", "1.00000001K", false, 0),
    SIZE_CASE("size-29", "+48K", false, 0),
    SIZE_CASE("size-30", "1G", false, 0),
    SIZE_CASE("size-31", "10b", true, 10),
    SIZE_CASE("size-32", "1.5", false, 0),
};

/* ------------------------------------------------------------------------ */
/* cli_parse_carveout                                                       */
/* ------------------------------------------------------------------------ */

typedef struct carveout_case {
    const char *text;
    bool ok;
    int percent;
} carveout_case;

static void carveout_test(void **state)
{
    const carveout_case *c = *state;
    int got = -4242;
    cli_error err;
    bool ok = cli_parse_carveout(c->text, &got, &err);
    assert_int_equal(ok, c->ok);
    assert_int_equal(got, c->ok ? c->percent : -4242);
}

#define CARVEOUT_CASE(id, text, ok, percent)                                                       \
    {                                                                                              \
        id, carveout_test, NULL, NULL, &(carveout_case)                                            \
        {                                                                                          \
            text, ok, percent                                                                      \
        }                                                                                          \
    }

static const struct CMUnitTest carveout_tests[] = {
    CARVEOUT_CASE("carveout-1", "default", true, OCC_CARVEOUT_DEFAULT),
    CARVEOUT_CASE("carveout-2", "-1", true, OCC_CARVEOUT_DEFAULT),
    CARVEOUT_CASE("carveout-3", "50", true, 50),
    CARVEOUT_CASE("carveout-4", "50%", true, 50),
    CARVEOUT_CASE("carveout-5", "101", false, 0),
    CARVEOUT_CASE("carveout-6", "x", false, 0),
    CARVEOUT_CASE("carveout-7", "0", true, 0),
    CARVEOUT_CASE("carveout-8", "100%", true, 100),
    CARVEOUT_CASE("carveout-9", "DEFAULT", true, OCC_CARVEOUT_DEFAULT),
    CARVEOUT_CASE("carveout-10", "", false, 0),
    CARVEOUT_CASE("carveout-11", "%", false, 0),
    CARVEOUT_CASE("carveout-12", "50%%", false, 0),
    CARVEOUT_CASE("carveout-13", "-2", false, 0),
    CARVEOUT_CASE("carveout-14", "5 0", false, 0),
    CARVEOUT_CASE("carveout-15", "101%", false, 0),
    CARVEOUT_CASE("carveout-16", "50.5", false, 0),
    CARVEOUT_CASE("carveout-17", "defaults", false, 0),
    CARVEOUT_CASE("carveout-18", "100000000000000000000", false, 0),
};

/* ------------------------------------------------------------------------ */
/* calc_parse_threads                                                       */
/* ------------------------------------------------------------------------ */

typedef struct threads_case {
    const char *text;
    bool ok;
    int x, y, z;
} threads_case;

static void threads_test(void **state)
{
    const threads_case *c = *state;
    int dims[3] = {7, 7, 7}; /* a sentinel: a rejected block must not change them */
    cli_error err;
    bool ok = cli_parse_block(c->text, dims, &err);
    assert_int_equal(ok, c->ok);
    if (c->ok) {
        assert_int_equal(dims[0], c->x);
        assert_int_equal(dims[1], c->y);
        assert_int_equal(dims[2], c->z);
    } else {
        assert_int_equal(dims[0], 7);
        assert_int_equal(err.code, EXIT_USAGE);
        assert_true(err.message[0] != '\0');
    }
}

#define THREADS_CASE(id, text, ok, x, y, z)                                                        \
    {                                                                                              \
        id, threads_test, NULL, NULL, &(threads_case)                                              \
        {                                                                                          \
            text, ok, x, y, z                                                                      \
        }                                                                                          \
    }

static const struct CMUnitTest threads_tests[] = {
    THREADS_CASE("threads-1", "256", true, 256, 1, 1),
    THREADS_CASE("threads-2", "16x16", true, 16, 16, 1),
    THREADS_CASE("threads-3", "8x8x4", true, 8, 8, 4),
    THREADS_CASE("threads-4", "0", false, 0, 0, 0),
    THREADS_CASE("threads-5", "1x", false, 0, 0, 0),
    THREADS_CASE("threads-6", "x2", false, 0, 0, 0),
    THREADS_CASE("threads-7", "2x2x2x2", false, 0, 0, 0),
    THREADS_CASE("threads-8", "32X4", true, 32, 4, 1),
    THREADS_CASE("threads-9", "", false, 0, 0, 0),
    THREADS_CASE("threads-10", "2xx2", false, 0, 0, 0),
    THREADS_CASE("threads-11", "2xX2", false, 0, 0, 0),
    THREADS_CASE("threads-12", "16x0", false, 0, 0, 0),
    THREADS_CASE("threads-13", "-4", false, 0, 0, 0),
    THREADS_CASE("threads-14", "2x-2", false, 0, 0, 0),
    THREADS_CASE("threads-15", "abc", false, 0, 0, 0),
    THREADS_CASE("threads-16", "16 x 16", false, 0, 0, 0),
    THREADS_CASE("threads-17", "X", false, 0, 0, 0),
    THREADS_CASE("threads-18", "1x1x1", true, 1, 1, 1),
    THREADS_CASE("threads-19", "1024", true, 1024, 1, 1),
    /* No CUDA GPU takes a dimension above 1024 threads. */
    THREADS_CASE("threads-20", "2048", false, 0, 0, 0),
    THREADS_CASE("threads-21", "99999999999", false, 0, 0, 0),
    THREADS_CASE("threads-22",
                 "1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1", false, 0,
                 0, 0),
    THREADS_CASE("threads-23", "4x4x", false, 0, 0, 0),
};

/* ------------------------------------------------------------------------ */
/* group_digits and cli_format_bytes                                    */
/* ------------------------------------------------------------------------ */

typedef struct digits_case {
    long long value;
    const char *text;
} digits_case;

static void digits_test(void **state)
{
    const digits_case *c = *state;
    char buf[40];
    assert_string_equal(group_digits(c->value, buf, sizeof buf), c->text);
}

#define DIGITS_CASE(id, value, text)                                                               \
    {                                                                                              \
        id, digits_test, NULL, NULL, &(digits_case)                                                \
        {                                                                                          \
            value, text                                                                            \
        }                                                                                          \
    }

static const struct CMUnitTest digits_tests[] = {
    DIGITS_CASE("digits-1", 0, "0"),
    DIGITS_CASE("digits-2", 7, "7"),
    DIGITS_CASE("digits-3", 999, "999"),
    DIGITS_CASE("digits-4", 1000, "1,000"),
    DIGITS_CASE("digits-5", 1234567, "1,234,567"),
    DIGITS_CASE("digits-6", -1234, "-1,234"),
    DIGITS_CASE("digits-7", -999, "-999"),
    DIGITS_CASE("digits-8", 2147483647, "2,147,483,647"),
    DIGITS_CASE("digits-9", LLONG_MAX, "9,223,372,036,854,775,807"),
    DIGITS_CASE("digits-10", LLONG_MIN, "-9,223,372,036,854,775,808"),
    DIGITS_CASE("digits-11", 100000, "100,000"),
};

/* A short buffer truncates, and never writes past `cap` (checked by a guard byte). */
static void digits_truncate_test(void **state)
{
    (void)state;
    for (size_t cap = 1; cap <= 12; cap++) {
        char buf[16];
        memset(buf, '#', sizeof buf);
        group_digits(1234567, buf, cap);
        assert_true(strlen(buf) < cap);
        assert_int_equal(buf[cap], '#');
        /* What fits is the start of the full text. */
        assert_memory_equal(buf, "1,234,567", strlen(buf));
    }
}

typedef struct bytes_case {
    long long bytes;
    const char *text;
} bytes_case;

static void bytes_test(void **state)
{
    const bytes_case *c = *state;
    char buf[40];
    assert_string_equal(cli_format_bytes(c->bytes, buf, sizeof buf), c->text);
}

#define BYTES_CASE(id, bytes, text)                                                                \
    {                                                                                              \
        id, bytes_test, NULL, NULL, &(bytes_case)                                                  \
        {                                                                                          \
            bytes, text                                                                            \
        }                                                                                          \
    }

static const struct CMUnitTest bytes_tests[] = {
    BYTES_CASE("bytes-1", 0, "0 B"),
    BYTES_CASE("bytes-2", 1000, "1,000 B"),
    BYTES_CASE("bytes-3", 1023, "1,023 B"),
    BYTES_CASE("bytes-4", 1024, "1 KB"),
    BYTES_CASE("bytes-5", 49152, "48 KB"),
    BYTES_CASE("bytes-6", 49153, "49,153 B"),
    BYTES_CASE("bytes-7", 2097152, "2,048 KB"),
    BYTES_CASE("bytes-8", 233472, "228 KB"),
    BYTES_CASE("bytes-9", 1, "1 B"),
};

/* Round trip: every size cli_format_bytes prints, cli_parse_size reads back. */
static void bytes_round_trip_test(void **state)
{
    (void)state;
    static const long long sizes[] = {0, 1, 512, 1024, 1536, 49152, 233472, 2097152};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        char text[40];
        char compact[40];
        cli_format_bytes(sizes[i], text, sizeof text);
        /* The printed form groups digits and spaces the unit; the parser takes neither. */
        size_t o = 0;
        for (const char *p = text; *p != '\0'; p++) {
            if (*p != ',' && *p != ' ') {
                compact[o++] = *p;
            }
        }
        compact[o] = '\0';
        long long back = -1;
        cli_error err;
        assert_true(cli_parse_size(compact, &back, &err));
        assert_int_equal(back, sizes[i]);
    }
}

/* cli_parse_double: plain decimals only, within the range. */
static void double_test(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        bool ok;
        double value;
    } cases[] = {
        {"600", true, 600}, {"0.5", true, 0.5},  {".5", true, 0.5}, {"1e3", true, 1000},
        {"-2", false, 0},   {"nan", false, 0},   {"inf", false, 0}, {"0x10", false, 0},
        {" 5", false, 0},   {"5 ", false, 0},    {"", false, 0},    {"1e400", false, 0},
        {"2000", false, 0}, {"1.5.2", false, 0}, {"-", false, 0},   {"e5", false, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        double v = -1;
        cli_error err;
        bool ok = cli_parse_double(cases[i].text, 0, 1000, &v, &err);
        if (ok != cases[i].ok || (ok && v != cases[i].value)) {
            fail_msg("'%s': ok %d value %g", cases[i].text, ok, v);
        }
    }
}

/* A refused number says what it is not, and for a number out of range, the
   range it must be in (the message the user sees after "option --X: "). */
static void messages_test(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        long long lo, hi;
        const char *says;
    } cases[] = {
        {"0", 1, 1024, "below the minimum, 1"},
        {"1025", 1, 1024, "above the maximum, 1024"},
        {"999999999999", 0, 255, "above the maximum, 255"},
        {"99999999999999999999999", 0, 255, "above the maximum, 255"},
        {"abc", 0, 255, "not a whole number"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        long long v;
        cli_error err;
        assert_false(cli_parse_int(cases[i].text, cases[i].lo, cases[i].hi, &v, &err));
        if (strstr(err.message, cases[i].says) == NULL) {
            fail_msg("'%s': message '%s' lacks '%s'", cases[i].text, err.message, cases[i].says);
        }
        assert_int_equal(err.code, EXIT_USAGE);
    }
    double d;
    cli_error err;
    assert_false(cli_parse_double("5000", 0, 4096, &d, &err));
    assert_non_null(strstr(err.message, "above the maximum, 4096"));
    long long n;
    assert_false(cli_parse_size("3000M", &n, &err));
    assert_non_null(strstr(err.message, "2147483647"));
}

/* The option parser: ids from the table, values, flags, "--x=v", "--" and
   the errors a user meets. */
enum { T_GPU, T_THREADS, T_JSON, T_HELP, T_END };
static const cli_option test_options[] = {
    [T_GPU] = {T_GPU, "gpu", "NAME", "a GPU"},
    [T_THREADS] = {T_THREADS, "threads", "N", "threads"},
    [T_JSON] = {T_JSON, "json", NULL, "JSON"},
    [T_HELP] = {T_HELP, "help", NULL, "help"},
};
static const cli_option_table test_tables[] = {{test_options, T_END}};

typedef struct seen {
    char log[256];
} seen;

static bool record(int id, const char *value, void *context, cli_error *err)
{
    seen *s = context;
    (void)err;
    size_t used = strlen(s->log);
    snprintf(s->log + used, sizeof s->log - used, "%d=%s;", id, value != NULL ? value : "-");
    return true;
}

static bool parse_words(const char *line, seen *s, cli_error *err)
{
    static char buf[256];
    static char command[] = "cmd";
    char *argv[16];
    int argc = 0;
    snprintf(buf, sizeof buf, "%s", line);
    argv[argc++] = command;
    for (char *w = strtok(buf, " "); w != NULL && argc < 15; w = strtok(NULL, " ")) {
        argv[argc++] = w;
    }
    argv[argc] = NULL;
    memset(s, 0, sizeof *s);
    return cli_parse_options(argc, argv, test_tables, 1, record, s, err);
}

static void options_test(void **state)
{
    (void)state;
    seen s;
    cli_error err;
    assert_true(parse_words("--gpu H200 --threads=256 --json file -h", &s, &err));
    assert_string_equal(s.log, "0=H200;1=256;2=-;-1=file;3=-;");
    assert_true(parse_words("--json -- --gpu", &s, &err));
    assert_string_equal(s.log, "2=-;-1=--gpu;");
    /* a forgotten value: the next word is an option */
    assert_false(parse_words("--gpu --threads 256", &s, &err));
    assert_non_null(strstr(err.message, "--gpu: needs a value"));
    assert_false(parse_words("--threads", &s, &err));
    assert_non_null(strstr(err.message, "--threads"));
    assert_false(parse_words("--json=1", &s, &err));
    assert_non_null(strstr(err.message, "takes no value"));
    /* did you mean */
    assert_false(parse_words("--thread 256", &s, &err));
    assert_non_null(strstr(err.message, "did you mean --threads?"));
    assert_int_equal(err.code, EXIT_USAGE);
    assert_false(parse_words("--zzzzzzzz", &s, &err));
    assert_null(strstr(err.message, "did you mean"));
    assert_false(parse_words("--thr 4", &s, &err)); /* a word cut short */
    assert_non_null(strstr(err.message, "did you mean --threads?"));
}

/* Control characters from a file never reach the terminal raw. */
static void visible_test(void **state)
{
    (void)state;
    char buf[64];
    assert_string_equal(cli_visible("a\x1b[2Jb\a\x7f", buf, sizeof buf), "a\\x1b[2Jb\\x07\\x7f");
    assert_string_equal(cli_visible("plain \xc3\xa9", buf, sizeof buf), "plain \xc3\xa9");
    char tiny[6];
    cli_visible("\x01\x02\x03", tiny, sizeof tiny);
    assert_true(strlen(tiny) < sizeof tiny);
}

static const struct CMUnitTest misc_tests[] = {
    {"messages-1", messages_test, NULL, NULL, NULL},
    {"options-1", options_test, NULL, NULL, NULL},
    {"visible-1", visible_test, NULL, NULL, NULL},
    {"double-1", double_test, NULL, NULL, NULL},
    {"digits-truncate-1", digits_truncate_test, NULL, NULL, NULL},
    {"bytes-round-trip-1", bytes_round_trip_test, NULL, NULL, NULL},
};

int main(void)
{
    int failed = 0;
    failed += cmocka_run_group_tests_name("cli_parse_int", int_tests, NULL, NULL);
    failed += cmocka_run_group_tests_name("cli_parse_size", size_tests, NULL, NULL);
    failed += cmocka_run_group_tests_name("cli_parse_carveout", carveout_tests, NULL, NULL);
    failed += cmocka_run_group_tests_name("cli_parse_block", threads_tests, NULL, NULL);
    failed += cmocka_run_group_tests_name("group_digits", digits_tests, NULL, NULL);
    failed += cmocka_run_group_tests_name("cli_format_bytes", bytes_tests, NULL, NULL);
    failed += cmocka_run_group_tests_name("properties", misc_tests, NULL, NULL);
    return failed == 0 ? 0 : 1;
}
