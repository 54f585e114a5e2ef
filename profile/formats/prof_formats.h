/*
 * prof_formats.h - the trace readers of libocc-profile, for the library, its
 * tests and fuzzers only (the public API is include/occ_profile.h).
 *
 * Each reader streams one input and hands every kernel launch, and every
 * device it learns of, to a sink; it keeps nothing itself. A launch's strings
 * are valid only during the call.
 */
#ifndef OCC_PROF_FORMATS_H
#define OCC_PROF_FORMATS_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

#include "occ_profile.h"

/* One kernel launch as a trace records it. */
typedef struct prof_launch {
    const char *name; /* demangled where the trace has it; never NULL */
    size_t name_length;
    const char *mangled; /* NULL where absent */
    size_t mangled_length;
    int device; /* the trace's device id */
    int grid[3];
    int block[3];
    int cluster[3]; /* 0,0,0: none */
    bool cluster_known;
    int regs_per_thread;
    int static_smem_bytes;      /* OCC_PROFILE_UNKNOWN where only the sum is known */
    int dyn_smem_bytes;         /* likewise */
    int smem_bytes;             /* static + dynamic */
    int local_bytes_per_thread; /* OCC_PROFILE_UNKNOWN where absent */
    int cache_preference;       /* requested cudaFuncCache; -1 unknown */
    int carveout_percent;       /* cudaFuncAttributePreferredSharedMemoryCarveout
                                   requested, 0..100; -1 none or unknown */
    int smem_executed_bytes;    /* sharedMemoryExecuted; OCC_PROFILE_UNKNOWN */
    bool has_kineto_estimate;
    double kineto_estimate; /* "est. achieved occupancy %" / 100 */
    double duration_us;
} prof_launch;

/* One device as a trace describes it. */
typedef struct prof_device {
    int id;
    const char *name;       /* "" where absent */
    int sm_count;           /* 0 where absent */
    int cc_major, cc_minor; /* -1 where absent */
} prof_device;

/* Where a reader sends what it reads. A callback returns OCC_OK or an error
   status, with err filled, that stops the reading. */
typedef struct prof_sink {
    occ_status (*launch)(void *context, const prof_launch *launch, occ_profile_error *err);
    occ_status (*device)(void *context, const prof_device *device, occ_profile_error *err);
    void *context;
} prof_sink;

/* Each reader: path is the file, input its index for errors. */
occ_status prof_read_kineto(const char *path, int input, const prof_sink *sink,
                            occ_profile_error *err);
occ_status prof_read_nsys_sqlite(const char *path, int input, const prof_sink *sink,
                                 occ_profile_error *err);
occ_status prof_read_nsys_csv(const char *path, int input, const prof_sink *sink,
                              occ_profile_error *err);

/* The format of a file by its first bytes (gzip looked through). */
occ_status prof_detect(const char *path, int input, occ_profile_format *out,
                       occ_profile_error *err);

/* Test hook of kineto_json.c: true (the default) reads kernel events of the
   usual shape without yajl; false sends each to yajl. Not thread-safe. */
extern bool prof_kineto_fast_path;
/* Test hook of kineto_json.c: true (the default) scans with AVX2 where the
   processor has it; false with SSE2 alone. Not thread-safe. */
extern bool prof_kineto_avx2;

/* Fills err (when not NULL) and returns status: the message is "PATH: " and
   the formatted text; where >= 0 is kept in err->where. */
occ_status prof_error(occ_profile_error *err, occ_status status, const char *path, int input,
                      long long where, const char *format, ...)
    __attribute__((format(printf, 6, 7)));

/* zlib's reason for the state of f (gzerror) without the path it starts
   with; *code gets zlib's code (Z_OK, Z_DATA_ERROR, Z_BUF_ERROR: cut short). */
struct gzFile_s;
const char *prof_gz_error(struct gzFile_s *f, const char *path, int *code);

/* A sink's refusal (the engine's limits: devices, groups, name bytes) knows
   no place in the file; the reader that called it does. Puts "WHERE_WORD
   WHERE: " after the path in err's message when err has no place yet, and
   returns status. */
occ_status prof_error_place(occ_profile_error *err, occ_status status, const char *path,
                            long long where, const char *where_word);

/* A checked launch: the values every reader must refuse (negative sizes,
   dims above the CUDA limits). OCC_OK, or OCC_ERR_BAD_FORMAT naming the
   field, the value and the limit, at `where` (a line, offset or row). */
occ_status prof_launch_check(const prof_launch *launch, const char *path, int input,
                             long long where, const char *where_word, occ_profile_error *err);

/* Nsight Systems' SQLite schema, written: the recorder's records become a
   database the reader (and nsys's own tools) read. The writer owns the
   tables and columns it creates, the reader the ones it accepts
   (nsys_sqlite.c); both are in one file. */
typedef struct prof_sqlite_writer prof_sqlite_writer;
occ_status prof_sqlite_writer_open(const char *path, prof_sqlite_writer **out,
                                   occ_profile_error *err);
occ_status prof_sqlite_writer_device(prof_sqlite_writer *w, const prof_device *device,
                                     occ_profile_error *err);
/* start_ns: the launch's start; the end is start + duration. */
occ_status prof_sqlite_writer_launch(prof_sqlite_writer *w, const prof_launch *launch,
                                     long long start_ns, long long stream, long long correlation,
                                     const char *short_name, occ_profile_error *err);
/* Commits and closes; w is freed either way. */
occ_status prof_sqlite_writer_close(prof_sqlite_writer *w, occ_profile_error *err);

#endif /* OCC_PROF_FORMATS_H */
