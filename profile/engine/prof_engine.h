/*
 * prof_engine.h - libocc-profile's engine, for the library and its tests:
 * launches grouped by device and configuration as the readers stream them
 * (groups.c), each group computed once with libocc (compute.c), the result
 * and its accessors (result.c).
 */
#ifndef OCC_PROF_ENGINE_H
#define OCC_PROF_ENGINE_H

#include "occ_profile.h"
#include "prof_formats.h"

/* The distinct sharedMemoryExecuted values a group keeps apart. */
#define PROF_EXECUTED_VALUES 4

/* A group while reading: the public group, plus what only reading needs. */
typedef struct prof_group {
    occ_profile_group pub;
    unsigned long long hash;
    int executed_value[PROF_EXECUTED_VALUES];
    long long executed_count[PROF_EXECUTED_VALUES];
    long long executed_other;   /* launches with a further value */
    long long executed_unknown; /* launches without the field */
    long long kineto_launches;  /* launches with Kineto's estimate */
} prof_group;

struct occ_profile_result {
    /* groups: an open-addressing table of indices into `groups` */
    prof_group *groups;
    size_t group_count, group_cap;
    size_t *slots; /* index + 1; 0 empty */
    size_t slot_cap;
    /* interned names */
    char **names;
    size_t name_count, name_cap;
    size_t *name_slots;
    size_t name_slot_cap;
    size_t name_bytes;
    /* devices */
    occ_profile_device devices[OCC_PROFILE_MAX_DEVICES];
    size_t device_count;
    occ_profile_format formats[64]; /* per input, for the first 64 */
    int input_count;
    occ_profile_summary summary;
    int current_input; /* while reading */
    const char *current_path;
    const occ_profile_input *inputs; /* during occ_profile_read only */
};

/* The sink callbacks (groups.c). */
occ_status prof_engine_launch(void *context, const prof_launch *launch, occ_profile_error *err);
occ_status prof_engine_device(void *context, const prof_device *device, occ_profile_error *err);

/* Resolves each device's GPU and computes every group (compute.c). */
occ_status prof_engine_compute(occ_profile_result *r, const occ_profile_options *options,
                               occ_profile_error *err);

/* The libocc kernel of a group (at its launch-time configuration once computed). */
void prof_group_kernel(const occ_profile_group *g, occ_kernel *k);

void prof_engine_free(occ_profile_result *r);

#endif /* OCC_PROF_ENGINE_H */
