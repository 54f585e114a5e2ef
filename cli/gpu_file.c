/*
 * gpu_file.c - reads a GPU that is not in the database from a JSON file
 * (--gpu-file), and resolves --gpu / --gpu-file for every command.
 * The format is documented in docs/gpu-file.md.
 */
#include <jansson.h>
#include <string.h>

#include "cli.h"

/* An integer field of occ_device, by its JSON key. */
typedef struct int_field {
    const char *key;
    size_t offset;
} int_field;

#define FIELD(name)                                                                                \
    {                                                                                              \
#name, offsetof(occ_device, name)                                                          \
    }
static const int_field int_fields[] = {
    FIELD(cc_major),
    FIELD(cc_minor),
    FIELD(warp_size_threads),
    FIELD(max_threads_per_block),
    FIELD(max_threads_per_sm),
    FIELD(max_blocks_per_sm),
    FIELD(regs_per_sm),
    FIELD(regs_per_block),
    FIELD(max_regs_per_thread),
    FIELD(reg_alloc_unit),
    FIELD(sub_partitions_per_sm),
    FIELD(reg_fit_sub_partitions),
    FIELD(smem_per_sm_bytes),
    FIELD(smem_per_block_bytes),
    FIELD(smem_per_block_optin_bytes),
    FIELD(smem_reserved_per_block_bytes),
    FIELD(smem_alloc_unit_bytes),
    FIELD(barriers_per_block_slot),
    FIELD(sm_count),
    FIELD(sm_clock_mhz),
    FIELD(mem_bandwidth_gb_per_s),
    FIELD(l2_bytes),
    FIELD(mem_latency_ns),
};
#undef FIELD
static const int field_count = (int)(sizeof int_fields / sizeof int_fields[0]);

/* Fields a description must give when it has no base to start from. */
static const char *const required_without_base[] = {
    "cc_major",    "max_threads_per_sm", "max_blocks_per_sm",
    "regs_per_sm", "smem_per_sm_bytes",  "smem_per_block_optin_bytes",
};

static bool fail(char *msg, size_t cap, const char *path, const char *text)
{
    snprintf(msg, cap, "%s: %s", path, text);
    return false;
}

static bool int_value(json_t *value, int *out)
{
    if (!json_is_integer(value)) {
        return false;
    }
    json_int_t v = json_integer_value(value);
    if (v < -2147483647LL - 1 || v > 2147483647LL) {
        return false;
    }
    *out = (int)v;
    return true;
}

/* The starting point: "base", else the generic entry of cc_major.cc_minor. */
static bool pick_base(json_t *root, const char *path, occ_device *out, char *msg, size_t cap)
{
    char text[OCC_ERROR_MESSAGE_BYTES + 64];
    occ_error err;
    json_t *base = json_object_get(root, "base");
    if (base != NULL) {
        if (!json_is_string(base)) {
            return fail(msg, cap, path, "field 'base': must be a GPU name such as \"sm_90\"");
        }
        if (occ_gpu_find(json_string_value(base), out, &err) != OCC_OK) {
            snprintf(text, sizeof text, "field 'base': %s", err.message);
            return fail(msg, cap, path, text);
        }
        return true;
    }
    int major = 0;
    int minor = 0;
    json_t *jmajor = json_object_get(root, "cc_major");
    json_t *jminor = json_object_get(root, "cc_minor");
    if (jmajor != NULL && int_value(jmajor, &major) &&
        (jminor == NULL || int_value(jminor, &minor)) &&
        occ_arch_find(major, minor, out, NULL) == OCC_OK) {
        return true;
    }
    /* An unknown architecture: the limits must be given; the rules every
       CUDA GPU shares (warp size, per-block limits, allocation units, the
       reserved KB of 8.0 on) come from the newest generic entry. */
    for (size_t i = 0; i < sizeof required_without_base / sizeof required_without_base[0]; i++) {
        if (json_object_get(root, required_without_base[i]) == NULL) {
            snprintf(text, sizeof text,
                     "field '%s': is required when neither 'base' nor a known "
                     "cc_major/cc_minor gives the limits",
                     required_without_base[i]);
            return fail(msg, cap, path, text);
        }
    }
    occ_device shared = {0};
    for (int i = 0; i < occ_gpu_count(); i++) {
        occ_device entry;
        bool named;
        if (occ_gpu_at(i, &entry, &named, NULL) == OCC_OK && !named) {
            shared = entry; /* generic entries run oldest to newest */
        }
    }
    memset(out, 0, sizeof *out);
    out->warp_size_threads = shared.warp_size_threads;
    out->max_threads_per_block = shared.max_threads_per_block;
    out->max_regs_per_thread = shared.max_regs_per_thread;
    out->reg_alloc_unit = shared.reg_alloc_unit;
    out->sub_partitions_per_sm = shared.sub_partitions_per_sm;
    out->smem_per_block_bytes = shared.smem_per_block_bytes;
    out->smem_alloc_unit_bytes = shared.smem_alloc_unit_bytes;
    out->smem_reserved_per_block_bytes = shared.smem_reserved_per_block_bytes;
    out->regs_per_block = shared.regs_per_block;
    return true;
}

static bool apply_fields(json_t *root, const char *path, occ_device *dev, char *msg, size_t cap)
{
    char text[256];
    const char *key;
    json_t *value;
    json_object_foreach(root, key, value)
    {
        if (strcmp(key, "base") == 0) {
            continue;
        }
        if (strcmp(key, "name") == 0) {
            const char *name = json_string_value(value);
            if (name == NULL || name[0] == '\0' || strlen(name) >= sizeof dev->name) {
                return fail(msg, cap, path,
                            "field 'name': must be a non-empty string of at most 63 bytes");
            }
            snprintf(dev->name, sizeof dev->name, "%s", name);
            continue;
        }
        if (strcmp(key, "partitioned_gc") == 0) {
            if (!json_is_boolean(value)) {
                return fail(msg, cap, path, "field 'partitioned_gc': must be true or false");
            }
            dev->partitioned_gc = json_is_true(value);
            continue;
        }
        if (strcmp(key, "carveout_steps_bytes") == 0) {
            size_t n = json_array_size(value);
            if (!json_is_array(value) || n > OCC_MAX_CARVEOUT_STEPS) {
                return fail(msg, cap, path,
                            "field 'carveout_steps_bytes': must be an array of at most 12 "
                            "byte counts ([] for fixed shared memory)");
            }
            for (size_t i = 0; i < n; i++) {
                if (!int_value(json_array_get(value, i), &dev->carveout_steps_bytes[i])) {
                    snprintf(text, sizeof text,
                             "field 'carveout_steps_bytes'[%zu]: must be an integer", i);
                    return fail(msg, cap, path, text);
                }
            }
            dev->carveout_step_count = (int)n;
            continue;
        }
        int f = 0;
        while (f < field_count && strcmp(int_fields[f].key, key) != 0) {
            f++;
        }
        if (f == field_count) {
            snprintf(text, sizeof text, "field '%.64s': is unknown (see docs/gpu-file.md)", key);
            return fail(msg, cap, path, text);
        }
        int *slot = (int *)(void *)((char *)dev + int_fields[f].offset);
        if (!int_value(value, slot)) {
            snprintf(text, sizeof text, "field '%s': must be an integer", key);
            return fail(msg, cap, path, text);
        }
    }
    return true;
}

bool cli_load_gpu_file(const char *path, occ_device *out, char *msg, size_t cap)
{
    json_error_t jerr;
    json_t *root = json_load_file(path, JSON_REJECT_DUPLICATES, &jerr);
    if (root == NULL) {
        if (jerr.line < 0) {
            /* jansson's own text names the path already ("unable to open
               x.json: ..."); keep one copy, ours, at the front. */
            const char *text = jerr.text;
            const char *named = strstr(text, path);
            if (named != NULL) {
                text = named + strlen(path);
                text += strspn(text, ": ");
            }
            snprintf(msg, cap, "%s: cannot read: %s", path, text);
        } else {
            snprintf(msg, cap, "%s: line %d column %d: %s", path, jerr.line, jerr.column,
                     jerr.text);
        }
        return false;
    }
    bool ok = false;
    occ_device dev;
    if (!json_is_object(root)) {
        fail(msg, cap, path, "must hold one JSON object describing a GPU");
    } else if (pick_base(root, path, &dev, msg, cap) && apply_fields(root, path, &dev, msg, cap)) {
        if (json_object_get(root, "name") == NULL) {
            fail(msg, cap, path, "field 'name': is required");
        } else {
            occ_error err;
            if (occ_device_validate(&dev, &err) != OCC_OK) {
                char text[OCC_ERROR_MESSAGE_BYTES + 16];
                snprintf(text, sizeof text, "field %s", err.message);
                fail(msg, cap, path, text);
            } else {
                *out = dev;
                ok = true;
            }
        }
    }
    json_decref(root);
    return ok;
}

int cli_resolve_gpu(const char *command, const char *gpu_name, const char *gpu_file,
                    occ_device *out, const cli_io *io)
{
    if (gpu_name != NULL && gpu_file != NULL) {
        return cli_fail(io, command, EXIT_USAGE,
                        "options --gpu and --gpu-file: give one, not both");
    }
    if (gpu_file != NULL) {
        char msg[512];
        if (!cli_load_gpu_file(gpu_file, out, msg, sizeof msg)) {
            return cli_fail(io, command, EXIT_DATA, "%s", msg);
        }
        return EXIT_OK;
    }
    if (gpu_name == NULL) {
        return cli_fail(io, command, EXIT_USAGE,
                        "option --gpu: is required (a name such as H200, or sm_90; "
                        "'occ gpus' lists them)");
    }
    occ_error err;
    if (occ_gpu_find(gpu_name, out, &err) != OCC_OK) {
        return cli_fail(io, command, EXIT_USAGE, "option --gpu: %s", err.message);
    }
    return EXIT_OK;
}
