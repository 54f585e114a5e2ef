/*
 * lab_regs_recommend.c - occ regs's recommended caps and candidates for
 * `occ lab regs` (lab_regs_recommend.h): read from the forms the former
 * tests/gpu/analyse_regs.py read, or from the document occ_regs_run's
 * result writes here.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "file_read.h"
#include "lab_regs_recommend.h"
#include "occ_regs.h"

/* One kernel's entry: its recommended cap and candidates. */
typedef struct entry {
    const char *name; /* NULL: unnamed */
    int cap;
    json_t *candidates; /* NULL: none given */
} entry;

/* A cap value: null or 0 (occ regs's C API's "none") is no cap. */
static bool cap_value(json_t *v, const char *where, const char *what, int *cap, cli_error *err)
{
    if (v == NULL || json_is_null(v) || (json_is_integer(v) && json_integer_value(v) == 0)) {
        *cap = LAB_REGS_NO_CAP;
        return true;
    }
    if (json_is_integer(v) && json_integer_value(v) >= 1 &&
        json_integer_value(v) <= LAB_REGS_MAX_CAP) {
        *cap = (int)json_integer_value(v);
        return true;
    }
    char *shown = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
    bool ok = cli_error_set(err, EXIT_DATA, "%s: %s %.60s is not null or 1..%d", where, what,
                            shown != NULL ? shown : "?", LAB_REGS_MAX_CAP);
    free(shown);
    return ok;
}

/* An entry of an occ.regs document's kernels (or of a mapping). */
static bool read_entry(json_t *e, const char *key_name, const char *where, entry *out,
                       cli_error *err)
{
    *out = (entry){NULL, LAB_REGS_NO_CAP, NULL};
    if (!json_is_object(e) || json_object_get(e, "recommended_cap") == NULL) {
        return cli_error_set(err, EXIT_DATA, "%s: a kernel without recommended_cap", where);
    }
    out->name = key_name;
    const char *fields[] = {"name", "mangled", "kernel"};
    for (int i = 0; i < 3 && out->name == NULL; i++) {
        json_t *n = json_object_get(e, fields[i]);
        out->name = json_is_string(n) && json_string_length(n) > 0 ? json_string_value(n) : NULL;
    }
    out->candidates = json_object_get(e, "candidates");
    if (out->candidates != NULL && json_is_null(out->candidates)) {
        out->candidates = NULL;
    }
    if (out->candidates != NULL && !json_is_array(out->candidates)) {
        return cli_error_set(err, EXIT_DATA, "%s: candidates is not an array of caps", where);
    }
    return cap_value(json_object_get(e, "recommended_cap"), where, "recommended cap", &out->cap,
                     err);
}

/* The entries of one occ.regs document (kernels: a list, or an object of
   entries by name). */
static bool document_entries(json_t *doc, const char *where, entry *out, size_t cap, size_t *n,
                             cli_error *err)
{
    json_t *kernels = json_object_get(doc, "kernels");
    *n = 0;
    if (json_is_object(kernels)) {
        const char *key;
        json_t *v;
        json_object_foreach(kernels, key, v)
        {
            if (*n == cap) {
                return cli_error_set(err, EXIT_DATA, "%s: more than %zu kernels", where, cap);
            }
            if (!read_entry(v, key, where, &out[(*n)++], err)) {
                return false;
            }
        }
        return true;
    }
    if (!json_is_array(kernels)) {
        return cli_error_set(err, EXIT_DATA, "%s: an occ.regs document without a list of kernels",
                             where);
    }
    size_t i;
    json_t *v;
    json_array_foreach(kernels, i, v)
    {
        if (*n == cap) {
            return cli_error_set(err, EXIT_DATA, "%s: more than %zu kernels", where, cap);
        }
        if (!read_entry(v, NULL, where, &out[(*n)++], err)) {
            return false;
        }
    }
    return true;
}

/* The entry of a one-kernel document for `kernel`: the one named so, else
   the only one. */
static bool single(const entry *entries, size_t n, const char *kernel, const char *where,
                   entry *out, cli_error *err)
{
    for (size_t i = 0; i < n; i++) {
        if (entries[i].name != NULL && strcmp(entries[i].name, kernel) == 0) {
            *out = entries[i];
            return true;
        }
    }
    if (n == 1) {
        *out = entries[0];
        return true;
    }
    return cli_error_set(err, EXIT_DATA, "%s: %zu kernels and none named %s", where, n, kernel);
}

/* Gives the kernel of the records named `kernel` the entry's cap and
   candidates. */
static bool apply(lab_regs_data *data, const char *kernel, const entry *e, const char *where,
                  cli_error *err)
{
    lab_regs_kernel_data *k = lab_regs_kernel_find(data, kernel);
    if (k == NULL) {
        return true; /* a kernel that was not timed */
    }
    k->has_recommendation = true;
    k->recommended_cap = e->cap;
    free(k->candidates);
    k->candidates = NULL;
    k->candidate_count = 0;
    k->has_candidates = e->candidates != NULL;
    if (e->candidates == NULL) {
        return true;
    }
    size_t count = json_array_size(e->candidates);
    if (count > LAB_REGS_CAP_SLOTS) {
        return cli_error_set(err, EXIT_DATA, "%s: kernel %s: %zu candidates; at most %d", where,
                             kernel, count, LAB_REGS_CAP_SLOTS);
    }
    k->candidates = malloc((count > 0 ? count : 1) * sizeof *k->candidates);
    if (k->candidates == NULL) {
        return cli_error_set(err, EXIT_DATA, "%s: out of memory", where);
    }
    size_t i;
    json_t *v;
    json_array_foreach(e->candidates, i, v)
    {
        char what[48];
        snprintf(what, sizeof what, "candidates[%zu]", i);
        json_t *cap = json_is_object(v) ? json_object_get(v, "cap") : v;
        if (json_is_object(v) && cap == NULL) {
            return cli_error_set(err, EXIT_DATA, "%s: kernel %s: %s has no cap", where, kernel,
                                 what);
        }
        if (!cap_value(cap, where, what, &k->candidates[i], err)) {
            return false;
        }
        k->candidate_count++;
    }
    return true;
}

static bool is_document(json_t *v)
{
    return json_is_object(v) && json_object_get(v, "kernels") != NULL;
}

/* A one-kernel document, for `kernel`. */
static bool apply_document(lab_regs_data *data, json_t *doc, const char *kernel, const char *where,
                           cli_error *err)
{
    entry entries[LAB_REGS_MAX_KERNELS];
    size_t n;
    entry e;
    return document_entries(doc, where, entries, LAB_REGS_MAX_KERNELS, &n, err) &&
           single(entries, n, kernel, where, &e, err) && apply(data, kernel, &e, where, err);
}

/* A mapping of kernel names to caps, entries, documents or lists of entries. */
static bool apply_mapping(lab_regs_data *data, json_t *map, const char *name, cli_error *err)
{
    const char *kernel;
    json_t *v;
    json_object_foreach(map, kernel, v)
    {
        char where[512];
        snprintf(where, sizeof where, "%s: %.200s", name, kernel);
        entry e = {kernel, LAB_REGS_NO_CAP, NULL};
        bool ok;
        if (is_document(v)) {
            ok = apply_document(data, v, kernel, where, err);
        } else if (json_is_array(v)) {
            /* the form of docs/results/regs-h200/recommended-v1.json */
            json_t *doc = json_pack("{s:O}", "kernels", v);
            ok = doc != NULL && apply_document(data, doc, kernel, where, err);
            json_decref(doc);
        } else if (json_is_object(v)) {
            ok = read_entry(v, kernel, where, &e, err) && apply(data, kernel, &e, where, err);
        } else {
            ok = cap_value(v, where, "recommended cap", &e.cap, err) &&
                 apply(data, kernel, &e, where, err);
        }
        if (!ok) {
            return false;
        }
    }
    return true;
}

bool lab_regs_recommended_parse(const char *text, size_t size, const char *name, const char *kernel,
                                lab_regs_data *data, cli_error *err)
{
    json_error_t jerr;
    json_t *root = json_loadb(text, size, JSON_REJECT_DUPLICATES, &jerr);
    if (root == NULL) {
        return cli_error_set(err, EXIT_DATA, "%s: not JSON: %s (line %d)", name, jerr.text,
                             jerr.line);
    }
    bool ok;
    if (kernel != NULL) {
        ok = is_document(root)
                 ? apply_document(data, root, kernel, name, err)
                 : cli_error_set(err, EXIT_DATA, "%s: not an occ.regs document", name);
    } else if (is_document(root)) {
        entry entries[LAB_REGS_MAX_KERNELS];
        size_t n = 0;
        ok = document_entries(root, name, entries, LAB_REGS_MAX_KERNELS, &n, err);
        bool all_kernel = ok && n > 0;
        for (size_t i = 0; all_kernel && i < n; i++) {
            all_kernel &= entries[i].name != NULL && strcmp(entries[i].name, "kernel") == 0;
        }
        if (ok && all_kernel) {
            ok = cli_error_set(err, EXIT_DATA,
                               "%s: one occ.regs document names its kernel 'kernel'; give one "
                               "document a kernel (a directory of NAME.json, or a mapping)",
                               name);
        }
        for (size_t i = 0; ok && i < n; i++) {
            ok = entries[i].name == NULL || apply(data, entries[i].name, &entries[i], name, err);
        }
    } else if (json_is_object(root)) {
        ok = apply_mapping(data, root, name, err);
    } else {
        ok = cli_error_set(err, EXIT_DATA,
                           "%s: neither a mapping of kernels nor an occ.regs document", name);
    }
    json_decref(root);
    return ok;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A directory of NAME.json, in name order. */
static bool load_directory(DIR *dir, const char *path, lab_regs_data *data, cli_error *err)
{
    char **names = NULL;
    size_t n = 0, allocated = 0;
    bool ok = true;
    struct dirent *e;
    while (ok && (e = readdir(dir)) != NULL) {
        size_t len = strlen(e->d_name);
        if (len <= 5 || strcmp(e->d_name + len - 5, ".json") != 0) {
            continue;
        }
        if (n == allocated) {
            allocated = allocated > 0 ? 2 * allocated : 64;
            char **more = realloc(names, allocated * sizeof *more);
            ok = more != NULL;
            names = ok ? more : names;
        }
        if (ok && (names[n] = strdup(e->d_name)) != NULL) {
            n++;
        } else {
            ok = cli_error_set(err, EXIT_DATA, "%s: out of memory", path);
        }
    }
    if (ok && n > 0) {
        qsort(names, n, sizeof *names, by_name);
    }
    for (size_t i = 0; ok && i < n; i++) {
        char file[PATH_MAX];
        int len = snprintf(file, sizeof file, "%s/%s", path, names[i]);
        char *text = NULL;
        size_t size = 0;
        ok = len > 0 && (size_t)len < sizeof file &&
             cli_read_file(file, NULL, LAB_REGS_MAX_DOCUMENT_BYTES, &text, &size, err);
        if (ok) {
            names[i][strlen(names[i]) - 5] = '\0'; /* the kernel: NAME of NAME.json */
            ok = lab_regs_recommended_parse(text, size, file, names[i], data, err);
        }
        free(text);
    }
    for (size_t i = 0; i < n; i++) {
        free(names[i]);
    }
    free(names);
    return ok;
}

bool lab_regs_recommended_load(const char *path, FILE *in, lab_regs_data *data, cli_error *err)
{
    DIR *dir = strcmp(path, "-") == 0 ? NULL : opendir(path);
    if (dir != NULL) {
        bool ok = load_directory(dir, path, data, err);
        closedir(dir);
        return ok;
    }
    char *text = NULL;
    size_t size = 0;
    bool ok = cli_read_file(path, in, LAB_REGS_MAX_DOCUMENT_BYTES, &text, &size, err) &&
              lab_regs_recommended_parse(text, size, path, NULL, data, err);
    free(text);
    return ok;
}

/* "sm_90a" into 90 and 'a'. */
static void parse_arch(const char *arch, int *sm, char *suffix)
{
    *sm = atoi(arch + 3);
    size_t n = strlen(arch);
    *suffix = arch[n - 1] == 'a' || arch[n - 1] == 'f' ? arch[n - 1] : '\0';
}

bool lab_regs_recommend_ptx(const char *dir, const occ_device *device, lab_regs_data *data,
                            int *skipped, cli_error *err)
{
    *skipped = 0;
    for (int i = 0; i < data->kernel_count; i++) {
        lab_regs_kernel_data *k = &data->kernels[i];
        if (!k->has_launch) {
            (*skipped)++;
            continue;
        }
        char path[PATH_MAX];
        int len = snprintf(path, sizeof path, "%s/%s.ptx", dir, k->name);
        if (len < 0 || (size_t)len >= sizeof path) {
            return cli_error_set(err, EXIT_USAGE, "option --ptx: a path longer than %d bytes",
                                 PATH_MAX - 1);
        }
        occ_regs_options o;
        occ_regs_options_init(&o);
        o.device = device;
        parse_arch(k->arch, &o.arch_sm, &o.arch_suffix);
        o.threads = k->threads;
        o.dyn_smem_bytes = k->dyn_smem_bytes;
        occ_regs_result *result = NULL;
        occ_inspect_error ierr;
        occ_status st = occ_regs_run(path, NULL, 0, &o, &result, &ierr);
        char *text = NULL;
        size_t size = 0;
        if (st == OCC_OK) {
            st = occ_regs_json_text(result, &text, &size, &ierr);
        }
        occ_regs_result_free(result);
        if (st != OCC_OK) {
            return cli_error_set(err, EXIT_DATA, "occ regs on %s: %s", path, ierr.message);
        }
        bool ok = lab_regs_recommended_parse(text, size, path, k->name, data, err);
        occ_inspect_text_free(text);
        if (!ok) {
            return false;
        }
    }
    return true;
}
