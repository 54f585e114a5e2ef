/*
 * fuzz_setmaxnreg.c - fuzzes the setmaxnreg checks (inspect/regs/setmaxnreg.c and
 * setmaxnreg_ptx.c): the input is read as the PTX of an entry "k" and as ptxas's log
 * of its compile, with the block from the PTX and with 512 threads given, and as a
 * cubin holding k's code. A refusal must be one line; a result must keep its bounds
 * and write its JSON object.
 */
#include "fuzz_inspect.h"
#include "setmaxnreg.h"

static void check_error(occ_status status, const occ_inspect_error *err)
{
    if (status != OCC_OK && (err->message[0] == '\0' || strchr(err->message, '\n') != NULL)) {
        fprintf(stderr, "a refusal without one line: '%s'\n", err->message);
        abort();
    }
}

static void check_result(const insp_setmaxnreg *r)
{
    if (!r->present) {
        return;
    }
    if (r->region_count < 1 || r->region_count > INSP_SMR_MAX_REGIONS || r->warp_group_count < 0 ||
        r->warp_group_count > INSP_SMR_MAX_WARP_GROUPS || r->message_count < 0 ||
        r->message_count > INSP_SMR_MAX_MESSAGES ||
        (r->fits == INSP_SMR_YES && r->budget_regs > r->regs_per_sm)) {
        fprintf(stderr, "a result out of its bounds\n");
        abort();
    }
    for (int i = 0; i < r->region_count; i++) {
        int regs = r->regions[i].regs_per_thread;
        if (r->regions[i].action != INSP_SMR_AT_ENTRY &&
            (regs < INSP_SMR_MIN_REGS || regs > INSP_SMR_MAX_REGS || regs % 8 != 0)) {
            fprintf(stderr, "a region with a count setmaxnreg refuses: %d\n", regs);
            abort();
        }
    }
    char *json = insp_setmaxnreg_json_string(r);
    if (json == NULL) {
        abort();
    }
    free(json);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint8_t *copy = fuzz_copy(data, size);
    const char *text = (const char *)copy;
    insp_setmaxnreg *r = malloc(sizeof *r);
    if (r == NULL) {
        abort();
    }
    occ_inspect_error err;
    for (int threads = 0; threads <= 512; threads += 512) {
        memset(&err, 0, sizeof err);
        occ_status st = insp_setmaxnreg_analyse(text, size, "k", text, size, NULL, 0, 168, threads,
                                                2, NULL, r, &err);
        check_error(st, &err);
        if (st == OCC_OK) {
            check_result(r);
        }
    }
    int found = -2;
    insp_smr_sass list[4];
    memset(&err, 0, sizeof err);
    occ_status st = insp_setmaxnreg_sass_count(copy, size, "k", &found, list, 4, &err);
    check_error(st, &err);
    if (st == OCC_OK && found < -1) {
        abort();
    }
    free(r);
    free(copy);
    return 0;
}
