/*
 * values.c - the checked parsers of values.h: value_parse.h's, their
 * refusals as usage errors.
 */
#include <string.h>
#include <strings.h>

#include "value_parse.h"
#include "values.h"

/* A value_parse refusal as the CLI's usage error; false. */
static bool usage(cli_error *err, const char *why)
{
    return cli_error_set(err, EXIT_USAGE, "%s", why);
}

bool cli_parse_int(const char *text, long long lo, long long hi, long long *out, cli_error *err)
{
    char why[VALUE_WHY_BYTES];
    return value_parse_int(text, lo, hi, out, why) || usage(err, why);
}

bool cli_parse_size(const char *text, long long *out, cli_error *err)
{
    char why[VALUE_WHY_BYTES];
    return value_parse_size(text, VALUE_SIZE_INT_MAX, out, why) || usage(err, why);
}

bool cli_parse_carveout(const char *text, int *out, cli_error *err)
{
    if (strcasecmp(text, "default") == 0) {
        *out = OCC_CARVEOUT_DEFAULT;
        return true;
    }
    char buf[16];
    size_t len = strlen(text);
    long long value;
    if (len > 0 && len < sizeof buf) {
        memcpy(buf, text, len + 1);
        if (buf[len - 1] == '%') {
            buf[len - 1] = '\0';
        }
        if (value_parse_int(buf, -1, 100, &value, NULL)) {
            *out = (int)value;
            return true;
        }
    }
    return cli_error_set(err, EXIT_USAGE,
                         "'%.*s' is not 'default' (or -1) or a percentage from 0 to 100",
                         (int)(len < 40 ? len : 40), text);
}

bool cli_parse_block(const char *text, int dims[3], cli_error *err)
{
    char why[VALUE_WHY_BYTES];
    return value_parse_block(text, dims, why) || usage(err, why);
}

bool cli_parse_double(const char *text, double lo, double hi, double *out, cli_error *err)
{
    char why[VALUE_WHY_BYTES];
    return value_parse_double(text, lo, hi, out, why) || usage(err, why);
}
