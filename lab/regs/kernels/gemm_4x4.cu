/*
 * gemm_4x4.cu - gemm_8x8.cu's product with a quarter of the register
 * blocking: a block of 16 x 16 threads computes a 64 x 64 tile of C, each
 * thread a 4 x 4 block, over k tiles of 16. Half the registers of the 8 x 8
 * tile and four times the shared-memory loads per FMA: shared-memory
 * bandwidth, not registers, limits it. Same shapes: C (4096 x 4096) =
 * A (4096 x 256, from in[0]) B (256 x 4096, from in[4096*256]).
 */
#define G4_M 4096
#define G4_N 4096
#define G4_K 256
#define G4_TILE 64
#define G4_BK 16
#define G4_ITEMS 4

extern "C" __global__ void kernel(const float *__restrict__ in, float *__restrict__ out, int n)
{
    __shared__ float a_tile[G4_BK][G4_TILE]; /* k-major */
    __shared__ float b_tile[G4_BK][G4_TILE];
    if ((size_t)n < (size_t)G4_M * G4_K + (size_t)G4_K * G4_N || (size_t)n < (size_t)G4_M * G4_N) {
        return;
    }
    const float *a = in;
    const float *b = in + (size_t)G4_M * G4_K;
    const int t = threadIdx.x;
    const int tx = t % 16;
    const int ty = t / 16;
    const int tiles_n = G4_N / G4_TILE;
    const int m0 = (blockIdx.x / tiles_n) * G4_TILE;
    const int n0 = (blockIdx.x % tiles_n) * G4_TILE;
    /* Loads: A's 64 x 16 tile as one float4 a thread (row t/4, k 4(t%4)),
       B's 16 x 64 tile as one float4 a thread (k t/16, column 4(t%16)). */
    const int a_row = t / 4;
    const int a_k = (t % 4) * 4;
    const int b_k = t / 16;
    const int b_col = (t % 16) * 4;

    float acc[G4_ITEMS][G4_ITEMS];
#pragma unroll
    for (int i = 0; i < G4_ITEMS; i++) {
#pragma unroll
        for (int j = 0; j < G4_ITEMS; j++) {
            acc[i][j] = 0.0f;
        }
    }
    for (int k0 = 0; k0 < G4_K; k0 += G4_BK) {
        const float4 av4 = *(const float4 *)&a[(size_t)(m0 + a_row) * G4_K + k0 + a_k];
        const float4 bv4 = *(const float4 *)&b[(size_t)(k0 + b_k) * G4_N + n0 + b_col];
        __syncthreads();
        a_tile[a_k + 0][a_row] = av4.x;
        a_tile[a_k + 1][a_row] = av4.y;
        a_tile[a_k + 2][a_row] = av4.z;
        a_tile[a_k + 3][a_row] = av4.w;
        *(float4 *)&b_tile[b_k][b_col] = bv4;
        __syncthreads();
#pragma unroll
        for (int k = 0; k < G4_BK; k++) {
            float av[G4_ITEMS];
            float bv[G4_ITEMS];
#pragma unroll
            for (int i = 0; i < G4_ITEMS; i++) {
                av[i] = a_tile[k][ty + 16 * i];
                bv[i] = b_tile[k][tx + 16 * i];
            }
#pragma unroll
            for (int i = 0; i < G4_ITEMS; i++) {
#pragma unroll
                for (int j = 0; j < G4_ITEMS; j++) {
                    acc[i][j] = __fmaf_rn(av[i], bv[j], acc[i][j]);
                }
            }
        }
    }
#pragma unroll
    for (int i = 0; i < G4_ITEMS; i++) {
#pragma unroll
        for (int j = 0; j < G4_ITEMS; j++) {
            out[(size_t)(m0 + ty + 16 * i) * G4_N + n0 + tx + 16 * j] = acc[i][j];
        }
    }
}
