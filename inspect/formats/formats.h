/*
 * formats.h - the readers of libocc-inspect, one per format the files CUDA
 * kernels arrive in (ptxas -v logs, cubins, fatbins, host ELF executables and
 * libraries). Internal: the engine (inspect/engine/) drives them, and the
 * public API is include/occ_inspect.h.
 *
 * Every reader parses a (pointer, length) buffer with bounds checks and never
 * reads outside it; on bad input it returns false and fills an insp_error
 * with the byte offset of the problem and one line saying what is wrong.
 * Readers report what they find through an insp_sink callback, so names and
 * values may point into the caller's buffer: copy what must outlive the call.
 *
 * The format facts each reader relies on are listed in docs/inspect.md with
 * their sources, and each one is checked by tests/test_inspect.c against
 * nvcc output.
 */
#ifndef OCC_INSPECT_FORMATS_H
#define OCC_INSPECT_FORMATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "message_fit.h"

/* Why a reader failed: where in its input, and what. */
#define INSP_ERROR_MESSAGE_BYTES 200
typedef struct insp_error {
    size_t offset;                          /* bytes from the start of the buffer */
    char message[INSP_ERROR_MESSAGE_BYTES]; /* one line, no newline */
    bool over_limit;                        /* refused by a documented limit (an
                                               entry's decompressed size), not
                                               because the bytes are damaged */
    bool missing;                           /* the bytes needed were not kept (a
                                               cubin read in part): read it whole */
} insp_error;

/* What a buffer holds, decided by its content alone. */
typedef enum insp_format {
    INSP_FORMAT_UNKNOWN = 0,
    INSP_FORMAT_PTXAS_LOG = 1, /* text of `ptxas -v` / `nvcc --resource-usage` */
    INSP_FORMAT_CUBIN = 2,     /* NVIDIA ELF (e_machine 190) */
    INSP_FORMAT_FATBIN = 3,    /* fatbin container(s), magic 0xBA55ED50 */
    INSP_FORMAT_HOST_ELF = 4,  /* any other ELF: executable or shared library */
    INSP_FORMAT_ARCHIVE = 5,   /* static library (`ar`): "!<arch>\n" or "!<thin>\n" */
    INSP_FORMAT_BASELINE = 6   /* `occ inspect --save` JSON, schema occ.baseline */
} insp_format;

insp_format insp_detect(const uint8_t *data, size_t size);

/* "ptxas log", "cubin", "fatbin", "host ELF", "archive", "baseline", "unknown". */
const char *insp_format_name(insp_format format);

/* True for a relocatable host object (ELF e_type ET_REL: a `.o`), whose only
   device code may be the pre-link code of __nv_relfatbin. */
bool insp_host_elf_is_object(const uint8_t *data, size_t size);

/* Marks a value the input does not carry. */
#define INSP_UNKNOWN (-1)

/* One function's resources, as one cubin or one log records them. */
typedef struct insp_function {
    size_t offset;          /* where its record starts in the reader's buffer:
                               the "Used" line of a log, the symbol of a cubin */
    bool from_log;          /* read from a ptxas log */
    const char *name;       /* mangled; valid only during the callback */
    size_t name_len;        /* bytes of name (not NUL-terminated in logs) */
    int sm;                 /* 90 for sm_90 */
    char arch_suffix;       /* 0, 'a' (sm_90a) or 'f' (sm_100f) */
    bool is_kernel;         /* an entry function (__global__) */
    bool relocatable;       /* from an -rdc (ET_REL) cubin: unlinked values */
    int regs;               /* registers per thread */
    int smem_bytes;         /* static shared memory as ptxas and the driver count it */
    int smem_section_bytes; /* raw .nv.shared.<k> size (cuobjdump's SHARED), or unknown */
    int stack_bytes;        /* local memory per thread (cumulative stack size) */
    int frame_bytes;        /* the function's own stack frame */
    int spill_store_bytes;  /* ptxas logs only */
    int spill_load_bytes;   /* ptxas logs only */
    int spill_instructions; /* cubins: instructions annotated as spill or refill */
    int barriers;           /* named barriers used */
    int max_threads[3];     /* __launch_bounds__ / .maxntid; 0 if none */
    int req_threads[3];     /* .reqntid; 0 if none */
    int max_regs;           /* register cap (maxrreg / launch bounds); 0 if none */
    int cluster_dims[3];    /* __cluster_dims__; 0 if none */
    bool explicit_cluster;  /* the kernel must be launched as a cluster */
    int max_cluster_rank;   /* .maxclusterrank; 0 if none */
    int param_bytes;        /* kernel parameter bytes */
    int count;              /* identical copies this record stands for (a
                               baseline's merged count); 0 means 1 */
} insp_function;

/* Fatbin entry kinds (entry header offset 0x00). */
typedef enum insp_entry_kind {
    INSP_ENTRY_PTX = 1,
    INSP_ENTRY_CUBIN = 2,
    INSP_ENTRY_LTOIR = 8
} insp_entry_kind;

/* Compression of a fatbin entry's payload. */
typedef enum insp_compression {
    INSP_COMPRESSION_NONE = 0,
    INSP_COMPRESSION_LZ4 = 1,
    INSP_COMPRESSION_ZSTD = 2
} insp_compression;

/* One fatbin entry, reported before its functions. */
typedef struct insp_entry {
    int kind;         /* insp_entry_kind, or another number seen */
    int sm;           /* 90 */
    char arch_suffix; /* 0, 'a' or 'f' */
    insp_compression compression;
    size_t offset;               /* of the entry header, from the buffer start */
    uint64_t payload_bytes;      /* as stored */
    uint64_t uncompressed_bytes; /* after decompression */
    bool skipped;                /* not read: filtered out by arch */
} insp_entry;

/* Where readers report. Either callback may be NULL. */
typedef struct insp_sink {
    void (*function)(void *context, const insp_function *function);
    void (*entry)(void *context, const insp_entry *entry);
    void *context;
} insp_sink;

/* A growable buffer the fatbin reader decompresses into; reuse it across
   calls. Zero-initialise; release with insp_scratch_free(). */
typedef struct insp_scratch {
    uint8_t *data;
    size_t capacity;
    void *zstd_context; /* a ZSTD_DCtx kept for the next entry */
    /* Large zstd cubins are read in part (fatbin.c, "Reading in part"); 0
       takes the INSP_PART_* default: */
    size_t part_min_bytes;       /* entries from this decompressed size */
    size_t part_head_bytes;      /* the head kept */
    size_t part_tail_max_bytes;  /* the most tail kept */
    bool fixed;                  /* data is lent: never reallocate it; where the
                                    entry must be read whole and capacity is short,
                                    fail with err->missing instead */
    bool whole_only;             /* read every entry whole */
    size_t entries_in_part;      /* counts: entries read in part, */
    size_t entries_part_refused; /* and those tried in part, then read whole */
} insp_scratch;

void insp_scratch_free(insp_scratch *scratch);

/* --- ptxas log (ptxas_log.c) ------------------------------------------- */

/* Reports every function of a `ptxas -v` log that has a "Used" line. */
bool insp_ptxas_log_parse(const char *text, size_t size, const insp_sink *sink, insp_error *err);

/* --- cubin (cubin.c, nvinfo.c) ----------------------------------------- */

/* Reports every function of a cubin. `suffix_hint` is the arch suffix the
   fatbin entry declared (0 for a bare cubin: then .nv.compat decides 'a'). */
bool insp_cubin_parse(const uint8_t *data, size_t size, char suffix_hint, const insp_sink *sink,
                      insp_error *err);

/* The same for a cubin of `size` bytes of which only [0, head_bytes) (at
   `head`) and [tail_from, size) (at `tail`) are at hand. Where anything it
   reads is in neither, it fails with err->missing set, before reporting any
   function. */
bool insp_cubin_parse_split(const uint8_t *head, size_t head_bytes, const uint8_t *tail,
                            size_t tail_from, size_t size, char suffix_hint, const insp_sink *sink,
                            insp_error *err);

/* Where a fatbin container was found. */
typedef enum insp_region_kind {
    INSP_REGION_NV_FATBIN = 0, /* .nv_fatbin */
    INSP_REGION_RELFATBIN = 1, /* __nv_relfatbin (-rdc pre-link code) */
    INSP_REGION_OTHER = 2,     /* a fatbin kept in another section */
    INSP_REGION_FILE = 3       /* a bare .fatbin file */
} insp_region_kind;

typedef void (*insp_region_fn)(void *context, size_t offset, size_t size, insp_region_kind kind);

/* --- fatbin (fatbin.c, decompress.c) ----------------------------------- */

/* Which entries to read; others are reported with skipped set. */
typedef struct insp_filter {
    int sm;          /* 0: every arch */
    char suffix;     /* with sm: 0 matches only the plain arch */
    bool any_suffix; /* with sm: match sm_90, sm_90a and sm_90f alike */
} insp_filter;

/*
 * Reads the one fatbin container that starts at data[0]: reports each
 * entry, decompresses cubins as needed into `scratch` and reports their
 * functions. *consumed receives the container's length (header + entries).
 * Error offsets count from data[0].
 */
bool insp_fatbin_parse(const uint8_t *data, size_t size, const insp_filter *filter,
                       insp_scratch *scratch, const insp_sink *sink, size_t *consumed,
                       insp_error *err);

/*
 * Walks the entry headers of the container at data[0] (checking them as
 * insp_fatbin_parse does) without reading any payload, and calls `found`
 * with each entry's offset (plus base_offset) and size (header and padded
 * payload), so that entries can be read apart, on several threads.
 */
bool insp_fatbin_entries(const uint8_t *data, size_t size, size_t base_offset, insp_region_fn found,
                         void *context, insp_error *err);

/* Reads the one entry that fills data[0..size), as insp_fatbin_parse reads
   each of its entries. Error offsets count from data[0]. */
bool insp_fatbin_entry_parse(const uint8_t *data, size_t size, const insp_filter *filter,
                             insp_scratch *scratch, const insp_sink *sink, insp_error *err);

/* The scratch bytes insp_fatbin_entry_parse will need, with `scratch`'s
   settings, for the entry at data[0]: for a compressed cubin that `filter`
   wants, its decompressed size, or what reading it in part takes (fatbin.c);
   else 0 (also for a bad header, which insp_fatbin_entry_parse reports). */
size_t insp_fatbin_entry_scratch_bytes(const uint8_t *data, size_t size, const insp_filter *filter,
                                       const insp_scratch *scratch);

/* Reading large zstd cubins in part (fatbin.c): the defaults. */
#define INSP_PART_MIN_BYTES (32u << 20)       /* entries from this size */
#define INSP_PART_HEAD_BYTES (8u << 20)       /* the head kept */
#define INSP_PART_TAIL_MAX_BYTES (2u << 20)   /* the most tail kept */
#define INSP_PART_WINDOW_MAX_BYTES (8u << 20) /* the largest zstd window */

/* True if a plausible fatbin container header starts at data[0]. */
bool insp_fatbin_probe(const uint8_t *data, size_t size);

/* Decompresses an entry payload into exactly `out_size` bytes. */
bool insp_decompress(insp_compression method, const uint8_t *in, size_t in_size, uint8_t *out,
                     size_t out_size, insp_error *err);
/* The same, keeping the decompressor's state in `scratch` between calls. */
bool insp_decompress_with(insp_scratch *scratch, insp_compression method, const uint8_t *in,
                          size_t in_size, uint8_t *out, size_t out_size, insp_error *err);

/* A zstd frame decompressed a piece at a time, with only its window held
   (at most window_max bytes): what reading a cubin in part needs. Any
   failure just returns false; the caller then decompresses the entry whole,
   which reports what is wrong. */
typedef struct insp_zstd_stream {
    void *context; /* a ZSTD_DStream */
    const uint8_t *in;
    size_t in_size, in_pos;
    uint8_t *discard; /* where skipped bytes go */
    size_t discard_bytes;
    bool ended; /* the last call finished the frame */
} insp_zstd_stream;

/* The frame's window (its whole content for a single-segment frame), or 0
   where the header cannot be read. */
size_t insp_zstd_window_bytes(const uint8_t *in, size_t in_size);
bool insp_zstd_stream_open(insp_zstd_stream *s, const uint8_t *in, size_t in_size,
                           size_t window_max);
/* The next n bytes into out; out NULL skips them. */
bool insp_zstd_stream_read(insp_zstd_stream *s, uint8_t *out, size_t n);
/* True if the frame ends here and no input is left. */
bool insp_zstd_stream_end(insp_zstd_stream *s);
void insp_zstd_stream_close(insp_zstd_stream *s);

/* --- host ELF (host_elf.c) --------------------------------------------- */

/*
 * Finds the fatbin containers of a host ELF file: every container of
 * .nv_fatbin, of __nv_relfatbin when `relfatbin` is set, and those found by
 * scanning the other data sections for the fatbin magic. Only container
 * headers are read; the callback gets each container's file offset and size.
 */
bool insp_host_elf_fatbins(const uint8_t *data, size_t size, bool relfatbin, insp_region_fn found,
                           void *context, insp_error *err);

/* A section of a host ELF file that may hold fatbin containers: `kind`
   NV_FATBIN / RELFATBIN (back-to-back containers: walk them with
   insp_fatbin_regions) or OTHER (to be scanned: insp_fatbin_candidates). */
typedef void (*insp_section_fn)(void *context, const char *name, size_t name_len, size_t offset,
                                size_t size, insp_region_kind kind);

/* Lists the sections insp_host_elf_fatbins reads, in file order, having
   checked that each lies inside the file. */
bool insp_host_elf_sections(const uint8_t *data, size_t size, bool relfatbin, insp_section_fn found,
                            void *context, insp_error *err);

/*
 * Scans file bytes [from, to) of the section file[section_offset ..
 * section_offset + section_size) for container headers at 8-aligned file
 * offsets, each validated (whole container inside the section, a known first
 * entry kind), and reports every one. Parts of a section can be scanned
 * apart; hits inside an earlier container are not removed here: keep a
 * candidate only if it starts at or after the previous kept one's end
 * rounded up to 8 (insp_fatbin_next_offset), as insp_host_elf_fatbins does.
 */
void insp_fatbin_candidates(const uint8_t *file, size_t section_offset, size_t section_size,
                            size_t from, size_t to, insp_region_fn found, void *context);

/* Where the scan resumes after a container at `offset` of `size` bytes. */
size_t insp_fatbin_next_offset(size_t offset, size_t size);

/* Walks back-to-back containers in data[0..size) (a .fatbin file or one
   section), 8-aligned with zero padding between, calling `found`. */
bool insp_fatbin_regions(const uint8_t *data, size_t size, size_t base_offset,
                         insp_region_kind kind, insp_region_fn found, void *context,
                         insp_error *err);

/* --- static library (archive.c) --------------------------------------- */

/* One member of an archive: its name (not NUL-terminated) and where its
   data lies in the archive. */
typedef void (*insp_member_fn)(void *context, const char *name, size_t name_len, size_t offset,
                               size_t size);

/*
 * Walks the members of an `ar` archive (System V / GNU and BSD 4.4 names)
 * and reports each one that holds a file, in archive order: not the symbol
 * tables nor the long-name table. A member that is itself an archive is not
 * reported: its members are, as "inner.a(k.o)" at their offsets in `data`,
 * down to INSP_ARCHIVE_MAX_DEPTH levels (deeper is refused). A thin archive
 * ("!<thin>"), whose members live in other files, is refused by name, at
 * any level.
 */
#define INSP_ARCHIVE_MAX_DEPTH 4
bool insp_archive_members(const uint8_t *data, size_t size, insp_member_fn found, void *context,
                          insp_error *err);

/* --- baseline (baseline.c; baseline_write.c writes them) ---------------- */

/* The baseline document version (schema occ.baseline): the one
   baseline_write.c writes, and the newest this reader understands. */
#define INSP_BASELINE_VERSION 1

/*
 * Checks a baseline document's frame (its schema and version, a
 * "functions" array, nothing after the closing brace) and reports its
 * functions in parts of about `part_bytes` each (a run of whole function
 * objects), so that they can be read apart, on several threads, by
 * insp_baseline_parse. Reads nothing inside the function objects.
 */
bool insp_baseline_split(const uint8_t *data, size_t size, size_t part_bytes, insp_region_fn found,
                         void *context, insp_error *err);

/* Reads one part found by insp_baseline_split: function objects separated
   by commas. Error offsets count from data[0]. */
bool insp_baseline_parse(const uint8_t *data, size_t size, const insp_sink *sink, insp_error *err);

/* --- names in messages (values/message_fit.h) ------------------------ */

/* `len` bytes of a name or key as one line of a message: printable ASCII as
   it is, any other byte (a newline, a quote, a backslash, UTF-8) as \xNN,
   cut after about `max_shown` bytes with "...". Returns buf. The readers'
   name for message_visible_ascii, the one owner of the escaping. */
static inline const char *insp_message_text(const char *text, size_t len, size_t max_shown,
                                            char *buf, size_t cap)
{
    return message_visible_ascii(text, len, max_shown, buf, cap);
}

#endif /* OCC_INSPECT_FORMATS_H */
