/*
 * inspect_dirs.h - a directory given to occ inspect (or occ diff) stands for
 * the binaries under it: Triton's cache (~/.triton/cache) holds each
 * compiled kernel as a cubin beside its PTX, LLVM IR and JSON.
 */
#ifndef OCC_CLI_INSPECT_DIRS_H
#define OCC_CLI_INSPECT_DIRS_H

#include "cli.h"

/* Files under a directory, at most this many (a cache of 100,000 kernels). */
#define INSPECT_DIR_MAX_FILES 100000

/* files[0..count-1] with each directory replaced by the files under it
   (any depth, symbolic links not followed) whose first bytes say ELF,
   fatbin or ar archive, in name order: *out (malloc'd strings, the list
   malloc'd; free with inspect_dirs_free), *out_count. A directory with no
   such file is an error naming it, as is one beyond the limit. */
bool inspect_expand_dirs(const char *const *files, int count, char ***out, int *out_count,
                         cli_error *err);

void inspect_dirs_free(char **files, int count);

#endif /* OCC_CLI_INSPECT_DIRS_H */
