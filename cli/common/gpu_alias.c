/*
 * gpu_alias.c - which variant a family name stands for (gpu_alias.h). The
 * database answers "A100" with one entry, the A100 SXM 40GB; a user who has
 * an A100 80GB or a PCIe card should hear that the name chose for them.
 */
#include <string.h>

#include "gpu_alias.h"

#define NORM_BYTES 64

/* Lower case without separators or a vendor or brand word, as occ_gpu_find
   compares names (src/gpu_find.c): "NVIDIA A100-SXM4-40GB" -> "a100sxm440gb". */
static void normalize(const char *in, char *out)
{
    static const char *const brands[] = {"nvidia", "geforce", "tesla", "quadro", "jetson"};
    size_t n = 0;
    for (; *in != '\0' && n + 1 < NORM_BYTES; in++) {
        char c = *in;
        if (c == ' ' || c == '-' || c == '_' || c == '(' || c == ')') {
            continue;
        }
        out[n++] = (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c;
    }
    out[n] = '\0';
    for (bool stripped = true; stripped;) {
        stripped = false;
        for (size_t b = 0; b < sizeof brands / sizeof brands[0]; b++) {
            size_t len = strlen(brands[b]);
            if (strncmp(out, brands[b], len) == 0 && out[len] != '\0') {
                memmove(out, out + len, strlen(out + len) + 1);
                stripped = true;
            }
        }
    }
}

bool cli_gpu_alias_others(const char *query, const occ_device *device, char *buf, size_t cap)
{
    if (cap > 0) {
        buf[0] = '\0';
    }
    char q[NORM_BYTES];
    char own[NORM_BYTES];
    normalize(query, q);
    normalize(device->name, own);
    /* The family: the device's name up to the end of the query inside it
       ("a100" in "a100sxm40gb": "a100"; "4090" in "rtx4090": "rtx4090"). An
       alias that is not part of the name ("titan-x-maxwell") names one GPU. */
    const char *at = q[0] != '\0' ? strstr(own, q) : NULL;
    if (at == NULL || strcmp(q, own) == 0) {
        return false;
    }
    char family[NORM_BYTES];
    size_t family_len = (size_t)(at - own) + strlen(q);
    memcpy(family, own, family_len);
    family[family_len] = '\0';
    size_t len = 0;
    int found = 0;
    for (int i = 0; i < occ_gpu_count(); i++) {
        occ_device d;
        bool named = false;
        char other[NORM_BYTES];
        if (occ_gpu_at(i, &d, &named, NULL, NULL) != OCC_OK || !named ||
            strcmp(d.name, device->name) == 0) {
            continue;
        }
        normalize(d.name, other);
        if (strncmp(other, family, family_len) != 0) {
            continue;
        }
        int n = snprintf(buf + len, cap - len, "%s%s", found > 0 ? ", " : "", d.name);
        if (n < 0 || (size_t)n >= cap - len) {
            break;
        }
        len += (size_t)n;
        found++;
    }
    return found > 0;
}

void cli_gpu_alias_note(FILE *err, const char *command, const char *query, const occ_device *device)
{
    char others[512];
    if (query == NULL || !cli_gpu_alias_others(query, device, others, sizeof others)) {
        return;
    }
    fprintf(err,
            "occ %s: note: --gpu %.64s is the %s; the database also has %s, whose SM counts, "
            "clocks and memory may differ: give the one you have by name ('occ gpus')\n",
            command, query, device->name, others);
}
