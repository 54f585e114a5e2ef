/*
 * lab_regs_cubin.c - the code hash of a cubin (lab_regs_cubin.h). Every
 * offset and length read from the file is checked against its size before
 * use: the hash reads any bytes without reading past them (fuzz_lab_regs).
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "file_read.h"
#include "lab_regs_cubin.h"

#define FNV_OFFSET 0xcbf29ce484222325ull
#define FNV_PRIME 0x100000001b3ull
#define SHT_NOBITS 8

static uint64_t fnv1a(uint64_t h, const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        h = (h ^ p[i]) * FNV_PRIME;
    }
    return h;
}

static uint64_t le(const unsigned char *p, int bytes)
{
    uint64_t v = 0;
    for (int i = bytes - 1; i >= 0; i--) {
        v = v << 8 | p[i];
    }
    return v;
}

uint64_t lab_regs_code_hash(const unsigned char *d, size_t size)
{
    const uint64_t n = size;
    /* the ELF header is 64 bytes; the runner reads files larger than that */
    if (d == NULL || n <= 64 || memcmp(d, "\177ELF", 4) != 0 || d[4] != 2 || d[5] != 1) {
        return 0;
    }
    const uint64_t shoff = le(d + 0x28, 8);
    const uint64_t entsize = le(d + 0x3a, 2);
    const uint64_t shnum = le(d + 0x3c, 2);
    const uint64_t strndx = le(d + 0x3e, 2);
    if (entsize < 64 || shnum == 0 || strndx >= shnum || shoff >= n ||
        shnum * entsize > n - shoff) {
        return 0;
    }
    const unsigned char *strtab = d + shoff + strndx * entsize;
    const uint64_t str_off = le(strtab + 0x18, 8);
    const uint64_t str_size = le(strtab + 0x20, 8);
    if (str_off >= n || str_size > n - str_off) {
        return 0;
    }
    uint64_t h = FNV_OFFSET;
    for (uint64_t i = 0; i < shnum; i++) {
        const unsigned char *sh = d + shoff + i * entsize;
        const uint64_t name = le(sh, 4);
        const uint64_t type = le(sh + 4, 4);
        const uint64_t off = le(sh + 0x18, 8);
        const uint64_t len = le(sh + 0x20, 8);
        const unsigned char *label = d + str_off + name;
        /* ".text" and at least its NUL inside the names; ".nv.info" with
           its NUL: the module's, not a function's (which holds the cap) */
        const bool text = name + 6 <= str_size && memcmp(label, ".text", 5) == 0;
        const bool info = name + 9 <= str_size && memcmp(label, ".nv.info", 9) == 0;
        if (!text && !info) {
            continue;
        }
        h = fnv1a(h, label, strnlen((const char *)label, (size_t)(str_size - name)));
        h = fnv1a(h, sh + 0x2c, 4); /* sh_info: the register count in older cubins */
        if (type != SHT_NOBITS && off < n && len <= n - off) {
            h = fnv1a(h, d + off, (size_t)len);
        }
    }
    return h;
}

/* The cubin a record names, or the one run_regs_lab.sh writes for its cap. */
static void cubin_name(const lab_regs_kernel_data *k, int i, char *out, size_t cap)
{
    const lab_regs_record *r = &k->records[i];
    if (k->meta[i].cubin[0] != '\0') {
        snprintf(out, cap, "%s", k->meta[i].cubin);
    } else if (r->cap == LAB_REGS_NO_CAP) {
        snprintf(out, cap, "%s.none.cubin", k->name);
    } else {
        snprintf(out, cap, "%s.cap%03d.cubin", k->name, r->cap);
    }
}

bool lab_regs_hash_cubins(lab_regs_data *data, const char *dir, cli_error *err)
{
    for (int k = 0; k < data->kernel_count; k++) {
        lab_regs_kernel_data *kd = &data->kernels[k];
        /* rounds time one cubin again: hash each file once */
        char last[LAB_REGS_CUBIN_BYTES + LAB_REGS_NAME_BYTES] = "";
        uint64_t last_hash = 0;
        for (int i = 0; i < kd->count; i++) {
            if (kd->records[i].code_hash != 0) {
                continue;
            }
            char name[sizeof last];
            cubin_name(kd, i, name, sizeof name);
            if (strcmp(name, last) != 0) {
                char path[PATH_MAX];
                int len = snprintf(path, sizeof path, "%s/%s", dir, name);
                if (len < 0 || (size_t)len >= sizeof path) {
                    return cli_error_set(err, EXIT_USAGE,
                                         "option --cubins: a path longer than %d "
                                         "bytes",
                                         PATH_MAX - 1);
                }
                char *bytes = NULL;
                size_t size = 0;
                if (!cli_read_file(path, NULL, LAB_REGS_MAX_CUBIN_BYTES, &bytes, &size, err)) {
                    char label[8];
                    lab_regs_cap_label(kd->records[i].cap, label, sizeof label);
                    return cli_error_prefix(err, "option --cubins: kernel %s at cap %s: ", kd->name,
                                            label);
                }
                last_hash = lab_regs_code_hash((const unsigned char *)bytes, size);
                free(bytes);
                snprintf(last, sizeof last, "%s", name);
            }
            kd->records[i].code_hash = last_hash;
        }
    }
    return true;
}
