/*
 * fuzz_profile_reader.h - the body of the fuzz targets of one streaming reader (Kineto
 * JSON, nsys stats CSV, Nsight Systems SQLite): the input, written to a file, is read by
 * the reader alone into a checking sink, then by occ_profile_read (detection, grouping,
 * libocc). When detection picks this reader the two must agree: a refusal by the reader
 * is a refusal of the whole read, and a whole read that succeeds reads the same launches
 * (the engine may still refuse, but only at its limits: devices, groups, name bytes).
 *
 * A target defines FUZZ_READER (the prof_read_* function), FUZZ_FORMAT (its
 * occ_profile_format) and FUZZ_SUFFIX (the temporary file's name ending), then includes
 * this file.
 */
#ifndef OCC_FUZZ_PROFILE_READER_H
#define OCC_FUZZ_PROFILE_READER_H

#include "fuzz_profile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_profile_write(0, FUZZ_SUFFIX, data, size);
    fuzz_profile_count count = {path, 0, 0, 0};
    const prof_sink sink = {fuzz_profile_launch, fuzz_profile_device, &count};
    occ_profile_error err;
    occ_status alone = FUZZ_READER(path, 0, &sink, &err);
    fuzz_profile_check_error(alone, &err, path);
    occ_profile_format format;
    occ_status detected = occ_profile_detect(path, &format, &err);
    fuzz_profile_check_error(detected, &err, path); /* damaged gzip data */
    long long launches;
    occ_status whole = fuzz_profile_read(path, &launches, &err);
    if (detected != OCC_OK && whole == OCC_OK) {
        fuzz_profile_fail("occ_profile_read accepted what detection refused", NULL);
    }
    if (detected == OCC_OK && format == FUZZ_FORMAT) {
        if (alone != OCC_OK && whole == OCC_OK) {
            fuzz_profile_fail("the reader refused what occ_profile_read accepted", err.message);
        }
        if (alone == OCC_OK && whole != OCC_OK && whole != OCC_ERR_LIMIT) {
            fuzz_profile_fail("occ_profile_read refused what the reader read", err.message);
        }
        if (alone == OCC_OK && whole == OCC_OK && launches != count.launches) {
            fuzz_profile_fail("occ_profile_read read other launches than the reader", NULL);
        }
    }
    return 0;
}

#endif /* OCC_FUZZ_PROFILE_READER_H */
