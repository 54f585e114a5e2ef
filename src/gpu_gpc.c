/*
 * gpu_gpc.c - the GPC layouts of named GPUs, as the cluster scheduler sees
 * them: for each product, the SMs of each group whose SMs can hold the blocks
 * of one cluster. Keyed by the named GPU's display name (gpu_named.c) and
 * filled in when a named device is looked up; a named GPU of compute
 * capability 9.0 or later that is not listed here has no known layout, and
 * occ's cluster counts for it are upper bounds (cluster.c).
 *
 * No formula or table of these layouts is published: GPCs of a cut-down chip
 * differ in SM count, and which TPCs are disabled can differ from one chip to
 * the next. A layout here is measured by tests/gpu/cluster_probe.cu (clusters
 * of 1 to 16 blocks, one block per SM, recording %smid per cluster; the GPCs
 * are the connected components of SMs that shared a cluster) and checked
 * against the driver's cudaOccupancyMaxActiveClusters on the same GPU.
 */
#include "occ_internal.h"

typedef struct gpc_layout {
    const char *name; /* the named GPU's display name */
    int gpc_count;
    int gpc_sms[OCC_MAX_GPCS]; /* largest first */
    occ_gpc_source source;
    const char *citation;
} gpc_layout;

static const gpc_layout layouts[] = {
    /* [H200 probe] NVIDIA H200 (GPU-6ca2c2c9), driver 580.159.04, CUDA 13.0,
       2026-12-02, tests/data/h200-clusters: 132 SMs in 7 GPCs of 16 or 18
       SMs, one of 8, and 4 TPCs (SMs 124-131) that only ever took 2-block
       clusters, each a group of its own. The driver's 142,310 answers for
       this GPU follow from exactly this layout. */
    {"H200",
     12,
     {18, 18, 16, 16, 16, 16, 16, 8, 2, 2, 2, 2},
     OCC_GPC_MEASURED,
     "occ's cluster probe on an H200, driver 580, CUDA 13.0, 2026-12-02: 18,18,16x5,8,2x4"},
};

void occ__gpc_layout_fill(occ_device *d)
{
    d->gpc_count = 0;
    d->gpc_source = OCC_GPC_UNKNOWN;
    d->gpc_citation = NULL;
    for (size_t i = 0; i < sizeof layouts / sizeof layouts[0]; i++) {
        const char *a = layouts[i].name;
        const char *b = d->name;
        while (*a != '\0' && *a == *b) {
            a++;
            b++;
        }
        if (*a != '\0' || *b != '\0') {
            continue;
        }
        d->gpc_count = layouts[i].gpc_count;
        for (int g = 0; g < layouts[i].gpc_count; g++) {
            d->gpc_sms[g] = layouts[i].gpc_sms[g];
        }
        d->gpc_source = layouts[i].source;
        d->gpc_citation = layouts[i].citation;
        return;
    }
}

int occ__gpc_layout_count(void)
{
    return (int)(sizeof layouts / sizeof layouts[0]);
}

const char *occ__gpc_layout_name(int index)
{
    return index >= 0 && index < occ__gpc_layout_count() ? layouts[index].name : NULL;
}
