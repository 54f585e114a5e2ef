// variants.cu - two builds of one file for occ diff's tests: compiled as is (the old build)
// and with -DNEW_BUILD (the new one). Each kernel exercises one kind of change; the expected
// numbers are what ptxas prints for each build (tests/data/diff/*.log), not written here.
#ifdef NEW_BUILD
#define ACC 40   // regs_grow: more accumulators in registers
#define SPILL 96 // spiller: a larger array under a register cap
#define TILE 4096
#define LOCAL 64
#else
#define ACC 8
#define SPILL 16
#define TILE 1024
#define LOCAL 32
#endif

// Unchanged in both builds.
__global__ void steady(float *a) { a[threadIdx.x] *= 2.0f; }

// Registers grow with ACC: every accumulator lives in a register.
__global__ void regs_grow(float *out, const float *in, int n)
{
    float acc[ACC];
#pragma unroll
    for (int i = 0; i < ACC; i++) acc[i] = in[i * n + threadIdx.x];
    float s = 0;
#pragma unroll
    for (int r = 0; r < 4; r++)
#pragma unroll
        for (int i = 0; i < ACC; i++) s += acc[i] * acc[(i + r + 1) % ACC];
    out[threadIdx.x] = s;
}

// A register cap of 32 (__launch_bounds__(1024, 2)): the larger array spills.
__global__ void __launch_bounds__(1024, 2) spiller(double *out, const double *in, int n)
{
    double v[SPILL];
#pragma unroll
    for (int i = 0; i < SPILL; i++) v[i] = in[i * n + threadIdx.x];
    double s = 0;
#pragma unroll
    for (int i = 0; i < SPILL; i++) s += v[i] * v[SPILL - 1 - i];
    out[threadIdx.x] = s;
}

// Static shared memory grows from 4 KB to 16 KB.
__global__ void tile_smem(float *a)
{
    __shared__ float tile[TILE];
    for (int i = threadIdx.x; i < TILE; i += blockDim.x) tile[i] = a[i];
    __syncthreads();
    a[threadIdx.x] = tile[(threadIdx.x * 7) % TILE];
}

// A local array indexed at run time: stack grows with LOCAL.
__global__ void stack_user(int *p, int k)
{
    int buf[LOCAL];
    for (int i = 0; i < LOCAL; i++) buf[(i * k) % LOCAL] = p[i];
    p[threadIdx.x] = buf[(threadIdx.x + k) % LOCAL];
}

// Renamed by a new parameter it does not use: moved, not removed and added.
#ifdef NEW_BUILD
__global__ void mover(float *a, int unused) { a[threadIdx.x] += 1.0f; }
#else
__global__ void mover(float *a) { a[threadIdx.x] += 1.0f; }
#endif

#ifdef NEW_BUILD
__global__ void fresh(float *a) { a[threadIdx.x] = 1.0f; } // added
#else
__global__ void gone(float *a) { a[threadIdx.x] = 0.0f; } // removed
#endif
