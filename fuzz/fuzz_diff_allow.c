/*
 * fuzz_diff_allow.c - fuzzes occ diff's --allow file reader
 * (occ_diff_allow_parse, include/occ_diff.h) on the input as the file's
 * text. A refusal must be a format or limit error of one line; a list
 * accepted holds rules each with a pattern, a reason and its line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "occ_diff.h"

static void check(bool ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "fuzz_diff_allow: invariant broken: %s\n", what);
        abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    occ_diff_allow_list list;
    memset(&list, 0, sizeof list);
    occ_inspect_error err;
    memset(&err, 0, sizeof err);
    occ_status s = occ_diff_allow_parse("<fuzz>", (const char *)data, size, &list, &err);
    if (s == OCC_OK) {
        check(list.count >= 0 && (list.count == 0 || list.rules != NULL), "rules");
        for (int i = 0; i < list.count; i++) {
            const occ_diff_allow_rule *r = &list.rules[i];
            check(r->pattern != NULL && r->reason != NULL && r->reason[0] != '\0',
                  "a rule has a pattern and a reason");
            check(r->line >= 1, "a rule has its line");
        }
    } else {
        check(s == OCC_ERR_BAD_FORMAT || s == OCC_ERR_LIMIT || s == OCC_ERR_OUT_OF_MEMORY,
              "a refusal is of the data");
        check(err.message[0] != '\0' && strchr(err.message, '\n') == NULL, "a refusal is one line");
    }
    occ_diff_allow_free(&list);
    return 0;
}
