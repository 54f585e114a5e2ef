/*
 * section_names.h - the names of the host ELF sections tasks come from
 * (section_names.c), each numbered once in the order first met.
 */
#ifndef OCC_INSPECT_SECTION_NAMES_H
#define OCC_INSPECT_SECTION_NAMES_H

#include <stddef.h>

#include "collector.h"

/* Section names kept (rows of sections beyond are shown without one). */
#define MAX_SECTIONS 256

/* The number of section `name`, given it at first sight while fewer than
   the limit are kept (a hash table: an archive chunk meets thousands). */
int collect_section_index(collector *c, const char *name, size_t len);

#endif /* OCC_INSPECT_SECTION_NAMES_H */
