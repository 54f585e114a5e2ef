/*
 * lab_child.c - finding and running occ lab's measuring binaries, and
 * copying their records (lab_child.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lab_child.h"

bool lab_find_tool(const char *env_name, const char *name, char *path, size_t cap)
{
    const char *env = getenv(env_name);
    if (env != NULL && env[0] != '\0') {
        snprintf(path, cap, "%s", env);
        return access(path, X_OK) == 0;
    }
    char self[PATH_MAX - 64]; /* room for "/NAME" in path */
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0) {
        snprintf(path, cap, "%s", name);
        return false;
    }
    self[n] = '\0';
    char *slash = strrchr(self, '/');
    if (slash != NULL) {
        *slash = '\0';
    }
    snprintf(path, cap, "%s/%s", self, name);
    return access(path, X_OK) == 0;
}

bool lab_run_child(char *const *argv, FILE *records, lab_exit *how, cli_error *err)
{
    const char *path = argv[0];
    int fds[2] = {-1, -1};
    pid_t pid = -1;
    if (pipe(fds) == 0) {
        fflush(NULL);
        pid = fork();
        if (pid == 0) {
            dup2(fds[1], STDOUT_FILENO);
            close(fds[0]);
            close(fds[1]);
            execv(path, argv);
            _exit(127);
        }
    }
    int e = errno;
    if (pid < 0) {
        if (fds[0] >= 0) {
            close(fds[0]);
            close(fds[1]);
        }
        return cli_error_set(err, EXIT_DATA, "cannot start %s: %s", path, strerror(e));
    }
    close(fds[1]);
    char buf[65536];
    ssize_t got;
    bool kept = true;
    int write_errno = 0;
    while ((got = read(fds[0], buf, sizeof buf)) != 0) {
        if (got < 0) {
            if (errno == EINTR) {
                continue;
            }
            break;
        }
        /* After a failed write the rest is still drained, so the child finishes. */
        if (kept && fwrite(buf, 1, (size_t)got, records) != (size_t)got) {
            kept = false;
            write_errno = errno;
        }
    }
    close(fds[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) {
            return cli_error_set(err, EXIT_DATA, "cannot wait for %s: %s", path, strerror(errno));
        }
    }
    how->status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    how->signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
    if (!kept || fflush(records) != 0) {
        const char *base = strrchr(path, '/');
        return cli_error_set(err, EXIT_DATA, "cannot keep %s's records in a temporary file: %s",
                             base != NULL ? base + 1 : path,
                             write_errno != 0 ? strerror(write_errno) : strerror(errno));
    }
    return true;
}

FILE *lab_open_records(const char *path, cli_error *err)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        int e = errno;
        if (fd >= 0) {
            close(fd);
        }
        cli_error_set(err, EXIT_DATA, "cannot read records %s: %s", path, strerror(e));
        return NULL;
    }
    if (S_ISDIR(st.st_mode)) {
        close(fd);
        cli_error_set(err, EXIT_DATA, "cannot read records %s: it is a directory", path);
        return NULL;
    }
    int flags = fcntl(fd, F_GETFL);
    if (flags >= 0) {
        fcntl(fd, F_SETFL, flags & ~O_NONBLOCK); /* a pipe's writer may be slow */
    }
    FILE *f = fdopen(fd, "r");
    if (f == NULL) {
        int e = errno;
        close(fd);
        cli_error_set(err, EXIT_DATA, "cannot read records %s: %s", path, strerror(e));
    }
    return f;
}

bool lab_copy_records(FILE *from, const char *path, cli_error *err)
{
    struct stat src, dst;
    if (fstat(fileno(from), &src) == 0 && stat(path, &dst) == 0 && src.st_dev == dst.st_dev &&
        src.st_ino == dst.st_ino) {
        return true;
    }
    FILE *to = fopen(path, "w");
    if (to == NULL) {
        return cli_error_set(err, EXIT_DATA, "cannot write %s: %s", path, strerror(errno));
    }
    rewind(from);
    char buf[65536];
    size_t n;
    bool ok = true;
    while (ok && (n = fread(buf, 1, sizeof buf, from)) > 0) {
        ok = fwrite(buf, 1, n, to) == n;
    }
    int e = errno;
    rewind(from);
    if (fclose(to) != 0 || !ok) {
        return cli_error_set(err, EXIT_DATA, "cannot write %s: %s", path, strerror(ok ? errno : e));
    }
    return true;
}
