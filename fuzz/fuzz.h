/*
 * fuzz.h - the one entry point every fuzz target defines. libFuzzer calls it for each
 * input; replay.c calls it for each corpus file, so corpora run without libFuzzer.
 */
#ifndef OCC_FUZZ_H
#define OCC_FUZZ_H

#include <stddef.h>
#include <stdint.h>

/* Runs one input; returns 0. A bug shows as a crash, a sanitizer report or abort(). */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif /* OCC_FUZZ_H */
