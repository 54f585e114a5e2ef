/*
 * residency_ilp8.cu - lab/residency.cu's loads-in-flight kernel at ILP 8
 * (row ilp8): 16 independent loads a thread in flight. out[i] = 2 x[i] +
 * y[i] with x = in[0 .. n/2), y = in[n/2 .. n), out[0 .. n/2). The body is
 * the lab's own scale_add_body<8>, included rather than copied, so the two
 * cannot drift: a thread issues every load before the first use.
 */
#include "../../saxpy_kernel.cuh"

extern "C" __global__ void kernel(const float *__restrict__ in, float *__restrict__ out, int n)
{
    const size_t half = (size_t)n / 2;
    scale_add_body<8>(2.0f, in, in + half, out, half);
}
