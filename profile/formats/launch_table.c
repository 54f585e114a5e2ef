/*
 * launch_table.c - the launch table: CSV of the launch configurations a
 * program makes (kernel,block,dyn_smem[,cluster,grid,weight,carveout];
 * include/occ_profile.h), read row by row into occ_inspect_launch, each bad
 * cell refused with its line, its column, the value and the limit.
 *
 * The cells are read by the parsers the command line reads the same values
 * with (--threads, --dyn-smem, --carveout; values/value_parse.h), so a table
 * and an option say alike what is wrong with "2048".
 */
#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "launch_table.h"
#include "prof_formats.h"
#include "value_parse.h"

/* The most fields a record of the table stores: its 7 columns and room for
   the header to name a wrong one. A header of more columns is refused all
   the same: among its first 8 one is unknown or repeated (the assertion
   below), and a row of more fields than its header is refused. */
#define TABLE_MAX_FIELDS 16
/* Why a cell is not a value: a line's worth, as value_parse.h writes it. */
#define WHY_BYTES VALUE_WHY_BYTES

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
    if (!value_parse_block(v[COL_BLOCK], l->block, why)) {
        return cell_fail(err, name, r->line, "block", why);
    }
    long long n;
    if (!value_parse_size(v[COL_DYN_SMEM], VALUE_SIZE_INT_MAX, &n, why)) {
        return cell_fail(err, name, r->line, "dyn_smem", why);
    }
    l->dyn_smem_bytes = (int)n;
    l->smem_total_bytes = OCC_INSPECT_UNKNOWN;
    if (v[COL_CLUSTER][0] != '\0' && !value_parse_block(v[COL_CLUSTER], l->cluster, why)) {
        return cell_fail(err, name, r->line, "cluster", why);
    }
    if (v[COL_GRID][0] != '\0') {
        long long grid[3];
        if (!value_parse_shape(v[COL_GRID], &value_grid_shape, grid, why)) {
            return cell_fail(err, name, r->line, "grid", why);
        }
        /* value_grid_shape's maxima: the product fits a long long */
        l->grid_blocks = grid[0] * grid[1] * grid[2];
    }
    l->carveout_percent = OCC_CARVEOUT_DEFAULT;
    if (v[COL_CARVEOUT][0] != '\0') {
        if (!value_parse_int(v[COL_CARVEOUT], 0, 100, &n, why)) {
            return cell_fail(err, name, r->line, "carveout", why);
        }
        l->carveout_percent = (int)n;
    }
    l->weight = 1.0;
    if (v[COL_WEIGHT][0] != '\0') {
        double w;
        if (!value_parse_double(v[COL_WEIGHT], 0.0, 1e300, &w, NULL)) {
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
