/*
 * test_gpu_names.c - the named-GPU database as a user meets it: every entry
 * is plausible for its architecture and carries its sources, every spelling
 * belongs to one entry only, the names nvidia-smi and cudaGetDeviceProperties
 * print resolve to the right product, and a near miss is answered with the
 * product's own family.
 *
 * The expectations are facts from outside the code: the full-chip SM counts
 * of NVIDIA's architecture whitepapers, compute capabilities from NVIDIA's
 * CUDA GPUs page and the CUDA 13 release notes, and device names as the
 * driver prints them.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "occ_internal.h"

/* The most SMs a chip of each compute capability has, the full die of the
   largest chip (whitepapers; Jetson: the SoC's GPU). */
typedef struct arch_bound {
    int cc_major;
    int cc_minor;
    int max_sms;
} arch_bound;

static const arch_bound arch_bounds[] = {
    {5, 0, 5},    /* GM107 */
    {5, 2, 24},   /* GM200 */
    {5, 3, 2},    /* Tegra X1 */
    {6, 0, 60},   /* GP100 */
    {6, 1, 30},   /* GP102 */
    {6, 2, 2},    /* Tegra X2 (GP10B) */
    {7, 0, 84},   /* GV100 */
    {7, 2, 8},    /* Xavier */
    {7, 5, 72},   /* TU102 */
    {8, 0, 128},  /* GA100 */
    {8, 6, 84},   /* GA102 */
    {8, 7, 16},   /* Orin */
    {8, 9, 144},  /* AD102 */
    {9, 0, 144},  /* GH100 */
    {10, 0, 160}, /* two B200 dies of 80 */
    {10, 3, 160}, /* Blackwell Ultra: 160 SMs */
    {11, 0, 24},  /* Thor: 3 GPCs of 4 TPCs of 2 SMs */
    {12, 0, 192}, /* GB202 */
    {12, 1, 48},  /* GB10: 6144 cores */
};

static const arch_bound *bound_of(int cc_major, int cc_minor)
{
    for (size_t i = 0; i < sizeof arch_bounds / sizeof arch_bounds[0]; i++) {
        if (arch_bounds[i].cc_major == cc_major && arch_bounds[i].cc_minor == cc_minor) {
            return &arch_bounds[i];
        }
    }
    return NULL;
}

/* Every named entry against its architecture: SMs within the full chip,
   a boost clock a GPU of 2014-2026 can have (Orin Nano: 625 MHz; RTX 40
   parts: 2.6 GHz), bandwidth and L2 positive where given, the L2 a whole
   number of 128 KiB slices, and the latency's provenance stated. */
static void test_entries_plausible(void **state)
{
    (void)state;
    assert_true(occ__named_count >= 150);
    for (int i = 0; i < occ__named_count; i++) {
        const occ_named_gpu *g = &occ__named_table[i];
        const arch_bound *b = bound_of(g->cc_major, g->cc_minor);
        if (b == NULL) {
            fail_msg("%s: compute capability %d.%d has no bound", g->name, g->cc_major,
                     g->cc_minor);
        }
        if (g->sm_count < 1 || g->sm_count > b->max_sms) {
            fail_msg("%s: %d SMs, outside 1..%d for %d.%d", g->name, g->sm_count, b->max_sms,
                     g->cc_major, g->cc_minor);
        }
        if (g->sm_clock_mhz != 0 && (g->sm_clock_mhz < 600 || g->sm_clock_mhz > 3100)) {
            fail_msg("%s: clock %d MHz", g->name, g->sm_clock_mhz);
        }
        if (g->mem_bandwidth_gb_per_s < 0 || g->mem_bandwidth_gb_per_s > 10000 ||
            (g->mem_bandwidth_gb_per_s > 0 && g->mem_bandwidth_gb_per_s < 20)) {
            fail_msg("%s: bandwidth %d GB/s", g->name, g->mem_bandwidth_gb_per_s);
        }
        if (g->l2_bytes < 0 || g->l2_bytes > 256 * 1024 * 1024 || g->l2_bytes % (128 * 1024)) {
            fail_msg("%s: L2 %d bytes", g->name, g->l2_bytes);
        }
        assert_true(g->mem_latency_source == OCC_LATENCY_MEASURED ||
                    g->mem_latency_source == OCC_LATENCY_PUBLISHED ||
                    g->mem_latency_source == OCC_LATENCY_ARCHITECTURE);
        assert_non_null(g->mem_latency_citation);
        /* a figure called rough is always a sibling's */
        if (strstr(g->mem_latency_citation, "rough") != NULL) {
            assert_int_equal(g->mem_latency_source, OCC_LATENCY_ARCHITECTURE);
        }
    }
}

/* An independent normalisation: lower case, letters and digits only, no
   leading brand word. It drops at least what the look-up drops, so two
   spellings it tells apart the look-up cannot confuse. */
static void norm(const char *in, char *out, size_t cap)
{
    size_t n = 0;
    for (; *in != '\0' && n + 1 < cap; in++) {
        char c = *in;
        if (c >= 'A' && c <= 'Z') {
            c = (char)(c - 'A' + 'a');
        }
        if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.') {
            out[n++] = c;
        }
    }
    out[n] = '\0';
    static const char *const brands[] = {"nvidia", "geforce", "tesla", "quadro", "jetson"};
    for (bool again = true; again;) {
        again = false;
        for (size_t b = 0; b < sizeof brands / sizeof brands[0]; b++) {
            size_t len = strlen(brands[b]);
            if (strncmp(out, brands[b], len) == 0 && out[len] != '\0') {
                memmove(out, out + len, strlen(out + len) + 1);
                again = true;
            }
        }
    }
}

#define MAX_SPELLINGS 16

/* An entry's spellings: its name, the name without a leading RTX/GTX, and
   its aliases. */
static int spellings(const occ_named_gpu *g, char out[][64])
{
    int n = 0;
    norm(g->name, out[n++], 64);
    if ((strncmp(out[0], "rtx", 3) == 0 || strncmp(out[0], "gtx", 3) == 0) && out[0][3] != '\0') {
        memcpy(out[n++], out[0] + 3, strlen(out[0] + 3) + 1);
    }
    for (const char *const *a = g->aliases; a != NULL && *a != NULL && n < MAX_SPELLINGS; a++) {
        norm(*a, out[n++], 64);
    }
    return n;
}

/* No spelling belongs to two entries: no alias is shared, none is another
   entry's name. And every spelling finds its own entry. */
static void test_spellings_unique(void **state)
{
    (void)state;
    char a[MAX_SPELLINGS][64];
    char b[MAX_SPELLINGS][64];
    for (int i = 0; i < occ__named_count; i++) {
        int na = spellings(&occ__named_table[i], a);
        for (int j = i + 1; j < occ__named_count; j++) {
            int nb = spellings(&occ__named_table[j], b);
            for (int x = 0; x < na; x++) {
                for (int y = 0; y < nb; y++) {
                    if (strcmp(a[x], b[y]) == 0) {
                        fail_msg("'%s' is a spelling of both %s and %s", a[x],
                                 occ__named_table[i].name, occ__named_table[j].name);
                    }
                }
            }
        }
        const occ_named_gpu *g = &occ__named_table[i];
        for (const char *const *al = g->aliases; al != NULL && *al != NULL; al++) {
            occ_device d;
            if (occ_gpu_find(*al, &d, NULL) != OCC_OK || strcmp(d.name, g->name) != 0) {
                fail_msg("alias '%s' of %s does not find it", *al, g->name);
            }
        }
    }
}

typedef struct name_case {
    const char *query; /* as nvidia-smi, cudaGetDeviceProperties or a user writes it */
    const char *name;  /* the entry */
} name_case;

static const name_case name_cases[] = {
    /* nvidia-smi and cudaGetDeviceProperties */
    {"NVIDIA GeForce RTX 4090", "RTX 4090"},
    {"NVIDIA H100 80GB HBM3", "H100 SXM"},
    {"NVIDIA H100 PCIe", "H100 PCIe"},
    {"NVIDIA H100 NVL", "H100 NVL"},
    {"Tesla T4", "T4"},
    {"NVIDIA A100-SXM4-80GB", "A100 SXM 80GB"},
    {"NVIDIA A100-SXM4-40GB", "A100 SXM 40GB"},
    {"NVIDIA A100-PCIE-40GB", "A100 PCIe 40GB"},
    {"NVIDIA A100 80GB PCIe", "A100 PCIe 80GB"},
    {"NVIDIA A800-SXM4-80GB", "A800 SXM 80GB"},
    {"NVIDIA A10G", "A10G"},
    {"NVIDIA L40", "L40"},
    {"NVIDIA L20", "L20"},
    {"NVIDIA H800", "H800 SXM"},
    {"NVIDIA H20", "H20"},
    {"NVIDIA H200 NVL", "H200 NVL"},
    {"NVIDIA GH200 480GB", "GH200"},
    {"NVIDIA GH200 144G HBM3e", "GH200 144GB HBM3e"},
    {"NVIDIA B300 SXM6 AC", "B300"},
    {"NVIDIA GB300", "GB300"},
    {"NVIDIA GB10", "GB10"},
    {"NVIDIA Thor", "Jetson AGX Thor"},
    {"Orin", "Jetson AGX Orin 64GB"},
    {"Xavier", "Jetson AGX Xavier"},
    {"NVIDIA Tegra X2", "Jetson TX2"},
    {"Tesla P100-PCIE-16GB", "P100 PCIe 16GB"},
    {"Tesla P100-SXM2-16GB", "P100 SXM2"},
    {"Tesla P40", "P40"},
    {"Tesla M40 24GB", "M40"},
    {"Tesla V100S-PCIE-32GB", "V100S PCIe"},
    {"Tesla V100-SXM2-32GB", "V100 SXM2"},
    {"NVIDIA TITAN V", "TITAN V"},
    {"TITAN X (Pascal)", "TITAN X (Pascal)"},
    {"GeForce GTX TITAN X", "GTX TITAN X"},
    {"NVIDIA GeForce GTX 1080", "GTX 1080"},
    {"GeForce GTX 1080 Ti", "GTX 1080 Ti"},
    {"NVIDIA GeForce GTX 1660 SUPER", "GTX 1660 SUPER"},
    {"Quadro RTX 8000", "Quadro RTX 8000"},
    {"Quadro P6000", "Quadro P6000"},
    {"NVIDIA T1000 8GB", "T1000"},
    {"NVIDIA RTX A6000", "RTX A6000"},
    {"NVIDIA RTX 6000 Ada Generation", "RTX 6000 Ada Generation"},
    {"NVIDIA RTX PRO 6000 Blackwell Max-Q Workstation Edition",
     "RTX PRO 6000 Blackwell Max-Q Workstation Edition"},
    {"NVIDIA GeForce RTX 4090 Laptop GPU", "RTX 4090 Laptop GPU"},
    {"NVIDIA GeForce RTX 3080 Laptop GPU", "RTX 3080 Laptop GPU"},
    {"NVIDIA GeForce RTX 5090", "RTX 5090"},
    /* what people type */
    {"4090", "RTX 4090"},
    {"4080 super", "RTX 4080 SUPER"},
    {"1080 ti", "GTX 1080 Ti"},
    {"h100 sxm", "H100 SXM"},
    {"a100 80gb", "A100 SXM 80GB"},
    {"A100 40GB PCIe", "A100 PCIe 40GB"},
    {"Jetson Orin", "Jetson AGX Orin 64GB"},
    {"jetson orin nano", "Jetson Orin Nano 8GB"},
    {"Jetson Thor", "Jetson AGX Thor"},
    {"DGX Spark", "GB10"},
    {"p100", "P100 SXM2"},
    {"rtx 4090 laptop", "RTX 4090 Laptop GPU"},
};

static void test_reported_names_resolve(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof name_cases / sizeof name_cases[0]; i++) {
        occ_device d;
        occ_error err;
        if (occ_gpu_find(name_cases[i].query, &d, &err) != OCC_OK) {
            fail_msg("'%s': %s", name_cases[i].query, err.message);
        }
        if (strcmp(d.name, name_cases[i].name) != 0) {
            fail_msg("'%s' gave %s, not %s", name_cases[i].query, d.name, name_cases[i].name);
        }
    }
}

typedef struct cc_case {
    const char *query;
    int cc_major;
    int cc_minor;
} cc_case;

/* NVIDIA's CUDA GPUs page; Thor is 11.0 from CUDA 13 (10.1 before). */
static const cc_case cc_cases[] = {
    {"GTX 750 Ti", 5, 0},
    {"GTX 980", 5, 2},
    {"Jetson Nano", 5, 3},
    {"P100 SXM2", 6, 0},
    {"GTX 1080", 6, 1},
    {"Jetson TX2", 6, 2},
    {"TITAN V", 7, 0},
    {"Jetson AGX Xavier", 7, 2},
    {"GTX 1660 Ti", 7, 5},
    {"GTX 1650", 7, 5},
    {"A800 SXM 80GB", 8, 0},
    {"A10G", 8, 6},
    {"RTX 3060 Laptop GPU", 8, 6},
    {"Jetson Orin NX 16GB", 8, 7},
    {"L40", 8, 9},
    {"RTX 4060", 8, 9},
    {"H20", 9, 0},
    {"B300", 10, 3},
    {"GB300", 10, 3},
    {"Jetson AGX Thor", 11, 0},
    {"RTX 5070", 12, 0},
    {"RTX PRO 6000 Blackwell Max-Q Workstation Edition", 12, 0},
    {"GB10", 12, 1},
};

static void test_compute_capabilities(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof cc_cases / sizeof cc_cases[0]; i++) {
        occ_device d;
        assert_int_equal(occ_gpu_find(cc_cases[i].query, &d, NULL), OCC_OK);
        if (d.cc_major != cc_cases[i].cc_major || d.cc_minor != cc_cases[i].cc_minor) {
            fail_msg("%s: %d.%d, not %d.%d", cc_cases[i].query, d.cc_major, d.cc_minor,
                     cc_cases[i].cc_major, cc_cases[i].cc_minor);
        }
    }
}

static bool all_start_with(const char *const *names, int n, const char *prefix)
{
    for (int i = 0; i < n; i++) {
        if (strncmp(names[i], prefix, strlen(prefix)) != 0) {
            print_error("'%s' is not of the %s family\n", names[i], prefix);
            return false;
        }
    }
    return true;
}

static bool contains(const char *const *names, int n, const char *name)
{
    for (int i = 0; i < n; i++) {
        if (strcmp(names[i], name) == 0) {
            return true;
        }
    }
    return false;
}

/* A near miss is answered with its own family first: the model's variants,
   then its series, never a GPU that merely spells alike. */
static void test_suggestions_are_the_family(void **state)
{
    (void)state;
    const char *names[8];
    int n = occ_gpu_closest("rtx 4080", names, 5);
    assert_int_equal(n, 5);
    assert_string_equal(names[0], "RTX 4080");
    assert_true(all_start_with(names, n, "RTX 40"));
    assert_true(contains(names, n, "RTX 4080 SUPER"));
    assert_true(contains(names, n, "RTX 4090"));

    n = occ_gpu_closest("h100", names, 3);
    assert_int_equal(n, 3);
    assert_true(all_start_with(names, n, "H100 "));

    n = occ_gpu_closest("a100 80", names, 3);
    assert_int_equal(n, 3);
    assert_true(all_start_with(names, n, "A100 "));
    assert_non_null(strstr(names[0], "80GB"));
    assert_non_null(strstr(names[1], "80GB"));

    /* the RTX of a bare number, and the line of a missing model */
    n = occ_gpu_closest("1070 ti", names, 3);
    assert_true(n >= 1 && strcmp(names[0], "GTX 1070 Ti") == 0);
    n = occ_gpu_closest("b100", names, 2);
    assert_int_equal(n, 2);
    assert_true(all_start_with(names, n, "B"));

    occ_device d;
    occ_error err;
    assert_int_equal(occ_gpu_find("RTX 4080 Ti", &d, &err), OCC_ERR_UNKNOWN_GPU);
    assert_non_null(strstr(err.message, "closest: RTX 4080, RTX 4080 SUPER"));
    assert_int_equal(occ_gpu_find("jetson orin 16gb", &d, &err), OCC_ERR_UNKNOWN_GPU);
    assert_non_null(strstr(err.message, "Jetson Orin"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_entries_plausible),
        cmocka_unit_test(test_spellings_unique),
        cmocka_unit_test(test_reported_names_resolve),
        cmocka_unit_test(test_compute_capabilities),
        cmocka_unit_test(test_suggestions_are_the_family),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
