/*
 * nvinfo.c - walks .nv.info records; the format is in nvinfo.h.
 */
#include "nvinfo.h"

int nvinfo_next(const uint8_t *data, size_t size, size_t *pos, nvinfo_record *rec, insp_error *err)
{
    size_t at = *pos;
    if (at >= size) {
        return 0;
    }
    if (size - at < 4) {
        insp_fail(err, at, ".nv.info record truncated: %zu of 4 bytes", size - at);
        return -1;
    }
    rec->format = data[at];
    rec->attribute = data[at + 1];
    rec->payload = NULL;
    rec->payload_bytes = 0;
    rec->value = 0;
    rec->offset = at;
    switch (rec->format) {
    case NVINFO_NVAL: break;
    case NVINFO_BVAL: rec->value = data[at + 2]; break;
    case NVINFO_HVAL: rec->value = insp_u16(data + at + 2); break;
    case NVINFO_SVAL: {
        uint16_t len = insp_u16(data + at + 2);
        if (!insp_fits(size, at + 4, len)) {
            insp_fail(err, at,
                      ".nv.info attribute 0x%02x: %u-byte value runs past the "
                      "section end",
                      rec->attribute, len);
            return -1;
        }
        rec->payload = data + at + 4;
        rec->payload_bytes = len;
        if (len >= 4) {
            rec->value = insp_u32(rec->payload);
        }
        *pos = at + 4 + len;
        return 1;
    }
    default:
        insp_fail(err, at, ".nv.info record format 0x%02x is unknown (attribute 0x%02x)",
                  rec->format, rec->attribute);
        return -1;
    }
    *pos = at + 4;
    return 1;
}
