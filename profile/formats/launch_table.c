/*
 * launch_table.c - the launch table: CSV of the launch configurations a
 * program makes (kernel,block,dyn_smem[,cluster,grid,weight,carveout];
 * include/occ_profile.h), read row by row into occ_inspect_launch, each bad
 * cell refused with its line, its column, the value and the limit.
 *
 * The cells are read as the command line reads the same values (--threads,
 * --dyn-smem, --carveout; cli/common/values.c), with the same words, so a
 * table and an option say alike what is wrong with "2048".
 */
#include <ctype.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "csv.h"
#include "launch_table.h"
#include "prof_formats.h"

/* The most fields a record of the table stores: its 7 columns and room for
   the header to name a wrong one. A header of more columns is refused all
   the same: among its first 8 one is unknown or repeated (the assertion
   below), and a row of more fields than its header is refused. */
#define TABLE_MAX_FIELDS 16
/* Sizes stop here: every size libocc takes is an int. */
#define SIZE_MAX_BYTES 2147483647LL
/* Why a cell is not a value: a line's worth. */
#define WHY_BYTES 160

/* A value as it appears in a message: at most 40 bytes of it. */
#define SHOWN(text) (int)(strlen(text) < 40 ? strlen(text) : 40), (text)

/* The launch table's columns. */
enum {
    COL_KERNEL,
    COL_BLOCK,
    COL_DYN_SMEM,
    COL_CLUSTER,
    COL_GRID,
    COL_WEIGHT,
    COL_CARVEOUT,
    COL_COUNT
};
static const char *const column_names[COL_COUNT] = {"kernel", "block",  "dyn_smem", "cluster",
                                                    "grid",   "weight", "carveout"};
_Static_assert(TABLE_MAX_FIELDS > COL_COUNT,
               "a header's stored fields must reach an unknown or repeated column");

/* A grid's most blocks in x, and in y and z (CUDA C++ Programming Guide,
   "Technical Specifications per Compute Capability": maximum x-dimension of
   a grid of thread blocks 2^31-1, y- or z-dimension 65535, for every
   compute capability since 3.0). Their product fits a long long. */
#define GRID_X_MAX 2147483647LL
#define GRID_YZ_MAX 65535LL
_Static_assert(GRID_X_MAX <= LLONG_MAX / GRID_YZ_MAX / GRID_YZ_MAX, "grid_blocks overflows");

/* A whole decimal number in [lo, hi]; false with why. */
static bool parse_int(const char *text, long long lo, long long hi, long long *out, char *why)
{
    const char *p = text;
    bool negative = false;
    if (*p == '-' || *p == '+') {
        negative = *p == '-';
        p++;
    }
    if (!isdigit((unsigned char)*p)) {
        snprintf(why, WHY_BYTES, "'%.*s' is not a whole number", SHOWN(text));
        return false;
    }
    /* Accumulate as a negative number: its range holds LLONG_MIN too. */
    long long value = 0;
    bool too_large = false;
    for (; isdigit((unsigned char)*p); p++) {
        int digit = *p - '0';
        if (value < (LLONG_MIN + digit) / 10) {
            too_large = true;
        } else {
            value = value * 10 - digit;
        }
    }
    if (*p != '\0') {
        snprintf(why, WHY_BYTES, "'%.*s' is not a whole number", SHOWN(text));
        return false;
    }
    if (!negative && value == LLONG_MIN) {
        too_large = true;
    }
    if (!too_large && !negative) {
        value = -value;
    }
    if (too_large ? !negative : value > hi) {
        snprintf(why, WHY_BYTES, "'%.*s' is above the maximum, %lld", SHOWN(text), hi);
        return false;
    }
    if (too_large || value < lo) {
        snprintf(why, WHY_BYTES, "'%.*s' is below the minimum, %lld", SHOWN(text), lo);
        return false;
    }
    *out = value;
    return true;
}

/* Bytes, at most 2147483647: "1024", "48K", "48KB", "48KiB", "1.5KiB", "2M"
   (K = 1024, as CUDA counts); false with why. */
static bool parse_size(const char *text, long long *out, char *why)
{
    const char *p = text;
    long long whole = 0;
    long long frac = 0;
    long long frac_scale = 1;
    int digits = 0;
    bool too_large = false;
    for (; isdigit((unsigned char)*p); p++, digits++) {
        if (!too_large) {
            whole = whole * 10 + (*p - '0');
            too_large = whole > SIZE_MAX_BYTES;
        }
    }
    if (*p == '.') {
        p++;
        for (; isdigit((unsigned char)*p); p++, digits++) {
            if (frac_scale >= 1000000) {
                snprintf(why, WHY_BYTES, "'%.*s' has more than 6 decimals; sizes are whole bytes",
                         SHOWN(text));
                return false;
            }
            frac = frac * 10 + (*p - '0');
            frac_scale *= 10;
        }
    }
    long long unit = 0;
    if (*p == '\0' || strcasecmp(p, "b") == 0) {
        unit = 1;
    } else if (strcasecmp(p, "k") == 0 || strcasecmp(p, "kb") == 0 || strcasecmp(p, "kib") == 0) {
        unit = 1024; /* CUDA's KB is 1024 bytes */
    } else if (strcasecmp(p, "m") == 0 || strcasecmp(p, "mb") == 0 || strcasecmp(p, "mib") == 0) {
        unit = 1024 * 1024;
    }
    if (digits == 0 || unit == 0) {
        snprintf(why, WHY_BYTES, "'%.*s' is not a size in bytes such as 4096, 48K or 1.5KiB",
                 SHOWN(text));
        return false;
    }
    /* Exact: the fraction must come to whole bytes. */
    if ((frac * unit) % frac_scale != 0) {
        snprintf(why, WHY_BYTES, "'%.*s' is not a whole number of bytes", SHOWN(text));
        return false;
    }
    long long bytes = too_large ? SIZE_MAX_BYTES + 1 : whole * unit + frac * unit / frac_scale;
    if (bytes > SIZE_MAX_BYTES) {
        snprintf(why, WHY_BYTES, "'%.*s' is above the maximum, %lld bytes", SHOWN(text),
                 SIZE_MAX_BYTES);
        return false;
    }
    *out = bytes;
    return true;
}

/* What a shape of up to three dimensions is: its words and each dimension's
   maximum (the minimum is 1). */
typedef struct shape_kind {
    const char *example; /* "a block size such as 256, 16x16 or 8x8x4" */
    long long max[3];
} shape_kind;

/* Blocks and clusters: each dimension 1..1024 (no CUDA GPU takes more
   threads in any dimension: a block's x and y are at most 1024, z at most
   64; the product, and a cluster's size, are checked against the GPU's
   limits later). */
static const shape_kind block_shape = {"a block size such as 256, 16x16 or 8x8x4",
                                       {1024, 1024, 1024}};
/* Grids: x up to 2^31-1, y and z up to 65535 (GRID_X_MAX). */
static const shape_kind grid_shape = {"a grid such as 1056, 132x8 or 66x4x4",
                                      {GRID_X_MAX, GRID_YZ_MAX, GRID_YZ_MAX}};

/* "X", "XxY" or "XxYxZ", each dimension 1..kind's maximum, the missing ones
   1. False with why. */
static bool parse_shape(const char *text, const shape_kind *kind, long long dims[3], char *why)
{
    long long parsed[3] = {1, 1, 1};
    int n = 0;
    const char *p = text;
    for (;;) {
        size_t len = strcspn(p, "xX");
        char part[24];
        long long v;
        if (n == 3 || len == 0 || len >= sizeof part) {
            snprintf(why, WHY_BYTES, "'%.*s' is not %s", SHOWN(text), kind->example);
            return false;
        }
        memcpy(part, p, len);
        part[len] = '\0';
        char part_why[WHY_BYTES];
        if (!parse_int(part, 1, kind->max[n], &v, part_why)) {
            if (p == text && p[len] == '\0') {
                /* one number: its own message says it all */
                snprintf(why, WHY_BYTES, "%s", part_why);
            } else {
                /* (part_why quotes at most 24 bytes of the value: it fits) */
                snprintf(why, WHY_BYTES, "'%.*s': dimension %.100s", SHOWN(text), part_why);
            }
            return false;
        }
        parsed[n++] = v;
        if (p[len] == '\0') {
            break;
        }
        p += len + 1;
    }
    memcpy(dims, parsed, sizeof parsed);
    return true;
}

/* A block or cluster shape into ints. */
static bool parse_dims(const char *text, int dims[3], char *why)
{
    long long parsed[3];
    if (!parse_shape(text, &block_shape, parsed, why)) {
        return false;
    }
    for (int d = 0; d < 3; d++) {
        dims[d] = (int)parsed[d];
    }
    return true;
}

static occ_status cell_fail(occ_profile_error *err, const char *name, long long line,
                            const char *column, const char *why)
{
    return prof_error(err, OCC_ERR_BAD_FORMAT, name, 0, line, "line %lld: %s: %s", line, column,
                      why);
}

bool prof_launch_rows_grow(prof_launch_rows *rows, bool with_names)
{
    if (rows->count < rows->cap) {
        return true;
    }
    size_t cap = rows->cap ? rows->cap * 2 : 64;
    occ_inspect_launch *l = realloc(rows->launches, cap * sizeof *l);
    if (l == NULL) {
        return false;
    }
    rows->launches = l;
    if (with_names) {
        char **names = realloc(rows->names, cap * sizeof *names);
        if (names == NULL) {
            return false;
        }
        rows->names = names;
    }
    rows->cap = cap;
    return true;
}

void prof_launch_rows_free(prof_launch_rows *rows)
{
    if (rows->names != NULL) {
        for (size_t i = 0; i < rows->count; i++) {
            free(rows->names[i]);
        }
    }
    free(rows->names);
    free(rows->launches);
    memset(rows, 0, sizeof *rows);
}

/* One row of the table into rows' next launch (its name copied). */
static occ_status table_row(csv_reader *r, const int *column_of, const char *name,
                            prof_launch_rows *rows, occ_profile_error *err)
{
    const char *v[COL_COUNT];
    for (int c = 0; c < COL_COUNT; c++) {
        v[c] = column_of[c] >= 0 ? csv_field(r, column_of[c]) : "";
    }
    if (v[COL_KERNEL][0] == '\0') {
        return cell_fail(err, name, r->line, "kernel", "empty: give a name or a glob");
    }
    occ_inspect_launch *l = &rows->launches[rows->count];
    memset(l, 0, sizeof *l);
    char why[WHY_BYTES];
    if (!parse_dims(v[COL_BLOCK], l->block, why)) {
        return cell_fail(err, name, r->line, "block", why);
    }
    long long n;
    if (!parse_size(v[COL_DYN_SMEM], &n, why)) {
        return cell_fail(err, name, r->line, "dyn_smem", why);
    }
    l->dyn_smem_bytes = (int)n;
    l->smem_total_bytes = OCC_INSPECT_UNKNOWN;
    if (v[COL_CLUSTER][0] != '\0' && !parse_dims(v[COL_CLUSTER], l->cluster, why)) {
        return cell_fail(err, name, r->line, "cluster", why);
    }
    if (v[COL_GRID][0] != '\0') {
        long long grid[3];
        if (!parse_shape(v[COL_GRID], &grid_shape, grid, why)) {
            return cell_fail(err, name, r->line, "grid", why);
        }
        l->grid_blocks = grid[0] * grid[1] * grid[2];
    }
    l->carveout_percent = OCC_CARVEOUT_DEFAULT;
    if (v[COL_CARVEOUT][0] != '\0') {
        if (!parse_int(v[COL_CARVEOUT], 0, 100, &n, why)) {
            return cell_fail(err, name, r->line, "carveout", why);
        }
        l->carveout_percent = (int)n;
    }
    l->weight = 1.0;
    if (v[COL_WEIGHT][0] != '\0') {
        char *end;
        double w = strtod(v[COL_WEIGHT], &end);
        if (*end != '\0' || !(w >= 0.0 && w < 1e300)) {
            return cell_fail(err, name, r->line, "weight",
                             "not a number of 0 or more (a share, a time, a count)");
        }
        l->weight = w;
    }
    char *kernel = strdup(v[COL_KERNEL]);
    if (kernel == NULL) {
        return prof_error(err, OCC_ERR_OUT_OF_MEMORY, name, 0, r->line, "out of memory");
    }
    rows->names[rows->count++] = kernel;
    l->name = kernel;
    l->glob = strpbrk(kernel, "*?[") != NULL;
    l->source = OCC_INSPECT_LAUNCH_TABLE;
    return OCC_OK;
}

/* The columns the header r just read names, into column_of. */
static occ_status table_header(csv_reader *r, const char *name, int *column_of,
                               occ_profile_error *err)
{
    for (int c = 0; c < COL_COUNT; c++) {
        column_of[c] = -1;
    }
    for (int i = 0; i < r->field_count && i < r->max_fields; i++) {
        const char *field = csv_field(r, i);
        if (field[0] == '\0') {
            char why[WHY_BYTES];
            snprintf(why, WHY_BYTES,
                     "column %d has no name (the columns are kernel, block, dyn_smem, cluster, "
                     "grid, weight, carveout)",
                     i + 1);
            return cell_fail(err, name, r->line, "header", why);
        }
        int c = 0;
        while (c < COL_COUNT && strcmp(field, column_names[c]) != 0) {
            c++;
        }
        if (c == COL_COUNT) {
            return cell_fail(err, name, r->line, field,
                             "not a column (kernel, block, dyn_smem, cluster, grid, weight, "
                             "carveout)");
        }
        if (column_of[c] >= 0) {
            return cell_fail(err, name, r->line, field, "appears twice");
        }
        column_of[c] = i;
    }
    for (int c = 0; c <= COL_DYN_SMEM; c++) {
        if (column_of[c] < 0) {
            return cell_fail(err, name, r->line, column_names[c],
                             "missing: the header is kernel,block,dyn_smem[,cluster,grid,weight]");
        }
    }
    return OCC_OK;
}

/* A row of more fields than the header has columns: a kernel name with an
   unquoted comma, or a cell meant for a column the header lacks. Either way
   a value would be dropped, so the row is refused, naming the first. */
static occ_status extra_fields(csv_reader *r, const char *name, int columns, occ_profile_error *err)
{
    /* columns <= COL_COUNT < TABLE_MAX_FIELDS: the first extra field is stored */
    const char *extra = csv_field(r, columns);
    char why[WHY_BYTES];
    snprintf(why, WHY_BYTES,
             "%d fields, but the header has %d columns: field %d, '%.*s', is in none (quote a "
             "kernel name that holds a comma)",
             r->field_count, columns, columns + 1, SHOWN(extra));
    return cell_fail(err, name, r->line, "row", why);
}

/* The rows after the header r just read. */
static occ_status table_rows(csv_reader *r, const char *name, prof_launch_rows *rows,
                             occ_profile_error *err)
{
    int column_of[COL_COUNT];
    occ_status st = table_header(r, name, column_of, err);
    if (st != OCC_OK) {
        return st;
    }
    int columns = r->field_count;
    for (;;) {
        csv_status cs = csv_next(r);
        if (cs == CSV_END) {
            return OCC_OK;
        }
        if (cs == CSV_READ_ERROR) {
            return prof_error(err, OCC_ERR_BAD_FORMAT, name, 0, r->line, "%s", r->error);
        }
        if (cs != CSV_RECORD || r->unclosed_quote || r->text_after_quote || r->has_nul) {
            return cell_fail(err, name, r->line, "row",
                             "not a CSV record (too long, a NUL byte, or a quote left open)");
        }
        if (r->field_count > columns) {
            return extra_fields(r, name, columns, err);
        }
        if (rows->count == OCC_PROFILE_LAUNCH_TABLE_MAX_ROWS) {
            return prof_error(err, OCC_ERR_LIMIT, name, 0, r->line,
                              "line %lld: row: more than %d rows", r->line,
                              OCC_PROFILE_LAUNCH_TABLE_MAX_ROWS);
        }
        if (!prof_launch_rows_grow(rows, true)) {
            return prof_error(err, OCC_ERR_OUT_OF_MEMORY, name, 0, r->line, "out of memory");
        }
        st = table_row(r, column_of, name, rows, err);
        if (st != OCC_OK) {
            return st;
        }
    }
}

occ_status prof_read_launch_table(FILE *in, const char *name, bool *is_table,
                                  prof_launch_rows *rows, occ_profile_error *err)
{
    *is_table = false;
    csv_reader r;
    if (!csv_init(&r, in, OCC_PROFILE_LAUNCH_TABLE_MAX_RECORD_BYTES, TABLE_MAX_FIELDS)) {
        csv_free(&r);
        return prof_error(err, OCC_ERR_OUT_OF_MEMORY, name, 0, -1, "out of memory");
    }
    occ_status st = OCC_OK;
    if (csv_next(&r) == CSV_RECORD && !r.has_nul && strcmp(csv_field(&r, 0), "kernel") == 0) {
        *is_table = true;
        st = table_rows(&r, name, rows, err);
    }
    csv_free(&r);
    return st;
}
