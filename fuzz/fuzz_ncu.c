/*
 * fuzz_ncu.c - fuzzes libocc-profile's Nsight Compute reader, check and gap
 * model (occ_profile_ncu_*, the code under `occ ncu`): the input is read as
 * an export from a stream (fmemopen), page detected, every launch checked
 * with libocc on the export's GPU and its gap computed. It must return a
 * status and a one-line message and never crash, whatever the CSV holds.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "occ_profile.h"

/* A status the reader may return, with a message. */
static void check_error(occ_status st, const occ_profile_error *err)
{
    if (st != OCC_ERR_BAD_FORMAT && st != OCC_ERR_OUT_OF_MEMORY && st != OCC_ERR_IO) {
        fprintf(stderr, "fuzz_ncu: status %d\n", (int)st);
        abort();
    }
    if (err->message[0] == '\0' || strchr(err->message, '\n') != NULL) {
        fprintf(stderr, "fuzz_ncu: message '%s'\n", err->message);
        abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
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
    occ_profile_error err;
    occ_profile_ncu_reader *r;
    occ_status st = occ_profile_ncu_open_stream(in, "<fuzz>", &r, &err);
    if (st != OCC_OK) {
        check_error(st, &err);
    } else {
        occ_profile_ncu_gpu gpu;
        memset(&gpu, 0, sizeof gpu);
        (void)occ_profile_ncu_page_of(r);
        (void)occ_profile_ncu_skipped_lines(r);
        for (;;) {
            occ_profile_ncu_launch l;
            bool done;
            st = occ_profile_ncu_next(r, &l, &done, &err);
            if (st != OCC_OK) {
                check_error(st, &err);
                break;
            }
            if (done) {
                break;
            }
            occ_profile_ncu_check c;
            st = occ_profile_ncu_check_launch(&l, &gpu, "<fuzz>", &c, &err);
            if (st != OCC_OK) {
                check_error(st, &err);
                break;
            }
            /* a launch the check accepted is one the gap model takes */
            occ_gap_result g;
            if (occ_profile_ncu_gap_compute(&l, &c, &g, &err) != OCC_OK) {
                abort();
            }
            (void)occ_gap_cause_name(g.cause);
        }
        occ_profile_ncu_free(r);
    }
    fclose(in);
    free(copy);
    return 0;
}
