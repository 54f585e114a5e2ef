/*
 * stencil.cu - a 25-point star stencil of radius 4 on a 256^3 grid (n
 * floats), the 2.5-D blocking of seismic codes: a block of 16 x 16 threads
 * marches 64 planes in z, holding the 4 planes behind and the 4 ahead of
 * each point in a register queue, and the current plane with its x/y halo
 * in shared memory. The register queue is what a cap squeezes; outside the
 * grid reads zero. out has the grid's shape.
 */
#define ST_N 256 /* points per axis */
#define ST_R 4   /* radius */
#define ST_TILE 16
#define ST_ZCHUNK 64 /* planes a block marches */

static __device__ __forceinline__ float st_load(const float *__restrict__ in, int x, int y, int z)
{
    if (x < 0 || x >= ST_N || y < 0 || y >= ST_N || z < 0 || z >= ST_N) {
        return 0.0f;
    }
    return in[((size_t)z * ST_N + y) * ST_N + x];
}

extern "C" __global__ void kernel(const float *__restrict__ in, float *__restrict__ out, int n)
{
    __shared__ float plane[ST_TILE + 2 * ST_R][ST_TILE + 2 * ST_R];
    if ((size_t)n < (size_t)ST_N * ST_N * ST_N) {
        return;
    }
    const float c0 = -2.8472222f; /* 8th-order second-derivative weights, x3 axes */
    const float c[ST_R] = {1.6f, -0.2f, 0.025396825f, -0.0017857143f};
    const int tx = threadIdx.x % ST_TILE;
    const int ty = threadIdx.x / ST_TILE;
    const int tiles = ST_N / ST_TILE;
    const int x = (blockIdx.x % tiles) * ST_TILE + tx;
    const int y = (blockIdx.x / tiles % tiles) * ST_TILE + ty;
    const int z0 = (blockIdx.x / (tiles * tiles)) * ST_ZCHUNK;

    float behind[ST_R]; /* behind[r]: plane z - 1 - r */
    float ahead[ST_R];  /* ahead[r]: plane z + 1 + r */
#pragma unroll
    for (int r = 0; r < ST_R; r++) {
        behind[r] = st_load(in, x, y, z0 - 1 - r);
        ahead[r] = st_load(in, x, y, z0 + 1 + r);
    }
    float current = st_load(in, x, y, z0);

    for (int z = z0; z < z0 + ST_ZCHUNK; z++) {
        __syncthreads();
        plane[ty + ST_R][tx + ST_R] = current;
        if (tx < ST_R) {
            plane[ty + ST_R][tx] = st_load(in, x - ST_R, y, z);
            plane[ty + ST_R][tx + ST_TILE + ST_R] = st_load(in, x + ST_TILE, y, z);
        }
        if (ty < ST_R) {
            plane[ty][tx + ST_R] = st_load(in, x, y - ST_R, z);
            plane[ty + ST_TILE + ST_R][tx + ST_R] = st_load(in, x, y + ST_TILE, z);
        }
        __syncthreads();
        float v = c0 * current;
#pragma unroll
        for (int r = 1; r <= ST_R; r++) {
            v += c[r - 1] * (behind[r - 1] + ahead[r - 1] + plane[ty + ST_R][tx + ST_R - r] +
                             plane[ty + ST_R][tx + ST_R + r] + plane[ty + ST_R - r][tx + ST_R] +
                             plane[ty + ST_R + r][tx + ST_R]);
        }
        out[((size_t)z * ST_N + y) * ST_N + x] = v;
#pragma unroll
        for (int r = ST_R - 1; r > 0; r--) {
            behind[r] = behind[r - 1];
        }
        behind[0] = current;
        current = ahead[0];
#pragma unroll
        for (int r = 0; r < ST_R - 1; r++) {
            ahead[r] = ahead[r + 1];
        }
        ahead[ST_R - 1] = st_load(in, x, y, z + 1 + ST_R);
    }
}
