/*
 * groups.c - launches into groups as the readers stream them: one group per
 * device, kernel name and launch configuration (grid, block, cluster,
 * registers, shared memory, cache preference). Names are interned once.
 * Memory grows with the distinct groups and names, never with launches.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "prof_engine.h"

static unsigned long long mix(unsigned long long h, unsigned long long v)
{
    h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    return h;
}

/* FNV-1a over the length and at most 64 bytes of the name: its first 32 and
   last 32, where kernel names differ (the middle of long template names is
   mostly shared); equal hashes are told apart by a full compare. Hashing
   every byte of every launch's name cost more than the rest of grouping. */
static unsigned long long hash_bytes(const char *s, size_t n)
{
    unsigned long long h = 1469598103934665603ULL ^ n;
    size_t head = n < 32 ? n : 32;
    for (size_t i = 0; i < head; i++) {
        h = (h ^ (unsigned char)s[i]) * 1099511628211ULL;
    }
    for (size_t i = n > 64 ? n - 32 : head; i < n; i++) {
        h = (h ^ (unsigned char)s[i]) * 1099511628211ULL;
    }
    return h;
}

static occ_status no_memory(occ_profile_result *r, occ_profile_error *err)
{
    return prof_error(err, OCC_ERR_OUT_OF_MEMORY, r->current_path, r->current_input, -1,
                      "out of memory");
}

/* The interned copy of a name; NULL on failure (err set). */
static const char *intern(occ_profile_result *r, const char *s, size_t n, occ_profile_error *err)
{
    /* a name is a C string kept at most OCC_PROFILE_MAX_NAME_LENGTH bytes (the
       readers may hand on longer ones, or NULs from SQLite text or a JSON
       \u0000): cut alike here, so the table's hashes (strlen when it grows)
       and its compares agree */
    const char *nul = memchr(s, '\0', n);
    if (nul) {
        n = (size_t)(nul - s);
    }
    if (n > OCC_PROFILE_MAX_NAME_LENGTH) {
        n = OCC_PROFILE_MAX_NAME_LENGTH;
    }
    if (r->name_count * 2 >= r->name_slot_cap) {
        size_t cap = r->name_slot_cap ? r->name_slot_cap * 2 : 1024;
        size_t *slots = calloc(cap, sizeof *slots);
        if (!slots) {
            no_memory(r, err);
            return NULL;
        }
        for (size_t i = 0; i < r->name_count; i++) {
            size_t at = hash_bytes(r->names[i], strlen(r->names[i])) & (cap - 1);
            while (slots[at]) {
                at = (at + 1) & (cap - 1);
            }
            slots[at] = i + 1;
        }
        free(r->name_slots);
        r->name_slots = slots;
        r->name_slot_cap = cap;
    }
    size_t at = hash_bytes(s, n) & (r->name_slot_cap - 1);
    while (r->name_slots[at]) {
        const char *known = r->names[r->name_slots[at] - 1];
        if (strncmp(known, s, n) == 0 && known[n] == '\0') {
            return known;
        }
        at = (at + 1) & (r->name_slot_cap - 1);
    }
    if (r->name_bytes + n + 1 > OCC_PROFILE_MAX_NAME_BYTES) {
        prof_error(err, OCC_ERR_LIMIT, r->current_path, r->current_input, -1,
                   "more than %zu MB of distinct kernel names", OCC_PROFILE_MAX_NAME_BYTES >> 20);
        return NULL;
    }
    if (r->name_count == r->name_cap) {
        size_t cap = r->name_cap ? r->name_cap * 2 : 512;
        char **names = realloc(r->names, cap * sizeof *names);
        if (!names) {
            no_memory(r, err);
            return NULL;
        }
        r->names = names;
        r->name_cap = cap;
    }
    char *copy = malloc(n + 1);
    if (!copy) {
        no_memory(r, err);
        return NULL;
    }
    memcpy(copy, s, n);
    copy[n] = '\0';
    r->names[r->name_count++] = copy;
    r->name_slots[at] = r->name_count;
    r->name_bytes += n + 1;
    return copy;
}

/* The device entry for (current input, trace id), made on first sight. */
static int device_index(occ_profile_result *r, int trace_id, occ_profile_error *err)
{
    for (size_t i = 0; i < r->device_count; i++) {
        if (r->devices[i].input == r->current_input && r->devices[i].trace_id == trace_id) {
            return (int)i;
        }
    }
    if (r->device_count == OCC_PROFILE_MAX_DEVICES) {
        prof_error(err, OCC_ERR_LIMIT, r->current_path, r->current_input, -1,
                   "more than %d devices", OCC_PROFILE_MAX_DEVICES);
        return -1;
    }
    occ_profile_device *d = &r->devices[r->device_count];
    memset(d, 0, sizeof *d);
    d->input = r->current_input;
    d->trace_id = trace_id;
    d->trace_cc_major = d->trace_cc_minor = -1;
    return (int)r->device_count++;
}

occ_status prof_engine_device(void *context, const prof_device *dev, occ_profile_error *err)
{
    occ_profile_result *r = context;
    int i = device_index(r, dev->id, err);
    if (i < 0) {
        return err ? err->status : OCC_ERR_LIMIT;
    }
    occ_profile_device *d = &r->devices[i];
    if (d->trace_name[0] == '\0' && dev->name && dev->name[0]) {
        size_t n = strlen(dev->name);
        n = n < sizeof d->trace_name - 1 ? n : sizeof d->trace_name - 1;
        memcpy(d->trace_name, dev->name, n);
        d->trace_name[n] = '\0';
    }
    if (dev->sm_count > 0) {
        d->trace_sm_count = dev->sm_count;
    }
    if (dev->cc_major >= 0) {
        d->trace_cc_major = dev->cc_major;
        d->trace_cc_minor = dev->cc_minor;
    }
    return OCC_OK;
}

static bool same_config(const occ_profile_group *g, int device, const char *name,
                        const prof_launch *l)
{
    return g->device == device && g->name == name &&
           memcmp(g->grid, l->grid, sizeof g->grid) == 0 &&
           memcmp(g->block, l->block, sizeof g->block) == 0 &&
           memcmp(g->cluster, l->cluster, sizeof g->cluster) == 0 &&
           g->regs_per_thread == l->regs_per_thread &&
           g->static_smem_bytes == l->static_smem_bytes && g->dyn_smem_bytes == l->dyn_smem_bytes &&
           g->smem_bytes == l->smem_bytes && g->cache_preference == l->cache_preference &&
           g->carveout_percent == l->carveout_percent &&
           g->local_bytes_per_thread == l->local_bytes_per_thread;
}

static unsigned long long config_hash(int device, const char *name, const prof_launch *l)
{
    unsigned long long h = mix((unsigned long long)device, (unsigned long long)(uintptr_t)name);
    for (int i = 0; i < 3; i++) {
        h = mix(h, (unsigned long long)l->grid[i]);
        h = mix(h, (unsigned long long)l->block[i]);
        h = mix(h, (unsigned long long)l->cluster[i]);
    }
    h = mix(h, (unsigned long long)l->regs_per_thread);
    h = mix(h, (unsigned long long)(unsigned)l->static_smem_bytes);
    h = mix(h, (unsigned long long)(unsigned)l->dyn_smem_bytes);
    h = mix(h, (unsigned long long)(unsigned)l->smem_bytes);
    h = mix(h, (unsigned long long)(unsigned)l->cache_preference);
    h = mix(h, (unsigned long long)(unsigned)l->carveout_percent);
    return h;
}

static occ_status grow_slots(occ_profile_result *r, occ_profile_error *err)
{
    size_t cap = r->slot_cap ? r->slot_cap * 2 : 4096;
    size_t *slots = calloc(cap, sizeof *slots);
    if (!slots) {
        return no_memory(r, err);
    }
    for (size_t i = 0; i < r->group_count; i++) {
        size_t at = r->groups[i].hash & (cap - 1);
        while (slots[at]) {
            at = (at + 1) & (cap - 1);
        }
        slots[at] = i + 1;
    }
    free(r->slots);
    r->slots = slots;
    r->slot_cap = cap;
    return OCC_OK;
}

static void count_executed(prof_group *g, int executed)
{
    if (executed == OCC_PROFILE_UNKNOWN) {
        g->executed_unknown++;
        return;
    }
    for (int i = 0; i < PROF_EXECUTED_VALUES; i++) {
        if (g->executed_count[i] == 0) {
            g->executed_value[i] = executed;
        }
        if (g->executed_value[i] == executed) {
            g->executed_count[i]++;
            return;
        }
    }
    g->executed_other++;
}

occ_status prof_engine_launch(void *context, const prof_launch *l, occ_profile_error *err)
{
    occ_profile_result *r = context;
    r->summary.launches_read++;
    r->summary.gpu_time_us += l->duration_us;
    int device = device_index(r, l->device, err);
    if (device < 0) {
        return err ? err->status : OCC_ERR_LIMIT;
    }
    r->devices[device].launches++;
    r->devices[device].gpu_time_us += l->duration_us;
    const char *name = intern(r, l->name, l->name_length, err);
    if (!name) {
        return err ? err->status : OCC_ERR_OUT_OF_MEMORY;
    }
    unsigned long long h = config_hash(device, name, l);
    if (r->group_count * 2 >= r->slot_cap) {
        occ_status st = grow_slots(r, err);
        if (st != OCC_OK) {
            return st;
        }
    }
    size_t at = h & (r->slot_cap - 1);
    prof_group *g = NULL;
    while (r->slots[at]) {
        prof_group *known = &r->groups[r->slots[at] - 1];
        if (known->hash == h && same_config(&known->pub, device, name, l)) {
            g = known;
            break;
        }
        at = (at + 1) & (r->slot_cap - 1);
    }
    if (!g) {
        if (r->group_count == OCC_PROFILE_MAX_GROUPS) {
            return prof_error(err, OCC_ERR_LIMIT, r->current_path, r->current_input, -1,
                              "more than %d distinct kernel launch configurations",
                              OCC_PROFILE_MAX_GROUPS);
        }
        if (r->group_count == r->group_cap) {
            size_t cap = r->group_cap ? r->group_cap * 2 : 1024;
            prof_group *groups = realloc(r->groups, cap * sizeof *groups);
            if (!groups) {
                return no_memory(r, err);
            }
            r->groups = groups;
            r->group_cap = cap;
        }
        g = &r->groups[r->group_count++];
        memset(g, 0, sizeof *g);
        r->slots[at] = r->group_count;
        g->hash = h;
        occ_profile_group *p = &g->pub;
        p->device = device;
        p->name = name;
        if (l->mangled) {
            p->mangled = intern(r, l->mangled, l->mangled_length, err);
            if (!p->mangled) {
                return err ? err->status : OCC_ERR_OUT_OF_MEMORY;
            }
        }
        memcpy(p->grid, l->grid, sizeof p->grid);
        memcpy(p->block, l->block, sizeof p->block);
        memcpy(p->cluster, l->cluster, sizeof p->cluster);
        p->cluster_known = l->cluster_known;
        p->regs_per_thread = l->regs_per_thread;
        p->static_smem_bytes = l->static_smem_bytes;
        p->dyn_smem_bytes = l->dyn_smem_bytes;
        p->smem_bytes = l->smem_bytes;
        p->local_bytes_per_thread = l->local_bytes_per_thread;
        p->cache_preference = l->cache_preference;
        p->carveout_percent = l->carveout_percent;
        p->kineto_est_occupancy = -2;
    }
    occ_profile_group *p = &g->pub;
    p->launches++;
    p->gpu_time_us += l->duration_us;
    if (l->duration_us > p->max_time_us) {
        p->max_time_us = l->duration_us;
    }
    count_executed(g, l->smem_executed_bytes);
    if (l->has_kineto_estimate) {
        if (g->kineto_launches == 0) {
            p->kineto_est_occupancy = l->kineto_estimate;
        }
        g->kineto_launches++;
    }
    return OCC_OK;
}
