/*
 * regs_caps.h - inside the regret analysis (regs_regret.c): one kernel's
 * records gathered into its caps, with rounds and code groups applied
 * (regs_caps.c). Not for the CLI: it includes regs_regret.h.
 */
#ifndef OCC_LAB_REGS_CAPS_H
#define OCC_LAB_REGS_CAPS_H

#include "regs_regret.h"

/* Fills row->caps, cap_count, codes and max_rounds from the kernel's
   records. OCC_ERR_INVALID_ARGUMENT (err names the kernel and the cap) for
   a cap outside 0..255; OCC_ERR_OUT_OF_MEMORY. */
occ_status lab_regs_caps_collect(const lab_regs_kernel *kernel, const lab_regs_options *options,
                                 lab_regs_row *row, occ_error *err);

/* The median of n values (sorted in place); 0 for n = 0. */
double lab_regs_median(double *values, int n);

#endif /* OCC_LAB_REGS_CAPS_H */
