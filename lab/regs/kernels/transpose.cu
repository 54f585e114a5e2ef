/*
 * transpose.cu - out = in^T for a 4096 x 4096 matrix (n floats), through a
 * 32 x 32 shared-memory tile padded by one column against bank conflicts:
 * a block of 32 x 8 threads moves 4 rows each way, both sides coalesced.
 * Memory bound; few registers.
 */
#define TR_DIM 4096
#define TR_TILE 32
#define TR_ROWS 8 /* thread rows; each thread moves TR_TILE / TR_ROWS elements */

extern "C" __global__ void kernel(const float *__restrict__ in, float *__restrict__ out, int n)
{
    __shared__ float tile[TR_TILE][TR_TILE + 1];
    if ((size_t)n < (size_t)TR_DIM * TR_DIM) {
        return;
    }
    const int tiles = TR_DIM / TR_TILE;
    const int bx = blockIdx.x % tiles;
    const int by = blockIdx.x / tiles;
    const int tx = threadIdx.x % TR_TILE;
    const int ty = threadIdx.x / TR_TILE;
#pragma unroll
    for (int r = 0; r < TR_TILE; r += TR_ROWS) {
        tile[ty + r][tx] = in[(size_t)(by * TR_TILE + ty + r) * TR_DIM + bx * TR_TILE + tx];
    }
    __syncthreads();
#pragma unroll
    for (int r = 0; r < TR_TILE; r += TR_ROWS) {
        out[(size_t)(bx * TR_TILE + ty + r) * TR_DIM + by * TR_TILE + tx] = tile[tx][ty + r];
    }
}
