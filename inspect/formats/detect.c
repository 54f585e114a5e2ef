/*
 * detect.c - what a buffer holds, by its content (never by file name).
 */
#include <string.h>

#include "elf64.h"

/* Fatbin container magic, /usr/local/cuda/include/fatbinary_section.h
   (FATBIN_MAGIC 0xBA55ED50), stored little-endian. */
#define FATBIN_MAGIC 0xBA55ED50u

const char *insp_format_name(insp_format format)
{
    switch (format) {
    case INSP_FORMAT_PTXAS_LOG: return "ptxas log";
    case INSP_FORMAT_CUBIN: return "cubin";
    case INSP_FORMAT_FATBIN: return "fatbin";
    case INSP_FORMAT_HOST_ELF: return "host ELF";
    default: return "unknown";
    }
}

/* A log is text that mentions ptxas; look at the first 64 KiB only. */
static bool looks_like_ptxas_log(const uint8_t *data, size_t size)
{
    size_t n = size < 65536 ? size : 65536;
    for (size_t i = 0; i < n; i++) {
        if (data[i] == 0) {
            return false;
        }
    }
    static const char needle[] = "ptxas";
    for (size_t i = 0; i + sizeof needle - 1 <= n; i++) {
        if (memcmp(data + i, needle, sizeof needle - 1) == 0) {
            return true;
        }
    }
    return false;
}

insp_format insp_detect(const uint8_t *data, size_t size)
{
    if (elf64_is_elf(data, size)) {
        /* e_machine at offset 18 (gABI); EM_CUDA marks a cubin */
        if (size >= 20 && insp_u16(data + 18) == ELF_EM_CUDA) {
            return INSP_FORMAT_CUBIN;
        }
        return INSP_FORMAT_HOST_ELF;
    }
    if (size >= 4 && insp_u32(data) == FATBIN_MAGIC) {
        return INSP_FORMAT_FATBIN;
    }
    if (looks_like_ptxas_log(data, size)) {
        return INSP_FORMAT_PTXAS_LOG;
    }
    return INSP_FORMAT_UNKNOWN;
}
