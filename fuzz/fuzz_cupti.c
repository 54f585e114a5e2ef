/*
 * fuzz_cupti.c - fuzzes the records of occ's CUPTI recorder (profile/formats/cupti_tsv.c)
 * and the SQLite writer behind occ_profile_convert_cupti (nsys_sqlite.c) as a round trip,
 * as zstd's simple_round_trip does: records the converter accepts become a database that
 * occ_profile_read must read back with the same number of launches. A database the
 * converter wrote and the reader refuses (other than at the engine's limits: more devices
 * or groups than it keeps) is a bug in one of the two; a refused conversion must leave no
 * database behind.
 *
 * Seeds (corpus/cupti/): gemm*.tsv, cut from tests/data/profile-h200/cupti-gemm.tsv.gz,
 * plain and gzipped; records of tests/test_profile.c (clusters, a carveout request,
 * mangled names); and the hostile inputs of tests/data/hostile/profile/ (hostile-*).
 */
#include "fuzz_profile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *records = fuzz_profile_write(0, ".tsv", data, size);
    const char *db = fuzz_profile_path(1, ".sqlite");
    long long written = -1;
    occ_profile_error err;
    occ_status st = occ_profile_convert_cupti(records, db, &written, &err);
    if (st != OCC_OK) {
        /* the reader's refusals name the records, the writer's the database */
        fuzz_profile_check_error(st, &err, fuzz_profile_names(&err, db) ? db : records);
        if (access(db, F_OK) == 0) {
            fuzz_profile_fail("a refused conversion left a database", err.message);
        }
        return 0;
    }
    long long launches;
    occ_status back = fuzz_profile_read(db, &launches, &err);
    if (back == OCC_ERR_LIMIT) {
        return 0;
    }
    if (back != OCC_OK) {
        fuzz_profile_fail("a converted database cannot be read back", err.message);
    }
    if (launches != written) {
        fprintf(stderr, "fuzz_cupti: %lld launches written, %lld read back\n", written, launches);
        abort();
    }
    return 0;
}
