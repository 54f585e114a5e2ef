/*
 * fuzz_nsys_csv.c - fuzzes the `nsys stats --report cuda_gpu_trace --format csv` reader,
 * profile/formats/nsys_csv.c: records with quotes, commas and newlines inside fields,
 * header units, numbers and the device column; gzip is read through, as in a .csv.gz.
 *
 * Seeds (corpus/nsys_csv/): gpu_trace.csv, kernels and copies of nsys's report as
 * tests/test_profile.c writes it, plain and gzipped, with CRLF line ends, quoted names
 * holding commas, quotes and newlines, other units; and the hostile inputs of
 * tests/data/hostile/profile/ (hostile-*); crash-field-newline-in-message, which found a
 * refusal of two lines (a quoted number across lines, quoted in the message).
 */
#define FUZZ_READER prof_read_nsys_csv
#define FUZZ_FORMAT OCC_PROFILE_FORMAT_NSYS_CSV
#define FUZZ_SUFFIX ".csv"
#include "fuzz_profile_reader.h"
