/*
 * section_names.c - the collector's section names and their hash table
 * (section_names.h).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "section_names.h"

static uint64_t name_hash(const char *name, size_t len)
{
    uint64_t h = 14695981039346656037ull; /* FNV-1a */
    for (size_t i = 0; i < len; i++) {
        h = (h ^ (uint8_t)name[i]) * 1099511628211ull;
    }
    return h;
}

/* The slot of `name` in section_slots, or of the empty slot it would take. */
static size_t section_slot(const collector *c, const char *name, size_t len)
{
    size_t mask = c->slot_count - 1;
    size_t at = (size_t)name_hash(name, len) & mask;
    for (;; at = (at + 1) & mask) {
        int i = c->section_slots[at];
        if (i < 0 ||
            (strlen(c->section_names[i]) == len && memcmp(c->section_names[i], name, len) == 0)) {
            return at;
        }
    }
}

/* Rebuilds the hash table for `slots` slots; false if out of memory. */
static bool rehash_sections(collector *c, size_t slots)
{
    int *table = malloc(slots * sizeof *table);
    if (table == NULL) {
        return false;
    }
    memset(table, 0xFF, slots * sizeof *table); /* -1: empty */
    free(c->section_slots);
    c->section_slots = table;
    c->slot_count = slots;
    for (int i = 0; i < c->section_count; i++) {
        table[section_slot(c, c->section_names[i], strlen(c->section_names[i]))] = i;
    }
    return true;
}

int collect_section_index(collector *c, const char *name, size_t len)
{
    if (c->slot_count > 0) {
        int found = c->section_slots[section_slot(c, name, len)];
        if (found >= 0) {
            return found;
        }
    }
    int limit = c->section_limit > 0 ? c->section_limit : MAX_SECTIONS;
    if (c->section_count == limit) {
        return -1;
    }
    if (c->section_count == c->section_cap) {
        int cap = c->section_cap > 0 ? c->section_cap * 2 : 16;
        char **bigger = realloc(c->section_names, (size_t)cap * sizeof *bigger);
        if (bigger == NULL) {
            return -1;
        }
        c->section_names = bigger;
        c->section_cap = cap;
        if (!rehash_sections(c, (size_t)cap * 2)) {
            return -1;
        }
    }
    char *copy = malloc(len + 1);
    if (copy == NULL) {
        return -1;
    }
    memcpy(copy, name, len);
    copy[len] = '\0';
    c->section_names[c->section_count] = copy;
    c->section_slots[section_slot(c, copy, len)] = c->section_count;
    return c->section_count++;
}
