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

/* "1 block", "4 blocks"; "1 warp", "8 warps" */
static const char *blocks(int n)
{
    return cli_plural(n, "block", "blocks");
}

static const char *warps(int n)
{
    return cli_plural(n, "warp", "warps");
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

/* One sentence of arithmetic for a binding limit. */
static void explain_limit(FILE *out, const occ_device *d, const occ_kernel *k, const occ_result *r,
                          occ_limiter which)
{
    char a[32];
    char b[32];
    switch (which) {
    case OCC_LIMITER_REGISTERS:
        cli_print_wrappedf(
            out, 2,
            "- registers: each warp is allocated %s registers (%d per thread x %d "
            "threads, in units of %d); each of the %d sub-partitions holds %s "
            "registers, so the SM holds %d %s: %d whole %s of %d %s.",
            group_digits(r->regs_per_warp_allocated, a, sizeof a), k->regs_per_thread,
            d->warp_size_threads, d->reg_alloc_unit, d->sub_partitions_per_sm,
            group_digits(d->regs_per_sm / d->sub_partitions_per_sm, b, sizeof b),
            r->warps_per_sm_by_regs, warps(r->warps_per_sm_by_regs), r->limit_registers,
            blocks(r->limit_registers), r->warps_per_block, warps(r->warps_per_block));
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
                           "- warp slots: each block takes %d %s (%d %s); the SM's %d "
                           "warp slots hold %d whole %s.",
                           r->warps_per_block, warps(r->warps_per_block), r->threads_per_block,
                           cli_plural(r->threads_per_block, "thread", "threads"),
                           r->max_warps_per_sm, r->limit_warps, blocks(r->limit_warps));
        break;
    case OCC_LIMITER_BLOCKS:
        cli_print_wrappedf(out, 2,
                           "- block slots: the SM holds at most %d resident blocks whatever "
                           "their size; at %d %s per block that is %d %s.",
                           d->max_blocks_per_sm, r->warps_per_block, warps(r->warps_per_block),
                           d->max_blocks_per_sm * r->warps_per_block,
                           warps(d->max_blocks_per_sm * r->warps_per_block));
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

/* Why the driver picks the configuration it does, in the words of the rule
   smem_config.c applies. */
static void config_reason(const occ_device *d, const occ_kernel *k, const occ_result *api,
                          const occ_smem_config_result *c, char *why, size_t cap)
{
    char a[32];
    char b[32];
    char e[32];
    switch (c->rule) {
    case OCC_SMEM_CONFIG_TWICE: {
        /* smem_config.c: max(kept x per block, min(sized x per block, half the SM)),
           kept the API's blocks with the cache preference, sized twice those
           within the block slots and 32 less the block's warps */
        long long per_block = api->smem_per_block_allocated_bytes;
        int kept = c->api_blocks_per_sm;
        int block_warps = d->max_threads_per_block / d->warp_size_threads;
        snprintf(why, cap,
                 "the larger of the %s its %d resident %s take and the %s of %d %s, twice "
                 "those within the %d block slots and %d less its %d %s per block, capped "
                 "at half of %s; rounded up to a step",
                 cli_format_bytes(kept * per_block, a, sizeof a), kept, blocks(kept),
                 cli_format_bytes(c->sized_blocks * per_block, b, sizeof b), c->sized_blocks,
                 blocks(c->sized_blocks), d->max_blocks_per_sm, block_warps, api->warps_per_block,
                 warps(api->warps_per_block), cli_format_bytes(d->smem_per_sm_bytes, e, sizeof e));
        break;
    }
    case OCC_SMEM_CONFIG_NO_SMEM:
        snprintf(why, cap,
                 "a kernel without shared memory of its own, sized for %d %s: 4 x the %d its "
                 "warps allow, within the block and barrier slots",
                 c->sized_blocks, blocks(c->sized_blocks), api->limit_warps);
        break;
    case OCC_SMEM_CONFIG_CARVEOUT:
        snprintf(why, cap, "the %d%% preference as the driver applies it",
                 k->carveout_percent != OCC_CARVEOUT_DEFAULT ? k->carveout_percent : 50);
        break;
    case OCC_SMEM_CONFIG_PREFER_SHARED:
        snprintf(why, cap, "cudaFuncCachePreferShared: the largest");
        break;
    default:
        snprintf(why, cap, "the smallest step that holds the %d resident %s", api->blocks_per_sm,
                 blocks(api->blocks_per_sm));
        break;
    }
}

/* The configuration the driver is predicted to choose at launch, which the
   table above is computed at, as Nsight's is, and the L1 it leaves. Not
   printed when --smem-config gave the configuration. */
static void print_launch_config(FILE *out, const calc_view *v, const calc_nsight *nv)
{
    const occ_device *d = v->dev;
    occ_smem_config_result c;
    if (nv->config != CALC_CONFIG_PREDICTED ||
        occ_launch_smem_config(d, v->kernel, v->cache, &c, NULL) != OCC_OK) {
        return;
    }
    char a[32];
    char b[32];
    char why[400];
    config_reason(d, v->kernel, v->api, &c, why, sizeof why);
    char l1[96] = "";
    if (c.unified_cache_bytes > 0) {
        char u[32];
        snprintf(l1, sizeof l1, ", leaving %s of the SM's %s for L1",
                 cli_format_bytes(c.l1_bytes, a, sizeof a),
                 cli_format_bytes(c.unified_cache_bytes, u, sizeof u));
    }
    char api[160] = "";
    if (c.config_bytes != v->api->smem_per_sm_bytes) {
        snprintf(api, sizeof api, " The occupancy API assumes %s instead%s.",
                 cli_format_bytes(v->api->smem_per_sm_bytes, a, sizeof a),
                 nv->result.blocks_per_sm != v->api->blocks_per_sm
                     ? ", and so counts another number of resident blocks"
                     : "");
    }
    cli_print_wrappedf(out, 0,
                       "At launch the driver configures %s (%s; %s)%s. The table is computed "
                       "there, as Nsight Compute's is.%s --smem-config takes Nsight's Shared "
                       "Memory Configuration Size where it differs.",
                       cli_format_bytes(c.config_bytes, b, sizeof b), why,
                       c.measured ? "the rule measured on an H200"
                                  : "a prediction: the rule was measured on an H200 only",
                       l1, api);
}

static const char *cache_name(occ_cache_preference cache)
{
    switch (cache) {
    case OCC_CACHE_PREFER_SHARED: return "shared";
    case OCC_CACHE_PREFER_L1: return "L1";
    case OCC_CACHE_PREFER_EQUAL: return "equal";
    case OCC_CACHE_PREFER_NONE: break;
    }
    return "none";
}

/* One row of the table: Nsight's value, the limiter mark, and the occupancy
   API's value where it differs. */
static void print_limit_row(FILE *out, const occ_device *d, const occ_result *nsight,
                            const occ_result *api, const occ_result *shown, occ_limiter which)
{
    char a[32];
    char b[32];
    char beside[64] = "";
    int value = calc_nsight_limit(d, calc_limit_of(nsight, which), which);
    int api_value = calc_limit_of(api, which);
    if (api_value != value) {
        snprintf(beside, sizeof beside, "  (occupancy API: %s)",
                 limit_text(api_value, b, sizeof b));
    }
    bool binds = (shown->limiters & (unsigned)which) != 0;
    fprintf(out, "  %-32s %6s%s%s\n", occ_limiter_nsight_name(which),
            limit_text(value, a, sizeof a), binds ? "  <- limiter" : "", beside);
}

void calc_print_text(FILE *out, const calc_view *v)
{
    const occ_device *d = v->dev;
    const occ_kernel *k = v->kernel;
    const occ_result *api = v->api;
    calc_nsight nv;
    calc_nsight_view(d, k, v->cache, api, &nv);
    /* The words below work through the table's answer: the occupancy API's,
       which the launch keeps, unless the configuration at launch changes it. */
    const occ_result *r = nv.result.blocks_per_sm != api->blocks_per_sm ? &nv.result : api;
    char arch[16];
    char a[32];
    char b[32];
    char c[32];
    occ_arch_name(d->cc_major, d->cc_minor, arch, sizeof arch);
    bool generic = strcmp(d->name, arch) == 0;
    fprintf(out, "%s%s%s%s: %d %s per block (%d %s), %d %s per thread%s,\n", d->name,
            generic ? "" : " (", generic ? "" : arch, generic ? "" : ")", r->threads_per_block,
            cli_plural(r->threads_per_block, "thread", "threads"), r->warps_per_block,
            warps(r->warps_per_block), k->regs_per_thread,
            cli_plural(k->regs_per_thread, "register", "registers"),
            v->regs_given ? "" : " (not given)");
    fprintf(out, "shared memory %s static + %s dynamic per block\n\n",
            cli_format_bytes(k->static_smem_bytes, a, sizeof a),
            cli_format_bytes(k->dyn_smem_bytes, b, sizeof b));

    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
        print_limit_row(out, d, &nv.result, api, r, order[i]);
    }
    char beside[64] = "";
    if (nv.result.warps_per_sm != api->warps_per_sm) {
        snprintf(beside, sizeof beside, "  (occupancy API: %d)", api->warps_per_sm);
    }
    fprintf(out, "  %-32s %6d of %d%s\n", "Theoretical Active Warps per SM", nv.result.warps_per_sm,
            nv.result.max_warps_per_sm, beside);
    beside[0] = '\0';
    if (nv.result.blocks_per_sm != api->blocks_per_sm) {
        snprintf(beside, sizeof beside, "  (occupancy API: %s)",
                 percent(api->occupancy, b, sizeof b));
    }
    fprintf(out, "  %-32s %6s%s\n\n", "Theoretical Occupancy",
            percent(nv.result.occupancy, a, sizeof a), beside);

    if (r->blocks_per_sm == 0) {
        fprintf(out, "No block of this kernel fits on an SM: %s.\n",
                occ_zero_reason_text(r->zero_reason));
    } else {
        int binding = 0;
        for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
            binding += (r->limiters & (unsigned)order[i]) != 0;
        }
        if (binding > 1) {
            fprintf(out, "%d limits tie at %d %s per SM (relaxing one alone gains nothing):\n",
                    binding, r->blocks_per_sm, blocks(r->blocks_per_sm));
        } else {
            fprintf(out, "One limit binds at %d %s per SM:\n", r->blocks_per_sm,
                    blocks(r->blocks_per_sm));
        }
        for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
            if ((r->limiters & (unsigned)order[i]) != 0) {
                explain_limit(out, d, k, r, order[i]);
            }
        }
        fprintf(out, "%d %s x %d %s = %d of %d warp slots: %s occupancy.\n", r->blocks_per_sm,
                blocks(r->blocks_per_sm), r->warps_per_block, warps(r->warps_per_block),
                r->warps_per_sm, r->max_warps_per_sm, percent(r->occupancy, a, sizeof a));
    }
    fprintf(out,
            "Allocated per block: %s registers, %s shared memory (%s reserved by the driver).\n",
            group_digits(r->regs_per_block_allocated, a, sizeof a),
            r->smem_per_block_allocated_bytes == OCC_UNLIMITED
                ? "too much"
                : cli_format_bytes(r->smem_per_block_allocated_bytes, b, sizeof b),
            cli_format_bytes(d->smem_reserved_per_block_bytes, c, sizeof c));
    if (d->carveout_step_count > 0) {
        char cache[48] = "";
        if (v->cache != OCC_CACHE_PREFER_NONE) {
            snprintf(cache, sizeof cache, "; cache: prefer %s", cache_name(v->cache));
        }
        fprintf(out,
                "Shared memory carveout: %s configured of %s by the occupancy API (preference: "
                "%s%s).\n",
                cli_format_bytes(api->smem_per_sm_bytes, a, sizeof a),
                cli_format_bytes(d->smem_per_sm_bytes, b, sizeof b),
                k->carveout_percent == OCC_CARVEOUT_DEFAULT
                    ? "default"
                    : percent(k->carveout_percent / 100.0, c, sizeof c),
                cache);
        print_launch_config(out, v, &nv);
    }
    if (r->exceeds_launch_bounds) {
        cli_print_wrappedf(out, 0,
                           "Warning: %d threads exceed the kernel's __launch_bounds__ of %d "
                           "%s per block, so this launch fails (cudaErrorInvalidValue); the "
                           "occupancy above is what the driver's occupancy API reports all the "
                           "same.",
                           r->threads_per_block, k->max_threads_per_block,
                           cli_plural(k->max_threads_per_block, "thread", "threads"));
    }
    calc_print_optin_note(out, d, k, r);
    cli_print_wrapped(out,
                      "Occupancy is not speed: it says how many warps could hide memory latency, "
                      "not whether this kernel needs them. Loads in flight per thread (ILP) do the "
                      "same job with fewer warps.",
                      0);
}
