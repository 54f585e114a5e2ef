/*
 * input_file.c - maps an input, or reads one that cannot be mapped into
 * memory within the reading budget (input_file.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "budget.h"
#include "engine_base.h"
#include "input_file.h"

/* Reads a file that cannot be mapped (a pipe, /dev/stdin, a /proc file)
   into memory, at most OCC_INSPECT_MAX_STREAM_BYTES: the buffer never grows
   past it, and every byte of it is taken from the process's reading budget
   first (budget.h), so that streams read at once share the limit. */
static occ_status read_unmappable(int fd, input_file *file, int index, occ_inspect_error *err)
{
    const size_t limit = OCC_INSPECT_MAX_STREAM_BYTES;
    size_t cap = 0;
    size_t size = 0;
    uint8_t *buf = NULL;
    bool over = false; /* the stream, or the streams together, pass the limit */
    for (;;) {
        if (size == cap) {
            size_t grown = cap == 0 ? (size_t)1 << 16 : cap * 2;
            grown = grown > limit ? limit : grown;
            uint8_t probe;
            if (grown == cap) {
                /* full: one more byte says whether the stream goes on */
                ssize_t more = read(fd, &probe, 1);
                if (more < 0 && errno == EINTR) {
                    continue;
                }
                if (more == 0) {
                    break;
                }
                over = more > 0;
                if (more < 0) {
                    int e = errno;
                    free(buf);
                    insp_budget_stream_give(file->budget_bytes);
                    file->budget_bytes = 0;
                    return inspect_fail(err, OCC_ERR_IO, index, -1, "%s: cannot read: %s",
                                        file->path, strerror(e));
                }
                break;
            }
            if (!insp_budget_stream_take(grown - cap)) {
                over = true;
                break;
            }
            file->budget_bytes += grown - cap;
            uint8_t *bigger = realloc(buf, grown);
            if (bigger == NULL) {
                free(buf);
                insp_budget_stream_give(file->budget_bytes);
                file->budget_bytes = 0;
                return inspect_fail(err, OCC_ERR_OUT_OF_MEMORY, index, -1, "%s: out of memory",
                                    file->path);
            }
            buf = bigger;
            cap = grown;
        }
        ssize_t got = read(fd, buf + size, cap - size);
        if (got < 0 && errno == EINTR) {
            continue;
        }
        if (got < 0) {
            int e = errno;
            free(buf);
            insp_budget_stream_give(file->budget_bytes);
            file->budget_bytes = 0;
            return inspect_fail(err, OCC_ERR_IO, index, -1, "%s: cannot read: %s", file->path,
                                strerror(e));
        }
        if (got == 0) {
            break;
        }
        size += (size_t)got;
    }
    if (over) {
        size_t others = insp_budget_stream_bytes() - file->budget_bytes;
        free(buf);
        insp_budget_stream_give(file->budget_bytes);
        file->budget_bytes = 0;
        if (others == 0) {
            return inspect_fail(err, OCC_ERR_LIMIT, index, -1,
                                "%s: more than %zu MiB from a stream; give a regular file, which "
                                "is read without copying",
                                file->path, limit >> 20);
        }
        return inspect_fail(err, OCC_ERR_LIMIT, index, -1,
                            "%s: more than %zu MiB from a stream while other streams read at "
                            "once hold %zu MiB, and %zu MiB is the limit for all of them; give "
                            "regular files, which are read without copying",
                            file->path, size >> 20, others >> 20, limit >> 20);
    }
    file->data = buf;
    file->size = size;
    file->owned = true;
    return OCC_OK;
}

/* Maps a regular file; reads anything else that can be read (pipes,
   character devices, /proc files). Opening never blocks: a FIFO without a
   writer reads as empty rather than waiting for one. */
occ_status input_file_open(input_file *file, int index, occ_inspect_error *err)
{
    int fd = open(file->path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        int e = errno;
        if (fd >= 0) {
            close(fd);
        }
        return inspect_fail(err, OCC_ERR_IO, index, -1, "%s: cannot open: %s", file->path,
                            strerror(e));
    }
    if (S_ISDIR(st.st_mode)) {
        close(fd);
        return inspect_fail(err, OCC_ERR_IO, index, -1, "%s: is a directory", file->path);
    }
    if (isatty(fd)) {
        /* /dev/stdin or /dev/tty on a terminal: reading would wait for typing */
        close(fd);
        return inspect_fail(err, OCC_ERR_IO, index, -1,
                            "%s: is a terminal; give a file, or pipe the input", file->path);
    }
    occ_status status = OCC_OK;
    if (S_ISREG(st.st_mode) && st.st_size > 0) {
        file->size = (size_t)st.st_size;
        void *map = mmap(NULL, file->size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (map == MAP_FAILED) {
            status = inspect_fail(err, OCC_ERR_IO, index, -1, "%s: cannot map: %s", file->path,
                                  strerror(errno));
        } else {
            file->data = map;
            file->mapped = true;
        }
    } else {
        /* blocking reads from here: a pipe's writer may be slow */
        int flags = fcntl(fd, F_GETFL);
        if (flags >= 0) {
            fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
        }
        status = read_unmappable(fd, file, index, err);
    }
    close(fd);
    if (status == OCC_OK && file->size == 0) {
        status = inspect_fail(err, OCC_ERR_BAD_FORMAT, index, -1, "%s: is empty", file->path);
    }
    return status;
}

void input_file_close(input_file *file)
{
    if (file->mapped) {
        munmap((void *)(uintptr_t)file->data, file->size);
    } else if (file->owned) {
        free((void *)(uintptr_t)file->data);
        insp_budget_stream_give(file->budget_bytes);
    }
}
