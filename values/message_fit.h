/*
 * message_fit.h - one-line error messages: fitted to their buffer without
 * losing their end, and text from a file made visible in them.
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

/*
 * Text from a file in a message: the one owner of \xNN. A name or key from
 * a damaged or hostile file may hold a newline, a terminal escape or any
 * byte; the CLI (cli_visible, cli_put_visible), the Nsight Compute reader
 * and libocc-inspect's readers all show it through these.
 */

/* Copies text into buf (cap bytes, NUL-terminated where cap > 0) with each
   control character (below 0x20, and 0x7f) as \xNN, so that it cannot move
   the cursor, ring the bell or break the line; every other byte, UTF-8
   included, passes as it is. Stops at text's end, or where buf is full
   (an escape is written whole or not at all). Returns how many bytes of
   text it used, so that a text of any length can be written in pieces. */
size_t message_visible_copy(const char *text, char *buf, size_t cap);

/* The same, returning buf (for a printf argument). */
const char *message_visible(const char *text, char *buf, size_t cap);

/* `len` bytes of a name or key as one line of a message, stricter:
   printable ASCII as it is, any other byte (a newline, a quote, a
   backslash, UTF-8) as \xNN, cut after about `max_shown` bytes with "...".
   Returns buf. */
const char *message_visible_ascii(const char *text, size_t len, size_t max_shown, char *buf,
                                  size_t cap);

#endif /* OCC_MESSAGE_FIT_H */
