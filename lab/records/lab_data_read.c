/*
 * lab_data_read.c - reads what occ-lab printed (lab_data.h): one JSON object
 * a line, each with a "record" kind (docs/lab.md). Unknown kinds are skipped
 * so an older occ can read a newer lab's output; a malformed line, an
 * unknown records format or a value no GPU could produce is refused,
 * naming the line. Lines are read into a fixed buffer (record_reader.h), so
 * memory stays bounded whatever the input.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "lab_data.h"
#include "record_reader.h"

/* Counts a row's arithmetic multiplies (warps x loads in flight): small
   enough that no product overflows an int, far above any GPU's. */
#define LAB_MAX_COUNT 32768

static double num(lab_reader *r, const char *key)
{
    json_t *v = lab_reader_required(r, key);
    if (v != NULL && !json_is_number(v)) {
        lab_reader_fail(r, "%s field '%s' is not a number", r->kind, key);
    }
    return v != NULL && json_is_number(v) ? json_number_value(v) : 0.0;
}

/* A whole number in [lo, hi]; 0 after a failure. */
static double whole(lab_reader *r, const char *key, double lo, double hi)
{
    double v = num(r, key);
    if (r->ok && (v != floor(v) || v < lo || v > hi)) {
        lab_reader_fail(r, "%s field '%s' is %.17g; it must be a whole number from %.0f to %.0f",
                        r->kind, key, v, lo, hi);
    }
    return r->ok ? v : 0.0;
}

static int integer(lab_reader *r, const char *key)
{
    return (int)whole(r, key, -2147483647.0, 2147483647.0);
}

/* A count of warps, blocks, loads, threads or bytes a load. */
static int count(lab_reader *r, const char *key)
{
    return (int)whole(r, key, 0.0, LAB_MAX_COUNT);
}

/* Byte and comparison totals: whole, and exact in a double. */
static long long total(lab_reader *r, const char *key)
{
    return (long long)whole(r, key, 0.0, 9007199254740992.0);
}

/* A median time: every timed row took some time. */
static double time_ms(lab_reader *r, const char *key)
{
    double v = num(r, key);
    if (r->ok) {
        lab_reader_time_ok(r, key, v);
    }
    return v;
}

static bool flag(lab_reader *r, const char *key)
{
    json_t *v = lab_reader_required(r, key);
    return v != NULL && json_is_true(v);
}

/* Copies a string field, cut at a UTF-8 character boundary when longer than
   out's `cap` bytes, so the JSON output can carry it again. Names reach the
   terminal as they are: occ-lab writes no control characters, and a field
   with one is refused. */
static void text(lab_reader *r, const char *key, char *out, size_t cap)
{
    json_t *v = lab_reader_required(r, key);
    const char *s = v != NULL && json_is_string(v) ? json_string_value(v) : "";
    size_t n = strlen(s);
    if (!lab_reader_no_control(r, key, s, n)) {
        n = 0;
    }
    if (n >= cap) {
        n = cap - 1;
        while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80) {
            n--; /* s[n] continues a character: cut before its first byte */
        }
    }
    memcpy(out, s, n);
    out[n] = '\0';
}

/* A launch name becomes part of a file name (timeline-NAME.svg): letters,
   digits, '-' and '_' only, so it cannot name another directory. */
static void launch_name(lab_reader *r, char *out, size_t cap)
{
    text(r, "launch", out, cap);
    if (!r->ok) {
        return;
    }
    size_t good = strspn(out, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-");
    if (out[0] == '\0' || out[good] != '\0') {
        lab_reader_fail(
            r,
            "%s field 'launch' is '%.40s'; a launch name may hold only letters, digits, '-' "
            "and '_'",
            r->kind, out);
    }
}

static bool room(lab_reader *r, int used, const char *what)
{
    if (used >= LAB_MAX_ROWS) {
        lab_reader_fail(r, "more than %d %s records", LAB_MAX_ROWS, what);
        return false;
    }
    return true;
}

static lab_launch *find_launch(lab_data *d, const char *name)
{
    for (int i = 0; i < d->launch_count; i++) {
        if (strcmp(d->launches[i].name, name) == 0) {
            return &d->launches[i];
        }
    }
    return NULL;
}

static void read_lab(lab_reader *r)
{
    double format = num(r, "format");
    if (r->ok && format != LAB_RECORDS_FORMAT) {
        lab_reader_fail(
            r,
            "records format %.17g is unknown; this occ reads format %d (a newer occ-lab "
            "wrote them?)",
            format, LAB_RECORDS_FORMAT);
    }
}

static void read_device(lab_reader *r, lab_data *d)
{
    lab_device_info *v = &d->device;
    text(r, "name", v->name, sizeof v->name);
    v->cc_major = integer(r, "cc_major");
    v->cc_minor = integer(r, "cc_minor");
    v->sm_count = (int)whole(r, "sm_count", 0.0, LAB_MAX_SM_COUNT);
    v->max_warps_per_sm = count(r, "max_warps_per_sm");
    v->l2_bytes = total(r, "l2_bytes");
    v->sm_clock_khz = integer(r, "sm_clock_khz");
    v->peak_gb_per_s = integer(r, "peak_gb_per_s");
    v->driver_version = integer(r, "driver_version");
    v->runtime_version = integer(r, "runtime_version");
    d->has_device = true;
}

static void read_ceiling(lab_reader *r, lab_data *d)
{
    char method[32];
    text(r, "method", method, sizeof method);
    double bytes = num(r, "bytes");
    double ms = num(r, "median_ms");
    if (strcmp(method, "memcpy") == 0) {
        d->memcpy_bytes = bytes;
        d->memcpy_ms = ms;
    } else if (strcmp(method, "copy_kernel") == 0) {
        d->copy_kernel_bytes = bytes;
        d->copy_kernel_ms = ms;
    }
}

static void read_latency(lab_reader *r, lab_data *d)
{
    char level[32];
    text(r, "level", level, sizeof level);
    double ns = num(r, "ns_per_load");
    double cycles = num(r, "cycles_per_load");
    if (strcmp(level, "dram") == 0) {
        d->dram_ns = ns;
        d->dram_cycles = cycles;
    } else if (strcmp(level, "dram_64mib") == 0) {
        d->dram_small_ns = ns;
    } else if (strcmp(level, "l2") == 0) {
        d->l2_ns = ns;
        d->l2_cycles = cycles;
    }
}

static void read_residency(lab_reader *r, lab_data *d)
{
    if (!room(r, d->residency_count, r->kind)) {
        return;
    }
    lab_residency_row *v = &d->residency[d->residency_count++];
    text(r, "label", v->label, sizeof v->label);
    v->items = count(r, "items");
    v->launch_bound_min_blocks = count(r, "launch_bound_min_blocks");
    v->dyn_smem_bytes = integer(r, "dyn_smem_bytes");
    v->regs = count(r, "regs");
    v->local_bytes = integer(r, "local_bytes");
    v->blocks_per_sm = count(r, "blocks_per_sm");
    v->warps_per_sm = count(r, "warps_per_sm");
    v->max_warps_per_sm = count(r, "max_warps_per_sm");
    v->loads_per_thread = count(r, "loads_per_thread");
    v->bytes_per_load = count(r, "bytes_per_load");
    v->bytes = num(r, "bytes");
    v->median_ms = time_ms(r, "median_ms");
    v->checked = flag(r, "checked");
}

static void read_blocksize(lab_reader *r, lab_data *d)
{
    if (!room(r, d->blocksize_count, r->kind)) {
        return;
    }
    lab_blocksize_row *v = &d->blocksize[d->blocksize_count++];
    v->threads = count(r, "threads");
    v->blocks_per_sm = count(r, "blocks_per_sm");
    v->warps_per_sm = count(r, "warps_per_sm");
    v->max_warps_per_sm = count(r, "max_warps_per_sm");
    v->suggested = flag(r, "suggested");
    v->bytes = num(r, "bytes");
    v->median_ms = time_ms(r, "median_ms");
    v->checked = flag(r, "checked");
}

static void read_spill(lab_reader *r, lab_data *d)
{
    if (!room(r, d->spill_count, r->kind)) {
        return;
    }
    lab_spill_row *v = &d->spill[d->spill_count++];
    v->min_blocks = count(r, "min_blocks");
    v->regs = count(r, "regs");
    v->local_bytes = integer(r, "local_bytes");
    v->blocks_per_sm = count(r, "blocks_per_sm");
    v->warps_per_sm = count(r, "warps_per_sm");
    v->max_warps_per_sm = count(r, "max_warps_per_sm");
    v->median_ms = time_ms(r, "median_ms");
    v->checked = flag(r, "checked");
}

static void read_launch(lab_reader *r, lab_data *d)
{
    if (d->launch_count >= LAB_MAX_LAUNCHES) {
        lab_reader_fail(r, "more than %d launch records", LAB_MAX_LAUNCHES);
        return;
    }
    lab_launch *v = &d->launches[d->launch_count];
    memset(v, 0, sizeof *v);
    launch_name(r, v->name, sizeof v->name);
    v->grid = (int)whole(r, "grid", 1.0, LAB_MAX_GRID);
    v->threads = count(r, "threads");
    v->blocks_per_sm = count(r, "blocks_per_sm");
    v->warps_per_sm = count(r, "warps_per_sm");
    v->max_warps_per_sm = count(r, "max_warps_per_sm");
    v->sm_count = (int)whole(r, "sm_count", 1.0, LAB_MAX_SM_COUNT);
    v->kernel_ms = num(r, "kernel_ms");
    if (r->ok && find_launch(d, v->name) != NULL) {
        lab_reader_fail(r, "a second launch record named '%s'", v->name);
    }
    if (!r->ok) {
        return;
    }
    v->blocks = calloc((size_t)v->grid, sizeof *v->blocks);
    if (v->blocks == NULL) {
        lab_reader_fail(r, "out of memory for the %d blocks of launch '%s'", v->grid, v->name);
        return;
    }
    d->launch_count++;
}

static void read_block(lab_reader *r, lab_data *d)
{
    char name[32];
    text(r, "launch", name, sizeof name);
    int index = integer(r, "block");
    int sm = integer(r, "sm");
    double start_ns = num(r, "start_ns");
    double end_ns = num(r, "end_ns");
    if (!r->ok) {
        return;
    }
    lab_launch *l = find_launch(d, name);
    if (l == NULL || index < 0 || index >= l->grid) {
        lab_reader_fail(r, "block %d of launch '%s' has no launch record or lies outside its grid",
                        index, name);
        return;
    }
    /* occ-lab writes a launch's blocks in order, so blocks[0..count-1] are
       exactly the ones read, whatever a damaged file repeats or leaves out */
    if (index != l->block_count) {
        lab_reader_fail(r, "block %d of launch '%s' is out of order (block %d comes next)", index,
                        name, l->block_count);
        return;
    }
    lab_block *b = &l->blocks[index];
    b->sm = sm;
    b->start_ns = start_ns;
    b->end_ns = end_ns;
    l->block_count++;
}

/* The root of an SM's GPC (union-find with path halving). */
int lab_gpc_root(lab_data *d, int sm)
{
    while (d->gpc_parent[sm] != sm) {
        d->gpc_parent[sm] = d->gpc_parent[d->gpc_parent[sm]];
        sm = d->gpc_parent[sm];
    }
    return sm;
}

static void gpc_join(lab_data *d, int a, int b)
{
    a = lab_gpc_root(d, a);
    b = lab_gpc_root(d, b);
    if (a != b) {
        d->gpc_parent[a < b ? b : a] = a < b ? a : b;
    }
}

/* "gpcs_sm": an SM and the SMs it shared a cluster with. */
static void read_gpcs_sm(lab_reader *r, lab_data *d)
{
    whole(r, "cluster_size", 1, 64);
    int sm = (int)whole(r, "smid", 0, LAB_MAX_SM_COUNT - 1);
    json_t *peers = lab_reader_required(r, "peers");
    if (!r->ok) {
        return;
    }
    if (!json_is_array(peers)) {
        lab_reader_fail(r, "gpcs_sm field 'peers' is not an array");
        return;
    }
    if (!d->has_gpcs) {
        d->has_gpcs = true;
    }
    if (d->gpc_parent[sm] < 0) {
        d->gpc_parent[sm] = sm;
    }
    for (size_t i = 0; i < json_array_size(peers); i++) {
        json_t *v = json_array_get(peers, i);
        if (!json_is_integer(v) || json_integer_value(v) < 0 ||
            json_integer_value(v) >= LAB_MAX_SM_COUNT) {
            lab_reader_fail(r, "gpcs_sm peers[%zu] is not an SM id from 0 to %d", i,
                            LAB_MAX_SM_COUNT - 1);
            return;
        }
        int other = (int)json_integer_value(v);
        if (d->gpc_parent[other] < 0) {
            d->gpc_parent[other] = other;
        }
        gpc_join(d, sm, other);
    }
}

static void read_gpcs_driver(lab_reader *r, lab_data *d)
{
    if (!room(r, d->gpcs_driver_count, "gpcs_driver")) {
        return;
    }
    lab_gpcs_driver *g = &d->gpcs_driver[d->gpcs_driver_count];
    g->cluster_size = (int)whole(r, "cluster_size", 1, 64);
    g->threads = (int)whole(r, "threads", 1, 1024);
    g->regs = (int)whole(r, "regs", 0, 255);
    g->static_smem_bytes = (int)whole(r, "static_smem_bytes", 0, 1 << 20);
    g->dyn_smem_bytes = (int)whole(r, "dyn_smem_bytes", 0, 1 << 20);
    g->max_threads = (int)whole(r, "max_threads", 1, 1024);
    g->blocks_per_sm = (int)whole(r, "blocks_per_sm", 0, 1024);
    g->driver_active_clusters = (int)whole(r, "driver_active_clusters", -1, LAB_MAX_COUNT);
    if (r->ok) {
        d->gpcs_driver_count++;
    }
}

static void read_persistent(lab_reader *r, lab_data *d)
{
    if (!room(r, d->persistent_count, "cluster_persistent")) {
        return;
    }
    lab_persistent_row *p = &d->persistent[d->persistent_count];
    char grid[16];
    p->cluster_size = (int)whole(r, "cluster_size", 1, 64);
    text(r, "grid", grid, sizeof grid);
    p->grid_active = strcmp(grid, "active") == 0;
    if (r->ok && !p->grid_active && strcmp(grid, "sms") != 0) {
        lab_reader_fail(r, "cluster_persistent field 'grid' is '%s'; it must be 'sms' or 'active'",
                        grid);
    }
    p->clusters = (int)whole(r, "clusters", 1, LAB_MAX_COUNT);
    p->blocks = (int)whole(r, "blocks", 1, LAB_MAX_COUNT);
    p->driver_active_clusters = (int)whole(r, "driver_active_clusters", -1, LAB_MAX_COUNT);
    p->occ_active_clusters = (int)whole(r, "occ_active_clusters", -1, LAB_MAX_COUNT);
    p->sms_used = (int)whole(r, "sms_used", 0, LAB_MAX_SM_COUNT);
    p->median_ms = time_ms(r, "median_ms");
    p->min_ms = time_ms(r, "min_ms");
    if (r->ok) {
        d->persistent_count++;
    }
}

static void read_record(lab_reader *r, lab_data *d)
{
    const char *k = r->kind;
    if (strcmp(k, "lab") == 0) {
        read_lab(r);
    } else if (strcmp(k, "device") == 0) {
        read_device(r, d);
    } else if (strcmp(k, "ceiling") == 0) {
        read_ceiling(r, d);
    } else if (strcmp(k, "latency") == 0) {
        read_latency(r, d);
    } else if (strcmp(k, "residency") == 0) {
        read_residency(r, d);
    } else if (strcmp(k, "blocksize_suggestion") == 0) {
        d->suggested_threads = count(r, "threads");
    } else if (strcmp(k, "blocksize") == 0) {
        read_blocksize(r, d);
    } else if (strcmp(k, "spill") == 0) {
        read_spill(r, d);
    } else if (strcmp(k, "launch") == 0) {
        read_launch(r, d);
    } else if (strcmp(k, "block") == 0) {
        read_block(r, d);
    } else if (strcmp(k, "verify") == 0) {
        d->has_verify = true;
        d->verify_kernels = count(r, "kernels");
        d->verify_comparisons = total(r, "comparisons");
        d->verify_mismatches = total(r, "mismatches");
    } else if (strcmp(k, "verify_clusters") == 0) {
        d->has_verify_clusters = true;
        d->verify_clusters_layout_known = flag(r, "layout_known");
        d->verify_cluster_comparisons = total(r, "comparisons");
        d->verify_cluster_mismatches = total(r, "mismatches");
    } else if (strcmp(k, "gpcs_sm") == 0) {
        read_gpcs_sm(r, d);
    } else if (strcmp(k, "gpcs_driver") == 0) {
        read_gpcs_driver(r, d);
    } else if (strcmp(k, "cluster_persistent") == 0) {
        read_persistent(r, d);
    } else if (strcmp(k, "error") == 0) {
        text(r, "message", d->error, sizeof d->error);
    } else if (strcmp(k, "done") == 0) {
        d->done = true;
    }
    /* "verify_kernel", "verify_mismatch" and unknown kinds carry nothing
       the analysis needs; they stay in the raw records. */
}

static void read_one(lab_reader *r, void *data)
{
    read_record(r, data);
}

bool lab_data_read(FILE *in, const char *name, lab_data *data, lab_error *err)
{
    memset(data, 0, sizeof *data);
    for (int i = 0; i < LAB_MAX_SM_COUNT; i++) {
        data->gpc_parent[i] = -1;
    }
    lab_reader r = {.name = name, .err = err, .ok = true};
    return lab_reader_lines(in, &r, read_one, data);
}

void lab_data_free(lab_data *data)
{
    for (int i = 0; i < data->launch_count; i++) {
        free(data->launches[i].blocks);
        data->launches[i].blocks = NULL;
    }
    data->launch_count = 0;
}
