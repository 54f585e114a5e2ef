/*
 * fuzz_batch.c - fuzzes `occ calc --batch -`: calc_batch() reads the input as its stdin
 * (through fmemopen), writing rows and messages to /dev/null. It must return an exit code
 * and never crash, whatever the CSV holds.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calc_output.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static FILE *sink;
    if (sink == NULL) {
        sink = fopen("/dev/null", "w");
        if (sink == NULL) {
            perror("fuzz_batch: /dev/null");
            abort();
        }
    }
    /* A private copy: fmemopen wants a writable buffer, and ASan then sees its exact end.
       One spare byte because fmemopen refuses a zero size on some libcs. */
    char *copy = malloc(size + 1);
    if (copy == NULL) {
        abort();
    }
    if (size > 0) {
        memcpy(copy, data, size);
    }
    FILE *in = size > 0 ? fmemopen(copy, size, "r") : fopen("/dev/null", "r");
    if (in == NULL) {
        perror("fuzz_batch: fmemopen");
        abort();
    }
    const cli_io io = {in, sink, sink};
    int code = calc_batch("-", &io);
    if (code != EXIT_OK && code != EXIT_DATA) {
        fprintf(stderr, "fuzz_batch: exit code %d\n", code);
        abort();
    }
    fclose(in);
    free(copy);
    return 0;
}
