/*
 * inspect_dirs.c - directories as inputs (see inspect_dirs.h): walked with
 * nftw, each regular file kept when its first four bytes are a binary's.
 */
#define _XOPEN_SOURCE 700 /* nftw */
#include <errno.h>
#include <ftw.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "inspect_dirs.h"

typedef struct file_list {
    char **items;
    int count, cap;
    bool over; /* more than INSPECT_DIR_MAX_FILES */
    bool no_mem;
} file_list;

/* nftw takes no context: one walk at a time (the CLI is single-threaded here). */
static file_list *walking;

static bool add(file_list *l, const char *path)
{
    if (l->count == INSPECT_DIR_MAX_FILES) {
        l->over = true;
        return false;
    }
    if (l->count == l->cap) {
        int cap = l->cap ? l->cap * 2 : 64;
        char **items = realloc(l->items, (size_t)cap * sizeof *items);
        if (items == NULL) {
            l->no_mem = true;
            return false;
        }
        l->items = items;
        l->cap = cap;
    }
    l->items[l->count] = strdup(path);
    if (l->items[l->count] == NULL) {
        l->no_mem = true;
        return false;
    }
    l->count++;
    return true;
}

/* ELF, a fatbin (0xBA55ED50, little-endian) or an ar archive. */
static bool binary_magic(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        return false;
    }
    unsigned char m[8] = {0};
    size_t n = fread(m, 1, sizeof m, f);
    fclose(f);
    return (n >= 4 && memcmp(m,
                             "\x7f"
                             "ELF",
                             4) == 0) ||
           (n >= 4 && m[0] == 0x50 && m[1] == 0xED && m[2] == 0x55 && m[3] == 0xBA) ||
           (n == 8 && memcmp(m, "!<arch>\n", 8) == 0);
}

static int visit(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    (void)ftw;
    if (type == FTW_F && S_ISREG(st->st_mode) && binary_magic(path) && !add(walking, path)) {
        return 1; /* stop: over the limit or out of memory */
    }
    return 0;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

bool inspect_expand_dirs(const char *const *files, int count, char ***out, int *out_count,
                         cli_error *err)
{
    file_list all = {0};
    bool ok = true;
    for (int i = 0; i < count && ok; i++) {
        struct stat st;
        if (strcmp(files[i], "-") == 0 || stat(files[i], &st) != 0 || !S_ISDIR(st.st_mode)) {
            /* a file (or an error the reader reports) */
            if (!add(&all, files[i])) {
                ok = all.over ? cli_error_set(err, EXIT_DATA, "more than %d inputs",
                                              INSPECT_DIR_MAX_FILES)
                              : cli_error_set(err, EXIT_DATA, "out of memory");
            }
            continue;
        }
        int before = all.count;
        walking = &all;
        int rc = nftw(files[i], visit, 16, FTW_PHYS);
        walking = NULL;
        if (all.over) {
            ok = cli_error_set(err, EXIT_DATA, "%s: more than %d binaries under the directory",
                               files[i], INSPECT_DIR_MAX_FILES);
        } else if (all.no_mem) {
            ok = cli_error_set(err, EXIT_DATA, "out of memory");
        } else if (rc != 0) {
            ok = cli_error_set(err, EXIT_DATA, "%s: cannot walk the directory: %s", files[i],
                               strerror(errno));
        } else if (all.count == before) {
            ok = cli_error_set(err, EXIT_DATA,
                               "%s: a directory without a cubin, fatbin, ELF file or archive",
                               files[i]);
        } else {
            qsort(all.items + before, (size_t)(all.count - before), sizeof *all.items, by_name);
        }
    }
    if (!ok) {
        inspect_dirs_free(all.items, all.count);
        return false;
    }
    *out = all.items;
    *out_count = all.count;
    return true;
}

void inspect_dirs_free(char **files, int count)
{
    for (int i = 0; i < count; i++) {
        free(files[i]);
    }
    free(files);
}
