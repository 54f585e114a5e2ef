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
 *  - "torch props": torch.cuda.get_device_properties() as printed in public logs: the driver's
 *    name, compute capability, multi_processor_count and L2 size, no clock.
 *  - "MT4G device report": the cudaGetDeviceProperties() part of an MT4G result file (see below).
 *  - "XLA spec": device descriptions recorded from the hardware in OpenXLA,
 *    github.com/openxla/xla, xla/backends/gpu/target_config/specs/<gpu>.txtpb.
 *  - "NVIDIA spec page": the product's specifications on nvidia.com (CUDA cores, boost clock,
 *    memory speed and width); "datasheet": the product's NVIDIA datasheet. The SM count is the
 *    CUDA cores over the architecture's cores per SM (64 on GP100, Volta, Turing and GA100;
 *    128 on Maxwell, the other Pascal chips, GA10x, Ada and Blackwell).
 *  - "TechPowerUp": techpowerup.com/gpu-specs, a secondary source, used only where NVIDIA
 *    publishes nothing (most L2 sizes, and the clocks of parts whose datasheet gives only
 *    TFLOPS: the comment then names the datasheet figure it agrees with).
 *  - "H200 probe": this project's own measurements on an H200 (driver 580, CUDA 13.0):
 *    cudaGetDeviceProperties in tests/data/h200-driver/h200-probe.txt, and occ lab's
 *    records in docs/results/h200/ (docs/hardware.md gathers them).
 * Laptop GPUs carry no clock and no bandwidth: the laptop's maker sets both within NVIDIA's
 * range. Jetson figures are the module's maximum power mode; a smaller mode lowers the clock and
 * can switch SMs off, which deviceQuery then reports.
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
 *    used for Turing and Pascal, where nothing else was found (Quadro P6000, T1000).
 * A product without a chase figure of its own takes a sibling's of the same architecture
 * (OCC_LATENCY_ARCHITECTURE, the sibling named in the citation); an MT4G figure of the product
 * itself (A100 PCIe 40GB, H100 NVL) is then a cross-check in the comment. Where the sibling's
 * memory is of another kind (HBM2 for GDDR6 or LPDDR5), the comment says the figure is rough.
 * No Maxwell figure was found at all: Maxwell takes the Pascal Quadro P6000's, marked rough.
 *
 * Conventions: bandwidth is the vendor's peak figure in GB/s (1e9 bytes/s), as an
 * integer; L2 sizes are in bytes as the driver reports them (the vendors' "MB" of L2 is
 * MiB); the clock is the product's boost clock, which is also the maximum SM clock the
 * driver reports; 0 means unknown or not verified, never a guess (a latency borrowed from a
 * sibling is not 0 but says so in its source).
 *
 * Aliases are matched after the lookup's normalisation (gpu_find.c: case, spaces, '-', '_',
 * parentheses and a leading NVIDIA/GeForce/Tesla/Quadro/Jetson are ignored, and a name's
 * leading RTX or GTX may be left out), so they list only genuinely different spellings:
 * the names nvidia-smi and cudaGetDeviceProperties() report ("NVIDIA H100 80GB HBM3",
 * "NVIDIA A100-SXM4-80GB") and common short forms. Each alias belongs to exactly one entry.
 * Where one short or reported name covers several products, it is the flagship's: "v100" is
 * the SXM2 part, "a100" the original 40 GB SXM part, "h100" the SXM part, "p100" the SXM2
 * part; the Jetson names the driver reports are the largest module's ("Orin": the AGX Orin
 * 64GB, "Xavier": the AGX Xavier, "Tegra X1": the TX1, though a Jetson Nano reports it too).
 */
#include "occ_internal.h"

static const char *const v100_sxm2_aliases[] = {"v100", "v100-sxm2-16gb", "v100-sxm2-32gb", NULL};
static const char *const v100_pcie_aliases[] = {"v100-pcie-16gb", "v100-pcie-32gb", NULL};
static const char *const rtx_2080_ti_aliases[] = {"2080ti", NULL};
static const char *const a100_sxm_40gb_aliases[] = {"a100", "a100-40gb", "a100-sxm4-40gb", NULL};
static const char *const a100_pcie_40gb_aliases[] = {"a100-pcie", "a100-pcie-40gb",
                                                     "a100-40gb-pcie", NULL};
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

static const char *const gtx_titan_x_aliases[] = {"titan-x-maxwell", NULL};
static const char *const m40_aliases[] = {"m40-24gb", NULL};
static const char *const jetson_tx1_aliases[] = {"tegra-x1", NULL};
static const char *const p100_sxm2_aliases[] = {"p100", "p100-sxm2-16gb", NULL};
static const char *const p100_pcie_16gb_aliases[] = {"p100-pcie", NULL};
static const char *const titan_x_pascal_aliases[] = {"titan-x-pascal", NULL};
static const char *const gtx_1060_6gb_aliases[] = {"gtx-1060", "1060", NULL};
static const char *const jetson_tx2_aliases[] = {"tegra-x2", NULL};
static const char *const v100s_pcie_aliases[] = {"v100s", "v100s-pcie-32gb", NULL};
static const char *const jetson_agx_xavier_aliases[] = {"xavier", "agx-xavier", NULL};
static const char *const jetson_xavier_nx_aliases[] = {"xavier-nx", NULL};
static const char *const t1000_aliases[] = {"t1000-8gb", NULL};
static const char *const a800_sxm_80gb_aliases[] = {"a800", "a800-sxm4-80gb", NULL};
static const char *const a800_pcie_80gb_aliases[] = {"a800-80gb-pcie", NULL};
static const char *const rtx_a5500_aliases[] = {"a5500", NULL};
static const char *const rtx_a5000_aliases[] = {"a5000", NULL};
static const char *const rtx_a4500_aliases[] = {"a4500", NULL};
static const char *const rtx_a4000_aliases[] = {"a4000", NULL};
static const char *const rtx_a2000_aliases[] = {"a2000", "rtx-a2000-12gb", NULL};
static const char *const rtx_3060_aliases[] = {"rtx-3060-12gb", NULL};
static const char *const rtx_3080_ti_laptop_gpu_aliases[] = {"rtx-3080-ti-laptop", "3080ti-laptop",
                                                             NULL};
static const char *const rtx_3080_laptop_gpu_aliases[] = {"rtx-3080-laptop", "3080-laptop", NULL};
static const char *const rtx_3070_ti_laptop_gpu_aliases[] = {"rtx-3070-ti-laptop", "3070ti-laptop",
                                                             NULL};
static const char *const rtx_3070_laptop_gpu_aliases[] = {"rtx-3070-laptop", "3070-laptop", NULL};
static const char *const rtx_3060_laptop_gpu_aliases[] = {"rtx-3060-laptop", "3060-laptop", NULL};
static const char *const rtx_3050_ti_laptop_gpu_aliases[] = {"rtx-3050-ti-laptop", "3050ti-laptop",
                                                             NULL};
static const char *const rtx_3050_laptop_gpu_aliases[] = {"rtx-3050-laptop", "3050-laptop", NULL};
static const char *const jetson_agx_orin_32gb_aliases[] = {"agx-orin-32gb", NULL};
static const char *const jetson_orin_nx_16gb_aliases[] = {"orin-nx", "orin-nx-16gb", NULL};
static const char *const jetson_orin_nx_8gb_aliases[] = {"orin-nx-8gb", NULL};
static const char *const jetson_orin_nano_4gb_aliases[] = {"orin-nano-4gb", NULL};
static const char *const jetson_orin_nano_super_aliases[] = {"orin-nano-super",
                                                             "orin-nano-8gb-super", NULL};
static const char *const rtx_4060_ti_aliases[] = {"rtx-4060-ti-16gb", NULL};
static const char *const rtx_4090_laptop_gpu_aliases[] = {"rtx-4090-laptop", "4090-laptop", NULL};
static const char *const rtx_4080_laptop_gpu_aliases[] = {"rtx-4080-laptop", "4080-laptop", NULL};
static const char *const rtx_4070_laptop_gpu_aliases[] = {"rtx-4070-laptop", "4070-laptop", NULL};
static const char *const rtx_4060_laptop_gpu_aliases[] = {"rtx-4060-laptop", "4060-laptop", NULL};
static const char *const rtx_4050_laptop_gpu_aliases[] = {"rtx-4050-laptop", "4050-laptop", NULL};
static const char *const rtx_5880_ada_generation_aliases[] = {"rtx-5880-ada", NULL};
static const char *const rtx_5000_ada_generation_aliases[] = {"rtx-5000-ada", NULL};
static const char *const rtx_4500_ada_generation_aliases[] = {"rtx-4500-ada", NULL};
static const char *const rtx_4000_ada_generation_aliases[] = {"rtx-4000-ada", NULL};
static const char *const rtx_4000_sff_ada_generation_aliases[] = {"rtx-4000-sff-ada", NULL};
static const char *const rtx_2000_ada_generation_aliases[] = {"rtx-2000-ada", NULL};
static const char *const h800_sxm_aliases[] = {"h800", "h800-sxm5", NULL};
static const char *const gh200_144gb_hbm3e_aliases[] = {"gh200-144g-hbm3e", "gh200-144gb", NULL};
static const char *const b300_aliases[] = {"b300-sxm6-ac", NULL};
static const char *const jetson_agx_thor_aliases[] = {"thor", "agx-thor", "jetson-t5000", "t5000",
                                                      NULL};
static const char *const rtx_5060_ti_aliases[] = {"rtx-5060-ti-16gb", NULL};
static const char *const rtx_5090_laptop_gpu_aliases[] = {"rtx-5090-laptop", "5090-laptop", NULL};
static const char *const rtx_5080_laptop_gpu_aliases[] = {"rtx-5080-laptop", "5080-laptop", NULL};
static const char *const rtx_5070_ti_laptop_gpu_aliases[] = {"rtx-5070-ti-laptop", "5070ti-laptop",
                                                             NULL};
static const char *const rtx_5070_laptop_gpu_aliases[] = {"rtx-5070-laptop", "5070-laptop", NULL};
static const char *const rtx_5060_laptop_gpu_aliases[] = {"rtx-5060-laptop", "5060-laptop", NULL};
static const char *const rtx_pro_6000_blackwell_max_q_workstation_edition_aliases[] = {
    "rtx-pro-6000-max-q", NULL};
static const char *const rtx_pro_5000_blackwell_aliases[] = {"rtx-pro-5000", NULL};
static const char *const rtx_pro_4500_blackwell_aliases[] = {"rtx-pro-4500", NULL};
static const char *const rtx_pro_4000_blackwell_aliases[] = {"rtx-pro-4000", NULL};
static const char *const rtx_pro_2000_blackwell_aliases[] = {"rtx-pro-2000", NULL};
static const char *const gb10_aliases[] = {"dgx-spark", "spark", "dgx-spark-gb10", NULL};

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
/* MT4G sample_results/Quadro P6000 (August 2025): main latency mean 415.3 cycles at the reported
   1645 MHz = 252.5 ns; GP102 with GDDR5X. Timed per load, so likely 10-20% high. The only Pascal
   figure found, and nothing of Maxwell: the Maxwell entries borrow it, roughly. */
static const char cite_p6000[] =
    "MT4G sample results (TU Munich, 2025), Quadro P6000: 415 cycles at 1645 MHz = 252 ns";
static const char cite_pascal_arch[] =
    "Quadro P6000 figure (MT4G sample results, 2025: 415 cycles at 1645 MHz = 252 ns)";
static const char cite_pascal_hbm_rough[] =
    "Pascal figure of the Quadro P6000 (MT4G, 2025: 252 ns), on GDDR5X, not this GPU's HBM2: "
    "rough";
static const char cite_pascal_lpddr_rough[] =
    "Pascal figure of the Quadro P6000 (MT4G, 2025: 252 ns), on GDDR5X, not the TX2's LPDDR4: "
    "rough";
static const char cite_maxwell_rough[] =
    "Pascal figure of the Quadro P6000 (MT4G, 2025: 252 ns); no Maxwell figure was found: rough";
static const char cite_maxwell_lpddr_rough[] =
    "Pascal figure of the Quadro P6000 (MT4G, 2025: 252 ns); no Maxwell figure was found, and "
    "this GPU has LPDDR4: rough";
/* No Xavier figure was found; Volta's is the V100's, on HBM2. */
static const char cite_xavier_rough[] =
    "Volta figure of the V100 PCIe (gpu-benches, D. Ernst: 317 ns), on HBM2, not Xavier's "
    "LPDDR4x: rough";
/* MT4G sample_results/NVIDIA T1000: main latency mean 495.9 cycles at the reported 1395 MHz =
   355.5 ns (TU117, GDDR6 at 10 Gb/s). Timed per load, so likely 10-20% high. */
static const char cite_t1000[] =
    "MT4G sample results (TU Munich, 2025), T1000: 496 cycles at 1395 MHz = 355 ns";
static const char cite_turing_gddr5_rough[] =
    "RTX 2080 Ti figure (MT4G sample results, 2025: 321 ns), on GDDR6, not this GPU's GDDR5: "
    "rough";
/* gpu-benches gpu-latency/l40.txt, as above. */
static const char cite_l40[] =
    "gpu-benches (D. Ernst, NHR@FAU), NVIDIA L40: 632 cycles at 2490 MHz = 254 ns";
static const char cite_4090_arch[] =
    "RTX 4090 figure (AI_kernels, M. Dewing: 636 cycles at 2520 MHz = 252 ns)";
static const char cite_h100_pcie_arch[] =
    "H100 PCIe figure (gpu-benches, D. Ernst: 658 cycles at 1755 MHz = 375 ns)";
static const char cite_h200_arch[] =
    "H200 figure (measured by occ on an H200, driver 580: 700 cycles = 354 ns)";
/* AI_kernels "B300": 848 cycles with unlocked clocks; its notes lock the B300 at 2032 MHz, the
   maximum SM clock public B300 SXM6 AC measurements report. 848 / 2.032 GHz = 417.3 ns. */
static const char cite_b300[] =
    "AI_kernels (M. Dewing): 848 cycles, at the 2032 MHz maximum SM clock = 417 ns";
static const char cite_b300_arch[] =
    "B300 figure (AI_kernels, M. Dewing: 848 cycles at 2032 MHz = 417 ns)";
/* No Thor or GB10 figure was found; their Blackwell siblings have HBM3e or GDDR7. */
static const char cite_thor_rough[] =
    "Blackwell figure of the B200 (AI_kernels, M. Dewing: 438 ns), on HBM3e, not Thor's "
    "LPDDR5X: rough";
static const char cite_5090_arch[] =
    "RTX 5090 figure (AI_kernels, M. Dewing: 936 cycles at 2407 MHz = 389 ns)";
static const char cite_5090_gddr6_rough[] =
    "RTX 5090 figure (AI_kernels, M. Dewing: 389 ns), on GDDR7, not this GPU's GDDR6: rough";
static const char cite_gb10_rough[] =
    "RTX 5090 figure (AI_kernels, M. Dewing: 389 ns), on GDDR7, not the GB10's LPDDR5X: rough";

const occ_named_gpu occ__named_table[] = {
    /* ---- Maxwell, compute capability 5.0 and 5.2 ---- */
    {
        .name = "GTX 750 Ti",
        .aliases = NULL,
        .cc_major = 5,
        .cc_minor = 0,                /* CUDA GPUs (GeForce GTX 750 Ti: 5.0) */
        .sm_count = 5,                /* NVIDIA spec page: 640 cores / 128 per SM */
        .sm_clock_mhz = 1085,         /* NVIDIA spec page: boost 1085 MHz */
        .mem_bandwidth_gb_per_s = 86, /* NVIDIA spec page: 86.4 GB/s */
        .l2_bytes = 2097152,          /* GM107 whitepaper (GTX 750 Ti): 2048 KB */
        .mem_latency_ns = 252, /* the Quadro P6000's (Pascal): no Maxwell figure found; rough */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_maxwell_rough,
    },
    {
        .name = "GTX 980 Ti",
        .aliases = NULL,
        .cc_major = 5,
        .cc_minor = 2,                 /* CUDA GPUs (GeForce GTX 980 Ti: 5.2) */
        .sm_count = 22,                /* NVIDIA spec page: 2816 cores / 128 per SM */
        .sm_clock_mhz = 1075,          /* NVIDIA spec page: boost 1075 MHz */
        .mem_bandwidth_gb_per_s = 336, /* NVIDIA spec page: 336.5 GB/s */
        .l2_bytes = 3145728,           /* TechPowerUp: 3 MB */
        .mem_latency_ns = 252, /* the Quadro P6000's (Pascal): no Maxwell figure found; rough */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_maxwell_rough,
    },
    {
        .name = "GTX 980",
        .aliases = NULL,
        .cc_major = 5,
        .cc_minor = 2,                 /* CUDA GPUs (GeForce GTX 980: 5.2) */
        .sm_count = 16,                /* GM204 whitepaper: 16 SMM */
        .sm_clock_mhz = 1216,          /* GM204 whitepaper: boost 1216 MHz */
        .mem_bandwidth_gb_per_s = 224, /* GM204 whitepaper: 224 GB/s */
        .l2_bytes = 2097152,           /* GM204 whitepaper: 2048 KB */
        .mem_latency_ns = 252, /* the Quadro P6000's (Pascal): no Maxwell figure found; rough */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_maxwell_rough,
    },
    {
        .name = "GTX 970",
        .aliases = NULL,
        .cc_major = 5,
        .cc_minor = 2,                 /* CUDA GPUs (GeForce GTX 970: 5.2) */
        .sm_count = 13,                /* NVIDIA spec page: 1664 cores / 128 per SM */
        .sm_clock_mhz = 1178,          /* NVIDIA spec page: boost 1178 MHz */
        .mem_bandwidth_gb_per_s = 224, /* NVIDIA spec page: 224 GB/s */
        .l2_bytes = 1835008,           /* NVIDIA's corrected GTX 970 spec (2015): 1792 KB */
        .mem_latency_ns = 252, /* the Quadro P6000's (Pascal): no Maxwell figure found; rough */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_maxwell_rough,
    },
    {
        .name = "GTX 960",
        .aliases = NULL,
        .cc_major = 5,
        .cc_minor = 2,                 /* CUDA GPUs (GeForce GTX 960: 5.2) */
        .sm_count = 8,                 /* NVIDIA spec page: 1024 cores / 128 per SM */
        .sm_clock_mhz = 1178,          /* NVIDIA spec page: boost 1178 MHz */
        .mem_bandwidth_gb_per_s = 112, /* NVIDIA spec page: 112 GB/s */
        .l2_bytes = 1048576,           /* TechPowerUp: 1 MB */
        .mem_latency_ns = 252, /* the Quadro P6000's (Pascal): no Maxwell figure found; rough */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_maxwell_rough,
    },
    {
        .name = "GTX 950",
        .aliases = NULL,
        .cc_major = 5,
        .cc_minor = 2,                 /* CUDA GPUs (GeForce GTX 950: 5.2) */
        .sm_count = 6,                 /* NVIDIA spec page: 768 cores / 128 per SM */
        .sm_clock_mhz = 1188,          /* NVIDIA spec page: boost 1188 MHz */
        .mem_bandwidth_gb_per_s = 106, /* NVIDIA spec page: 105.6 GB/s, rounded */
        .l2_bytes = 1048576,           /* TechPowerUp: 1 MB */
        .mem_latency_ns = 252, /* the Quadro P6000's (Pascal): no Maxwell figure found; rough */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_maxwell_rough,
    },
    {
        .name = "GTX TITAN X",
        .aliases = gtx_titan_x_aliases,
        .cc_major = 5,
        .cc_minor = 2,                 /* CUDA GPUs (GeForce GTX TITAN X: 5.2) */
        .sm_count = 24,                /* NVIDIA spec page: 3072 cores / 128 per SM */
        .sm_clock_mhz = 1075,          /* NVIDIA spec page: boost 1075 MHz */
        .mem_bandwidth_gb_per_s = 336, /* NVIDIA spec page: 336.5 GB/s */
        .l2_bytes = 3145728,           /* TechPowerUp: 3 MB */
        .mem_latency_ns = 252, /* the Quadro P6000's (Pascal): no Maxwell figure found; rough */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_maxwell_rough,
    },
    {
        .name = "M40",
        .aliases = m40_aliases,
        .cc_major = 5,
        .cc_minor = 2,                 /* CUDA GPUs (Tesla M40: 5.2) */
        .sm_count = 24,                /* Tesla M40 datasheet: 3072 cores / 128 per SM */
        .sm_clock_mhz = 1114,          /* Tesla M40 datasheet: boost 1114 MHz */
        .mem_bandwidth_gb_per_s = 288, /* Tesla M40 datasheet: 288 GB/s */
        .l2_bytes = 3145728,           /* TechPowerUp: 3 MB */
        .mem_latency_ns = 252, /* the Quadro P6000's (Pascal): no Maxwell figure found; rough */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_maxwell_rough,
    },
    {
        .name = "M60",
        .aliases = NULL,
        .cc_major = 5,
        .cc_minor = 2,        /* CUDA GPUs (Tesla M60: 5.2) */
        .sm_count = 16,       /* Tesla M60 datasheet: 2 GPUs of 2048 cores; one GPU / 128 per SM */
        .sm_clock_mhz = 1178, /* TechPowerUp: boost 1178 MHz */
        .mem_bandwidth_gb_per_s = 160, /* Tesla M60 datasheet: 160 GB/s per GPU */
        .l2_bytes = 2097152,           /* TechPowerUp: 2 MB per GPU */
        .mem_latency_ns = 252, /* the Quadro P6000's (Pascal): no Maxwell figure found; rough */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_maxwell_rough,
    },

    /* ---- Maxwell (Tegra X1), compute capability 5.3 ---- */
    {
        .name = "Jetson TX1",
        .aliases = jetson_tx1_aliases,
        .cc_major = 5,
        .cc_minor = 3,                /* CUDA GPUs (Jetson TX1: 5.3) */
        .sm_count = 2,                /* Jetson TX1 datasheet: 256 cores / 128 per SM */
        .sm_clock_mhz = 998,          /* Jetson TX1 datasheet: GPU max 998 MHz */
        .mem_bandwidth_gb_per_s = 26, /* Jetson TX1 datasheet: 25.6 GB/s, rounded */
        .l2_bytes = 262144,           /* deviceQuery, NVIDIA Tegra X1: 262144 */
        .mem_latency_ns =
            252, /* the Quadro P6000's (Pascal, GDDR5X): no Maxwell figure, and LPDDR4: rough */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_maxwell_lpddr_rough,
    },
    {
        .name = "Jetson Nano",
        .aliases = NULL,
        .cc_major = 5,
        .cc_minor = 3,                /* CUDA GPUs (Jetson Nano: 5.3) */
        .sm_count = 1,                /* Jetson Nano datasheet: 128 cores / 128 per SM */
        .sm_clock_mhz = 921,          /* Jetson Nano datasheet: GPU max 921.6 MHz */
        .mem_bandwidth_gb_per_s = 26, /* Jetson Nano datasheet: 25.6 GB/s, rounded */
        .l2_bytes = 262144,           /* deviceQuery, Jetson Nano (NVIDIA Tegra X1): 262144 */
        .mem_latency_ns =
            252, /* the Quadro P6000's (Pascal, GDDR5X): no Maxwell figure, and LPDDR4: rough */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_maxwell_lpddr_rough,
    },

    /* ---- Pascal, compute capability 6.0 and 6.1 ---- */
    {
        .name = "P100 SXM2",
        .aliases = p100_sxm2_aliases,
        .cc_major = 6,
        .cc_minor = 0,        /* Pascal whitepaper, Table 1 (CC 6.0) */
        .sm_count = 56,       /* Pascal whitepaper, Table 1; XLA spec p100 (Tesla P100-SXM2-16GB) */
        .sm_clock_mhz = 1480, /* Pascal whitepaper, Table 1: 1480 MHz; XLA spec p100 */
        .mem_bandwidth_gb_per_s = 732, /* P100 datasheet: 732 GB/s; XLA spec p100: 732.16e9 */
        .l2_bytes = 4194304,           /* Pascal whitepaper, Table 1: 4096 KB; XLA spec p100 */
        .mem_latency_ns = 252,         /* the Quadro P6000's (GDDR5X), not HBM2: rough */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_pascal_hbm_rough,
    },
    {
        .name = "P100 PCIe 16GB",
        .aliases = p100_pcie_16gb_aliases,
        .cc_major = 6,
        .cc_minor = 0,        /* CUDA GPUs (Tesla P100: 6.0) */
        .sm_count = 56,       /* P100 datasheet: 3584 cores / 64 per SM (GP100) */
        .sm_clock_mhz = 1329, /* TechPowerUp: boost 1329 MHz (datasheet: 9.3 TFLOPS FP32) */
        .mem_bandwidth_gb_per_s = 732, /* P100 datasheet: 732 GB/s (PCIe 16GB) */
        .l2_bytes = 4194304,   /* Pascal whitepaper: GP100's 4096 KB, all of it on the 16GB part */
        .mem_latency_ns = 252, /* the Quadro P6000's (GDDR5X), not HBM2: rough */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_pascal_hbm_rough,
    },
    {
        .name = "P100 PCIe 12GB",
        .aliases = NULL,
        .cc_major = 6,
        .cc_minor = 0,                 /* CUDA GPUs (Tesla P100: 6.0) */
        .sm_count = 56,                /* P100 datasheet: 3584 cores / 64 per SM (GP100) */
        .sm_clock_mhz = 1329,          /* TechPowerUp: boost 1329 MHz */
        .mem_bandwidth_gb_per_s = 549, /* P100 datasheet: 549 GB/s (PCIe 12GB, three HBM2 stacks) */
        .l2_bytes = 0,                 /* unknown: no device report of the 12GB part found */
        .mem_latency_ns = 252,         /* the Quadro P6000's (GDDR5X), not HBM2: rough */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_pascal_hbm_rough,
    },
    {
        .name = "P40",
        .aliases = NULL,
        .cc_major = 6,
        .cc_minor = 1,                 /* CUDA GPUs (Tesla P40: 6.1) */
        .sm_count = 30,                /* P40 datasheet: 3840 cores / 128 per SM */
        .sm_clock_mhz = 1531,          /* TechPowerUp: boost 1531 MHz (datasheet: 12 TFLOPS FP32) */
        .mem_bandwidth_gb_per_s = 346, /* P40 datasheet: 346 GB/s */
        .l2_bytes = 3145728,           /* TechPowerUp: 3 MB */
        .mem_latency_ns = 252,         /* the Quadro P6000's (GP102, GDDR5X) */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_pascal_arch,
    },
    {
        .name = "P4",
        .aliases = NULL,
        .cc_major = 6,
        .cc_minor = 1,        /* CUDA GPUs (Tesla P4: 6.1) */
        .sm_count = 20,       /* P4 datasheet: 2560 cores / 128 per SM */
        .sm_clock_mhz = 1063, /* TechPowerUp: boost 1063 MHz (datasheet: 5.5 TFLOPS FP32) */
        .mem_bandwidth_gb_per_s = 192, /* P4 datasheet: 192 GB/s */
        .l2_bytes = 2097152,           /* TechPowerUp: 2 MB */
        .mem_latency_ns = 252,         /* the Quadro P6000's (GP102, GDDR5X) */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_pascal_arch,
    },
    {
        .name = "Quadro P6000",
        .aliases = NULL,
        .cc_major = 6,
        .cc_minor = 1,        /* CUDA GPUs (Quadro P6000: 6.1); MT4G device report: 6.1 */
        .sm_count = 30,       /* MT4G device report (Quadro P6000): 30; 3840 cores / 128 */
        .sm_clock_mhz = 1645, /* MT4G device report: clockRate 1645 MHz (NVIDIA: boost 1560) */
        .mem_bandwidth_gb_per_s = 432, /* NVIDIA spec page: 432 GB/s (MT4G: 4513 MHz x 384-bit) */
        .l2_bytes = 3145728,           /* MT4G device report: 3145728 */
        .mem_latency_ns = 252,         /* MT4G: 415 cycles at 1645 MHz */
        .mem_latency_source = OCC_LATENCY_PUBLISHED,
        .mem_latency_citation = cite_p6000,
    },
    {
        .name = "TITAN Xp",
        .aliases = NULL,
        .cc_major = 6,
        .cc_minor = 1,                 /* CUDA GPUs (NVIDIA TITAN Xp: 6.1) */
        .sm_count = 30,                /* NVIDIA spec page: 3840 cores / 128 per SM */
        .sm_clock_mhz = 1582,          /* NVIDIA spec page: boost 1582 MHz */
        .mem_bandwidth_gb_per_s = 548, /* NVIDIA spec page: 547.7 GB/s, rounded */
        .l2_bytes = 3145728,           /* TechPowerUp: 3 MB */
        .mem_latency_ns = 252,         /* the Quadro P6000's (GP102, GDDR5X) */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_pascal_arch,
    },
    {
        .name = "TITAN X (Pascal)",
        .aliases = titan_x_pascal_aliases,
        .cc_major = 6,
        .cc_minor = 1,                 /* CUDA GPUs (NVIDIA TITAN X: 6.1) */
        .sm_count = 28,                /* NVIDIA spec page: 3584 cores / 128 per SM */
        .sm_clock_mhz = 1531,          /* NVIDIA spec page: boost 1531 MHz */
        .mem_bandwidth_gb_per_s = 480, /* NVIDIA spec page: 480 GB/s */
        .l2_bytes = 3145728,           /* TechPowerUp: 3 MB */
        .mem_latency_ns = 252,         /* the Quadro P6000's (GP102, GDDR5X) */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_pascal_arch,
    },
    {
        .name = "GTX 1080 Ti",
        .aliases = NULL,
        .cc_major = 6,
        .cc_minor = 1,                 /* CUDA GPUs (GeForce GTX 1080 Ti: 6.1) */
        .sm_count = 28,                /* NVIDIA spec page: 3584 cores / 128 per SM */
        .sm_clock_mhz = 1582,          /* NVIDIA spec page: boost 1582 MHz */
        .mem_bandwidth_gb_per_s = 484, /* NVIDIA spec page: 484 GB/s */
        .l2_bytes = 2883584,           /* TechPowerUp: 2816 KB */
        .mem_latency_ns = 252,         /* the Quadro P6000's (GP102, GDDR5X) */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_pascal_arch,
    },
    {
        .name = "GTX 1080",
        .aliases = NULL,
        .cc_major = 6,
        .cc_minor = 1,                 /* CUDA GPUs (GeForce GTX 1080: 6.1) */
        .sm_count = 20,                /* GP104 whitepaper, Table 1: 20 SMs */
        .sm_clock_mhz = 1733,          /* GP104 whitepaper, Table 1: boost 1733 MHz */
        .mem_bandwidth_gb_per_s = 320, /* GP104 whitepaper, Table 1: 320 GB/s */
        .l2_bytes = 2097152,           /* GP104 whitepaper, Table 1: 2048 KB */
        .mem_latency_ns = 252,         /* the Quadro P6000's (GP102, GDDR5X) */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_pascal_arch,
    },
    {
        .name = "GTX 1070 Ti",
        .aliases = NULL,
        .cc_major = 6,
        .cc_minor = 1,                 /* CUDA GPUs (GeForce GTX 1070 Ti: 6.1) */
        .sm_count = 19,                /* NVIDIA spec page: 2432 cores / 128 per SM */
        .sm_clock_mhz = 1683,          /* NVIDIA spec page: boost 1683 MHz */
        .mem_bandwidth_gb_per_s = 256, /* NVIDIA spec page: 8 Gbps x 256-bit = 256 GB/s */
        .l2_bytes = 2097152,           /* TechPowerUp: 2 MB */
        .mem_latency_ns = 252,         /* the Quadro P6000's (GP102, GDDR5X) */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_pascal_arch,
    },
    {
        .name = "GTX 1070",
        .aliases = NULL,
        .cc_major = 6,
        .cc_minor = 1,                 /* CUDA GPUs (GeForce GTX 1070: 6.1) */
        .sm_count = 15,                /* NVIDIA spec page: 1920 cores / 128 per SM */
        .sm_clock_mhz = 1683,          /* NVIDIA spec page: boost 1683 MHz */
        .mem_bandwidth_gb_per_s = 256, /* NVIDIA spec page: 8 Gbps x 256-bit = 256 GB/s */
        .l2_bytes = 2097152,           /* TechPowerUp: 2 MB */
        .mem_latency_ns = 252,         /* the Quadro P6000's (GP102, GDDR5X) */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_pascal_arch,
    },
    {
        .name = "GTX 1060 6GB",
        .aliases = gtx_1060_6gb_aliases,
        .cc_major = 6,
        .cc_minor = 1,                 /* CUDA GPUs (GeForce GTX 1060: 6.1) */
        .sm_count = 10,                /* NVIDIA spec page: 1280 cores / 128 per SM */
        .sm_clock_mhz = 1708,          /* NVIDIA spec page: boost 1708 MHz */
        .mem_bandwidth_gb_per_s = 192, /* NVIDIA spec page: 8 Gbps x 192-bit = 192 GB/s */
        .l2_bytes = 1572864,           /* TechPowerUp: 1536 KB */
        .mem_latency_ns = 252,         /* the Quadro P6000's (GP102, GDDR5X) */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_pascal_arch,
    },
    {
        .name = "GTX 1060 3GB",
        .aliases = NULL,
        .cc_major = 6,
        .cc_minor = 1,                 /* CUDA GPUs (GeForce GTX 1060: 6.1) */
        .sm_count = 9,                 /* NVIDIA spec page: 1152 cores / 128 per SM */
        .sm_clock_mhz = 1708,          /* NVIDIA spec page: boost 1708 MHz */
        .mem_bandwidth_gb_per_s = 192, /* NVIDIA spec page: 8 Gbps x 192-bit = 192 GB/s */
        .l2_bytes = 1572864,           /* TechPowerUp: 1536 KB */
        .mem_latency_ns = 252,         /* the Quadro P6000's (GP102, GDDR5X) */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_pascal_arch,
    },
    {
        .name = "GTX 1050 Ti",
        .aliases = NULL,
        .cc_major = 6,
        .cc_minor = 1,                 /* CUDA GPUs (GeForce GTX 1050 Ti: 6.1) */
        .sm_count = 6,                 /* NVIDIA spec page: 768 cores / 128 per SM */
        .sm_clock_mhz = 1392,          /* NVIDIA spec page: boost 1392 MHz */
        .mem_bandwidth_gb_per_s = 112, /* NVIDIA spec page: 7 Gbps x 128-bit = 112 GB/s */
        .l2_bytes = 1048576,           /* TechPowerUp: 1 MB */
        .mem_latency_ns = 252,         /* the Quadro P6000's (GP102, GDDR5X) */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_pascal_arch,
    },
    {
        .name = "GTX 1050",
        .aliases = NULL,
        .cc_major = 6,
        .cc_minor = 1,                 /* CUDA GPUs (GeForce GTX 1050: 6.1) */
        .sm_count = 5,                 /* NVIDIA spec page: 640 cores / 128 per SM */
        .sm_clock_mhz = 1455,          /* NVIDIA spec page: boost 1455 MHz */
        .mem_bandwidth_gb_per_s = 112, /* NVIDIA spec page: 7 Gbps x 128-bit = 112 GB/s */
        .l2_bytes = 1048576,           /* TechPowerUp: 1 MB */
        .mem_latency_ns = 252,         /* the Quadro P6000's (GP102, GDDR5X) */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_pascal_arch,
    },

    /* ---- Pascal (Tegra X2), compute capability 6.2 ---- */
    {
        .name = "Jetson TX2",
        .aliases = jetson_tx2_aliases,
        .cc_major = 6,
        .cc_minor = 2,                /* CUDA GPUs (Jetson TX2: 6.2) */
        .sm_count = 2,                /* Jetson TX2 datasheet: 256 cores / 128 per SM */
        .sm_clock_mhz = 1300,         /* Jetson TX2 datasheet: GPU max 1.3 GHz */
        .mem_bandwidth_gb_per_s = 60, /* Jetson TX2 datasheet: 59.7 GB/s, rounded */
        .l2_bytes = 524288,           /* deviceQuery, NVIDIA Tegra X2: 524288 */
        .mem_latency_ns = 252,        /* the Quadro P6000's (GDDR5X), not LPDDR4: rough */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_pascal_lpddr_rough,
    },

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
    {
        .name = "V100S PCIe",
        .aliases = v100s_pcie_aliases,
        .cc_major = 7,
        .cc_minor = 0,        /* CUDA GPUs (V100: 7.0) */
        .sm_count = 80,       /* V100S datasheet: 5120 cores / 64 per SM */
        .sm_clock_mhz = 1597, /* TechPowerUp: boost 1597 MHz (datasheet: 16.4 TFLOPS FP32) */
        .mem_bandwidth_gb_per_s = 1134, /* V100S datasheet: 1134 GB/s */
        .l2_bytes = 6291456,            /* Volta whitepaper: GV100's 6144 KB */
        .mem_latency_ns = 317,          /* the V100 PCIe's: GV100 with HBM2 */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_v100_arch,
    },
    {
        .name = "TITAN V",
        .aliases = NULL,
        .cc_major = 7,
        .cc_minor = 0,                 /* CUDA GPUs (NVIDIA TITAN V: 7.0) */
        .sm_count = 80,                /* NVIDIA spec page: 5120 cores / 64 per SM */
        .sm_clock_mhz = 1455,          /* NVIDIA spec page: boost 1455 MHz */
        .mem_bandwidth_gb_per_s = 653, /* NVIDIA spec page: 652.8 GB/s, rounded */
        .l2_bytes = 4718592,           /* TechPowerUp: 4.5 MB (three of four HBM2 stacks) */
        .mem_latency_ns = 317,         /* the V100 PCIe's: GV100 with HBM2 */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_v100_arch,
    },
    {
        .name = "Quadro GV100",
        .aliases = NULL,
        .cc_major = 7,
        .cc_minor = 0,        /* CUDA GPUs (Quadro GV100: 7.0) */
        .sm_count = 80,       /* Quadro GV100 datasheet: 5120 cores / 64 per SM */
        .sm_clock_mhz = 1627, /* TechPowerUp: boost 1627 MHz (datasheet: 16.7 TFLOPS FP32) */
        .mem_bandwidth_gb_per_s = 870, /* Quadro GV100 datasheet: 870 GB/s */
        .l2_bytes = 6291456,           /* TechPowerUp: 6 MB */
        .mem_latency_ns = 317,         /* the V100 PCIe's: GV100 with HBM2 */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_v100_arch,
    },

    /* ---- Volta (Tegra Xavier), compute capability 7.2 ---- */
    {
        .name = "Jetson AGX Xavier",
        .aliases = jetson_agx_xavier_aliases,
        .cc_major = 7,
        .cc_minor = 2,                 /* CUDA GPUs (Jetson AGX Xavier: 7.2) */
        .sm_count = 8,                 /* AGX Xavier datasheet: 512 cores / 64 per SM */
        .sm_clock_mhz = 1377,          /* AGX Xavier datasheet: GPU max 1377 MHz */
        .mem_bandwidth_gb_per_s = 137, /* AGX Xavier datasheet: 136.5 GB/s, rounded */
        .l2_bytes = 524288,            /* deviceQuery, Xavier: 524288 */
        .mem_latency_ns = 317,         /* the V100 PCIe's (HBM2), not LPDDR4x: rough */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_xavier_rough,
    },
    {
        .name = "Jetson Xavier NX",
        .aliases = jetson_xavier_nx_aliases,
        .cc_major = 7,
        .cc_minor = 2,                /* CUDA GPUs (Jetson Xavier NX: 7.2) */
        .sm_count = 6,                /* Xavier NX datasheet: 384 cores / 64 per SM */
        .sm_clock_mhz = 1100,         /* Xavier NX datasheet: GPU max 1100 MHz */
        .mem_bandwidth_gb_per_s = 60, /* Xavier NX datasheet: 59.7 GB/s, rounded */
        .l2_bytes = 524288,           /* deviceQuery, Xavier (NX): 524288 */
        .mem_latency_ns = 317,        /* the V100 PCIe's (HBM2), not LPDDR4x: rough */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_xavier_rough,
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
    {
        .name = "TITAN RTX",
        .aliases = NULL,
        .cc_major = 7,
        .cc_minor = 5,                 /* CUDA GPUs (NVIDIA TITAN RTX: 7.5) */
        .sm_count = 72,                /* NVIDIA spec page: 4608 cores / 64 per SM */
        .sm_clock_mhz = 1770,          /* NVIDIA spec page: boost 1770 MHz */
        .mem_bandwidth_gb_per_s = 672, /* NVIDIA spec page: 672 GB/s */
        .l2_bytes = 6291456,           /* Turing whitepaper: TU102's 6144 KB */
        .mem_latency_ns = 321,         /* the RTX 2080 Ti's (MT4G): Turing with GDDR6 */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_turing_arch,
    },
    {
        .name = "RTX 2080 SUPER",
        .aliases = NULL,
        .cc_major = 7,
        .cc_minor = 5,                 /* CUDA GPUs (GeForce RTX 2080 SUPER: 7.5) */
        .sm_count = 48,                /* NVIDIA spec page: 3072 cores / 64 per SM */
        .sm_clock_mhz = 1815,          /* NVIDIA spec page: boost 1815 MHz */
        .mem_bandwidth_gb_per_s = 496, /* NVIDIA spec page: 15.5 Gbps x 256-bit = 496 GB/s */
        .l2_bytes = 4194304,           /* TechPowerUp: 4 MB */
        .mem_latency_ns = 321,         /* the RTX 2080 Ti's (MT4G): Turing with GDDR6 */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_turing_arch,
    },
    {
        .name = "RTX 2080",
        .aliases = NULL,
        .cc_major = 7,
        .cc_minor = 5,        /* CUDA GPUs (GeForce RTX 2080: 7.5) */
        .sm_count = 46,       /* Turing whitepaper, Appendix (RTX 2080): 46 SMs */
        .sm_clock_mhz = 1710, /* Turing whitepaper, Appendix: reference boost 1710 MHz (FE: 1800) */
        .mem_bandwidth_gb_per_s = 448, /* Turing whitepaper, Appendix: 448 GB/s */
        .l2_bytes = 4194304,           /* Turing whitepaper, Appendix: 4096 KB */
        .mem_latency_ns = 321,         /* the RTX 2080 Ti's (MT4G): Turing with GDDR6 */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_turing_arch,
    },
    {
        .name = "RTX 2070 SUPER",
        .aliases = NULL,
        .cc_major = 7,
        .cc_minor = 5,                 /* CUDA GPUs (GeForce RTX 2070 SUPER: 7.5) */
        .sm_count = 40,                /* NVIDIA spec page: 2560 cores / 64 per SM */
        .sm_clock_mhz = 1770,          /* NVIDIA spec page: boost 1770 MHz */
        .mem_bandwidth_gb_per_s = 448, /* NVIDIA spec page: 14 Gbps x 256-bit = 448 GB/s */
        .l2_bytes = 4194304,           /* TechPowerUp: 4 MB */
        .mem_latency_ns = 321,         /* the RTX 2080 Ti's (MT4G): Turing with GDDR6 */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_turing_arch,
    },
    {
        .name = "RTX 2070",
        .aliases = NULL,
        .cc_major = 7,
        .cc_minor = 5,        /* CUDA GPUs (GeForce RTX 2070: 7.5) */
        .sm_count = 36,       /* Turing whitepaper, Appendix (RTX 2070): 36 SMs */
        .sm_clock_mhz = 1620, /* Turing whitepaper, Appendix: reference boost 1620 MHz (FE: 1710) */
        .mem_bandwidth_gb_per_s = 448, /* Turing whitepaper, Appendix: 448 GB/s */
        .l2_bytes = 4194304,           /* Turing whitepaper, Appendix: 4096 KB */
        .mem_latency_ns = 321,         /* the RTX 2080 Ti's (MT4G): Turing with GDDR6 */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_turing_arch,
    },
    {
        .name = "RTX 2060 SUPER",
        .aliases = NULL,
        .cc_major = 7,
        .cc_minor = 5,                 /* CUDA GPUs (GeForce RTX 2060 SUPER: 7.5) */
        .sm_count = 34,                /* NVIDIA spec page: 2176 cores / 64 per SM */
        .sm_clock_mhz = 1650,          /* NVIDIA spec page: boost 1650 MHz */
        .mem_bandwidth_gb_per_s = 448, /* NVIDIA spec page: 14 Gbps x 256-bit = 448 GB/s */
        .l2_bytes = 4194304,           /* TechPowerUp: 4 MB */
        .mem_latency_ns = 321,         /* the RTX 2080 Ti's (MT4G): Turing with GDDR6 */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_turing_arch,
    },
    {
        .name = "RTX 2060",
        .aliases = NULL,
        .cc_major = 7,
        .cc_minor = 5,                 /* CUDA GPUs (GeForce RTX 2060: 7.5) */
        .sm_count = 30,                /* NVIDIA spec page: 1920 cores / 64 per SM */
        .sm_clock_mhz = 1680,          /* NVIDIA spec page: boost 1680 MHz */
        .mem_bandwidth_gb_per_s = 336, /* NVIDIA spec page: 14 Gbps x 192-bit = 336 GB/s */
        .l2_bytes = 3145728,           /* TechPowerUp: 3 MB */
        .mem_latency_ns = 321,         /* the RTX 2080 Ti's (MT4G): Turing with GDDR6 */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_turing_arch,
    },
    {
        .name = "GTX 1660 Ti",
        .aliases = NULL,
        .cc_major = 7,
        .cc_minor = 5,                 /* CUDA GPUs (GeForce GTX 1660 Ti: 7.5) */
        .sm_count = 24,                /* NVIDIA spec page: 1536 cores / 64 per SM */
        .sm_clock_mhz = 1770,          /* NVIDIA spec page: boost 1770 MHz */
        .mem_bandwidth_gb_per_s = 288, /* NVIDIA spec page: 12 Gbps x 192-bit = 288 GB/s */
        .l2_bytes = 1572864,           /* TechPowerUp: 1536 KB */
        .mem_latency_ns = 321,         /* the RTX 2080 Ti's (MT4G): Turing with GDDR6 */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_turing_arch,
    },
    {
        .name = "GTX 1660 SUPER",
        .aliases = NULL,
        .cc_major = 7,
        .cc_minor = 5,                 /* CUDA GPUs (GeForce GTX 1660 SUPER: 7.5) */
        .sm_count = 22,                /* NVIDIA spec page: 1408 cores / 64 per SM */
        .sm_clock_mhz = 1785,          /* NVIDIA spec page: boost 1785 MHz */
        .mem_bandwidth_gb_per_s = 336, /* NVIDIA spec page: 14 Gbps x 192-bit = 336 GB/s */
        .l2_bytes = 1572864,           /* TechPowerUp: 1536 KB */
        .mem_latency_ns = 321,         /* the RTX 2080 Ti's (MT4G): Turing with GDDR6 */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_turing_arch,
    },
    {
        .name = "GTX 1660",
        .aliases = NULL,
        .cc_major = 7,
        .cc_minor = 5,                 /* CUDA GPUs (GeForce GTX 1660: 7.5) */
        .sm_count = 22,                /* NVIDIA spec page: 1408 cores / 64 per SM */
        .sm_clock_mhz = 1785,          /* NVIDIA spec page: boost 1785 MHz */
        .mem_bandwidth_gb_per_s = 192, /* NVIDIA spec page: 8 Gbps GDDR5 x 192-bit = 192 GB/s */
        .l2_bytes = 1572864,           /* TechPowerUp: 1536 KB */
        .mem_latency_ns = 321,         /* the RTX 2080 Ti's (GDDR6), not GDDR5: rough */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_turing_gddr5_rough,
    },
    {
        .name = "GTX 1650 SUPER",
        .aliases = NULL,
        .cc_major = 7,
        .cc_minor = 5,                 /* CUDA GPUs (GeForce GTX 1650 SUPER: 7.5) */
        .sm_count = 20,                /* NVIDIA spec page: 1280 cores / 64 per SM */
        .sm_clock_mhz = 1725,          /* NVIDIA spec page: boost 1725 MHz */
        .mem_bandwidth_gb_per_s = 192, /* NVIDIA spec page: 12 Gbps x 128-bit = 192 GB/s */
        .l2_bytes = 1048576,           /* TechPowerUp: 1 MB */
        .mem_latency_ns = 321,         /* the RTX 2080 Ti's (MT4G): Turing with GDDR6 */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_turing_arch,
    },
    {
        .name = "GTX 1650",
        .aliases = NULL,
        .cc_major = 7,
        .cc_minor = 5,                 /* CUDA GPUs (GeForce GTX 1650: 7.5) */
        .sm_count = 14,                /* NVIDIA spec page: 896 cores / 64 per SM */
        .sm_clock_mhz = 1665,          /* NVIDIA spec page: boost 1665 MHz (GDDR5 board) */
        .mem_bandwidth_gb_per_s = 128, /* NVIDIA spec page: 8 Gbps GDDR5 x 128-bit = 128 GB/s */
        .l2_bytes = 1048576,           /* TechPowerUp: 1 MB */
        .mem_latency_ns = 321,         /* the RTX 2080 Ti's (GDDR6), not GDDR5: rough */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_turing_gddr5_rough,
    },
    {
        .name = "Quadro RTX 8000",
        .aliases = NULL,
        .cc_major = 7,
        .cc_minor = 5,        /* CUDA GPUs (Quadro RTX 8000: 7.5) */
        .sm_count = 72,       /* Quadro RTX 8000 datasheet: 4608 cores / 64 per SM */
        .sm_clock_mhz = 1770, /* TechPowerUp: boost 1770 MHz (datasheet: 16.3 TFLOPS FP32) */
        .mem_bandwidth_gb_per_s = 672, /* Quadro RTX 8000 datasheet: 672 GB/s */
        .l2_bytes = 6291456,           /* Turing whitepaper: TU102's 6144 KB */
        .mem_latency_ns = 321,         /* the RTX 2080 Ti's (MT4G): Turing with GDDR6 */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_turing_arch,
    },
    {
        .name = "Quadro RTX 6000",
        .aliases = NULL,
        .cc_major = 7,
        .cc_minor = 5,                 /* Turing whitepaper, Table 1 (CC 7.5) */
        .sm_count = 72,                /* Turing whitepaper, Table 1 (Quadro RTX 6000): 72 SMs */
        .sm_clock_mhz = 1770,          /* Turing whitepaper, Table 1: boost 1770 MHz */
        .mem_bandwidth_gb_per_s = 672, /* Turing whitepaper, Table 1: 672 GB/s */
        .l2_bytes = 6291456,           /* Turing whitepaper, Table 1: 6144 KB */
        .mem_latency_ns = 321,         /* the RTX 2080 Ti's (MT4G): Turing with GDDR6 */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_turing_arch,
    },
    {
        .name = "Quadro RTX 5000",
        .aliases = NULL,
        .cc_major = 7,
        .cc_minor = 5,        /* CUDA GPUs (Quadro RTX 5000: 7.5) */
        .sm_count = 48,       /* Quadro RTX 5000 datasheet: 3072 cores / 64 per SM */
        .sm_clock_mhz = 1815, /* TechPowerUp: boost 1815 MHz (datasheet: 11.2 TFLOPS FP32) */
        .mem_bandwidth_gb_per_s = 448, /* Quadro RTX 5000 datasheet: 448 GB/s */
        .l2_bytes = 4194304,           /* TechPowerUp: 4 MB */
        .mem_latency_ns = 321,         /* the RTX 2080 Ti's (MT4G): Turing with GDDR6 */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_turing_arch,
    },
    {
        .name = "Quadro RTX 4000",
        .aliases = NULL,
        .cc_major = 7,
        .cc_minor = 5,        /* CUDA GPUs (Quadro RTX 4000: 7.5) */
        .sm_count = 36,       /* Quadro RTX 4000 datasheet: 2304 cores / 64 per SM */
        .sm_clock_mhz = 1545, /* TechPowerUp: boost 1545 MHz (datasheet: 7.1 TFLOPS FP32) */
        .mem_bandwidth_gb_per_s = 416, /* Quadro RTX 4000 datasheet: 416 GB/s */
        .l2_bytes = 4194304,           /* TechPowerUp: 4 MB */
        .mem_latency_ns = 321,         /* the RTX 2080 Ti's (MT4G): Turing with GDDR6 */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_turing_arch,
    },
    {
        .name = "T1000",
        .aliases = t1000_aliases,
        .cc_major = 7,
        .cc_minor = 5,                 /* MT4G device report (NVIDIA T1000): 7.5 */
        .sm_count = 14,                /* MT4G device report: 14 */
        .sm_clock_mhz = 1395,          /* MT4G device report: clockRate 1395 MHz */
        .mem_bandwidth_gb_per_s = 160, /* MT4G device report: 5001 MHz x 2 x 128-bit = 160 GB/s */
        .l2_bytes = 1048576,           /* MT4G device report: 1048576 */
        .mem_latency_ns = 355,         /* MT4G: 496 cycles at 1395 MHz */
        .mem_latency_source = OCC_LATENCY_PUBLISHED,
        .mem_latency_citation = cite_t1000,
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
    {
        .name = "A800 SXM 80GB",
        .aliases = a800_sxm_80gb_aliases,
        .cc_major = 8,
        .cc_minor = 0,                  /* CUDA GPUs (A800: 8.0) */
        .sm_count = 108,                /* TechPowerUp: 6912 cores / 64 per SM, as the A100 */
        .sm_clock_mhz = 1410,           /* TechPowerUp: boost 1410 MHz */
        .mem_bandwidth_gb_per_s = 2039, /* TechPowerUp: 2039 GB/s, as the A100 SXM 80GB */
        .l2_bytes = 41943040,           /* TechPowerUp: 40 MB */
        .mem_latency_ns = 406,          /* the A100 80GB's: GA100 with HBM2e */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_a100_80_arch,
    },
    {
        .name = "A800 PCIe 80GB",
        .aliases = a800_pcie_80gb_aliases,
        .cc_major = 8,
        .cc_minor = 0,                  /* CUDA GPUs (A800: 8.0) */
        .sm_count = 108,                /* TechPowerUp: 6912 cores / 64 per SM */
        .sm_clock_mhz = 1410,           /* TechPowerUp: boost 1410 MHz */
        .mem_bandwidth_gb_per_s = 1935, /* TechPowerUp: 1935 GB/s, as the A100 PCIe 80GB */
        .l2_bytes = 41943040,           /* TechPowerUp: 40 MB */
        .mem_latency_ns = 406,          /* the A100 80GB's: GA100 with HBM2e */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_a100_80_arch,
    },
    {
        .name = "A800 40GB Active",
        .aliases = NULL,
        .cc_major = 8,
        .cc_minor = 0,        /* CUDA GPUs (A800 40GB Active: 8.0) */
        .sm_count = 108,      /* A800 40GB Active datasheet: 6912 cores / 64 per SM */
        .sm_clock_mhz = 1410, /* TechPowerUp: boost 1410 MHz (datasheet: 19.5 TFLOPS FP32) */
        .mem_bandwidth_gb_per_s = 1555, /* TechPowerUp: 1555 GB/s (datasheet: 1.5 TB/s) */
        .l2_bytes = 41943040,           /* TechPowerUp: 40 MB */
        .mem_latency_ns = 408,          /* the A100 40GB's: GA100 with HBM2 */
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
    {
        .name = "A10G",
        .aliases = NULL,
        .cc_major = 8,
        .cc_minor = 6,                 /* torch props, NVIDIA A10G: 8.6 */
        .sm_count = 80,                /* torch props, NVIDIA A10G: multi_processor_count=80 */
        .sm_clock_mhz = 1710,          /* TechPowerUp: boost 1710 MHz */
        .mem_bandwidth_gb_per_s = 600, /* TechPowerUp: 600 GB/s, as the A10 */
        .l2_bytes = 6291456,           /* torch props, NVIDIA A10G: L2_cache_size=6MB */
        .mem_latency_ns = 408,         /* Ampere (GA100, HBM2): rough for GDDR6 */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_ga10x_arch,
    },
    {
        .name = "A2",
        .aliases = NULL,
        .cc_major = 8,
        .cc_minor = 6,        /* CUDA GPUs (A2: 8.6) */
        .sm_count = 10,       /* A2 datasheet: 1280 cores / 128 per SM */
        .sm_clock_mhz = 1770, /* TechPowerUp: boost 1770 MHz (datasheet: 4.5 TFLOPS FP32) */
        .mem_bandwidth_gb_per_s = 200, /* A2 datasheet: 200 GB/s */
        .l2_bytes = 2097152,           /* TechPowerUp: 2 MB */
        .mem_latency_ns = 408,         /* Ampere (GA100, HBM2): rough for GDDR6 */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_ga10x_arch,
    },
    {
        .name = "A16",
        .aliases = NULL,
        .cc_major = 8,
        .cc_minor = 6,        /* CUDA GPUs (A16: 8.6) */
        .sm_count = 10,       /* A16 datasheet: 4 GPUs of 1280 cores; one GPU / 128 per SM */
        .sm_clock_mhz = 1755, /* TechPowerUp: boost 1755 MHz (datasheet: 4.5 TFLOPS FP32 per GPU) */
        .mem_bandwidth_gb_per_s = 200, /* A16 datasheet: 4 x 200 GB/s; one GPU's */
        .l2_bytes = 2097152,           /* TechPowerUp: 2 MB per GPU */
        .mem_latency_ns = 408,         /* Ampere (GA100, HBM2): rough for GDDR6 */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_ga10x_arch,
    },
    {
        .name = "RTX A5500",
        .aliases = rtx_a5500_aliases,
        .cc_major = 8,
        .cc_minor = 6,        /* CUDA GPUs (RTX A5500: 8.6) */
        .sm_count = 80,       /* RTX A5500 datasheet: 10240 cores / 128 per SM */
        .sm_clock_mhz = 1665, /* TechPowerUp: boost 1665 MHz (datasheet: 34.1 TFLOPS FP32) */
        .mem_bandwidth_gb_per_s = 768, /* RTX A5500 datasheet: 768 GB/s */
        .l2_bytes = 6291456,           /* TechPowerUp: 6 MB */
        .mem_latency_ns = 408,         /* Ampere (GA100, HBM2): rough for GDDR6 */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_ga10x_arch,
    },
    {
        .name = "RTX A5000",
        .aliases = rtx_a5000_aliases,
        .cc_major = 8,
        .cc_minor = 6,        /* CUDA GPUs (RTX A5000: 8.6) */
        .sm_count = 64,       /* RTX A5000 datasheet: 8192 cores / 128 per SM */
        .sm_clock_mhz = 1695, /* TechPowerUp: boost 1695 MHz (datasheet: 27.8 TFLOPS FP32) */
        .mem_bandwidth_gb_per_s = 768, /* RTX A5000 datasheet: 768 GB/s */
        .l2_bytes = 6291456,           /* TechPowerUp: 6 MB */
        .mem_latency_ns = 408,         /* Ampere (GA100, HBM2): rough for GDDR6 */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_ga10x_arch,
    },
    {
        .name = "RTX A4500",
        .aliases = rtx_a4500_aliases,
        .cc_major = 8,
        .cc_minor = 6,        /* CUDA GPUs (RTX A4500: 8.6) */
        .sm_count = 56,       /* RTX A4500 datasheet: 7168 cores / 128 per SM */
        .sm_clock_mhz = 1650, /* TechPowerUp: boost 1650 MHz (datasheet: 23.7 TFLOPS FP32) */
        .mem_bandwidth_gb_per_s = 640, /* RTX A4500 datasheet: 640 GB/s */
        .l2_bytes = 0,                 /* unknown: no device report found */
        .mem_latency_ns = 408,         /* Ampere (GA100, HBM2): rough for GDDR6 */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_ga10x_arch,
    },
    {
        .name = "RTX A4000",
        .aliases = rtx_a4000_aliases,
        .cc_major = 8,
        .cc_minor = 6,        /* CUDA GPUs (RTX A4000: 8.6) */
        .sm_count = 48,       /* RTX A4000 datasheet: 6144 cores / 128 per SM */
        .sm_clock_mhz = 1560, /* TechPowerUp: boost 1560 MHz (datasheet: 19.2 TFLOPS FP32) */
        .mem_bandwidth_gb_per_s = 448, /* RTX A4000 datasheet: 448 GB/s */
        .l2_bytes = 4194304,           /* TechPowerUp: 4 MB */
        .mem_latency_ns = 408,         /* Ampere (GA100, HBM2): rough for GDDR6 */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_ga10x_arch,
    },
    {
        .name = "RTX A2000",
        .aliases = rtx_a2000_aliases,
        .cc_major = 8,
        .cc_minor = 6,                 /* CUDA GPUs (RTX A2000: 8.6) */
        .sm_count = 26,                /* RTX A2000 datasheet: 3328 cores / 128 per SM */
        .sm_clock_mhz = 1200,          /* TechPowerUp: boost 1200 MHz (datasheet: 8 TFLOPS FP32) */
        .mem_bandwidth_gb_per_s = 288, /* RTX A2000 datasheet: 288 GB/s */
        .l2_bytes = 3145728,           /* TechPowerUp: 3 MB */
        /* AI_kernels' "RTX 2000" (6 GiB, 3 MiB L2, 128 KiB L1: an RTX A2000 6GB by
           those, as far as we can tell) reads 570 cycles, 475 ns at 1200 MHz; not used, since
           the product is not named. */
        .mem_latency_ns = 408, /* Ampere (GA100, HBM2): rough for GDDR6 */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_ga10x_arch,
    },
    {
        .name = "RTX 3090 Ti",
        .aliases = NULL,
        .cc_major = 8,
        .cc_minor = 6,                  /* CUDA GPUs (GeForce RTX 3090 Ti: 8.6) */
        .sm_count = 84,                 /* NVIDIA spec page: 10752 cores / 128 per SM */
        .sm_clock_mhz = 1860,           /* NVIDIA spec page: boost 1860 MHz */
        .mem_bandwidth_gb_per_s = 1008, /* NVIDIA spec page: 21 Gbps x 384-bit = 1008 GB/s */
        .l2_bytes = 6291456,            /* GA102 whitepaper: GA102's 6144 KB */
        .mem_latency_ns = 408,          /* Ampere (GA100, HBM2): rough for GDDR6X */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_ga10x_arch,
    },
    {
        .name = "RTX 3080 Ti",
        .aliases = NULL,
        .cc_major = 8,
        .cc_minor = 6,                 /* CUDA GPUs (GeForce RTX 3080 Ti: 8.6) */
        .sm_count = 80,                /* NVIDIA spec page: 10240 cores / 128 per SM */
        .sm_clock_mhz = 1665,          /* NVIDIA spec page: boost 1665 MHz */
        .mem_bandwidth_gb_per_s = 912, /* NVIDIA spec page: 19 Gbps x 384-bit = 912 GB/s */
        .l2_bytes = 6291456,           /* TechPowerUp: 6 MB */
        .mem_latency_ns = 408,         /* Ampere (GA100, HBM2): rough for GDDR6X */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_ga10x_arch,
    },
    {
        .name = "RTX 3080",
        .aliases = NULL,
        .cc_major = 8,
        .cc_minor = 6,                 /* GA102 whitepaper, Table 1 (CC 8.6) */
        .sm_count = 68,                /* GA102 whitepaper, Table 1 (RTX 3080): 68 SMs */
        .sm_clock_mhz = 1710,          /* GA102 whitepaper, Table 1: boost 1710 MHz */
        .mem_bandwidth_gb_per_s = 760, /* GA102 whitepaper, Table 1: 760 GB/s */
        .l2_bytes = 5242880,           /* GA102 whitepaper, Table 1: 5120 KB */
        .mem_latency_ns = 408,         /* Ampere (GA100, HBM2): rough for GDDR6X */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_ga10x_arch,
    },
    {
        .name = "RTX 3080 12GB",
        .aliases = NULL,
        .cc_major = 8,
        .cc_minor = 6,                 /* CUDA GPUs (GeForce RTX 3080: 8.6) */
        .sm_count = 70,                /* NVIDIA spec page: 8960 cores / 128 per SM */
        .sm_clock_mhz = 1710,          /* NVIDIA spec page: boost 1710 MHz */
        .mem_bandwidth_gb_per_s = 912, /* NVIDIA spec page: 19 Gbps x 384-bit = 912 GB/s */
        .l2_bytes = 6291456,           /* TechPowerUp: 6 MB */
        .mem_latency_ns = 408,         /* Ampere (GA100, HBM2): rough for GDDR6X */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_ga10x_arch,
    },
    {
        .name = "RTX 3070 Ti",
        .aliases = NULL,
        .cc_major = 8,
        .cc_minor = 6,                 /* CUDA GPUs (GeForce RTX 3070 Ti: 8.6) */
        .sm_count = 48,                /* NVIDIA spec page: 6144 cores / 128 per SM */
        .sm_clock_mhz = 1770,          /* NVIDIA spec page: boost 1770 MHz */
        .mem_bandwidth_gb_per_s = 608, /* NVIDIA spec page: 19 Gbps x 256-bit = 608 GB/s */
        .l2_bytes = 4194304,           /* TechPowerUp: 4 MB */
        .mem_latency_ns = 408,         /* Ampere (GA100, HBM2): rough for GDDR6X */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_ga10x_arch,
    },
    {
        .name = "RTX 3070",
        .aliases = NULL,
        .cc_major = 8,
        .cc_minor = 6,                 /* GA102 whitepaper, Appendix (GA104; CC 8.6) */
        .sm_count = 46,                /* GA102 whitepaper, Appendix (RTX 3070): 46 SMs */
        .sm_clock_mhz = 1725,          /* GA102 whitepaper, Appendix: boost 1725 MHz */
        .mem_bandwidth_gb_per_s = 448, /* GA102 whitepaper, Appendix: 448 GB/s */
        .l2_bytes = 4194304,           /* GA102 whitepaper, Appendix: 4096 KB */
        .mem_latency_ns = 408,         /* Ampere (GA100, HBM2): rough for GDDR6 */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_ga10x_arch,
    },
    {
        .name = "RTX 3060 Ti",
        .aliases = NULL,
        .cc_major = 8,
        .cc_minor = 6,        /* CUDA GPUs (GeForce RTX 3060 Ti: 8.6) */
        .sm_count = 38,       /* NVIDIA spec page: 4864 cores / 128 per SM */
        .sm_clock_mhz = 1665, /* NVIDIA spec page: boost 1665 MHz */
        .mem_bandwidth_gb_per_s =
            448,               /* NVIDIA spec page: 14 Gbps x 256-bit = 448 GB/s (GDDR6 board) */
        .l2_bytes = 4194304,   /* TechPowerUp: 4 MB */
        .mem_latency_ns = 408, /* Ampere (GA100, HBM2): rough for GDDR6 */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_ga10x_arch,
    },
    {
        .name = "RTX 3060",
        .aliases = rtx_3060_aliases,
        .cc_major = 8,
        .cc_minor = 6,                 /* CUDA GPUs (GeForce RTX 3060: 8.6) */
        .sm_count = 28,                /* NVIDIA spec page: 3584 cores / 128 per SM (12GB board) */
        .sm_clock_mhz = 1777,          /* NVIDIA spec page: boost 1777 MHz */
        .mem_bandwidth_gb_per_s = 360, /* NVIDIA spec page: 15 Gbps x 192-bit = 360 GB/s */
        .l2_bytes = 3145728,           /* TechPowerUp: 3 MB */
        .mem_latency_ns = 408,         /* Ampere (GA100, HBM2): rough for GDDR6 */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_ga10x_arch,
    },
    {
        .name = "RTX 3050",
        .aliases = NULL,
        .cc_major = 8,
        .cc_minor = 6,                 /* CUDA GPUs (GeForce RTX 3050: 8.6) */
        .sm_count = 20,                /* NVIDIA spec page: 2560 cores / 128 per SM (8GB board) */
        .sm_clock_mhz = 1777,          /* NVIDIA spec page: boost 1777 MHz */
        .mem_bandwidth_gb_per_s = 224, /* NVIDIA spec page: 14 Gbps x 128-bit = 224 GB/s */
        .l2_bytes = 2097152,           /* TechPowerUp: 2 MB */
        .mem_latency_ns = 408,         /* Ampere (GA100, HBM2): rough for GDDR6 */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_ga10x_arch,
    },
    {
        .name = "RTX 3080 Ti Laptop GPU",
        .aliases = rtx_3080_ti_laptop_gpu_aliases,
        .cc_major = 8,
        .cc_minor = 6,               /* CUDA GPUs (GeForce RTX 30 Laptop GPUs: 8.6) */
        .sm_count = 58,              /* NVIDIA laptop spec page: 7424 cores / 128 per SM */
        .sm_clock_mhz = 0,           /* unknown: the laptop's maker sets it within NVIDIA's range */
        .mem_bandwidth_gb_per_s = 0, /* unknown: the laptop's maker sets the memory speed */
        .l2_bytes = 4194304,         /* TechPowerUp: 4 MB (GA103) */
        .mem_latency_ns = 408,       /* Ampere (GA100, HBM2): rough for GDDR6 */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_ga10x_arch,
    },
    {
        .name = "RTX 3080 Laptop GPU",
        .aliases = rtx_3080_laptop_gpu_aliases,
        .cc_major = 8,
        .cc_minor = 6,               /* CUDA GPUs (GeForce RTX 30 Laptop GPUs: 8.6) */
        .sm_count = 48,              /* NVIDIA laptop spec page: 6144 cores / 128 per SM */
        .sm_clock_mhz = 0,           /* unknown: the laptop's maker sets it within NVIDIA's range */
        .mem_bandwidth_gb_per_s = 0, /* unknown: the laptop's maker sets the memory speed */
        .l2_bytes = 4194304,         /* TechPowerUp: 4 MB (GA104) */
        .mem_latency_ns = 408,       /* Ampere (GA100, HBM2): rough for GDDR6 */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_ga10x_arch,
    },
    {
        .name = "RTX 3070 Ti Laptop GPU",
        .aliases = rtx_3070_ti_laptop_gpu_aliases,
        .cc_major = 8,
        .cc_minor = 6,               /* CUDA GPUs (GeForce RTX 30 Laptop GPUs: 8.6) */
        .sm_count = 46,              /* NVIDIA laptop spec page: 5888 cores / 128 per SM */
        .sm_clock_mhz = 0,           /* unknown: the laptop's maker sets it within NVIDIA's range */
        .mem_bandwidth_gb_per_s = 0, /* unknown: the laptop's maker sets the memory speed */
        .l2_bytes = 4194304,         /* TechPowerUp: 4 MB (GA104) */
        .mem_latency_ns = 408,       /* Ampere (GA100, HBM2): rough for GDDR6 */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_ga10x_arch,
    },
    {
        .name = "RTX 3070 Laptop GPU",
        .aliases = rtx_3070_laptop_gpu_aliases,
        .cc_major = 8,
        .cc_minor = 6,               /* CUDA GPUs (GeForce RTX 30 Laptop GPUs: 8.6) */
        .sm_count = 40,              /* NVIDIA laptop spec page: 5120 cores / 128 per SM */
        .sm_clock_mhz = 0,           /* unknown: the laptop's maker sets it within NVIDIA's range */
        .mem_bandwidth_gb_per_s = 0, /* unknown: the laptop's maker sets the memory speed */
        .l2_bytes = 4194304,         /* TechPowerUp: 4 MB (GA104) */
        .mem_latency_ns = 408,       /* Ampere (GA100, HBM2): rough for GDDR6 */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_ga10x_arch,
    },
    {
        .name = "RTX 3060 Laptop GPU",
        .aliases = rtx_3060_laptop_gpu_aliases,
        .cc_major = 8,
        .cc_minor = 6,               /* CUDA GPUs (GeForce RTX 30 Laptop GPUs: 8.6) */
        .sm_count = 30,              /* NVIDIA laptop spec page: 3840 cores / 128 per SM */
        .sm_clock_mhz = 0,           /* unknown: the laptop's maker sets it within NVIDIA's range */
        .mem_bandwidth_gb_per_s = 0, /* unknown: the laptop's maker sets the memory speed */
        .l2_bytes = 3145728,         /* TechPowerUp: 3 MB (GA106) */
        .mem_latency_ns = 408,       /* Ampere (GA100, HBM2): rough for GDDR6 */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_ga10x_arch,
    },
    {
        .name = "RTX 3050 Ti Laptop GPU",
        .aliases = rtx_3050_ti_laptop_gpu_aliases,
        .cc_major = 8,
        .cc_minor = 6,               /* CUDA GPUs (GeForce RTX 30 Laptop GPUs: 8.6) */
        .sm_count = 20,              /* NVIDIA laptop spec page: 2560 cores / 128 per SM */
        .sm_clock_mhz = 0,           /* unknown: the laptop's maker sets it within NVIDIA's range */
        .mem_bandwidth_gb_per_s = 0, /* unknown: the laptop's maker sets the memory speed */
        .l2_bytes = 2097152,         /* TechPowerUp: 2 MB (GA107) */
        .mem_latency_ns = 408,       /* Ampere (GA100, HBM2): rough for GDDR6 */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_ga10x_arch,
    },
    {
        .name = "RTX 3050 Laptop GPU",
        .aliases = rtx_3050_laptop_gpu_aliases,
        .cc_major = 8,
        .cc_minor = 6,               /* CUDA GPUs (GeForce RTX 30 Laptop GPUs: 8.6) */
        .sm_count = 16,              /* NVIDIA laptop spec page: 2048 cores / 128 per SM */
        .sm_clock_mhz = 0,           /* unknown: the laptop's maker sets it within NVIDIA's range */
        .mem_bandwidth_gb_per_s = 0, /* unknown: the laptop's maker sets the memory speed */
        .l2_bytes = 2097152,         /* TechPowerUp: 2 MB (GA107) */
        .mem_latency_ns = 408,       /* Ampere (GA100, HBM2): rough for GDDR6 */
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
    {
        .name = "Jetson AGX Orin 32GB",
        .aliases = jetson_agx_orin_32gb_aliases,
        .cc_major = 8,
        .cc_minor = 7,                 /* CUDA GPUs (Jetson AGX Orin: 8.7) */
        .sm_count = 14,                /* Jetson Orin series datasheet: 1792 cores / 128 per SM */
        .sm_clock_mhz = 930,           /* Jetson Orin series datasheet: GPU max 930 MHz */
        .mem_bandwidth_gb_per_s = 205, /* Jetson Orin series datasheet: 204.8 GB/s, rounded */
        .l2_bytes = 0,                 /* unknown: no device report of this module found */
        .mem_latency_ns = 408,         /* Ampere (GA100, HBM2): rough for LPDDR5 */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_orin_arch,
    },
    {
        .name = "Jetson Orin NX 16GB",
        .aliases = jetson_orin_nx_16gb_aliases,
        .cc_major = 8,
        .cc_minor = 7,                 /* CUDA GPUs (Jetson Orin NX: 8.7) */
        .sm_count = 8,                 /* deviceQuery, Orin NX 16GB: 8; datasheet: 1024 cores */
        .sm_clock_mhz = 918,           /* deviceQuery, Orin NX 16GB: 918 MHz (datasheet: 918) */
        .mem_bandwidth_gb_per_s = 102, /* Jetson Orin series datasheet: 102.4 GB/s, rounded */
        .l2_bytes = 2097152,           /* deviceQuery, Orin NX 16GB: 2097152 */
        .mem_latency_ns = 408,         /* Ampere (GA100, HBM2): rough for LPDDR5 */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_orin_arch,
    },
    {
        .name = "Jetson Orin NX 8GB",
        .aliases = jetson_orin_nx_8gb_aliases,
        .cc_major = 8,
        .cc_minor = 7, /* CUDA GPUs (Jetson Orin NX: 8.7) */
        .sm_count = 8, /* Jetson Orin series datasheet: 1024 cores / 128 per SM (a deviceQuery at a
                          smaller power mode reads 4 SMs) */
        .sm_clock_mhz = 765,           /* Jetson Orin series datasheet: GPU max 765 MHz */
        .mem_bandwidth_gb_per_s = 102, /* Jetson Orin series datasheet: 102.4 GB/s, rounded */
        .l2_bytes = 2097152,   /* deviceQuery, a 7.6 GB Orin at 765 MHz (an NX 8GB): 2097152 */
        .mem_latency_ns = 408, /* Ampere (GA100, HBM2): rough for LPDDR5 */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_orin_arch,
    },
    {
        .name = "Jetson Orin Nano 4GB",
        .aliases = jetson_orin_nano_4gb_aliases,
        .cc_major = 8,
        .cc_minor = 7,                /* CUDA GPUs (Jetson Orin Nano: 8.7) */
        .sm_count = 4,                /* Jetson Orin series datasheet: 512 cores / 128 per SM */
        .sm_clock_mhz = 625,          /* Jetson Orin series datasheet: GPU max 625 MHz */
        .mem_bandwidth_gb_per_s = 34, /* Jetson Orin series datasheet: 34 GB/s */
        .l2_bytes = 0,                /* unknown: no device report of this module found */
        .mem_latency_ns = 408,        /* Ampere (GA100, HBM2): rough for LPDDR5 */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_orin_arch,
    },
    {
        .name = "Jetson Orin Nano Super",
        .aliases = jetson_orin_nano_super_aliases,
        .cc_major = 8,
        .cc_minor = 7,        /* CUDA GPUs (Jetson Orin Nano: 8.7) */
        .sm_count = 8,        /* Orin Nano Super datasheet: 1024 cores / 128 per SM */
        .sm_clock_mhz = 1020, /* Orin Nano Super datasheet: GPU max 1020 MHz (MAXN SUPER mode) */
        .mem_bandwidth_gb_per_s = 102, /* Orin Nano Super datasheet: 102 GB/s */
        .l2_bytes = 2097152,           /* deviceQuery, Orin Nano 8GB: 2097152 (the same module) */
        .mem_latency_ns = 408,         /* Ampere (GA100, HBM2): rough for LPDDR5 */
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
    {
        .name = "L40",
        .aliases = NULL,
        .cc_major = 8,
        .cc_minor = 9,        /* CUDA GPUs (L40: 8.9) */
        .sm_count = 142,      /* L40 datasheet: 18176 cores / 128 per SM */
        .sm_clock_mhz = 2490, /* gpu-benches l40 record: 2490 MHz; TechPowerUp: boost 2490 */
        .mem_bandwidth_gb_per_s = 864, /* L40 datasheet: 864 GB/s */
        .l2_bytes = 100663296, /* TechPowerUp: 96 MB (the L40S's device report: 100663296) */
        .mem_latency_ns = 254, /* gpu-benches: 632 cycles at 2490 MHz */
        .mem_latency_source = OCC_LATENCY_PUBLISHED,
        .mem_latency_citation = cite_l40,
    },
    {
        .name = "L20",
        .aliases = NULL,
        .cc_major = 8,
        .cc_minor = 9,                 /* CUDA GPUs (L20: 8.9) */
        .sm_count = 92,                /* TechPowerUp: 11776 cores / 128 per SM */
        .sm_clock_mhz = 2520,          /* TechPowerUp: boost 2520 MHz */
        .mem_bandwidth_gb_per_s = 864, /* TechPowerUp: 864 GB/s */
        .l2_bytes = 100663296,         /* TechPowerUp: 96 MB */
        .mem_latency_ns = 254,         /* the L40's: Ada with GDDR6 */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_ada_arch,
    },
    {
        .name = "RTX 4090 D",
        .aliases = NULL,
        .cc_major = 8,
        .cc_minor = 9,        /* CUDA GPUs (GeForce RTX 4090 D: 8.9) */
        .sm_count = 114,      /* NVIDIA spec page (China): 14592 cores / 128 per SM */
        .sm_clock_mhz = 2520, /* NVIDIA spec page (China): boost 2520 MHz */
        .mem_bandwidth_gb_per_s =
            1008,              /* NVIDIA spec page (China): 21 Gbps x 384-bit = 1008 GB/s */
        .l2_bytes = 75497472,  /* TechPowerUp: 72 MB */
        .mem_latency_ns = 252, /* the RTX 4090's: Ada with GDDR6X */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_4090_arch,
    },
    {
        .name = "RTX 4080 SUPER",
        .aliases = NULL,
        .cc_major = 8,
        .cc_minor = 9,                 /* CUDA GPUs (GeForce RTX 4080 SUPER: 8.9) */
        .sm_count = 80,                /* NVIDIA spec page: 10240 cores / 128 per SM */
        .sm_clock_mhz = 2550,          /* NVIDIA spec page: boost 2550 MHz */
        .mem_bandwidth_gb_per_s = 736, /* NVIDIA spec page: 23 Gbps x 256-bit = 736 GB/s */
        .l2_bytes = 67108864,          /* TechPowerUp: 64 MB */
        .mem_latency_ns = 252,         /* the RTX 4090's: Ada with GDDR6X */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_4090_arch,
    },
    {
        .name = "RTX 4080",
        .aliases = NULL,
        .cc_major = 8,
        .cc_minor = 9,                 /* Ada whitepaper, Appendix (CC 8.9) */
        .sm_count = 76,                /* Ada whitepaper, Appendix (RTX 4080 16GB): 76 SMs */
        .sm_clock_mhz = 2505,          /* Ada whitepaper, Appendix: boost 2505 MHz */
        .mem_bandwidth_gb_per_s = 717, /* Ada whitepaper, Appendix: 716.8 GB/s, rounded */
        .l2_bytes = 67108864,          /* Ada whitepaper, Appendix: 65536 KB */
        .mem_latency_ns = 252,         /* the RTX 4090's: Ada with GDDR6X */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_4090_arch,
    },
    {
        .name = "RTX 4070 Ti SUPER",
        .aliases = NULL,
        .cc_major = 8,
        .cc_minor = 9,                 /* CUDA GPUs (GeForce RTX 4070 Ti SUPER: 8.9) */
        .sm_count = 66,                /* NVIDIA spec page: 8448 cores / 128 per SM */
        .sm_clock_mhz = 2610,          /* NVIDIA spec page: boost 2610 MHz */
        .mem_bandwidth_gb_per_s = 672, /* NVIDIA spec page: 21 Gbps x 256-bit = 672 GB/s */
        .l2_bytes = 50331648,          /* TechPowerUp: 48 MB */
        .mem_latency_ns = 252,         /* the RTX 4090's: Ada with GDDR6X */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_4090_arch,
    },
    {
        .name = "RTX 4070 Ti",
        .aliases = NULL,
        .cc_major = 8,
        .cc_minor = 9,                 /* CUDA GPUs (GeForce RTX 4070 Ti: 8.9) */
        .sm_count = 60,                /* NVIDIA spec page: 7680 cores / 128 per SM */
        .sm_clock_mhz = 2610,          /* NVIDIA spec page: boost 2610 MHz */
        .mem_bandwidth_gb_per_s = 504, /* NVIDIA spec page: 21 Gbps x 192-bit = 504 GB/s */
        .l2_bytes = 50331648,          /* TechPowerUp: 48 MB */
        .mem_latency_ns = 252,         /* the RTX 4090's: Ada with GDDR6X */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_4090_arch,
    },
    {
        .name = "RTX 4070 SUPER",
        .aliases = NULL,
        .cc_major = 8,
        .cc_minor = 9,                 /* CUDA GPUs (GeForce RTX 4070 SUPER: 8.9) */
        .sm_count = 56,                /* NVIDIA spec page: 7168 cores / 128 per SM */
        .sm_clock_mhz = 2475,          /* NVIDIA spec page: boost 2475 MHz */
        .mem_bandwidth_gb_per_s = 504, /* NVIDIA spec page: 21 Gbps x 192-bit = 504 GB/s */
        .l2_bytes = 50331648,          /* NVIDIA's corrected RTX 4070 SUPER spec (2024): 48 MB */
        .mem_latency_ns = 252,         /* the RTX 4090's: Ada with GDDR6X */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_4090_arch,
    },
    {
        .name = "RTX 4070",
        .aliases = NULL,
        .cc_major = 8,
        .cc_minor = 9,        /* CUDA GPUs (GeForce RTX 4070: 8.9) */
        .sm_count = 46,       /* NVIDIA spec page: 5888 cores / 128 per SM */
        .sm_clock_mhz = 2475, /* NVIDIA spec page: boost 2475 MHz */
        .mem_bandwidth_gb_per_s =
            504,               /* NVIDIA spec page: 21 Gbps x 192-bit = 504 GB/s (GDDR6X board) */
        .l2_bytes = 37748736,  /* TechPowerUp: 36 MB */
        .mem_latency_ns = 252, /* the RTX 4090's: Ada with GDDR6X */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_4090_arch,
    },
    {
        .name = "RTX 4060 Ti",
        .aliases = rtx_4060_ti_aliases,
        .cc_major = 8,
        .cc_minor = 9,                 /* CUDA GPUs (GeForce RTX 4060 Ti: 8.9) */
        .sm_count = 34,                /* NVIDIA spec page: 4352 cores / 128 per SM (8 and 16 GB) */
        .sm_clock_mhz = 2535,          /* NVIDIA spec page: boost 2535 MHz */
        .mem_bandwidth_gb_per_s = 288, /* NVIDIA spec page: 18 Gbps x 128-bit = 288 GB/s */
        .l2_bytes = 33554432,          /* TechPowerUp: 32 MB */
        .mem_latency_ns = 254,         /* the L40's: Ada with GDDR6 */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_ada_arch,
    },
    {
        .name = "RTX 4060",
        .aliases = NULL,
        .cc_major = 8,
        .cc_minor = 9,                 /* CUDA GPUs (GeForce RTX 4060: 8.9) */
        .sm_count = 24,                /* NVIDIA spec page: 3072 cores / 128 per SM */
        .sm_clock_mhz = 2460,          /* NVIDIA spec page: boost 2460 MHz */
        .mem_bandwidth_gb_per_s = 272, /* NVIDIA spec page: 17 Gbps x 128-bit = 272 GB/s */
        .l2_bytes = 25165824,          /* TechPowerUp: 24 MB */
        .mem_latency_ns = 254,         /* the L40's: Ada with GDDR6 */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_ada_arch,
    },
    {
        .name = "RTX 4090 Laptop GPU",
        .aliases = rtx_4090_laptop_gpu_aliases,
        .cc_major = 8,
        .cc_minor = 9,               /* CUDA GPUs (GeForce RTX 40 Laptop GPUs: 8.9) */
        .sm_count = 76,              /* NVIDIA laptop spec page: 9728 cores / 128 per SM */
        .sm_clock_mhz = 0,           /* unknown: the laptop's maker sets it within NVIDIA's range */
        .mem_bandwidth_gb_per_s = 0, /* unknown: the laptop's maker sets the memory speed */
        .l2_bytes = 67108864,        /* TechPowerUp: 64 MB (AD103) */
        .mem_latency_ns = 254,       /* the L40's: Ada with GDDR6 */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_ada_arch,
    },
    {
        .name = "RTX 4080 Laptop GPU",
        .aliases = rtx_4080_laptop_gpu_aliases,
        .cc_major = 8,
        .cc_minor = 9,               /* CUDA GPUs (GeForce RTX 40 Laptop GPUs: 8.9) */
        .sm_count = 58,              /* NVIDIA laptop spec page: 7424 cores / 128 per SM */
        .sm_clock_mhz = 0,           /* unknown: the laptop's maker sets it within NVIDIA's range */
        .mem_bandwidth_gb_per_s = 0, /* unknown: the laptop's maker sets the memory speed */
        .l2_bytes = 50331648,        /* TechPowerUp: 48 MB (AD104) */
        .mem_latency_ns = 254,       /* the L40's: Ada with GDDR6 */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_ada_arch,
    },
    {
        .name = "RTX 4070 Laptop GPU",
        .aliases = rtx_4070_laptop_gpu_aliases,
        .cc_major = 8,
        .cc_minor = 9,               /* CUDA GPUs (GeForce RTX 40 Laptop GPUs: 8.9) */
        .sm_count = 36,              /* NVIDIA laptop spec page: 4608 cores / 128 per SM */
        .sm_clock_mhz = 0,           /* unknown: the laptop's maker sets it within NVIDIA's range */
        .mem_bandwidth_gb_per_s = 0, /* unknown: the laptop's maker sets the memory speed */
        .l2_bytes = 33554432,        /* TechPowerUp: 32 MB (AD106) */
        .mem_latency_ns = 254,       /* the L40's: Ada with GDDR6 */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_ada_arch,
    },
    {
        .name = "RTX 4060 Laptop GPU",
        .aliases = rtx_4060_laptop_gpu_aliases,
        .cc_major = 8,
        .cc_minor = 9,               /* CUDA GPUs (GeForce RTX 40 Laptop GPUs: 8.9) */
        .sm_count = 24,              /* NVIDIA laptop spec page: 3072 cores / 128 per SM */
        .sm_clock_mhz = 0,           /* unknown: the laptop's maker sets it within NVIDIA's range */
        .mem_bandwidth_gb_per_s = 0, /* unknown: the laptop's maker sets the memory speed */
        .l2_bytes =
            0, /* unknown: the chip's L2 is cut down with its SMs, and no device report was found */
        .mem_latency_ns = 254, /* the L40's: Ada with GDDR6 */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_ada_arch,
    },
    {
        .name = "RTX 4050 Laptop GPU",
        .aliases = rtx_4050_laptop_gpu_aliases,
        .cc_major = 8,
        .cc_minor = 9,               /* CUDA GPUs (GeForce RTX 40 Laptop GPUs: 8.9) */
        .sm_count = 20,              /* NVIDIA laptop spec page: 2560 cores / 128 per SM */
        .sm_clock_mhz = 0,           /* unknown: the laptop's maker sets it within NVIDIA's range */
        .mem_bandwidth_gb_per_s = 0, /* unknown: the laptop's maker sets the memory speed */
        .l2_bytes =
            0, /* unknown: the chip's L2 is cut down with its SMs, and no device report was found */
        .mem_latency_ns = 254, /* the L40's: Ada with GDDR6 */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_ada_arch,
    },
    {
        .name = "RTX 5880 Ada Generation",
        .aliases = rtx_5880_ada_generation_aliases,
        .cc_major = 8,
        .cc_minor = 9,        /* CUDA GPUs (RTX 5880 Ada: 8.9) */
        .sm_count = 110,      /* RTX 5880 Ada datasheet: 14080 cores / 128 per SM */
        .sm_clock_mhz = 2460, /* TechPowerUp: boost 2460 MHz (datasheet: 69.3 TFLOPS FP32) */
        .mem_bandwidth_gb_per_s = 960, /* RTX 5880 Ada datasheet: 960 GB/s */
        .l2_bytes = 0,                 /* unknown: no device report found */
        .mem_latency_ns = 254,         /* the L40's: Ada with GDDR6 */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_ada_arch,
    },
    {
        .name = "RTX 5000 Ada Generation",
        .aliases = rtx_5000_ada_generation_aliases,
        .cc_major = 8,
        .cc_minor = 9,        /* CUDA GPUs (RTX 5000 Ada: 8.9) */
        .sm_count = 100,      /* RTX 5000 Ada datasheet: 12800 cores / 128 per SM */
        .sm_clock_mhz = 2550, /* TechPowerUp: boost 2550 MHz (datasheet: 65.3 TFLOPS FP32) */
        .mem_bandwidth_gb_per_s = 576, /* RTX 5000 Ada datasheet: 576 GB/s */
        .l2_bytes = 67108864,          /* TechPowerUp: 64 MB */
        .mem_latency_ns = 254,         /* the L40's: Ada with GDDR6 */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_ada_arch,
    },
    {
        .name = "RTX 4500 Ada Generation",
        .aliases = rtx_4500_ada_generation_aliases,
        .cc_major = 8,
        .cc_minor = 9,        /* CUDA GPUs (RTX 4500 Ada: 8.9) */
        .sm_count = 60,       /* RTX 4500 Ada datasheet: 7680 cores / 128 per SM */
        .sm_clock_mhz = 2580, /* TechPowerUp: boost 2580 MHz (datasheet: 39.6 TFLOPS FP32) */
        .mem_bandwidth_gb_per_s = 432, /* RTX 4500 Ada datasheet: 432 GB/s */
        .l2_bytes = 50331648,          /* TechPowerUp: 48 MB */
        .mem_latency_ns = 254,         /* the L40's: Ada with GDDR6 */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_ada_arch,
    },
    {
        .name = "RTX 4000 Ada Generation",
        .aliases = rtx_4000_ada_generation_aliases,
        .cc_major = 8,
        .cc_minor = 9,        /* CUDA GPUs (RTX 4000 Ada: 8.9) */
        .sm_count = 48,       /* RTX 4000 Ada datasheet: 6144 cores / 128 per SM */
        .sm_clock_mhz = 2175, /* TechPowerUp: boost 2175 MHz (datasheet: 26.7 TFLOPS FP32) */
        .mem_bandwidth_gb_per_s = 360, /* RTX 4000 Ada datasheet: 360 GB/s */
        .l2_bytes = 0,                 /* unknown: no device report found */
        .mem_latency_ns = 254,         /* the L40's: Ada with GDDR6 */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_ada_arch,
    },
    {
        .name = "RTX 4000 SFF Ada Generation",
        .aliases = rtx_4000_sff_ada_generation_aliases,
        .cc_major = 8,
        .cc_minor = 9,        /* CUDA GPUs (RTX 4000 SFF Ada: 8.9) */
        .sm_count = 48,       /* RTX 4000 SFF Ada datasheet: 6144 cores / 128 per SM */
        .sm_clock_mhz = 1565, /* TechPowerUp: boost 1565 MHz (datasheet: 19.2 TFLOPS FP32) */
        .mem_bandwidth_gb_per_s = 280, /* RTX 4000 SFF Ada datasheet: 280 GB/s */
        .l2_bytes = 0,                 /* unknown: no device report found */
        .mem_latency_ns = 254,         /* the L40's: Ada with GDDR6 */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_ada_arch,
    },
    {
        .name = "RTX 2000 Ada Generation",
        .aliases = rtx_2000_ada_generation_aliases,
        .cc_major = 8,
        .cc_minor = 9,        /* CUDA GPUs (RTX 2000 Ada: 8.9) */
        .sm_count = 22,       /* RTX 2000 Ada datasheet: 2816 cores / 128 per SM */
        .sm_clock_mhz = 2130, /* TechPowerUp: boost 2130 MHz (datasheet: 12.0 TFLOPS FP32) */
        .mem_bandwidth_gb_per_s = 224, /* RTX 2000 Ada datasheet: 224 GB/s */
        .l2_bytes = 0,                 /* unknown: no device report found */
        .mem_latency_ns = 254,         /* the L40's: Ada with GDDR6 */
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
    {
        .name = "H800 SXM",
        .aliases = h800_sxm_aliases,
        .cc_major = 9,
        .cc_minor = 0,                  /* CUDA GPUs (H800: 9.0) */
        .sm_count = 132,                /* TechPowerUp: 16896 cores / 128 per SM, as the H100 SXM */
        .sm_clock_mhz = 1980,           /* TechPowerUp: boost 1980 MHz */
        .mem_bandwidth_gb_per_s = 3352, /* TechPowerUp: 3352 GB/s, as the H100 SXM */
        .l2_bytes = 52428800,           /* TechPowerUp: 50 MB */
        .mem_latency_ns = 354,          /* the H100 SXM's: GH100 with HBM3 */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_h100_sxm_arch,
    },
    {
        .name = "H800 PCIe",
        .aliases = NULL,
        .cc_major = 9,
        .cc_minor = 0,        /* CUDA GPUs (H800: 9.0) */
        .sm_count = 114,      /* TechPowerUp: 14592 cores / 128 per SM, as the H100 PCIe */
        .sm_clock_mhz = 1755, /* TechPowerUp: boost 1755 MHz */
        .mem_bandwidth_gb_per_s = 2039, /* TechPowerUp: 2039 GB/s, as the H100 PCIe */
        .l2_bytes = 52428800,           /* TechPowerUp: 50 MB */
        .mem_latency_ns = 375,          /* the H100 PCIe's: GH100 with HBM2e */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_h100_pcie_arch,
    },
    {
        .name = "H20",
        .aliases = NULL,
        .cc_major = 9,
        .cc_minor = 0,     /* torch props, NVIDIA H20: 9.0 */
        .sm_count = 78,    /* torch props, NVIDIA H20: multi_processor_count=78 */
        .sm_clock_mhz = 0, /* unknown: NVIDIA publishes none and no device report found */
        .mem_bandwidth_gb_per_s = 4000, /* NVIDIA H20 product brief: 4.0 TB/s */
        .l2_bytes = 0,                  /* unknown: no device report found */
        .mem_latency_ns = 354,          /* the H100 SXM's: GH100 with HBM3 */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_h100_sxm_arch,
    },
    {
        .name = "H200 NVL",
        .aliases = NULL,
        .cc_major = 9,
        .cc_minor = 0,                  /* CUDA GPUs (H200: 9.0) */
        .sm_count = 132,                /* TechPowerUp: 16896 cores / 128 per SM */
        .sm_clock_mhz = 0,              /* unknown: not in the H200 NVL datasheet */
        .mem_bandwidth_gb_per_s = 4800, /* NVIDIA H200 datasheet: H200 NVL 4.8 TB/s */
        .l2_bytes = 0,                  /* unknown: no device report found */
        .mem_latency_ns = 354,          /* the H200's (measured by occ): GH100 with HBM3e */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_h200_arch,
    },
    {
        .name = "GH200 144GB HBM3e",
        .aliases = gh200_144gb_hbm3e_aliases,
        .cc_major = 9,
        .cc_minor = 0,   /* CUDA GPUs (GH200: 9.0) */
        .sm_count = 132, /* GH200 datasheet: 34 TFLOPS FP64 for both memory versions = 132 SMs x 64
                            x 2 x 1980 MHz, the 96 GB part's (deviceQuery: 132) */
        .sm_clock_mhz = 1980, /* as the 96 GB part (deviceQuery: 1980 MHz); the same FP64 rate */
        .mem_bandwidth_gb_per_s = 4900, /* GH200 datasheet: 144 GB HBM3e at 4.9 TB/s */
        .l2_bytes = 0,                  /* unknown: no device report of the HBM3e part found */
        .mem_latency_ns = 354,          /* the H200's (measured by occ): GH100 with HBM3e */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_h200_arch,
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

    /* ---- Blackwell Ultra (data center), compute capability 10.3 ---- */
    {
        .name = "B300",
        .aliases = b300_aliases,
        .cc_major = 10,
        .cc_minor = 3,   /* CUDA GPUs (B300: 10.3); XLA spec b300: 10.3 */
        .sm_count = 148, /* public B300 SXM6 AC logs (cluster tuning notes, 2026): 148 SMs; XLA spec
                            b300 reads 158, not used */
        .sm_clock_mhz = 2032, /* public B300 SXM6 AC measurements: 2032 MHz maximum SM clock */
        .mem_bandwidth_gb_per_s = 8000, /* NVIDIA HGX B300 spec: 64 TB/s for 8 GPUs */
        .l2_bytes = 132644864, /* AI_kernels (M. Dewing): 126.5 MiB (XLA spec b300: 129.25 MiB) */
        .mem_latency_ns = 417, /* AI_kernels: 848 cycles at 2032 MHz */
        .mem_latency_source = OCC_LATENCY_PUBLISHED,
        .mem_latency_citation = cite_b300,
    },
    {
        .name = "GB300",
        .aliases = NULL,
        .cc_major = 10,
        .cc_minor = 3,                  /* XLA spec gb300 (NVIDIA GB300): 10.3 */
        .sm_count = 152,                /* XLA spec gb300: 152 */
        .sm_clock_mhz = 2070,           /* XLA spec gb300: 2070000 kHz */
        .mem_bandwidth_gb_per_s = 8000, /* GB300 NVL72 spec: 576 TB/s for 72 GPUs */
        .l2_bytes = 135528448,          /* XLA spec gb300: 135528448 */
        .mem_latency_ns = 417,          /* the B300's: Blackwell Ultra with HBM3e */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_b300_arch,
    },

    /* ---- Blackwell (Tegra Thor), compute capability 11.0 ---- */
    {
        .name = "Jetson AGX Thor",
        .aliases = jetson_agx_thor_aliases,
        .cc_major = 11,
        .cc_minor = 0,        /* CUDA GPUs (Jetson Thor: 11.0 in CUDA 13, 10.1 in CUDA 12) */
        .sm_count = 20,       /* NVIDIA forum and deviceQuery, NVIDIA Thor: 20 (2560 cores) */
        .sm_clock_mhz = 1570, /* Jetson Thor datasheet: GPU max 1.57 GHz (deviceQuery at the default
                                 power mode: 1049 MHz) */
        .mem_bandwidth_gb_per_s = 273, /* Jetson Thor datasheet: 273 GB/s (4266 MHz x 256-bit) */
        .l2_bytes = 33554432,  /* deviceQuery, NVIDIA Thor: 33554432 (NVIDIA forum: 32 MiB) */
        .mem_latency_ns = 438, /* the B200's (HBM3e), not LPDDR5X: rough */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_thor_rough,
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
        .name = "RTX 5090 D",
        .aliases = NULL,
        .cc_major = 12,
        .cc_minor = 0,        /* CUDA GPUs (GeForce RTX 5090 D: 12.0) */
        .sm_count = 170,      /* NVIDIA spec page (China): 21760 cores / 128 per SM */
        .sm_clock_mhz = 2407, /* NVIDIA spec page (China): boost 2407 MHz */
        .mem_bandwidth_gb_per_s =
            1792,              /* NVIDIA spec page (China): 28 Gbps x 512-bit = 1792 GB/s */
        .l2_bytes = 100663296, /* TechPowerUp: 96 MB */
        .mem_latency_ns = 389, /* the RTX 5090's: GB20x with GDDR7 */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_5090_arch,
    },
    {
        .name = "RTX 5080",
        .aliases = NULL,
        .cc_major = 12,
        .cc_minor = 0,                 /* RTX Blackwell whitepaper, Table 2 (CC 12.0) */
        .sm_count = 84,                /* RTX Blackwell whitepaper, Table 2 (RTX 5080): 84 SMs */
        .sm_clock_mhz = 2617,          /* RTX Blackwell whitepaper, Table 2: boost 2617 MHz */
        .mem_bandwidth_gb_per_s = 960, /* RTX Blackwell whitepaper, Table 2: 960 GB/s */
        .l2_bytes = 67108864,          /* RTX Blackwell whitepaper, Table 2: 65536 KB */
        .mem_latency_ns = 389,         /* the RTX 5090's: GB20x with GDDR7 */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_5090_arch,
    },
    {
        .name = "RTX 5070 Ti",
        .aliases = NULL,
        .cc_major = 12,
        .cc_minor = 0,                 /* CUDA GPUs (GeForce RTX 5070 Ti: 12.0) */
        .sm_count = 70,                /* NVIDIA spec page: 8960 cores / 128 per SM */
        .sm_clock_mhz = 2452,          /* NVIDIA spec page: boost 2452 MHz */
        .mem_bandwidth_gb_per_s = 896, /* NVIDIA spec page: 28 Gbps x 256-bit = 896 GB/s */
        .l2_bytes =
            0, /* unknown: the chip's L2 is cut down with its SMs, and no device report was found */
        .mem_latency_ns = 389, /* the RTX 5090's: GB20x with GDDR7 */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_5090_arch,
    },
    {
        .name = "RTX 5070",
        .aliases = NULL,
        .cc_major = 12,
        .cc_minor = 0,                 /* CUDA GPUs (GeForce RTX 5070: 12.0) */
        .sm_count = 48,                /* NVIDIA spec page: 6144 cores / 128 per SM */
        .sm_clock_mhz = 2512,          /* NVIDIA spec page: boost 2512 MHz */
        .mem_bandwidth_gb_per_s = 672, /* NVIDIA spec page: 28 Gbps x 192-bit = 672 GB/s */
        .l2_bytes = 50331648,          /* TechPowerUp: 48 MB */
        .mem_latency_ns = 389,         /* the RTX 5090's: GB20x with GDDR7 */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_5090_arch,
    },
    {
        .name = "RTX 5060 Ti",
        .aliases = rtx_5060_ti_aliases,
        .cc_major = 12,
        .cc_minor = 0,                 /* CUDA GPUs (GeForce RTX 5060 Ti: 12.0) */
        .sm_count = 36,                /* NVIDIA spec page: 4608 cores / 128 per SM (8 and 16 GB) */
        .sm_clock_mhz = 2572,          /* NVIDIA spec page: boost 2572 MHz */
        .mem_bandwidth_gb_per_s = 448, /* NVIDIA spec page: 28 Gbps x 128-bit = 448 GB/s */
        .l2_bytes = 33554432,          /* TechPowerUp: 32 MB */
        .mem_latency_ns = 389,         /* the RTX 5090's: GB20x with GDDR7 */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_5090_arch,
    },
    {
        .name = "RTX 5060",
        .aliases = NULL,
        .cc_major = 12,
        .cc_minor = 0,                 /* CUDA GPUs (GeForce RTX 5060: 12.0) */
        .sm_count = 30,                /* NVIDIA spec page: 3840 cores / 128 per SM */
        .sm_clock_mhz = 2497,          /* NVIDIA spec page: boost 2497 MHz */
        .mem_bandwidth_gb_per_s = 448, /* NVIDIA spec page: 28 Gbps x 128-bit = 448 GB/s */
        .l2_bytes = 33554432,          /* TechPowerUp: 32 MB */
        .mem_latency_ns = 389,         /* the RTX 5090's: GB20x with GDDR7 */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_5090_arch,
    },
    {
        .name = "RTX 5050",
        .aliases = NULL,
        .cc_major = 12,
        .cc_minor = 0,                 /* CUDA GPUs (GeForce RTX 5050: 12.0) */
        .sm_count = 20,                /* NVIDIA spec page: 2560 cores / 128 per SM */
        .sm_clock_mhz = 2572,          /* NVIDIA spec page: boost 2572 MHz */
        .mem_bandwidth_gb_per_s = 320, /* NVIDIA spec page: 20 Gbps GDDR6 x 128-bit = 320 GB/s */
        .l2_bytes = 0,                 /* unknown: no device report found */
        .mem_latency_ns = 389,         /* the RTX 5090's (GDDR7), not GDDR6: rough */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_5090_gddr6_rough,
    },
    {
        .name = "RTX 5090 Laptop GPU",
        .aliases = rtx_5090_laptop_gpu_aliases,
        .cc_major = 12,
        .cc_minor = 0,               /* CUDA GPUs (GeForce RTX 50 Laptop GPUs: 12.0) */
        .sm_count = 82,              /* NVIDIA laptop spec page: 10496 cores / 128 per SM */
        .sm_clock_mhz = 0,           /* unknown: the laptop's maker sets it within NVIDIA's range */
        .mem_bandwidth_gb_per_s = 0, /* unknown: the laptop's maker sets the memory speed */
        .l2_bytes = 67108864,        /* TechPowerUp: 64 MB (GB203) */
        .mem_latency_ns = 389,       /* the RTX 5090's: GB20x with GDDR7 */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_5090_arch,
    },
    {
        .name = "RTX 5080 Laptop GPU",
        .aliases = rtx_5080_laptop_gpu_aliases,
        .cc_major = 12,
        .cc_minor = 0,               /* CUDA GPUs (GeForce RTX 50 Laptop GPUs: 12.0) */
        .sm_count = 60,              /* NVIDIA laptop spec page: 7680 cores / 128 per SM */
        .sm_clock_mhz = 0,           /* unknown: the laptop's maker sets it within NVIDIA's range */
        .mem_bandwidth_gb_per_s = 0, /* unknown: the laptop's maker sets the memory speed */
        .l2_bytes =
            0, /* unknown: the chip's L2 is cut down with its SMs, and no device report was found */
        .mem_latency_ns = 389, /* the RTX 5090's: GB20x with GDDR7 */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_5090_arch,
    },
    {
        .name = "RTX 5070 Ti Laptop GPU",
        .aliases = rtx_5070_ti_laptop_gpu_aliases,
        .cc_major = 12,
        .cc_minor = 0,               /* CUDA GPUs (GeForce RTX 50 Laptop GPUs: 12.0) */
        .sm_count = 46,              /* NVIDIA laptop spec page: 5888 cores / 128 per SM */
        .sm_clock_mhz = 0,           /* unknown: the laptop's maker sets it within NVIDIA's range */
        .mem_bandwidth_gb_per_s = 0, /* unknown: the laptop's maker sets the memory speed */
        .l2_bytes =
            0, /* unknown: the chip's L2 is cut down with its SMs, and no device report was found */
        .mem_latency_ns = 389, /* the RTX 5090's: GB20x with GDDR7 */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_5090_arch,
    },
    {
        .name = "RTX 5070 Laptop GPU",
        .aliases = rtx_5070_laptop_gpu_aliases,
        .cc_major = 12,
        .cc_minor = 0,               /* CUDA GPUs (GeForce RTX 50 Laptop GPUs: 12.0) */
        .sm_count = 36,              /* NVIDIA laptop spec page: 4608 cores / 128 per SM */
        .sm_clock_mhz = 0,           /* unknown: the laptop's maker sets it within NVIDIA's range */
        .mem_bandwidth_gb_per_s = 0, /* unknown: the laptop's maker sets the memory speed */
        .l2_bytes = 33554432,        /* TechPowerUp: 32 MB (GB206) */
        .mem_latency_ns = 389,       /* the RTX 5090's: GB20x with GDDR7 */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_5090_arch,
    },
    {
        .name = "RTX 5060 Laptop GPU",
        .aliases = rtx_5060_laptop_gpu_aliases,
        .cc_major = 12,
        .cc_minor = 0,               /* CUDA GPUs (GeForce RTX 50 Laptop GPUs: 12.0) */
        .sm_count = 26,              /* NVIDIA laptop spec page: 3328 cores / 128 per SM */
        .sm_clock_mhz = 0,           /* unknown: the laptop's maker sets it within NVIDIA's range */
        .mem_bandwidth_gb_per_s = 0, /* unknown: the laptop's maker sets the memory speed */
        .l2_bytes = 33554432,        /* TechPowerUp: 32 MB (GB206) */
        .mem_latency_ns = 389,       /* the RTX 5090's: GB20x with GDDR7 */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_5090_arch,
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
    {
        .name = "RTX PRO 6000 Blackwell Max-Q Workstation Edition",
        .aliases = rtx_pro_6000_blackwell_max_q_workstation_edition_aliases,
        .cc_major = 12,
        .cc_minor = 0,                  /* CUDA GPUs (RTX PRO 6000 Blackwell: 12.0) */
        .sm_count = 188,                /* RTX PRO 6000 Max-Q datasheet: 24064 cores / 128 per SM */
        .sm_clock_mhz = 0,              /* unknown: NVIDIA publishes no boost clock */
        .mem_bandwidth_gb_per_s = 1792, /* RTX PRO 6000 Max-Q datasheet: 1792 GB/s */
        .l2_bytes = 0,                  /* unknown: no device report of this edition */
        .mem_latency_ns = 359,          /* the RTX PRO 6000 Workstation's: GB20x with GDDR7 */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_pro6000_arch,
    },
    {
        .name = "RTX PRO 5000 Blackwell",
        .aliases = rtx_pro_5000_blackwell_aliases,
        .cc_major = 12,
        .cc_minor = 0,                  /* CUDA GPUs (RTX PRO 5000 Blackwell: 12.0) */
        .sm_count = 110,                /* RTX PRO 5000 datasheet: 14080 cores / 128 per SM */
        .sm_clock_mhz = 0,              /* unknown: NVIDIA publishes no boost clock */
        .mem_bandwidth_gb_per_s = 1344, /* RTX PRO 5000 datasheet: 1344 GB/s */
        .l2_bytes = 0,                  /* unknown: no device report found */
        .mem_latency_ns = 359,          /* the RTX PRO 6000 Workstation's: GB20x with GDDR7 */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_pro6000_arch,
    },
    {
        .name = "RTX PRO 4500 Blackwell",
        .aliases = rtx_pro_4500_blackwell_aliases,
        .cc_major = 12,
        .cc_minor = 0,                 /* CUDA GPUs (RTX PRO 4500 Blackwell: 12.0) */
        .sm_count = 82,                /* RTX PRO 4500 datasheet: 10496 cores / 128 per SM */
        .sm_clock_mhz = 0,             /* unknown: NVIDIA publishes no boost clock */
        .mem_bandwidth_gb_per_s = 896, /* RTX PRO 4500 datasheet: 896 GB/s */
        .l2_bytes = 0,                 /* unknown: no device report found */
        .mem_latency_ns = 359,         /* the RTX PRO 6000 Workstation's: GB20x with GDDR7 */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_pro6000_arch,
    },
    {
        .name = "RTX PRO 4000 Blackwell",
        .aliases = rtx_pro_4000_blackwell_aliases,
        .cc_major = 12,
        .cc_minor = 0,                 /* CUDA GPUs (RTX PRO 4000 Blackwell: 12.0) */
        .sm_count = 70,                /* RTX PRO 4000 datasheet: 8960 cores / 128 per SM */
        .sm_clock_mhz = 0,             /* unknown: NVIDIA publishes no boost clock */
        .mem_bandwidth_gb_per_s = 672, /* RTX PRO 4000 datasheet: 672 GB/s */
        .l2_bytes = 0,                 /* unknown: no device report found */
        .mem_latency_ns = 359,         /* the RTX PRO 6000 Workstation's: GB20x with GDDR7 */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_pro6000_arch,
    },
    {
        .name = "RTX PRO 2000 Blackwell",
        .aliases = rtx_pro_2000_blackwell_aliases,
        .cc_major = 12,
        .cc_minor = 0,                 /* CUDA GPUs (RTX PRO 2000 Blackwell: 12.0) */
        .sm_count = 34,                /* RTX PRO 2000 datasheet: 4352 cores / 128 per SM */
        .sm_clock_mhz = 0,             /* unknown: NVIDIA publishes no boost clock */
        .mem_bandwidth_gb_per_s = 288, /* RTX PRO 2000 datasheet: 288 GB/s */
        .l2_bytes = 0,                 /* unknown: no device report found */
        .mem_latency_ns = 359,         /* the RTX PRO 6000 Workstation's: GB20x with GDDR7 */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_pro6000_arch,
    },

    /* ---- Blackwell (GB10), compute capability 12.1 ---- */
    {
        .name = "GB10",
        .aliases = gb10_aliases,
        .cc_major = 12,
        .cc_minor = 1,     /* CUDA GPUs (GB10: 12.1) */
        .sm_count = 48,    /* NVIDIA's Computex 2025 listing: 6144 cores / 128 per SM */
        .sm_clock_mhz = 0, /* unknown: NVIDIA publishes no clock and no device report found */
        .mem_bandwidth_gb_per_s = 273, /* DGX Spark spec page: 273 GB/s */
        .l2_bytes = 0,                 /* unknown: no device report found */
        .mem_latency_ns = 389,         /* the RTX 5090's (GDDR7), not LPDDR5X: rough */
        .mem_latency_source = OCC_LATENCY_ARCHITECTURE,
        .mem_latency_citation = cite_gb10_rough,
    },
};

const int occ__named_count = (int)(sizeof occ__named_table / sizeof occ__named_table[0]);
