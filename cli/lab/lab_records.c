/*
 * lab_records.c - occ lab's records read through the lab library
 * (lab_data.h, lab_regs_data.h): a refusal becomes the CLI's data error.
 */
#include "lab_records.h"
#include "lab_regs_records.h"

bool lab_records_read(FILE *in, const char *name, lab_data *data, cli_error *err)
{
    lab_error e = {""};
    if (lab_data_read(in, name, data, &e)) {
        return true;
    }
    return cli_error_set(err, EXIT_DATA, "%s", e.message);
}

bool lab_regs_records_read(FILE *in, const char *name, lab_regs_data *data, cli_error *err)
{
    lab_error e = {""};
    if (lab_regs_data_read(in, name, data, &e)) {
        return true;
    }
    return cli_error_set(err, EXIT_DATA, "%s", e.message);
}
