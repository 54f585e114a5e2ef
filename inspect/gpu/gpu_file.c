/*
 * gpu_file.c - a GPU described in JSON, the file `--gpu-file` and
 * occ.gpu_from_file read (docs/gpu-file.md): occ_inspect_gpu_from_json and
 * occ_inspect_gpu_file (include/occ_inspect.h). The one reader of the
 * format; the CLI and the Python package call it.
 *
 * It lives in libocc-inspect, not libocc: it reads files and parses JSON
 * into a tree (jansson), which allocates, and libocc does neither. The
 * fields it fills and the checks the result must pass (occ_device_validate)
 * are libocc's.
 */
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "inspect_error.h"
#include "occ_inspect.h"

__attribute__((format(printf, 3, 4))) static bool
gpu_file_fail(occ_inspect_error *err, occ_status status, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    insp_error_vset(err, status, -1, -1, format, args);
    va_end(args);
    return false;
}

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
#define FIELD_COUNT ((int)(sizeof int_fields / sizeof int_fields[0]))

/* Fields a description must give when it has no base to start from. */
static const char *const required_without_base[] = {
    "cc_major",    "max_threads_per_sm", "max_blocks_per_sm",
    "regs_per_sm", "smem_per_sm_bytes",  "smem_per_block_optin_bytes",
};

typedef struct gpu_file {
    const char *name; /* the file, for messages */
    json_t *root;
    char base[96]; /* where the fields not given come from, for messages */
} gpu_file;

/* "FILE: field 'KEY': DETAIL" */
static bool fail(occ_inspect_error *err, const gpu_file *f, const char *field, const char *detail)
{
    return gpu_file_fail(err, OCC_ERR_BAD_FORMAT, "%s: field '%s': %s", f->name, field, detail);
}

static bool given(const gpu_file *f, const char *key)
{
    return json_object_get(f->root, key) != NULL;
}

/* An integer value of an int field: "must be an integer", or the range. */
static bool int_value(const gpu_file *f, const char *key, json_t *value, int *out,
                      occ_inspect_error *err)
{
    if (!json_is_integer(value)) {
        return fail(err, f, key, "must be an integer");
    }
    json_int_t v = json_integer_value(value);
    if (v < -2147483647LL - 1 || v > 2147483647LL) {
        char detail[96];
        snprintf(detail, sizeof detail,
                 "%lld is outside the range of an int (-2147483648 to "
                 "2147483647)",
                 (long long)v);
        return fail(err, f, key, detail);
    }
    *out = (int)v;
    return true;
}

/* The starting point: "base", else the generic entry of cc_major.cc_minor,
   else the rules every CUDA GPU shares. */
static bool pick_base(gpu_file *f, occ_device *out, occ_inspect_error *err)
{
    occ_error oerr;
    json_t *base = json_object_get(f->root, "base");
    if (base != NULL) {
        if (!json_is_string(base)) {
            return fail(err, f, "base", "must be a GPU name such as \"sm_90\"");
        }
        if (occ_gpu_find(json_string_value(base), out, &oerr) != OCC_OK) {
            return fail(err, f, "base", oerr.message);
        }
        snprintf(f->base, sizeof f->base, "from base %s", out->name);
        return true;
    }
    int major = 0;
    int minor = 0;
    json_t *jmajor = json_object_get(f->root, "cc_major");
    json_t *jminor = json_object_get(f->root, "cc_minor");
    if (jmajor != NULL && json_is_integer(jmajor) && (jminor == NULL || json_is_integer(jminor))) {
        major = (int)json_integer_value(jmajor);
        minor = jminor != NULL ? (int)json_integer_value(jminor) : 0;
        if (occ_arch_find(major, minor, out, NULL) == OCC_OK) {
            snprintf(f->base, sizeof f->base, "from the generic entry %s", out->name);
            return true;
        }
    }
    /* An unknown architecture: the limits must be given; the rules every
       CUDA GPU shares (warp size, per-block limits, allocation units, the
       reserved KB of 8.0 on) come from the newest generic entry. */
    for (size_t i = 0; i < sizeof required_without_base / sizeof required_without_base[0]; i++) {
        if (!given(f, required_without_base[i])) {
            return fail(err, f, required_without_base[i],
                        "is required when neither 'base' nor a known cc_major/cc_minor gives "
                        "the limits");
        }
    }
    occ_device shared = {0};
    for (int i = 0; i < occ_gpu_count(); i++) {
        occ_device entry;
        bool named;
        if (occ_gpu_at(i, &entry, &named, NULL, NULL) == OCC_OK && !named) {
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
    snprintf(f->base, sizeof f->base, "from the rules every CUDA GPU shares");
    return true;
}

static bool apply_fields(const gpu_file *f, occ_device *dev, occ_inspect_error *err)
{
    const char *key;
    json_t *value;
    json_object_foreach(f->root, key, value)
    {
        if (strcmp(key, "base") == 0) {
            continue;
        }
        if (strcmp(key, "name") == 0) {
            const char *name = json_string_value(value);
            if (name == NULL || name[0] == '\0' || strlen(name) >= sizeof dev->name) {
                return fail(err, f, "name", "must be a non-empty string of at most 63 bytes");
            }
            for (const char *c = name; *c != '\0'; c++) {
                if ((unsigned char)*c < 0x20 || *c == 0x7f) {
                    return fail(err, f, "name", "must not hold control characters");
                }
            }
            snprintf(dev->name, sizeof dev->name, "%s", name);
            continue;
        }
        if (strcmp(key, "partitioned_gc") == 0) {
            if (!json_is_boolean(value)) {
                return fail(err, f, key, "must be true or false");
            }
            dev->partitioned_gc = json_is_true(value);
            continue;
        }
        if (strcmp(key, "gpc_sms") == 0) {
            /* the GPC layout, SMs per GPC (docs/gpu-file.md); null: unknown */
            size_t n = json_array_size(value);
            if (json_is_null(value)) {
                dev->gpc_count = 0;
                continue;
            }
            if (!json_is_array(value) || n == 0 || n > OCC_MAX_GPCS) {
                return fail(err, f, key,
                            "must be null or an array of 1 to 32 SM counts, one per GPC");
            }
            for (size_t i = 0; i < n; i++) {
                char element[48];
                snprintf(element, sizeof element, "gpc_sms[%zu]", i);
                if (!int_value(f, element, json_array_get(value, i), &dev->gpc_sms[i], err)) {
                    return false;
                }
            }
            dev->gpc_count = (int)n;
            continue;
        }
        if (strcmp(key, "carveout_steps_bytes") == 0) {
            size_t n = json_array_size(value);
            if (!json_is_array(value) || n > OCC_MAX_CARVEOUT_STEPS) {
                return fail(err, f, key,
                            "must be an array of at most 12 byte counts ([] for fixed shared "
                            "memory)");
            }
            for (size_t i = 0; i < n; i++) {
                char element[48];
                snprintf(element, sizeof element, "carveout_steps_bytes[%zu]", i);
                if (!int_value(f, element, json_array_get(value, i), &dev->carveout_steps_bytes[i],
                               err)) {
                    return false;
                }
            }
            dev->carveout_step_count = (int)n;
            continue;
        }
        int i = 0;
        while (i < FIELD_COUNT && strcmp(int_fields[i].key, key) != 0) {
            i++;
        }
        if (i == FIELD_COUNT) {
            char shown[72];
            snprintf(shown, sizeof shown, "%.64s", key);
            return fail(err, f, shown, "is unknown (see docs/gpu-file.md)");
        }
        int *slot = (int *)(void *)((char *)dev + int_fields[i].offset);
        if (!int_value(f, key, value, slot, err)) {
            return false;
        }
    }
    return true;
}

/* Limits the file did not give follow the ones it did, so that a minimal
   description never fails on a default its author never wrote: a smaller
   register file caps the per-block registers, a smaller shared memory the
   per-block sizes and the carveout steps. */
static void derive_defaults(const gpu_file *f, occ_device *d)
{
    if (!given(f, "regs_per_block") && d->regs_per_block > d->regs_per_sm) {
        d->regs_per_block = d->regs_per_sm;
    }
    int most = d->smem_per_sm_bytes - d->smem_reserved_per_block_bytes;
    if (!given(f, "smem_per_block_optin_bytes") && d->smem_per_block_optin_bytes > most) {
        d->smem_per_block_optin_bytes = most;
    }
    if (!given(f, "smem_per_block_bytes") &&
        d->smem_per_block_bytes > d->smem_per_block_optin_bytes) {
        d->smem_per_block_bytes = d->smem_per_block_optin_bytes;
    }
    if (!given(f, "carveout_steps_bytes") && d->carveout_step_count > 0 &&
        d->carveout_steps_bytes[d->carveout_step_count - 1] != d->smem_per_sm_bytes) {
        /* the base's steps up to the new size, which becomes the last */
        int n = 0;
        while (n < d->carveout_step_count && d->carveout_steps_bytes[n] < d->smem_per_sm_bytes &&
               n < OCC_MAX_CARVEOUT_STEPS - 1) {
            n++;
        }
        d->carveout_steps_bytes[n] = d->smem_per_sm_bytes;
        d->carveout_step_count = n + 1;
    }
}

static bool from_json(const char *text, size_t size, const char *name, occ_device *out,
                      occ_inspect_error *err)
{
    json_error_t jerr;
    gpu_file f = {name, NULL, ""};
    f.root = json_loadb(text, size, JSON_REJECT_DUPLICATES, &jerr);
    if (f.root == NULL) {
        return gpu_file_fail(err, OCC_ERR_BAD_FORMAT, "%s: line %d column %d: %s", name, jerr.line,
                             jerr.column, jerr.text);
    }
    bool ok = false;
    occ_device dev;
    if (!json_is_object(f.root)) {
        gpu_file_fail(err, OCC_ERR_BAD_FORMAT, "%s: must hold one JSON object describing a GPU",
                      name);
    } else if (pick_base(&f, &dev, err) && apply_fields(&f, &dev, err)) {
        if (!given(&f, "name")) {
            fail(err, &f, "name", "is required");
        } else {
            derive_defaults(&f, &dev);
            if (given(&f, "gpc_sms")) {
                /* the author's layout */
                dev.gpc_source = dev.gpc_count > 0 ? OCC_GPC_GIVEN : OCC_GPC_UNKNOWN;
                dev.gpc_citation = NULL;
            } else if (given(&f, "sm_count") && dev.gpc_count > 0) {
                /* the base's layout belongs to the base's SM count */
                dev.gpc_count = 0;
                dev.gpc_source = OCC_GPC_UNKNOWN;
                dev.gpc_citation = NULL;
            }
            if (given(&f, "mem_latency_ns")) {
                /* the author's number: no citation of the base's applies */
                dev.mem_latency_source =
                    dev.mem_latency_ns > 0 ? OCC_LATENCY_GIVEN : OCC_LATENCY_UNKNOWN;
                dev.mem_latency_citation = NULL;
            }
            occ_error oerr;
            if (occ_device_validate(&dev, &oerr) != OCC_OK) {
                /* say whether the author wrote the field or it came with the base */
                char where[160];
                snprintf(where, sizeof where, "%s",
                         oerr.field != NULL && !given(&f, oerr.field) ? f.base : "");
                if (where[0] != '\0') {
                    gpu_file_fail(err, OCC_ERR_INVALID_DEVICE,
                                  "%s: field %s (not in the file: %s; give it)", name, oerr.message,
                                  where);
                } else {
                    gpu_file_fail(err, OCC_ERR_INVALID_DEVICE, "%s: field %s", name, oerr.message);
                }
            } else {
                *out = dev;
                ok = true;
            }
        }
    }
    json_decref(f.root);
    return ok;
}

occ_status occ_inspect_gpu_from_json(const char *text, size_t size, const char *name,
                                     occ_device *out, occ_inspect_error *err)
{
    if ((text == NULL && size > 0) || out == NULL) {
        gpu_file_fail(err, OCC_ERR_NULL_POINTER, "occ_inspect_gpu_from_json: a NULL argument");
        return OCC_ERR_NULL_POINTER;
    }
    if (name == NULL) {
        name = "<gpu description>";
    }
    if (size == 0) {
        gpu_file_fail(err, OCC_ERR_BAD_FORMAT,
                      "%s: is empty (a FIFO without a writer reads as empty); a GPU description "
                      "is one JSON object (docs/gpu-file.md)",
                      name);
        return OCC_ERR_BAD_FORMAT;
    }
    if (size > OCC_INSPECT_GPU_FILE_MAX_BYTES) {
        gpu_file_fail(err, OCC_ERR_LIMIT, "%s: larger than the limit of %zu bytes", name,
                      (size_t)OCC_INSPECT_GPU_FILE_MAX_BYTES);
        return OCC_ERR_LIMIT;
    }
    occ_inspect_error mine;
    occ_inspect_error *e = err != NULL ? err : &mine;
    if (!from_json(text, size, name, out, e)) {
        return e->status;
    }
    return OCC_OK;
}

/* The file whole, bounded; a FIFO opens without blocking (no writer: empty),
   a directory is refused by name. */
static bool read_whole(const char *path, char **text, size_t *size, occ_inspect_error *err)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        int e = errno;
        if (fd >= 0) {
            close(fd);
        }
        return gpu_file_fail(err, OCC_ERR_IO, "%s: cannot open: %s", path, strerror(e));
    }
    if (S_ISDIR(st.st_mode)) {
        close(fd);
        return gpu_file_fail(err, OCC_ERR_IO, "%s: is a directory, not a file", path);
    }
    int flags = fcntl(fd, F_GETFL); /* blocking reads from here: a pipe's writer may be slow */
    if (flags >= 0) {
        fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
    }
    size_t cap = 4096;
    size_t used = 0;
    char *buf = malloc(cap);
    for (;;) {
        if (buf == NULL) {
            close(fd);
            return gpu_file_fail(err, OCC_ERR_OUT_OF_MEMORY, "%s: out of memory", path);
        }
        ssize_t got = read(fd, buf + used, cap - used);
        if (got < 0 && errno == EINTR) {
            continue;
        }
        if (got < 0) {
            int e = errno;
            free(buf);
            close(fd);
            return gpu_file_fail(err, OCC_ERR_IO, "%s: cannot read: %s", path, strerror(e));
        }
        used += (size_t)got;
        if (used > OCC_INSPECT_GPU_FILE_MAX_BYTES) {
            free(buf);
            close(fd);
            return gpu_file_fail(err, OCC_ERR_LIMIT, "%s: larger than the limit of %zu bytes", path,
                                 (size_t)OCC_INSPECT_GPU_FILE_MAX_BYTES);
        }
        if (got == 0) {
            break;
        }
        if (used == cap) {
            char *bigger = realloc(buf, cap * 2);
            if (bigger == NULL) {
                free(buf);
            }
            buf = bigger;
            cap *= 2;
        }
    }
    close(fd);
    *text = buf;
    *size = used;
    return true;
}

occ_status occ_inspect_gpu_file(const char *path, occ_device *out, occ_inspect_error *err)
{
    if (path == NULL || out == NULL) {
        gpu_file_fail(err, OCC_ERR_NULL_POINTER, "occ_inspect_gpu_file: a NULL argument");
        return OCC_ERR_NULL_POINTER;
    }
    occ_inspect_error mine;
    occ_inspect_error *e = err != NULL ? err : &mine;
    char *text = NULL;
    size_t size = 0;
    if (!read_whole(path, &text, &size, e)) {
        return e->status;
    }
    occ_status status = occ_inspect_gpu_from_json(text, size, path, out, e);
    free(text);
    return status;
}
