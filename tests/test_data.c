/*
 * test_data.c - see test_data.h.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "test_data.h"

#ifndef OCC_TEST_DATA_DIR
#error "OCC_TEST_DATA_DIR must name tests/data (tests/CMakeLists.txt defines it)"
#endif

const char *test_data_path(const char *relative)
{
    static char path[4096];
    int n = snprintf(path, sizeof path, "%s/%s", OCC_TEST_DATA_DIR, relative);
    assert_true(n > 0 && (size_t)n < sizeof path);
    return path;
}

FILE *test_data_open(const char *relative, const char *mode)
{
    const char *path = test_data_path(relative);
    FILE *f = fopen(path, mode);
    if (f == NULL) {
        fail_msg("test data %s: cannot open: %s", path, strerror(errno));
    }
    return f;
}
