/*
 * prof_ncu.h - the Nsight Compute reader and check inside libocc-profile:
 * what the reader's files share and do not export. The public names are
 * include/occ_profile.h's (occ_profile_ncu_*).
 */
#ifndef OCC_PROF_NCU_H
#define OCC_PROF_NCU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "group_digits.h"
#include "occ_profile.h"

/* occ_profile.h declares it only where <stdio.h> came first, which the
   shared build's -include of public_api_visibility.h does not do: exported
   here by hand. */
__attribute__((visibility("default"))) occ_status
occ_profile_ncu_open_stream(FILE *in, const char *name, occ_profile_ncu_reader **out,
                            occ_profile_error *err);

/* The unit family of a field: what its unit may be and what occ converts to. */
typedef enum ncu_kind {
    NCU_KIND_COUNT,   /* blocks, registers, warps, threads: any unit, no scale */
    NCU_KIND_BYTES,   /* byte, Kbyte, Mbyte, Gbyte (1000-based), optionally "/block" */
    NCU_KIND_PERCENT, /* % */
    NCU_KIND_TIME     /* ns, us, ms, s (also nsecond, usecond, msecond, second): to us */
} ncu_kind;

/* How a field is found: its raw-page column, its details-page metric (NULL
   where the details page has none), its kind, whether a launch without it
   is refused, the units a count may carry besides none ("register/thread",
   '|' between several), and what it is, in messages. */
typedef struct ncu_field_info {
    const char *raw_column;
    const char *details_metric;
    ncu_kind kind;
    bool required;
    const char *count_units;
    const char *noun;
} ncu_field_info;

const ncu_field_info *ncu_field_at(occ_profile_ncu_field field);

/* The factor to occ's unit of a field's unit text ("Kbyte/block": 1000);
   false (with the reason in err, no file or line) when the unit is not one
   of the field's ("furlong" for registers, "Kbits" for a size). */
bool ncu_unit_scale(const ncu_field_info *field, const char *unit, double *scale,
                    occ_profile_error *err);

/* Fills err with OCC_ERR_BAD_FORMAT (or `status`) and the message as it is
   formatted (it names the file and line itself), one line: control
   characters shown as \xNN (message_visible, values/message_fit.h). Returns false. */
bool ncu_fail(occ_profile_error *err, const char *format, ...)
    __attribute__((format(printf, 2, 3)));
bool ncu_fail_status(occ_profile_error *err, occ_status status, const char *format, ...)
    __attribute__((format(printf, 3, 4)));
/* Puts text in front of err's message; returns false. */
bool ncu_fail_prefix(occ_profile_error *err, const char *format, ...)
    __attribute__((format(printf, 2, 3)));

#endif /* OCC_PROF_NCU_H */
