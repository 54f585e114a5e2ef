/*
 * occ_man.c - occ-man [--docs DOCDIR] DIR: writes occ's man pages into DIR,
 * occ.1 and one occ-CMD.1 per command of the command table. A build tool
 * (the install runs it and installs what it writes), not installed itself:
 * the pages come from the compiled option tables, so a command added to the
 * table gets its page without a change here or in the build. --docs names
 * the folder the guides are installed in, which the pages then cite
 * ("docs/json.md" reads "DOCDIR/json.md").
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "man_page.h"

static int write_page(const char *dir, const char *file_name, const cli_command_spec *spec,
                      const man_page_info *info)
{
    char path[4096];
    int n = snprintf(path, sizeof path, "%s/%s", dir, file_name);
    if (n < 0 || (size_t)n >= sizeof path) {
        fprintf(stderr, "occ-man: directory '%.80s...': the path is longer than %zu bytes\n", dir,
                sizeof path - 1);
        return 2;
    }
    FILE *out = fopen(path, "w");
    if (out == NULL) {
        fprintf(stderr, "occ-man: cannot create %s: %s\n", path, strerror(errno));
        return 1;
    }
    bool ok =
        spec != NULL ? man_page_write_command(out, spec, info) : man_page_write_index(out, info);
    errno = 0;
    if (fclose(out) != 0 || !ok) {
        fprintf(stderr, "occ-man: cannot write %s: %s\n", path,
                errno != 0 ? strerror(errno) : "write error");
        return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    man_page_info info = {.version = occ_version(), .docs_dir = NULL};
    if (argc == 4 && strcmp(argv[1], "--docs") == 0 && argv[2][0] != '\0') {
        info.docs_dir = argv[2];
        argv += 2;
        argc -= 2;
    }
    if (argc != 2) {
        fprintf(stderr, "usage: occ-man [--docs DOCDIR] DIR (writes occ.1 and occ-CMD.1 for "
                        "every command; the guides cited as in DOCDIR)\n");
        return 2;
    }
    int code = write_page(argv[1], "occ.1", NULL, &info);
    for (int i = 0; code == 0 && i < cli_command_count(); i++) {
        const cli_command_spec *spec = cli_command_spec_at(i);
        char file_name[96];
        snprintf(file_name, sizeof file_name, "occ-%.80s.1", spec->help->name);
        code = write_page(argv[1], file_name, spec, &info);
    }
    return code;
}
