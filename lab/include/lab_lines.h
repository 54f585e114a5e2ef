/*
 * lab_lines.h - the bounded line reader of occ lab's record files (occ-lab's
 * records, lab_records.c; occ-regs-bench's, lab_regs_records.c): a line over
 * LAB_MAX_LINE_BYTES (or a file with no line ends at all, /dev/zero) is
 * refused when the limit is reached, not read to its end, so memory stays
 * bounded whatever the input.
 */
#ifndef OCC_CLI_LAB_LINES_H
#define OCC_CLI_LAB_LINES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* The longest records line read; occ-lab's lines are under 2048 bytes,
   occ-regs-bench's under 4096. */
#define LAB_MAX_LINE_BYTES 65536

typedef enum lab_line_status {
    LAB_LINE_READ,
    LAB_LINE_END,
    LAB_LINE_TOO_LONG,
    LAB_LINE_FAILED
} lab_line_status;

/* The next line, without its '\n', into buf (LAB_MAX_LINE_BYTES + 1 bytes,
   NUL-terminated; *len counts NUL bytes inside too). Stops reading at the
   limit: a longer line is LAB_LINE_TOO_LONG with the rest left unread. */
lab_line_status lab_read_line(FILE *in, char *buf, size_t *len);

/* Only spaces, tabs and carriage returns. */
bool lab_line_blank(const char *line, size_t len);

#endif /* OCC_CLI_LAB_LINES_H */
