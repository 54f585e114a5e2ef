/*
 * calc_text.c - `occ calc`'s human output: Nsight Compute's occupancy rows
 * and a paragraph on what binds, worked with this kernel's numbers.
 */
#include <string.h>

#include "calc_output.h"
#include "output.h"

static const char *percent(double fraction, char *buf, size_t cap)
{
    snprintf(buf, cap, "%.1f", fraction * 100.0);
    size_t len = strlen(buf);
    if (len > 2 && strcmp(buf + len - 2, ".0") == 0) {
        buf[len - 2] = '\0';
    }
    strncat(buf, "%", cap - strlen(buf) - 1);
    return buf;
}

/* "1 block", "4 blocks" */
static const char *blocks(int n)
{
    return n == 1 ? "block" : "blocks";
}

static const char *limit_text(int limit, char *buf, size_t cap)
{
    if (limit == OCC_UNLIMITED) {
        snprintf(buf, cap, "-");
    } else {
        snprintf(buf, cap, "%d", limit);
    }
    return buf;
}

static const occ_limiter order[] = {OCC_LIMITER_REGISTERS, OCC_LIMITER_SHARED_MEM,
                                    OCC_LIMITER_WARPS, OCC_LIMITER_BLOCKS, OCC_LIMITER_BARRIERS};

static int limit_of(const occ_result *r, occ_limiter which)
{
    switch (which) {
    case OCC_LIMITER_WARPS: return r->limit_warps;
    case OCC_LIMITER_REGISTERS: return r->limit_registers;
    case OCC_LIMITER_SHARED_MEM: return r->limit_shared_mem;
    case OCC_LIMITER_BLOCKS: return r->limit_blocks;
    case OCC_LIMITER_BARRIERS: return r->limit_barriers;
    }
    return 0;
}

/* One sentence of arithmetic for a binding limit. */
static void explain_limit(FILE *out, const occ_device *d, const occ_kernel *k, const occ_result *r,
                          occ_limiter which)
{
    char a[32];
    char b[32];
    switch (which) {
    case OCC_LIMITER_REGISTERS:
        cli_print_wrappedf(out, 2,
                           "- registers: each warp is allocated %s registers (%d per thread x %d "
                           "threads, in units of %d); each of the %d sub-partitions holds %s "
                           "registers, so the SM holds %d warps: %d whole %s of %d warps.",
                           group_digits(r->regs_per_warp_allocated, a, sizeof a),
                           k->regs_per_thread, d->warp_size_threads, d->reg_alloc_unit,
                           d->sub_partitions_per_sm,
                           group_digits(d->regs_per_sm / d->sub_partitions_per_sm, b, sizeof b),
                           r->warps_per_sm_by_regs, r->limit_registers, blocks(r->limit_registers),
                           r->warps_per_block);
        break;
    case OCC_LIMITER_SHARED_MEM:
        cli_print_wrappedf(out, 2,
                           "- shared memory: each block is allocated %s (%d static + %d dynamic + "
                           "%d reserved bytes, in units of %d); the SM is configured with %s, "
                           "room for %d %s.",
                           cli_format_bytes(r->smem_per_block_allocated_bytes, a, sizeof a),
                           k->static_smem_bytes, k->dyn_smem_bytes,
                           d->smem_reserved_per_block_bytes, d->smem_alloc_unit_bytes,
                           cli_format_bytes(r->smem_per_sm_bytes, b, sizeof b), r->limit_shared_mem,
                           blocks(r->limit_shared_mem));
        break;
    case OCC_LIMITER_WARPS:
        cli_print_wrappedf(out, 2,
                           "- warp slots: each block takes %d warps (%d threads); the SM's %d "
                           "warp slots hold %d whole %s.",
                           r->warps_per_block, r->threads_per_block, r->max_warps_per_sm,
                           r->limit_warps, blocks(r->limit_warps));
        break;
    case OCC_LIMITER_BLOCKS:
        cli_print_wrappedf(out, 2,
                           "- block slots: the SM holds at most %d resident blocks whatever "
                           "their size; at %d warps per block that is %d warps.",
                           d->max_blocks_per_sm, r->warps_per_block,
                           d->max_blocks_per_sm * r->warps_per_block);
        break;
    case OCC_LIMITER_BARRIERS:
        cli_print_wrappedf(out, 2,
                           "- barriers: the SM has %d block barriers (%d per block slot); at %d "
                           "per block, %d %s fit.",
                           d->max_blocks_per_sm * d->barriers_per_block_slot,
                           d->barriers_per_block_slot, k->barriers, r->limit_barriers,
                           blocks(r->limit_barriers));
        break;
    }
}

void calc_print_optin_note(FILE *out, const occ_device *d, const occ_kernel *k, const occ_result *r)
{
    char a[32];
    char b[32];
    long long largest_dyn = (long long)d->smem_per_block_optin_bytes - k->static_smem_bytes;
    if (!r->needs_optin) {
        return;
    }
    if (k->dyn_smem_bytes <= largest_dyn) {
        cli_print_wrappedf(out, 0,
                           "Note: more than %s of shared memory per block needs "
                           "cudaFuncSetAttribute(kernel, "
                           "cudaFuncAttributeMaxDynamicSharedMemorySize, %d) before the launch.",
                           cli_format_bytes(d->smem_per_block_bytes, a, sizeof a),
                           k->dyn_smem_bytes);
    } else {
        cli_print_wrappedf(
            out, 0,
            "Note: %s of static and dynamic shared memory is more than any block "
            "may have on %s (%s with the opt-in), so no attribute makes this "
            "launch possible: at most %lld bytes of dynamic shared memory fit "
            "beside the %d static.",
            cli_format_bytes((long long)k->static_smem_bytes + k->dyn_smem_bytes, a, sizeof a),
            d->name, cli_format_bytes(d->smem_per_block_optin_bytes, b, sizeof b),
            largest_dyn > 0 ? largest_dyn : 0, k->static_smem_bytes);
    }
}

/* The configuration the driver is predicted to choose at launch, which
   Nsight's Block Limit Shared Mem uses, and the L1 it leaves. Not printed
   when --smem-config gave the configuration. */
static void print_launch_config(FILE *out, const occ_device *d, const occ_kernel *k,
                                const occ_result *r)
{
    occ_smem_config_result c;
    if (d->carveout_step_count == 0 || k->smem_config_bytes > 0 ||
        occ_launch_smem_config(d, k, OCC_CACHE_PREFER_NONE, &c, NULL) != OCC_OK) {
        return;
    }
    char a[32];
    char b[32];
    char why[160];
    switch (c.rule) {
    case OCC_SMEM_CONFIG_TWICE:
        snprintf(why, sizeof why,
                 "twice the %s its %d resident blocks take, capped at half of %s and rounded "
                 "up to a step",
                 cli_format_bytes(c.resident_bytes, a, sizeof a), r->blocks_per_sm,
                 cli_format_bytes(d->smem_per_sm_bytes, b, sizeof b));
        break;
    case OCC_SMEM_CONFIG_NO_SMEM:
        snprintf(why, sizeof why,
                 "a kernel without shared memory of its own, sized for %d blocks: 4 x the %d "
                 "its warps allow, within the block and barrier slots",
                 c.sized_blocks, r->limit_warps);
        break;
    case OCC_SMEM_CONFIG_CARVEOUT:
        snprintf(why, sizeof why, "the %d%% preference as the driver applies it",
                 k->carveout_percent);
        break;
    default:
        snprintf(why, sizeof why, "the smallest step that holds the %d resident %s",
                 r->blocks_per_sm, blocks(r->blocks_per_sm));
        break;
    }
    char l1[96] = "";
    if (c.unified_cache_bytes > 0) {
        char u[32];
        snprintf(l1, sizeof l1, ", leaving %s of the SM's %s for L1",
                 cli_format_bytes(c.l1_bytes, a, sizeof a),
                 cli_format_bytes(c.unified_cache_bytes, u, sizeof u));
    }
    char limit[32];
    char occupancy[96] = "";
    if (c.blocks_per_sm != r->blocks_per_sm) {
        snprintf(occupancy, sizeof occupancy,
                 "; Nsight's theoretical occupancy is then %d blocks per SM", c.blocks_per_sm);
    }
    cli_print_wrappedf(out, 0,
                       "At launch the driver configures %s (%s; %s)%s. "
                       "Nsight's Block Limit Shared Mem there: %s%s. --smem-config takes "
                       "Nsight's Shared Memory Configuration Size where it differs.",
                       cli_format_bytes(c.config_bytes, b, sizeof b), why,
                       c.measured ? "the rule measured on an H200"
                                  : "a prediction: the rule was measured on an H200 only",
                       l1, limit_text(c.limit_shared_mem, limit, sizeof limit), occupancy);
}

void calc_print_text(FILE *out, const occ_device *d, const occ_kernel *k, const occ_result *r)
{
    char arch[16];
    char a[32];
    char b[32];
    char c[32];
    occ_arch_name(d->cc_major, d->cc_minor, arch, sizeof arch);
    bool generic = strcmp(d->name, arch) == 0;
    fprintf(out, "%s%s%s%s: %d threads per block (%d warps), %d registers per thread,\n", d->name,
            generic ? "" : " (", generic ? "" : arch, generic ? "" : ")", r->threads_per_block,
            r->warps_per_block, k->regs_per_thread);
    fprintf(out, "shared memory %s static + %s dynamic per block\n\n",
            cli_format_bytes(k->static_smem_bytes, a, sizeof a),
            cli_format_bytes(k->dyn_smem_bytes, b, sizeof b));

    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
        bool binds = (r->limiters & (unsigned)order[i]) != 0;
        fprintf(out, "  %-32s %6s%s\n", occ_limiter_nsight_name(order[i]),
                limit_text(limit_of(r, order[i]), a, sizeof a), binds ? "  <- limiter" : "");
    }
    fprintf(out, "  %-32s %6d of %d\n", "Theoretical Active Warps per SM", r->warps_per_sm,
            r->max_warps_per_sm);
    fprintf(out, "  %-32s %6s\n\n", "Theoretical Occupancy", percent(r->occupancy, a, sizeof a));

    if (r->blocks_per_sm == 0) {
        fprintf(out, "No block of this kernel fits on an SM: %s.\n",
                occ_zero_reason_text(r->zero_reason));
    } else {
        int binding = 0;
        for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
            binding += (r->limiters & (unsigned)order[i]) != 0;
        }
        if (binding > 1) {
            fprintf(out, "%d limits tie at %d blocks per SM (relaxing one alone gains nothing):\n",
                    binding, r->blocks_per_sm);
        } else {
            fprintf(out, "One limit binds at %d blocks per SM:\n", r->blocks_per_sm);
        }
        for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
            if ((r->limiters & (unsigned)order[i]) != 0) {
                explain_limit(out, d, k, r, order[i]);
            }
        }
        fprintf(out, "%d %s x %d warps = %d of %d warp slots: %s occupancy.\n", r->blocks_per_sm,
                blocks(r->blocks_per_sm), r->warps_per_block, r->warps_per_sm, r->max_warps_per_sm,
                percent(r->occupancy, a, sizeof a));
    }
    fprintf(out,
            "Allocated per block: %s registers, %s shared memory (%s reserved by the driver).\n",
            group_digits(r->regs_per_block_allocated, a, sizeof a),
            r->smem_per_block_allocated_bytes == OCC_UNLIMITED
                ? "too much"
                : cli_format_bytes(r->smem_per_block_allocated_bytes, b, sizeof b),
            cli_format_bytes(d->smem_reserved_per_block_bytes, c, sizeof c));
    if (d->carveout_step_count > 0) {
        fprintf(out, "Shared memory carveout: %s configured of %s (preference: %s).\n",
                cli_format_bytes(r->smem_per_sm_bytes, a, sizeof a),
                cli_format_bytes(d->smem_per_sm_bytes, b, sizeof b),
                k->carveout_percent == OCC_CARVEOUT_DEFAULT
                    ? "default"
                    : percent(k->carveout_percent / 100.0, c, sizeof c));
        print_launch_config(out, d, k, r);
    }
    if (r->exceeds_launch_bounds) {
        cli_print_wrappedf(out, 0,
                           "Warning: %d threads exceed the kernel's __launch_bounds__ of %d "
                           "threads per block, so this launch fails (cudaErrorInvalidValue); the "
                           "occupancy above is what the driver's occupancy API reports all the "
                           "same.",
                           r->threads_per_block, k->max_threads_per_block);
    }
    calc_print_optin_note(out, d, k, r);
    cli_print_wrapped(out,
                      "Occupancy is not speed: it says how many warps could hide memory latency, "
                      "not whether this kernel needs them. Loads in flight per thread (ILP) do the "
                      "same job with fewer warps.",
                      0);
}
