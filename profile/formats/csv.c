/*
 * csv.c - occ's CSV reader and writer (csv.h): plain records found 64 bytes
 * at a time, every other record read byte by byte (slow_record, where the
 * rules are written out), gzip inflated as it is read.
 *
 * Two buffers: the reader works in one while the next bytes are read into
 * the other, after room for what of the first is still unread (at most a
 * record), which is copied there when the reader changes over.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define CSV_HAVE_AVX2 1
#endif

#include "csv.h"
#include "simd_bits.h"

/* Bytes asked of the stream (or of inflate) at a time: few system calls,
   and what was read is still in the cache when it is scanned. The first
   read asks for less, and each read that fills its room doubles the next,
   so that a small input does not take megabytes. */
#define READ_CHUNK_BYTES ((size_t)1 << 20)
#define FIRST_CHUNK_BYTES ((size_t)1 << 16)
/* Room past the buffer's end, so that a 64-byte block may be loaded at any
   offset of the data (the bytes past the data are masked off). */
#define BLOCK_PAD 64

static const unsigned char utf8_bom[3] = {0xEF, 0xBB, 0xBF};

bool csv_fast_path = true;
bool csv_avx2 = true;

/* r->error is what and detail; r->error_cause the detail, or `cause` where
   given, or the whole. */
static void set_error(csv_reader *r, const char *what, const char *detail, const char *cause)
{
    snprintf(r->error, sizeof r->error, "%s%s", what, detail);
    size_t at = strlen(what);
    r->error_cause = cause != NULL                               ? cause
                     : detail[0] != '\0' && at < sizeof r->error ? r->error + at
                                                                 : r->error;
}

bool csv_init(csv_reader *r, FILE *in, size_t max_record_bytes, int max_fields)
{
    memset(r, 0, sizeof *r);
    r->in = in;
    r->next_line = 1;
    r->error_cause = "";
    r->max_record_bytes = max_record_bytes;
    r->max_fields = max_fields;
#ifdef CSV_HAVE_AVX2
    r->avx2 = csv_avx2 && __builtin_cpu_supports("avx2");
#endif
    if (max_fields < 1 || max_record_bytes < 1 || max_record_bytes > ((size_t)UINT32_MAX >> 3)) {
        return false;
    }
    /* a runaway is what no record of the allowed size can be: twice the
       limit, so that a record just past it is still reported as too long */
    r->runaway_bytes =
        2 * max_record_bytes > CSV_RUNAWAY_BYTES ? 2 * max_record_bytes : CSV_RUNAWAY_BYTES;
    /* each buffer: the unread part of a record, and a read after it */
    r->head_bytes = max_record_bytes;
    r->chunk_bytes = FIRST_CHUNK_BYTES;
    size_t buf_bytes = r->head_bytes + r->chunk_bytes + BLOCK_PAD;
    r->buf = malloc(buf_bytes);
    r->spare = malloc(buf_bytes);
    r->pos = r->end = r->head_bytes;
    size_t blocks = max_record_bytes / 64 + 2;
    r->block_commas = malloc(blocks * sizeof *r->block_commas);
    r->block_base = malloc((blocks + 1) * sizeof *r->block_base);
    r->slow_cap = CSV_BUFFER_BYTES(max_record_bytes, max_fields); /* at the first slow record */
    if (r->buf == NULL || r->spare == NULL || r->block_commas == NULL || r->block_base == NULL) {
        csv_free(r);
        return false;
    }
    return true;
}

static void stop_thread(csv_reader *r);

void csv_free(csv_reader *r)
{
    stop_thread(r);
    if (r->z != NULL) {
        inflateEnd(r->z);
        free(r->z);
    }
    free(r->z_in);
    free(r->buf);
    free(r->spare);
    free(r->fields);
    free(r->field_gen);
    free(r->block_commas);
    free(r->block_base);
    free(r->slow);
    r->z = NULL;
    r->z_in = NULL;
    r->buf = NULL;
    r->spare = NULL;
    r->fields = NULL;
    r->field_gen = NULL;
    r->block_commas = NULL;
    r->block_base = NULL;
    r->slow = NULL;
}

/* gzip: inflates into dst; the bytes made, 0 at the end, -1 on an error. */
static long inflate_into(csv_reader *r, unsigned char *dst, size_t room)
{
    z_stream *z = r->z;
    uInt want = room > (size_t)UINT32_MAX ? UINT32_MAX : (uInt)room;
    z->next_out = dst;
    z->avail_out = want;
    while (z->avail_out == want) {
        if (z->avail_in == 0) {
            if (r->raw_eof) {
                if (r->z_member_ended) {
                    return 0;
                }
                set_error(r, "the gzip data is cut short", "", "unexpected end of file");
                return -1;
            }
            size_t n = fread(r->z_in, 1, r->z_in_cap, r->in);
            if (n == 0) {
                if (ferror(r->in)) {
                    set_error(r, "read error: ", strerror(errno), NULL);
                    return -1;
                }
                r->raw_eof = true;
                continue;
            }
            z->next_in = r->z_in;
            z->avail_in = (uInt)n;
        }
        if (r->z_member_ended) {
            /* gzip files may be concatenated; anything else after one is not ours */
            if (z->next_in[0] != 0x1f) {
                set_error(r, "bytes after the end of the gzip data", "", NULL);
                return -1;
            }
            inflateReset(z);
            r->z_member_ended = false;
        }
        int ret = inflate(z, Z_NO_FLUSH);
        if (ret == Z_STREAM_END) {
            r->z_member_ended = true;
        } else if (ret != Z_OK && ret != Z_BUF_ERROR) {
            set_error(r, "the gzip data is damaged: ", z->msg != NULL ? z->msg : "inflate failed",
                      NULL);
            return -1;
        }
    }
    return (long)(want - z->avail_out);
}

/* The first bytes: gzip's magic starts inflating. False on an error. */
static bool start(csv_reader *r)
{
    unsigned char magic[2];
    size_t n = fread(magic, 1, 2, r->in);
    if (n < 2 && ferror(r->in)) {
        set_error(r, "read error: ", strerror(errno), NULL);
        return false;
    }
    if (n == 2 && magic[0] == 0x1f && magic[1] == 0x8b) {
        r->z = calloc(1, sizeof(z_stream));
        r->z_in_cap = READ_CHUNK_BYTES;
        r->z_in = malloc(r->z_in_cap);
        if (r->z == NULL || r->z_in == NULL ||
            inflateInit2((z_stream *)r->z, 16 + MAX_WBITS) != Z_OK) {
            set_error(r, "out of memory", "", NULL);
            return false;
        }
        memcpy(r->z_in, magic, 2);
        ((z_stream *)r->z)->next_in = r->z_in;
        ((z_stream *)r->z)->avail_in = 2;
        r->gzip = true;
        return true;
    }
    memcpy(r->buf + r->end, magic, n);
    r->end += n;
    memset(r->buf + r->end, 0, BLOCK_PAD);
    return true;
}

/* Up to `room` bytes of the stream (inflated) into dst: how many, 0 at its
   end, -1 on an error (r->error). */
static long read_bytes(csv_reader *r, unsigned char *dst, size_t room)
{
    if (r->gzip) {
        return inflate_into(r, dst, room);
    }
    size_t n = fread(dst, 1, room, r->in);
    if (n == 0 && ferror(r->in)) {
        set_error(r, "read error: ", strerror(errno), NULL);
        return -1;
    }
    return (long)n;
}

/* The thread that reads a regular file ahead: it fills the spare buffer
   while the reader works in the other. */
typedef struct csv_thread {
    pthread_t id;
    pthread_mutex_t lock;
    pthread_cond_t wake;   /* to the thread: a buffer to fill, or stop */
    pthread_cond_t done;   /* to the reader: the buffer is filled */
    unsigned char *target; /* where to read; NULL: nothing asked */
    size_t room;           /* how much to read there */
    bool filled;
    long got; /* read_bytes's answer for target */
    bool stop;
} csv_thread;

static void *read_ahead(void *arg)
{
    csv_reader *r = arg;
    csv_thread *t = r->thread;
    pthread_mutex_lock(&t->lock);
    for (;;) {
        while (t->target == NULL && !t->stop) {
            pthread_cond_wait(&t->wake, &t->lock);
        }
        if (t->stop) {
            break;
        }
        unsigned char *dst = t->target;
        size_t room = t->room;
        pthread_mutex_unlock(&t->lock);
        long got = read_bytes(r, dst, room);
        pthread_mutex_lock(&t->lock);
        t->target = NULL;
        t->got = got;
        t->filled = true;
        pthread_cond_signal(&t->done);
        if (got <= 0) {
            break; /* the end, or an error: nothing more to read */
        }
    }
    pthread_mutex_unlock(&t->lock);
    return NULL;
}

/* Asks the thread to fill the spare buffer. */
static void ask_ahead(csv_reader *r)
{
    csv_thread *t = r->thread;
    pthread_mutex_lock(&t->lock);
    t->target = r->spare + r->head_bytes;
    t->room = r->chunk_bytes;
    t->filled = false;
    pthread_cond_signal(&t->wake);
    pthread_mutex_unlock(&t->lock);
}

/* A thread for a regular file that goes on after its first read (a pipe
   could keep it waiting when the reader stops early; a small file needs
   none). Without one the reading goes on in this thread. */
static void start_thread(csv_reader *r)
{
    int fd = fileno(r->in);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        return;
    }
    csv_thread *t = calloc(1, sizeof *t);
    if (t == NULL) {
        return;
    }
    if (pthread_mutex_init(&t->lock, NULL) != 0) {
        free(t);
        return;
    }
    if (pthread_cond_init(&t->wake, NULL) != 0) {
        pthread_mutex_destroy(&t->lock);
        free(t);
        return;
    }
    if (pthread_cond_init(&t->done, NULL) != 0) {
        pthread_cond_destroy(&t->wake);
        pthread_mutex_destroy(&t->lock);
        free(t);
        return;
    }
    r->thread = t;
    if (pthread_create(&t->id, NULL, read_ahead, r) != 0) {
        r->thread = NULL;
        pthread_cond_destroy(&t->done);
        pthread_cond_destroy(&t->wake);
        pthread_mutex_destroy(&t->lock);
        free(t);
        return;
    }
    ask_ahead(r);
}

static void stop_thread(csv_reader *r)
{
    csv_thread *t = r->thread;
    if (t == NULL) {
        return;
    }
    pthread_mutex_lock(&t->lock);
    t->stop = true;
    pthread_cond_signal(&t->wake);
    pthread_mutex_unlock(&t->lock);
    pthread_join(t->id, NULL);
    pthread_cond_destroy(&t->done);
    pthread_cond_destroy(&t->wake);
    pthread_mutex_destroy(&t->lock);
    free(t);
    r->thread = NULL;
}

/* Twice the room for the next reads, where memory allows (the buffers keep
   their offsets; no field points into them between records). */
static void grow(csv_reader *r)
{
    size_t chunk = 2 * r->chunk_bytes;
    size_t bytes = r->head_bytes + chunk + BLOCK_PAD;
    unsigned char *buf = realloc(r->buf, bytes);
    if (buf == NULL) {
        return;
    }
    r->buf = buf;
    unsigned char *spare = realloc(r->spare, bytes);
    if (spare == NULL) {
        return;
    }
    r->spare = spare;
    r->chunk_bytes = chunk;
}

/* Reads more: the next bytes, in the spare buffer after a copy of the
   unread ones, which becomes the buffer. 1 when some came, 0 at the end of
   the stream, -1 on an error (r->error). */
static int fill(csv_reader *r)
{
    if (r->in_eof) {
        return 0;
    }
    size_t unread = r->end - r->pos;
    if (unread > r->head_bytes) {
        set_error(r, "a record does not fit the reader's buffer", "", NULL);
        r->in_eof = true;
        return -1;
    }
    long got;
    bool first = r->thread == NULL && !r->read_once;
    if (r->thread != NULL) {
        csv_thread *t = r->thread;
        pthread_mutex_lock(&t->lock);
        while (!t->filled) {
            pthread_cond_wait(&t->done, &t->lock);
        }
        got = t->got;
        pthread_mutex_unlock(&t->lock);
    } else {
        got = read_bytes(r, r->spare + r->head_bytes, r->chunk_bytes);
    }
    r->read_once = true;
    if (got <= 0) {
        r->in_eof = true;
        return got < 0 ? -1 : 0;
    }
    unsigned char *full = r->spare;
    memcpy(full + r->head_bytes - unread, r->buf + r->pos, unread);
    r->spare = r->buf;
    r->buf = full;
    r->pos = r->head_bytes - unread;
    r->end = r->head_bytes + (size_t)got;
    memset(r->buf + r->end, 0, BLOCK_PAD); /* what a block loads past the end */
    if ((size_t)got == r->chunk_bytes && r->chunk_bytes < READ_CHUNK_BYTES) {
        grow(r); /* no read is under way: the buffers may move */
    }
    if (r->thread != NULL) {
        ask_ahead(r);
    } else if (first) {
        start_thread(r);
    }
    return 1;
}

/* Before the first record: the stream's kind, and a UTF-8 byte-order mark
   (spreadsheets write one) dropped. False on a read error. */
static bool begin(csv_reader *r)
{
    if (r->started) {
        return true;
    }
    r->started = true;
    if (!start(r)) {
        r->in_eof = true;
        return false;
    }
    while (r->end - r->pos < 3) {
        int got = fill(r);
        if (got < 0) {
            return false;
        }
        if (got == 0) {
            break;
        }
    }
    if (r->end - r->pos >= 3 && memcmp(r->buf + r->pos, utf8_bom, 3) == 0) {
        r->pos += 3;
    }
    return true;
}

/* A new record: the fields asked for so far are forgotten. */
static void new_record(csv_reader *r)
{
    if (++r->gen == 0) {
        memset(r->field_gen, 0, (size_t)r->field_cap * sizeof *r->field_gen);
        r->gen = 1;
    }
}

/* Room for `count` fields (at most max_fields): the arrays grow with the
   widest record, so that a small file does not pay for 65,536 columns.
   False when memory runs out (r->error). */
static bool field_room(csv_reader *r, int count)
{
    if (count <= r->field_cap) {
        return true;
    }
    int cap = r->field_cap < 256 ? 256 : r->field_cap;
    while (cap < count) {
        cap *= 2;
    }
    cap = cap < r->max_fields ? cap : r->max_fields;
    char **fields = realloc(r->fields, (size_t)cap * sizeof *fields);
    if (fields != NULL) {
        r->fields = fields;
    }
    uint32_t *gen = fields != NULL ? realloc(r->field_gen, (size_t)cap * sizeof *gen) : NULL;
    if (gen == NULL) {
        set_error(r, "out of memory", "", NULL);
        return false;
    }
    memset(gen + r->field_cap, 0, (size_t)(cap - r->field_cap) * sizeof *gen);
    r->field_gen = gen;
    r->field_cap = cap;
    return true;
}

/* ---- plain records, 64 bytes at a time ---- */

typedef struct block {
    uint64_t quote, comma, newline;
    uint64_t odd; /* NUL or CR: the byte-at-a-time reader's */
} block;

/* One 16-byte lane's bits, shifted to its place in the block. */
#define LANE(i)                                                                                    \
    do {                                                                                           \
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(p + 16 * (i)));                \
        b->quote |= (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, quote)) << (16 * (i)); \
        b->comma |= (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, comma)) << (16 * (i)); \
        b->newline |= (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, newline))            \
                      << (16 * (i));                                                               \
        b->odd |= (uint64_t)(unsigned)_mm_movemask_epi8(                                           \
                      _mm_or_si128(_mm_cmpeq_epi8(v, cr), _mm_cmpeq_epi8(v, nul)))                 \
                  << (16 * (i));                                                                   \
    } while (0)

static inline __attribute__((always_inline)) void classify(const unsigned char *p, block *b)
{
#if defined(__SSE2__)
    const __m128i quote = _mm_set1_epi8('"');
    const __m128i comma = _mm_set1_epi8(',');
    const __m128i newline = _mm_set1_epi8('\n');
    const __m128i cr = _mm_set1_epi8('\r');
    const __m128i nul = _mm_setzero_si128();
    b->quote = b->comma = b->newline = b->odd = 0;
    LANE(0);
    LANE(1);
    LANE(2);
    LANE(3);
#undef LANE
#else
    b->quote = b->comma = b->newline = b->odd = 0;
    for (unsigned i = 0; i < 64; i++) {
        uint64_t bit = (uint64_t)1 << i;
        switch (p[i]) {
        case '"': b->quote |= bit; break;
        case ',': b->comma |= bit; break;
        case '\n': b->newline |= bit; break;
        case '\r':
        case '\0': b->odd |= bit; break;
        default: break;
        }
    }
#endif
}

#ifdef CSV_HAVE_AVX2
/* The same 32 bytes at a time, on the processors that have AVX2 (chosen
   when the reader starts). */
static inline __attribute__((always_inline, target("avx2"))) void
classify_avx2(const unsigned char *p, block *b)
{
    const __m256i quote = _mm256_set1_epi8('"');
    const __m256i comma = _mm256_set1_epi8(',');
    const __m256i newline = _mm256_set1_epi8('\n');
    const __m256i cr = _mm256_set1_epi8('\r');
    const __m256i nul = _mm256_setzero_si256();
    b->quote = b->comma = b->newline = b->odd = 0;
    for (int k = 0; k < 2; k++) {
        __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)(p + 32 * k));
        b->quote |= (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, quote))
                    << (32 * k);
        b->comma |= (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, comma))
                    << (32 * k);
        b->newline |= (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, newline))
                      << (32 * k);
        b->odd |= (uint64_t)(uint32_t)_mm256_movemask_epi8(
                      _mm256_or_si256(_mm256_cmpeq_epi8(v, cr), _mm256_cmpeq_epi8(v, nul)))
                  << (32 * k);
    }
}
#endif

/* Set bits. Without -mpopcnt __builtin_popcountll is a library call; where
   the compiler can make two versions of the scanner, one with the popcnt
   instruction is chosen when the processor has it (x86-64-v2 on). */
#if defined(__x86_64__) && defined(__has_attribute)
#if __has_attribute(target_clones)
#define CSV_CLONES __attribute__((target_clones("popcnt", "default")))
#endif
#endif
#ifdef CSV_CLONES
#define popcount64(x) ((uint32_t)__builtin_popcountll(x))
#else
#define CSV_CLONES
static inline uint32_t popcount64(uint64_t x)
{
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (uint32_t)((x * 0x0101010101010101ULL) >> 56);
}
#endif

enum { FAST_RECORD, FAST_END, FAST_NO, FAST_ERROR };

/* The record at pos as plain quoted CSV: FAST_RECORD with its commas by
   block; FAST_NO when it is not plain (the byte reader takes it), FAST_END
   when no byte is left, FAST_ERROR on a read error. Blank lines are
   skipped. Blocks are classified by `classify_block`. */
static inline __attribute__((always_inline)) int
scan_record(csv_reader *r, void (*classify_block)(const unsigned char *, block *))
{
    for (;;) {
        const size_t begin_at = r->pos;
        r->line = r->next_line;
        size_t off = begin_at;
        uint64_t inside_carry = 0; /* all ones: the block begins inside quotes */
        uint64_t field_carry = 1;  /* the block's first byte may open a quote */
        uint64_t close_carry = 0;  /* the block's first byte follows a closing quote */
        uint64_t escapes = 0;
        uint32_t commas = 0;
        long long newlines = 0;
        size_t blocks = 0;
        while (off < r->end) {
            size_t avail = r->end - off;
            block b;
            classify_block(r->buf + off, &b);
            if (inside_carry != 0 && (b.quote | b.odd) == 0 && avail >= 64) {
                /* 64 bytes inside a quoted field (a long name): nothing ends
                   the field or the record, and the carries stay */
                r->block_commas[blocks] = 0;
                r->block_base[blocks] = commas;
                blocks++;
                if (b.newline != 0) {
                    newlines += popcount64(b.newline);
                }
                field_carry = close_carry = 0;
                off += 64;
                if (off - begin_at > r->max_record_bytes) {
                    return FAST_NO;
                }
                continue;
            }
            uint64_t valid = avail >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << avail) - 1;
            uint64_t quote = b.quote & valid;
            uint64_t inside = prefix_xor(quote) ^ inside_carry;
            uint64_t comma = b.comma & ~inside & valid;
            uint64_t newline = b.newline & ~inside & valid;
            /* this record's bits: up to its line end, if the block has it */
            uint64_t upto = newline != 0 ? newline ^ (newline - 1) : valid;
            uint64_t open = quote & inside;
            uint64_t close = quote & ~inside;
            uint64_t after_close = (close << 1) | close_carry;
            /* a quote opens a field only at its start (or doubles a quote:
               it follows a closing one); a closing quote ends the field */
            uint64_t bad = (open & ~((comma << 1) | after_close | field_carry)) |
                           (after_close & ~(comma | newline | quote)) | (b.odd & valid);
            if ((bad & upto) != 0) {
                return FAST_NO;
            }
            escapes |= open & after_close & upto;
            r->block_commas[blocks] = comma & upto;
            r->block_base[blocks] = commas;
            blocks++;
            commas += popcount64(comma & upto);
            uint64_t line_ends = b.newline & valid & upto;
            if (line_ends != 0) {
                newlines += popcount64(line_ends);
            }
            if (newline != 0) {
                size_t at = off + (size_t)__builtin_ctzll(newline);
                if (at + 1 - begin_at > r->max_record_bytes) {
                    return FAST_NO; /* too long: the byte reader says so */
                }
                r->line = r->next_line;
                r->next_line += newlines;
                r->pos = at + 1;
                if (commas == 0) {
                    /* a blank line (spaces at most) is not a record */
                    const unsigned char *p = r->buf + begin_at;
                    const unsigned char *e = r->buf + at;
                    while (p < e && (*p == ' ' || *p == '\t')) {
                        p++;
                    }
                    if (p == e) {
                        break;
                    }
                }
                r->block_base[blocks] = commas;
                r->blocks = blocks;
                r->cursor = 0;
                r->last_field = -1;
                r->field_count = commas >= INT32_MAX ? INT32_MAX : (int)commas + 1;
                r->record_start = begin_at;
                r->record_end = at;
                r->record_escapes = escapes != 0;
                r->unclosed_quote = r->text_after_quote = r->has_nul = false;
                r->fast = true;
                if (!field_room(r,
                                r->field_count < r->max_fields ? r->field_count : r->max_fields)) {
                    return FAST_ERROR;
                }
                new_record(r);
                return FAST_RECORD;
            }
            inside_carry = 0 - (inside >> 63);
            field_carry = (comma | close) >> 63;
            close_carry = close >> 63;
            off += 64;
            if (off - begin_at > r->max_record_bytes) {
                return FAST_NO;
            }
        }
        if (r->pos != begin_at) {
            continue; /* a blank line was skipped */
        }
        /* no line end in the bytes read */
        if (r->end - r->pos > r->max_record_bytes) {
            return FAST_NO;
        }
        int got = fill(r);
        if (got < 0) {
            return FAST_ERROR;
        }
        if (got == 0) {
            /* the last record has no line end: the byte reader's */
            return r->end == r->pos ? FAST_END : FAST_NO;
        }
    }
}

CSV_CLONES static int fast_record(csv_reader *r)
{
    return scan_record(r, classify);
}

#ifdef CSV_HAVE_AVX2
__attribute__((target("avx2,popcnt"))) static int fast_record_avx2(csv_reader *r)
{
    return scan_record(r, classify_avx2);
}
#else
#define fast_record_avx2 fast_record
#endif

/* Where field i of a fast record ends: its comma, or the line end. */
static size_t field_end(csv_reader *r, uint32_t i)
{
    if (i + 1 == (uint32_t)r->field_count) {
        return r->record_end;
    }
    /* the block of the i-th comma: fields are mostly asked for in order */
    size_t k = r->cursor;
    while (r->block_base[k] > i) {
        k--;
    }
    while (r->block_base[k + 1] <= i) {
        k++;
    }
    r->cursor = k;
    uint64_t m = r->block_commas[k];
    for (uint32_t skip = i - r->block_base[k]; skip > 0; skip--) {
        m &= m - 1;
    }
    return r->record_start + 64 * k + (size_t)__builtin_ctzll(m);
}

/* The first field-ending comma of a fast record at or after `at` (an
   offset in the record), which the caller knows is there. */
static size_t comma_from(csv_reader *r, size_t at)
{
    size_t k = at / 64;
    uint64_t m = r->block_commas[k] & (~(uint64_t)0 << (at % 64));
    while (m == 0) {
        m = r->block_commas[++k];
    }
    r->cursor = k;
    return r->record_start + 64 * k + (size_t)__builtin_ctzll(m);
}

const char *csv_field(csv_reader *r, int i)
{
    int count = r->field_count < r->max_fields ? r->field_count : r->max_fields;
    if (i < 0 || i >= count) {
        return "";
    }
    if (r->field_gen[i] == r->gen) {
        return r->fields[i];
    }
    if (!r->fast) {
        return ""; /* not reached: the byte reader sets every field */
    }
    r->field_gen[i] = r->gen;
    /* a field's start is the end of the one before: often the last asked for */
    size_t start = i == 0                   ? r->record_start
                   : r->last_field == i - 1 ? r->last_end + 1
                                            : field_end(r, (uint32_t)i - 1) + 1;
    /* and it ends at the next comma, or the line end */
    size_t stop = i + 1 == r->field_count ? r->record_end : comma_from(r, start - r->record_start);
    r->last_field = i;
    r->last_end = stop;
    char *p = (char *)r->buf + start;
    char *e = (char *)r->buf + stop;
    if (p < e && *p == '"') {
        /* quoted: the field ends with its closing quote */
        char *text = p + 1;
        char *end = e - 1;
        if (r->record_escapes) {
            char *to = text;
            for (const char *from = text; from < end; from++) {
                *to++ = *from;
                from += *from == '"'; /* "" is one quote */
            }
            end = to;
        }
        *end = '\0';
        r->fields[i] = text;
        return text;
    }
    while (p < e && (*p == ' ' || *p == '\t')) {
        p++;
    }
    while (e > p && (e[-1] == ' ' || e[-1] == '\t')) {
        e--;
    }
    *e = '\0';
    r->fields[i] = p;
    return p;
}

/* ---- any record, a byte at a time: the rules of csv.h ---- */

static inline int next_byte(csv_reader *r)
{
    if (r->pos == r->end && fill(r) <= 0) {
        return EOF;
    }
    return r->buf[r->pos++];
}

static inline int peek_byte(csv_reader *r)
{
    if (r->pos == r->end && fill(r) <= 0) {
        return EOF;
    }
    return r->buf[r->pos];
}

/* The next record, a byte at a time: where the fast path finds a record
   it must find the same fields, flags and lines as this (tests/test_ncu.c). */
static csv_status slow_record(csv_reader *r)
{
    if (r->slow == NULL && (r->slow = malloc(r->slow_cap)) == NULL) {
        set_error(r, "out of memory", "", NULL);
        return CSV_READ_ERROR;
    }
    for (;;) {
        size_t len = 0;
        size_t consumed = 0;
        int field = 0;
        bool in_quotes = false;
        bool after_quote = false;
        bool field_start = true;
        bool too_long = false;
        bool quoted0 = false;
        size_t field_begin = 0;
        size_t last_kept = 0;
        r->unclosed_quote = false;
        r->text_after_quote = false;
        r->has_nul = false;
        r->line = r->next_line;
        r->fast = false;
        new_record(r);
        const size_t room = r->slow_cap - 2;
        const int max_fields = r->max_fields;
        char *out = r->slow;
        int c;
        bool any = false;
#define PUT(ch)                                                                                    \
    do {                                                                                           \
        if (len < room) {                                                                          \
            out[len++] = (char)(ch);                                                               \
        } else {                                                                                   \
            too_long = true;                                                                       \
        }                                                                                          \
    } while (0)
#define END_FIELD(was_quoted)                                                                      \
    do {                                                                                           \
        if (field == 0) {                                                                          \
            quoted0 = (was_quoted);                                                                \
        }                                                                                          \
        PUT('\0');                                                                                 \
        if (field < max_fields) {                                                                  \
            if (!field_room(r, field + 1)) {                                                       \
                return CSV_READ_ERROR;                                                             \
            }                                                                                      \
            r->fields[field] = out + field_begin;                                                  \
            r->field_gen[field] = r->gen;                                                          \
        }                                                                                          \
        field++;                                                                                   \
    } while (0)
        for (;;) {
            c = next_byte(r);
            if (c == EOF) {
                break;
            }
            any = true;
            if (++consumed > r->runaway_bytes) {
                return CSV_RUNAWAY;
            }
            if (consumed > r->max_record_bytes) {
                too_long = true;
            }
            if (c == '\n') {
                r->next_line++;
            }
            if (in_quotes) {
                if (c == '"') {
                    if (peek_byte(r) == '"') {
                        r->pos++;
                        consumed++;
                        PUT('"');
                        last_kept = len;
                        continue;
                    }
                    in_quotes = false;
                    after_quote = true;
                    continue;
                }
                if (c == 0) {
                    r->has_nul = true;
                    PUT('\\');
                    PUT('0');
                } else {
                    PUT(c);
                }
                last_kept = len;
                continue;
            }
            if (c == ',' || c == '\n') {
                if (!after_quote) {
                    len = last_kept > field_begin ? last_kept : field_begin;
                }
                END_FIELD(after_quote);
                field_begin = len;
                last_kept = len;
                field_start = true;
                after_quote = false;
                if (c == '\n') {
                    break;
                }
                continue;
            }
            if (c == '\r' && peek_byte(r) == '\n') {
                continue; /* CRLF: the LF ends the record */
            }
            if (field_start && (c == ' ' || c == '\t')) {
                continue;
            }
            if (field_start && c == '"') {
                in_quotes = true;
                field_start = false;
                continue;
            }
            field_start = false;
            if (after_quote) {
                if (c != ' ' && c != '\t') {
                    r->text_after_quote = true;
                }
                continue;
            }
            if (c == 0) {
                r->has_nul = true;
                PUT('\\');
                PUT('0');
            } else {
                PUT(c);
            }
            if (c != ' ' && c != '\t') {
                last_kept = len;
            }
        }
        if (c == EOF && r->error[0] != '\0') {
            return CSV_READ_ERROR;
        }
        if (c == EOF) {
            if (!any) {
                return CSV_END;
            }
            r->unclosed_quote = in_quotes;
            if (!after_quote && !in_quotes) {
                len = last_kept > field_begin ? last_kept : field_begin;
            }
            END_FIELD(after_quote || in_quotes);
        }
#undef END_FIELD
#undef PUT
        if (too_long) {
            r->field_count = 0;
            return CSV_TOO_LONG;
        }
        r->field_count = field;
        if (field == 1 && r->fields[0][0] == '\0' && !quoted0 && !r->has_nul) {
            if (c == EOF) {
                return CSV_END;
            }
            continue;
        }
        return CSV_RECORD;
    }
}

csv_status csv_next(csv_reader *r)
{
    if (!begin(r)) {
        r->line = r->next_line;
        return CSV_READ_ERROR;
    }
    if (!csv_fast_path) {
        return slow_record(r);
    }
    switch (r->avx2 ? fast_record_avx2(r) : fast_record(r)) {
    case FAST_RECORD: return CSV_RECORD;
    case FAST_END: return CSV_END;
    case FAST_ERROR: return CSV_READ_ERROR;
    default: return slow_record(r);
    }
}

csv_skip csv_skip_lines(csv_reader *r, bool (*wanted)(const char *line, size_t len),
                        long long max_lines, long long max_bytes, long long *lines,
                        long long *bytes)
{
    *lines = 0;
    *bytes = 0;
    if (!begin(r)) {
        return CSV_SKIP_READ_ERROR;
    }
    for (;;) {
        /* the line's end, reading more where needed; a line longer than a
           record is no header, and is skipped as it is read */
        size_t scanned = 0;
        long long dropped = 0;
        const unsigned char *nl;
        for (;;) {
            nl = memchr(r->buf + r->pos + scanned, '\n', r->end - r->pos - scanned);
            if (nl != NULL) {
                break;
            }
            scanned = r->end - r->pos;
            if (memchr(r->buf + r->pos, '\0', scanned) != NULL) {
                r->line = r->next_line;
                return CSV_SKIP_NUL;
            }
            if (scanned > r->max_record_bytes) {
                dropped += (long long)scanned;
                r->pos = r->end;
                scanned = 0;
                if (*bytes + dropped > max_bytes) {
                    r->line = r->next_line;
                    return CSV_SKIP_LIMIT;
                }
            }
            int got = fill(r);
            if (got < 0) {
                return CSV_SKIP_READ_ERROR;
            }
            if (got == 0) {
                if (r->end == r->pos && dropped == 0) {
                    r->line = r->next_line;
                    return CSV_SKIP_END;
                }
                nl = r->buf + r->end; /* the last line, without a line end */
                break;
            }
        }
        size_t len = (size_t)(nl - (r->buf + r->pos));
        const char *line = (const char *)r->buf + r->pos;
        r->line = r->next_line;
        if (memchr(line, '\0', len) != NULL) {
            return CSV_SKIP_NUL;
        }
        if (dropped == 0 && wanted(line, len)) {
            return CSV_SKIP_FOUND;
        }
        long long line_bytes = dropped + (long long)len + 1;
        if (*lines >= max_lines || *bytes + line_bytes > max_bytes) {
            return CSV_SKIP_LIMIT;
        }
        *lines += 1;
        *bytes += line_bytes;
        r->next_line++;
        r->pos = nl < r->buf + r->end ? (size_t)(nl - r->buf) + 1 : r->end;
    }
}

/* A comma, quote or line break: what RFC 4180 quotes. */
static bool holds_special(const char *text)
{
    return strpbrk(text, ",\"\r\n") != NULL;
}

void csv_put_field(FILE *out, const char *text)
{
    size_t n = strlen(text);
    bool quote =
        holds_special(text) ||
        (n > 0 && (text[0] == ' ' || text[0] == '\t' || text[n - 1] == ' ' || text[n - 1] == '\t'));
    csv_put_field_quoted(out, text, quote);
}

void csv_put_field_rfc4180(FILE *out, const char *text)
{
    csv_put_field_quoted(out, text, holds_special(text));
}

void csv_put_field_quoted(FILE *out, const char *text, bool quote)
{
    if (!quote) {
        fputs(text, out);
        return;
    }
    fputc('"', out);
    for (const char *p = text; *p != '\0'; p++) {
        if (*p == '"') {
            fputc('"', out);
        }
        fputc(*p, out);
    }
    fputc('"', out);
}
