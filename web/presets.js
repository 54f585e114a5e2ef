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

        // Seed 004, "Worked examples" (A100: 64 warps, 32 blocks, 164 KB).
        { id: 'seed-004-ex1', group: 'Worked examples (seeds)',
          label: 'Seed 004, example 1: A100, 256 threads, 64 registers (50%)',
          gpu: 'A100 SXM 40GB', threads: 256, regs: 64,
          expect: { blocks: 4, limiters: ['registers'] } },
        { id: 'seed-004-ex2', group: 'Worked examples (seeds)',
          label: 'Seed 004, example 2: A100, 48 KB shared memory per block (37.5%)',
          gpu: 'A100 SXM 40GB', threads: 256, regs: 32, smem: 48 * K,
          expect: { blocks: 3, limiters: ['shared memory'] } },
        { id: 'seed-004-ex3', group: 'Worked examples (seeds)',
          label: 'Seed 004, example 3: A100, 32-thread blocks (50%)',
          gpu: 'A100 SXM 40GB', threads: 32, regs: 16,
          expect: { blocks: 32, limiters: ['blocks'] } },
        { id: 'seed-004-ex4', group: 'Worked examples (seeds)',
          label: 'Seed 004, example 4: A100, 128 threads, 16 registers (100%)',
          gpu: 'A100 SXM 40GB', threads: 128, regs: 16,
          expect: { blocks: 16, limiters: ['warps'] } },
        { id: 'seed-004-ex5', group: 'Worked examples (seeds)',
          label: 'Seed 004, example 5: A100, 1-thread blocks (50%, 1/32 lanes useful)',
          gpu: 'A100 SXM 40GB', threads: 1, regs: 16,
          expect: { blocks: 32, limiters: ['blocks'] } },
        { id: 'seed-004-ex6', group: 'Worked examples (seeds)',
          label: 'Seed 004, example 6: A100, 128 registers per thread (25%)',
          gpu: 'A100 SXM 40GB', threads: 128, regs: 128,
          expect: { blocks: 4, limiters: ['registers'] } },
        { id: 'seed-004-ex8-before', group: 'Worked examples (seeds)',
          label: 'Seed 004, example 8 before: 256 threads, 128 registers (25%)',
          gpu: 'A100 SXM 40GB', threads: 256, regs: 128,
          expect: { blocks: 2, limiters: ['registers'] } },
        { id: 'seed-004-ex8-after', group: 'Worked examples (seeds)',
          label: 'Seed 004, example 8 after: 64 registers (50%)',
          gpu: 'A100 SXM 40GB', threads: 256, regs: 64,
          expect: { blocks: 4, limiters: ['registers'] } },
        // Seed 001, "Occupancy and resource allocation" (A100).
        { id: 'seed-001-regs-48', group: 'Worked examples (seeds)',
          label: 'Seed 001: 48 registers, 62.5% (the seed says 65%: sub-partitions)',
          gpu: 'A100 SXM 40GB', threads: 256, regs: 48,
          expect: { blocks: 5, limiters: ['registers'] } },
        { id: 'seed-001-smem-32k', group: 'Worked examples (seeds)',
          label: 'Seed 001: 32 KB dynamic, 50% (the seed says 62.5%: 1 KB reserved)',
          gpu: 'A100 SXM 40GB', threads: 256, regs: 0, dynSmem: 32 * K,
          expect: { blocks: 4, limiters: ['shared memory'] } },
        { id: 'seed-001-combined', group: 'Worked examples (seeds)',
          label: 'Seed 001, 4.1: 40 registers and 16 KB (75%)',
          gpu: 'A100 SXM 40GB', threads: 256, regs: 40, smem: 16 * K,
          expect: { blocks: 6, limiters: ['registers'] } },
        // Seed 000, day 45 (T4: 32 warp slots, 64 KB shared memory).
        { id: 'seed-000-day45-b3', group: 'Worked examples (seeds)',
          label: 'Seed 000, day 45: T4, residency knob at 3 blocks (75%)',
          gpu: 'T4', threads: 256, regs: 16, dynSmem: 21760,
          expect: { blocks: 3, limiters: ['shared memory'] } },
        { id: 'seed-000-ilp8-lb', group: 'Worked examples (seeds)',
          label: 'Seed 000: T4, 54 registers: launch bounds changed nothing',
          gpu: 'T4', threads: 256, regs: 54,
          expect: { blocks: 4, limiters: ['warps', 'registers'] } },
    ];

    occWeb.presets = presets.map((p) => Object.assign({}, base, p));
}(window.occWeb));
