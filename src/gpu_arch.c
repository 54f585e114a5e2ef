/*
 * gpu_arch.c - the per-compute-capability limits that decide occupancy:
 * one generic entry for every compute capability from 5.0 to 12.1.
 *
 * Sources, cited per value below by key:
 *  [PG]  CUDA C++ Programming Guide, "Technical Specifications per Compute
 *        Capability" table (CUDA 13.0): resident blocks, warps and threads
 *        per SM, registers per SM and per block, shared memory per SM and
 *        per block (with opt-in), max registers per thread.
 *  [OCH] The CUDA 13.0 toolkit's cuda_occupancy.h, which the H200 driver
 *        matched on all 161,600 configurations of
 *        tests/data/h200-driver/h200-driver-occupancy.csv.gz: register allocation
 *        unit (256 per warp), sub-partitions (4; 2 on 6.0), shared memory
 *        allocation unit (256 B before 8.0, 128 B from 8.0), reserved
 *        shared memory per block (from 8.0), carveout steps, barriers per
 *        block slot (from 9.0), partitioned global caching support, the
 *        GP100 portability rule.
 *  [H200] Measured on an NVIDIA H200 (driver 580, CUDA 13.0) with
 *        cudaGetDeviceProperties: tests/data/h200-driver/h200-probe.txt.
 *  [RES] cudaDeviceProp::reservedSharedMemPerBlock is 1024 B on every GPU
 *        of CC >= 8.0 ([H200] reads 1024; [PG] "1 KB reserved for system
 *        use" in the shared memory sections of 8.x, 9.0, 10.x, 12.x).
 *
 * Every entry: 32 threads per warp, 1024 threads per block, 65536
 * registers per SM, 255 registers per thread, 48 KB of shared memory per
 * block without opt-in [PG]; registers allocated per warp in units of 256
 * [OCH].
 */
#include "occ_internal.h"

#define KB 1024

/* Carveout steps in bytes [OCH cudaOccAlignUpShmemSizeVoltaPlus]. */
#define STEPS_VOLTA                                                                                \
    {                                                                                              \
        0, 8 * KB, 16 * KB, 32 * KB, 64 * KB, 96 * KB                                              \
    }
#define STEPS_TURING                                                                               \
    {                                                                                              \
        32 * KB, 64 * KB                                                                           \
    }
#define STEPS_GA100                                                                                \
    {                                                                                              \
        0, 8 * KB, 16 * KB, 32 * KB, 64 * KB, 100 * KB, 132 * KB, 164 * KB                         \
    }
#define STEPS_GA10X                                                                                \
    {                                                                                              \
        0, 8 * KB, 16 * KB, 32 * KB, 64 * KB, 100 * KB                                             \
    }
#define STEPS_HOPPER                                                                               \
    {                                                                                              \
        0, 8 * KB, 16 * KB, 32 * KB, 64 * KB, 100 * KB, 132 * KB, 164 * KB, 196 * KB, 228 * KB     \
    }

/*
 * The fields every entry shares. warps/blocks/smem vary per entry; these do
 * not vary from 5.0 to 12.1 ([PG] for the limits, [OCH] for the units).
 */
#define COMMON_LIMITS                                                                              \
    .warp_size_threads = 32, .max_threads_per_block = 1024, .regs_per_sm = 64 * KB,                \
    .max_regs_per_thread = 255, .reg_alloc_unit = 256, .smem_per_block_bytes = 48 * KB

const occ_device occ__arch_table[] = {
    /* Maxwell: shared memory is dedicated (no carveout); barriers never limit */
    {.name = "sm_50",
     .cc_major = 5,
     .cc_minor = 0,
     COMMON_LIMITS,
     .max_threads_per_sm = 2048,            /* 64 warps [PG] */
     .max_blocks_per_sm = 32,               /* [PG] */
     .regs_per_block = 64 * KB,             /* [PG] */
     .sub_partitions_per_sm = 4,            /* [OCH] */
     .smem_per_sm_bytes = 64 * KB,          /* [PG] */
     .smem_per_block_optin_bytes = 48 * KB, /* no opt-in before 7.0 [PG] */
     .smem_alloc_unit_bytes = 256,          /* [OCH] */
     .partitioned_gc = false},              /* [OCH] */
    {.name = "sm_52",
     .cc_major = 5,
     .cc_minor = 2,
     COMMON_LIMITS,
     .max_threads_per_sm = 2048,
     .max_blocks_per_sm = 32,               /* [PG] */
     .regs_per_block = 64 * KB,             /* [PG] */
     .sub_partitions_per_sm = 4,            /* [OCH] */
     .smem_per_sm_bytes = 96 * KB,          /* [PG] */
     .smem_per_block_optin_bytes = 48 * KB, /* [PG] */
     .smem_alloc_unit_bytes = 256,          /* [OCH] */
     .partitioned_gc = true},               /* [OCH] */
    {.name = "sm_53",
     .cc_major = 5,
     .cc_minor = 3,
     COMMON_LIMITS,
     .max_threads_per_sm = 2048,
     .max_blocks_per_sm = 32,               /* [PG] */
     .regs_per_block = 32 * KB,             /* [PG]: 32 K on 5.3 */
     .sub_partitions_per_sm = 4,            /* [OCH] */
     .smem_per_sm_bytes = 64 * KB,          /* [PG] */
     .smem_per_block_optin_bytes = 48 * KB, /* [PG] */
     .smem_alloc_unit_bytes = 256,          /* [OCH] */
     .partitioned_gc = true},               /* [OCH] */
    /* Pascal */
    {.name = "sm_60",
     .cc_major = 6,
     .cc_minor = 0,
     COMMON_LIMITS,
     .max_threads_per_sm = 2048,
     .max_blocks_per_sm = 32,               /* [PG] */
     .regs_per_block = 64 * KB,             /* [PG] */
     .sub_partitions_per_sm = 2,            /* GP100 [OCH] */
     .reg_fit_sub_partitions = 4,           /* must also fit GP10x's 4 [OCH, GP100 rule] */
     .smem_per_sm_bytes = 64 * KB,          /* [PG] */
     .smem_per_block_optin_bytes = 48 * KB, /* [PG] */
     .smem_alloc_unit_bytes = 256,          /* [OCH] */
     .partitioned_gc = false},              /* [OCH] */
    {.name = "sm_61",
     .cc_major = 6,
     .cc_minor = 1,
     COMMON_LIMITS,
     .max_threads_per_sm = 2048,
     .max_blocks_per_sm = 32,               /* [PG] */
     .regs_per_block = 64 * KB,             /* [PG] */
     .sub_partitions_per_sm = 4,            /* [OCH] */
     .smem_per_sm_bytes = 96 * KB,          /* [PG] */
     .smem_per_block_optin_bytes = 48 * KB, /* [PG] */
     .smem_alloc_unit_bytes = 256,          /* [OCH] */
     .partitioned_gc = true},               /* [OCH] */
    {.name = "sm_62",
     .cc_major = 6,
     .cc_minor = 2,
     COMMON_LIMITS,
     .max_threads_per_sm = 2048,
     .max_blocks_per_sm = 32,               /* [PG] */
     .regs_per_block = 32 * KB,             /* [PG]: 32 K on 6.2 */
     .sub_partitions_per_sm = 4,            /* [OCH] */
     .smem_per_sm_bytes = 64 * KB,          /* [PG] */
     .smem_per_block_optin_bytes = 48 * KB, /* [PG] */
     .smem_alloc_unit_bytes = 256,          /* [OCH] */
     .partitioned_gc = true},               /* [OCH] */
    /* Volta: unified L1/shared memory with a carveout; opt-in above 48 KB */
    {.name = "sm_70",
     .cc_major = 7,
     .cc_minor = 0,
     COMMON_LIMITS,
     .max_threads_per_sm = 2048,
     .max_blocks_per_sm = 32,               /* [PG] */
     .regs_per_block = 64 * KB,             /* [PG] */
     .sub_partitions_per_sm = 4,            /* [OCH] */
     .smem_per_sm_bytes = 96 * KB,          /* [PG] */
     .smem_per_block_optin_bytes = 96 * KB, /* [PG] */
     .smem_alloc_unit_bytes = 256,          /* [OCH] */
     .carveout_step_count = 6,
     .carveout_steps_bytes = STEPS_VOLTA},
    {.name = "sm_72",
     .cc_major = 7,
     .cc_minor = 2,
     COMMON_LIMITS,
     .max_threads_per_sm = 2048,
     .max_blocks_per_sm = 32,               /* [PG] */
     .regs_per_block = 64 * KB,             /* [PG] */
     .sub_partitions_per_sm = 4,            /* [OCH] */
     .smem_per_sm_bytes = 96 * KB,          /* [PG] */
     .smem_per_block_optin_bytes = 96 * KB, /* [PG] */
     .smem_alloc_unit_bytes = 256,          /* [OCH] */
     .carveout_step_count = 6,
     .carveout_steps_bytes = STEPS_VOLTA},
    /* Turing: 32 warps and 16 blocks per SM; shared memory 32 or 64 KB */
    {.name = "sm_75",
     .cc_major = 7,
     .cc_minor = 5,
     COMMON_LIMITS,
     .max_threads_per_sm = 1024,
     .max_blocks_per_sm = 16,               /* [PG] */
     .regs_per_block = 64 * KB,             /* [PG] */
     .sub_partitions_per_sm = 4,            /* [OCH] */
     .smem_per_sm_bytes = 64 * KB,          /* [PG] */
     .smem_per_block_optin_bytes = 64 * KB, /* [PG] */
     .smem_alloc_unit_bytes = 256,          /* [OCH] */
     .carveout_step_count = 2,
     .carveout_steps_bytes = STEPS_TURING},
    /* Ampere: 128 B allocation unit and 1 KB reserved per block from here on */
    {.name = "sm_80",
     .cc_major = 8,
     .cc_minor = 0,
     COMMON_LIMITS,
     .max_threads_per_sm = 2048,
     .max_blocks_per_sm = 32,                 /* [PG] */
     .regs_per_block = 64 * KB,               /* [PG] */
     .sub_partitions_per_sm = 4,              /* [OCH] */
     .smem_per_sm_bytes = 164 * KB,           /* [PG] */
     .smem_per_block_optin_bytes = 163 * KB,  /* [PG] */
     .smem_reserved_per_block_bytes = 1 * KB, /* [RES] */
     .smem_alloc_unit_bytes = 128,            /* [OCH] */
     .carveout_step_count = 8,
     .carveout_steps_bytes = STEPS_GA100},
    {.name = "sm_86",
     .cc_major = 8,
     .cc_minor = 6,
     COMMON_LIMITS,
     .max_threads_per_sm = 1536,
     .max_blocks_per_sm = 16,                 /* 48 warps [PG] */
     .regs_per_block = 64 * KB,               /* [PG] */
     .sub_partitions_per_sm = 4,              /* [OCH] */
     .smem_per_sm_bytes = 100 * KB,           /* [PG] */
     .smem_per_block_optin_bytes = 99 * KB,   /* [PG] */
     .smem_reserved_per_block_bytes = 1 * KB, /* [RES] */
     .smem_alloc_unit_bytes = 128,            /* [OCH] */
     .carveout_step_count = 6,
     .carveout_steps_bytes = STEPS_GA10X},
    {.name = "sm_87",
     .cc_major = 8,
     .cc_minor = 7,
     COMMON_LIMITS,
     .max_threads_per_sm = 1536,
     .max_blocks_per_sm = 16,                 /* 48 warps [PG] */
     .regs_per_block = 64 * KB,               /* [PG] */
     .sub_partitions_per_sm = 4,              /* [OCH] */
     .smem_per_sm_bytes = 164 * KB,           /* [PG] */
     .smem_per_block_optin_bytes = 163 * KB,  /* [PG] */
     .smem_reserved_per_block_bytes = 1 * KB, /* [RES] */
     .smem_alloc_unit_bytes = 128,            /* [OCH] */
     .carveout_step_count = 8,
     .carveout_steps_bytes = STEPS_GA100},
    /* Ada */
    {.name = "sm_89",
     .cc_major = 8,
     .cc_minor = 9,
     COMMON_LIMITS,
     .max_threads_per_sm = 1536,
     .max_blocks_per_sm = 24,                 /* 48 warps [PG] */
     .regs_per_block = 64 * KB,               /* [PG] */
     .sub_partitions_per_sm = 4,              /* [OCH] */
     .smem_per_sm_bytes = 100 * KB,           /* [PG] */
     .smem_per_block_optin_bytes = 99 * KB,   /* [PG] */
     .smem_reserved_per_block_bytes = 1 * KB, /* [RES] */
     .smem_alloc_unit_bytes = 128,            /* [OCH] */
     .carveout_step_count = 6,
     .carveout_steps_bytes = STEPS_GA10X},
    /* Hopper: block barriers limit residency from 9.0 on, two per block slot */
    {.name = "sm_90",
     .cc_major = 9,
     .cc_minor = 0,
     COMMON_LIMITS,
     .max_threads_per_sm = 2048,
     .max_blocks_per_sm = 32,                 /* [PG], [H200] */
     .regs_per_block = 64 * KB,               /* [PG], [H200] */
     .sub_partitions_per_sm = 4,              /* [OCH] */
     .smem_per_sm_bytes = 228 * KB,           /* 233472 [H200] */
     .smem_per_block_optin_bytes = 227 * KB,  /* 232448 [H200] */
     .smem_reserved_per_block_bytes = 1 * KB, /* 1024 [H200] */
     .smem_alloc_unit_bytes = 128,            /* [OCH] */
     .carveout_step_count = 10,
     .carveout_steps_bytes = STEPS_HOPPER,
     .barriers_per_block_slot = 2}, /* [OCH] */
    /* Blackwell datacenter */
    {.name = "sm_100",
     .cc_major = 10,
     .cc_minor = 0,
     COMMON_LIMITS,
     .max_threads_per_sm = 2048,
     .max_blocks_per_sm = 32,                 /* [PG] */
     .regs_per_block = 64 * KB,               /* [PG] */
     .sub_partitions_per_sm = 4,              /* [OCH] */
     .smem_per_sm_bytes = 228 * KB,           /* [PG] */
     .smem_per_block_optin_bytes = 227 * KB,  /* [PG] */
     .smem_reserved_per_block_bytes = 1 * KB, /* [RES] */
     .smem_alloc_unit_bytes = 128,            /* [OCH] */
     .carveout_step_count = 10,
     .carveout_steps_bytes = STEPS_HOPPER,
     .barriers_per_block_slot = 2}, /* [OCH] */
    {.name = "sm_103",
     .cc_major = 10,
     .cc_minor = 3,
     COMMON_LIMITS,
     .max_threads_per_sm = 2048,
     .max_blocks_per_sm = 32,                 /* [PG] */
     .regs_per_block = 64 * KB,               /* [PG] */
     .sub_partitions_per_sm = 4,              /* [OCH] */
     .smem_per_sm_bytes = 228 * KB,           /* [PG] */
     .smem_per_block_optin_bytes = 227 * KB,  /* [PG] */
     .smem_reserved_per_block_bytes = 1 * KB, /* [RES] */
     .smem_alloc_unit_bytes = 128,            /* [OCH] */
     .carveout_step_count = 10,
     .carveout_steps_bytes = STEPS_HOPPER,
     .barriers_per_block_slot = 2}, /* [OCH] */
    /* Jetson Thor (sm_101 before CUDA 13): 24 blocks, one barrier per slot */
    {.name = "sm_110",
     .cc_major = 11,
     .cc_minor = 0,
     COMMON_LIMITS,
     .max_threads_per_sm = 1536,
     .max_blocks_per_sm = 24,                 /* 48 warps [PG] */
     .regs_per_block = 64 * KB,               /* [PG] */
     .sub_partitions_per_sm = 4,              /* [OCH] */
     .smem_per_sm_bytes = 228 * KB,           /* [PG] */
     .smem_per_block_optin_bytes = 227 * KB,  /* [PG] */
     .smem_reserved_per_block_bytes = 1 * KB, /* [RES] */
     .smem_alloc_unit_bytes = 128,            /* [OCH] */
     .carveout_step_count = 10,
     .carveout_steps_bytes = STEPS_HOPPER,
     .barriers_per_block_slot = 1}, /* [OCH] */
    /* Blackwell workstation and consumer */
    {.name = "sm_120",
     .cc_major = 12,
     .cc_minor = 0,
     COMMON_LIMITS,
     .max_threads_per_sm = 1536,
     .max_blocks_per_sm = 24,                 /* 48 warps [PG] */
     .regs_per_block = 64 * KB,               /* [PG] */
     .sub_partitions_per_sm = 4,              /* [OCH] */
     .smem_per_sm_bytes = 100 * KB,           /* [PG] */
     .smem_per_block_optin_bytes = 99 * KB,   /* [PG] */
     .smem_reserved_per_block_bytes = 1 * KB, /* [RES] */
     .smem_alloc_unit_bytes = 128,            /* [OCH] */
     .carveout_step_count = 6,
     .carveout_steps_bytes = STEPS_GA10X,
     .barriers_per_block_slot = 1}, /* [OCH] */
    {.name = "sm_121",
     .cc_major = 12,
     .cc_minor = 1,
     COMMON_LIMITS,
     .max_threads_per_sm = 1536,
     .max_blocks_per_sm = 24,                 /* 48 warps [PG] */
     .regs_per_block = 64 * KB,               /* [PG] */
     .sub_partitions_per_sm = 4,              /* [OCH] */
     .smem_per_sm_bytes = 100 * KB,           /* [PG] */
     .smem_per_block_optin_bytes = 99 * KB,   /* [PG] */
     .smem_reserved_per_block_bytes = 1 * KB, /* [RES] */
     .smem_alloc_unit_bytes = 128,            /* [OCH] */
     .carveout_step_count = 6,
     .carveout_steps_bytes = STEPS_GA10X,
     .barriers_per_block_slot = 1}, /* [OCH] */
};

const int occ__arch_count = (int)(sizeof occ__arch_table / sizeof occ__arch_table[0]);
