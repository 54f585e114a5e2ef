/*
 * prof_ncu.h - the Nsight Compute reader and check inside libocc-profile:
 * the public names of include/occ_profile.h (occ_profile_ncu_*) under the
 * short ones the reader was written with (ncu_launch, NCU_REGS), and what
 * the reader's files share and do not export.
 */
#ifndef OCC_PROF_NCU_H
#define OCC_PROF_NCU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "occ_profile.h"

/* occ_profile.h declares it only where <stdio.h> came first, which the
   shared build's -include of public_api_visibility.h does not do: exported
   here by hand. */
__attribute__((visibility("default"))) occ_status
occ_profile_ncu_open_stream(FILE *in, const char *name, occ_profile_ncu_reader **out,
                            occ_profile_error *err);

#define NCU_ACHIEVED_PCT OCC_PROFILE_NCU_ACHIEVED_PCT
#define NCU_BARRIERS OCC_PROFILE_NCU_BARRIERS
#define NCU_BLOCK_SIZE OCC_PROFILE_NCU_BLOCK_SIZE
#define NCU_CAUSE_CLUSTERS OCC_PROFILE_NCU_CAUSE_CLUSTERS
#define NCU_CAUSE_IN_KERNEL OCC_PROFILE_NCU_CAUSE_IN_KERNEL
#define NCU_CAUSE_NONE OCC_PROFILE_NCU_CAUSE_NONE
#define NCU_CAUSE_NOT_MEASURED OCC_PROFILE_NCU_CAUSE_NOT_MEASURED
#define NCU_CAUSE_NO_GRID OCC_PROFILE_NCU_CAUSE_NO_GRID
#define NCU_CAUSE_SMALL_GRID OCC_PROFILE_NCU_CAUSE_SMALL_GRID
#define NCU_CAUSE_TAIL OCC_PROFILE_NCU_CAUSE_TAIL
#define NCU_CLUSTER_SIZE OCC_PROFILE_NCU_CLUSTER_SIZE
#define NCU_CLUSTER_X OCC_PROFILE_NCU_CLUSTER_X
#define NCU_CLUSTER_Y OCC_PROFILE_NCU_CLUSTER_Y
#define NCU_CLUSTER_Z OCC_PROFILE_NCU_CLUSTER_Z
#define NCU_DEVICE_NAME_BYTES OCC_PROFILE_NCU_DEVICE_NAME_BYTES
#define NCU_DRIVER_SMEM OCC_PROFILE_NCU_DRIVER_SMEM
#define NCU_DURATION OCC_PROFILE_NCU_DURATION
#define NCU_DYN_SMEM OCC_PROFILE_NCU_DYN_SMEM
#define NCU_FIELD_COUNT OCC_PROFILE_NCU_FIELD_COUNT
#define NCU_GRID_SIZE OCC_PROFILE_NCU_GRID_SIZE
#define NCU_LIMIT_BARRIERS OCC_PROFILE_NCU_LIMIT_BARRIERS
#define NCU_LIMIT_BLOCKS OCC_PROFILE_NCU_LIMIT_BLOCKS
#define NCU_LIMIT_COUNT OCC_PROFILE_NCU_LIMIT_COUNT
#define NCU_LIMIT_REGISTERS OCC_PROFILE_NCU_LIMIT_REGISTERS
#define NCU_LIMIT_SHARED_MEM OCC_PROFILE_NCU_LIMIT_SHARED_MEM
#define NCU_LIMIT_WARPS OCC_PROFILE_NCU_LIMIT_WARPS
#define NCU_MAX_ACTIVE_CLUSTERS OCC_PROFILE_NCU_MAX_ACTIVE_CLUSTERS
#define NCU_MAX_FIELDS OCC_PROFILE_NCU_MAX_FIELDS
#define NCU_MAX_RECORD_BYTES OCC_PROFILE_NCU_MAX_RECORD_BYTES
#define NCU_MAX_SKIPPED_BYTES OCC_PROFILE_NCU_MAX_SKIPPED_BYTES
#define NCU_MAX_SKIPPED_LINES OCC_PROFILE_NCU_MAX_SKIPPED_LINES
#define NCU_MAX_SM_COUNT OCC_PROFILE_NCU_MAX_SM_COUNT
#define NCU_MISMATCH_BARRIERS OCC_PROFILE_NCU_MISMATCH_BARRIERS
#define NCU_MISMATCH_BLOCKS OCC_PROFILE_NCU_MISMATCH_BLOCKS
#define NCU_MISMATCH_CLUSTERS OCC_PROFILE_NCU_MISMATCH_CLUSTERS
#define NCU_MISMATCH_DRIVER_SMEM OCC_PROFILE_NCU_MISMATCH_DRIVER_SMEM
#define NCU_MISMATCH_KINDS OCC_PROFILE_NCU_MISMATCH_KINDS
#define NCU_MISMATCH_REGISTERS OCC_PROFILE_NCU_MISMATCH_REGISTERS
#define NCU_MISMATCH_SHARED_MEM OCC_PROFILE_NCU_MISMATCH_SHARED_MEM
#define NCU_MISMATCH_SMEM_CONFIG OCC_PROFILE_NCU_MISMATCH_SMEM_CONFIG
#define NCU_MISMATCH_THEORETICAL OCC_PROFILE_NCU_MISMATCH_THEORETICAL
#define NCU_MISMATCH_WARPS OCC_PROFILE_NCU_MISMATCH_WARPS
#define NCU_MISMATCH_WAVES OCC_PROFILE_NCU_MISMATCH_WAVES
#define NCU_PAGE_DETAILS OCC_PROFILE_NCU_PAGE_DETAILS
#define NCU_PAGE_RAW OCC_PROFILE_NCU_PAGE_RAW
#define NCU_REGS OCC_PROFILE_NCU_REGS
#define NCU_SMEM_CONFIG OCC_PROFILE_NCU_SMEM_CONFIG
#define NCU_SM_COUNT OCC_PROFILE_NCU_SM_COUNT
#define NCU_STATIC_SMEM OCC_PROFILE_NCU_STATIC_SMEM
#define NCU_THEORETICAL_PCT OCC_PROFILE_NCU_THEORETICAL_PCT
#define NCU_THEORETICAL_WARPS OCC_PROFILE_NCU_THEORETICAL_WARPS
#define NCU_WAVES OCC_PROFILE_NCU_WAVES
#define NCU_WORD_BYTES OCC_PROFILE_NCU_WORD_BYTES
typedef occ_profile_ncu_cause ncu_cause;
typedef occ_profile_ncu_check ncu_check;
typedef occ_profile_ncu_field ncu_field;
typedef occ_profile_ncu_gap ncu_gap;
typedef occ_profile_ncu_gpu ncu_gpu;
typedef occ_profile_ncu_launch ncu_launch;
typedef occ_profile_ncu_mismatch ncu_mismatch;
typedef occ_profile_ncu_number ncu_number;
typedef occ_profile_ncu_page ncu_page;
typedef occ_profile_ncu_reader ncu_reader;

#define ncu_parse_number occ_profile_ncu_parse_number
#define ncu_mismatch_name occ_profile_ncu_mismatch_name
#define ncu_cause_name occ_profile_ncu_cause_name
#define ncu_gap_compute occ_profile_ncu_gap_compute
#define ncu_limit_names occ_profile_ncu_limit_names

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

const ncu_field_info *ncu_field_at(ncu_field field);

/* The factor to occ's unit of a field's unit text ("Kbyte/block": 1000);
   false (with the reason in err, no file or line) when the unit is not one
   of the field's ("furlong" for registers, "Kbits" for a size). */
bool ncu_unit_scale(const ncu_field_info *field, const char *unit, double *scale,
                    occ_profile_error *err);

/* Fills err with OCC_ERR_BAD_FORMAT (or `status`) and the message as it is
   formatted (it names the file and line itself), one line: control
   characters shown as \xNN (ncu_visible). Returns false. */
bool ncu_fail(occ_profile_error *err, const char *format, ...)
    __attribute__((format(printf, 2, 3)));
bool ncu_fail_status(occ_profile_error *err, occ_status status, const char *format, ...)
    __attribute__((format(printf, 3, 4)));
/* Puts text in front of err's message; returns false. */
bool ncu_fail_prefix(occ_profile_error *err, const char *format, ...)
    __attribute__((format(printf, 2, 3)));

/* Text quoted from the file, control characters shown escaped, cut to cap. */
const char *ncu_visible(const char *text, char *buf, size_t cap);
/* 1234567 as "1,234,567". */
const char *ncu_group_digits(long long n, char *buf, size_t cap);

#endif /* OCC_PROF_NCU_H */
