'use strict';
// presets.js - example configurations: one per resource that can bind, and
// the worked examples of the documents occ grew from (docs/sources.md, the
// same cases as tests/test_seeds.c). `expect` is what the example claims,
// worked by hand from the GPU's limits; the browser tests check the page
// agrees, so a preset that stops showing its point fails a test.
window.occWeb = window.occWeb || {};

(function (occWeb) {
    const K = 1024;
    // Fields a preset leaves out keep these values.
    const base = { smem: 0, dynSmem: 0, carveout: -1, barriers: 1 };

    const presets = [
        // H200 (sm_90): 64 warp slots, 32 block slots, 65,536 registers in 4
        // sub-partitions, 228 KB shared memory with 1 KB reserved per block.
        { id: 'register-bound', group: 'Which limit binds',
          label: 'Register-bound: 64 registers per thread',
          gpu: 'H200', threads: 256, regs: 64,
          // 2,048 registers a warp; 16,384 per sub-partition hold 8 warps: 32 warps, 4 blocks.
          expect: { blocks: 4, limiters: ['registers'] } },
        { id: 'shared-memory-bound', group: 'Which limit binds',
          label: 'Shared-memory-bound: 64 KB dynamic per block',
          gpu: 'H200', threads: 256, regs: 32, dynSmem: 64 * K,
          // 64 KB + 1 KB reserved = 65 KB a block; 228 KB hold 3.
          expect: { blocks: 3, limiters: ['shared memory'] } },
        { id: 'block-slot-bound', group: 'Which limit binds',
          label: 'Block-slot-bound: tiny 32-thread blocks',
          gpu: 'H200', threads: 32, regs: 16,
          // One warp a block; 32 block slots hold 32 warps of 64: 50%.
          expect: { blocks: 32, limiters: ['blocks'] } },
        { id: 'warp-slot-bound', group: 'Which limit binds',
          label: 'Warp-slot-bound: 768-thread blocks strand 16 slots',
          gpu: 'H200', threads: 768, regs: 16,
          // 24 warps a block; 64 slots hold 2 blocks (48 warps): 75%.
          expect: { blocks: 2, limiters: ['warps'] } },
        { id: 'barrier-bound', group: 'Which limit binds',
          label: 'Barrier-bound: 8 block barriers (CC 9.0)',
          gpu: 'H200', threads: 64, regs: 16, barriers: 8,
          // 2 barriers per block slot x 32 slots = 64; at 8 a block, 8 blocks.
          expect: { blocks: 8, limiters: ['barriers'] } },
        { id: 'full', group: 'Which limit binds',
          label: 'Nothing binds: 100% (only the warp slots themselves)',
          gpu: 'H200', threads: 256, regs: 16,
          // 8 blocks of 8 warps fill the 64 slots; registers would allow 16 blocks.
          expect: { blocks: 8, limiters: ['warps'] } },

        // "Occupancy and latency hiding: worked examples" (docs/sources.md, seed
        // 004; A100: 64 warps, 32 blocks, 164 KB).
        { id: 'a100-regs-64', group: 'Worked examples',
          label: 'A100, 256 threads, 64 registers (50%)',
          gpu: 'A100 SXM 40GB', threads: 256, regs: 64,
          expect: { blocks: 4, limiters: ['registers'] } },
        { id: 'a100-smem-48k', group: 'Worked examples',
          label: 'A100, 48 KB shared memory per block (37.5%)',
          gpu: 'A100 SXM 40GB', threads: 256, regs: 32, smem: 48 * K,
          expect: { blocks: 3, limiters: ['shared memory'] } },
        { id: 'a100-32-thread-blocks', group: 'Worked examples',
          label: 'A100, 32-thread blocks (50%)',
          gpu: 'A100 SXM 40GB', threads: 32, regs: 16,
          expect: { blocks: 32, limiters: ['blocks'] } },
        { id: 'a100-128-threads-regs-16', group: 'Worked examples',
          label: 'A100, 128 threads, 16 registers (100%)',
          gpu: 'A100 SXM 40GB', threads: 128, regs: 16,
          expect: { blocks: 16, limiters: ['warps'] } },
        { id: 'a100-1-thread-blocks', group: 'Worked examples',
          label: 'A100, 1-thread blocks (50%, 1/32 lanes useful)',
          gpu: 'A100 SXM 40GB', threads: 1, regs: 16,
          expect: { blocks: 32, limiters: ['blocks'] } },
        { id: 'a100-128-threads-regs-128', group: 'Worked examples',
          label: 'A100, 128 threads, 128 registers (25%)',
          gpu: 'A100 SXM 40GB', threads: 128, regs: 128,
          expect: { blocks: 4, limiters: ['registers'] } },
        { id: 'a100-regs-128-before-cap', group: 'Worked examples',
          label: 'A100, 256 threads, 128 registers, before a cap at 64 (25%)',
          gpu: 'A100 SXM 40GB', threads: 256, regs: 128,
          expect: { blocks: 2, limiters: ['registers'] } },
        { id: 'a100-regs-64-after-cap', group: 'Worked examples',
          label: 'A100, 256 threads, 128 registers capped at 64 (50%, if it does not spill)',
          gpu: 'A100 SXM 40GB', threads: 256, regs: 64,
          expect: { blocks: 4, limiters: ['registers'] } },
        // "Occupancy and resource allocation" (docs/sources.md, seed 001; A100).
        { id: 'a100-regs-48-sub-partitions', group: 'Worked examples',
          label: 'A100, 48 registers: 62.5%, not 65% (registers split over 4 sub-partitions)',
          gpu: 'A100 SXM 40GB', threads: 256, regs: 48,
          expect: { blocks: 5, limiters: ['registers'] } },
        { id: 'a100-dyn-smem-32k-reserve', group: 'Worked examples',
          label: 'A100, 32 KB dynamic shared memory: 50%, not 62.5% (1 KB reserved a block)',
          gpu: 'A100 SXM 40GB', threads: 256, regs: 0, dynSmem: 32 * K,
          expect: { blocks: 4, limiters: ['shared memory'] } },
        { id: 'a100-regs-40-smem-16k', group: 'Worked examples',
          label: 'A100, 256 threads, 40 registers and 16 KB shared memory (75%)',
          gpu: 'A100 SXM 40GB', threads: 256, regs: 40, smem: 16 * K,
          expect: { blocks: 6, limiters: ['registers'] } },
        // "Occupancy is not the goal" (docs/sources.md, seed 000; T4: 32 warp
        // slots, 64 KB shared memory).
        { id: 't4-smem-reservation-3-blocks', group: 'Worked examples',
          label: 'T4, a shared-memory reservation that leaves 3 blocks (75%)',
          gpu: 'T4', threads: 256, regs: 16, dynSmem: 21760,
          expect: { blocks: 3, limiters: ['shared memory'] } },
        { id: 't4-regs-54-launch-bounds', group: 'Worked examples',
          label: 'T4, 54 registers: __launch_bounds__ changed nothing (100%)',
          gpu: 'T4', threads: 256, regs: 54,
          expect: { blocks: 4, limiters: ['warps', 'registers'] } },
    ];

    occWeb.presets = presets.map((p) => Object.assign({}, base, p));
}(window.occWeb));
