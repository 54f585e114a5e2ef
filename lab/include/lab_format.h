/*
 * lab_format.h - the version of occ-lab's records: occ-lab (lab/main.cu)
 * writes it in its first record, {"record":"lab","format":N}, and the reader
 * (lab_data.h) accepts only it. Change the records incompatibly, and this
 * number goes up in both at once. Plain C and C++, for nvcc and the C
 * library alike.
 */
#ifndef OCC_LAB_FORMAT_H
#define OCC_LAB_FORMAT_H

/* The "lab" record's "format" (docs/lab.md, "Records"). */
#define LAB_RECORDS_FORMAT 1

#endif /* OCC_LAB_FORMAT_H */
