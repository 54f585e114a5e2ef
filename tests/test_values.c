/*
 * test_values.c - values/value_parse.h, the parsers the CLI, the launch table
 * and occ diff's gate share: what each takes, where its limits are, and the
 * exact words of each refusal (the CLI's and the table's messages are these
 * words behind a name).
 *
 * Every case is its own cmocka test named by a stable id ("size-3"), so a
 * failure names the input at fault and the other cases still run. Ids are
 * never renumbered: new cases take the next free number of their family.
 */
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "message_fit.h"
#include "value_parse.h"

/* Written into out-parameters before a call, to see whether a refusal
   touched them. */
#define UNTOUCHED (-424242LL)

/* The refusal's words, or NULL where the value is taken. */
static void check_why(bool ok, const char *why, const char *want)
{
    if (want == NULL) {
        if (!ok) {
            fail_msg("refused: %s", why);
        }
        return;
    }
    assert_false(ok);
    assert_string_equal(why, want);
}

/* ------------------------------------------------------------------------ */
/* value_parse_int                                                          */
/* ------------------------------------------------------------------------ */

typedef struct int_case {
    const char *text;
    long long lo, hi;
    const char *want; /* the refusal, or NULL */
    long long value;  /* when taken */
} int_case;

static void int_test(void **state)
{
    const int_case *c = *state;
    long long got = UNTOUCHED;
    char why[VALUE_WHY_BYTES] = "";
    bool ok = value_parse_int(c->text, c->lo, c->hi, &got, why);
    check_why(ok, why, c->want);
    assert_int_equal(got, c->want == NULL ? c->value : UNTOUCHED);
}

#define INT_CASE(id, text, lo, hi, want, value)                                                    \
    {                                                                                              \
        id, int_test, NULL, NULL, &(int_case)                                                      \
        {                                                                                          \
            text, lo, hi, want, value                                                              \
        }                                                                                          \
    }

static const struct CMUnitTest int_tests[] = {
    INT_CASE("int-1", "256", 1, 1024, NULL, 256),
    INT_CASE("int-2", "-1", -1, 100, NULL, -1),
    INT_CASE("int-3", "+7", 0, 10, NULL, 7),
    INT_CASE("int-4", "0", 1, 1024, "'0' is below the minimum, 1", 0),
    INT_CASE("int-5", "1025", 1, 1024, "'1025' is above the maximum, 1024", 0),
    INT_CASE("int-6", "9223372036854775807", LLONG_MIN, LLONG_MAX, NULL, LLONG_MAX),
    INT_CASE("int-7", "-9223372036854775808", LLONG_MIN, LLONG_MAX, NULL, LLONG_MIN),
    INT_CASE("int-8", "9223372036854775808", LLONG_MIN, LLONG_MAX,
             "'9223372036854775808' is above the maximum, 9223372036854775807", 0),
    INT_CASE("int-9", "-9223372036854775809", LLONG_MIN, LLONG_MAX,
             "'-9223372036854775809' is below the minimum, -9223372036854775808", 0),
    INT_CASE("int-10", "99999999999999999999999", 0, 255,
             "'99999999999999999999999' is above the maximum, 255", 0),
    INT_CASE("int-11", "", 0, 10, "'' is not a whole number", 0),
    INT_CASE("int-12", "12a", 0, 100, "'12a' is not a whole number", 0),
    INT_CASE("int-13", " 12", 0, 100, "' 12' is not a whole number", 0),
    INT_CASE("int-14", "-", 0, 100, "'-' is not a whole number", 0),
    INT_CASE("int-15", "0x10", 0, 100, "'0x10' is not a whole number", 0),
    INT_CASE("int-16", "1.0", 0, 100, "'1.0' is not a whole number", 0),
    /* a value is quoted to 40 bytes at most */
    INT_CASE("int-17", "12345678901234567890123456789012345678901234567890x", 0, 100,
             "'1234567890123456789012345678901234567890' is not a whole number", 0),
    INT_CASE("int-18", "-0", 0, 0, NULL, 0),
};

/* ------------------------------------------------------------------------ */
/* value_parse_double and value_parse_decimal                               */
/* ------------------------------------------------------------------------ */

typedef struct real_case {
    bool decimal; /* value_parse_decimal, else value_parse_double */
    const char *text;
    double lo, hi;
    const char *want;
    double value;
} real_case;

static void real_test(void **state)
{
    const real_case *c = *state;
    double got = (double)UNTOUCHED;
    char why[VALUE_WHY_BYTES] = "";
    bool ok = c->decimal ? value_parse_decimal(c->text, c->lo, c->hi, &got, why)
                         : value_parse_double(c->text, c->lo, c->hi, &got, why);
    check_why(ok, why, c->want);
    if (c->want == NULL) {
        assert_true(got == c->value);
    } else {
        assert_true(got == (double)UNTOUCHED);
    }
}

#define REAL_CASE(id, decimal, text, lo, hi, want, value)                                          \
    {                                                                                              \
        id, real_test, NULL, NULL, &(real_case)                                                    \
        {                                                                                          \
            decimal, text, lo, hi, want, value                                                     \
        }                                                                                          \
    }

static const struct CMUnitTest real_tests[] = {
    REAL_CASE("double-1", false, "0.5", 0, 1, NULL, 0.5),
    REAL_CASE("double-2", false, "1e3", 0, 1e6, NULL, 1000),
    REAL_CASE("double-3", false, "-2.5", -10, 10, NULL, -2.5),
    REAL_CASE("double-4", false, ".5", 0, 1, NULL, 0.5),
    REAL_CASE("double-5", false, "inf", 0, 1e300, "'inf' is not a number", 0),
    REAL_CASE("double-6", false, "nan", 0, 1, "'nan' is not a number", 0),
    REAL_CASE("double-7", false, "0x10", 0, 100, "'0x10' is not a number", 0),
    REAL_CASE("double-8", false, " 1", 0, 100, "' 1' is not a number", 0),
    REAL_CASE("double-9", false, "2", 0, 1, "'2' is above the maximum, 1", 0),
    REAL_CASE("double-10", false, "-1", 0, 1, "'-1' is below the minimum, 0", 0),
    REAL_CASE("double-11", false, "1e999", 0, 1e300, "'1e999' is not a number", 0),
    REAL_CASE("double-12", false, "1e", 0, 10, "'1e' is not a number", 0),
    REAL_CASE("double-13", false, "", 0, 10, "'' is not a number", 0),
    REAL_CASE("decimal-1", true, "12.5", 0, 100, NULL, 12.5),
    REAL_CASE("decimal-2", true, "5.", 0, 100, NULL, 5),
    REAL_CASE("decimal-3", true, ".5", 0, 100, NULL, 0.5),
    REAL_CASE("decimal-4", true, "100", 0, 100, NULL, 100),
    REAL_CASE("decimal-5", true, "100.5", 0, 100, "'100.5' is above the maximum, 100", 0),
    REAL_CASE("decimal-6", true, "1e1", 0, 100, "'1e1' is not a decimal number such as 12.5", 0),
    REAL_CASE("decimal-7", true, "-1", 0, 100, "'-1' is not a decimal number such as 12.5", 0),
    REAL_CASE("decimal-8", true, "1.2.3", 0, 100, "'1.2.3' is not a decimal number such as 12.5",
              0),
    REAL_CASE("decimal-9", true, ".", 0, 100, "'.' is not a decimal number such as 12.5", 0),
    REAL_CASE("decimal-10", true, "", 0, 100, "'' is not a decimal number such as 12.5", 0),
    REAL_CASE("decimal-11", true, "+5", 0, 100, "'+5' is not a decimal number such as 12.5", 0),
    REAL_CASE("decimal-12", true, "0.5", 1, 100, "'0.5' is below the minimum, 1", 0),
};

/* ------------------------------------------------------------------------ */
/* value_parse_size                                                         */
/* ------------------------------------------------------------------------ */

typedef struct size_case {
    const char *text;
    long long max_bytes;
    const char *want;
    long long value;
} size_case;

static void size_test(void **state)
{
    const size_case *c = *state;
    long long got = UNTOUCHED;
    char why[VALUE_WHY_BYTES] = "";
    bool ok = value_parse_size(c->text, c->max_bytes, &got, why);
    check_why(ok, why, c->want);
    assert_int_equal(got, c->want == NULL ? c->value : UNTOUCHED);
}

#define SIZE_CASE(id, text, max_bytes, want, value)                                                \
    {                                                                                              \
        id, size_test, NULL, NULL, &(size_case)                                                    \
        {                                                                                          \
            text, max_bytes, want, value                                                           \
        }                                                                                          \
    }
#define INT_SIZES VALUE_SIZE_INT_MAX

static const struct CMUnitTest size_tests[] = {
    SIZE_CASE("size-1", "1024", INT_SIZES, NULL, 1024),
    SIZE_CASE("size-2", "48K", INT_SIZES, NULL, 49152),
    SIZE_CASE("size-3", "48kb", INT_SIZES, NULL, 49152),
    SIZE_CASE("size-4", "48KiB", INT_SIZES, NULL, 49152),
    SIZE_CASE("size-5", "1.5KiB", INT_SIZES, NULL, 1536),
    SIZE_CASE("size-6", "2M", INT_SIZES, NULL, 2097152),
    SIZE_CASE("size-7", "2mib", INT_SIZES, NULL, 2097152),
    SIZE_CASE("size-8", "7b", INT_SIZES, NULL, 7),
    SIZE_CASE("size-9", "0", INT_SIZES, NULL, 0),
    SIZE_CASE("size-10", "2147483647", INT_SIZES, NULL, 2147483647),
    SIZE_CASE("size-11", "2147483648", INT_SIZES,
              "'2147483648' is above the maximum, 2147483647 bytes", 0),
    SIZE_CASE("size-12", "4096M", INT_SIZES, "'4096M' is above the maximum, 2147483647 bytes", 0),
    SIZE_CASE("size-13", "2048M", INT_SIZES, "'2048M' is above the maximum, 2147483647 bytes", 0),
    SIZE_CASE("size-14", "99999999999999999999999", INT_SIZES,
              "'99999999999999999999999' is above the maximum, 2147483647 bytes", 0),
    SIZE_CASE("size-15", "1.5", INT_SIZES, "'1.5' is not a whole number of bytes", 0),
    SIZE_CASE("size-16", "1.0000001K", INT_SIZES,
              "'1.0000001K' has more than 6 decimals; sizes are whole bytes", 0),
    SIZE_CASE("size-17", "lots", INT_SIZES,
              "'lots' is not a size in bytes such as 4096, 48K or 1.5KiB", 0),
    SIZE_CASE("size-18", "", INT_SIZES, "'' is not a size in bytes such as 4096, 48K or 1.5KiB", 0),
    SIZE_CASE("size-19", "K", INT_SIZES, "'K' is not a size in bytes such as 4096, 48K or 1.5KiB",
              0),
    SIZE_CASE("size-20", "3G", INT_SIZES, "'3G' is not a size in bytes such as 4096, 48K or 1.5KiB",
              0),
    SIZE_CASE("size-21", "-1", INT_SIZES, "'-1' is not a size in bytes such as 4096, 48K or 1.5KiB",
              0),
    SIZE_CASE("size-22", "48 K", INT_SIZES,
              "'48 K' is not a size in bytes such as 4096, 48K or 1.5KiB", 0),
    /* occ diff's thresholds go to 1 TiB */
    SIZE_CASE("size-23", "1048576M", 1LL << 40, NULL, 1LL << 40),
    SIZE_CASE("size-24", "1048577M", 1LL << 40,
              "'1048577M' is above the maximum, 1099511627776 bytes", 0),
    SIZE_CASE("size-25", "1", 0, "'1' is above the maximum, 0 bytes", 0),
    SIZE_CASE("size-26", "0K", 0, NULL, 0),
    /* a max_bytes past VALUE_SIZE_LIMIT_MAX is held to it: no overflow */
    SIZE_CASE("size-27", "4398046511104", LLONG_MAX, NULL, 4398046511104LL),
    SIZE_CASE("size-28", "4398046511105", LLONG_MAX,
              "'4398046511105' is above the maximum, 4398046511104 bytes", 0),
    SIZE_CASE("size-29", "4194304M", LLONG_MAX, NULL, 4398046511104LL),
    SIZE_CASE("size-30", "4194305M", LLONG_MAX,
              "'4194305M' is above the maximum, 4398046511104 bytes", 0),
    SIZE_CASE("size-31", "2047.999999M", INT_SIZES, "'2047.999999M' is not a whole number of bytes",
              0),
    SIZE_CASE("size-32", "0.5K", INT_SIZES, NULL, 512),
};

/* ------------------------------------------------------------------------ */
/* value_parse_shape and value_parse_block                                  */
/* ------------------------------------------------------------------------ */

typedef struct shape_case {
    const value_shape *shape;
    const char *text;
    const char *want;
    long long dims[3];
} shape_case;

static void shape_test(void **state)
{
    const shape_case *c = *state;
    long long got[3] = {UNTOUCHED, UNTOUCHED, UNTOUCHED};
    char why[VALUE_WHY_BYTES] = "";
    bool ok = value_parse_shape(c->text, c->shape, got, why);
    check_why(ok, why, c->want);
    for (int d = 0; d < 3; d++) {
        assert_int_equal(got[d], c->want == NULL ? c->dims[d] : UNTOUCHED);
    }
    if (c->shape == &value_block_shape) {
        /* value_parse_block: the same answer, into ints */
        int dims[3] = {-1, -1, -1};
        char block_why[VALUE_WHY_BYTES] = "";
        ok = value_parse_block(c->text, dims, block_why);
        check_why(ok, block_why, c->want);
        for (int d = 0; d < 3; d++) {
            assert_int_equal(dims[d], c->want == NULL ? c->dims[d] : -1);
        }
    }
}

#define SHAPE_CASE(id, shape, text, want, x, y, z)                                                 \
    {                                                                                              \
        id, shape_test, NULL, NULL, &(shape_case)                                                  \
        {                                                                                          \
            shape, text, want,                                                                     \
            {                                                                                      \
                x, y, z                                                                            \
            }                                                                                      \
        }                                                                                          \
    }
#define BLOCK (&value_block_shape)
#define GRID (&value_grid_shape)

static const struct CMUnitTest shape_tests[] = {
    SHAPE_CASE("shape-1", BLOCK, "256", NULL, 256, 1, 1),
    SHAPE_CASE("shape-2", BLOCK, "16x16", NULL, 16, 16, 1),
    SHAPE_CASE("shape-3", BLOCK, "8X8x4", NULL, 8, 8, 4),
    SHAPE_CASE("shape-4", BLOCK, "1024x1024x1024", NULL, 1024, 1024, 1024),
    SHAPE_CASE("shape-5", BLOCK, "2048", "'2048' is above the maximum, 1024", 0, 0, 0),
    SHAPE_CASE("shape-6", BLOCK, "16x0", "'16x0': dimension '0' is below the minimum, 1", 0, 0, 0),
    SHAPE_CASE("shape-7", BLOCK, "2x2x2x2",
               "'2x2x2x2' is not a block size such as 256, 16x16 or 8x8x4", 0, 0, 0),
    SHAPE_CASE("shape-8", BLOCK, "16x", "'16x' is not a block size such as 256, 16x16 or 8x8x4", 0,
               0, 0),
    SHAPE_CASE("shape-9", BLOCK, "x16", "'x16' is not a block size such as 256, 16x16 or 8x8x4", 0,
               0, 0),
    SHAPE_CASE("shape-10", BLOCK, "", "'' is not a block size such as 256, 16x16 or 8x8x4", 0, 0,
               0),
    SHAPE_CASE("shape-11", BLOCK, "16xa", "'16xa': dimension 'a' is not a whole number", 0, 0, 0),
    /* a dimension of 24 bytes or more is no dimension at all */
    SHAPE_CASE("shape-12", BLOCK, "1x123456789012345678901234",
               "'1x123456789012345678901234' is not a block size such as 256, 16x16 or 8x8x4", 0, 0,
               0),
    SHAPE_CASE("shape-13", BLOCK, "0", "'0' is below the minimum, 1", 0, 0, 0),
    SHAPE_CASE("shape-14", BLOCK, "-16", "'-16' is below the minimum, 1", 0, 0, 0),
    SHAPE_CASE("grid-1", GRID, "2147483647x65535x65535", NULL, 2147483647LL, 65535, 65535),
    SHAPE_CASE("grid-2", GRID, "132x8", NULL, 132, 8, 1),
    SHAPE_CASE("grid-3", GRID, "1x65536",
               "'1x65536': dimension '65536' is above the maximum, 65535", 0, 0, 0),
    SHAPE_CASE("grid-4", GRID, "2147483648", "'2147483648' is above the maximum, 2147483647", 0, 0,
               0),
    SHAPE_CASE("grid-5", GRID, "2x2x2x2", "'2x2x2x2' is not a grid such as 1056, 132x8 or 66x4x4",
               0, 0, 0),
    SHAPE_CASE("grid-6", GRID, "1x1x65536",
               "'1x1x65536': dimension '65536' is above the maximum, 65535", 0, 0, 0),
};

/* ------------------------------------------------------------------------ */
/* value_edit_distance                                                      */
/* ------------------------------------------------------------------------ */

typedef struct distance_case {
    const char *a, *b;
    int distance;
} distance_case;

static void distance_test(void **state)
{
    const distance_case *c = *state;
    assert_int_equal(value_edit_distance(c->a, c->b), c->distance);
    assert_int_equal(value_edit_distance(c->b, c->a), c->distance); /* symmetric */
}

#define DISTANCE_CASE(id, a, b, distance)                                                          \
    {                                                                                              \
        id, distance_test, NULL, NULL, &(distance_case)                                            \
        {                                                                                          \
            a, b, distance                                                                         \
        }                                                                                          \
    }
#define A63 "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"

static const struct CMUnitTest distance_tests[] = {
    DISTANCE_CASE("distance-1", "regs", "regs", 0),
    DISTANCE_CASE("distance-2", "calc", "clac", 2),
    DISTANCE_CASE("distance-3", "", "abc", 3),
    DISTANCE_CASE("distance-4", "ocupancy", "occupancy", 1),
    DISTANCE_CASE("distance-5", "kitten", "sitting", 3),
    DISTANCE_CASE("distance-6", "smem", "stack", 4),
    /* only the first 63 bytes count: words that differ after them are equal */
    DISTANCE_CASE("distance-7", A63 "b", A63 "cdef", 0),
    DISTANCE_CASE("distance-8", A63, "b" A63, 1),
};

/* ------------------------------------------------------------------------ */
/* every parser                                                             */
/* ------------------------------------------------------------------------ */

/* A NULL why: refused all the same, in no words. */
static void null_why_test(void **state)
{
    (void)state;
    long long n = UNTOUCHED;
    double d = 0;
    long long dims[3];
    int block[3];
    assert_false(value_parse_int("x", 0, 1, &n, NULL));
    assert_false(value_parse_double("x", 0, 1, &d, NULL));
    assert_false(value_parse_decimal("x", 0, 1, &d, NULL));
    assert_false(value_parse_size("x", VALUE_SIZE_INT_MAX, &n, NULL));
    assert_false(value_parse_shape("16x0", &value_block_shape, dims, NULL));
    assert_false(value_parse_block("0", block, NULL));
    assert_int_equal(n, UNTOUCHED);
    assert_true(value_parse_int("1", 0, 1, &n, NULL));
    assert_int_equal(n, 1);
}

/* A refusal is one line that fits VALUE_WHY_BYTES, whatever the value. */
static void why_fits_test(void **state)
{
    (void)state;
    char text[1000];
    memset(text, '7', sizeof text - 1);
    text[sizeof text - 1] = '\0';
    text[500] = 'x';
    long long n;
    double d;
    long long dims[3];
    char why[VALUE_WHY_BYTES + 8];
    memset(why, '#', sizeof why);
    assert_false(value_parse_shape(text, &value_grid_shape, dims, why));
    assert_true(strlen(why) < VALUE_WHY_BYTES);
    assert_int_equal(why[VALUE_WHY_BYTES], '#');
    assert_null(strchr(why, '\n'));
    assert_false(value_parse_int(text, 0, 1, &n, why));
    assert_true(strlen(why) < VALUE_WHY_BYTES);
    assert_false(value_parse_double(text, 0, 1, &d, why));
    assert_true(strlen(why) < VALUE_WHY_BYTES);
    assert_false(value_parse_size(text, VALUE_SIZE_INT_MAX, &n, why));
    assert_true(strlen(why) < VALUE_WHY_BYTES);
    /* the longest dimension refusal: a 40-byte quote and a 23-byte one */
    assert_false(value_parse_shape("1x1x-9999999999999999999999", &value_grid_shape, dims, why));
    assert_string_equal(why, "'1x1x-9999999999999999999999': dimension '-9999999999999999999999' "
                             "is below the minimum, 1");
}

/* value_nearest: the typo's nearest word, a word cut short, nothing near. */
static void nearest_test(void **state)
{
    (void)state;
    static const char *const words[] = {"threads", "regs", "smem", "dyn-smem", "dyn-smem-max"};
    assert_string_equal(value_nearest_word("thread", words, 5), "threads");
    assert_string_equal(value_nearest_word("rges", words, 5), "regs");
    assert_string_equal(value_nearest_word("dyn", words, 5), "dyn-smem"); /* first offered */
    assert_string_equal(value_nearest_word("dyn-smem-m", words, 5), "dyn-smem-max");
    assert_null(value_nearest_word("zzzzzzzz", words, 5));
    assert_null(value_nearest_word("sm", words, 0));
    assert_null(value_nearest_word("dy", words + 3, 2)); /* two bytes: not a word cut short */
    value_nearest nearest = value_nearest_start("smme");
    for (int i = 0; i < 5; i++) {
        value_nearest_offer(&nearest, words[i]);
    }
    assert_string_equal(nearest.word, "smem");
    assert_int_equal(nearest.distance, 2);
}

/* message_fit: a message that fits is vsnprintf's; a longer one keeps its
   start and its end, never splits a UTF-8 sequence, and fills the buffer. */
static void message_fit_test(void **state)
{
    (void)state;
    char out[64];
    message_fit(out, sizeof out, "%s: %d", "short", 7);
    assert_string_equal(out, "short: 7");
    char path[601];
    memset(path, 'p', 600);
    path[0] = '/';
    path[600] = '\0';
    char line[128];
    message_fit(line, sizeof line, "%s: cannot open: %s", path, "No such file or directory");
    assert_int_equal(strlen(line), sizeof line - 1);
    assert_true(line[0] == '/');
    assert_non_null(strstr(line, MESSAGE_FIT_ELISION));
    const char *end = "cannot open: No such file or directory";
    assert_string_equal(line + strlen(line) - strlen(end), end);
    /* "é" is two bytes: no cut leaves half of one */
    char accents[401] = "";
    for (int i = 0; i < 200; i++) {
        strcat(accents, "\xc3\xa9");
    }
    for (size_t size = 16; size <= sizeof out; size++) {
        message_fit(out, size, "x%s", accents);
        size_t len = strlen(out);
        assert_true(len <= size - 1 && len >= size - 3);
        const char *mark = strstr(out, MESSAGE_FIT_ELISION);
        assert_non_null(mark);
        size_t head = (size_t)(mark - out);
        assert_true(head % 2 == 1); /* "x" and whole sequences */
        assert_true((len - head - strlen(MESSAGE_FIT_ELISION)) % 2 == 0);
    }
    /* exactly full: no elision */
    char fits[64];
    memset(fits, 'a', 63);
    fits[63] = '\0';
    message_fit(out, sizeof out, "%s", fits);
    assert_string_equal(out, fits);
    message_fit(out, 63, "%s", fits);
    assert_non_null(strstr(out, MESSAGE_FIT_ELISION));
}

/* message_visible: control bytes as \xNN (an escape whole or not at all),
   quotes, commas and UTF-8 as they are; message_visible_copy says how much
   it used, so that pieces join into the whole. */
static void message_visible_test(void **state)
{
    (void)state;
    char buf[64];
    static const struct {
        const char *text, *want;
    } cases[] = {
        {"plain", "plain"},
        {"", ""},
        {"a\nb\rc\td", "a\\x0ab\\x0dc\\x09d"},
        {"\x1b[2J\a\x7f", "\\x1b[2J\\x07\\x7f"},
        {"\"q\",\\", "\"q\",\\"},
        {"caf\xc3\xa9 \xe2\x86\x92 \x80\xff", "caf\xc3\xa9 \xe2\x86\x92 \x80\xff"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        assert_string_equal(message_visible(cases[i].text, buf, sizeof buf), cases[i].want);
        assert_int_equal(message_visible_copy(cases[i].text, buf, sizeof buf),
                         strlen(cases[i].text));
    }
    /* truncation: every cap from 0 up, never past cap, never half an escape */
    const char *text = "ab\x01"
                       "cd\x02\x03"
                       "e";
    const char *whole = "ab\\x01cd\\x02\\x03e";
    for (size_t cap = 0; cap < 24; cap++) {
        char small[24];
        memset(small, '#', sizeof small);
        size_t used = message_visible_copy(text, small, cap);
        if (cap == 0) {
            assert_int_equal(used, 0);
            assert_true(small[0] == '#');
            continue;
        }
        size_t len = strlen(small);
        assert_true(len < cap);
        assert_memory_equal(small, whole, len); /* a prefix of the whole */
        char rest[64];
        message_visible(text + used, rest, sizeof rest);
        char joined[96];
        snprintf(joined, sizeof joined, "%s%s", small, rest);
        assert_string_equal(joined, whole);
    }
    /* the ascii form: quotes, backslashes and UTF-8 escaped, cut with "..." */
    assert_string_equal(message_visible_ascii("k\"e\\y\n\xc3\xa9", 8, 60, buf, sizeof buf),
                        "k\\x22e\\x5cy\\x0a\\xc3\\xa9");
    assert_string_equal(message_visible_ascii("abc,def", 3, 60, buf, sizeof buf), "abc");
    char longer[200];
    memset(longer, 'n', sizeof longer);
    message_visible_ascii(longer, sizeof longer, 20, buf, sizeof buf);
    assert_int_equal(strlen(buf), 21 + 3);
    assert_string_equal(buf + 21, "...");
    message_visible_ascii(longer, sizeof longer, 120, buf, sizeof buf);
    assert_true(strlen(buf) < sizeof buf);
    assert_string_equal(message_visible_ascii("x", 1, 60, buf, 0), buf);
}

static const struct CMUnitTest misc_tests[] = {
    {"message-fit-1", message_fit_test, NULL, NULL, NULL},
    {"message-visible-1", message_visible_test, NULL, NULL, NULL},
    {"nearest-1", nearest_test, NULL, NULL, NULL},
    {"null-why-1", null_why_test, NULL, NULL, NULL},
    {"why-fits-1", why_fits_test, NULL, NULL, NULL},
};

int main(void)
{
    int failed = 0;
    failed += cmocka_run_group_tests_name("value_parse_int", int_tests, NULL, NULL);
    failed += cmocka_run_group_tests_name("value_parse_double, _decimal", real_tests, NULL, NULL);
    failed += cmocka_run_group_tests_name("value_parse_size", size_tests, NULL, NULL);
    failed += cmocka_run_group_tests_name("value_parse_shape, _block", shape_tests, NULL, NULL);
    failed += cmocka_run_group_tests_name("value_edit_distance", distance_tests, NULL, NULL);
    failed += cmocka_run_group_tests_name("value_parse", misc_tests, NULL, NULL);
    return failed == 0 ? 0 : 1;
}
