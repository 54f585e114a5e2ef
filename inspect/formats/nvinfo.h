/*
 * nvinfo.h - the records of NVIDIA's .nv.info sections. Internal to inspect/.
 *
 * Each record: u8 format, u8 attribute, then by format (docs/binary-formats.md,
 * checked against CUDA 13.0 cubins by tests/test_inspect.c):
 *   0x01 NVAL  u16 zero                      (4 bytes)
 *   0x02 BVAL  u8 value, u8 pad              (4 bytes)
 *   0x03 HVAL  u16 value                     (4 bytes)
 *   0x04 SVAL  u16 length, then that payload (4 + length bytes)
 */
#ifndef OCC_INSPECT_NVINFO_H
#define OCC_INSPECT_NVINFO_H

#include "bytes.h"

enum { NVINFO_NVAL = 0x01, NVINFO_BVAL = 0x02, NVINFO_HVAL = 0x03, NVINFO_SVAL = 0x04 };

/* Attribute ids occ reads (EIATTR_* names as cuobjdump -elf prints them). */
enum {
    NVINFO_MAX_THREADS = 0x05,         /* [x, y, z]: __launch_bounds__ / .maxntid */
    NVINFO_REQNTID = 0x10,             /* [x, y, z]: .reqntid */
    NVINFO_FRAME_SIZE = 0x11,          /* module: [sym, bytes] */
    NVINFO_MIN_STACK_SIZE = 0x12,      /* module: [sym, bytes] cumulative stack */
    NVINFO_CBANK_PARAM_SIZE = 0x19,    /* u16 parameter bytes */
    NVINFO_MAXREG_COUNT = 0x1b,        /* u16 register cap, 255 = none */
    NVINFO_MAX_STACK_SIZE = 0x23,      /* module, -rdc cubins: [sym, bytes] */
    NVINFO_REGCOUNT = 0x2f,            /* module: [sym, registers] */
    NVINFO_CTA_PER_CLUSTER = 0x3d,     /* [x, y, z]: __cluster_dims__ */
    NVINFO_EXPLICIT_CLUSTER = 0x3e,    /* no value */
    NVINFO_MAX_CLUSTER_RANK = 0x3f,    /* u32 */
    NVINFO_NUM_BARRIERS = 0x4c,        /* named barriers */
    NVINFO_ANNOTATIONS = 0x55,         /* [type, instruction offset] pairs; type 1 = spill */
    NVINFO_COMPAT_ARCH_SPECIFIC = 0x09 /* .nv.compat: 1 for an "a" target (sm_90a) */
};

typedef struct nvinfo_record {
    uint8_t format;
    uint8_t attribute;
    const uint8_t *payload; /* SVAL payload, else NULL */
    uint16_t payload_bytes; /* SVAL length */
    uint32_t value;         /* BVAL/HVAL value; SVAL's first u32 if it has 4 bytes */
    size_t offset;          /* of the record within the section */
} nvinfo_record;

/*
 * Reads the record at *pos of a section's contents and advances *pos.
 * Returns 1 with a record, 0 at the end, -1 on a malformed record (err is
 * filled with the offset within the section).
 */
int nvinfo_next(const uint8_t *data, size_t size, size_t *pos, nvinfo_record *rec, insp_error *err);

#endif /* OCC_INSPECT_NVINFO_H */
