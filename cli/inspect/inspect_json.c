/*
 * inspect_json.c - `occ inspect --json` (schema occ.inspect, version 1, in
 * docs/inspect.md). libocc-inspect writes the document
 * (occ_inspect_json_write), with the kernel object its baselines use.
 */
#include "inspect_output.h"

void inspect_print_json(FILE *out, const occ_inspect_result *r, const inspect_args *a)
{
    /* a failed write stays on `out`, which commands.c checks after every
       command */
    (void)occ_inspect_json_write(r, &a->read, a->launch_set != NULL ? a->launch_set->list : NULL,
                                 out, NULL);
}
