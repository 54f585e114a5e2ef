/*
 * lab_error.h - the one line a lab records reader fills when it refuses
 * its input ("records.jsonl: line 3: ..."): the file, the line, the value
 * and the limit. Every refusal is of the data; the CLI reports it with its
 * exit code for data (1).
 */
#ifndef OCC_LAB_ERROR_H
#define OCC_LAB_ERROR_H

/* As long as the CLI's message (cli_error), so nothing is cut on the way. */
#define LAB_ERROR_BYTES 1536

typedef struct lab_error {
    char message[LAB_ERROR_BYTES]; /* one line, without '\n' */
} lab_error;

#endif /* OCC_LAB_ERROR_H */
