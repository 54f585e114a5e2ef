/*
 * words.c - the names and sentences libocc gives its codes.
 */
#include "occ_internal.h"

const char *occ_version(void)
{
    return OCC_VERSION_STRING;
}

const char *occ_status_name(occ_status status)
{
    switch (status) {
    case OCC_OK: return "ok";
    case OCC_ERR_INVALID_ARGUMENT: return "invalid argument";
    case OCC_ERR_INVALID_DEVICE: return "invalid device description";
    case OCC_ERR_UNKNOWN_GPU: return "unknown GPU";
    case OCC_ERR_NOT_FOUND: return "not found";
    case OCC_ERR_NULL_POINTER: return "null pointer";
    case OCC_ERR_TEXT_TRUNCATED: return "text truncated";
    case OCC_ERR_IO: return "input/output error";
    case OCC_ERR_BAD_FORMAT: return "bad format";
    case OCC_ERR_LIMIT: return "beyond a limit";
    case OCC_ERR_OUT_OF_MEMORY: return "out of memory";
    }
    return "unknown status";
}

const char *occ_limiter_name(occ_limiter limiter)
{
    switch (limiter) {
    case OCC_LIMITER_WARPS: return "warps";
    case OCC_LIMITER_REGISTERS: return "registers";
    case OCC_LIMITER_SHARED_MEM: return "shared memory";
    case OCC_LIMITER_BLOCKS: return "blocks";
    case OCC_LIMITER_BARRIERS: return "barriers";
    }
    return "unknown";
}

const char *occ_limiter_key(occ_limiter limiter)
{
    switch (limiter) {
    case OCC_LIMITER_WARPS: return "warps";
    case OCC_LIMITER_REGISTERS: return "registers";
    case OCC_LIMITER_SHARED_MEM: return "shared_mem";
    case OCC_LIMITER_BLOCKS: return "blocks";
    case OCC_LIMITER_BARRIERS: return "barriers";
    }
    return "unknown";
}

const char *occ_limiter_list(unsigned limiters, char *buf, size_t cap)
{
    static const occ_limiter order[] = {OCC_LIMITER_WARPS, OCC_LIMITER_BLOCKS,
                                        OCC_LIMITER_REGISTERS, OCC_LIMITER_SHARED_MEM,
                                        OCC_LIMITER_BARRIERS};
    size_t len = 0;
    if (buf == NULL || cap == 0) {
        return buf;
    }
    buf[0] = '\0';
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
        if ((limiters & (unsigned)order[i]) == 0) {
            continue;
        }
        const char *key = occ_limiter_key(order[i]);
        size_t key_len = 0;
        while (key[key_len] != '\0') {
            key_len++;
        }
        size_t need = (len > 0 ? 1 : 0) + key_len;
        if (len + need >= cap) {
            break;
        }
        if (len > 0) {
            buf[len++] = '+';
        }
        for (size_t c = 0; c <= key_len; c++) {
            buf[len + c] = key[c];
        }
        len += key_len;
    }
    return buf;
}

const char *occ_limiter_nsight_name(occ_limiter limiter)
{
    switch (limiter) {
    case OCC_LIMITER_WARPS: return "Block Limit Warps";
    case OCC_LIMITER_REGISTERS: return "Block Limit Registers";
    case OCC_LIMITER_SHARED_MEM: return "Block Limit Shared Mem";
    case OCC_LIMITER_BLOCKS: return "Block Limit SM";
    case OCC_LIMITER_BARRIERS: return "Block Limit Barriers";
    }
    return "unknown";
}

const char *occ_zero_reason_text(occ_zero_reason reason)
{
    switch (reason) {
    case OCC_ZERO_NONE: return "";
    case OCC_ZERO_REGS_PER_BLOCK:
        return "the block needs more registers than one block may hold; "
               "the launch would fail with too many resources requested";
    case OCC_ZERO_SMEM_PER_BLOCK:
        return "the block needs more shared memory than one block may have";
    case OCC_ZERO_DYN_SMEM_OPTIN:
        return "the dynamic shared memory exceeds the kernel's opt-in "
               "(cudaFuncAttributeMaxDynamicSharedMemorySize, at most the GPU's per-block "
               "opt-in maximum less static shared memory)";
    case OCC_ZERO_REGS_PER_SM:
        return "the block's warps do not fit the register file's sub-partitions";
    }
    return "unknown reason";
}

const char *occ_latency_bound_name(occ_latency_bound bound)
{
    switch (bound) {
    case OCC_BOUND_LATENCY: return "latency";
    case OCC_BOUND_BANDWIDTH: return "bandwidth";
    case OCC_BOUND_REQUEST_LIMIT: return "request limit";
    case OCC_BOUND_WARP_RATE: return "warp rate";
    }
    return "unknown";
}
