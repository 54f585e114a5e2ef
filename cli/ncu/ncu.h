/*
 * ncu.h - `occ ncu`: Nsight Compute exports read, checked against libocc and
 * explained. The reader (ncu_read.c) turns either CSV page into launches;
 * ncu_check.c computes each launch with libocc and compares; ncu_gap.c
 * explains the achieved occupancy; ncu_text.c and ncu_json.c print.
 */
#ifndef OCC_CLI_NCU_H
#define OCC_CLI_NCU_H

#include <stdbool.h>
#include <stdio.h>

#include "cli.h"

/* The longest record read: a raw page row holds every metric of a launch
   and its kernel's demangled name (the H200 exports' longest is 10,596
   bytes; a --set full export is a few times that). */
#define NCU_MAX_RECORD_BYTES (1 << 20)
/* The most columns read: the raw page of --set full has about 2,000. */
#define NCU_MAX_FIELDS 65536
/* What may precede the header and is skipped: `ncu --csv ... app > out.csv`
   puts the application's own output (and ncu's ==PROF== lines) first. A
   file with no header in this much is not an export. */
#define NCU_MAX_SKIPPED_LINES 1000000LL
#define NCU_MAX_SKIPPED_BYTES (64LL << 20)
/* The most SMs an export may claim: four times the largest GPU in occ's
   database (188 SMs, the RTX PRO 6000 Blackwell; tests/test_ncu.c holds the
   database under a quarter of it), so that a GPU of the next generations
   still reads while 0, -1 or 10^9 (a damaged value) does not. */
#define NCU_MAX_SM_COUNT 1024

/* Which page of `ncu --csv` a file holds. */
typedef enum ncu_page {
    NCU_PAGE_RAW = 0,    /* --page raw: one row per launch, a units row under the header */
    NCU_PAGE_DETAILS = 1 /* --page details: one row per metric per launch */
} ncu_page;

/* The numbers occ reads from a launch. */
typedef enum ncu_field {
    NCU_BLOCK_SIZE,
    NCU_GRID_SIZE,
    NCU_REGS,
    NCU_STATIC_SMEM,
    NCU_DYN_SMEM,
    NCU_DRIVER_SMEM,
    NCU_SMEM_CONFIG,
    NCU_BARRIERS,
    NCU_CLUSTER_X,
    NCU_CLUSTER_Y,
    NCU_CLUSTER_Z,
    NCU_CLUSTER_SIZE,
    NCU_MAX_ACTIVE_CLUSTERS,
    NCU_SM_COUNT,
    NCU_WAVES,
    NCU_DURATION,
    NCU_LIMIT_WARPS,
    NCU_LIMIT_BLOCKS,
    NCU_LIMIT_REGISTERS,
    NCU_LIMIT_SHARED_MEM,
    NCU_LIMIT_BARRIERS,
    NCU_THEORETICAL_PCT,
    NCU_THEORETICAL_WARPS,
    NCU_ACHIEVED_PCT,
    NCU_FIELD_COUNT
} ncu_field;

/* The unit family of a field: what its unit may be and what occ converts to. */
typedef enum ncu_kind {
    NCU_KIND_COUNT,   /* blocks, registers, warps, threads: any unit, no scale */
    NCU_KIND_BYTES,   /* byte, Kbyte, Mbyte, Gbyte (1000-based), optionally "/block" */
    NCU_KIND_PERCENT, /* % */
    NCU_KIND_TIME     /* ns, us, ms, s (also nsecond, usecond, msecond, second): to us */
} ncu_kind;

/* How a field is found: its raw-page column, its details-page metric (NULL
   where the details page has none), its kind, whether a launch without it
   is refused, the units a count may carry besides none ("register/thread",
   '|' between several), and what it is, in messages. */
typedef struct ncu_field_info {
    const char *raw_column;
    const char *details_metric;
    ncu_kind kind;
    bool required;
    const char *count_units;
    const char *noun;
} ncu_field_info;

const ncu_field_info *ncu_field_at(ncu_field field);

/* A number from an export in occ's unit (bytes, microseconds, percent,
   counts), with half a unit of its last printed digit: the true value lies
   within value +- tolerance (Nsight's details page prints 2 decimals, so
   "32.77 Kbyte" is 32,765 to 32,775 bytes). */
typedef struct ncu_number {
    bool present;
    double value;
    double tolerance;
} ncu_number;

/* Parses an Nsight number: "1,024", "32.768000", "-3", "1.5e3", and the
   raw page's "167.94 (0: 167.94)" with metric instances (the value before
   the parenthesis). Thousands separators only in groups of three after the
   first ("1,234,567"; not "3,2" or "1,0245"). Returns false for anything
   else ("n/a", ""). */
bool ncu_parse_number(const char *text, ncu_number *out);

/* The factor to occ's unit of a field's unit text ("Kbyte/block": 1000);
   false (with the reason in err, no file or line) when the unit is not one
   of the field's ("furlong" for registers, "Kbits" for a size). */
bool ncu_unit_scale(const ncu_field_info *field, const char *unit, double *scale, cli_error *err);

#define NCU_DEVICE_NAME_BYTES 96
#define NCU_WORD_BYTES 32

/* One profiled launch, as the export gives it. */
typedef struct ncu_launch {
    long long id;     /* the export's ID column */
    long long line;   /* the line of its record (raw), or its first row (details) */
    const char *name; /* the kernel's name; valid until the next launch is read */
    char device_name[NCU_DEVICE_NAME_BYTES]; /* "NVIDIA H200"; "" where not exported */
    int cc_major, cc_minor;                  /* -1 where not exported */
    int block_dims[3];                       /* from "(256, 1, 1)"; 0 where not exported */
    int grid_dims[3];
    char cluster_policy[NCU_WORD_BYTES]; /* "PolicySpread"; "" where not exported */
    ncu_number v[NCU_FIELD_COUNT];
} ncu_launch;

/* Reads launches from one export, streaming, in bounded memory. */
typedef struct ncu_reader ncu_reader;

/* Reads the header (and the raw page's units row) of `in`, plain or gzip;
   `name` is the file's name in messages. Lines before the header that are
   not one (the application's output) are skipped, up to
   NCU_MAX_SKIPPED_LINES and NCU_MAX_SKIPPED_BYTES. On failure one line: the
   file, the line, the reason (exit 1). */
ncu_reader *ncu_reader_open(FILE *in, const char *name, cli_error *err);

/* The lines skipped before the header. */
long long ncu_reader_skipped_lines(const ncu_reader *r);

/* The next launch: 1 with *out filled, 0 after the last, -1 on a bad record
   (err: the file, the line, the reason). */
int ncu_reader_next(ncu_reader *r, ncu_launch *out, cli_error *err);

ncu_page ncu_reader_page(const ncu_reader *r);
void ncu_reader_free(ncu_reader *r);

/* The Block Limit rows, in Nsight's order. */
enum { NCU_LIMIT_COUNT = 5 };
extern const char *const ncu_limit_names[NCU_LIMIT_COUNT]; /* "warps", "blocks", ... */

/* What differs between libocc and Nsight (bits of ncu_check.mismatches). */
typedef enum ncu_mismatch {
    NCU_MISMATCH_THEORETICAL = 1 << 0,
    NCU_MISMATCH_WARPS = 1 << 1,
    NCU_MISMATCH_BLOCKS = 1 << 2,
    NCU_MISMATCH_REGISTERS = 1 << 3,
    NCU_MISMATCH_SHARED_MEM = 1 << 4,
    NCU_MISMATCH_BARRIERS = 1 << 5,
    NCU_MISMATCH_CLUSTERS = 1 << 6,
    NCU_MISMATCH_WAVES = 1 << 7,
    NCU_MISMATCH_SMEM_CONFIG = 1 << 8,
    NCU_MISMATCH_DRIVER_SMEM = 1 << 9
} ncu_mismatch;
#define NCU_MISMATCH_KINDS 10

/* The JSON field name of a mismatch bit ("limits.registers"). */
const char *ncu_mismatch_name(unsigned bit);

/* libocc's view of one launch, next to Nsight's. */
typedef struct ncu_check {
    occ_device device;
    occ_kernel kernel; /* as libocc computed it (sizes as printed, rounded) */
    occ_result result;
    bool exact_inputs;           /* every size was exported to the byte */
    int limits[NCU_LIMIT_COUNT]; /* libocc's, in Nsight's convention */
    int ncu_limits[NCU_LIMIT_COUNT];
    double theoretical;     /* libocc's, 0..1 */
    double ncu_theoretical; /* Nsight's, 0..1 */
    bool has_achieved;
    double achieved; /* Nsight's, 0..1 */
    int smem_config_bytes;
    int sm_count;      /* Nsight's SMs, else the device's; 0 unknown */
    bool has_clusters; /* a cluster launch */
    int cluster_size;
    int max_active_clusters;     /* libocc's; -1: not computed */
    bool clusters_exact;         /* libocc's count is exact, not an upper bound */
    int ncu_max_active_clusters; /* Nsight's; -1: not exported */
    bool barriers_inferred;      /* the export has no barrier count (details page) */
    double waves;                /* libocc's waves per SM; < 0: not computed */
    unsigned mismatches;         /* ncu_mismatch bits */
} ncu_check;

/* The GPU the launches are computed on: --gpu or --gpu-file when given
   (refused where it contradicts the export's device), else the export's
   device, looked up once for each device and compute capability met. */
typedef struct ncu_gpu {
    bool forced; /* --gpu or --gpu-file */
    occ_device forced_device;
    bool forced_named;     /* a named GPU of the database (not sm_90, not a file) */
    const char *forced_by; /* "--gpu A100", "--gpu-file a.json": in messages */
    /* the last export device looked up, and the answer */
    bool cached;
    char cached_name[NCU_DEVICE_NAME_BYTES];
    int cached_cc_major, cached_cc_minor;
    bool cached_ok;
    occ_device cached_device;
    bool cached_named; /* occ knows the export's device by its name */
} ncu_gpu;

/* Computes the launch with libocc on gpu's device and compares. False
   (err: file, line, reason) when the launch cannot be computed at all: an
   unknown GPU, a --gpu that is not the export's, values no GPU allows. */
bool ncu_check_launch(const ncu_launch *l, ncu_gpu *gpu, const char *file, ncu_check *out,
                      cli_error *err);

/* Why the achieved occupancy is below the theoretical, in points of
   occupancy (0..1), under the model of docs/ncu.md: blocks of equal
   duration placed in waves of `wave_blocks` on the SMs. */
typedef enum ncu_cause {
    NCU_CAUSE_NONE = 0,     /* no gap worth a word */
    NCU_CAUSE_SMALL_GRID,   /* fewer blocks than one wave */
    NCU_CAUSE_TAIL,         /* the last wave is partial */
    NCU_CAUSE_CLUSTERS,     /* clusters leave block slots empty */
    NCU_CAUSE_IN_KERNEL,    /* the rest: warps and blocks ending unevenly */
    NCU_CAUSE_NOT_MEASURED, /* no achieved occupancy in the export */
    NCU_CAUSE_NO_GRID       /* no SM count or no resident block: no model */
} ncu_cause;

const char *ncu_cause_name(ncu_cause cause); /* "tail", "small_grid", ... */

typedef struct ncu_gap {
    ncu_cause cause;        /* the largest part */
    double gap;             /* theoretical - achieved */
    double grid_bound;      /* the occupancy the grid allows */
    double cluster_loss;    /* block slots clusters leave empty */
    double small_grid_loss; /* a grid below one wave */
    double tail_loss;       /* a partial last wave */
    double in_kernel;       /* grid_bound - achieved (negative: above the model) */
    long long wave_blocks;  /* blocks resident at once on the GPU */
    long long grid_blocks;
    long long full_waves;
    long long last_wave_blocks; /* blocks of the last wave */
    int active_sms;             /* SMs holding a block in the first wave */
} ncu_gap;

void ncu_gap_compute(const ncu_launch *l, const ncu_check *c, ncu_gap *out);

/* occ explain's advice for the kernels met last, so that the launches of
   one kernel compute it once. */
typedef struct ncu_explain_cache ncu_explain_cache;
ncu_explain_cache *ncu_explain_cache_new(void); /* NULL when out of memory */
void ncu_explain_cache_free(ncu_explain_cache *cache);

/* The explanation and advice, paragraphs separated by "\n" (unwrapped):
   what binds, what the grid allows, what is left, what to change. `cache`
   may be NULL. Returns a malloc'd string, NULL when out of memory. */
char *ncu_explain(const ncu_launch *l, const ncu_check *c, const ncu_gap *g,
                  ncu_explain_cache *cache);

/* The kernel's name without return type, template arguments and
   parameters ("void at::foo<float>(int)" -> "at::foo"), into buf. */
const char *ncu_short_name(const char *name, char *buf, size_t cap);

/* A launch of the ranking: where it is and what the text needs again. */
typedef struct ncu_ranked {
    int file_index;
    long long order; /* launches read before it: of equal scores the earlier ranks first */
    long long id;
    double score;      /* duration (us) x gap (points), or the gap */
    ncu_launch launch; /* name points at short_name */
    char short_name[256];
    ncu_check check;
    ncu_gap gap;
} ncu_ranked;

/* One input file, after the first pass. */
typedef struct ncu_file_info {
    const char *path; /* as given; "<stdin>" for '-' */
    ncu_page page;
    long long launches;
    long long agreed;                /* launches without a mismatch */
    long long timed;                 /* launches with a duration */
    char gpu[OCC_DEVICE_NAME_BYTES]; /* libocc's GPU for the first launch */
    int sm_count;                    /* the first launch's SMs */
    long long skipped_lines;         /* lines before the header, skipped */
} ncu_file_info;

/* Everything the output needs about the run, known after the first pass. */
typedef struct ncu_summary {
    int file_count;
    ncu_file_info *files;
    long long launches;
    long long agreed;
    long long mismatch_counts[NCU_MISMATCH_KINDS]; /* by bit number */
    bool by_time;             /* every launch had a duration: ranked by time x gap */
    const char *untimed_file; /* else a file with a launch without one */
    ncu_ranked *top;          /* the ranking, best first */
    int top_count;
} ncu_summary;

/* Text: the summary and the ranking with explanations. */
void ncu_print_text_summary(FILE *out, const ncu_summary *s);
/* Text: one file's heading and the table head; one row per launch. */
void ncu_print_text_file(FILE *out, const ncu_summary *s, int file_index);
void ncu_print_text_row(FILE *out, const ncu_launch *l, const ncu_check *c, const ncu_gap *g);

/* JSON (schema occ.ncu): the document's head, one kernel, the end. */
struct json_stream;
void ncu_json_begin(struct json_stream *js, const ncu_summary *s);
void ncu_json_kernel(struct json_stream *js, const ncu_summary *s, int file_index,
                     const ncu_launch *l, const ncu_check *c, const ncu_gap *g, bool first,
                     ncu_explain_cache *cache);
void ncu_json_end(struct json_stream *js);

#endif /* OCC_CLI_NCU_H */
