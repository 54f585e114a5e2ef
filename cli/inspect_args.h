/*
 * inspect_args.h - what the files of `occ inspect` share: the options, one
 * output row per distinct function, and the collected result.
 */
#ifndef OCC_CLI_INSPECT_ARGS_H
#define OCC_CLI_INSPECT_ARGS_H

#include "calc_args.h"
#include "inspect.h"

typedef enum inspect_sort {
    INSPECT_SORT_OCCUPANCY = 0, /* lowest occupancy first (default) */
    INSPECT_SORT_REGS = 1,      /* most registers first */
    INSPECT_SORT_SMEM = 2,      /* most static shared memory first */
    INSPECT_SORT_NAME = 3       /* by printed name */
} inspect_sort;

typedef enum inspect_output {
    INSPECT_OUT_TABLE = 0,
    INSPECT_OUT_JSON = 1,
    INSPECT_OUT_CSV = 2,
    INSPECT_OUT_SUMMARY = 3
} inspect_output;

typedef struct inspect_options {
    const char *gpu;        /* --gpu; NULL: each kernel's own arch */
    const char *gpu_file;   /* --gpu-file */
    occ_device device;      /* resolved --gpu / --gpu-file */
    bool have_device;
    int threads;            /* --threads; 0: the occupancy API's pick */
    int dyn_smem_bytes;     /* --dyn-smem */
    insp_filter arch;       /* --arch */
    const char *filter;     /* --filter REGEX on the printed name */
    inspect_sort sort;
    inspect_output output;
    bool mangled;           /* --mangled: print raw names */
    bool functions;         /* --functions: device functions too */
    bool relfatbin;         /* --all: also __nv_relfatbin */
    int jobs;               /* --jobs; 0: inspect_default_jobs() */
} inspect_options;

/* Threads when --jobs is not given: every core, at most
   INSPECT_DEFAULT_JOBS_MAX. Each thread keeps a decompression buffer of up
   to 2 MB beside the shared 96 MB pool, so the cap keeps peak memory under
   256 MB on machines with many cores (measured: 171-195 MiB at 16 threads,
   docs/results/inspect-h200); --jobs N asks for more. */
#define INSPECT_DEFAULT_JOBS_MAX 32
int inspect_default_jobs(void);

/* One distinct function name, kept once however many rows carry it
   (inspect_names.c). */
typedef struct inspect_name {
    const char *mangled;    /* NUL-terminated */
    const char *printed;    /* demangled, or `mangled` itself */
    char *demangled;        /* the demangler's copy, or NULL */
    uint64_t hash;          /* inspect_name_hash of mangled */
    uint32_t rank;          /* position of printed among all printed names */
    size_t length;          /* bytes of mangled */
} inspect_name;

typedef struct inspect_names inspect_names;

/* FNV-1a (64-bit) of a name. */
uint64_t inspect_name_hash(const char *name, size_t len);
inspect_names *inspect_names_create(void);
/* The one copy of `name` (len bytes, hash from inspect_name_hash), added if
   new; safe to call from several threads; NULL when out of memory. */
const inspect_name *inspect_names_add(inspect_names *t, const char *name, size_t len,
                                      uint64_t hash);
/* After the last add: demangles every name (if `demangle`) on `jobs`
   threads and ranks them by printed name. False when out of memory. */
bool inspect_names_finish(inspect_names *t, bool demangle, int jobs);
size_t inspect_names_count(const inspect_names *t);
void inspect_names_free(inspect_names *t);

/* One distinct function (duplicates merged into `count`). */
typedef struct inspect_row {
    insp_function f;        /* f.name is unused here: see mangled */
    const inspect_name *interned; /* the names below, and their rank */
    const char *mangled;    /* NUL-terminated, in the names table */
    const char *name;       /* what is printed: demangled unless --mangled */
    int count;              /* identical copies found (containers, files) */
    int section;            /* inspect_result.sections[] index of the ELF section the
                               first copy came from; -1 for other inputs */
    uint64_t identity;      /* hash of arch, mangled name and every number */
    /* Occupancy on the target GPU; valid when has_occupancy. */
    bool has_occupancy;
    const char *note;       /* why there is none, or NULL (static text) */
    char gpu[OCC_DEVICE_NAME_BYTES];
    int threads;            /* block size used */
    int blocks_per_sm;
    int warps_per_sm;
    int max_warps_per_sm;
    double occupancy;
    unsigned limiters;
    occ_zero_reason zero_reason;
} inspect_row;

/* Entries that carry no resource data (PTX, LTO-IR), by kind and arch. */
typedef struct inspect_nodata {
    int kind;
    int sm;
    char suffix;
    int count;
} inspect_nodata;

#define INSPECT_MAX_NODATA 64

typedef struct inspect_result {
    inspect_row *rows;
    size_t row_count;
    size_t functions_read;  /* before merging duplicates */
    inspect_nodata nodata[INSPECT_MAX_NODATA];
    int nodata_count;
    int entries_skipped;    /* filtered out by --arch */
    int file_count;
    char **file_names;
    char **sections;        /* names of the host ELF sections read (".nv_fatbin") */
    int section_count;
    insp_format *file_formats;
    inspect_names *names;   /* where the names live */
    /* Wall seconds of each step, printed when OCC_INSPECT_TIMING is set. */
    double split_seconds;   /* mapping files, walking container and entry headers */
    double read_seconds;    /* the threads' round over entries and section scans */
    double scanned_seconds; /* containers found by the scans: walk and read */
    double merge_seconds;   /* merging the threads' rows and duplicates */
    double names_seconds;   /* demangling and ranking the distinct names */
    size_t name_count;      /* distinct mangled names */
    double pool_wait_seconds; /* threads' seconds waiting for a large buffer */
} inspect_result;

/* Reads every file (in parallel); on failure prints one line naming the
   file and offset and returns EXIT_DATA. */
int inspect_collect(char **files, int file_count, const inspect_options *opts,
                    inspect_result *out, const cli_io *io);
void inspect_result_free(inspect_result *r);

/* Seconds on a monotonic clock. */
double inspect_now(void);

/* "sm_90a" */
const char *inspect_arch_name(int sm, char suffix, char *buf, size_t cap);

/* The binding limiter(s) "registers+warps", or why there is no occupancy. */
const char *inspect_limiter_text(const inspect_row *row, char *buf, size_t cap);
/* "PTX", "LTO-IR" or "kind 5" for an entry kind. */
const char *inspect_entry_kind_name(int kind, char *buf, size_t cap);

void inspect_print_table(FILE *out, const inspect_result *r, const inspect_options *opts);
void inspect_print_summary(FILE *out, const inspect_result *r, const inspect_options *opts);
void inspect_print_csv(FILE *out, const inspect_result *r, const inspect_options *opts);
void inspect_print_json(FILE *out, const inspect_result *r, const inspect_options *opts);

#endif /* OCC_CLI_INSPECT_ARGS_H */
