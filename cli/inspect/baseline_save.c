/*
 * baseline_save.c - `occ inspect --save FILE` (baseline_save.h) through
 * libocc-inspect's writer, its line made the command's.
 */
#include "baseline_save.h"

bool baseline_save(const char *path, occ_inspect_result *r, const inspect_args *a, cli_error *err)
{
    occ_inspect_error ierr;
    occ_status status = occ_inspect_baseline_save(r, &a->read, a->filter, path, &ierr);
    if (status == OCC_OK) {
        return true;
    }
    /* "PATH: cannot create: REASON" is the option's value that failed */
    return cli_error_set(err, EXIT_DATA, "%s%s", status == OCC_ERR_IO ? "option --save: " : "",
                         ierr.message);
}
