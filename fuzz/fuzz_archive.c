/*
 * fuzz_archive.c - fuzzes the static-library reader (inspect/formats/archive.c): every
 * member reported must lie inside the input, with its name; then the whole input through
 * occ_inspect_read on one thread, which splits each member as the file it was (host
 * objects, cubins, fatbins at any member offset: inspect/engine/collect.c).
 *
 * Seeds (corpus/archive/): gnu.a, `ar rc` of a 3-byte text file, an -rdc object and a
 * whole-program object of one small kernel (nvcc 13.0, -arch=sm_90), so GNU's symbol
 * table and long-name table; thin.a, `ar rcT` of the same (refused); sysv_unaligned.a,
 * the -rdc object under a long name after a 3-byte member (its data 4 bytes past an
 * 8-byte boundary); bsd.a, the object under a BSD "#1/N" name after "__.SYMDEF SORTED";
 * truncated.a, gnu.a cut at 1,000 bytes.
 */
#include "fuzz_inspect.h"

typedef struct members {
    size_t size;
    size_t sum;
} members;

static void on_member(void *context, const char *name, size_t name_len, size_t offset, size_t size)
{
    members *m = context;
    if (offset > m->size || size > m->size - offset) {
        fprintf(stderr, "member %zu+%zu beyond %zu bytes\n", offset, size, m->size);
        abort();
    }
    for (size_t i = 0; i < name_len; i++) {
        m->sum += (unsigned char)name[i];
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0) {
        return 0; /* nothing to walk; and occ_inspect_read refuses an empty input */
    }
    uint8_t *copy = fuzz_copy(data, size);
    members m = {size, 0};
    insp_error err = {0, "", false, false};
    bool ok = insp_archive_members(copy, size, on_member, &m, &err);
    fuzz_check_error(ok, &err, size);
    if (ok) {
        occ_inspect_options opts;
        occ_inspect_options_init(&opts);
        opts.jobs = 1;
        opts.functions = true;
        occ_inspect_input in = {"fuzz.a", copy, size};
        occ_inspect_result *r = NULL;
        occ_inspect_error ierr;
        if (occ_inspect_read(&in, 1, &opts, &r, &ierr) == OCC_OK) {
            occ_inspect_result_free(r);
        } else if (ierr.message[0] == '\0') {
            fprintf(stderr, "occ_inspect_read failed without a message\n");
            abort();
        }
    }
    free(copy);
    return 0;
}
