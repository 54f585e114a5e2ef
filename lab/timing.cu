/*
 * timing.cu - time kernel launches with CUDA events: warm-ups dropped, each
 * timed launch between its own pair of events, median and minimum kept.
 */
#include "occ_lab.h"

static int compare_float(const void *a, const void *b)
{
    float x = *(const float *)a;
    float y = *(const float *)b;
    return (x > y) - (x < y);
}

lab_times lab_times_of(float *ms, int count)
{
    qsort(ms, (size_t)count, sizeof ms[0], compare_float);
    lab_times t;
    t.runs = count;
    t.min_ms = ms[0];
    t.median_ms = count % 2 == 1 ? ms[count / 2] : 0.5 * ((double)ms[count / 2 - 1] + ms[count / 2]);
    return t;
}

#define LAB_MAX_RUNS 64

lab_times lab_time_launches(lab_launch_fn launch, void *context, int warmups, int runs)
{
    if (runs < 1 || runs > LAB_MAX_RUNS) {
        LAB_FAIL("runs %d outside 1..%d", runs, LAB_MAX_RUNS);
    }
    for (int i = 0; i < warmups; i++) {
        launch(context);
    }
    LAB_CHECK(cudaDeviceSynchronize());
    cudaEvent_t start[LAB_MAX_RUNS], stop[LAB_MAX_RUNS];
    for (int i = 0; i < runs; i++) {
        LAB_CHECK(cudaEventCreate(&start[i]));
        LAB_CHECK(cudaEventCreate(&stop[i]));
    }
    for (int i = 0; i < runs; i++) {
        LAB_CHECK(cudaEventRecord(start[i], 0));
        launch(context);
        LAB_CHECK(cudaEventRecord(stop[i], 0));
    }
    LAB_CHECK(cudaDeviceSynchronize());
    float ms[LAB_MAX_RUNS];
    for (int i = 0; i < runs; i++) {
        LAB_CHECK(cudaEventElapsedTime(&ms[i], start[i], stop[i]));
        LAB_CHECK(cudaEventDestroy(start[i]));
        LAB_CHECK(cudaEventDestroy(stop[i]));
    }
    return lab_times_of(ms, runs);
}
