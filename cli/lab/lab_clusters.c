/*
 * lab_clusters.c - the cluster experiments' analysis: SMs that ran blocks of
 * one cluster share a GPC [CUDA Programming Guide, "Thread Block
 * Clusters"], so the GPCs are the groups the records joined; libocc's
 * cudaOccupancyMaxActiveClusters on that layout must equal the driver's for
 * every size; the persistent-grid table; verify's cluster counts.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include "lab_clusters.h"

static int by_size_desc(const void *a, const void *b)
{
    return *(const int *)b - *(const int *)a;
}

bool lab_gpcs_layout(lab_data *d, int gpc_sms[OCC_MAX_GPCS], int *gpc_count, cli_error *err)
{
    if (!d->has_gpcs) {
        return cli_error_set(err, EXIT_DATA, "the records have no gpcs_sm records");
    }
    int count = 0;
    for (int sm = 0; sm < LAB_MAX_SM_COUNT; sm++) {
        if (d->gpc_parent[sm] < 0 || lab_gpc_root(d, sm) != sm) {
            continue;
        }
        if (count == OCC_MAX_GPCS) {
            return cli_error_set(err, EXIT_DATA, "more than %d GPCs in the records", OCC_MAX_GPCS);
        }
        int members = 0;
        for (int other = sm; other < LAB_MAX_SM_COUNT; other++) {
            members += d->gpc_parent[other] >= 0 && lab_gpc_root(d, other) == sm;
        }
        gpc_sms[count++] = members;
    }
    qsort(gpc_sms, (size_t)count, sizeof gpc_sms[0], by_size_desc);
    *gpc_count = count;
    return true;
}

/* libocc's device for the records' GPU with the measured layout. */
static bool measured_device(lab_data *d, occ_device *dev, cli_error *err)
{
    occ_error e;
    if (!d->has_device) {
        return cli_error_set(err, EXIT_DATA, "the records have no device record");
    }
    if (occ_arch_find(d->device.cc_major, d->device.cc_minor, dev, &e) != OCC_OK) {
        return cli_error_set(err, EXIT_DATA, "compute capability %d.%d: %s", d->device.cc_major,
                             d->device.cc_minor, e.message);
    }
    snprintf(dev->name, sizeof dev->name, "%s", d->device.name);
    dev->sm_count = d->device.sm_count;
    if (!lab_gpcs_layout(d, dev->gpc_sms, &dev->gpc_count, err)) {
        return false;
    }
    int total = 0;
    for (int g = 0; g < dev->gpc_count; g++) {
        total += dev->gpc_sms[g];
    }
    if (total != dev->sm_count) {
        return cli_error_set(err, EXIT_DATA,
                             "the measured GPCs hold %d SMs but the device has %d: some SM ran "
                             "no cluster",
                             total, dev->sm_count);
    }
    dev->gpc_source = OCC_GPC_MEASURED;
    return true;
}

/* Driver answers libocc gives differently on the measured layout. */
static int driver_mismatches(lab_data *d, const occ_device *dev, FILE *out, bool print)
{
    int wrong = 0;
    for (int i = 0; i < d->gpcs_driver_count; i++) {
        const lab_gpcs_driver *g = &d->gpcs_driver[i];
        occ_kernel k;
        occ_kernel_init(&k);
        k.block_x = g->threads;
        k.regs_per_thread = g->regs;
        k.static_smem_bytes = g->static_smem_bytes;
        k.dyn_smem_bytes = g->dyn_smem_bytes;
        k.max_threads_per_block = g->max_threads;
        k.cluster_x = g->cluster_size;
        k.cluster_non_portable = true;
        int occ = -1;
        occ_error e;
        if (occ_max_active_clusters(dev, &k, &occ, &e) != OCC_OK) {
            occ = -1;
        }
        if (occ != g->driver_active_clusters) {
            wrong++;
        }
        if (print) {
            fprintf(out, "  %4d %8d %9d %8d %5d %s\n", g->cluster_size, g->dyn_smem_bytes,
                    g->blocks_per_sm, g->driver_active_clusters, occ,
                    occ == g->driver_active_clusters ? "" : "MISMATCH");
        }
    }
    return wrong;
}

/* The database's layout for the records' GPU name: 1 same, 0 differs,
   -1 none listed. */
static int database_agrees(const lab_data *d, const occ_device *dev, occ_device *named)
{
    occ_error e;
    if (occ_gpu_find(d->device.name, named, &e) != OCC_OK || named->gpc_count == 0) {
        return -1;
    }
    if (named->gpc_count != dev->gpc_count) {
        return 0;
    }
    for (int g = 0; g < dev->gpc_count; g++) {
        if (named->gpc_sms[g] != dev->gpc_sms[g]) {
            return 0;
        }
    }
    return 1;
}

static void print_list(FILE *out, const int *v, int n)
{
    for (int i = 0; i < n; i++) {
        fprintf(out, i == 0 ? "%d" : ",%d", v[i]);
    }
}

static bool report_gpcs(FILE *out, lab_data *d, lab_format format, cli_error *err)
{
    occ_device dev;
    if (!measured_device(d, &dev, err)) {
        return false;
    }
    occ_device named;
    int agrees = database_agrees(d, &dev, &named);
    bool text = format != LAB_JSON; /* CSV: the text report (no CSV table yet) */
    if (text) {
        fprintf(out,
                "gpcs: %s, %d SMs in %d GPCs as the cluster scheduler sees them\n  SMs per "
                "GPC: ",
                d->device.name, dev.sm_count, dev.gpc_count);
        print_list(out, dev.gpc_sms, dev.gpc_count);
        fprintf(out, "\n\n  size dyn_smem blocks/SM   driver   occ\n");
    }
    int wrong = driver_mismatches(d, &dev, out, text);
    if (text) {
        fprintf(out, "\n  driver: %d of %d answers equal libocc's on the measured layout\n",
                d->gpcs_driver_count - wrong, d->gpcs_driver_count);
        fprintf(out, "  database: %s\n",
                agrees < 0   ? "no layout listed for this GPU"
                : agrees > 0 ? "the listed layout is the measured one"
                             : "the listed layout DIFFERS from the measured one");
    } else {
        json_t *sms = json_array();
        for (int g = 0; g < dev.gpc_count; g++) {
            json_array_append_new(sms, json_integer(dev.gpc_sms[g]));
        }
        json_t *root =
            json_pack("{s:s,s:i,s:s,s:o,s:i,s:i,s:s}", "schema", "occ.lab.gpcs", "version", 1,
                      "gpu", d->device.name, "gpc_sms", sms, "driver_answers", d->gpcs_driver_count,
                      "mismatches", wrong, "database",
                      agrees < 0   ? "none"
                      : agrees > 0 ? "same"
                                   : "differs");
        json_dumpf(root, out, JSON_INDENT(2));
        fputc('\n', out);
        json_decref(root);
    }
    if (wrong != 0 || d->gpcs_driver_count == 0) {
        return cli_error_set(err, EXIT_DATA,
                             "gpcs: %d of %d driver answers differ from libocc's on the measured "
                             "layout",
                             wrong, d->gpcs_driver_count);
    }
    return true;
}

static bool report_persistent(FILE *out, const lab_data *d, lab_format format, cli_error *err)
{
    if (d->persistent_count == 0) {
        return cli_error_set(err, EXIT_DATA, "the records have no cluster_persistent records");
    }
    if (format == LAB_CSV) {
        fprintf(out, "cluster_size,grid,clusters,blocks,driver_active_clusters,"
                     "occ_active_clusters,sms_used,idle_sms,median_ms,min_ms\n");
    } else {
        fprintf(out, "\nclusters: a persistent cluster kernel, grid by SM count against "
                     "max active clusters x size\n  size grid    clusters blocks driver  occ "
                     "SMs used idle  median ms\n");
    }
    for (int i = 0; i < d->persistent_count; i++) {
        const lab_persistent_row *p = &d->persistent[i];
        int idle = d->device.sm_count - p->sms_used;
        fprintf(out,
                format == LAB_CSV ? "%d,%s,%d,%d,%d,%d,%d,%d,%.4f,%.4f\n"
                                  : "  %4d %-7s %8d %6d %6d %4d %8d %4d %10.4f\n",
                p->cluster_size, p->grid_active ? "active" : "sms", p->clusters, p->blocks,
                p->driver_active_clusters, p->occ_active_clusters, p->sms_used, idle, p->median_ms,
                p->min_ms);
    }
    return true;
}

bool lab_clusters_report(FILE *out, lab_data *d, bool gpcs, bool clusters, bool verify,
                         lab_format format, cli_error *err)
{
    if (d->has_device && d->device.cc_major < 9) {
        gpcs = clusters = false; /* occ-lab skipped them: clusters need 9.0 */
    }
    if (gpcs && !report_gpcs(out, d, format, err)) {
        return false;
    }
    if (clusters && !report_persistent(out, d, format, err)) {
        return false;
    }
    if (verify && d->has_verify_clusters) {
        if (format == LAB_TEXT) {
            fprintf(out,
                    "  clusters: %lld comparisons of max active clusters and potential "
                    "cluster size, %lld mismatches%s\n",
                    d->verify_cluster_comparisons, d->verify_cluster_mismatches,
                    d->verify_clusters_layout_known
                        ? ""
                        : " (no GPC layout known for this GPU: run occ lab gpcs)");
        }
        if (d->verify_cluster_mismatches != 0) {
            return cli_error_set(err, EXIT_DATA,
                                 "verify: %lld of %lld cluster comparisons differ between "
                                 "libocc and the driver",
                                 d->verify_cluster_mismatches, d->verify_cluster_comparisons);
        }
    }
    return true;
}

bool lab_gpcs_write_gpu_file(const char *dir, lab_data *d, cli_error *err)
{
    occ_device dev;
    if (!measured_device(d, &dev, err)) {
        return false;
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/gpu-layout.json", dir);
    json_t *sms = json_array();
    for (int g = 0; g < dev.gpc_count; g++) {
        json_array_append_new(sms, json_integer(dev.gpc_sms[g]));
    }
    char base[16];
    snprintf(base, sizeof base, "sm_%d%d", d->device.cc_major, d->device.cc_minor);
    json_t *root = json_pack("{s:s,s:s,s:i,s:o}", "name", d->device.name, "base", base, "sm_count",
                             dev.sm_count, "gpc_sms", sms);
    int rc = json_dump_file(root, path, JSON_INDENT(2));
    json_decref(root);
    if (rc != 0) {
        return cli_error_set(err, EXIT_DATA, "cannot write %s", path);
    }
    return true;
}
