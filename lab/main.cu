/*
 * main.cu - occ-lab: runs the experiments named on the command line on GPU 0
 * and prints their records (JSON lines) on stdout, progress on stderr.
 *
 *   occ-lab [--quick] EXPERIMENT...
 *   EXPERIMENT: probe ceiling latency residency blocksize spill timeline verify gpcs
 *               clusters all
 *
 * `occ lab` runs this program and analyses what it prints (docs/lab.md).
 */
#include <string.h>

#include "lab_format.h"
#include "occ_lab.h"

typedef void (*lab_experiment_fn)(const lab_gpu *gpu, const lab_options *opt);

typedef struct lab_experiment {
    const char *name;
    lab_experiment_fn run;
} lab_experiment;

/* In the order `all` runs them: ceiling and latency first, since the
   residency analysis calibrates its model from them. */
static const lab_experiment experiments[] = {
    {"ceiling", lab_ceiling},     {"latency", lab_latency}, {"residency", lab_residency},
    {"blocksize", lab_blocksize}, {"spill", lab_spill},     {"timeline", lab_timeline},
    {"verify", lab_verify},       {"gpcs", lab_gpcs},       {"clusters", lab_clusters},
};
#define EXPERIMENT_COUNT ((int)(sizeof experiments / sizeof experiments[0]))

static void usage(FILE *out)
{
    fprintf(out, "usage: occ-lab [--quick] EXPERIMENT...\n"
                 "experiments: probe all");
    for (int i = 0; i < EXPERIMENT_COUNT; i++) {
        fprintf(out, " %s", experiments[i].name);
    }
    fprintf(out, "\nPrints JSON-line records on stdout (docs/lab.md); `occ lab` reads them.\n");
}

static int find_experiment(const char *name)
{
    for (int i = 0; i < EXPERIMENT_COUNT; i++) {
        if (strcmp(name, experiments[i].name) == 0) {
            return i;
        }
    }
    return -1;
}

int main(int argc, char **argv)
{
    lab_options opt = {0};
    int wanted[EXPERIMENT_COUNT] = {0};
    int any = 0;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (strcmp(arg, "--help") == 0) {
            usage(stdout);
            return LAB_EXIT_OK;
        }
        if (strcmp(arg, "--quick") == 0) {
            opt.quick = 1;
            continue;
        }
        if (strcmp(arg, "probe") == 0) {
            any = 1;
            continue;
        }
        if (strcmp(arg, "all") == 0) {
            for (int e = 0; e < EXPERIMENT_COUNT; e++) {
                wanted[e] = 1;
            }
            any = 1;
            continue;
        }
        int e = find_experiment(arg);
        if (e < 0) {
            fprintf(stderr, "occ-lab: '%s' is not an experiment\n", arg);
            usage(stderr);
            return LAB_EXIT_USAGE;
        }
        wanted[e] = 1;
        any = 1;
    }
    if (!any) {
        usage(stderr);
        return LAB_EXIT_USAGE;
    }

    lab_gpu gpu;
    lab_gpu_open(&gpu);
    lab_record r;
    lab_record_begin(&r, "lab");
    lab_record_int(&r, "format", LAB_RECORDS_FORMAT);
    lab_record_str(&r, "occ_version", occ_version());
    lab_record_bool(&r, "quick", opt.quick);
    lab_record_end(&r);
    lab_gpu_record(&gpu);

    for (int e = 0; e < EXPERIMENT_COUNT; e++) {
        if (wanted[e]) {
            lab_progress("%s", experiments[e].name);
            experiments[e].run(&gpu, &opt);
        }
    }
    lab_record_begin(&r, "done");
    lab_record_end(&r);
    return LAB_EXIT_OK;
}
