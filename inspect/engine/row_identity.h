/*
 * row_identity.h - what makes two rows one function (row_identity.c): the
 * same arch, mangled name and every number, found through a hash.
 */
#ifndef OCC_INSPECT_ROW_IDENTITY_H
#define OCC_INSPECT_ROW_IDENTITY_H

#include <stdbool.h>
#include <stdint.h>

#include "engine.h"

/* FNV-1a (64-bit) over the mangled name (continued from the name's own
   hash) and the numbers: duplicates are found by it, comparing names only
   where hashes are equal. */
uint64_t collect_identity_hash(const inspect_row *row);

/* The same function: same arch, name and every number. */
bool collect_same_identity(const inspect_row *x, const inspect_row *y);

#endif /* OCC_INSPECT_ROW_IDENTITY_H */
