/*
 * demangle.c - C++ names for people, through libiberty's cplus_demangle (the
 * demangler of binutils' c++filt), rather than a hand-written one.
 */
#include <stddef.h>

#include <libiberty/demangle.h>

#include "engine.h"

char *inspect_demangle(const char *mangled)
{
    if (mangled[0] != '_' || mangled[1] != 'Z') {
        return NULL; /* an extern "C" name: nothing to demangle */
    }
    /* DMGL_PARAMS keeps the parameter list, DMGL_ANSI const/volatile,
       as c++filt prints by default. */
    return cplus_demangle(mangled, DMGL_PARAMS | DMGL_ANSI);
}
