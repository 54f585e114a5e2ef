/*
 * gemm_8x8.cu - a shared-memory SGEMM tile, register-blocked the classic
 * way: a block of 16 x 16 threads computes a 128 x 128 tile of C, each
 * thread an 8 x 8 block held in 64 accumulators, over k tiles of 8 staged
 * through shared memory. C (4096 x 4096, all of out) = A (4096 x 256, from
 * in[0]) B (256 x 4096, from in[4096*256]), row-major. Register hungry
 * (96 registers unconstrained, ptxas 13.0): caps of 80 and below spill,
 * and so, a little, does cap 96, where 88 does not: ptxas's spills are
 * not monotonic in the cap.
 */
#define GM_M 4096
#define GM_N 4096
#define GM_K 256
#define GM_TILE 128
#define GM_BK 8
#define GM_ITEMS 8 /* a thread's C block: 8 x 8 */
#define GM_THREADS 256

extern "C" __global__ void kernel(const float *__restrict__ in, float *__restrict__ out, int n)
{
    __shared__ float a_tile[GM_BK][GM_TILE]; /* k-major */
    __shared__ float b_tile[GM_BK][GM_TILE];
    if ((size_t)n < (size_t)GM_M * GM_K + (size_t)GM_K * GM_N || (size_t)n < (size_t)GM_M * GM_N) {
        return;
    }
    const float *a = in;
    const float *b = in + (size_t)GM_M * GM_K;
    const int t = threadIdx.x;
    const int tx = t % 16;
    const int ty = t / 16;
    const int tiles_n = GM_N / GM_TILE;
    const int m0 = (blockIdx.x / tiles_n) * GM_TILE;
    const int n0 = (blockIdx.x % tiles_n) * GM_TILE;
    /* Loads: A's 128 x 8 tile as one float4 a thread (row t/2, k 4(t%2)),
       B's 8 x 128 tile as one float4 a thread (k t/32, column 4(t%32)). */
    const int a_row = t / 2;
    const int a_k = (t % 2) * 4;
    const int b_k = t / 32;
    const int b_col = (t % 32) * 4;

    float acc[GM_ITEMS][GM_ITEMS];
#pragma unroll
    for (int i = 0; i < GM_ITEMS; i++) {
#pragma unroll
        for (int j = 0; j < GM_ITEMS; j++) {
            acc[i][j] = 0.0f;
        }
    }
    for (int k0 = 0; k0 < GM_K; k0 += GM_BK) {
        const float4 av4 = *(const float4 *)&a[(size_t)(m0 + a_row) * GM_K + k0 + a_k];
        const float4 bv4 = *(const float4 *)&b[(size_t)(k0 + b_k) * GM_N + n0 + b_col];
        __syncthreads();
        a_tile[a_k + 0][a_row] = av4.x;
        a_tile[a_k + 1][a_row] = av4.y;
        a_tile[a_k + 2][a_row] = av4.z;
        a_tile[a_k + 3][a_row] = av4.w;
        *(float4 *)&b_tile[b_k][b_col] = bv4;
        __syncthreads();
#pragma unroll
        for (int k = 0; k < GM_BK; k++) {
            float av[GM_ITEMS];
            float bv[GM_ITEMS];
#pragma unroll
            for (int i = 0; i < GM_ITEMS; i++) {
                av[i] = a_tile[k][ty + 16 * i];
                bv[i] = b_tile[k][tx + 16 * i];
            }
#pragma unroll
            for (int i = 0; i < GM_ITEMS; i++) {
#pragma unroll
                for (int j = 0; j < GM_ITEMS; j++) {
                    acc[i][j] = __fmaf_rn(av[i], bv[j], acc[i][j]);
                }
            }
        }
    }
#pragma unroll
    for (int i = 0; i < GM_ITEMS; i++) {
#pragma unroll
        for (int j = 0; j < GM_ITEMS; j++) {
            out[(size_t)(m0 + ty + 16 * i) * GM_N + n0 + tx + 16 * j] = acc[i][j];
        }
    }
}
