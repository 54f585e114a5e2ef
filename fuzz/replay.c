/*
 * replay.c - runs a fuzz target's LLVMFuzzerTestOneInput over every file named on the
 * command line or found in a named directory, so the corpora replay as ordinary tests
 * (under ASan in the sanitizer build) without libFuzzer.
 * usage: fuzz_<target>_replay DIR_OR_FILE...
 */
#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

/* Reads a whole file into a buffer of exactly its size, so ASan flags any overread. */
static int replay_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        perror(path);
        return -1;
    }
    size_t cap = 4096;
    size_t size = 0;
    unsigned char *buf = malloc(cap);
    size_t got;
    while (buf != NULL && (got = fread(buf + size, 1, cap - size, f)) > 0) {
        size += got;
        if (size == cap) {
            unsigned char *bigger = realloc(buf, cap *= 2);
            if (bigger == NULL) {
                free(buf);
            }
            buf = bigger;
        }
    }
    bool failed = buf == NULL || ferror(f);
    fclose(f);
    if (failed) {
        fprintf(stderr, "%s: cannot read\n", path);
        free(buf);
        return -1;
    }
    unsigned char *exact = malloc(size > 0 ? size : 1);
    if (exact == NULL) {
        free(buf);
        return -1;
    }
    memcpy(exact, buf, size);
    free(buf);
    LLVMFuzzerTestOneInput(exact, size);
    free(exact);
    return 0;
}

/* Replays a file, or every regular file of a directory in name order; returns the count
   replayed, or -1 on an error. */
static int replay_path(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        perror(path);
        return -1;
    }
    if (!S_ISDIR(st.st_mode)) {
        return replay_file(path) == 0 ? 1 : -1;
    }
    struct dirent **entries;
    int n = scandir(path, &entries, NULL, alphasort);
    if (n < 0) {
        perror(path);
        return -1;
    }
    int count = 0;
    for (int i = 0; i < n; i++) {
        char full[4096];
        snprintf(full, sizeof full, "%s/%s", path, entries[i]->d_name);
        if (entries[i]->d_name[0] != '.' && stat(full, &st) == 0 && S_ISREG(st.st_mode)) {
            if (replay_file(full) != 0) {
                count = -1;
            } else if (count >= 0) {
                count++;
            }
        }
        free(entries[i]);
    }
    free(entries);
    return count;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s DIR_OR_FILE...\n", argv[0]);
        return 2;
    }
    int total = 0;
    for (int i = 1; i < argc; i++) {
        int n = replay_path(argv[i]);
        if (n < 0) {
            return 1;
        }
        total += n;
    }
    printf("%s: replayed %d inputs\n", argv[0], total);
    /* No inputs means a wrong path, not a pass. */
    return total > 0 ? 0 : 1;
}
