/*
 * regs_input.c - occ regs' input as PTX text: a .cu compiled by nvcc -ptx
 * (the caller's arguments after -arch=compute_XX), PTX as it is, or the PTX
 * entry of a fatbin or host ELF file (ptx_extract.c); then the arch ptxas
 * compiles for and the GPU the occupancy is computed on.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "regs_state.h"
/* The largest binary read whole to find its PTX. */
#define MAX_INPUT_BYTES ((size_t)2 << 30)

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* The arch the caller asked for: --arch, else the GPU's. */
static void wanted_arch(const occ_regs_options *o, int *sm, char *suffix)
{
    *sm = o->arch_sm;
    *suffix = o->arch_sm > 0 ? o->arch_suffix : 0;
    if (*sm == 0 && o->device != NULL) {
        *sm = o->device->cc_major * 10 + o->device->cc_minor;
    }
}

/* nvcc -ptx [-arch=compute_XX] ARGS FILE.cu -o TMP/input.ptx */
static occ_status compile_cu(regs_run_state *s, const void *data, size_t size,
                             occ_inspect_error *err)
{
    const occ_regs_options *o = s->o;
    char *nvcc = NULL;
    occ_status status = regs_find_tool("nvcc", o->nvcc, getenv("CUDA_HOME"), getenv("PATH"),
                                       "/usr/local/cuda/bin", &nvcc, err);
    if (status != OCC_OK) {
        return status;
    }
    char *source = NULL;
    if (data != NULL) {
        source = regs_tmp_path(s, "input.cu");
        status = source != NULL ? regs_write_file(source, data, size, err)
                                : regs_fail(err, OCC_ERR_OUT_OF_MEMORY, "out of memory");
    }
    char *ptx_path = regs_tmp_path(s, "input.ptx");
    char *log_path = regs_tmp_path(s, "nvcc.log");
    int sm;
    char suffix;
    wanted_arch(o, &sm, &suffix);
    char arch_arg[32];
    snprintf(arch_arg, sizeof arch_arg, "-arch=compute_%d%.1s", sm, suffix != 0 ? &suffix : "");
    size_t argc = 0;
    const char **argv = calloc((size_t)o->nvcc_arg_count + 8, sizeof *argv);
    if (argv == NULL || ptx_path == NULL || log_path == NULL) {
        status = regs_fail(err, OCC_ERR_OUT_OF_MEMORY, "out of memory");
    }
    if (status == OCC_OK) {
        argv[argc++] = nvcc;
        argv[argc++] = "-ptx";
        if (sm > 0) {
            argv[argc++] = arch_arg;
        }
        for (int i = 0; i < o->nvcc_arg_count; i++) {
            argv[argc++] = o->nvcc_args[i];
        }
        argv[argc++] = source != NULL ? source : s->path;
        argv[argc++] = "-o";
        argv[argc++] = ptx_path;
        argv[argc] = NULL;
        int exit_status = 0;
        status = regs_run_program(argv, log_path, &exit_status, err);
        if (status == OCC_OK && exit_status != 0) {
            char *log = NULL;
            size_t log_size = 0;
            char line[400];
            regs_read_file(log_path, 1 << 20, &log, &log_size, NULL);
            status =
                regs_fail(err, OCC_ERR_BAD_FORMAT, "nvcc failed (exit status %d): %s", exit_status,
                          log != NULL ? regs_first_error_line(log, log_size, line, sizeof line)
                                      : "no output");
            free(log);
        }
        if (status == OCC_OK) {
            status = regs_read_file(ptx_path, OCC_REGS_MAX_PTX_BYTES, &s->ptx, &s->ptx_size, err);
        }
        if (status == OCC_OK && sm == 0) {
            regs_note(&s->run_notes, "nvcc compiled for its default arch: give --gpu or --arch to "
                                     "choose");
        }
    }
    if (source != NULL) {
        remove(source);
    }
    if (ptx_path != NULL) {
        remove(ptx_path);
    }
    if (log_path != NULL) {
        remove(log_path);
    }
    free(source);
    free(ptx_path);
    free(log_path);
    free((void *)argv);
    free(nvcc);
    s->kind = "cu";
    return status;
}

occ_status regs_load_ptx(regs_run_state *s, const void *data, size_t size, occ_inspect_error *err)
{
    if (ends_with(s->path, ".cu")) {
        return compile_cu(s, data, size, err);
    }
    char *owned = NULL;
    if (data == NULL) {
        occ_status status = regs_read_file(s->path, MAX_INPUT_BYTES, &owned, &size, err);
        if (status != OCC_OK) {
            return status;
        }
        data = owned;
    }
    if (regs_ptx_probe(data, size)) {
        s->kind = "ptx";
        if (owned != NULL) {
            s->ptx = owned;
            s->ptx_size = size;
            return OCC_OK;
        }
        s->ptx = malloc(size + 1);
        if (s->ptx == NULL) {
            return regs_fail(err, OCC_ERR_OUT_OF_MEMORY, "out of memory for %zu bytes", size);
        }
        memcpy(s->ptx, data, size);
        s->ptx[size] = '\0';
        s->ptx_size = size;
        return OCC_OK;
    }
    int sm, found_sm = 0;
    char suffix, found_suffix = 0;
    wanted_arch(s->o, &sm, &suffix);
    occ_status status = regs_ptx_extract(data, size, sm, suffix, &s->ptx, &s->ptx_size, &found_sm,
                                         &found_suffix, &s->kind, err);
    free(owned);
    if (status == OCC_OK) {
        char name[16];
        occ_inspect_arch_name(found_sm, found_suffix, name, sizeof name);
        regs_note(&s->run_notes, "the PTX compiled is the %s file's compute_%s entry", s->kind,
                  name + 3);
    }
    return status;
}

/* ---- the arch and the GPU --------------------------------------------------- */

occ_status regs_choose_arch(regs_run_state *s, occ_inspect_error *err)
{
    const occ_regs_options *o = s->o;
    int sm;
    char suffix;
    wanted_arch(o, &sm, &suffix);
    if (sm == 0) {
        sm = s->module.target_sm;
        suffix = s->module.target_suffix;
    } else if (o->arch_sm == 0 && sm == s->module.target_sm) {
        suffix = s->module.target_suffix; /* sm_90a PTX on an H200: sm_90a */
    }
    if (sm == 0) {
        return regs_fail(err, OCC_ERR_BAD_FORMAT,
                         "the PTX has no .target sm_XX: give --arch or --gpu");
    }
    if (s->module.target_sm > sm) {
        char want[16], have[16];
        occ_inspect_arch_name(sm, suffix, want, sizeof want);
        occ_inspect_arch_name(s->module.target_sm, s->module.target_suffix, have, sizeof have);
        return regs_fail(err, OCC_ERR_INVALID_ARGUMENT,
                         "the PTX targets %s, above %s: ptxas cannot compile it for %s (give "
                         "--arch %s or a GPU of that arch)",
                         have, want, want, have);
    }
    s->sm = sm;
    s->suffix = suffix;
    occ_inspect_arch_name(sm, suffix, s->arch, sizeof s->arch);
    if (o->device != NULL) {
        s->device = *o->device;
        int device_sm = o->device->cc_major * 10 + o->device->cc_minor;
        if (device_sm / 10 != sm / 10 || device_sm < sm) {
            regs_note(&s->run_notes,
                      "%s code does not run on %s (compute capability %d.%d); the "
                      "occupancy is computed on its limits all the same",
                      s->arch, o->device->name, o->device->cc_major, o->device->cc_minor);
        }
        return OCC_OK;
    }
    occ_error e;
    if (occ_arch_find(sm / 10, sm % 10, &s->device, &e) != OCC_OK) {
        return regs_fail(err, OCC_ERR_INVALID_ARGUMENT, "%s: not in the GPU database (%s)", s->arch,
                         e.message);
    }
    return OCC_OK;
}