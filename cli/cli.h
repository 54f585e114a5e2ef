/*
 * cli.h - what the files of the occ command share: the command table, the
 * option parser, number parsing and the exit codes. The CLI uses only the
 * public API of libocc (include/occ.h).
 */
#ifndef OCC_CLI_H
#define OCC_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "occ.h"

/* Exit codes, documented in docs/cli.md. */
enum {
    EXIT_OK = 0,
    EXIT_DATA = 1,  /* bad data or a runtime failure: file content, GPU */
    EXIT_USAGE = 2  /* bad command line: unknown option, bad value */
};

/* Where a command reads and writes; tests pass temporary files. */
typedef struct cli_io {
    FILE *in;
    FILE *out;
    FILE *err;
} cli_io;

typedef int (*cli_command_fn)(int argc, char **argv, const cli_io *io);

typedef struct cli_command {
    const char *name;
    const char *summary;
    cli_command_fn run;
} cli_command;

/* Runs `occ ARGS...`; returns the exit code. */
int cli_main(int argc, char **argv, const cli_io *io);

int cmd_calc(int argc, char **argv, const cli_io *io);
int cmd_gpus(int argc, char **argv, const cli_io *io);
int cmd_explain(int argc, char **argv, const cli_io *io);
int cmd_sweep(int argc, char **argv, const cli_io *io);
int cmd_suggest(int argc, char **argv, const cli_io *io);
int cmd_latency(int argc, char **argv, const cli_io *io);
int cmd_inspect(int argc, char **argv, const cli_io *io);
int cmd_lab(int argc, char **argv, const cli_io *io);

/* --- option parsing (options.c) ---------------------------------------- */

/* One option of a command: "--name VALUE" or "--name=VALUE", or a flag. */
typedef struct cli_option {
    const char *name;     /* without the leading "--" */
    bool takes_value;
    const char *metavar;  /* for help: "N", "BYTES" */
    const char *help;
} cli_option;

/*
 * Walks argv[1..]: calls back with each recognised option's index in
 * `options` and its value (NULL for flags). Returns EXIT_OK, or EXIT_USAGE
 * after printing "occ CMD: option --x: is unknown" and a hint.
 */
typedef int (*cli_option_fn)(int index, const char *value, void *context);
int cli_parse_options(const char *command, int argc, char **argv, const cli_option *options,
                      int option_count, cli_option_fn on_option, void *context,
                      const cli_io *io);

/* Prints a command's usage line, description and its option table. */
void cli_print_help(FILE *out, const char *usage, const char *description,
                    const cli_option *options, int option_count);

/* Prints "occ CMD: MESSAGE" and "occ: try 'occ CMD --help'"; returns code. */
int cli_fail(const cli_io *io, const char *command, int code, const char *format, ...)
    __attribute__((format(printf, 4, 5)));

/* --- values (parse.c) --------------------------------------------------- */

/* A whole decimal number in [lo, hi]; false on anything else, and on any
   value beyond about 3.4e10 whatever the range (no caller needs more). */
bool cli_parse_int(const char *text, long long lo, long long hi, long long *out);

/* A decimal number in [lo, hi] ("600", "0.5", "1e3"); no inf, nan or hex. */
bool cli_parse_double(const char *text, double lo, double hi, double *out);

/* Bytes: "1024", "48K", "48KB", "48KiB", "1.5KiB", "2M" (K = 1024). */
bool cli_parse_size(const char *text, long long *out);

/* Carveout: "default" or -1, or a percentage 0..100 with an optional '%'. */
bool cli_parse_carveout(const char *text, int *out);

/* Writes "1,234,567" style digits into buf. */
const char *cli_group_digits(long long value, char *buf, size_t cap);

/* Prints a JSON document indented, with a final newline, and frees it. */
struct json_t;
void cli_print_json(FILE *out, struct json_t *doc);

/* Prints `text` wrapped at 96 columns, continuation lines indented. */
void cli_print_wrapped(FILE *out, const char *text, int indent);

/* Human bytes: "48 KB" (exact KiB), else "49,153 B". */
const char *cli_format_bytes(long long bytes, char *buf, size_t cap);

/* --- GPUs (gpu_file.c) -------------------------------------------------- */

/* Loads a device description from a JSON file (docs/gpu-file.md).
   On failure writes one line (file, field, reason) into msg. */
bool cli_load_gpu_file(const char *path, occ_device *out, char *msg, size_t cap);

/* Resolves --gpu / --gpu-file into a device; prints the error itself. */
int cli_resolve_gpu(const char *command, const char *gpu_name, const char *gpu_file,
                    occ_device *out, const cli_io *io);

#endif /* OCC_CLI_H */
