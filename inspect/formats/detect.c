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
    case INSP_FORMAT_ARCHIVE: return "archive";
    case INSP_FORMAT_BASELINE: return "baseline";
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

/* An `ar` archive starts with "!<arch>\n", a thin one with "!<thin>\n"
   (ar(5)); archive.c refuses the thin kind by name. */
static bool looks_like_archive(const uint8_t *data, size_t size)
{
    return size >= 8 && (memcmp(data, "!<arch>\n", 8) == 0 || memcmp(data, "!<thin>\n", 8) == 0);
}

/* Whether `needle` occurs in data[from, to). */
static bool contains(const uint8_t *data, size_t from, size_t to, const char *needle, size_t len)
{
    for (size_t i = from; i + len <= to; i++) {
        if (memcmp(data + i, needle, len) == 0) {
            return true;
        }
    }
    return false;
}

/* A baseline is a JSON object that names its schema near one end: the
   writer puts "schema" first; a copy reformatted with its keys sorted
   (jq -S) has it after "functions", near the end. */
static bool looks_like_baseline(const uint8_t *data, size_t size)
{
    size_t at = 0;
    while (at < size &&
           (data[at] == ' ' || data[at] == '\t' || data[at] == '\n' || data[at] == '\r')) {
        at++;
    }
    if (at == size || data[at] != '{') {
        return false;
    }
    static const char needle[] = "\"occ.baseline\"";
    size_t len = sizeof needle - 1;
    size_t window = 4096;
    size_t head_end = size < window ? size : window;
    size_t tail_start = size > window ? size - window : 0;
    return contains(data, at, head_end, needle, len) ||
           contains(data, tail_start > at ? tail_start : at, size, needle, len);
}

bool insp_host_elf_is_object(const uint8_t *data, size_t size)
{
    /* e_type at offset 16 (gABI) */
    return elf64_is_elf(data, size) && size >= 18 && insp_u16(data + 16) == ELF_ET_REL;
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
    if (looks_like_archive(data, size)) {
        return INSP_FORMAT_ARCHIVE;
    }
    /* before the log test: a baseline of a log names "ptxas" in its inputs */
    if (looks_like_baseline(data, size)) {
        return INSP_FORMAT_BASELINE;
    }
    if (looks_like_ptxas_log(data, size)) {
        return INSP_FORMAT_PTXAS_LOG;
    }
    return INSP_FORMAT_UNKNOWN;
}
