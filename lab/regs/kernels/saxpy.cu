/*
 * saxpy.cu - the lab's saxpy (lab/saxpy_kernel.cuh) at one item a thread:
 * the residency experiment's TLP row (tlp1) at 256 threads, and
 * blocksize.cu's kernel at 1,024 (kernels.tsv row blocksize_1024). out[i] =
 * 2 x[i] + y[i] with x = in[0 .. n/2), y = in[n/2 .. n), out[0 .. n/2). The
 * body is the lab's own scale_add_body<1>, included rather than copied, so
 * the two cannot drift: a thread issues every load before the first use.
 */
#include "../../saxpy_kernel.cuh"

extern "C" __global__ void kernel(const float *__restrict__ in, float *__restrict__ out, int n)
{
    const size_t half = (size_t)n / 2;
    scale_add_body<1>(2.0f, in, in + half, out, half);
}
