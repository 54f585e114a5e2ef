/*
 * explain.c - occ_calc's answer in words: each limit worked with the
 * kernel's numbers (the way the seeds work their examples), what is left
 * over, the smallest change of each input that gains residency, and the
 * caution that occupancy is not speed.
 *
 * One source of truth: every number here is a field of occ_calc's result,
 * for the kernel or for the kernel with one input changed.
 */
#include "occ_internal.h"

#define WARP 32

typedef struct explain_ctx {
    const occ_device *d;
    const occ_kernel *k;
    const occ_result *r;
    bool *truncated; /* set when any text did not fit its buffer */
} explain_ctx;

/* Starts one text of the explanation: a text that does not fit its buffer
   marks the whole explanation truncated, which occ_explain reports. */
static void text_begin(const explain_ctx *c, occ_msg *m, char *buf, size_t cap)
{
    occ__msg_begin(m, buf, cap);
    m->overflow = c->truncated;
}

static const char *resource_word(occ_limiter l)
{
    switch (l) {
    case OCC_LIMITER_WARPS: return "warp slots";
    case OCC_LIMITER_BLOCKS: return "block slots";
    case OCC_LIMITER_REGISTERS: return "registers";
    case OCC_LIMITER_SHARED_MEM: return "shared memory";
    case OCC_LIMITER_BARRIERS: return "barriers";
    }
    return "?";
}

static const occ_limiter step_order[5] = {OCC_LIMITER_WARPS, OCC_LIMITER_BLOCKS,
                                          OCC_LIMITER_REGISTERS, OCC_LIMITER_SHARED_MEM,
                                          OCC_LIMITER_BARRIERS};

static int limit_of(const occ_result *r, occ_limiter l)
{
    switch (l) {
    case OCC_LIMITER_WARPS: return r->limit_warps;
    case OCC_LIMITER_BLOCKS: return r->limit_blocks;
    case OCC_LIMITER_REGISTERS: return r->limit_registers;
    case OCC_LIMITER_SHARED_MEM: return r->limit_shared_mem;
    case OCC_LIMITER_BARRIERS: return r->limit_barriers;
    }
    return OCC_UNLIMITED;
}

/* "registers", "registers and warp slots", "registers, warp slots and ..." */
static void binding_words(occ_msg *m, unsigned limiters)
{
    int total = 0, done = 0;
    for (int i = 0; i < 5; i++) {
        total += (limiters & (unsigned)step_order[i]) != 0;
    }
    for (int i = 0; i < 5; i++) {
        if ((limiters & (unsigned)step_order[i]) == 0) {
            continue;
        }
        if (done > 0) {
            occ__msg_str(m, done == total - 1 ? " and " : ", ");
        }
        occ__msg_str(m, resource_word(step_order[i]));
        done++;
    }
    /* "shared memory binds"; the other names are plural ("registers bind") */
    occ__msg_str(m,
                 total == 1 && limiters == (unsigned)OCC_LIMITER_SHARED_MEM ? " binds" : " bind");
}

static void blocks_phrase(occ_msg *m, int blocks)
{
    if (blocks == OCC_UNLIMITED) {
        occ__msg_str(m, "no limit");
        return;
    }
    occ__msg_count(m, blocks);
    occ__msg_str(m, blocks == 1 ? " block" : " blocks");
}

/* "1 warp", "8 warps": a count and its noun. */
static void plural(occ_msg *m, long long n, const char *one, const char *many)
{
    occ__msg_count(m, n);
    occ__msg_str(m, " ");
    occ__msg_str(m, n == 1 ? one : many);
}

static void option_phrase(occ_msg *m, const occ_explain_option *o)
{
    blocks_phrase(m, o->blocks_per_sm);
    occ__msg_str(m, ", ");
    plural(m, o->warps_per_sm, "warp", "warps");
    occ__msg_str(m, " (");
    occ__msg_percent(m, o->occupancy);
    occ__msg_str(m, ")");
}

/* ---- the steps ----------------------------------------------------------- */

static void step_warps(const explain_ctx *c, occ_msg *m)
{
    const occ_result *r = c->r;
    occ__msg_str(m, "Warp slots: ");
    occ__msg_count(m, r->threads_per_block);
    occ__msg_str(m, r->threads_per_block == 1 ? " thread makes " : " threads make ");
    occ__msg_count(m, r->warps_per_block);
    occ__msg_str(m, r->warps_per_block == 1 ? " warp" : " warps");
    occ__msg_str(m, " per block; ");
    occ__msg_count(m, r->max_warps_per_sm);
    occ__msg_str(m, " warp slots per SM");
    if (r->partitioned_gc_on) {
        occ__msg_str(m, ", split in two halves by partitioned global caching,");
    }
    occ__msg_str(m, " hold ");
    blocks_phrase(m, r->limit_warps);
    occ__msg_str(m, ".");
}

static void step_blocks(const explain_ctx *c, occ_msg *m)
{
    occ__msg_str(m, "Block slots: at most ");
    occ__msg_count(m, c->d->max_blocks_per_sm);
    occ__msg_str(m, " resident blocks per SM.");
}

static void step_registers(const explain_ctx *c, occ_msg *m)
{
    const occ_device *d = c->d;
    const occ_result *r = c->r;
    int regs = c->k->regs_per_thread;
    occ__msg_str(m, "Registers: ");
    if (regs == 0) {
        occ__msg_str(m, "the kernel uses none, so they set no limit.");
        return;
    }
    occ__msg_count(m, regs);
    occ__msg_str(m, " per thread x 32 threads = ");
    occ__msg_count(m, (long long)regs * WARP);
    occ__msg_str(m, " per warp, allocated in units of ");
    occ__msg_count(m, d->reg_alloc_unit);
    occ__msg_str(m, ": ");
    occ__msg_count(m, r->regs_per_warp_allocated);
    occ__msg_str(m, ". ");
    if (r->limit_registers == 0 && r->zero_reason == OCC_ZERO_REGS_PER_BLOCK) {
        occ__msg_str(m, "A block of ");
        plural(m, r->warps_per_block, "warp", "warps");
        occ__msg_str(m, " needs ");
        occ__msg_count(m, r->regs_per_block_allocated);
        occ__msg_str(m, " (counted over whole sub-partitions), more than the ");
        occ__msg_count(m, d->regs_per_block);
        occ__msg_str(m, " one block may hold: the launch fails.");
        return;
    }
    int per_sub = d->regs_per_sm / d->sub_partitions_per_sm;
    occ__msg_str(m, "The ");
    occ__msg_count(m, d->regs_per_sm);
    occ__msg_str(m, "-register file is split over ");
    occ__msg_int(m, d->sub_partitions_per_sm);
    occ__msg_str(m, " sub-partitions of ");
    occ__msg_count(m, per_sub);
    occ__msg_str(m, ": ");
    plural(m, r->warps_per_sm_by_regs / d->sub_partitions_per_sm, "warp", "warps");
    occ__msg_str(m, " each, ");
    plural(m, r->warps_per_sm_by_regs, "warp", "warps");
    occ__msg_str(m, " per SM; ");
    occ__msg_count(m, r->warps_per_sm_by_regs);
    occ__msg_str(m, " / ");
    plural(m, r->warps_per_block, "warp", "warps");
    occ__msg_str(m, " per block");
    if (r->partitioned_gc_on) {
        occ__msg_str(m, ", placed per half SM (partitioned global caching),");
    }
    occ__msg_str(m, " = ");
    blocks_phrase(m, r->limit_registers);
    occ__msg_str(m, ".");
}

static void carveout_reason(const explain_ctx *c, occ_msg *m)
{
    const occ_device *d = c->d;
    const occ_kernel *k = c->k;
    const occ_result *r = c->r;
    if (d->carveout_step_count == 0) {
        occ__msg_str(m, "the fixed shared memory of this GPU");
    } else if (k->smem_config_bytes > 0) {
        occ__msg_str(m, "the configuration given for the launch");
    } else if (r->smem_per_sm_bytes != r->smem_preferred_bytes) {
        occ__msg_str(m, "the preference of ");
        occ__msg_count(m, r->smem_preferred_bytes);
        occ__msg_str(m, " cannot hold one block, so the driver takes the smallest carveout "
                        "step that does");
    } else if (k->carveout_percent == OCC_CARVEOUT_DEFAULT) {
        occ__msg_str(m, "with no carveout preference the occupancy API assumes the largest");
    } else {
        occ__msg_str(m, "the ");
        occ__msg_int(m, k->carveout_percent);
        occ__msg_str(m, "% preference, rounded up to a carveout step");
    }
}

static void step_shared_mem(const explain_ctx *c, occ_msg *m)
{
    const occ_device *d = c->d;
    const occ_kernel *k = c->k;
    const occ_result *r = c->r;
    occ__msg_str(m, "Shared memory: ");
    occ__msg_count(m, k->static_smem_bytes);
    occ__msg_str(m, " static + ");
    occ__msg_count(m, k->dyn_smem_bytes);
    occ__msg_str(m, " dynamic");
    if (d->smem_reserved_per_block_bytes > 0) {
        occ__msg_str(m, " + ");
        occ__msg_count(m, d->smem_reserved_per_block_bytes);
        occ__msg_str(m, " reserved by the driver");
    }
    occ__msg_str(m, ", allocated in units of ");
    occ__msg_count(m, d->smem_alloc_unit_bytes);
    occ__msg_str(m, ": ");
    occ__msg_count(m, r->smem_per_block_allocated_bytes);
    occ__msg_str(m, " bytes per block. ");
    if (r->zero_reason == OCC_ZERO_SMEM_PER_BLOCK || r->zero_reason == OCC_ZERO_DYN_SMEM_OPTIN) {
        occ__msg_str(m, occ_zero_reason_text(r->zero_reason));
        occ__msg_str(m, " (at most ");
        occ__msg_count(m, r->smem_per_block_limit_bytes);
        occ__msg_str(m, " bytes per block here): the launch fails.");
        return;
    }
    occ__msg_str(m, "The SM's shared memory is ");
    occ__msg_count(m, r->smem_per_sm_bytes);
    occ__msg_str(m, " bytes (");
    carveout_reason(c, m);
    occ__msg_str(m, "); ");
    occ__msg_count(m, r->smem_per_sm_bytes);
    occ__msg_str(m, " / ");
    occ__msg_count(m, r->smem_per_block_allocated_bytes);
    occ__msg_str(m, " = ");
    blocks_phrase(m, r->limit_shared_mem);
    occ__msg_str(m, ".");
    if (r->needs_optin) {
        occ__msg_str(m, " Above the default per-block limit of ");
        occ__msg_count(m, d->smem_per_block_bytes);
        occ__msg_str(m, " bytes, the kernel must opt in with "
                        "cudaFuncAttributeMaxDynamicSharedMemorySize.");
    }
}

static void step_barriers(const explain_ctx *c, occ_msg *m)
{
    const occ_device *d = c->d;
    occ__msg_str(m, "Barriers: ");
    if (d->barriers_per_block_slot == 0) {
        occ__msg_str(m, "they do not limit residency on this GPU (only from sm_90 on).");
        return;
    }
    if (c->k->barriers == 0) {
        occ__msg_str(m, "the kernel uses none, so they set no limit.");
        return;
    }
    occ__msg_count(m, d->max_blocks_per_sm);
    occ__msg_str(m, " block slots x ");
    occ__msg_int(m, d->barriers_per_block_slot);
    occ__msg_str(m, " = ");
    occ__msg_count(m, (long long)d->max_blocks_per_sm * d->barriers_per_block_slot);
    occ__msg_str(m, " barriers per SM / ");
    occ__msg_int(m, c->k->barriers);
    occ__msg_str(m, " per block = ");
    blocks_phrase(m, c->r->limit_barriers);
    occ__msg_str(m, ".");
}

/* ---- waste ---------------------------------------------------------------- */

static void fill_waste(const explain_ctx *c, occ_explanation *e)
{
    const occ_device *d = c->d;
    const occ_kernel *k = c->k;
    const occ_result *r = c->r;
    int blocks = r->blocks_per_sm;
    e->regs_unallocated_per_sm =
        k->regs_per_thread > 0 ? d->regs_per_sm - blocks * r->regs_per_block_allocated : 0;
    e->regs_rounding_per_warp =
        k->regs_per_thread > 0 ? r->regs_per_warp_allocated - k->regs_per_thread * WARP : 0;
    e->smem_unused_per_sm_bytes = r->smem_per_sm_bytes - blocks * r->smem_per_block_allocated_bytes;
    if (e->smem_unused_per_sm_bytes < 0) {
        e->smem_unused_per_sm_bytes = 0;
    }
    e->warp_slots_unused = r->max_warps_per_sm - r->warps_per_sm;
    e->warp_slots_stranded = 0;
    if ((r->limiters & OCC_LIMITER_WARPS) != 0 && r->partitioned_gc_on == false) {
        e->warp_slots_stranded = r->max_warps_per_sm - r->limit_warps * r->warps_per_block;
    }
    e->idle_lanes_per_block = r->warps_per_block * WARP - r->threads_per_block;

    occ_msg m;
    text_begin(c, &m, e->waste, sizeof e->waste);
    if (blocks == 0) {
        occ__msg_str(&m, "No block is resident, so every resource of the SM stays idle.");
        return;
    }
    occ__msg_count(&m, e->warp_slots_unused);
    occ__msg_str(&m, " of ");
    occ__msg_count(&m, r->max_warps_per_sm);
    occ__msg_str(&m, " warp slots stay empty");
    if (e->warp_slots_stranded > 0) {
        occ__msg_str(&m, ", stranded by block granularity: blocks of ");
        plural(&m, r->warps_per_block, "warp", "warps");
        occ__msg_str(&m, " fit ");
        occ__msg_count(&m, r->limit_warps);
        occ__msg_str(&m, r->limit_warps == 1 ? " time" : " times");
        occ__msg_str(&m, " and one more would need ");
        occ__msg_count(&m, (r->limit_warps + 1) * r->warps_per_block);
    }
    occ__msg_str(&m, ".");
    if (k->regs_per_thread > 0) {
        occ__msg_str(&m, " Registers: ");
        occ__msg_count(&m, blocks * r->regs_per_block_allocated);
        occ__msg_str(&m, " of ");
        occ__msg_count(&m, d->regs_per_sm);
        occ__msg_str(&m, " allocated, ");
        occ__msg_count(&m, e->regs_unallocated_per_sm);
        occ__msg_str(&m, " left");
        if (e->regs_unallocated_per_sm > 0 && (r->limiters & OCC_LIMITER_REGISTERS) != 0) {
            occ__msg_str(&m, ", too few for another block of ");
            occ__msg_count(&m, r->regs_per_block_allocated);
        }
        if (e->regs_rounding_per_warp > 0) {
            occ__msg_str(&m, "; rounding adds ");
            occ__msg_count(&m, e->regs_rounding_per_warp);
            occ__msg_str(&m, " per warp");
        }
        occ__msg_str(&m, ".");
    }
    if (k->static_smem_bytes + k->dyn_smem_bytes > 0) {
        occ__msg_str(&m, " Shared memory: ");
        occ__msg_count(&m, blocks * r->smem_per_block_allocated_bytes);
        occ__msg_str(&m, " of ");
        occ__msg_count(&m, r->smem_per_sm_bytes);
        occ__msg_str(&m, " bytes used, ");
        occ__msg_count(&m, e->smem_unused_per_sm_bytes);
        occ__msg_str(&m, " unused");
        if ((r->limiters & OCC_LIMITER_SHARED_MEM) != 0) {
            occ__msg_str(&m, ", less than another block's ");
            occ__msg_count(&m, r->smem_per_block_allocated_bytes);
        }
        occ__msg_str(&m, ".");
    }
    if (e->idle_lanes_per_block > 0) {
        occ__msg_str(&m, " Each block's last warp has ");
        occ__msg_int(&m, e->idle_lanes_per_block);
        occ__msg_str(&m, " of 32 lanes idle: warps are scheduled whole.");
    }
}

/* ---- changes -------------------------------------------------------------- */

static occ_explain_option option_of(const occ_device *d, const occ_kernel *k, int value)
{
    occ_result r;
    occ__calc_unchecked(d, k, &r);
    occ_explain_option o = {value, r.blocks_per_sm, r.warps_per_sm, r.occupancy};
    return o;
}

/* Registers and barriers: scan down from the current value. */
static void change_by_scan(const explain_ctx *c, occ_explain_change *ch)
{
    int cur = ch->current_value;
    int blocks = c->r->blocks_per_sm;
    for (int v = cur - 1; v >= 0; v--) {
        occ_kernel kv = occ__kernel_with(c->k, ch->input, v);
        occ_explain_option o = option_of(c->d, &kv, v);
        if (!ch->helps && o.blocks_per_sm > blocks) {
            ch->helps = true;
            ch->next = o;
        }
        if (ch->helps && o.blocks_per_sm > ch->best.blocks_per_sm) {
            ch->best = o;
        }
    }
}

/* Shared memory: residency never grows with the bytes per block, so binary
   search for the largest size that still gives more than `than` blocks. */
static int largest_smem_with_more(const explain_ctx *c, int below, int than)
{
    int lo = 0, hi = below - 1, found = -1;
    while (lo <= hi) {
        int mid = lo + (hi - lo) / 2;
        occ_kernel kv = occ__kernel_with(c->k, OCC_SWEEP_SMEM, mid);
        occ_explain_option o = option_of(c->d, &kv, mid);
        if (o.blocks_per_sm > than) {
            found = mid;
            lo = mid + 1;
        } else {
            hi = mid - 1;
        }
    }
    return found;
}

static void change_smem(const explain_ctx *c, occ_explain_change *ch)
{
    int blocks = c->r->blocks_per_sm;
    int next = largest_smem_with_more(c, ch->current_value, blocks);
    if (next < 0) {
        return;
    }
    occ_kernel kn = occ__kernel_with(c->k, OCC_SWEEP_SMEM, next);
    ch->helps = true;
    ch->next = option_of(c->d, &kn, next);
    occ_kernel k0 = occ__kernel_with(c->k, OCC_SWEEP_SMEM, 0);
    occ_explain_option at_zero = option_of(c->d, &k0, 0);
    int best = largest_smem_with_more(c, next + 1, at_zero.blocks_per_sm - 1);
    occ_kernel kb = occ__kernel_with(c->k, OCC_SWEEP_SMEM, best);
    ch->best = option_of(c->d, &kb, best);
}

/* Block size: the whole-warp sizes nearest the current one that give more
   resident warps, and the most any size gives. */
static void change_threads(const explain_ctx *c, occ_explain_change *ch)
{
    int cur = ch->current_value;
    int warps = c->r->warps_per_sm;
    int best_distance = -1, next_distance = -1;
    int max_warps = warps;
    for (int t = WARP; t <= c->d->max_threads_per_block; t += WARP) {
        occ_kernel kv = occ__kernel_with(c->k, OCC_SWEEP_THREADS, t);
        occ_explain_option o = option_of(c->d, &kv, t);
        max_warps = o.warps_per_sm > max_warps ? o.warps_per_sm : max_warps;
    }
    if (max_warps == warps) {
        return;
    }
    for (int t = WARP; t <= c->d->max_threads_per_block; t += WARP) {
        occ_kernel kv = occ__kernel_with(c->k, OCC_SWEEP_THREADS, t);
        occ_explain_option o = option_of(c->d, &kv, t);
        int distance = t > cur ? t - cur : cur - t;
        if (o.warps_per_sm > warps && (next_distance < 0 || distance < next_distance)) {
            next_distance = distance;
            ch->next = o;
        }
        if (o.warps_per_sm == max_warps && (best_distance < 0 || distance < best_distance)) {
            best_distance = distance;
            ch->best = o;
        }
    }
    ch->helps = true;
}

static void change_text(const explain_ctx *c, occ_explain_change *ch, int limit_alone)
{
    occ_msg m;
    text_begin(c, &m, ch->text, sizeof ch->text);
    static const char *const names[4] = {"Registers", "Shared memory", "Block size", "Barriers"};
    occ__msg_str(&m, names[ch->input]);
    occ__msg_str(&m, ": ");
    if (!ch->helps) {
        switch (ch->input) {
        case OCC_SWEEP_REGS: occ__msg_str(&m, "fewer registers change nothing"); break;
        case OCC_SWEEP_SMEM: occ__msg_str(&m, "less shared memory changes nothing"); break;
        case OCC_SWEEP_THREADS:
            occ__msg_str(&m, "no other block size gives more resident warps");
            break;
        case OCC_SWEEP_BARRIERS: occ__msg_str(&m, "fewer barriers change nothing"); break;
        }
        if (ch->input != OCC_SWEEP_THREADS && c->r->limiters != 0) {
            occ__msg_str(&m, " while ");
            binding_words(&m,
                          c->r->limiters &
                              ~(ch->input == OCC_SWEEP_REGS   ? (unsigned)OCC_LIMITER_REGISTERS
                                : ch->input == OCC_SWEEP_SMEM ? (unsigned)OCC_LIMITER_SHARED_MEM
                                                              : (unsigned)OCC_LIMITER_BARRIERS));
            if (limit_alone != OCC_UNLIMITED) {
                occ__msg_str(&m, " (");
                occ__msg_str(&m, ch->input == OCC_SWEEP_REGS   ? "registers"
                                 : ch->input == OCC_SWEEP_SMEM ? "shared memory"
                                                               : "barriers");
                occ__msg_str(&m, ch->input == OCC_SWEEP_SMEM ? " alone allows " : " alone allow ");
                blocks_phrase(&m, limit_alone);
                occ__msg_str(&m, ")");
            }
        }
        occ__msg_str(&m, ".");
        return;
    }
    const occ_explain_option *opts[2] = {&ch->next, &ch->best};
    int n = ch->best.value == ch->next.value ? 1 : 2;
    for (int i = 0; i < n; i++) {
        const occ_explain_option *o = opts[i];
        if (i > 0) {
            occ__msg_str(&m, "; ");
        }
        switch (ch->input) {
        case OCC_SWEEP_REGS:
            occ__msg_int(&m, o->value);
            occ__msg_str(&m, " per thread or fewer");
            break;
        case OCC_SWEEP_SMEM:
            occ__msg_str(&m, "at most ");
            occ__msg_count(&m, o->value);
            occ__msg_str(&m, " bytes per block (static + dynamic)");
            break;
        case OCC_SWEEP_THREADS:
            plural(&m, o->value, "thread", "threads");
            occ__msg_str(&m, " per block");
            break;
        case OCC_SWEEP_BARRIERS:
            occ__msg_int(&m, o->value);
            occ__msg_str(&m, o->value == 1 ? " barrier or fewer" : " barriers or fewer");
            break;
        }
        occ__msg_str(&m, ": ");
        option_phrase(&m, o);
    }
    occ__msg_str(&m, ".");
}

static void fill_changes(const explain_ctx *c, occ_explanation *e)
{
    e->change_count = 0;
    const occ_sweep_axis inputs[4] = {OCC_SWEEP_REGS, OCC_SWEEP_SMEM, OCC_SWEEP_THREADS,
                                      OCC_SWEEP_BARRIERS};
    const occ_limiter own[4] = {OCC_LIMITER_REGISTERS, OCC_LIMITER_SHARED_MEM, OCC_LIMITER_WARPS,
                                OCC_LIMITER_BARRIERS};
    for (int i = 0; i < 4; i++) {
        occ_explain_change *ch = &e->changes[e->change_count];
        ch->input = inputs[i];
        if (inputs[i] == OCC_SWEEP_SMEM) {
            ch->current_value = c->k->static_smem_bytes + c->k->dyn_smem_bytes;
        } else {
            /* the kernel passed occ_calc already, so this cannot fail */
            occ_sweep_current_value(c->d, c->k, inputs[i], &ch->current_value, NULL);
        }
        ch->helps = false;
        ch->next = option_of(c->d, c->k, ch->current_value);
        ch->best = ch->next;
        if (inputs[i] == OCC_SWEEP_BARRIERS && c->d->barriers_per_block_slot == 0) {
            continue; /* barriers never limit here: nothing to say */
        }
        switch (inputs[i]) {
        case OCC_SWEEP_REGS:
        case OCC_SWEEP_BARRIERS: change_by_scan(c, ch); break;
        case OCC_SWEEP_SMEM: change_smem(c, ch); break;
        case OCC_SWEEP_THREADS: change_threads(c, ch); break;
        }
        change_text(c, ch, limit_of(c->r, own[i]));
        e->change_count++;
    }
}

/* ---- the whole ------------------------------------------------------------ */

static void fill_summary(const explain_ctx *c, occ_explanation *e)
{
    const occ_result *r = c->r;
    occ_msg m;
    text_begin(c, &m, e->summary, sizeof e->summary);
    if (r->blocks_per_sm == 0) {
        occ__msg_str(&m, "No block can be resident: ");
        occ__msg_str(&m, occ_zero_reason_text(r->zero_reason));
        occ__msg_str(&m, ".");
        return;
    }
    blocks_phrase(&m, r->blocks_per_sm);
    occ__msg_str(&m, " of ");
    occ__msg_count(&m, r->warps_per_block);
    occ__msg_str(&m, r->warps_per_block == 1 ? " warp = " : " warps = ");
    occ__msg_count(&m, r->warps_per_sm);
    occ__msg_str(&m, " of ");
    occ__msg_count(&m, r->max_warps_per_sm);
    occ__msg_str(&m, " warps per SM: ");
    occ__msg_percent(&m, r->occupancy);
    occ__msg_str(&m, " occupancy. ");
    size_t start = m.len;
    binding_words(&m, r->limiters);
    if (m.len > start && m.buf[start] >= 'a' && m.buf[start] <= 'z') {
        m.buf[start] = (char)(m.buf[start] - 'a' + 'A'); /* a sentence starts here */
    }
    occ__msg_str(&m, ".");
    if (r->exceeds_launch_bounds) {
        occ__msg_str(&m, " The block exceeds the kernel's __launch_bounds__ of ");
        plural(&m, c->k->max_threads_per_block, "thread", "threads");
        occ__msg_str(&m, ": the launch fails (the occupancy API answers anyway).");
    }
}

static void fill_caution(const explain_ctx *c, occ_explanation *e)
{
    occ_msg m;
    text_begin(c, &m, e->caution, sizeof e->caution);
    occ__msg_str(&m, "Occupancy is not speed. Resident warps hide latency only while the kernel "
                     "waits on memory and has too few independent loads in flight; a kernel that "
                     "is compute-bound, or that keeps enough loads in flight per thread (ILP), "
                     "gains nothing from more warps (occ latency estimates how many it needs).");
    if (e->change_count > 0 && e->changes[0].input == OCC_SWEEP_REGS && e->changes[0].helps) {
        occ__msg_str(&m, " Forcing registers down (__launch_bounds__, -maxrregcount) can make "
                         "ptxas spill to local memory, and spills can cost more than the "
                         "extra warps buy: check ptxas -v for spill stores and measure.");
    }
}

occ_status occ_explain(const occ_device *d, const occ_kernel *k, occ_explanation *e, occ_error *err)
{
    if (e == NULL) {
        return occ__fail(err, OCC_ERR_NULL_POINTER, "explanation", "out is NULL");
    }
    occ_status st = occ_calc(d, k, &e->result, err);
    if (st != OCC_OK) {
        return st;
    }
    bool truncated = false;
    explain_ctx c = {d, k, &e->result, &truncated};
    fill_summary(&c, e);
    e->step_count = 5;
    for (int i = 0; i < 5; i++) {
        occ_explain_step *s = &e->steps[i];
        s->resource = step_order[i];
        s->limit_blocks = limit_of(&e->result, step_order[i]);
        s->binds = (e->result.limiters & (unsigned)step_order[i]) != 0;
        occ_msg m;
        text_begin(&c, &m, s->text, sizeof s->text);
        switch (step_order[i]) {
        case OCC_LIMITER_WARPS: step_warps(&c, &m); break;
        case OCC_LIMITER_BLOCKS: step_blocks(&c, &m); break;
        case OCC_LIMITER_REGISTERS: step_registers(&c, &m); break;
        case OCC_LIMITER_SHARED_MEM: step_shared_mem(&c, &m); break;
        case OCC_LIMITER_BARRIERS: step_barriers(&c, &m); break;
        }
    }
    fill_waste(&c, e);
    fill_changes(&c, e);
    fill_caution(&c, e);
    if (truncated) {
        return occ__fail(err, OCC_ERR_TEXT_TRUNCATED, "explanation",
                         "a text of the explanation is longer than OCC_EXPLAIN_TEXT_BYTES "
                         "and was cut");
    }
    return OCC_OK;
}

/* The headings of the whole text, as `occ explain` prints them. */
static const char heading_steps[] = "\n\nHow each resource limits the blocks per SM (* binds)\n";
static const char heading_waste[] = "\nWhat is left over\n";
static const char heading_changes[] = "\n\nWhat would change it\n";
static const char heading_caution[] = "\nDoes it matter?\n";

#define FIELD_BYTES(field) sizeof(((occ_explanation *)0)->field)
/* Every text at its longest (its buffer less the NUL), each bullet's "- " and
   newline, the headings, the final newline and the NUL. */
#define EXPLAIN_TEXT_BOUND                                                                         \
    (FIELD_BYTES(summary) - 1 + sizeof heading_steps - 1 +                                         \
     5 * (2 + FIELD_BYTES(steps[0].text) - 1 + 1) + sizeof heading_waste - 1 +                     \
     FIELD_BYTES(waste) - 1 + sizeof heading_changes - 1 +                                         \
     4 * (2 + FIELD_BYTES(changes[0].text) - 1 + 1) + sizeof heading_caution - 1 +                 \
     FIELD_BYTES(caution) - 1 + 1 + 1)
_Static_assert(OCC_EXPLAIN_TEXT_MAX >= EXPLAIN_TEXT_BOUND,
               "OCC_EXPLAIN_TEXT_MAX must hold the longest explanation text");
_Static_assert(sizeof(((occ_explanation *)0)->steps) / sizeof(occ_explain_step) == 5 &&
                   sizeof(((occ_explanation *)0)->changes) / sizeof(occ_explain_change) == 4,
               "EXPLAIN_TEXT_BOUND counts 5 steps and 4 changes");

size_t occ_explain_text(const occ_device *d, const occ_kernel *k, char *buf, size_t cap,
                        occ_error *err)
{
    occ_explanation e;
    if (buf == NULL || cap == 0) {
        occ__fail(err, OCC_ERR_NULL_POINTER, "buf", "the text buffer is NULL or empty");
        return 0;
    }
    buf[0] = '\0';
    if (occ_explain(d, k, &e, err) != OCC_OK) {
        return 0;
    }
    occ_msg m;
    occ__msg_begin(&m, buf, cap);
    occ__msg_str(&m, e.summary);
    occ__msg_str(&m, heading_steps);
    for (int i = 0; i < e.step_count; i++) {
        occ__msg_str(&m, e.steps[i].binds ? "* " : "- ");
        occ__msg_str(&m, e.steps[i].text);
        occ__msg_str(&m, "\n");
    }
    occ__msg_str(&m, heading_waste);
    occ__msg_str(&m, e.waste);
    occ__msg_str(&m, heading_changes);
    for (int i = 0; i < e.change_count; i++) {
        occ__msg_str(&m, "- ");
        occ__msg_str(&m, e.changes[i].text);
        occ__msg_str(&m, "\n");
    }
    occ__msg_str(&m, heading_caution);
    occ__msg_str(&m, e.caution);
    occ__msg_str(&m, "\n");
    if (m.truncated) {
        occ__fail(err, OCC_ERR_TEXT_TRUNCATED, "buf",
                  "the text buffer is smaller than the explanation; pass OCC_EXPLAIN_TEXT_MAX "
                  "bytes");
        return 0;
    }
    return m.len;
}
