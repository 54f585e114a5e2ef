// light.cu - a light kernel for occ regs' tests (tests/data/regs/README.md): a few
// registers, every block the launch allows already fits, so no cap is worth
// compiling. __launch_bounds__(128) puts .maxntid 128, 1, 1 in its PTX entry, the
// block size occ regs then computes at.
extern "C" __global__ void __launch_bounds__(128) light(const float *in, float *out)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    out[t] = in[t] * 2.0f;
}
