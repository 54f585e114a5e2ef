/*
 * row_identity.c - the identity of a row (row_identity.h): the numbers that
 * make two functions the same, their hash, and the comparison.
 */
#include <string.h>

#include "row_identity.h"

/* How many numbers identity_numbers gives. */
#define IDENTITY_NUMBERS 27

/* The numbers that, with arch and mangled name, make two functions the same:
   every field of the row but the name, the count and the interned pointers,
   so that a merge never loses what one copy said (test_inspect_documents'
   documents-4). */
static size_t identity_numbers(const occ_inspect_kernel *f, int out[IDENTITY_NUMBERS])
{
    const int v[] = {f->sm,
                     f->arch_suffix,
                     f->regs,
                     f->smem_bytes,
                     f->smem_section_bytes,
                     f->stack_bytes,
                     f->frame_bytes,
                     f->spill_store_bytes,
                     f->spill_load_bytes,
                     f->spill_instructions,
                     f->barriers,
                     f->max_threads[0],
                     f->max_threads[1],
                     f->max_threads[2],
                     f->req_threads[0],
                     f->req_threads[1],
                     f->req_threads[2],
                     f->max_regs,
                     f->cluster_dims[0],
                     f->cluster_dims[1],
                     f->cluster_dims[2],
                     f->param_bytes,
                     f->is_kernel,
                     f->relocatable,
                     f->from_log,
                     f->explicit_cluster,
                     f->max_cluster_rank};
    _Static_assert(sizeof v / sizeof v[0] == IDENTITY_NUMBERS, "identity_numbers' count");
    memcpy(out, v, sizeof v);
    return sizeof v / sizeof v[0];
}

uint64_t collect_identity_hash(const inspect_row *row)
{
    uint64_t h = row->interned->hash;
    int numbers[IDENTITY_NUMBERS];
    size_t n = identity_numbers(&row->k, numbers);
    for (size_t i = 0; i < n; i++) {
        h = (h ^ (uint32_t)numbers[i]) * 1099511628211ull;
    }
    return h;
}

bool collect_same_identity(const inspect_row *x, const inspect_row *y)
{
    if (x->identity != y->identity || x->interned != y->interned) {
        return false;
    }
    int xv[IDENTITY_NUMBERS];
    int yv[IDENTITY_NUMBERS];
    size_t n = identity_numbers(&x->k, xv);
    identity_numbers(&y->k, yv);
    return memcmp(xv, yv, n * sizeof xv[0]) == 0;
}
