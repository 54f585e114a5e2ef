// Over-subscribed: 512 threads, two blocks per SM (ptxas gives each thread
// 64 registers at entry, a pool of 32,768 per block), and the warp groups
// ask for 40 + 3 x 240 = 760 registers per thread-row: 97,280 per block,
// 194,560 for two, against 65,536. setmaxnreg.inc waits for registers no
// group gives back (the deadlock of tile-ai/tilelang#2406).
extern "C" __global__ void __launch_bounds__(512, 2) oversubscribed(float *out, const float *in, int n)
{
    int warp_group = threadIdx.x / 128;
    if (warp_group == 0) {
        asm volatile("setmaxnreg.dec.sync.aligned.u32 40;\n");
        out[threadIdx.x] = in[threadIdx.x];
    } else {
        asm volatile("setmaxnreg.inc.sync.aligned.u32 240;\n");
        float acc = 0;
        for (int i = 0; i < n; i++) {
            acc += in[i * 512 + threadIdx.x] * acc + 1.0f;
        }
        out[threadIdx.x] = acc;
    }
}
