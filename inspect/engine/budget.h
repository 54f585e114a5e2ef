/*
 * budget.h - the reading budget of the whole process (budget.c): what
 * libocc-inspect holds in bulk while it reads (copies of streams, buffers
 * of large decompressed entries) is counted once for every read under way,
 * so that two reads at once (occ diff's two sides, a program's threads)
 * share OCC_INSPECT_MEMORY_BUDGET_BYTES rather than take it each.
 * Internal: the limits are documented in include/occ_inspect.h.
 */
#ifndef OCC_INSPECT_BUDGET_H
#define OCC_INSPECT_BUDGET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Large buffers of decompressed entries held at once, in all, by every
   read of the process (entry_read.c's comment gives the measurements). A build
   may set another (-D). */
#ifndef OCC_LARGE_SCRATCH_BUDGET_MB
#define OCC_LARGE_SCRATCH_BUDGET_MB 128
#endif
#define INSP_POOL_BUDGET_BYTES ((size_t)OCC_LARGE_SCRATCH_BUDGET_MB << 20)

/* What the stream copies of the process hold now (for messages). */
size_t insp_budget_stream_bytes(void);

/* Takes `bytes` more for a stream copy: false where every stream of the
   process would then hold more than OCC_INSPECT_MAX_STREAM_BYTES, or the
   streams and the large buffers more than OCC_INSPECT_MEMORY_BUDGET_BYTES
   (it waits for large buffers in use to be given back first; unused ones
   are freed). */
bool insp_budget_stream_take(size_t bytes);
void insp_budget_stream_give(size_t bytes);

#define INSP_POOL_OUT_OF_MEMORY (-1)
#define INSP_POOL_BUSY (-2)
#define INSP_POOL_OVER_BUDGET (-3)

/*
 * A buffer of at least `bytes` for one large entry from the pool the whole
 * process shares: an unused one if one is big enough, else a new one once
 * the budget allows (at once if no other is in use and no stream is held:
 * an entry larger than the budget still gets read). Returns the pool index
 * and the buffer in *data, *capacity; INSP_POOL_OUT_OF_MEMORY;
 * INSP_POOL_BUSY where it would have to wait and `wait` is false; or
 * INSP_POOL_OVER_BUDGET where nothing is in use and the streams held leave
 * too little for it. *waited grows by the seconds spent waiting.
 */
int insp_pool_acquire(size_t bytes, bool wait, double *waited, uint8_t **data, size_t *capacity);
void insp_pool_release(int index);

/* Frees the unused buffers of the pool (at the end of a read's rounds). */
void insp_pool_trim(void);

#endif /* OCC_INSPECT_BUDGET_H */
