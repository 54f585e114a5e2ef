/*
 * inspect_risk_print.h - `occ inspect --summary`'s section on kernels at
 * risk (libocc-inspect's occ_inspect_risk_of, include/occ_inspect.h).
 */
#ifndef OCC_CLI_INSPECT_RISK_PRINT_H
#define OCC_CLI_INSPECT_RISK_PRINT_H

#include <stdio.h>

#include "occ_inspect.h"

/* How many kernels carry each flag, then the first ten at risk in the
   result's order, with their flags. */
void inspect_print_risk(FILE *out, const occ_inspect_result *r, const occ_inspect_options *opts);

#endif /* OCC_CLI_INSPECT_RISK_PRINT_H */
