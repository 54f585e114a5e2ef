/*
 * lab_trace.c - `occ lab trace`: every kernel launch of a real program,
 * recorded by occ's CUPTI recorder (lab/trace/occ_trace_inject.c, loaded by
 * the CUDA driver through CUDA_INJECTION64_PATH) and written as an Nsight
 * Systems SQLite export that `occ profile` reads. Options and the run only;
 * libocc-profile writes the database (occ_profile_convert_cupti).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "lab_output.h"
#include "occ_profile.h"
#include "options.h"
#include "values.h"

enum { T_OUT, T_CONVERT, T_LIB, T_HELP, T_END };

static const cli_option trace_options[] = {
    [T_OUT] = {T_OUT, "output", "FILE", "the SQLite database to write (default occ-trace.sqlite)"},
    [T_CONVERT] = {T_CONVERT, "convert", "RECORDS",
                   "write the recorder's RECORDS file as FILE instead of running a program"},
    [T_LIB] = {T_LIB, "recorder", "LIB",
               "the recorder library (default $OCC_TRACE_LIB, else libocc-trace.so beside occ)"},
    [T_HELP] = {T_HELP, "help", NULL, "show this help (also -h)"},
};

static const cli_help trace_help = {
    .name = "lab trace",
    .summary = "record every kernel launch of a program with CUPTI, as an Nsight Systems export",
    .usage = "occ lab trace [--output FILE] -- PROGRAM [ARGS...]\n"
             "occ lab trace --convert RECORDS --output FILE",
    .description =
        "Runs PROGRAM with occ's CUPTI recorder injected (CUDA_INJECTION64_PATH): every\n"
        "kernel launch's CUpti_ActivityKernel record (grid, block, registers, static and\n"
        "dynamic shared memory, sharedMemoryExecuted, cluster dims, name, times) is kept,\n"
        "and at the program's exit written as an SQLite database in Nsight Systems' export\n"
        "schema, which `occ profile` reads. The database is written by occ from CUPTI\n"
        "records, not by Nsight Systems (its META_DATA_EXPORT table says so). The recorder\n"
        "is built where CUPTI's headers are found (lab/trace; docs/profile.md).",
    .examples = "occ lab trace --output train.sqlite -- python3 train.py\n"
                "occ profile train.sqlite",
};

static const cli_option_table trace_tables[] = {{trace_options, T_END}};

typedef struct trace_args {
    const char *output;
    const char *convert;
    const char *lib;
    bool help;
    int program; /* argv index of PROGRAM; 0: none */
} trace_args;

static bool on_trace_option(int id, const char *value, void *context, cli_error *err)
{
    trace_args *a = context;
    switch (id) {
    case T_OUT: a->output = value; return true;
    case T_CONVERT: a->convert = value; return true;
    case T_LIB: a->lib = value; return true;
    case T_HELP: a->help = true; return true;
    case CLI_POSITIONAL:
        return cli_error_set(err, EXIT_USAGE, "'%s': put the program after '--'", value);
    default: return cli_error_set(err, EXIT_USAGE, "option id %d is not a trace option", id);
    }
}

/* libocc-trace.so: --recorder, $OCC_TRACE_LIB, else beside this executable. */
static bool find_recorder(const trace_args *a, char *path, size_t cap)
{
    const char *given = a->lib ? a->lib : getenv("OCC_TRACE_LIB");
    if (given && *given) {
        snprintf(path, cap, "%s", given);
        return access(path, R_OK) == 0;
    }
    char self[PATH_MAX - 32];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0) {
        return false;
    }
    self[n] = '\0';
    char *slash = strrchr(self, '/');
    if (slash) {
        *slash = '\0';
    }
    snprintf(path, cap, "%s/libocc-trace.so", self);
    return access(path, R_OK) == 0;
}

static int run_program(char **argv, const char *recorder, const char *records, const cli_io *io)
{
    pid_t pid = fork();
    if (pid < 0) {
        return cli_fail(io, "lab trace", EXIT_DATA, "cannot start %s: %s", argv[0],
                        strerror(errno));
    }
    if (pid == 0) {
        setenv("CUDA_INJECTION64_PATH", recorder, 1);
        setenv("OCC_TRACE_OUT", records, 1);
        execvp(argv[0], argv);
        fprintf(stderr, "occ lab trace: cannot run %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) {
            return cli_fail(io, "lab trace", EXIT_DATA, "lost %s: %s", argv[0], strerror(errno));
        }
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(io->err, "occ lab trace: %s exited with %d; converting what it recorded\n", argv[0],
                WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
    }
    return EXIT_OK;
}

int cmd_lab_trace(int argc, char **argv, const cli_io *io)
{
    trace_args a = {0};
    int own_argc = argc;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0) {
            own_argc = i;
            a.program = i + 1 < argc ? i + 1 : 0;
            break;
        }
    }
    cli_error err;
    if (!cli_parse_options(own_argc, argv, trace_tables, 1, on_trace_option, &a, &err)) {
        return cli_report(io, "lab trace", &err);
    }
    if (a.help) {
        cli_print_help(io->out, &trace_help, trace_tables, 1);
        return EXIT_OK;
    }
    const char *output = a.output ? a.output : "occ-trace.sqlite";
    if (a.convert && a.program) {
        return cli_fail(io, "lab trace", EXIT_USAGE, "--convert or a program after '--': not both");
    }
    if (!a.convert && !a.program) {
        return cli_fail(io, "lab trace", EXIT_USAGE,
                        "no program: occ lab trace -o FILE -- PROGRAM [ARGS...]");
    }
    char records[PATH_MAX];
    bool temporary = false;
    if (a.convert) {
        snprintf(records, sizeof records, "%s", a.convert);
    } else {
        char recorder[PATH_MAX] = "";
        if (!find_recorder(&a, recorder, sizeof recorder)) {
            return cli_fail(io, "lab trace", EXIT_DATA,
                            "the CUPTI recorder is not built (no %s): build occ where CUPTI's "
                            "headers are found, or give --recorder or $OCC_TRACE_LIB",
                            recorder[0] ? recorder : "libocc-trace.so");
        }
        const char *tmp = getenv("TMPDIR");
        snprintf(records, sizeof records, "%s/occ-trace-XXXXXX", tmp && *tmp ? tmp : "/tmp");
        int fd = mkstemp(records);
        if (fd < 0) {
            return cli_fail(io, "lab trace", EXIT_DATA, "cannot make a temporary file: %s",
                            strerror(errno));
        }
        close(fd);
        temporary = true;
        int code = run_program(argv + a.program, recorder, records, io);
        if (code != EXIT_OK) {
            remove(records);
            return code;
        }
    }
    long long launches = 0;
    occ_profile_error perr;
    occ_status st = occ_profile_convert_cupti(records, output, &launches, &perr);
    if (temporary) {
        remove(records);
    }
    if (st != OCC_OK) {
        return cli_fail(io, "lab trace", EXIT_DATA, "%s", perr.message);
    }
    fprintf(io->err, "occ lab trace: %lld kernel launches written to %s\n", launches, output);
    return EXIT_OK;
}
