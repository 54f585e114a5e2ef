/*
 * errors.c - the one way the CLI's helpers report failure (cli.h): a
 * cli_error filled on the way out, printed once by the command.
 */
#include <stdarg.h>
#include <string.h>

#include "cli.h"
#include "output.h"

bool cli_error_set(cli_error *err, int code, const char *format, ...)
{
    if (err != NULL) {
        va_list args;
        va_start(args, format);
        err->code = code;
        vsnprintf(err->message, sizeof err->message, format, args);
        va_end(args);
    }
    return false;
}

bool cli_error_prefix(cli_error *err, const char *format, ...)
{
    if (err == NULL) {
        return false;
    }
    char prefix[256];
    va_list args;
    va_start(args, format);
    vsnprintf(prefix, sizeof prefix, format, args);
    va_end(args);
    size_t p = strlen(prefix);
    size_t m = strlen(err->message);
    if (p + m >= sizeof err->message) {
        m = sizeof err->message - 1 - p;
    }
    memmove(err->message + p, err->message, m);
    memcpy(err->message, prefix, p);
    err->message[p + m] = '\0';
    return false;
}

int cli_report(const cli_io *io, const char *command, const cli_error *err)
{
    fprintf(io->err, "occ %s: ", command);
    cli_put_visible(io->err, err->message);
    fputc('\n', io->err);
    if (err->code == EXIT_USAGE) {
        fprintf(io->err, "occ: try 'occ %s --help'\n", command);
    }
    return err->code;
}

int cli_fail(const cli_io *io, const char *command, int code, const char *format, ...)
{
    cli_error err;
    va_list args;
    va_start(args, format);
    err.code = code;
    vsnprintf(err.message, sizeof err.message, format, args);
    va_end(args);
    return cli_report(io, command, &err);
}
