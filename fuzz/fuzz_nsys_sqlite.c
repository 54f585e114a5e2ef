/*
 * fuzz_nsys_sqlite.c - fuzzes the Nsight Systems SQLite export reader,
 * profile/formats/nsys_sqlite.c. SQLite itself is fuzzed elsewhere; what is fuzzed here is
 * occ's handling of what a database holds: the tables and columns it has or lacks, values
 * of the wrong type (TEXT, REAL, BLOB where integers belong), NULLs, numbers out of range,
 * names as StringIds ids, dangling or not, or as text.
 *
 * Seeds (corpus/nsys_sqlite/): databases written by occ_profile_convert_cupti from records
 * cut from tests/data/profile-h200/cupti-gemm.tsv.gz (and variants: clusters, a carveout
 * request, two devices), then edited with sqlite3 (columns dropped, values of the wrong
 * type) and vacuumed with 512-byte pages, so each is a few KB; and the hostile inputs of
 * tests/data/hostile/profile/ (hostile-*). README.md there says how each was made.
 */
#define FUZZ_READER prof_read_nsys_sqlite
#define FUZZ_FORMAT OCC_PROFILE_FORMAT_NSYS_SQLITE
#define FUZZ_SUFFIX ".sqlite"
#include "fuzz_profile_reader.h"
