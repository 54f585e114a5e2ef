/*
 * gpu_find.c - the GPU database's look-ups: by index, by compute
 * capability, and by the names people type ("H100", "sm_90a", "9.0",
 * "NVIDIA GeForce RTX 4090"), with closest-match suggestions.
 */
#include "occ_internal.h"

#define NORM_BYTES 64

static char lower(char c)
{
    return (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c;
}

static bool starts_with(const char *s, const char *prefix)
{
    while (*prefix != '\0') {
        if (*s++ != *prefix++) {
            return false;
        }
    }
    return true;
}

/* Lower case without spaces, '-' or '_', and without a vendor or brand
   prefix, so "NVIDIA GeForce RTX-4090" and "rtx4090" compare equal. */
static void normalize(const char *in, char *out)
{
    size_t n = 0;
    for (; *in != '\0' && n + 1 < NORM_BYTES; in++) {
        if (*in != ' ' && *in != '-' && *in != '_') {
            out[n++] = lower(*in);
        }
    }
    out[n] = '\0';
    static const char *const prefixes[] = {"nvidia", "geforce", "tesla"};
    bool stripped = true;
    while (stripped) {
        stripped = false;
        for (size_t p = 0; p < sizeof prefixes / sizeof prefixes[0]; p++) {
            size_t len = occ__strlen(prefixes[p]);
            if (starts_with(out, prefixes[p]) && out[len] != '\0') {
                size_t i = 0;
                for (; out[len + i] != '\0'; i++) {
                    out[i] = out[len + i];
                }
                out[i] = '\0';
                stripped = true;
            }
        }
    }
}

static bool streq(const char *a, const char *b)
{
    while (*a != '\0' && *a == *b) {
        a++;
        b++;
    }
    return *a == *b;
}

/* Parses "sm90", "sm90a", "sm100f", "compute90", "9.0", "12.1". */
static bool parse_arch(const char *s, int *major, int *minor)
{
    int digits = 0;
    int value = 0;
    if (starts_with(s, "sm")) {
        s += 2;
    } else if (starts_with(s, "compute")) {
        s += 7;
    } else {
        /* "9.0": major, dot, one minor digit */
        int m = 0;
        while (*s >= '0' && *s <= '9' && digits < 3) {
            m = m * 10 + (*s++ - '0');
            digits++;
        }
        if (digits == 0 || *s != '.' || s[1] < '0' || s[1] > '9' || s[2] != '\0') {
            return false;
        }
        *major = m;
        *minor = s[1] - '0';
        return true;
    }
    while (*s >= '0' && *s <= '9' && digits < 4) {
        value = value * 10 + (*s++ - '0');
        digits++;
    }
    /* An arch-specific ('a') or family ('f') suffix has the same limits. */
    if (*s == 'a' || *s == 'f') {
        s++;
    }
    if (digits < 2 || *s != '\0') {
        return false;
    }
    *major = value / 10;
    *minor = value % 10;
    return true;
}

int occ_gpu_count(void)
{
    return occ__arch_count + occ__named_count;
}

static const occ_device *arch_entry(int cc_major, int cc_minor)
{
    for (int i = 0; i < occ__arch_count; i++) {
        if (occ__arch_table[i].cc_major == cc_major && occ__arch_table[i].cc_minor == cc_minor) {
            return &occ__arch_table[i];
        }
    }
    return NULL;
}

static void fill_named(const occ_named_gpu *g, occ_device *out)
{
    const occ_device *arch = arch_entry(g->cc_major, g->cc_minor);
    *out = *arch;
    occ__strlcpy(out->name, g->name, sizeof out->name);
    out->sm_count = g->sm_count;
    out->sm_clock_mhz = g->sm_clock_mhz;
    out->mem_bandwidth_gb_per_s = g->mem_bandwidth_gb_per_s;
    out->l2_bytes = g->l2_bytes;
    out->mem_latency_ns = g->mem_latency_ns;
    out->mem_latency_source = g->mem_latency_source;
    out->mem_latency_citation = g->mem_latency_citation;
}

static const char *const no_aliases[] = {NULL};

occ_status occ_gpu_at(int index, occ_device *out, bool *is_named, const char *const **aliases,
                      occ_error *err)
{
    if (out == NULL) {
        return occ__fail(err, OCC_ERR_NULL_POINTER, "out", "out is NULL");
    }
    if (index < 0 || index >= occ_gpu_count()) {
        return occ__fail(err, OCC_ERR_NOT_FOUND, "index",
                         "the index is outside the database (0 .. occ_gpu_count() - 1)");
    }
    if (index < occ__arch_count) {
        *out = occ__arch_table[index];
        if (is_named != NULL) {
            *is_named = false;
        }
        if (aliases != NULL) {
            *aliases = no_aliases;
        }
        return OCC_OK;
    }
    const occ_named_gpu *g = &occ__named_table[index - occ__arch_count];
    fill_named(g, out);
    if (is_named != NULL) {
        *is_named = true;
    }
    if (aliases != NULL) {
        *aliases = g->aliases != NULL ? g->aliases : no_aliases;
    }
    return OCC_OK;
}

occ_status occ_arch_find(int cc_major, int cc_minor, occ_device *out, occ_error *err)
{
    /* CUDA 13 renamed Jetson Thor's sm_101 to sm_110; the limits are one. */
    if (cc_major == 10 && cc_minor == 1) {
        cc_major = 11;
        cc_minor = 0;
    }
    const occ_device *arch = arch_entry(cc_major, cc_minor);
    if (arch == NULL) {
        if (err != NULL) {
            occ_msg m;
            err->field = "gpu";
            err->status = OCC_ERR_UNKNOWN_GPU;
            occ__msg_begin(&m, err->message, sizeof err->message);
            occ__msg_str(&m, "compute capability ");
            occ__msg_int(&m, cc_major);
            occ__msg_str(&m, ".");
            occ__msg_int(&m, cc_minor);
            occ__msg_str(&m, " is not supported; occ knows 5.0, 5.2, 5.3, 6.0-6.2, 7.0, 7.2, "
                             "7.5, 8.0, 8.6, 8.7, 8.9, 9.0, 10.0, 10.3, 11.0, 12.0, 12.1");
        }
        return OCC_ERR_UNKNOWN_GPU;
    }
    if (out != NULL) {
        *out = *arch;
    }
    return OCC_OK;
}

/* Levenshtein distance of two short strings, in O(len(b)) space. */
static int edit_distance(const char *a, const char *b)
{
    int row[NORM_BYTES + 1];
    size_t lb = occ__strlen(b);
    for (size_t j = 0; j <= lb; j++) {
        row[j] = (int)j;
    }
    for (size_t i = 1; a[i - 1] != '\0'; i++) {
        int diag = row[0];
        row[0] = (int)i;
        for (size_t j = 1; j <= lb; j++) {
            int up = row[j];
            int cost = a[i - 1] == b[j - 1] ? 0 : 1;
            int best = diag + cost;
            if (up + 1 < best) {
                best = up + 1;
            }
            if (row[j - 1] + 1 < best) {
                best = row[j - 1] + 1;
            }
            row[j] = best;
            diag = up;
        }
    }
    return row[lb];
}

/* Distance of a query to an entry: the best over its name and aliases. */
static int entry_distance(const char *norm_query, int index, const char **display)
{
    char norm[NORM_BYTES];
    occ_device dev;
    const char *const *aliases;
    occ_gpu_at(index, &dev, NULL, &aliases, NULL);
    *display = index < occ__arch_count ? occ__arch_table[index].name
                                       : occ__named_table[index - occ__arch_count].name;
    normalize(*display, norm);
    int best = edit_distance(norm_query, norm);
    for (; *aliases != NULL; aliases++) {
        normalize(*aliases, norm);
        int d = edit_distance(norm_query, norm);
        best = d < best ? d : best;
    }
    return best;
}

/* The edit distance up to which a name counts as a typo of the query: one
   edit in a short name, a quarter of the letters in a longer one. "GB10" is
   not a typo of "A10" or "GB200"; "h300" is one of "H200". */
static int typo_distance(const char *norm_query)
{
    int len = (int)occ__strlen(norm_query);
    return len / 4 > 1 ? len / 4 : 1;
}

/* Generic entries (sm_90) are offered only for a query that looks like an
   architecture: "sm..", "compute..", or a digit first. */
static bool looks_like_arch(const char *norm_query)
{
    return (norm_query[0] == 's' && norm_query[1] == 'm') ||
           (norm_query[0] >= '0' && norm_query[0] <= '9') ||
           (norm_query[0] == 'c' && norm_query[1] == 'o' && norm_query[2] == 'm');
}

int occ_gpu_closest(const char *query, const char **names, int max)
{
    char norm_query[NORM_BYTES];
    int dist[8];
    int count = 0;
    if (query == NULL || names == NULL || max <= 0) {
        return 0;
    }
    max = max > 8 ? 8 : max;
    normalize(query, norm_query);
    int limit = typo_distance(norm_query);
    bool arch = looks_like_arch(norm_query);
    for (int i = arch ? 0 : occ__arch_count; i < occ_gpu_count(); i++) {
        const char *display;
        int d = entry_distance(norm_query, i, &display);
        if (d > limit) {
            continue;
        }
        /* Insertion into the sorted top-`max`; equal distances keep order. */
        int pos = count;
        while (pos > 0 && dist[pos - 1] > d) {
            pos--;
        }
        if (pos >= max) {
            continue;
        }
        int last = count < max ? count : max - 1;
        for (int j = last; j > pos; j--) {
            dist[j] = dist[j - 1];
            names[j] = names[j - 1];
        }
        dist[pos] = d;
        names[pos] = display;
        if (count < max) {
            count++;
        }
    }
    return count;
}

occ_status occ_gpu_find(const char *query, occ_device *out, occ_error *err)
{
    char norm_query[NORM_BYTES];
    char norm[NORM_BYTES];
    if (query == NULL || out == NULL) {
        return occ__fail(err, OCC_ERR_NULL_POINTER, "gpu", "query or out is NULL");
    }
    normalize(query, norm_query);
    int major;
    int minor;
    if (parse_arch(norm_query, &major, &minor)) {
        return occ_arch_find(major, minor, out, err);
    }
    for (int i = 0; i < occ__named_count; i++) {
        const occ_named_gpu *g = &occ__named_table[i];
        normalize(g->name, norm);
        bool hit = streq(norm, norm_query);
        for (const char *const *a = g->aliases; !hit && a != NULL && *a != NULL; a++) {
            normalize(*a, norm);
            hit = streq(norm, norm_query);
        }
        if (hit) {
            fill_named(g, out);
            return OCC_OK;
        }
    }
    if (err != NULL) {
        const char *close[3];
        int n = occ_gpu_closest(query, close, 3);
        occ_msg m;
        err->field = "gpu";
        err->status = OCC_ERR_UNKNOWN_GPU;
        occ__msg_begin(&m, err->message, sizeof err->message);
        occ__msg_str(&m, "unknown GPU '");
        occ__msg_str(&m, query);
        occ__msg_str(&m, "'");
        for (int i = 0; i < n; i++) {
            occ__msg_str(&m, i == 0 ? "; closest: " : ", ");
            occ__msg_str(&m, close[i]);
        }
        if (n == 0) {
            occ__msg_str(&m, ": no name in the database is close; an architecture name "
                             "(sm_90) or compute capability (9.0) works for any GPU");
        }
    }
    return OCC_ERR_UNKNOWN_GPU;
}
