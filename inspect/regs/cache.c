/*
 * cache.c - occ regs' compiles cached by content (docs/regs.md, "The
 * cache"). An entry is one file, KEY.log, named by the SHA-256 of what the
 * compile depends on (compile.c, regs_compile_key): a header line
 *
 *   occ-regs-cache 1 KEY EXIT_STATUS LOG_BYTES CUBIN_BYTES
 *
 * then the log, then the cubin where the compile kept it (the unconstrained
 * one, which the setmaxnreg checks read; 0 bytes otherwise). An entry whose header, key or length
 * does not hold (a crash mid-write on a file system without atomic rename, an edit) is a miss, and
 * the compile that follows rewrites it. Entries are written to a temporary file beside them and
 * renamed into place, so that concurrent runs never read half of one.
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "regs_internal.h"

#define CACHE_FORMAT_VERSION 1
/* A log larger than this is not cached (ptxas -v prints a few lines a
   kernel; a module of thousands of kernels stays well under). */
#define CACHE_MAX_LOG_BYTES ((size_t)64 << 20)
/* A cubin larger than this is not cached: the largest of the CUDA 13.0
   libraries is 134 MB (occ_inspect.h), and such a module's compile is
   worth the disk rather than this cache. */
#define CACHE_MAX_CUBIN_BYTES ((size_t)64 << 20)

/* mkdir -p */
static bool make_dirs(const char *path)
{
    char *copy = strdup(path);
    if (copy == NULL) {
        return false;
    }
    bool ok = true;
    for (char *p = copy + 1; ok && *p != '\0'; p++) {
        if (*p == '/') {
            *p = '\0';
            ok = mkdir(copy, 0755) == 0 || errno == EEXIST;
            *p = '/';
        }
    }
    ok = ok && (mkdir(copy, 0755) == 0 || errno == EEXIST);
    struct stat st;
    ok = ok && stat(copy, &st) == 0 && S_ISDIR(st.st_mode) && access(copy, W_OK) == 0;
    free(copy);
    return ok;
}

static char *concat(const char *a, const char *b)
{
    size_t n = strlen(a) + strlen(b) + 1;
    char *s = malloc(n);
    if (s != NULL) {
        snprintf(s, n, "%s%s", a, b);
    }
    return s;
}

char *regs_cache_dir(const char *given, char *why, size_t why_cap)
{
    why[0] = '\0';
    char *dir = NULL;
    const char *env;
    if (given != NULL) {
        if (given[0] == '\0') {
            snprintf(why, why_cap, "no cache (turned off)");
            return NULL;
        }
        dir = strdup(given);
    } else if ((env = getenv("OCC_CACHE_DIR")) != NULL && env[0] != '\0') {
        dir = strdup(env);
    } else if ((env = getenv("XDG_CACHE_HOME")) != NULL && env[0] == '/') {
        dir = concat(env, "/occ/regs");
    } else if ((env = getenv("HOME")) != NULL && env[0] == '/') {
        dir = concat(env, "/.cache/occ/regs");
    } else {
        snprintf(why, why_cap, "no cache: neither OCC_CACHE_DIR, XDG_CACHE_HOME nor HOME is set");
        return NULL;
    }
    if (dir == NULL) {
        snprintf(why, why_cap, "no cache: out of memory");
        return NULL;
    }
    if (!make_dirs(dir)) {
        snprintf(why, why_cap, "no cache: %.300s cannot be created or written", dir);
        free(dir);
        return NULL;
    }
    return dir;
}

static char *entry_path(const char *dir, const char key[65], const char *suffix)
{
    size_t n = strlen(dir) + 1 + 64 + strlen(suffix) + 1;
    char *path = malloc(n);
    if (path != NULL) {
        snprintf(path, n, "%s/%s%s", dir, key, suffix);
    }
    return path;
}

bool regs_cache_entry_parse(char *text, size_t size, const char key[65], bool want_cubin,
                            regs_cache_entry *out)
{
    memset(out, 0, sizeof *out);
    const char *nl = memchr(text, '\n', size);
    size_t header = nl != NULL ? (size_t)(nl + 1 - text) : 0;
    if (nl == NULL || header >= 200) {
        return false;
    }
    /* the header alone, NUL-terminated, for sscanf */
    char line[200];
    memcpy(line, text, header - 1);
    line[header - 1] = '\0';
    char read_key[65];
    int version = 0, code = 0;
    unsigned long long log_bytes = 0, cubin_bytes = 0;
    int used = 0;
    bool ok = sscanf(line, "occ-regs-cache %d %64s %d %llu %llu%n", &version, read_key, &code,
                     &log_bytes, &cubin_bytes, &used) == 5 &&
              (size_t)used == header - 1 && version == CACHE_FORMAT_VERSION &&
              strlen(read_key) == 64 && memcmp(read_key, key, 64) == 0 && code >= 0 &&
              code <= 255 && log_bytes <= size - header &&
              cubin_bytes == size - header - log_bytes && (!want_cubin || cubin_bytes > 0);
    if (!ok) {
        return false;
    }
    if (cubin_bytes > 0) {
        out->cubin = malloc((size_t)cubin_bytes);
        if (out->cubin == NULL) {
            return false;
        }
        memcpy(out->cubin, text + header + log_bytes, (size_t)cubin_bytes);
        out->cubin_size = (size_t)cubin_bytes;
    }
    memmove(text, text + header, (size_t)log_bytes);
    text[log_bytes] = '\0';
    out->log = text;
    out->log_size = (size_t)log_bytes;
    out->exit_status = code;
    return true;
}

bool regs_cache_get(const char *dir, const char key[65], bool want_cubin, regs_cache_entry *out)
{
    memset(out, 0, sizeof *out);
    char *path = entry_path(dir, key, ".log");
    if (path == NULL) {
        return false;
    }
    char *text = NULL;
    size_t size = 0;
    occ_status status =
        regs_read_file(path, CACHE_MAX_LOG_BYTES + CACHE_MAX_CUBIN_BYTES + 256, &text, &size, NULL);
    free(path);
    if (status != OCC_OK) {
        return false;
    }
    if (!regs_cache_entry_parse(text, size, key, want_cubin, out)) {
        free(text);
        return false;
    }
    return true;
}

bool regs_cache_put(const char *dir, const char key[65], const regs_cache_entry *e)
{
    if (e->log_size > CACHE_MAX_LOG_BYTES || e->cubin_size > CACHE_MAX_CUBIN_BYTES) {
        return false;
    }
    /* unique among the runs (the pid) and the threads of one (the count) */
    static atomic_ulong temporaries;
    char suffix[64];
    snprintf(suffix, sizeof suffix, ".tmp.%ld.%lu", (long)getpid(),
             (unsigned long)atomic_fetch_add(&temporaries, 1));
    char *tmp = entry_path(dir, key, suffix);
    char *path = entry_path(dir, key, ".log");
    bool ok = tmp != NULL && path != NULL;
    FILE *f = ok ? fopen(tmp, "wb") : NULL;
    if (f != NULL) {
        ok = fprintf(f, "occ-regs-cache %d %s %d %zu %zu\n", CACHE_FORMAT_VERSION, key,
                     e->exit_status, e->log_size, e->cubin != NULL ? e->cubin_size : 0) > 0;
        ok = ok && fwrite(e->log, 1, e->log_size, f) == e->log_size;
        if (e->cubin != NULL) {
            ok = ok && fwrite(e->cubin, 1, e->cubin_size, f) == e->cubin_size;
        }
        ok = fclose(f) == 0 && ok;
        ok = ok && rename(tmp, path) == 0;
        if (!ok) {
            remove(tmp);
        }
    } else {
        ok = false;
    }
    free(tmp);
    free(path);
    return ok;
}
