/*
 * output.c - the writers of output.h.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "message_fit.h"
#include "output.h"

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

void cli_print_wrappedf(FILE *out, int indent, const char *format, ...)
{
    char small[1024];
    va_list args;
    va_start(args, format);
    int n = vsnprintf(small, sizeof small, format, args);
    va_end(args);
    if (n < 0) {
        return;
    }
    if ((size_t)n < sizeof small) {
        cli_print_wrapped(out, small, indent);
        return;
    }
    /* longer than the buffer: format again into one that fits */
    char *big = malloc((size_t)n + 1);
    if (big == NULL) {
        fputs(small, out); /* out of memory: the start, then a visible mark */
        fputs("...\n", out);
        return;
    }
    va_start(args, format);
    vsnprintf(big, (size_t)n + 1, format, args);
    va_end(args);
    cli_print_wrapped(out, big, indent);
    free(big);
}

void cli_put_visible(FILE *out, const char *text)
{
    char shown[256];
    while (*text != '\0') {
        text += message_visible_copy(text, shown, sizeof shown);
        fputs(shown, out);
    }
}

const char *cli_visible(const char *text, char *buf, size_t cap)
{
    return message_visible(text, buf, cap);
}

void cli_print_json(FILE *out, json_t *doc)
{
    json_dumpf(doc, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    fputc('\n', out);
    json_decref(doc);
}

const char *cli_plural(double count, const char *one, const char *many)
{
    return count == 1.0 ? one : many;
}

const char *cli_format_bytes(long long bytes, char *buf, size_t cap)
{
    char grouped[32];
    if (bytes >= 1024 && bytes % 1024 == 0) {
        snprintf(buf, cap, "%s KB", group_digits(bytes / 1024, grouped, sizeof grouped));
    } else {
        snprintf(buf, cap, "%s B", group_digits(bytes, grouped, sizeof grouped));
    }
    return buf;
}
