/*
 * cli.h - what every command of occ shares: where it reads and writes, its
 * exit codes, how its helpers report failure, and the commands themselves.
 * The CLI uses only the public APIs of libocc (occ.h) and libocc-inspect
 * (occ_inspect.h).
 *
 * One error style for every fallible helper: it returns false (or NULL) and
 * fills a cli_error with the exit code and one line; only the command prints
 * it (cli_report), as "occ CMD: LINE", with a hint on a usage error.
 */
#ifndef OCC_CLI_H
#define OCC_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "occ.h"

/* Exit codes, documented in docs/cli.md. */
enum {
    EXIT_OK = 0,
    EXIT_DATA = 1, /* bad data or a runtime failure: file content, GPU, output */
    EXIT_USAGE = 2 /* bad command line: unknown option, bad value */
};

/* Where a command reads and writes; tests pass temporary files. */
typedef struct cli_io {
    FILE *in;
    FILE *out;
    FILE *err;
} cli_io;

/* Why a helper failed: the exit code it calls for and one line (no command
   name, no newline). Long enough for a path and a reason. */
#define CLI_ERROR_BYTES 1536
typedef struct cli_error {
    int code;
    char message[CLI_ERROR_BYTES];
} cli_error;

/* Sets the error and returns false, so helpers can `return cli_error_set(...)`. */
bool cli_error_set(cli_error *err, int code, const char *format, ...)
    __attribute__((format(printf, 3, 4)));

/* Puts text in front of the message ("option --regs: " + "'x' is not ...");
   returns false. */
bool cli_error_prefix(cli_error *err, const char *format, ...)
    __attribute__((format(printf, 2, 3)));

/* Prints "occ CMD: MESSAGE" (control characters shown escaped), and on a
   usage error "occ: try 'occ CMD --help'"; returns err->code. */
int cli_report(const cli_io *io, const char *command, const cli_error *err);

/* cli_error_set and cli_report in one, for a command's own checks. */
int cli_fail(const cli_io *io, const char *command, int code, const char *format, ...)
    __attribute__((format(printf, 4, 5)));

/* Runs `occ ARGS...`; returns the exit code. A failed write of the output
   (a full disk, a closed pipe) is an error: exit 1 with a message. */
int cli_main(int argc, char **argv, const cli_io *io);

/* The commands (commands.c holds their table). */
int cmd_calc(int argc, char **argv, const cli_io *io);
int cmd_gpus(int argc, char **argv, const cli_io *io);
int cmd_explain(int argc, char **argv, const cli_io *io);
int cmd_sweep(int argc, char **argv, const cli_io *io);
int cmd_suggest(int argc, char **argv, const cli_io *io);
int cmd_latency(int argc, char **argv, const cli_io *io);
int cmd_inspect(int argc, char **argv, const cli_io *io);
int cmd_diff(int argc, char **argv, const cli_io *io);
int cmd_ncu(int argc, char **argv, const cli_io *io);
int cmd_profile(int argc, char **argv, const cli_io *io);
int cmd_lab(int argc, char **argv, const cli_io *io);
int cmd_regs(int argc, char **argv, const cli_io *io);

#endif /* OCC_CLI_H */
