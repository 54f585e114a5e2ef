/*
 * gpu_named.c - the read-only table of named GPUs: for each product, its compute
 * capability (which selects the per-SM limits in gpu_arch.c) and the product facts
 * on top of them: SM count, boost clock, peak DRAM bandwidth, L2 size and DRAM latency
 * with its provenance.
 *
 * Every number carries its source in a trailing comment. The sources are:
 *  - "CUDA GPUs": https://developer.nvidia.com/cuda-gpus, NVIDIA's product-to-compute-
 *    capability table, and the architecture whitepapers' "Compute Capability" rows.
 *  - NVIDIA whitepapers, datasheets and product briefs, named in the comment.
 *  - "deviceQuery": what cudaGetDeviceProperties() reports on that product
 *    (multiProcessorCount, clockRate, l2CacheSize), as printed by the CUDA samples'
 *    deviceQuery in public logs. Used where the vendor's documents omit a value
 *    (datasheets rarely state the SM count or the L2 size).
 *  - "XLA spec": device descriptions recorded from the hardware in OpenXLA,
 *    github.com/openxla/xla, xla/backends/gpu/target_config/specs/<gpu>.txtpb.
 *  - "H200 probe": this project's own measurements on an H200 (driver 580, CUDA 13.0):
 *    cudaGetDeviceProperties in tests/data/h200-driver/h200-probe.txt, and occ lab's
 *    records in docs/results/h200/ (docs/hardware.md gathers them).
 *
 * DRAM latency (mem_latency_ns) is the time of one dependent load over a buffer far larger than
 * L2, as `occ lab latency` measures it; each entry says where its figure comes from
 * (mem_latency_source) and carries a short citation that `occ latency` prints. Only the H200 is
 * occ's own measurement; the others are public pointer-chase measurements, named below by key
 * (docs/hardware.md, "Memory latency", has the table):
 *  - "gpu-benches": D. Ernst (NHR@FAU), github.com/RRZE-HPC/gpu-benches, cuda-latency and
 *    gpu-latency: one warp chases a random cycle through the buffer; the result files give
 *    cycles computed from the elapsed time with the SM clock the same file records, so
 *    ns = cycles / that clock is exact.
 *  - "AI_kernels": M. Dewing, github.com/markdewing/AI_kernels, latency/README.md: main-memory
 *    latency in cycles, "clocks were not locked", no clock stated. Converted here at the
 *    product's boost clock (sm_clock_mhz); a card running above it (GeForce cards often do)
 *    makes the true figure lower. Its H100 SXM reads 700 cycles, as occ measured on the H200.
 *  - "MT4G": TU Munich (CAPS), github.com/caps-tum/mt4g, sample_results (August 2025): mean of
 *    2048 individually timed loads, with the clock reported. It reads 10-20% above the chase
 *    averages where both cover a product (A100 40GB: 454 vs 408 ns; H100 SXM: 421 vs 354 ns),
 *    since each load carries the timer's cost (its L1 hit reads 66-68 cycles, the chases 30-36);
 *    used only for Turing, where nothing else was found.
 * A product without a chase figure of its own takes a sibling's of the same architecture
 * (OCC_LATENCY_ARCHITECTURE, the sibling named in the citation); an MT4G figure of the product
 * itself (A100 PCIe 40GB, H100 NVL) is then a cross-check in the comment. Where the sibling's
 * memory is of another kind (HBM2 for GDDR6 or LPDDR5), the comment says the figure is rough.
 *
 * Conventions: bandwidth is the vendor's peak figure in GB/s (1e9 bytes/s), as an
 * integer; L2 sizes are in bytes as the driver reports them (the vendors' "MB" of L2 is
 * MiB); the clock is the product's boost clock, which is also the maximum SM clock the
 * driver reports; 0 means unknown or not verified, never a guess (a latency borrowed from a
 * sibling is not 0 but says so in its source).
 *
 * Aliases are matched after the lookup's normalisation (case, spaces, '-', '_' and a
 * leading NVIDIA/GeForce/Tesla are ignored), so they list only genuinely different
 * spellings, and each alias belongs to exactly one entry: "v100" is the SXM2 part,
 * "a100" the original 40 GB SXM part, "h100" the SXM part, "orin" the AGX Orin 64GB.
 */
#include "occ_internal.h"

static const char *const v100_sxm2_aliases[] = {"v100", "v100-sxm2-16gb", "v100-sxm2-32gb", NULL};
static const char *const v100_pcie_aliases[] = {"v100-pcie-16gb", "v100-pcie-32gb", NULL};
static const char *const rtx_2080_ti_aliases[] = {"2080ti", NULL};
static const char *const a100_sxm_40gb_aliases[] = {"a100", "a100-40gb", "a100-sxm4-40gb", NULL};
static const char *const a100_pcie_40gb_aliases[] = {"a100-pcie", NULL};
static const char *const a100_sxm_80gb_aliases[] = {"a100-80gb", "a100-sxm4-80gb", NULL};
static const char *const a100_pcie_80gb_aliases[] = {"a100-80gb-pcie", NULL};
static const char *const rtx_a6000_aliases[] = {"a6000", NULL};
static const char *const rtx_3090_aliases[] = {"3090", NULL};
static const char *const agx_orin_aliases[] = {"orin", "agx-orin", "jetson-agx-orin",
                                               "agx-orin-64gb", NULL};
static const char *const orin_nano_aliases[] = {"orin-nano", "jetson-orin-nano", NULL};
static const char *const rtx_4090_aliases[] = {"4090", NULL};
static const char *const rtx_6000_ada_aliases[] = {"rtx-6000-ada", "6000-ada", NULL};
static const char *const h100_pcie_aliases[] = {"h100-pcie-80gb", NULL};
static const char *const h100_sxm_aliases[] = {"h100", "h100-sxm5", "h100-80gb-hbm3",
                                               "h100-sxm5-80gb", NULL};
static const char *const h200_aliases[] = {"h200-sxm", "h200-141gb-hbm3e", NULL};
static const char *const gh200_aliases[] = {"gh200-480gb", "gh200-120gb", NULL};
static const char *const rtx_5090_aliases[] = {"5090", NULL};
static const char *const rtx_pro_6000_ws_aliases[] = {"rtx-pro-6000", "rtx-pro-6000-blackwell",
                                                      "rtx-pro-6000-ws", NULL};
static const char *const rtx_pro_6000_server_aliases[] = {"rtx-pro-6000-server",
                                                          "rtx-pro-6000-blackwell-server", NULL};

/* Latency citations: the strings `occ latency` prints after the source's name. */

/* occ lab latency, docs/results/h200/lab-all.txt (2026-12-01). */
static const char cite_h200[] =
    "occ lab latency on an H200, driver 580, CUDA 13.0: 700 cycles, 354 ns";
/* gpu-benches cuda-latency/v100.txt (Tesla V100-PCIe-16GB, also the README's example, 436
   cycles): 437.0 cycles at the recorded 1380 MHz = 316.7 ns. */
static const char cite_v100_pcie[] =
    "gpu-benches (D. Ernst, NHR@FAU), Tesla V100-PCIe-16GB: 437 cycles at 1380 MHz = 317 ns";
static const char cite_v100_arch[] =
    "V100 PCIe figure (gpu-benches, D. Ernst: 437 cycles at 1380 MHz = 317 ns)";
/* MT4G sample_results/NVIDIA GeForce RTX 2080 Ti: main latency mean 496.2 cycles at the reported
   1545 MHz = 321.2 ns. Timed per load, so likely 10-20% high (see above). */
static const char cite_2080ti[] =
    "MT4G sample results (TU Munich, 2025), RTX 2080 Ti: 496 cycles at 1545 MHz = 321 ns";
static const char cite_turing_arch[] =
    "RTX 2080 Ti figure (MT4G sample results, 2025: 496 cycles at 1545 MHz = 321 ns)";
/* gpu-benches cuda-latency/a100_40.txt: 574.6 cycles at the recorded 1410 MHz = 407.5 ns. The
   file does not name the form factor; the repository's roofline results name the machine
   (alex_a100_40: NHR@FAU's Alex cluster, HGX nodes with SXM4 modules as far as we know, not
   verified), and PCIe and SXM parts share the GA100 and its HBM2. MT4G's A100-PCIE-40GB reads
   640 cycles at 1410 MHz = 454 ns, timed per load. */
static const char cite_a100_40[] =
    "gpu-benches (D. Ernst, NHR@FAU), A100 40GB: 575 cycles at 1410 MHz = 408 ns";
static const char cite_a100_40_arch[] =
    "A100 40GB figure (gpu-benches, D. Ernst: 575 cycles at 1410 MHz = 408 ns)";
/* gpu-benches cuda-latency/a100_80.txt: 571.8 cycles at 1410 MHz = 405.5 ns (AI_kernels'
   "A100 SXM", 80 GiB: 550 cycles, 390 ns at 1410 MHz). */
static const char cite_a100_80[] =
    "gpu-benches (D. Ernst, NHR@FAU), A100 80GB: 572 cycles at 1410 MHz = 406 ns";
static const char cite_a100_80_arch[] =
    "A100 80GB figure (gpu-benches, D. Ernst: 572 cycles at 1410 MHz = 406 ns)";
/* No published figure of a GA10x or Orin part was found; the GA100's is the architecture's,
   measured on HBM2, which these parts do not have. */
static const char cite_ga10x_arch[] =
    "Ampere figure of the A100 40GB (gpu-benches, D. Ernst: 408 ns), on HBM2, not this "
    "GPU's GDDR6/6X: rough";
static const char cite_orin_arch[] =
    "Ampere figure of the A100 40GB (gpu-benches, D. Ernst: 408 ns), on HBM2, not Orin's "
    "LPDDR5: rough";
/* gpu-benches gpu-latency/l40.txt (NVIDIA L40, AD102 with GDDR6): 631.9 cycles at the recorded
   2490 MHz = 253.8 ns. */
static const char cite_ada_arch[] =
    "L40 figure (gpu-benches, D. Ernst: 632 cycles at 2490 MHz = 254 ns)";
/* AI_kernels: 636 cycles; at the 2520 MHz boost clock = 252.4 ns (the L40: 254 ns). */
static const char cite_4090[] =
    "AI_kernels (M. Dewing): 636 cycles, at the 2520 MHz boost clock = 252 ns";
/* gpu-benches gpu-latency/h100_pcie.txt: 658.4 cycles at the recorded 1755 MHz = 375.2 ns. */
static const char cite_h100_pcie[] =
    "gpu-benches (D. Ernst, NHR@FAU), H100 PCIe: 658 cycles at 1755 MHz = 375 ns";
/* AI_kernels "H100 SXM": 700 cycles; at the 1980 MHz boost clock = 353.5 ns. MT4G's "H100 80GB
   HBM3" reads 834 cycles = 421 ns, and its H100 NVL 803 cycles at 1785 MHz = 450 ns, both timed
   per load. */
static const char cite_h100_sxm[] =
    "AI_kernels (M. Dewing): 700 cycles, at the 1980 MHz boost clock = 354 ns";
static const char cite_h100_sxm_arch[] =
    "H100 SXM figure (AI_kernels, M. Dewing: 700 cycles at 1980 MHz = 354 ns)";
/* AI_kernels "GH200" (96 GiB, the HBM3 part): 690 cycles; at 1980 MHz = 348.5 ns. */
static const char cite_gh200[] =
    "AI_kernels (M. Dewing): 690 cycles, at the 1980 MHz boost clock = 348 ns";
/* AI_kernels "B200": 860 cycles; at the 1965 MHz boost clock = 437.7 ns. */
static const char cite_b200[] =
    "AI_kernels (M. Dewing): 860 cycles, at the 1965 MHz boost clock = 438 ns";
static const char cite_b200_arch[] =
    "B200 figure (AI_kernels, M. Dewing: 860 cycles at 1965 MHz = 438 ns)";
/* AI_kernels "5090": 936 cycles; at the 2407 MHz boost clock = 388.9 ns. GeForce cards often run
   well above their rated boost; at 2.75 GHz it would be 340 ns. */
static const char cite_5090[] =
    "AI_kernels (M. Dewing): 936 cycles, at the 2407 MHz boost clock = 389 ns";
/* AI_kernels "RTX PRO 6000" (95.6 GiB; the edition is not stated): 864 cycles. NVIDIA publishes
   no boost clock for it, so converted at the RTX 5090's 2407 MHz (the same GB202 chip) =
   359.0 ns: uncertain. */
static const char cite_pro6000[] =
    "AI_kernels (M. Dewing): 864 cycles, at the RTX 5090's 2407 MHz boost clock = 359 ns";
static const char cite_pro6000_arch[] =
    "RTX PRO 6000 Workstation figure (AI_kernels, M. Dewing: 864 cycles = 359 ns)";

const occ_named_gpu occ__named_table[] = {
    /* ---- Volta, compute capability 7.0 ---- */
    {
        .name = "V100 SXM2",
        .aliases = v100_sxm2_aliases,
        .cc_major = 7,
        .cc_minor = 0,                 /* Volta whitepaper, Table 1 (CC 7.0) */
        .sm_count = 80,                /* Volta whitepaper, Table 1; XLA spec v100 */
        .sm_clock_mhz = 1530,          /* Volta whitepaper, Table 1; XLA spec v100 */
        .mem_bandwidth_gb_per_s = 900, /* NVIDIA V100 datasheet: 900 GB/s */
        .l2_bytes = 6291456,           /* Volta whitepaper, Table 1: 6144 KB */
        .mem_latency_ns = 317,         /* the V100 PCIe's: the same GV100 and HBM2 */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_v100_arch,
    },
    {
        .name = "V100 PCIe",
        .aliases = v100_pcie_aliases,
        .cc_major = 7,
        .cc_minor = 0,                 /* Volta whitepaper, Table 1 (CC 7.0) */
        .sm_count = 80,                /* deviceQuery, Tesla V100-PCIE-16GB/-32GB */
        .sm_clock_mhz = 1380,          /* deviceQuery, Tesla V100-PCIE-16GB/-32GB */
        .mem_bandwidth_gb_per_s = 900, /* NVIDIA V100 datasheet: 900 GB/s (PCIe) */
        .l2_bytes = 6291456,           /* deviceQuery, Tesla V100-PCIE: 6291456 */
        .mem_latency_ns = 317,         /* gpu-benches: 437 cycles at 1380 MHz */
        .mem_latency_source = OCC_LATENCY_PUBLISHED,
        .mem_latency_citation = cite_v100_pcie,
    },

    /* ---- Turing, compute capability 7.5 ---- */
    {
        .name = "T4",
        .aliases = NULL,
        .cc_major = 7,
        .cc_minor = 5,                 /* CUDA GPUs (T4: 7.5) */
        .sm_count = 40,                /* T4 datasheet: 2,560 cores / 64 per SM */
        .sm_clock_mhz = 1590,          /* deviceQuery, Tesla T4: 1590 MHz */
        .mem_bandwidth_gb_per_s = 320, /* NVIDIA T4 datasheet: 320+ GB/s */
        .l2_bytes = 4194304,           /* deviceQuery, Tesla T4: 4194304 */
        .mem_latency_ns = 321,         /* the RTX 2080 Ti's (MT4G); MT4G's T1000,
                                          GDDR6 at the T4's 10 Gb/s: 496 cycles at
                                          1395 MHz = 355 ns */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_turing_arch,
    },
    {
        .name = "RTX 2080 Ti",
        .aliases = rtx_2080_ti_aliases,
        .cc_major = 7,
        .cc_minor = 5,                 /* CUDA GPUs (GeForce RTX 2080 Ti: 7.5) */
        .sm_count = 68,                /* Turing whitepaper, Table 1 */
        .sm_clock_mhz = 1545,          /* Turing whitepaper, Table 1: reference
                                          board (Founders Edition: 1635) */
        .mem_bandwidth_gb_per_s = 616, /* Turing whitepaper, Table 1: 616 GB/sec */
        .l2_bytes = 5767168,           /* Turing whitepaper, Table 1: 5632 KB */
        .mem_latency_ns = 321,         /* MT4G: 496 cycles at 1545 MHz */
        .mem_latency_source = OCC_LATENCY_PUBLISHED,
        .mem_latency_citation = cite_2080ti,
    },

    /* ---- Ampere GA100, compute capability 8.0 ---- */
    {
        .name = "A100 SXM 40GB",
        .aliases = a100_sxm_40gb_aliases,
        .cc_major = 8,
        .cc_minor = 0,                  /* A100 whitepaper, Table 3 (CC 8.0) */
        .sm_count = 108,                /* A100 whitepaper, Table 3; XLA spec */
        .sm_clock_mhz = 1410,           /* A100 whitepaper, Table 3; XLA spec */
        .mem_bandwidth_gb_per_s = 1555, /* A100 whitepaper, Table 3: 1555 GB/sec */
        .l2_bytes = 41943040,           /* A100 whitepaper, Table 3: 40960 KB */
        .mem_latency_ns = 408,          /* gpu-benches: 575 cycles at 1410 MHz */
        .mem_latency_source = OCC_LATENCY_PUBLISHED,
        .mem_latency_citation = cite_a100_40,
    },
    {
        .name = "A100 PCIe 40GB",
        .aliases = a100_pcie_40gb_aliases,
        .cc_major = 8,
        .cc_minor = 0,                  /* A100 whitepaper, Table 3 (CC 8.0) */
        .sm_count = 108,                /* A100 PCIe product brief (PB-10137):
                                           6,912 cores / 64 per SM */
        .sm_clock_mhz = 1410,           /* A100 datasheet: 19.5 TFLOPS FP32 =
                                           6,912 x 2 x 1410 MHz */
        .mem_bandwidth_gb_per_s = 1555, /* A100 datasheet: 1,555 GB/s (40GB PCIe) */
        .l2_bytes = 41943040,           /* A100 whitepaper, Table 3: 40960 KB */
        .mem_latency_ns = 408,          /* the A100 40GB's: the same GA100 and
                                           HBM2 (MT4G: 454 ns, timed per load) */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_a100_40_arch,
    },
    {
        .name = "A100 SXM 80GB",
        .aliases = a100_sxm_80gb_aliases,
        .cc_major = 8,
        .cc_minor = 0,                  /* A100 whitepaper, Table 3 (CC 8.0) */
        .sm_count = 108,                /* XLA spec a100_sxm_80 (A100-SXM4-80GB) */
        .sm_clock_mhz = 1410,           /* XLA spec a100_sxm_80 (A100-SXM4-80GB) */
        .mem_bandwidth_gb_per_s = 2039, /* A100 datasheet: 2,039 GB/s (80GB SXM) */
        .l2_bytes = 41943040,           /* XLA spec a100_sxm_80: 41943040 */
        .mem_latency_ns = 406,          /* gpu-benches: 572 cycles at 1410 MHz */
        .mem_latency_source = OCC_LATENCY_PUBLISHED,
        .mem_latency_citation = cite_a100_80,
    },
    {
        .name = "A100 PCIe 80GB",
        .aliases = a100_pcie_80gb_aliases,
        .cc_major = 8,
        .cc_minor = 0,                  /* A100 whitepaper, Table 3 (CC 8.0) */
        .sm_count = 108,                /* XLA spec a100_pcie_80 */
        .sm_clock_mhz = 1410,           /* A100 datasheet: 19.5 TFLOPS FP32 =
                                           6,912 x 2 x 1410 MHz */
        .mem_bandwidth_gb_per_s = 1935, /* A100 datasheet: 1,935 GB/s (80GB PCIe) */
        .l2_bytes = 41943040,           /* XLA spec a100_pcie_80: 41943040 */
        .mem_latency_ns = 406,          /* the A100 80GB's: the same GA100 and
                                           HBM2e */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_a100_80_arch,
    },
    {
        .name = "A30",
        .aliases = NULL,
        .cc_major = 8,
        .cc_minor = 0,                 /* CUDA GPUs (A30: 8.0) */
        .sm_count = 56,                /* deviceQuery-style nvbench log, NVIDIA A30 */
        .sm_clock_mhz = 1440,          /* same log: 1440 MHz; A30 datasheet 5.2
                                          TFLOPS FP64 = 56 x 32 x 2 x 1440 MHz */
        .mem_bandwidth_gb_per_s = 933, /* NVIDIA A30 datasheet: 933 GB/s */
        .l2_bytes = 25165824,          /* same log: L2 24576 KiB */
        .mem_latency_ns = 408,         /* the A100 40GB's: GA100 with HBM2 */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_a100_40_arch,
    },

    /* ---- Ampere GA10x, compute capability 8.6 ---- */
    {
        .name = "A10",
        .aliases = NULL,
        .cc_major = 8,
        .cc_minor = 6,                 /* CUDA GPUs (A10: 8.6) */
        .sm_count = 72,                /* deviceQuery, NVIDIA A10: 72 */
        .sm_clock_mhz = 1695,          /* deviceQuery, NVIDIA A10: 1695 MHz */
        .mem_bandwidth_gb_per_s = 600, /* NVIDIA A10 datasheet: 600 GB/s */
        .l2_bytes = 6291456,           /* deviceQuery, NVIDIA A10: 6291456 */
        .mem_latency_ns = 408,         /* Ampere (GA100, HBM2): rough for GDDR6 */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_ga10x_arch,
    },
    {
        .name = "A40",
        .aliases = NULL,
        .cc_major = 8,
        .cc_minor = 6,                 /* CUDA GPUs (A40: 8.6) */
        .sm_count = 84,                /* A40 datasheet: 10,752 cores / 128 per SM;
                                          deviceQuery, NVIDIA A40: 84 */
        .sm_clock_mhz = 1740,          /* deviceQuery, NVIDIA A40: 1740 MHz */
        .mem_bandwidth_gb_per_s = 696, /* NVIDIA A40 datasheet: 696 GB/s */
        .l2_bytes = 6291456,           /* deviceQuery, NVIDIA A40: 6291456 */
        .mem_latency_ns = 408,         /* Ampere (GA100, HBM2): rough for GDDR6 */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_ga10x_arch,
    },
    {
        .name = "RTX A6000",
        .aliases = rtx_a6000_aliases,
        .cc_major = 8,
        .cc_minor = 6,                 /* CUDA GPUs (RTX A6000: 8.6) */
        .sm_count = 84,                /* XLA spec a6000 (NVIDIA RTX A6000) */
        .sm_clock_mhz = 1800,          /* XLA spec a6000: 1.8 GHz */
        .mem_bandwidth_gb_per_s = 768, /* RTX A6000 datasheet: 768 GB/s */
        .l2_bytes = 6291456,           /* XLA spec a6000: 6291456 */
        .mem_latency_ns = 408,         /* Ampere (GA100, HBM2): rough for GDDR6 */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_ga10x_arch,
    },
    {
        .name = "RTX 3090",
        .aliases = rtx_3090_aliases,
        .cc_major = 8,
        .cc_minor = 6,                 /* CUDA GPUs (GeForce RTX 3090: 8.6) */
        .sm_count = 82,                /* GA102 whitepaper, Table 1 (RTX 3090) */
        .sm_clock_mhz = 1695,          /* GA102 whitepaper, Table 1 (RTX 3090) */
        .mem_bandwidth_gb_per_s = 936, /* GA102 whitepaper, Table 1: 936 GB/sec */
        .l2_bytes = 6291456,           /* GA102 whitepaper, Table 1: 6144 KB */
        .mem_latency_ns = 408,         /* Ampere (GA100, HBM2): rough for GDDR6X */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_ga10x_arch,
    },

    /* ---- Ampere (Tegra), compute capability 8.7 ---- */
    {
        .name = "Jetson AGX Orin 64GB",
        .aliases = agx_orin_aliases,
        .cc_major = 8,
        .cc_minor = 7,                 /* CUDA GPUs (Jetson AGX Orin: 8.7) */
        .sm_count = 16,                /* AGX Orin datasheet: 2048 cores / 128 per
                                          SM; deviceQuery, AGX Orin 64GB: 16 */
        .sm_clock_mhz = 1300,          /* AGX Orin datasheet: GPU max 1.3 GHz */
        .mem_bandwidth_gb_per_s = 205, /* AGX Orin datasheet: 204.8 GB/s, rounded */
        .l2_bytes = 4194304,           /* deviceQuery, AGX Orin 64GB: 4194304 */
        .mem_latency_ns = 408,         /* Ampere (GA100, HBM2): rough for
                                          LPDDR5 */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_orin_arch,
    },
    {
        .name = "Jetson Orin Nano 8GB",
        .aliases = orin_nano_aliases,
        .cc_major = 8,
        .cc_minor = 7,                /* CUDA GPUs (Jetson Orin Nano: 8.7) */
        .sm_count = 8,                /* Orin Nano datasheet: 1024 cores / 128 */
        .sm_clock_mhz = 625,          /* Orin Nano datasheet: 625 MHz (the 2024
                                         "Super" mode raises it to 1020) */
        .mem_bandwidth_gb_per_s = 68, /* Orin Nano datasheet: 68 GB/s (Super: 102) */
        .l2_bytes = 2097152,          /* deviceQuery, Orin Nano 8GB: 2097152 */
        .mem_latency_ns = 408,        /* Ampere (GA100, HBM2): rough for
                                         LPDDR5 */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_orin_arch,
    },

    /* ---- Ada Lovelace, compute capability 8.9 ---- */
    {
        .name = "L4",
        .aliases = NULL,
        .cc_major = 8,
        .cc_minor = 9,                 /* CUDA GPUs (L4: 8.9) */
        .sm_count = 58,                /* deviceQuery, NVIDIA L4: 58 */
        .sm_clock_mhz = 2040,          /* deviceQuery, NVIDIA L4: 2040 MHz */
        .mem_bandwidth_gb_per_s = 300, /* NVIDIA L4 datasheet: 300 GB/s */
        .l2_bytes = 50331648,          /* deviceQuery, NVIDIA L4: 50331648 */
        .mem_latency_ns = 254,         /* the L40's (AD102, GDDR6) */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_ada_arch,
    },
    {
        .name = "L40S",
        .aliases = NULL,
        .cc_major = 8,
        .cc_minor = 9,                 /* CUDA GPUs (L40S: 8.9) */
        .sm_count = 142,               /* L40S datasheet: 18,176 cores / 128 per SM;
                                          deviceQuery, NVIDIA L40S: 142 */
        .sm_clock_mhz = 2520,          /* deviceQuery, NVIDIA L40S: 2520 MHz */
        .mem_bandwidth_gb_per_s = 864, /* NVIDIA L40S datasheet: 864 GB/s */
        .l2_bytes = 100663296,         /* deviceQuery, NVIDIA L40S: 100663296 */
        .mem_latency_ns = 254,         /* the L40's: the same AD102 and GDDR6 */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_ada_arch,
    },
    {
        .name = "RTX 4090",
        .aliases = rtx_4090_aliases,
        .cc_major = 8,
        .cc_minor = 9,                  /* CUDA GPUs (GeForce RTX 4090: 8.9) */
        .sm_count = 128,                /* Ada whitepaper, Table 1 (RTX 4090) */
        .sm_clock_mhz = 2520,           /* Ada whitepaper, Table 1 (RTX 4090) */
        .mem_bandwidth_gb_per_s = 1008, /* Ada whitepaper, Table 1: 1008 GB/sec */
        .l2_bytes = 75497472,           /* Ada whitepaper, Table 1: 73728 KB */
        .mem_latency_ns = 252,          /* AI_kernels: 636 cycles at the boost clock */
        .mem_latency_source = OCC_LATENCY_PUBLISHED,
        .mem_latency_citation = cite_4090,
    },
    {
        .name = "RTX 6000 Ada Generation",
        .aliases = rtx_6000_ada_aliases,
        .cc_major = 8,
        .cc_minor = 9,                 /* CUDA GPUs (RTX 6000 Ada: 8.9) */
        .sm_count = 142,               /* RTX 6000 Ada datasheet: 18,176 cores /
                                          128 per SM */
        .sm_clock_mhz = 2505,          /* RTX 6000 Ada datasheet: 91.1 TFLOPS FP32 =
                                          18,176 x 2 x 2505 MHz */
        .mem_bandwidth_gb_per_s = 960, /* RTX 6000 Ada datasheet: 960 GB/s */
        .l2_bytes = 0,                 /* unknown: not in the datasheet and no
                                          device report found */
        .mem_latency_ns = 254,         /* the L40's: the same AD102 and GDDR6 */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_ada_arch,
    },

    /* ---- Hopper, compute capability 9.0 ---- */
    {
        .name = "H100 PCIe",
        .aliases = h100_pcie_aliases,
        .cc_major = 9,
        .cc_minor = 0,                  /* H100 whitepaper v1.04, Table 3 (CC 9.0) */
        .sm_count = 114,                /* H100 whitepaper v1.04, Table 3; docs.nvidia
                                           .com/launchpad/ai/h100-mig/latest/
                                           h100-mig-gpu.html */
        .sm_clock_mhz = 1755,           /* H100 whitepaper v1.04, Table 3 (non-Tensor
                                           boost; 1620 for Tensor Core work) */
        .mem_bandwidth_gb_per_s = 2039, /* H100 whitepaper v1.04, Table 3: 2039 GB/sec
                                           (the datasheet rounds to 2 TB/s) */
        .l2_bytes = 52428800,           /* H100 whitepaper v1.04, Table 3: 50 MB;
                                           XLA spec h100_pcie: 52428800 */
        .mem_latency_ns = 375,          /* gpu-benches: 658 cycles at 1755 MHz */
        .mem_latency_source = OCC_LATENCY_PUBLISHED,
        .mem_latency_citation = cite_h100_pcie,
    },
    {
        .name = "H100 SXM",
        .aliases = h100_sxm_aliases,
        .cc_major = 9,
        .cc_minor = 0,                  /* H100 whitepaper v1.04, Table 3 (CC 9.0) */
        .sm_count = 132,                /* H100 whitepaper v1.04, Table 3 (SXM5) */
        .sm_clock_mhz = 1980,           /* H100 whitepaper v1.04, Table 3 (non-Tensor
                                           boost; 1830 for Tensor Core work) */
        .mem_bandwidth_gb_per_s = 3352, /* H100 whitepaper v1.04, Table 3: 3352 GB/sec
                                           (datasheet: 3.35 TB/s) */
        .l2_bytes = 52428800,           /* H100 whitepaper v1.04, Table 3: 50 MB */
        .mem_latency_ns = 354,          /* AI_kernels: 700 cycles at the boost clock */
        .mem_latency_source = OCC_LATENCY_PUBLISHED,
        .mem_latency_citation = cite_h100_sxm,
    },
    {
        .name = "H100 NVL",
        .aliases = NULL,
        .cc_major = 9,
        .cc_minor = 0,                  /* CUDA GPUs (H100: 9.0) */
        .sm_count = 132,                /* 16,896 FP32 CUDA cores per GPU (NVIDIA's
                                           H100 NVL product listings) / 128 per SM
                                           (H100 whitepaper, table 3) */
        .sm_clock_mhz = 0,              /* unknown: not in the H100 NVL datasheet */
        .mem_bandwidth_gb_per_s = 3900, /* H100 datasheet (2024), H100 NVL: 3.9 TB/s */
        .l2_bytes = 0,                  /* unknown: not in the H100 NVL datasheet */
        .mem_latency_ns = 354,          /* the H100 SXM's: GH100 with HBM3 (MT4G:
                                           450 ns, timed per load) */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_h100_sxm_arch,
    },
    {
        .name = "H200",
        .aliases = h200_aliases,
        .cc_major = 9,
        .cc_minor = 0,                  /* measured on the device (H200 probe) */
        .sm_count = 132,                /* measured on the device (H200 probe) */
        .sm_clock_mhz = 1980,           /* measured on the device (H200 probe) */
        .mem_bandwidth_gb_per_s = 4800, /* NVIDIA H200 datasheet: 4.8 TB/s (3201 MHz
                                           DDR x 6016-bit bus = 4815, H200 probe) */
        .l2_bytes = 62914560,           /* measured on the device (H200 probe):
                                           60 MiB */
        .mem_latency_ns = 354,          /* dependent loads over a buffer far past L2:
                                           354 ns, 700 cycles; occ lab latency on an
                                           NVIDIA H200, driver 580, CUDA 13.0,
                                           docs/results/h200/lab-all.txt */
        .mem_latency_source = OCC_LATENCY_MEASURED,
        .mem_latency_citation = cite_h200,
    },
    {
        .name = "GH200",
        .aliases = gh200_aliases,
        .cc_major = 9,
        .cc_minor = 0,                  /* CUDA GPUs (GH200: 9.0) */
        .sm_count = 132,                /* deviceQuery, NVIDIA GH200 480GB (96 GB
                                           HBM3): 132 */
        .sm_clock_mhz = 1980,           /* deviceQuery, NVIDIA GH200 480GB: 1980 MHz */
        .mem_bandwidth_gb_per_s = 4000, /* GH200 datasheet: 96 GB HBM3 at 4 TB/s (the
                                           144 GB HBM3e part: 4.9 TB/s) */
        .l2_bytes = 62914560,           /* deviceQuery, NVIDIA GH200 480GB: 62914560 */
        .mem_latency_ns = 348,          /* AI_kernels: 690 cycles at the boost clock */
        .mem_latency_source = OCC_LATENCY_PUBLISHED,
        .mem_latency_citation = cite_gh200,
    },

    /* ---- Blackwell (data center), compute capability 10.0 ---- */
    {
        .name = "B200",
        .aliases = NULL,
        .cc_major = 10,
        .cc_minor = 0,                  /* CUDA GPUs (B200: 10.0) */
        .sm_count = 148,                /* XLA spec b200 (NVIDIA B200): 148 */
        .sm_clock_mhz = 1965,           /* XLA spec b200: 1965000 kHz */
        .mem_bandwidth_gb_per_s = 8000, /* DGX B200 datasheet: 64 TB/s for 8 GPUs
                                           (the driver's 7680-bit x 3996 MHz = 7672) */
        .l2_bytes = 132644864,          /* XLA spec b200: 132644864 (126.5 MiB) */
        .mem_latency_ns = 438,          /* AI_kernels: 860 cycles at the boost clock */
        .mem_latency_source = OCC_LATENCY_PUBLISHED,
        .mem_latency_citation = cite_b200,
    },
    {
        .name = "GB200",
        .aliases = NULL,
        .cc_major = 10,
        .cc_minor = 0,                  /* CUDA GPUs (GB200: 10.0) */
        .sm_count = 152,                /* XLA spec gb200 (NVIDIA GB200): 152 */
        .sm_clock_mhz = 2062,           /* XLA spec gb200: 2062000 kHz */
        .mem_bandwidth_gb_per_s = 8000, /* GB200 NVL72 spec: 576 TB/s for 72 GPUs */
        .l2_bytes = 135528448,          /* XLA spec gb200: 135528448 */
        .mem_latency_ns = 438,          /* the B200's: the same B200 GPU and HBM3e */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_b200_arch,
    },

    /* ---- Blackwell (RTX), compute capability 12.0 ---- */
    {
        .name = "RTX 5090",
        .aliases = rtx_5090_aliases,
        .cc_major = 12,
        .cc_minor = 0,                  /* CUDA GPUs (GeForce RTX 5090: 12.0) */
        .sm_count = 170,                /* RTX Blackwell whitepaper, Table 1 */
        .sm_clock_mhz = 2407,           /* RTX Blackwell whitepaper, Table 1 */
        .mem_bandwidth_gb_per_s = 1792, /* RTX Blackwell whitepaper, Table 1 */
        .l2_bytes = 100663296,          /* RTX Blackwell whitepaper, Table 1: 98304 KB;
                                           deviceQuery, RTX 5090: 100663296 */
        .mem_latency_ns = 389,          /* AI_kernels: 936 cycles at the boost clock */
        .mem_latency_source = OCC_LATENCY_PUBLISHED,
        .mem_latency_citation = cite_5090,
    },
    {
        .name = "RTX PRO 6000 Blackwell Workstation Edition",
        .aliases = rtx_pro_6000_ws_aliases,
        .cc_major = 12,
        .cc_minor = 0,                  /* CUDA GPUs (RTX PRO 6000 Blackwell: 12.0) */
        .sm_count = 188,                /* RTX PRO 6000 datasheet: 24,064 cores / 128
                                           per SM; XLA spec rtx6000pro: 188 */
        .sm_clock_mhz = 0,              /* unknown: NVIDIA publishes no boost clock */
        .mem_bandwidth_gb_per_s = 1792, /* RTX PRO 6000 Blackwell Workstation Edition
                                           datasheet: 1792 GB/s */
        .l2_bytes = 134217728,          /* XLA spec rtx6000pro: 134217728 (128 MiB) */
        .mem_latency_ns = 359,          /* AI_kernels: 864 cycles at 2407 MHz */
        .mem_latency_source = OCC_LATENCY_PUBLISHED,
        .mem_latency_citation = cite_pro6000,
    },
    {
        .name = "RTX PRO 6000 Blackwell Server Edition",
        .aliases = rtx_pro_6000_server_aliases,
        .cc_major = 12,
        .cc_minor = 0,               /* CUDA GPUs (RTX PRO 6000 Blackwell Server
                                        Edition: 12.0) */
        .sm_count = 188,             /* RTX PRO 6000 Blackwell Server Edition
                                        datasheet: 24,064 cores / 128 per SM */
        .sm_clock_mhz = 0,           /* unknown: NVIDIA publishes no boost clock */
        .mem_bandwidth_gb_per_s = 0, /* unknown: published figures disagree
                                        (1792 and about 1600 GB/s) */
        .l2_bytes = 0,               /* unknown: no device report of this edition */
        .mem_latency_ns = 359,       /* the Workstation Edition's: GB202,
                                        GDDR7 */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_pro6000_arch,
    },
};

const int occ__named_count = (int)(sizeof occ__named_table / sizeof occ__named_table[0]);
