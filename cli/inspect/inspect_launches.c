/*
 * inspect_launches.c - `--launches FILE`: the launch configurations
 * libocc-profile reads, given to the kernels read and printed (see
 * inspect_launches.h). The unmatched launches come heaviest first from
 * libocc-inspect (occ_inspect_launch_unmatched), as the JSON lists them.
 */
#include <stdlib.h>
#include <string.h>

#include "inspect_launches.h"
#include "output.h"

bool inspect_launches_load(const char *path, FILE *in, inspect_launch_set *out, cli_error *err)
{
    memset(out, 0, sizeof *out);
    occ_profile_error perr;
    /* '-': the command's stdin, where a launch table (a profile needs a file) */
    occ_status status = strcmp(path, "-") == 0
                            ? occ_profile_launches_read_stream(in, "<stdin>", &out->owner, &perr)
                            : occ_profile_launches_read(path, &out->owner, &perr);
    if (status != OCC_OK) {
        return cli_error_set(err, EXIT_DATA, "--launches: %s", perr.message);
    }
    out->list = occ_profile_launches_list(out->owner);
    return true;
}

bool inspect_launches_apply(inspect_launch_set *set, occ_inspect_result *r,
                            const occ_inspect_options *opts, cli_error *err)
{
    occ_inspect_error ierr;
    occ_inspect_launch_list *l = set->list;
    if (occ_inspect_apply_launches(r, opts, l->launches, l->count, l->matched, &l->match, &ierr) !=
        OCC_OK) {
        return cli_error_set(err, EXIT_DATA, "--launches %s: %s", l->path, ierr.message);
    }
    return true;
}

void inspect_launches_free(inspect_launch_set *set)
{
    occ_profile_launches_free(set->owner);
    memset(set, 0, sizeof *set);
}

static double share(double part, double whole)
{
    return whole > 0 ? part / whole : 0.0;
}

void inspect_launches_print(FILE *out, const occ_inspect_launch_list *l)
{
    const occ_inspect_launch_match *m = &l->match;
    fprintf(out, "Launches from ");
    cli_put_visible(out, l->path);
    bool table = strcmp(l->kind, "table") == 0;
    const char *measure = table ? "weight" : "GPU time";
    fprintf(out,
            " (%s): %zu %s, %zu of them matched kernels read here (%.1f%% of its %s); %zu %s %s "
            "launches.\n",
            l->kind, m->launches,
            cli_plural((double)m->launches, "configuration", "configurations"), m->matched,
            100.0 * share(m->matched_weight, m->weight), measure, m->kernels_launched,
            cli_plural((double)m->kernels_launched, "kernel got", "kernels got"), l->kind);
    size_t n = 0;
    size_t *order = NULL;
    if (occ_inspect_launch_unmatched(l, &order, &n) != OCC_OK) {
        fputs("(out of memory listing the launches that matched no kernel)\n", out);
        return;
    }
    if (n > 0) {
        fprintf(out,
                "%zu %s no kernel read (%.1f%% of the %s: compiled at run time, or in another "
                "binary); %s:\n",
                n, cli_plural((double)n, "configuration matches", "configurations match"),
                100.0 * share(m->weight - m->matched_weight, m->weight), measure,
                n == 1 ? "it is" : "the heaviest");
        for (size_t i = 0; i < n && i < 10; i++) {
            const occ_inspect_launch *launch = &l->launches[order[i]];
            fprintf(out, "  %5.1f%%  ", 100.0 * share(launch->weight, m->weight));
            cli_put_visible(out, launch->name);
            fputc('\n', out);
        }
    }
    free(order);
}
