/*
 * nbody.cu - the all-pairs gravitational n-body step of GPU Gems 3, ch. 31:
 * 32,768 bodies (x, y, z, mass) read from in[0 .. 4 x 32768), masses moved
 * to [0.5, 2.5]; the j bodies are split in 8 chunks of 4,096 so the grid
 * is 1,024 blocks of 256: block b computes bodies 256 (b % 128) ... against
 * chunk b / 128, through shared-memory tiles of 256 bodies, and writes the
 * partial accelerations (3 floats a body) to out[3 (chunk x 32768 + i)].
 * Compute bound (FMAs and one rsqrt a pair); the inner loop is unrolled 8.
 */
#define NB_BODIES 32768
#define NB_CHUNKS 8
#define NB_THREADS 256
#define NB_SOFTENING 0.01f

extern "C" __global__ void kernel(const float *__restrict__ in, float *__restrict__ out, int n)
{
    __shared__ float4 tile[NB_THREADS];
    if ((size_t)n < (size_t)4 * NB_BODIES) {
        return;
    }
    const float4 *body = (const float4 *)in;
    const int blocks_per_chunk = NB_BODIES / NB_THREADS;
    const int i = (blockIdx.x % blocks_per_chunk) * NB_THREADS + threadIdx.x;
    const int chunk = blockIdx.x / blocks_per_chunk;
    const int j0 = chunk * (NB_BODIES / NB_CHUNKS);
    const float4 me = body[i];
    float ax = 0.0f;
    float ay = 0.0f;
    float az = 0.0f;
    for (int jt = j0; jt < j0 + NB_BODIES / NB_CHUNKS; jt += NB_THREADS) {
        __syncthreads();
        float4 other = body[jt + threadIdx.x];
        other.w += 1.5f;
        tile[threadIdx.x] = other;
        __syncthreads();
#pragma unroll 8
        for (int k = 0; k < NB_THREADS; k++) {
            const float4 o = tile[k];
            const float dx = o.x - me.x;
            const float dy = o.y - me.y;
            const float dz = o.z - me.z;
            const float d2 = __fmaf_rn(dx, dx, __fmaf_rn(dy, dy, __fmaf_rn(dz, dz, NB_SOFTENING)));
            const float inv = rsqrtf(d2);
            const float s = o.w * inv * inv * inv;
            ax = __fmaf_rn(dx, s, ax);
            ay = __fmaf_rn(dy, s, ay);
            az = __fmaf_rn(dz, s, az);
        }
    }
    float *dst = out + 3 * ((size_t)chunk * NB_BODIES + i);
    dst[0] = ax;
    dst[1] = ay;
    dst[2] = az;
}
