/*
 * gpu_select.c - --gpu and --gpu-file (gpu_select.h). The file format is
 * documented in docs/gpu-file.md; libocc-inspect reads it
 * (occ_inspect_gpu_from_json, inspect/gpu/gpu_file.c).
 */
#include <stdlib.h>
#include <string.h>

#include "file_read.h"
#include "gpu_select.h"
#include "occ_inspect.h"

bool cli_gpu_from_json(const char *text, size_t size, const char *name, occ_device *out,
                       cli_error *err)
{
    occ_inspect_error ierr;
    if (occ_inspect_gpu_from_json(text, size, name, out, &ierr) != OCC_OK) {
        return cli_error_set(err, EXIT_DATA, "%s", ierr.message);
    }
    return true;
}

bool cli_load_gpu_file(const char *path, FILE *in, occ_device *out, cli_error *err)
{
    char *text;
    size_t size;
    if (!cli_read_file(path, in, OCC_INSPECT_GPU_FILE_MAX_BYTES, &text, &size, err)) {
        return false;
    }
    bool ok = cli_gpu_from_json(text, size, strcmp(path, "-") == 0 ? "<stdin>" : path, out, err);
    free(text);
    return ok;
}

bool cli_resolve_gpu(const char *gpu_name, const char *gpu_path, FILE *in, occ_device *out,
                     cli_error *err)
{
    if (gpu_name != NULL && gpu_path != NULL) {
        return cli_error_set(err, EXIT_USAGE, "options --gpu and --gpu-file: give one, not both");
    }
    if (gpu_path != NULL) {
        return cli_load_gpu_file(gpu_path, in, out, err);
    }
    if (gpu_name == NULL) {
        return cli_error_set(err, EXIT_USAGE,
                             "option --gpu: is required (a name such as H200, or sm_90; "
                             "'occ gpus' lists them)");
    }
    occ_error oerr;
    if (occ_gpu_find(gpu_name, out, &oerr) != OCC_OK) {
        return cli_error_set(err, EXIT_USAGE, "option --gpu: %s", oerr.message);
    }
    return true;
}

const cli_option gpu_options[GPU_OPTION_COUNT] = {
    [GPU_OPTION_GPU] = {GPU_OPTION_GPU, "gpu", "NAME",
                        "GPU name, alias or arch: H200, a100-80gb, sm_90, 9.0"},
    [GPU_OPTION_GPU_FILE] = {GPU_OPTION_GPU_FILE, "gpu-file", "FILE",
                             "a GPU described in JSON, '-' for stdin (docs/gpu-file.md)"},
};

bool gpu_option_apply(int id, const char *value, gpu_choice *c, cli_error *err)
{
    switch (id) {
    case GPU_OPTION_GPU: c->gpu = value; return true;
    case GPU_OPTION_GPU_FILE: c->gpu_file = value; return true;
    default: return cli_error_set(err, EXIT_USAGE, "GPU option id %d is unknown", id);
    }
}
