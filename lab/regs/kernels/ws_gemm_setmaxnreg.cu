/*
 * ws_gemm_setmaxnreg.cu - a warp-specialized sm_90a GEMM tile in the shape
 * Hopper kernels use (CUTLASS's warp-specialized mainloop): a block of three
 * warp groups, where warp group 0 only stages tiles of A and B into shared
 * memory and gives registers back (setmaxnreg.dec to 40), and warp groups 1
 * and 2 only compute, with the registers it gave (setmaxnreg.inc to 232).
 * 128 x 40 + 256 x 232 = 64,512 registers: the 168 a thread of a 384-thread
 * block starts with, x 384. Tiles pass through two stages, each with a
 * "full" and an "empty" named barrier.
 *
 * C (M x N) = A (M x K) B (K x N), A row-major from in[0], B row-major from
 * in[M*K], in tiles of 128 x 256; each consumer thread keeps 8 x 16 of C in
 * registers, which needs more than the 168 registers a thread starts with
 * (the kernel would spill without the registers the producers give back).
 * __launch_bounds__(384, 1) is what tells ptxas the register count at
 * entry: ptxas then overrides every --maxrregcount with 168 ("computed using
 * thread count"), so every cap compiles the same kernel. Without it
 * (ws_gemm_nolb.cu) ptxas drops setmaxnreg (C7508) at no cap and keeps it at
 * every cap.
 */
#ifndef WS_LAUNCH_BOUNDS
#define WS_LAUNCH_BOUNDS __launch_bounds__(WS_THREADS, 1)
#endif

#define WS_M 4096
#define WS_N 4096
#define WS_K 256
#define WS_TILE_M 128 /* C tile per block */
#define WS_TILE_N 256
#define WS_BK 16       /* k per stage; two stages fill the 48 KiB of static shared memory */
#define WS_THREADS 384 /* 3 warp groups of 128 */
#define WS_PRODUCERS 128
#define WS_ITEMS_M 8 /* per consumer thread: 8 rows x 16 columns of C */
#define WS_ITEMS_N 16

/* Named barrier ids (0 is __syncthreads'), immediates so that ptxas counts
   only the barriers used. */
#define WS_BAR_FULL(s) (1 + (s))
#define WS_BAR_EMPTY(s) (3 + (s))

template <int ID> static __device__ __forceinline__ void ws_bar_sync()
{
    asm volatile("bar.sync %0, %1;" ::"n"(ID), "n"(WS_THREADS) : "memory");
}

template <int ID> static __device__ __forceinline__ void ws_bar_arrive()
{
    asm volatile("bar.arrive %0, %1;" ::"n"(ID), "n"(WS_THREADS) : "memory");
}

typedef float ws_a_stage[WS_BK][WS_TILE_M]; /* k-major */
typedef float ws_b_stage[WS_BK][WS_TILE_N];

/* Producer: wait until the consumers freed stage S (from the third tile
   on), fill it with k tile kt, and say it is full. */
template <int S>
static __device__ __forceinline__ void
ws_produce(ws_a_stage *a_tile, ws_b_stage *b_tile, const float *__restrict__ a,
           const float *__restrict__ b, int m0, int n0, int kt, int p)
{
    if (kt >= 2) {
        ws_bar_sync<WS_BAR_EMPTY(S)>();
    }
    const int k0 = kt * WS_BK;
#pragma unroll 4
    for (int k = 0; k < WS_BK; k++) {
        a_tile[S][k][p] = a[(size_t)(m0 + p) * WS_K + k0 + k];
    }
#pragma unroll 4
    for (int k = 0; k < WS_BK; k++) {
        b_tile[S][k][p] = b[(size_t)(k0 + k) * WS_N + n0 + p];
        b_tile[S][k][p + WS_PRODUCERS] = b[(size_t)(k0 + k) * WS_N + n0 + p + WS_PRODUCERS];
    }
    ws_bar_arrive<WS_BAR_FULL(S)>();
}

/* Consumer: wait until stage S is full, accumulate it, and free it when
   the producer will refill it. */
template <int S>
static __device__ __forceinline__ void
ws_consume(const ws_a_stage *a_tile, const ws_b_stage *b_tile, float (&acc)[WS_ITEMS_M][WS_ITEMS_N],
           int kt, int k_tiles, int tx, int ty)
{
    ws_bar_sync<WS_BAR_FULL(S)>();
#pragma unroll
    for (int k = 0; k < WS_BK; k++) {
        float av[WS_ITEMS_M];
        float bv[WS_ITEMS_N];
#pragma unroll
        for (int i = 0; i < WS_ITEMS_M; i++) {
            av[i] = a_tile[S][k][ty + 16 * i];
        }
#pragma unroll
        for (int j = 0; j < WS_ITEMS_N; j++) {
            bv[j] = b_tile[S][k][tx + 16 * j];
        }
#pragma unroll
        for (int i = 0; i < WS_ITEMS_M; i++) {
#pragma unroll
            for (int j = 0; j < WS_ITEMS_N; j++) {
                acc[i][j] = __fmaf_rn(av[i], bv[j], acc[i][j]);
            }
        }
    }
    if (kt + 2 < k_tiles) {
        ws_bar_arrive<WS_BAR_EMPTY(S)>();
    }
}

extern "C" __global__ void WS_LAUNCH_BOUNDS kernel(const float *__restrict__ in,
                                                   float *__restrict__ out, int n)
{
    __shared__ ws_a_stage a_tile[2];
    __shared__ ws_b_stage b_tile[2];

    if (n < WS_M * WS_K + WS_K * WS_N || n < WS_M * WS_N) {
        return;
    }
    const float *a = in;
    const float *b = in + WS_M * WS_K;
    const int tiles_n = WS_N / WS_TILE_N;
    const int m0 = (blockIdx.x / tiles_n) * WS_TILE_M;
    const int n0 = (blockIdx.x % tiles_n) * WS_TILE_N;
    const int k_tiles = WS_K / WS_BK; /* even: stages alternate 0, 1 */

    if (threadIdx.x < WS_PRODUCERS) {
        asm volatile("setmaxnreg.dec.sync.aligned.u32 40;\n" ::: "memory");
        const int p = threadIdx.x;
        for (int kt = 0; kt < k_tiles; kt += 2) {
            ws_produce<0>(a_tile, b_tile, a, b, m0, n0, kt, p);
            ws_produce<1>(a_tile, b_tile, a, b, m0, n0, kt + 1, p);
        }
    } else {
        asm volatile("setmaxnreg.inc.sync.aligned.u32 232;\n" ::: "memory");
        const int c = threadIdx.x - WS_PRODUCERS;
        const int tx = c % 16;
        const int ty = c / 16;
        float acc[WS_ITEMS_M][WS_ITEMS_N];
#pragma unroll
        for (int i = 0; i < WS_ITEMS_M; i++) {
#pragma unroll
            for (int j = 0; j < WS_ITEMS_N; j++) {
                acc[i][j] = 0.0f;
            }
        }
        for (int kt = 0; kt < k_tiles; kt += 2) {
            ws_consume<0>(a_tile, b_tile, acc, kt, k_tiles, tx, ty);
            ws_consume<1>(a_tile, b_tile, acc, kt + 1, k_tiles, tx, ty);
        }
#pragma unroll
        for (int i = 0; i < WS_ITEMS_M; i++) {
#pragma unroll
            for (int j = 0; j < WS_ITEMS_N; j++) {
                out[(size_t)(m0 + ty + 16 * i) * WS_N + n0 + tx + 16 * j] = acc[i][j];
            }
        }
    }
}
