/*
 * fuzz_kineto.c - fuzzes the PyTorch profiler (Kineto) trace reader,
 * profile/formats/kineto_json.c: the structural scan of the whole text, the kernel events
 * read without yajl and those sent to yajl, the deviceProperties array, and gzip (an
 * input that is gzip data is read through it, as a .json.gz trace is).
 *
 * Seeds (corpus/kineto/): gemm*.json, cut from tests/data/profile-h200/kineto-gemm.json.gz
 * (its deviceProperties and the first events of each kind), plain and gzipped; the
 * bare-array form, escapes and two devices; the hostile inputs of tests/data/hostile/profile/
 * (hostile-*); crash-yajl-message-newline, which found a refusal of two lines.
 */
#define FUZZ_READER prof_read_kineto
#define FUZZ_FORMAT OCC_PROFILE_FORMAT_KINETO
#define FUZZ_SUFFIX ".json"
#include "fuzz_profile_reader.h"
