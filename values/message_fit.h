/*
 * message_fit.h - one-line error messages that fit their buffer without
 * losing their end.
 *
 * The libraries' error structs hold a fixed number of bytes (512 in
 * occ_inspect_error and occ_profile_error). A message names its input first
 * and says what is wrong last ("PATH: field 'sm_count': above the maximum"),
 * so where it does not fit, cutting its end would keep the path and lose the
 * reason. message_fit keeps both ends and elides the middle.
 */
#ifndef OCC_MESSAGE_FIT_H
#define OCC_MESSAGE_FIT_H

#include <stdarg.h>
#include <stddef.h>

/* What stands for the bytes left out of a message too long for its buffer. */
#define MESSAGE_FIT_ELISION "[...]"

/* vsnprintf into out (size bytes, at least 32), except that a message
   longer than size - 1 bytes keeps its first two fifths and its end, joined
   by MESSAGE_FIT_ELISION, cut only between UTF-8 sequences. Messages up to
   MESSAGE_FIT_MAX_BYTES are fitted whole; beyond that their end is lost. */
#define MESSAGE_FIT_MAX_BYTES 8192
__attribute__((format(printf, 3, 0))) void message_vfit(char *out, size_t size, const char *format,
                                                        va_list args);
__attribute__((format(printf, 3, 4))) void message_fit(char *out, size_t size, const char *format,
                                                       ...);

#endif /* OCC_MESSAGE_FIT_H */
