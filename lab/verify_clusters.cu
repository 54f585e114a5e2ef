/*
 * verify_clusters.cu - libocc's cluster answers against the driver on the
 * present GPU (compute capability 9.0 or later), part of `occ lab verify`:
 * for verify.cu's kernels (register counts from 16 to 255, static shared
 * memory, launch bounds), block sizes 32..1024, dynamic shared memory 0..the
 * opt-in maximum, cluster sizes 1..16 in 1-D, 2-D and 3-D shapes, with and
 * without cudaFuncAttributeNonPortableClusterSizeAllowed:
 * cudaOccupancyMaxActiveClusters must equal occ_max_active_clusters, and
 * cudaOccupancyMaxPotentialClusterSize occ_max_potential_cluster_size.
 * Both sides' refusals count as 0. It needs the GPU's GPC layout in the
 * database (`occ lab gpcs` measures one); without it the answers are upper
 * bounds and nothing is compared.
 */
#include <string.h>

#include "occ_lab.h"

#define VERIFY_CLUSTER_MAX 16 /* OCC_CLUSTER_NON_PORTABLE_MAX */
#define SHAPES_MAX 64
#define MISMATCH_RECORDS_MAX 40

typedef struct cluster_shape {
    int x, y, z;
} cluster_shape;

/* Every size 1..16: along x, y and z, and each split into factors with
   x >= y >= z > 1 (2-D and 3-D). */
static int shapes_for(int n, cluster_shape *out)
{
    int count = 0;
    out[count++] = (cluster_shape){n, 1, 1};
    if (n > 1) {
        out[count++] = (cluster_shape){1, n, 1};
        out[count++] = (cluster_shape){1, 1, n};
    }
    for (int y = 2; y < n; y++) {
        for (int z = 1; z <= y; z++) {
            if (n % (y * z) == 0 && n / (y * z) >= y && count < SHAPES_MAX) {
                out[count++] = (cluster_shape){n / (y * z), y, z};
            }
        }
    }
    return count;
}

typedef struct cluster_tally {
    long long comparisons, mismatches, refused;
} cluster_tally;

static void mismatch(cluster_tally *t, const char *what, const char *kernel, int non_portable,
                     int threads, int dyn, cluster_shape s, int driver, int occ)
{
    if (++t->mismatches > MISMATCH_RECORDS_MAX) {
        return;
    }
    lab_record r;
    lab_record_begin(&r, "verify_cluster_mismatch");
    lab_record_str(&r, "what", what);
    lab_record_str(&r, "kernel", kernel);
    lab_record_bool(&r, "non_portable", non_portable);
    lab_record_int(&r, "threads", threads);
    lab_record_int(&r, "dyn_smem_bytes", dyn);
    lab_record_int(&r, "cluster_x", s.x);
    lab_record_int(&r, "cluster_y", s.y);
    lab_record_int(&r, "cluster_z", s.z);
    lab_record_int(&r, "driver", driver);
    lab_record_int(&r, "occ", occ);
    lab_record_end(&r);
}

static cudaLaunchConfig_t config_of(int threads, int dyn, cluster_shape s, int clusters,
                                    cudaLaunchAttribute *attr)
{
    cudaLaunchConfig_t c = {};
    c.gridDim = dim3((unsigned)(s.x * clusters), (unsigned)s.y, (unsigned)s.z);
    c.blockDim = dim3((unsigned)threads);
    c.dynamicSmemBytes = (size_t)dyn;
    if (attr != NULL) {
        attr->id = cudaLaunchAttributeClusterDimension;
        attr->val.clusterDim.x = (unsigned)s.x;
        attr->val.clusterDim.y = (unsigned)s.y;
        attr->val.clusterDim.z = (unsigned)s.z;
        c.attrs = attr;
        c.numAttrs = 1;
    }
    return c;
}

/* One (kernel, flag, block, dyn) point: every shape of every size, then the
   potential cluster size. */
static void verify_point(const lab_gpu *gpu, const void *fn, const char *name,
                         const cudaFuncAttributes *attr, int np, int threads, int dyn,
                         cluster_tally *t)
{
    occ_kernel k;
    lab_kernel_from_attributes(attr, threads, dyn, &k);
    k.cluster_non_portable = np != 0;
    occ_error err;
    cluster_shape shapes[SHAPES_MAX];
    for (int n = 1; n <= VERIFY_CLUSTER_MAX; n++) {
        int count = shapes_for(n, shapes);
        for (int i = 0; i < count; i++) {
            cudaLaunchAttribute a;
            cudaLaunchConfig_t c = config_of(threads, dyn, shapes[i], 64, &a);
            int driver = 0;
            if (cudaOccupancyMaxActiveClusters(&driver, fn, &c) != cudaSuccess) {
                (void)cudaGetLastError();
                driver = 0;
                t->refused++;
            }
            k.cluster_x = shapes[i].x;
            k.cluster_y = shapes[i].y;
            k.cluster_z = shapes[i].z;
            int occ = 0;
            if (occ_max_active_clusters(&gpu->device, &k, &occ, &err) != OCC_OK) {
                occ = 0;
            }
            t->comparisons++;
            if (occ != driver) {
                mismatch(t, "max_active_clusters", name, np, threads, dyn, shapes[i], driver, occ);
            }
        }
    }
    cluster_shape none = {1, 1, 1};
    cudaLaunchConfig_t c = config_of(threads, dyn, none, 720720, NULL);
    int driver = 0;
    if (cudaOccupancyMaxPotentialClusterSize(&driver, fn, &c) != cudaSuccess) {
        (void)cudaGetLastError();
        driver = 0;
        t->refused++;
    }
    k.cluster_x = 0; /* the driver ignores the shape; so does occ */
    k.cluster_y = 1;
    k.cluster_z = 1;
    int occ = 0;
    if (occ_max_potential_cluster_size(&gpu->device, &k, &occ, &err) != OCC_OK) {
        occ = 0;
    }
    t->comparisons++;
    if (occ != driver) {
        mismatch(t, "max_potential_cluster_size", name, np, threads, dyn, none, driver, occ);
    }
}

void lab_verify_clusters(const lab_gpu *gpu, const lab_options *opt)
{
    cluster_tally t = {0, 0, 0};
    const int have_layout = gpu->device.gpc_count > 0;
    const int kernel_count = lab_verify_kernel_count();
    for (int i = 0; have_layout && i < kernel_count; i += opt->quick ? 5 : 1) {
        const char *name = NULL;
        const void *fn = lab_verify_kernel(i, &name);
        lab_progress("verify clusters %s (%d of %d)", name, i + 1, kernel_count);
        cudaFuncAttributes attr;
        LAB_CHECK(cudaFuncGetAttributes(&attr, fn));
        const int max_dyn = (int)gpu->prop.sharedMemPerBlockOptin - (int)attr.sharedSizeBytes;
        const int dyns[] = {0, 1000, 20000, 50000, 100000, max_dyn / 2, max_dyn, max_dyn + 1};
        const int dyn_count = (int)(sizeof dyns / sizeof dyns[0]);
        for (int np = 0; np <= 1; np++) {
            LAB_CHECK(cudaFuncSetAttribute(fn, cudaFuncAttributeNonPortableClusterSizeAllowed, np));
            for (int threads = 32; threads <= 1024; threads += opt->quick ? 224 : 32) {
                for (int d = 0; d < dyn_count; d += opt->quick ? 3 : 1) {
                    verify_point(gpu, fn, name, &attr, np, threads, dyns[d], &t);
                }
            }
        }
        LAB_CHECK(cudaFuncSetAttribute(fn, cudaFuncAttributeNonPortableClusterSizeAllowed, 0));
    }
    lab_record r;
    lab_record_begin(&r, "verify_clusters");
    lab_record_bool(&r, "layout_known", have_layout);
    lab_record_int(&r, "gpc_count", gpu->device.gpc_count);
    lab_record_int(&r, "comparisons", t.comparisons);
    lab_record_int(&r, "mismatches", t.mismatches);
    lab_record_int(&r, "refused", t.refused);
    lab_record_end(&r);
    if (t.mismatches != 0) {
        LAB_FAIL("verify: %lld of %lld cluster comparisons differ between libocc and the driver",
                 t.mismatches, t.comparisons);
    }
}
