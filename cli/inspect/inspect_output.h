/*
 * inspect_output.h - what the files of `occ inspect` share: its arguments
 * and its outputs (the table and --summary in inspect_table.c, --csv in
 * inspect_csv.c, --json in inspect_json.c). The reading is libocc-inspect's
 * (occ_inspect.h); nothing here looks inside the readers.
 */
#ifndef OCC_CLI_INSPECT_OUTPUT_H
#define OCC_CLI_INSPECT_OUTPUT_H

#include "cli.h"
#include "inspect_launches.h"
#include "occ_inspect.h"

typedef enum inspect_output {
    INSPECT_OUT_TABLE = 0,
    INSPECT_OUT_JSON = 1,
    INSPECT_OUT_CSV = 2,
    INSPECT_OUT_SUMMARY = 3
} inspect_output;

/* The command line of `occ inspect`, parsed. */
typedef struct inspect_args {
    occ_inspect_options read; /* what the library is asked for; read.device points at
                                 `device` when --gpu or --gpu-file was given */
    const char *gpu;          /* --gpu */
    const char *gpu_file;     /* --gpu-file */
    occ_device device;        /* resolved --gpu / --gpu-file */
    const char *filter;       /* --filter REGEX on the printed name */
    const char *save;         /* --save FILE: the baseline, or NULL */
    occ_inspect_order sort;   /* --sort */
    inspect_output output;
    int outputs; /* how many of --json, --csv, --summary were given */
    bool help;
    const char **files; /* the inputs as given ("-": stdin) */
    int file_count;
    const char *launches;           /* --launches FILE, or NULL */
    inspect_launch_set *launch_set; /* read from it, once applied; NULL without */
} inspect_args;

/* True when `occ inspect` without a file would wait for a person to type a
   log: stdin is a terminal. It then says what it expects and exits 2. */
bool inspect_stdin_is_terminal(FILE *in);

/* --arch: "sm_90" keeps sm_90, sm_90a and sm_90f; "sm_90a" only sm_90a
   (also `occ diff --arch`). */
bool inspect_parse_arch(const char *text, occ_inspect_options *o, cli_error *err);

/* The reading options occ inspect and occ diff share, parsed into the
   library's options: the value checks and messages live here once. */
typedef enum inspect_read_option {
    INSPECT_READ_THREADS,  /* --threads N, 1..1024 */
    INSPECT_READ_DYN_SMEM, /* --dyn-smem BYTES */
    INSPECT_READ_ARCH,     /* --arch ARCH */
    INSPECT_READ_JOBS      /* --jobs N, 1..1024 */
} inspect_read_option;

bool inspect_apply_read_option(inspect_read_option which, const char *value, occ_inspect_options *o,
                               cli_error *err);

/* --filter REGEX: a usage error, before any file is read, when it does not
   compile as a POSIX extended regular expression. NULL passes. */
bool inspect_check_filter(const char *regex, cli_error *err);

void inspect_print_table(FILE *out, const occ_inspect_result *r, const inspect_args *args);
void inspect_print_summary(FILE *out, const occ_inspect_result *r, const inspect_args *args);
void inspect_print_csv(FILE *out, const occ_inspect_result *r, const inspect_args *args);
void inspect_print_json(FILE *out, const occ_inspect_result *r, const inspect_args *args);

#endif /* OCC_CLI_INSPECT_OUTPUT_H */
