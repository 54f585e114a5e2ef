// A producer/consumer kernel that fits: warp group 0 (the producer) gives
// registers back with setmaxnreg.dec 40, warp groups 1 and 2 (the consumers)
// take them with setmaxnreg.inc 232. __launch_bounds__(384, 1) lets ptxas
// fix the count at entry: 65536 / 384 = 170, 168 in steps of 8. Budget:
// (40 + 2 x 232) x 128 = 64,512 registers, the block's 168 x 384.
extern "C" __global__ void __launch_bounds__(384, 1) fits(float *out, const float *in, int n)
{
    int warp_group = threadIdx.x / 128;
    if (warp_group == 0) {
        asm volatile("setmaxnreg.dec.sync.aligned.u32 40;\n");
        out[threadIdx.x] = in[threadIdx.x];
    } else {
        asm volatile("setmaxnreg.inc.sync.aligned.u32 232;\n");
        float acc = 0;
        for (int i = 0; i < n; i++) {
            acc += in[i * 384 + threadIdx.x] * acc + 1.0f;
        }
        out[threadIdx.x] = acc;
    }
}
