/*
 * test_svg.c - the SVG writer: escaping, tick choice, and that a chart is a
 * well-formed document with its marker and labels.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "svg.h"

static char *written(FILE *f)
{
    static char buf[1 << 16];
    fflush(f);
    long n = ftell(f);
    assert_true(n >= 0 && (size_t)n < sizeof buf);
    rewind(f);
    size_t got = fread(buf, 1, (size_t)n, f);
    buf[got] = '\0';
    return buf;
}

static void escapes_markup(void **state)
{
    (void)state;
    FILE *f = tmpfile();
    assert_non_null(f);
    svg_escape(f, "a<b & \"c\" > 'd'");
    assert_string_equal(written(f), "a&lt;b &amp; &quot;c&quot; &gt; &apos;d&apos;");
    fclose(f);
}

static void ticks_are_nice(void **state)
{
    (void)state;
    double t[32];
    int n = chart_ticks(0, 64, 6, t, 32);
    assert_int_equal(n, 4); /* step 20: 0 20 40 60 */
    assert_true(t[0] == 0 && t[1] == 20 && t[3] == 60);
    n = chart_ticks(0, 256, 9, t, 32);
    assert_int_equal(n, 6); /* step 50 */
    assert_true(t[5] == 250);
    n = chart_ticks(0.5, 0.5, 6, t, 32); /* empty range: one tick */
    assert_int_equal(n, 1);
    n = chart_ticks(0, 1, 6, t, 2); /* the cap holds */
    assert_int_equal(n, 2);
}

static void chart_is_well_formed(void **state)
{
    (void)state;
    double xs[] = {0, 1, 2, 3}, ys[] = {8, 8, 4, 2};
    chart c = {.title = "T & <t>",
               .x_label = "x",
               .y_label = "y",
               .x_min = 0,
               .x_max = 3,
               .y_min = 0,
               .y_max = 8,
               .series_count = 1,
               .has_marker = true,
               .marker_x = 2,
               .marker_y = 4,
               .marker_label = "here"};
    c.series[0] = (chart_series){xs, ys, 4, "#123456", "s1", true, false};
    FILE *f = tmpfile();
    assert_non_null(f);
    chart_write_svg(&c, f);
    const char *doc = written(f);
    assert_non_null(strstr(doc, "<title>T &amp; &lt;t&gt;</title>"));
    assert_non_null(strstr(doc, ">here</text>"));
    assert_non_null(strstr(doc, "stroke=\"#123456\""));
    /* a staircase of 4 points has 7 vertices */
    const char *pl = strstr(doc, "<polyline");
    assert_non_null(pl);
    int commas = 0;
    for (const char *p = strstr(pl, "points=\""); *p != '"' || p == strstr(pl, "points=\"") + 7;
         p++) {
        commas += *p == ',';
    }
    assert_int_equal(commas, 7);
    assert_non_null(strstr(doc, "</svg>\n"));
    fclose(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(escapes_markup),
        cmocka_unit_test(ticks_are_nice),
        cmocka_unit_test(chart_is_well_formed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
