/*
 * file_read.c - see file_read.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "file_read.h"

static bool read_all(FILE *f, const char *path, size_t max_bytes, char **out, size_t *size,
                     cli_error *err)
{
    size_t cap = 4096;
    size_t used = 0;
    char *buf = malloc(cap + 1);
    for (;;) {
        if (buf == NULL) {
            return cli_error_set(err, EXIT_DATA, "%s: out of memory", path);
        }
        size_t got = fread(buf + used, 1, cap - used, f);
        used += got;
        if (used > max_bytes) {
            free(buf);
            return cli_error_set(err, EXIT_DATA, "%s: larger than the limit of %zu bytes", path,
                                 max_bytes);
        }
        if (got == 0) {
            break;
        }
        if (used == cap) {
            /* never past one byte over the limit: doubling a full buffer of
               128 MiB took 256 MiB to learn that the input is too large */
            size_t grown = max_bytes < cap * 2 ? max_bytes + 1 : cap * 2;
            char *bigger = realloc(buf, grown + 1);
            if (bigger == NULL) {
                free(buf);
            }
            buf = bigger;
            cap = grown;
        }
    }
    if (ferror(f)) {
        int e = errno;
        free(buf);
        return cli_error_set(err, EXIT_DATA, "%s: cannot read: %s", path, strerror(e));
    }
    buf[used] = '\0';
    *out = buf;
    *size = used;
    return true;
}

bool cli_read_file(const char *path, FILE *in, size_t max_bytes, char **out, size_t *size,
                   cli_error *err)
{
    if (strcmp(path, "-") == 0) {
        return read_all(in, "<stdin>", max_bytes, out, size, err);
    }
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        int e = errno;
        if (fd >= 0) {
            close(fd);
        }
        return cli_error_set(err, EXIT_DATA, "%s: cannot open: %s", path, strerror(e));
    }
    if (S_ISDIR(st.st_mode)) {
        close(fd);
        return cli_error_set(err, EXIT_DATA, "%s: is a directory, not a file", path);
    }
    /* blocking reads from here: a pipe's writer may be slow */
    int flags = fcntl(fd, F_GETFL);
    if (flags >= 0) {
        fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
    }
    FILE *f = fdopen(fd, "rb");
    if (f == NULL) {
        int e = errno;
        close(fd);
        return cli_error_set(err, EXIT_DATA, "%s: cannot open: %s", path, strerror(e));
    }
    bool ok = read_all(f, path, max_bytes, out, size, err);
    fclose(f);
    return ok;
}
