/*
 * fuzz_ncu.c - fuzzes `occ ncu -`: the input is the command's stdin (through fmemopen),
 * read as an Nsight Compute export, page detected, every launch checked with libocc and
 * printed, as text and as JSON, to /dev/null. It must return an exit code and never
 * crash, whatever the CSV holds.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "fuzz.h"

static void run(const uint8_t *data, size_t size, FILE *sink, bool json)
{
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
        perror("fuzz_ncu: fmemopen");
        abort();
    }
    const cli_io io = {in, sink, sink};
    char a0[] = "ncu", a1[] = "--top", a2[] = "3", a3[] = "--json", a4[] = "-";
    char *with_json[] = {a0, a1, a2, a3, a4, NULL};
    char *as_text[] = {a0, a1, a2, a4, NULL};
    int code = json ? cmd_ncu(5, with_json, &io) : cmd_ncu(4, as_text, &io);
    if (code != EXIT_OK && code != EXIT_DATA) {
        fprintf(stderr, "fuzz_ncu: exit code %d\n", code);
        abort();
    }
    fclose(in);
    free(copy);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static FILE *sink;
    if (sink == NULL) {
        sink = fopen("/dev/null", "w");
        if (sink == NULL) {
            perror("fuzz_ncu: /dev/null");
            abort();
        }
    }
    run(data, size, sink, false);
    run(data, size, sink, true);
    return 0;
}
