/*
 * gpu_find.c - the GPU database's look-ups: by index, by compute
 * capability, and by the names people type ("H100", "sm_90a", "9.0",
 * "NVIDIA GeForce RTX 4090", "4090", "Jetson Orin"), with closest-match
 * suggestions that rank a GPU's own family first ("rtx 4080 ti": the RTX
 * 4080s, then the rest of the RTX 40 series).
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

static bool is_separator(char c)
{
    return c == ' ' || c == '-' || c == '_' || c == '(' || c == ')';
}

/* The vendor and brand words a name may start with: nvidia-smi says "NVIDIA
   GeForce RTX 4090", "Tesla T4", "Quadro RTX 8000"; people say "Jetson Orin". */
static const char *const brand_prefixes[] = {"nvidia", "geforce", "tesla", "quadro", "jetson"};

/* Lower case without separators (spaces, '-', '_', parentheses), and
   without a vendor or brand prefix, so "NVIDIA GeForce RTX-4090" and
   "rtx4090" compare equal. */
static void normalize(const char *in, char *out)
{
    size_t n = 0;
    for (; *in != '\0' && n + 1 < NORM_BYTES; in++) {
        if (!is_separator(*in)) {
            out[n++] = lower(*in);
        }
    }
    out[n] = '\0';
    bool stripped = true;
    while (stripped) {
        stripped = false;
        for (size_t p = 0; p < sizeof brand_prefixes / sizeof brand_prefixes[0]; p++) {
            size_t len = occ__strlen(brand_prefixes[p]);
            if (starts_with(out, brand_prefixes[p]) && out[len] != '\0') {
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

/* A normalized name without its leading "rtx" or "gtx": "RTX 4080 SUPER"
   is also "4080 super", "GTX 1080 Ti" also "1080 ti". NULL if the name has
   no such prefix (or nothing after it). */
static const char *short_form(const char *norm)
{
    if ((starts_with(norm, "rtx") || starts_with(norm, "gtx")) && norm[3] != '\0') {
        return norm + 3;
    }
    return NULL;
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
    occ__gpc_layout_fill(out); /* gpu_gpc.c, keyed by the name just set */
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

/* A name's family: the letters before its model number, and the number:
   "NVIDIA GeForce RTX 4080 SUPER" is ("rtx", 4080), "A100 80" ("a", 100),
   "sm_90" ("sm", 90). A name without a number ("TITAN V") has none. */
typedef struct family {
    char letters[16];
    long number; /* -1: none */
    int digits;
} family;

static family family_of(const char *name)
{
    family f = {.number = -1};
    char lowered[NORM_BYTES];
    size_t n = 0;
    for (; *name != '\0' && n + 1 < NORM_BYTES; name++) {
        lowered[n++] = lower(*name);
    }
    lowered[n] = '\0';
    const char *s = lowered;
    bool stripped = true;
    while (stripped) {
        stripped = false;
        while (is_separator(*s)) {
            s++;
        }
        for (size_t p = 0; p < sizeof brand_prefixes / sizeof brand_prefixes[0]; p++) {
            size_t len = occ__strlen(brand_prefixes[p]);
            if (starts_with(s, brand_prefixes[p]) && s[len] != '\0') {
                s += len;
                stripped = true;
            }
        }
    }
    size_t letters = 0;
    for (; *s != '\0' && !(*s >= '0' && *s <= '9'); s++) {
        if (*s >= 'a' && *s <= 'z' && letters + 1 < sizeof f.letters) {
            f.letters[letters++] = *s;
        }
    }
    f.letters[letters] = '\0';
    if (*s >= '0' && *s <= '9') {
        f.number = 0;
        for (; *s >= '0' && *s <= '9' && f.digits < 9; s++) {
            f.number = f.number * 10 + (*s - '0');
            f.digits++;
        }
    }
    return f;
}

/* The series of a model number: 4080 and 4090 are both RTX 40, 980 and 970
   both GTX 900, 90 and 91 both sm_9x. */
static long series_of(const family *f)
{
    return f->digits >= 3 ? f->number / 100 : f->number / 10;
}

/* 0: the same model as the query ("H100 PCIe" for "h100"), 1: the same series
   ("RTX 4090" for "rtx 4080"), 2: the same line, another series ("B200" for
   "b100"), 3: another family. A query without letters ("4080") belongs to the
   RTX or GTX of that number. */
static int family_tier(const family *query, const family *entry)
{
    bool letters = streq(query->letters, entry->letters) ||
                   (query->letters[0] == '\0' &&
                    (streq(entry->letters, "rtx") || streq(entry->letters, "gtx")));
    if (!letters || query->number < 0 || entry->number < 0 || query->digits != entry->digits) {
        return 3;
    }
    if (query->number == entry->number) {
        return 0;
    }
    return series_of(query) == series_of(entry) ? 1 : 2;
}

/* How well an entry answers a query: its family first, then how near its
   model number is, then how near its spelling is (0 the same, 1 the query is
   the start of it, 2 + the edit distance otherwise). */
typedef struct rank {
    int tier;
    long number_gap;
    int closeness;
    int distance; /* edit distance, for the typo limit of another family */
} rank;

static void rank_name(const char *name, const char *norm_query, const family *query, rank *best)
{
    char norm[NORM_BYTES];
    normalize(name, norm);
    const char *forms[2] = {norm, short_form(norm)};
    for (int f = 0; f < 2 && forms[f] != NULL; f++) {
        int d = edit_distance(norm_query, forms[f]);
        best->distance = d < best->distance ? d : best->distance;
        int closeness = d == 0 ? 0 : starts_with(forms[f], norm_query) ? 1 : 2 + d;
        best->closeness = closeness < best->closeness ? closeness : best->closeness;
    }
    family entry = family_of(name);
    int tier = family_tier(query, &entry);
    long gap = tier < 3 ? query->number - entry.number : 0;
    gap = gap < 0 ? -gap : gap;
    if (tier < best->tier || (tier == best->tier && gap < best->number_gap)) {
        best->tier = tier;
        best->number_gap = gap;
    }
}

/* The rank of entry `index`: the best over its name and aliases. */
static rank rank_entry(const char *norm_query, const family *query, int index, const char **display)
{
    rank best = {.tier = 3, .number_gap = 0, .closeness = 1 << 20, .distance = 1 << 20};
    occ_device dev;
    const char *const *aliases = NULL;
    if (occ_gpu_at(index, &dev, NULL, &aliases, NULL) != OCC_OK || aliases == NULL) {
        *display = "";
        return best; /* callers pass valid indexes; this keeps the compiler sure */
    }
    *display = index < occ__arch_count ? occ__arch_table[index].name
                                       : occ__named_table[index - occ__arch_count].name;
    rank_name(*display, norm_query, query, &best);
    for (; *aliases != NULL; aliases++) {
        rank_name(*aliases, norm_query, query, &best);
    }
    return best;
}

static bool ranks_before(const rank *a, const rank *b)
{
    if (a->tier != b->tier) {
        return a->tier < b->tier;
    }
    if (a->number_gap != b->number_gap) {
        return a->number_gap < b->number_gap;
    }
    return a->closeness < b->closeness;
}

/* The edit distance up to which a name counts as a typo of the query: one
   edit in a short name, a quarter of the letters in a longer one. "GB20" is
   not a typo of "A10"; "h300" is one of "H200". */
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

/* A name of the query's model or series is always offered; another is
   offered when it is a typo of the query, or when a query of 4 or more
   letters starts it ("titan": the TITANs). */
static bool is_near(const rank *r, const char *norm_query)
{
    return r->tier < 2 || r->distance <= typo_distance(norm_query) ||
           (r->closeness == 1 && occ__strlen(norm_query) >= 4);
}

int occ_gpu_closest(const char *query, const char **names, int max)
{
    char norm_query[NORM_BYTES];
    rank ranks[8];
    int count = 0;
    if (query == NULL || names == NULL || max <= 0) {
        return 0;
    }
    max = max > 8 ? 8 : max;
    normalize(query, norm_query);
    family query_family = family_of(query);
    bool arch = looks_like_arch(norm_query);
    for (int i = arch ? 0 : occ__arch_count; i < occ_gpu_count(); i++) {
        const char *display;
        rank r = rank_entry(norm_query, &query_family, i, &display);
        if (!is_near(&r, norm_query)) {
            continue;
        }
        /* Insertion into the sorted top-`max`; equal ranks keep table order. */
        int pos = count;
        while (pos > 0 && ranks_before(&r, &ranks[pos - 1])) {
            pos--;
        }
        if (pos >= max) {
            continue;
        }
        int last = count < max ? count : max - 1;
        for (int j = last; j > pos; j--) {
            ranks[j] = ranks[j - 1];
            names[j] = names[j - 1];
        }
        ranks[pos] = r;
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
        const char *short_name = short_form(norm);
        bool hit = streq(norm, norm_query) || (short_name != NULL && streq(short_name, norm_query));
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
