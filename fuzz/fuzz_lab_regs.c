/*
 * fuzz_lab_regs.c - fuzzes what `occ lab regs` reads (cli/lab/): the input,
 * up to its first NUL byte, is read as occ-regs-bench's records
 * (lab_regs_records_read, through fmemopen), and what follows the NUL (or,
 * without one, the whole input) as occ regs's recommendations for those
 * records (lab_regs_recommended_parse); the records accepted are scored
 * (lab_regs_analyse), and the bytes are hashed as a cubin
 * (lab_regs_code_hash). A refusal must be one line and a data error;
 * whatever was accepted must score without a crash and within its limits.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "lab_regs_cubin.h"
#include "lab_regs_recommend.h"
#include "lab_regs_records.h"

static void check(bool ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "fuzz_lab_regs: invariant broken: %s\n", what);
        abort();
    }
}

static void check_refusal(const cli_error *err)
{
    check(err->code == EXIT_DATA, "a refusal is a data error");
    check(err->message[0] != '\0' && strchr(err->message, '\n') == NULL, "a refusal is one line");
}

/* The records scored, each choice's regret at or above 0 (or infinite). */
static void score(const lab_regs_data *d)
{
    lab_regs_kernel *k = calloc((size_t)d->kernel_count + 1, sizeof *k);
    check(k != NULL, "memory");
    for (int i = 0; i < d->kernel_count; i++) {
        const lab_regs_kernel_data *s = &d->kernels[i];
        k[i] = (lab_regs_kernel){s->name,
                                 s->records,
                                 s->count,
                                 s->has_recommendation,
                                 s->recommended_cap,
                                 s->has_candidates,
                                 s->candidates,
                                 s->candidate_count};
    }
    for (int group = 0; group < 2; group++) {
        lab_regs_options o = {LAB_REGS_MEDIAN_MS, group ? 0.0 : 1e-3, group == 1};
        lab_regs_analysis a;
        occ_error err;
        check(lab_regs_analyse(k, d->kernel_count, &o, &a, &err) == OCC_OK,
              "accepted records score");
        for (int i = 0; i < a.row_count; i++) {
            const lab_regs_row *r = &a.rows[i];
            check(r->cap_count >= 1 && r->cap_count <= LAB_REGS_CAP_SLOTS, "caps in range");
            const lab_regs_choice *c[] = {&r->best, &r->none, &r->occupancy, &r->recommended,
                                          &r->candidates};
            for (int j = 0; j < 5; j++) {
                check(!c[j]->present || c[j]->regret >= 0.0 || isinf(c[j]->regret),
                      "a regret is at or above 0");
                check(!c[j]->present || c[j]->has_ms == (c[j]->failure == NULL),
                      "a choice has a time or a failure");
            }
            check(!r->has_best || r->best.regret == 0.0, "the best has no regret");
        }
        lab_regs_analysis_free(&a);
    }
    free(k);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *copy = malloc(size + 1);
    check(copy != NULL, "memory");
    if (size > 0) {
        memcpy(copy, data, size);
    }
    copy[size] = '\0';
    const char *nul = size > 0 ? memchr(copy, '\0', size) : NULL;
    size_t records = nul != NULL ? (size_t)(nul - copy) : size;
    const char *doc = nul != NULL ? nul + 1 : copy;
    size_t doc_size = nul != NULL ? size - records - 1 : size;
    FILE *in = records > 0 ? fmemopen(copy, records, "r") : fopen("/dev/null", "r");
    check(in != NULL, "fmemopen");
    lab_regs_data d;
    lab_regs_data_init(&d);
    cli_error err = {0, ""};
    if (!lab_regs_records_read(in, "<fuzz>", &d, &err)) {
        check_refusal(&err);
    } else {
        err = (cli_error){0, ""};
        if (!lab_regs_recommended_parse(doc, doc_size, "<fuzz>", NULL, &d, &err)) {
            check_refusal(&err);
        }
        score(&d);
    }
    fclose(in);
    lab_regs_data_free(&d);
    (void)lab_regs_code_hash((const unsigned char *)copy, size);
    free(copy);
    return 0;
}
