/*
 * lab_lines.c - the bounded line reader of occ lab's record files
 * (lab_lines.h).
 */
#include <string.h>

#include "lab_lines.h"

lab_line_status lab_read_line(FILE *in, char *buf, size_t *len)
{
    size_t n = 0;
    int c = EOF;
    flockfile(in);
    while (n < LAB_MAX_LINE_BYTES && (c = getc_unlocked(in)) != EOF && c != '\n') {
        buf[n++] = (char)c;
    }
    /* at the limit: one more byte says whether the line ends there */
    if (n == LAB_MAX_LINE_BYTES) {
        c = getc_unlocked(in);
    }
    bool failed = ferror(in) != 0;
    funlockfile(in);
    buf[n] = '\0';
    *len = n;
    if (failed) {
        return LAB_LINE_FAILED;
    }
    if (c == '\n' || (c == EOF && n > 0)) {
        return LAB_LINE_READ;
    }
    return c == EOF ? LAB_LINE_END : LAB_LINE_TOO_LONG;
}

bool lab_line_blank(const char *line, size_t len)
{
    return strspn(line, " \t\r") == len;
}
