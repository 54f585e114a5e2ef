/*
 * regs_setmaxnreg.c - the setmaxnreg checks (setmaxnreg.h, docs/setmaxnreg.md)
 * wired into occ regs: each kernel's findings at the unconstrained compile
 * (its PTX, ptxas's log and cubin), as the typed result the CLI prints and
 * the document renders, and each cap's and variant's fit, from that
 * compile's log and registers, which the recommendation reads: a compile
 * whose warp groups ask for more registers than its block holds at entry
 * hangs in setmaxnreg.inc (ws_gemm_nolb on the H200, docs/results/regs-h200).
 */
#include <stdlib.h>
#include <string.h>

#include "regs_state.h"

/* The budget check fails the compile only where it is known not to fit. */
static occ_regs_answer answer_of(insp_smr_answer a)
{
    return a == INSP_SMR_YES ? OCC_REGS_YES : a == INSP_SMR_NO ? OCC_REGS_NO : OCC_REGS_UNTOLD;
}

/* The typed view of the analysis, pointing into owned. */
static occ_status make_view(regs_kernel_owned *owned, occ_inspect_error *err)
{
    const insp_setmaxnreg *smr = owned->smr;
    occ_regs_setmaxnreg *v = &owned->smr_view;
    owned->smr_regions = calloc((size_t)smr->region_count + 1, sizeof *owned->smr_regions);
    owned->smr_messages = calloc((size_t)smr->message_count + 1, sizeof *owned->smr_messages);
    owned->smr_errors = malloc(INSP_SMR_ERRORS_BYTES);
    if (owned->smr_regions == NULL || owned->smr_messages == NULL || owned->smr_errors == NULL) {
        return regs_fail(err, OCC_ERR_OUT_OF_MEMORY, "out of memory");
    }
    insp_setmaxnreg_errors(smr, owned->smr_errors, INSP_SMR_ERRORS_BYTES);
    for (int i = 0; i < smr->region_count; i++) {
        const insp_smr_region *r = &smr->regions[i];
        occ_regs_setmaxnreg_region *out = &owned->smr_regions[i];
        out->action = insp_setmaxnreg_action_name(r->action);
        out->line = r->line;
        out->regs_per_thread = r->regs_per_thread;
        out->regs = -1;
        /* the groups as the document has them: told, or null */
        if (r->warp_groups != 0 && r->groups_exact) {
            out->warp_groups = r->warp_groups;
            /* whole warps, as the document counts them: a group's warps are
               the block's from its first, at most four */
            int block_warps = (smr->block_threads + 31) / 32;
            long long warps = 0;
            for (int g = 0; g < INSP_SMR_MAX_WARP_GROUPS; g++) {
                if ((r->warp_groups >> g) & 1u) {
                    int in_group = block_warps - 4 * g;
                    warps += in_group < 0 ? 0 : in_group > 4 ? 4 : in_group;
                    out->warp_group_count++;
                }
            }
            out->regs = r->regs_per_thread > 0 ? warps * 32 * r->regs_per_thread : -1;
        }
    }
    for (int i = 0; i < smr->message_count; i++) {
        owned->smr_messages[i].code = smr->messages[i].code;
        owned->smr_messages[i].text = smr->messages[i].text;
    }
    v->block_threads = smr->block_threads;
    v->warp_group_count = smr->warp_group_count;
    v->regs_at_entry = smr->regs_at_entry;
    v->blocks_per_sm = smr->blocks_per_sm;
    v->regions = owned->smr_regions;
    v->region_count = smr->region_count;
    v->block_budget_regs = smr->block_budget_regs;
    v->budget_regs = smr->budget_regs;
    v->pool_regs = smr->pool_regs;
    v->regs_per_sm = smr->regs_per_sm;
    v->fits = answer_of(smr->fits);
    v->messages = owned->smr_messages;
    v->message_count = smr->message_count;
    v->honoured = answer_of(smr->honoured);
    v->usetmaxreg_count = smr->usetmaxreg_count;
    v->note = smr->note;
    v->errors = owned->smr_errors;
    return OCC_OK;
}

occ_status regs_setmaxnreg_kernel(const regs_run_state *s, const char *mangled, occ_regs_kernel *k,
                                  regs_kernel_owned *owned, regs_notes *notes,
                                  occ_inspect_error *err)
{
    k->setmaxnreg = NULL;
    insp_setmaxnreg *smr = malloc(sizeof *smr);
    if (smr == NULL) {
        return regs_fail(err, OCC_ERR_OUT_OF_MEMORY, "out of memory");
    }
    const occ_regs_point *none = &k->caps[0];
    occ_inspect_error why;
    occ_status status = insp_setmaxnreg_analyse(
        s->ptx, s->ptx_size, mangled, s->unconstrained_log, s->unconstrained_log_size,
        (const unsigned char *)s->unconstrained_cubin, s->unconstrained_cubin_size, none->regs,
        k->threads, none->blocks_per_sm, &s->device, smr, &why);
    if (status == OCC_ERR_OUT_OF_MEMORY) {
        free(smr);
        return regs_fail(err, status, "out of memory");
    }
    if (status != OCC_OK) {
        /* ptxas took the PTX: what the check cannot read is its limit, not
           the input's fault */
        regs_note(notes, "setmaxnreg not checked: %s", why.message);
        free(smr);
        return OCC_OK;
    }
    if (!smr->present) {
        free(smr);
        return OCC_OK;
    }
    owned->smr = smr;
    status = make_view(owned, err);
    if (status == OCC_OK) {
        k->setmaxnreg = &owned->smr_view;
        k->caps[0].setmaxnreg_fits = owned->smr_view.fits;
    }
    return status;
}

void regs_setmaxnreg_point(const regs_run_state *s, const char *mangled, int threads,
                           const char *log, size_t log_size, occ_regs_point *p)
{
    insp_setmaxnreg *smr = malloc(sizeof *smr);
    if (smr == NULL) {
        return; /* untold */
    }
    /* no cubin: ptxas's messages in this compile's log say whether it
       dropped the setmaxnreg, and where it did not, the pool is checked */
    if (insp_setmaxnreg_analyse(s->ptx, s->ptx_size, mangled, log, log_size, NULL, 0, p->regs,
                                threads, p->blocks_per_sm, &s->device, smr, NULL) == OCC_OK &&
        smr->present) {
        p->setmaxnreg_fits = answer_of(smr->fits);
    }
    free(smr);
}

void regs_setmaxnreg_free(regs_kernel_owned *owned)
{
    free(owned->smr);
    free(owned->smr_regions);
    free(owned->smr_messages);
    free(owned->smr_errors);
}
