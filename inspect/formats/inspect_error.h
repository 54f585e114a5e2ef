/*
 * inspect_error.h - the one filler of occ_inspect_error for libocc-inspect's
 * parts (the engine, occ diff's gate, occ regs, the GPU-file reader): the
 * status, the input and offset, and a line that keeps its end however long
 * the names in it (values/message_fit.h).
 */
#ifndef OCC_INSPECT_ERROR_H
#define OCC_INSPECT_ERROR_H

#include <stdarg.h>

#include "occ_inspect.h"

/* Fills err (if not NULL) and returns status. input and offset are -1 for
   none. */
__attribute__((format(printf, 5, 0))) occ_status insp_error_vset(occ_inspect_error *err,
                                                                 occ_status status, int input,
                                                                 long long offset,
                                                                 const char *format, va_list args);
__attribute__((format(printf, 5, 6))) occ_status insp_error_set(occ_inspect_error *err,
                                                                occ_status status, int input,
                                                                long long offset,
                                                                const char *format, ...);

#endif /* OCC_INSPECT_ERROR_H */
