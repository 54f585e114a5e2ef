/*
 * toolkit.c - the toolkit's own programs (ptxas, nvcc): where they are, and
 * running one with its output in a file. A child is started with
 * posix_spawn, its stdin from /dev/null and its stdout and stderr in one
 * file, so that several compiles run at once on threads without sharing a
 * pipe (whose write end another child could inherit).
 */
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "regs_internal.h"

extern char **environ;

static char *join(const char *dir, size_t dir_len, const char *name)
{
    size_t n = dir_len + 1 + strlen(name) + 1;
    char *path = malloc(n);
    if (path != NULL) {
        snprintf(path, n, "%.*s/%s", (int)dir_len, dir, name);
    }
    return path;
}

static bool runnable(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

/* dir/name if it can be run: *out. */
static bool try_dir(const char *dir, size_t dir_len, const char *name, char **out)
{
    if (dir_len == 0) {
        return false;
    }
    char *path = join(dir, dir_len, name);
    if (path != NULL && runnable(path)) {
        *out = path;
        return true;
    }
    free(path);
    return false;
}

occ_status regs_find_tool(const char *name, const char *given, const char *cuda_home,
                          const char *path_list, const char *fallback_dir, char **out,
                          occ_inspect_error *err)
{
    *out = NULL;
    if (given != NULL) {
        if (!runnable(given)) {
            return regs_fail(err, OCC_ERR_IO, "%s '%.300s' cannot be run: %s", name, given,
                             access(given, F_OK) != 0 ? "no such file" : "not an executable file");
        }
        *out = strdup(given);
        return *out != NULL ? OCC_OK : regs_fail(err, OCC_ERR_OUT_OF_MEMORY, "out of memory");
    }
    if (cuda_home != NULL && cuda_home[0] != '\0') {
        char *bin = join(cuda_home, strlen(cuda_home), "bin");
        bool found = bin != NULL && try_dir(bin, strlen(bin), name, out);
        free(bin);
        if (found) {
            return OCC_OK;
        }
    }
    for (const char *p = path_list; p != NULL && *p != '\0';) {
        const char *colon = strchr(p, ':');
        size_t len = colon != NULL ? (size_t)(colon - p) : strlen(p);
        if (try_dir(p, len, name, out)) {
            return OCC_OK;
        }
        p = colon != NULL ? colon + 1 : NULL;
    }
    if (fallback_dir != NULL && try_dir(fallback_dir, strlen(fallback_dir), name, out)) {
        return OCC_OK;
    }
    return regs_fail(err, OCC_ERR_IO,
                     "no %s found (looked in $CUDA_HOME/bin, on PATH and in %s): set CUDA_HOME "
                     "to the CUDA toolkit, or put its bin directory on PATH",
                     name, fallback_dir != NULL ? fallback_dir : "no default directory");
}

/* posix_spawn takes char *const argv[]: copies, made once. */
static char **copy_argv(const char *const argv[])
{
    size_t n = 0;
    while (argv[n] != NULL) {
        n++;
    }
    char **copy = calloc(n + 1, sizeof *copy);
    for (size_t i = 0; copy != NULL && i < n; i++) {
        copy[i] = strdup(argv[i]);
        if (copy[i] == NULL) {
            for (size_t j = 0; j < i; j++) {
                free(copy[j]);
            }
            free(copy);
            copy = NULL;
        }
    }
    return copy;
}

static void free_argv(char **argv)
{
    for (size_t i = 0; argv != NULL && argv[i] != NULL; i++) {
        free(argv[i]);
    }
    free(argv);
}

occ_status regs_run_program(const char *const argv[], const char *output_path, int *exit_status,
                            occ_inspect_error *err)
{
    char **args = copy_argv(argv);
    posix_spawn_file_actions_t actions;
    if (args == NULL || posix_spawn_file_actions_init(&actions) != 0) {
        free_argv(args);
        return regs_fail(err, OCC_ERR_OUT_OF_MEMORY, "out of memory to start %s", argv[0]);
    }
    int rc = posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    if (rc == 0) {
        rc = posix_spawn_file_actions_addopen(&actions, 1, output_path,
                                              O_WRONLY | O_CREAT | O_TRUNC, 0644);
    }
    if (rc == 0) {
        rc = posix_spawn_file_actions_adddup2(&actions, 1, 2);
    }
    pid_t pid = 0;
    if (rc == 0) {
        rc = posix_spawn(&pid, args[0], &actions, NULL, args, environ);
    }
    posix_spawn_file_actions_destroy(&actions);
    free_argv(args);
    if (rc != 0) {
        return regs_fail(err, OCC_ERR_IO, "%.300s cannot be started: %s", argv[0], strerror(rc));
    }
    int wstatus = 0;
    pid_t done;
    do {
        done = waitpid(pid, &wstatus, 0);
    } while (done < 0 && errno == EINTR);
    if (done < 0) {
        return regs_fail(err, OCC_ERR_IO, "waiting for %.300s: %s", argv[0], strerror(errno));
    }
    *exit_status = WIFEXITED(wstatus)     ? WEXITSTATUS(wstatus)
                   : WIFSIGNALED(wstatus) ? 128 + WTERMSIG(wstatus)
                                          : 255;
    /* posix_spawn reports a program that could not be executed as exit 127 */
    if (*exit_status == 127 && !runnable(argv[0])) {
        return regs_fail(err, OCC_ERR_IO, "%.300s cannot be run", argv[0]);
    }
    return OCC_OK;
}

occ_status regs_read_file(const char *path, size_t max_bytes, char **text, size_t *size,
                          occ_inspect_error *err)
{
    *text = NULL;
    *size = 0;
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        return regs_fail(err, OCC_ERR_IO, "%.300s: cannot open: %s", path, strerror(errno));
    }
    size_t cap = 1 << 16, used = 0;
    char *buf = malloc(cap + 1);
    occ_status status = OCC_OK;
    while (buf != NULL) {
        size_t n = fread(buf + used, 1, cap - used, f);
        used += n;
        if (used > max_bytes) {
            status = regs_fail(err, OCC_ERR_LIMIT, "%.300s: larger than the limit of %zu bytes",
                               path, max_bytes);
            break;
        }
        if (n == 0) {
            if (ferror(f)) {
                status = regs_fail(err, OCC_ERR_IO, "%.300s: cannot read", path);
            }
            break;
        }
        if (used == cap) {
            char *grown = realloc(buf, cap * 2 + 1);
            if (grown == NULL) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = grown;
            cap *= 2;
        }
    }
    fclose(f);
    if (buf == NULL) {
        return regs_fail(err, OCC_ERR_OUT_OF_MEMORY, "%.300s: out of memory", path);
    }
    if (status != OCC_OK) {
        free(buf);
        return status;
    }
    buf[used] = '\0';
    *text = buf;
    *size = used;
    return OCC_OK;
}

occ_status regs_write_file(const char *path, const void *data, size_t size, occ_inspect_error *err)
{
    FILE *f = fopen(path, "wb");
    if (f == NULL) {
        return regs_fail(err, OCC_ERR_IO, "%.300s: cannot create: %s", path, strerror(errno));
    }
    bool ok = fwrite(data, 1, size, f) == size;
    ok = fclose(f) == 0 && ok;
    return ok ? OCC_OK : regs_fail(err, OCC_ERR_IO, "%.300s: cannot write", path);
}

static bool contains(const char *line, size_t len, const char *word)
{
    size_t n = strlen(word);
    for (size_t i = 0; i + n <= len; i++) {
        if (memcmp(line + i, word, n) == 0) {
            return true;
        }
    }
    return false;
}

const char *regs_first_error_line(const char *log, size_t size, char *buf, size_t cap)
{
    const char *first = NULL;
    size_t first_len = 0;
    for (size_t at = 0; at < size;) {
        const char *line = log + at;
        const char *nl = memchr(line, '\n', size - at);
        size_t len = nl != NULL ? (size_t)(nl - line) : size - at;
        at += len + 1;
        while (len > 0 && (line[len - 1] == '\r' || line[len - 1] == ' ')) {
            len--;
        }
        if (len == 0) {
            continue;
        }
        if (first == NULL) {
            first = line;
            first_len = len;
        }
        /* "ptxas fatal   : ...", "k.ptx, line 3; error   : ...", "k.cu(4): error: ..." */
        if (contains(line, len, "error") || contains(line, len, "fatal")) {
            first = line;
            first_len = len;
            break;
        }
    }
    if (first == NULL) {
        snprintf(buf, cap, "no output");
    } else {
        snprintf(buf, cap, "%.*s", (int)(first_len < 300 ? first_len : 300), first);
    }
    return buf;
}
