/*
 * cli_harness.c - see cli_harness.h.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cli.h"
#include "cli_harness.h"

cli_run last;

static char *slurp(FILE *f)
{
    assert_int_equal(fflush(f), 0);
    long size = ftell(f);
    assert_true(size >= 0);
    rewind(f);
    char *text = malloc((size_t)size + 1);
    assert_non_null(text);
    size_t got = fread(text, 1, (size_t)size, f);
    assert_int_equal(got, (size_t)size);
    text[got] = '\0';
    return text;
}

int run_cli(const char *input, const char *const *args)
{
    char *argv[32];
    int argc = 0;
    argv[argc++] = strdup("occ");
    for (; args[argc - 1] != NULL; argc++) {
        assert_true(argc < 31);
        argv[argc] = strdup(args[argc - 1]);
    }
    argv[argc] = NULL;
    FILE *in = tmpfile();
    FILE *out = tmpfile();
    FILE *err = tmpfile();
    assert_true(in != NULL && out != NULL && err != NULL);
    if (input != NULL) {
        fputs(input, in);
        rewind(in);
    }
    const cli_io io = {in, out, err};
    free(last.out);
    free(last.err);
    last.code = cli_main(argc, argv, &io);
    last.out = slurp(out);
    last.err = slurp(err);
    fclose(in);
    fclose(out);
    fclose(err);
    for (int i = 0; i < argc; i++) {
        free(argv[i]);
    }
    return last.code;
}

int line_count(const char *text)
{
    int n = 0;
    for (const char *p = text; *p != '\0'; p++) {
        n += *p == '\n';
    }
    return n;
}

/* Line `index` (0-based) of text, without its newline, into buf. */
const char *line_at(const char *text, int index, char *buf, size_t cap)
{
    const char *p = text;
    for (int i = 0; i < index; i++) {
        p = strchr(p, '\n');
        assert_non_null(p);
        p++;
    }
    size_t len = strcspn(p, "\n");
    assert_true(len < cap);
    memcpy(buf, p, len);
    buf[len] = '\0';
    return buf;
}

bool starts_with(const char *text, const char *prefix)
{
    return strncmp(text, prefix, strlen(prefix)) == 0;
}
