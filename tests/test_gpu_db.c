/*
 * test_gpu_db.c - the GPU database: every entry is valid, every name and
 * alias finds its own entry and no other, the names people type resolve,
 * and an unknown name lists the closest matches.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "occ_internal.h"

static void test_every_entry_valid(void **state)
{
    (void)state;
    assert_true(occ_gpu_count() == occ__arch_count + occ__named_count);
    for (int i = 0; i < occ_gpu_count(); i++) {
        occ_device d;
        bool named;
        const char *const *aliases;
        occ_error err;
        assert_int_equal(occ_gpu_at(i, &d, &named, &aliases, NULL), OCC_OK);
        if (occ_device_validate(&d, &err) != OCC_OK) {
            print_error("%s: %s\n", d.name, err.message);
            fail();
        }
        assert_true(named == (i >= occ__arch_count));
        if (named) {
            /* A named GPU's limits are its compute capability's. */
            occ_device arch;
            assert_int_equal(occ_arch_find(d.cc_major, d.cc_minor, &arch, NULL), OCC_OK);
            assert_int_equal(d.max_threads_per_sm, arch.max_threads_per_sm);
            assert_int_equal(d.smem_per_sm_bytes, arch.smem_per_sm_bytes);
            assert_true(d.sm_count >= 0);
        } else {
            assert_int_equal(d.sm_count, 0);
        }
    }
    assert_int_equal(occ_gpu_at(occ_gpu_count(), &(occ_device){0}, NULL, NULL, NULL),
                     OCC_ERR_NOT_FOUND);
    assert_int_equal(occ_gpu_at(-1, &(occ_device){0}, NULL, NULL, NULL), OCC_ERR_NOT_FOUND);
}

static void test_names_and_aliases_find_their_entry(void **state)
{
    (void)state;
    for (int i = 0; i < occ_gpu_count(); i++) {
        occ_device d;
        const char *const *aliases;
        assert_int_equal(occ_gpu_at(i, &d, NULL, &aliases, NULL), OCC_OK);
        occ_device found;
        occ_error err;
        assert_int_equal(occ_gpu_find(d.name, &found, &err), OCC_OK);
        assert_string_equal(found.name, d.name);
        for (; *aliases != NULL; aliases++) {
            if (occ_gpu_find(*aliases, &found, &err) != OCC_OK || strcmp(found.name, d.name) != 0) {
                print_error("alias '%s' of %s finds %s\n", *aliases, d.name, found.name);
                fail();
            }
        }
    }
}

typedef struct lookup_case {
    const char *id;
    const char *query;
    const char *name; /* entry expected */
} lookup_case;

static const lookup_case lookups[] = {
    {"arch-1", "sm_90", "sm_90"},
    {"arch-2", "SM_90A", "sm_90"},
    {"arch-3", "compute_90", "sm_90"},
    {"arch-4", "9.0", "sm_90"},
    {"arch-5", "12.1", "sm_121"},
    {"arch-6", "sm_100f", "sm_100"},
    {"arch-7", "sm_101", "sm_110"}, /* renamed in CUDA 13 */
    {"arch-8", "5.0", "sm_50"},
    {"name-1", "h100", "H100 SXM"},
    {"name-2", "NVIDIA H200", "H200"},
    {"name-3", "nvidia geforce rtx 4090", "RTX 4090"},
    {"name-4", "Tesla T4", "T4"},
    {"name-5", "a100-80gb", "A100 SXM 80GB"},
    {"name-6", "RTX-2080-TI", "RTX 2080 Ti"},
    {"name-7", "gh200", "GH200"},
    {"name-8", "b200", "B200"},
    {"name-9", "rtx 5090", "RTX 5090"},
    {"name-10", "l40s", "L40S"},
    {"name-11", "jetson agx orin", "Jetson AGX Orin 64GB"},
};

static void test_lookups(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof lookups / sizeof lookups[0]; i++) {
        occ_device d;
        occ_error err;
        if (occ_gpu_find(lookups[i].query, &d, &err) != OCC_OK ||
            strcmp(d.name, lookups[i].name) != 0) {
            print_error("%s: '%s' gave '%s'\n", lookups[i].id, lookups[i].query, d.name);
            fail();
        }
    }
}

/* The list: every one of these must be in the database. */
static void test_required_gpus_present(void **state)
{
    (void)state;
    static const char *const required[] = {"T4",
                                           "V100",
                                           "A100 40GB",
                                           "A100 80GB",
                                           "A10",
                                           "A30",
                                           "A40",
                                           "L4",
                                           "L40S",
                                           "RTX 2080 Ti",
                                           "RTX 3090",
                                           "RTX 4090",
                                           "RTX 5090",
                                           "H100 PCIe",
                                           "H100 SXM",
                                           "H100 NVL",
                                           "H200",
                                           "GH200",
                                           "B200",
                                           "RTX PRO 6000 Blackwell Workstation Edition",
                                           "Jetson AGX Orin"};
    static const char *const arches[] = {"5.0",  "5.2",  "5.3",  "6.0",  "6.1", "6.2", "7.0",
                                         "7.2",  "7.5",  "8.0",  "8.6",  "8.7", "8.9", "9.0",
                                         "10.0", "10.3", "11.0", "12.0", "12.1"};
    occ_device d;
    occ_error err;
    for (size_t i = 0; i < sizeof required / sizeof required[0]; i++) {
        if (occ_gpu_find(required[i], &d, &err) != OCC_OK) {
            print_error("%s: %s\n", required[i], err.message);
            fail();
        }
        assert_true(d.sm_count > 0);
    }
    for (size_t i = 0; i < sizeof arches / sizeof arches[0]; i++) {
        assert_int_equal(occ_gpu_find(arches[i], &d, &err), OCC_OK);
    }
}

static void test_unknown_lists_closest(void **state)
{
    (void)state;
    occ_device d;
    occ_error err;
    assert_int_equal(occ_gpu_find("h300", &d, &err), OCC_ERR_UNKNOWN_GPU);
    assert_string_equal(err.field, "gpu");
    assert_non_null(strstr(err.message, "unknown GPU 'h300'; closest: "));
    assert_non_null(strstr(err.message, "H200"));
    assert_int_equal(occ_gpu_find("rtx 4080 ti", &d, &err), OCC_ERR_UNKNOWN_GPU);
    assert_non_null(strstr(err.message, "RTX 4080 SUPER"));
    assert_int_equal(occ_gpu_find("sm_95", &d, &err), OCC_ERR_UNKNOWN_GPU);
    assert_non_null(strstr(err.message, "compute capability 9.5 is not supported"));
    assert_int_equal(occ_gpu_find("", &d, &err), OCC_ERR_UNKNOWN_GPU);
    /* nothing close: no random names, but what works instead */
    assert_int_equal(occ_gpu_find("NoSuchGPU", &d, &err), OCC_ERR_UNKNOWN_GPU);
    assert_null(strstr(err.message, "closest"));
    assert_non_null(strstr(err.message, "no name in the database is close"));
    assert_int_equal(occ_gpu_find("GB20", &d, &err), OCC_ERR_UNKNOWN_GPU);
    assert_null(strstr(err.message, "A10"));
    const char *names[3];
    assert_int_equal(occ_gpu_closest("a100", names, 3), 3);
    assert_string_equal(names[0], "A100 SXM 40GB");
    /* generic entries only for an architecture-like query */
    int n = occ_gpu_closest("sm_91", names, 3);
    assert_true(n >= 1);
    for (int i = 0; i < n; i++) {
        assert_true(strncmp(names[i], "sm_", 3) == 0);
    }
    assert_int_equal(occ_gpu_closest("xyzzy", names, 3), 0);
}

typedef struct invalid_case {
    const char *id;
    const char *field;
    void (*edit)(occ_device *d);
} invalid_case;

static void bad_warp(occ_device *d)
{
    d->warp_size_threads = 64;
}
static void bad_threads(occ_device *d)
{
    d->max_threads_per_sm = 1000;
}
static void bad_regs_block(occ_device *d)
{
    d->regs_per_block = d->regs_per_sm + 1;
}
static void bad_optin(occ_device *d)
{
    d->smem_per_block_optin_bytes = 1024;
}
static void bad_steps(occ_device *d)
{
    d->carveout_steps_bytes[1] = 0;
}
static void bad_last_step(occ_device *d)
{
    d->carveout_steps_bytes[d->carveout_step_count - 1] -= 128;
}
static void bad_name(occ_device *d)
{
    d->name[0] = '\0';
}
static void bad_blocks(occ_device *d)
{
    d->max_blocks_per_sm = 0;
}

static void test_validate_names_the_field(void **state)
{
    (void)state;
    static const invalid_case cases[] = {
        {"dev-1", "warp_size_threads", bad_warp},
        {"dev-2", "max_threads_per_sm", bad_threads},
        {"dev-3", "regs_per_block", bad_regs_block},
        {"dev-4", "smem_per_block_optin_bytes", bad_optin},
        {"dev-5", "carveout_steps_bytes", bad_steps},
        {"dev-6", "carveout_steps_bytes", bad_last_step},
        {"dev-7", "name", bad_name},
        {"dev-8", "max_blocks_per_sm", bad_blocks},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        occ_device d;
        occ_error err;
        assert_int_equal(occ_arch_find(9, 0, &d, NULL), OCC_OK);
        cases[i].edit(&d);
        assert_int_equal(occ_device_validate(&d, &err), OCC_ERR_INVALID_DEVICE);
        if (strcmp(err.field, cases[i].field) != 0 ||
            strstr(err.message, cases[i].field) != err.message) {
            print_error("%s: field '%s' message '%s'\n", cases[i].id, err.field, err.message);
            fail();
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_entry_valid),
        cmocka_unit_test(test_names_and_aliases_find_their_entry),
        cmocka_unit_test(test_lookups),
        cmocka_unit_test(test_required_gpus_present),
        cmocka_unit_test(test_unknown_lists_closest),
        cmocka_unit_test(test_validate_names_the_field),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
