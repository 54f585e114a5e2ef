/*
 * test_data.h - the files under tests/data/ that tests read. The directory is
 * compiled in (OCC_TEST_DATA_DIR), so a test finds its data from any working
 * directory; a file that is missing fails the test with its path, never skips.
 */
#ifndef OCC_TEST_DATA_H
#define OCC_TEST_DATA_H

#include <stdio.h>

/* OCC_TEST_DATA_DIR "/" relative, in a static buffer (one call at a time). */
const char *test_data_path(const char *relative);

/* Opens tests/data/<relative>; fails the running cmocka test naming the full
   path and the reason when it cannot. */
FILE *test_data_open(const char *relative, const char *mode);

#endif /* OCC_TEST_DATA_H */
