/*
 * inspect_risk_print.c - see inspect_risk_print.h.
 */
#include "inspect_risk_print.h"
#include "output.h"

void inspect_print_risk(FILE *out, const occ_inspect_result *r, const occ_inspect_options *opts)
{
    size_t count = occ_inspect_kernel_count(r);
    size_t fails = 0, ceiling = 0, own_cap = 0, spilling = 0, near_regs = 0, near_smem = 0;
    for (size_t i = 0; i < count; i++) {
        occ_inspect_risk risk;
        occ_inspect_risk_of(occ_inspect_kernel_at(r, i), opts, &risk);
        fails += occ_inspect_risk_fails(&risk);
        ceiling += risk.at_ceiling;
        own_cap += risk.at_ceiling && risk.own_cap;
        spilling += risk.spilling;
        near_regs += occ_inspect_risk_near_regs(&risk);
        near_smem += occ_inspect_risk_near_smem(&risk);
    }
    char near_regs_label[80];
    char near_smem_label[80];
    snprintf(near_regs_label, sizeof near_regs_label,
             "within %d registers of losing a block (regs+N)", OCC_INSPECT_RISK_NEAR_REGS);
    snprintf(near_smem_label, sizeof near_smem_label,
             "within %d B of shared memory of losing a block (smem+NB)",
             OCC_INSPECT_RISK_NEAR_SMEM_BYTES);
    fprintf(out, "Kernels at risk (a kernel may carry several flags):\n");
    fprintf(out, "  %-58s %zu\n", "launch fails (launch_bounds, reqntid, cluster_dims)", fails);
    fprintf(out, "  %-58s %zu\n", "at the register ceiling (ceiling)", ceiling);
    fprintf(out, "  %-58s %zu\n", "  of them at their own register cap (max_regs)", own_cap);
    fprintf(out, "  %-58s %zu\n", "spilling (spills)", spilling);
    fprintf(out, "  %-58s %zu\n", near_regs_label, near_regs);
    fprintf(out, "  %-58s %zu\n", near_smem_label, near_smem);
    if (fails + ceiling + spilling + near_regs + near_smem == 0) {
        return;
    }
    fprintf(out, "At risk (the first 10 in --sort order):\n");
    fprintf(out, "%-8s %4s %7s %6s  %-28s %s\n", "ARCH", "REGS", "SMEM", "BLK/SM", "RISK", "NAME");
    for (size_t i = 0, shown = 0; i < count && shown < 10; i++) {
        const occ_inspect_kernel *k = occ_inspect_kernel_at(r, i);
        occ_inspect_risk risk;
        occ_inspect_risk_of(k, opts, &risk);
        if (!occ_inspect_risk_any(&risk)) {
            continue;
        }
        char arch[16];
        char text[96];
        char blocks[16];
        snprintf(blocks, sizeof blocks, "%d", k->blocks_per_sm);
        fprintf(out, "%-8s %4d %7d %6s  %-28s ",
                occ_inspect_arch_name(k->sm, k->arch_suffix, arch, sizeof arch), k->regs,
                k->smem_bytes, k->has_occupancy ? blocks : "-",
                occ_inspect_risk_text(&risk, text, sizeof text));
        cli_put_visible(out, k->name);
        fputc('\n', out);
        shown++;
    }
}
