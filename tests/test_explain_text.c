/*
 * test_explain_text.c - no text of an explanation is ever cut silently.
 *
 * Over every GPU of the database and random valid kernels on each (thousands
 * on each generic entry and on the longest-named GPU of each compute
 * capability, whose texts are the longest; a hundred on every other named
 * GPU): occ_explain succeeds, every text is whole (it ends its last sentence),
 * the longest text of each kind stays under half its buffer, and
 * occ_explain_text fits OCC_EXPLAIN_TEXT_MAX and contains every text. The
 * same file is also built against a libocc whose text buffers are shrunk
 * (OCC_TEST_SMALL_TEXT, tests/CMakeLists.txt: the way Lua's test build shrinks
 * its limits): there a text that does not fit must make occ_explain fail with
 * OCC_ERR_TEXT_TRUNCATED, and a success must still be whole.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "occ.h"

/* Kernels per GPU: the texts depend on the compute capability's limits and
   on the GPU's name, so the entries that can produce the longest texts get
   many, and every other entry a sample (the database holds 150+ GPUs). */
#define KERNELS_PER_WIDEST_GPU 3000
#define KERNELS_PER_OTHER_GPU 100

static uint64_t rng_state = 0x2545F4914F6CDD1Dull;

static unsigned next_random(unsigned bound)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (unsigned)((rng_state >> 11) % bound);
}

/* A random kernel the device accepts: every input across its whole range,
   including the corners (no opt-in, launch bounds, carveouts, barriers). */
static occ_kernel random_kernel(const occ_device *d)
{
    occ_kernel k;
    occ_kernel_init(&k);
    k.block_x = 1 + (int)next_random((unsigned)d->max_threads_per_block);
    k.regs_per_thread = (int)next_random((unsigned)d->max_regs_per_thread + 1);
    if (next_random(4) != 0) {
        k.static_smem_bytes = (int)next_random((unsigned)d->smem_per_block_bytes + 1);
    }
    if (next_random(3) != 0) {
        k.dyn_smem_bytes = (int)next_random((unsigned)d->smem_per_block_optin_bytes + 1);
    }
    k.carveout_percent = next_random(3) == 0 ? OCC_CARVEOUT_DEFAULT : (int)next_random(101);
    k.barriers = (int)next_random(17);
    if (next_random(4) == 0) {
        k.max_threads_per_block = 1 + (int)next_random(1024);
    }
    if (next_random(5) == 0) {
        k.max_dyn_smem_bytes = OCC_DYN_SMEM_NO_OPTIN;
    }
    if (d->partitioned_gc && next_random(3) == 0) {
        k.partitioned_gc = next_random(2) == 0 ? OCC_PGC_ON : OCC_PGC_ON_STRICT;
    }
    return k;
}

/* A whole text ends its last sentence. */
static bool whole(const char *text)
{
    size_t n = strlen(text);
    return n > 0 && text[n - 1] == '.';
}

typedef struct longest {
    size_t summary, step, waste, change, caution, text;
} longest;

static void keep_max(size_t *slot, const char *text)
{
    size_t n = strlen(text);
    *slot = n > *slot ? n : *slot;
}

/* Checks one explanation; returns false (without failing) when occ_explain
   reported a cut text, which only the small-buffer build may see. */
static bool check_explanation(const occ_device *d, const occ_kernel *k, longest *max)
{
    static occ_explanation e;
    occ_error err;
    occ_status st = occ_explain(d, k, &e, &err);
    if (st == OCC_ERR_TEXT_TRUNCATED) {
        /* A cut text fills its buffer to the last byte before the NUL. */
        bool some_full = strlen(e.summary) == sizeof e.summary - 1 ||
                         strlen(e.waste) == sizeof e.waste - 1 ||
                         strlen(e.caution) == sizeof e.caution - 1;
        for (int i = 0; i < e.step_count; i++) {
            some_full |= strlen(e.steps[i].text) == sizeof e.steps[i].text - 1;
        }
        for (int i = 0; i < e.change_count; i++) {
            some_full |= strlen(e.changes[i].text) == sizeof e.changes[i].text - 1;
        }
        assert_true(some_full);
        assert_int_equal(err.status, OCC_ERR_TEXT_TRUNCATED);
        return false;
    }
    if (st != OCC_OK) {
        fail_msg("%s, %d threads, %d regs: %s", d->name, k->block_x, k->regs_per_thread,
                 err.message);
    }
    if (!whole(e.summary) || !whole(e.waste) || !whole(e.caution)) {
        fail_msg("%s, %d threads: a text is not whole: '%s' / '%s' / '%s'", d->name, k->block_x,
                 e.summary, e.waste, e.caution);
    }
    keep_max(&max->summary, e.summary);
    keep_max(&max->waste, e.waste);
    keep_max(&max->caution, e.caution);
    for (int i = 0; i < e.step_count; i++) {
        if (!whole(e.steps[i].text)) {
            fail_msg("%s, %d threads, %d regs, %d+%d smem: step %d is cut: '%s'", d->name,
                     k->block_x, k->regs_per_thread, k->static_smem_bytes, k->dyn_smem_bytes, i,
                     e.steps[i].text);
        }
        keep_max(&max->step, e.steps[i].text);
    }
    for (int i = 0; i < e.change_count; i++) {
        if (!whole(e.changes[i].text)) {
            fail_msg("%s: change %d is cut: '%s'", d->name, i, e.changes[i].text);
        }
        keep_max(&max->change, e.changes[i].text);
    }
    /* The whole text holds every piece, unbroken. */
    static char text[OCC_EXPLAIN_TEXT_MAX];
    size_t len = occ_explain_text(d, k, text, sizeof text, &err);
    if (len == 0) {
        fail_msg("%s: occ_explain_text: %s", d->name, err.message);
    }
    assert_int_equal(len, strlen(text));
    assert_non_null(strstr(text, e.summary));
    assert_non_null(strstr(text, e.steps[e.step_count - 1].text));
    assert_non_null(strstr(text, e.caution));
    keep_max(&max->text, text);
    return true;
}

/* True for a generic entry, or for the named GPU with the longest name of its
   compute capability (the first of equals). */
static bool is_widest(int index, const occ_device *d)
{
    bool named;
    occ_device other;
    assert_int_equal(occ_gpu_at(index, &other, &named, NULL, NULL), OCC_OK);
    if (!named) {
        return true;
    }
    for (int g = 0; g < occ_gpu_count(); g++) {
        assert_int_equal(occ_gpu_at(g, &other, &named, NULL, NULL), OCC_OK);
        if (named && g != index && other.cc_major == d->cc_major && other.cc_minor == d->cc_minor &&
            (strlen(other.name) > strlen(d->name) ||
             (strlen(other.name) == strlen(d->name) && g < index))) {
            return false;
        }
    }
    return true;
}

static void every_gpu_random_kernels(void **state)
{
    (void)state;
    longest max = {0};
    long explained = 0, cut = 0;
    for (int g = 0; g < occ_gpu_count(); g++) {
        occ_device d;
        assert_int_equal(occ_gpu_at(g, &d, NULL, NULL, NULL), OCC_OK);
        int kernels = is_widest(g, &d) ? KERNELS_PER_WIDEST_GPU : KERNELS_PER_OTHER_GPU;
        for (int i = 0; i < kernels; i++) {
            occ_kernel k = random_kernel(&d);
            assert_int_equal(occ_kernel_validate(&d, &k, NULL), OCC_OK);
            if (check_explanation(&d, &k, &max)) {
                explained++;
            } else {
                cut++;
            }
        }
    }
    print_message("%ld explained, %ld reported cut; longest: summary %zu, step %zu, waste %zu, "
                  "change %zu, caution %zu, whole text %zu bytes (buffers %d, text %d)\n",
                  explained, cut, max.summary, max.step, max.waste, max.change, max.caution,
                  max.text, OCC_EXPLAIN_TEXT_BYTES, OCC_EXPLAIN_TEXT_MAX);
#ifdef OCC_TEST_SMALL_TEXT
    /* The shrunk buffers must make some explanations fail, and loudly. */
    assert_true(cut > 0);
    assert_true(explained > 0);
#else
    assert_int_equal(cut, 0);
    /* Half the buffer is the margin the header promises. */
    assert_true(max.step < OCC_EXPLAIN_TEXT_BYTES / 2);
    assert_true(max.change < OCC_EXPLAIN_TEXT_BYTES / 2);
    assert_true(max.summary < OCC_EXPLAIN_TEXT_BYTES / 2);
    assert_true(max.waste < OCC_EXPLAIN_TEXT_BYTES);
    assert_true(max.caution < OCC_EXPLAIN_TEXT_BYTES);
#endif
}

/* The case that was cut at "...must opt in with cudaFuncAttribute": its
   shared-memory step names the whole attribute. */
static void opt_in_step_is_whole(void **state)
{
    (void)state;
    occ_device d;
    assert_int_equal(occ_gpu_find("H200", &d, NULL), OCC_OK);
    occ_kernel k;
    occ_kernel_init(&k);
    k.block_x = 256;
    k.regs_per_thread = 32;
    k.dyn_smem_bytes = 100 * 1024;
    k.carveout_percent = 25;
    static occ_explanation e;
    occ_error err;
    occ_status st = occ_explain(&d, &k, &e, &err);
#ifdef OCC_TEST_SMALL_TEXT
    assert_int_equal(st, OCC_ERR_TEXT_TRUNCATED);
    assert_non_null(strstr(err.message, "OCC_EXPLAIN_TEXT_BYTES"));
#else
    assert_int_equal(st, OCC_OK);
    assert_non_null(strstr(e.steps[3].text, "cudaFuncAttributeMaxDynamicSharedMemorySize"));
    assert_true(whole(e.steps[3].text));
#endif
}

/* A buffer too small for the whole text: 0 and the status, never a cut
   text passed off as whole. */
static void small_text_buffer_fails(void **state)
{
    (void)state;
    occ_device d;
    assert_int_equal(occ_gpu_find("A100", &d, NULL), OCC_OK);
    occ_kernel k;
    occ_kernel_init(&k);
    k.block_x = 256;
    k.regs_per_thread = 64;
    char text[200];
    occ_error err;
    assert_int_equal(occ_explain_text(&d, &k, text, sizeof text, &err), 0);
    assert_int_equal(err.status, OCC_ERR_TEXT_TRUNCATED);
    assert_true(strlen(text) < sizeof text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_gpu_random_kernels),
        cmocka_unit_test(opt_in_step_is_whole),
        cmocka_unit_test(small_text_buffer_fails),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
