/*
 * wrap.c - prints paragraphs wrapped for a terminal, and JSON documents.
 */
#include <string.h>

#include <jansson.h>

#include "cli.h"

/* Prints `text` wrapped at 96 columns, continuation lines indented. */
void cli_print_wrapped(FILE *out, const char *text, int indent)
{
    const int width = 96;
    int col = 0;
    bool line_start = true;
    const char *p = text;
    while (*p != '\0') {
        const char *word_end = strchr(p, ' ');
        int len = word_end != NULL ? (int)(word_end - p) : (int)strlen(p);
        if (!line_start && col + 1 + len > width) {
            fprintf(out, "\n%*s", indent, "");
            col = indent;
            line_start = true;
        }
        if (!line_start) {
            fputc(' ', out);
            col++;
        }
        fwrite(p, 1, (size_t)len, out);
        col += len;
        line_start = false;
        p += len;
        while (*p == ' ') {
            p++;
        }
    }
    fputc('\n', out);
}

void cli_print_json(FILE *out, json_t *doc)
{
    json_dumpf(doc, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    fputc('\n', out);
    json_decref(doc);
}
