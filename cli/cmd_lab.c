/*
 * cmd_lab.c - `occ lab EXPERIMENT`: runs occ-lab (the CUDA experiments,
 * built from lab/ where nvcc exists) on the GPU present, or reads records it
 * saved earlier, and prints the analysis. Without occ-lab or without a GPU
 * it says why in one line and exits 1; the occ binary itself needs no CUDA.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "lab.h"

/* occ-lab's exit codes (lab/lab.h). */
#define LAB_EXIT_NO_GPU 3

static const cli_option options[] = {
    {"json", false, "", "print the analysis as JSON (schema occ.lab, docs/lab.md)"},
    {"csv", false, "", "print the tables as CSV"},
    {"out", true, "DIR", "write SVG plots and the raw records (records.jsonl) into DIR"},
    {"records", true, "FILE", "analyse records saved earlier ('-' for stdin); no GPU needed"},
    {"save", true, "FILE", "also write the raw records occ-lab printed to FILE"},
    {"quick", false, "", "fewer rows and runs (the test suite's run)"},
    {"help", false, "", "show this help"},
};
enum { OPT_JSON, OPT_CSV, OPT_OUT, OPT_RECORDS, OPT_SAVE, OPT_QUICK, OPT_HELP, OPT_COUNT };

typedef struct lab_args {
    const cli_io *io;
    lab_format format;
    const char *out_dir;
    const char *records;
    const char *save;
    bool quick;
    bool help;
} lab_args;

typedef struct lab_experiment_name {
    const char *name;
    const char *summary;
} lab_experiment_name;

static const lab_experiment_name experiments[] = {
    {"residency", "a*x + y at every residency and ILP: loads in flight vs occupancy (Day 45)"},
    {"blocksize", "every block size 32..1024 against the occupancy API's pick (Day 10)"},
    {"spill", "__launch_bounds__(256, 1..8): occupancy up, registers down, spills (Day 17)"},
    {"timeline", "per-block SM and time stamps: waves, tail, achieved occupancy"},
    {"ceiling", "the bandwidth ceiling: cudaMemcpy device to device and a copy kernel"},
    {"latency", "DRAM and L2 latency by pointer chase, in ns and cycles"},
    {"verify", "libocc against the driver on this GPU: every answer must agree"},
    {"all", "everything above in one run"},
};
#define EXPERIMENT_COUNT ((int)(sizeof experiments / sizeof experiments[0]))

static void print_help(FILE *out)
{
    cli_print_help(out, "occ lab EXPERIMENT [options]",
                   "Measures on the GPU present what occupancy does and does not buy, checks\n"
                   "every result, and holds libocc's predictions against the hardware. The\n"
                   "experiments run in occ-lab (built from lab/ where nvcc exists); occ\n"
                   "analyses what it prints (docs/lab.md).",
                   options, OPT_COUNT);
    fprintf(out, "\nexperiments:\n");
    for (int i = 0; i < EXPERIMENT_COUNT; i++) {
        fprintf(out, "  %-10s %s\n", experiments[i].name, experiments[i].summary);
    }
    fprintf(out, "\nexamples:\n"
                 "  occ lab residency\n"
                 "  occ lab all --out results/ --save results/raw.jsonl\n"
                 "  occ lab residency --records docs/results/h200/lab-all.jsonl --csv\n"
                 "\nocc-lab is looked for in $OCC_LAB, then beside the occ executable.\n");
}

static int on_option(int index, const char *value, void *context)
{
    lab_args *a = context;
    switch (index) {
    case OPT_JSON: a->format = LAB_JSON; break;
    case OPT_CSV: a->format = LAB_CSV; break;
    case OPT_OUT: a->out_dir = value; break;
    case OPT_RECORDS: a->records = value; break;
    case OPT_SAVE: a->save = value; break;
    case OPT_QUICK: a->quick = true; break;
    case OPT_HELP: a->help = true; break;
    default: break;
    }
    return EXIT_OK;
}

/* The experiments occ-lab must run for `name`, and what to present. */
static void plan(const char *name, const char **lab_args_out, int *count, lab_selection *sel)
{
    memset(sel, 0, sizeof *sel);
    *count = 0;
    if (strcmp(name, "all") == 0) {
        lab_args_out[(*count)++] = "all";
        *sel = (lab_selection){true, true, true, true, true, true, true};
        return;
    }
    if (strcmp(name, "residency") == 0) {
        /* The table's ceiling column and the model need both. */
        lab_args_out[(*count)++] = "ceiling";
        lab_args_out[(*count)++] = "latency";
        sel->residency = true;
    }
    lab_args_out[(*count)++] = name;
    sel->ceiling |= strcmp(name, "ceiling") == 0;
    sel->latency |= strcmp(name, "latency") == 0;
    sel->blocksize = strcmp(name, "blocksize") == 0;
    sel->spill = strcmp(name, "spill") == 0;
    sel->timeline = strcmp(name, "timeline") == 0;
    sel->verify = strcmp(name, "verify") == 0;
}

/* Where occ-lab is: $OCC_LAB, else beside this executable. */
static bool find_lab(char *path, size_t cap)
{
    const char *env = getenv("OCC_LAB");
    if (env != NULL && env[0] != '\0') {
        snprintf(path, cap, "%s", env);
        return access(path, X_OK) == 0;
    }
    char self[PATH_MAX - 16]; /* room for "/occ-lab" in path */
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0) {
        snprintf(path, cap, "occ-lab");
        return false;
    }
    self[n] = '\0';
    char *slash = strrchr(self, '/');
    if (slash != NULL) {
        *slash = '\0';
    }
    snprintf(path, cap, "%s/occ-lab", self);
    return access(path, X_OK) == 0;
}

/* Runs occ-lab with args, its stdout into `records`; returns its exit
   status (or -1 when it could not be started). stderr passes through. */
static int run_lab(const char *path, const char *const *args, int count, bool quick,
                   FILE *records)
{
    int fds[2];
    if (pipe(fds) != 0) {
        return -1;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        return -1;
    }
    if (pid == 0) {
        char *argv[16];
        int argc = 0;
        /* Copies: execv takes char *const[]; the child exits anyway. */
        argv[argc++] = strdup(path);
        if (quick) {
            argv[argc++] = strdup("--quick");
        }
        for (int i = 0; i < count && argc < 15; i++) {
            argv[argc++] = strdup(args[i]);
        }
        argv[argc] = NULL;
        dup2(fds[1], STDOUT_FILENO);
        close(fds[0]);
        close(fds[1]);
        execv(path, argv);
        _exit(127);
    }
    close(fds[1]);
    char buf[65536];
    ssize_t got;
    while ((got = read(fds[0], buf, sizeof buf)) > 0) {
        fwrite(buf, 1, (size_t)got, records);
    }
    close(fds[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) {
            return -1;
        }
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static bool copy_file(FILE *from, const char *path, char *msg, size_t cap)
{
    FILE *to = fopen(path, "w");
    if (to == NULL) {
        snprintf(msg, cap, "cannot write %s: %s", path, strerror(errno));
        return false;
    }
    rewind(from);
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, from)) > 0) {
        fwrite(buf, 1, n, to);
    }
    rewind(from);
    if (fclose(to) != 0) {
        snprintf(msg, cap, "cannot write %s: %s", path, strerror(errno));
        return false;
    }
    return true;
}

int cmd_lab(int argc, char **argv, const cli_io *io)
{
    if (argc < 2) {
        return cli_fail(io, "lab", EXIT_USAGE, "no experiment named; experiments are "
                                               "residency blocksize spill timeline ceiling "
                                               "latency verify all");
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        print_help(io->out);
        return EXIT_OK;
    }
    const char *name = argv[1];
    bool known = false;
    for (int i = 0; i < EXPERIMENT_COUNT; i++) {
        known |= strcmp(name, experiments[i].name) == 0;
    }
    if (!known) {
        return cli_fail(io, "lab", EXIT_USAGE,
                        "'%s' is not an experiment; experiments are residency blocksize spill "
                        "timeline ceiling latency verify all",
                        name);
    }
    lab_args a = {.io = io, .format = LAB_TEXT};
    int code = cli_parse_options("lab", argc - 1, argv + 1, options, OPT_COUNT, on_option, &a,
                                 io);
    if (code != EXIT_OK) {
        return code;
    }
    if (a.help) {
        print_help(io->out);
        return EXIT_OK;
    }
    const char *lab_run[4];
    int lab_run_count = 0;
    lab_selection sel;
    plan(name, lab_run, &lab_run_count, &sel);

    char msg[512];
    FILE *records = NULL;
    bool own_records = true;
    if (a.records != NULL) {
        if (strcmp(a.records, "-") == 0) {
            records = io->in;
            own_records = false;
        } else if ((records = fopen(a.records, "r")) == NULL) {
            return cli_fail(io, "lab", EXIT_DATA, "cannot read records %s: %s", a.records,
                            strerror(errno));
        }
    } else {
        char path[PATH_MAX];
        if (!find_lab(path, sizeof path)) {
            return cli_fail(io, "lab", EXIT_DATA,
                            "occ-lab is not built (no executable %s; it is built where CMake "
                            "finds nvcc; or set OCC_LAB)",
                            path);
        }
        records = tmpfile();
        if (records == NULL) {
            return cli_fail(io, "lab", EXIT_DATA, "cannot create a temporary file: %s",
                            strerror(errno));
        }
        int status = run_lab(path, lab_run, lab_run_count, a.quick, records);
        if (status != 0) {
            lab_data partial;
            rewind(records);
            bool read = lab_records_read(records, &partial, msg, sizeof msg);
            fclose(records);
            if (status == LAB_EXIT_NO_GPU) {
                code = cli_fail(io, "lab", EXIT_DATA, "no CUDA GPU present (%s)",
                                read && partial.error[0] != '\0' ? partial.error
                                                                 : "occ-lab found none");
            } else {
                code = cli_fail(io, "lab", EXIT_DATA,
                                "%s stopped with exit status %d (its message is above)", path,
                                status);
            }
            if (read) {
                lab_data_free(&partial);
            }
            return code;
        }
        rewind(records);
        if (a.save != NULL && !copy_file(records, a.save, msg, sizeof msg)) {
            fclose(records);
            return cli_fail(io, "lab", EXIT_DATA, "%s", msg);
        }
    }

    lab_data *data = malloc(sizeof *data);
    if (data == NULL) {
        if (own_records) {
            fclose(records);
        }
        return cli_fail(io, "lab", EXIT_DATA, "out of memory");
    }
    bool ok = lab_records_read(records, data, msg, sizeof msg);
    if (ok && a.out_dir != NULL) {
        if (mkdir(a.out_dir, 0777) != 0 && errno != EEXIST) {
            snprintf(msg, sizeof msg, "cannot create %s: %s", a.out_dir, strerror(errno));
            ok = false;
        } else {
            char path[PATH_MAX];
            snprintf(path, sizeof path, "%s/records.jsonl", a.out_dir);
            ok = (a.records != NULL && strcmp(a.records, "-") == 0) ||
                 copy_file(records, path, msg, sizeof msg);
            ok = ok && lab_svg_write_all(a.out_dir, data, &sel, msg, sizeof msg);
        }
    }
    if (own_records) {
        fclose(records);
    }
    if (ok) {
        ok = lab_report(io->out, data, &sel, a.format, msg, sizeof msg);
    }
    lab_data_free(data);
    free(data);
    if (!ok) {
        return cli_fail(io, "lab", EXIT_DATA, "%s", msg);
    }
    return EXIT_OK;
}
