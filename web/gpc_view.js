'use strict';
// gpc_view.js - draws the GPCs from an occ_cluster_calc result: one row a
// GPC, one cell an SM split into the block slots a cluster launch counts,
// each slot coloured by the active cluster whose block it holds, and the
// SMs no active cluster reaches shown as idle. The counts are libocc's
// (max_active_clusters, active_sms, per-GPC clusters and busy SMs); only
// where each block sits is drawn here, the way libocc counts it: a
// cluster's blocks on distinct SMs, round-robin over its GPC (src/cluster.c).
window.occWeb = window.occWeb || {};

(function (occWeb) {
    // Colours a cluster may take (.cl0 .. .cl7 in style.css); neighbours differ.
    const clusterColours = 8;

    // Up to 132 x 8 cells a repaint: touch only those that change, so the
    // browser restyles no more than it must.
    function setClass(node, name) {
        if (node.className !== name) {
            node.className = name;
        }
    }

    function plural(n, one, many) {
        return n + ' ' + (n === 1 ? one : many);
    }

    // "15 clusters of 7 on 105 of 132 SMs; 27 SMs idle"
    occWeb.clusterSummary = function (r) {
        const idle = r.sm_count - r.active_sms;
        return plural(r.max_active_clusters, 'cluster', 'clusters') + ' of ' + r.cluster_size +
            ' on ' + r.active_sms + ' of ' + r.sm_count + ' SMs; ' +
            plural(idle, 'SM', 'SMs') + ' idle';
    };

    class GpcView {
        constructor() {
            this.view = document.getElementById('gpc-view');
            this.summary = document.getElementById('gpc-summary');
            this.note = document.getElementById('gpc-note');
            this.legend = document.getElementById('gpc-legend');
            this.layoutKey = '';
            this.rows = [];
        }

        // Rows and cells are rebuilt only when the layout or the slots per SM
        // change; a repaint otherwise only sets classes.
        build(r, slotsPerSm) {
            const key = r.gpcs.map((g) => g.sms).join(',') + '/' + slotsPerSm;
            if (key === this.layoutKey) {
                return;
            }
            this.layoutKey = key;
            this.view.textContent = '';
            this.rows = r.gpcs.map((gpc, g) => {
                const row = document.createElement('div');
                row.className = 'gpc-row';
                row.dataset.testid = 'gpc';
                const label = document.createElement('span');
                label.className = 'gpc-label';
                const cells = document.createElement('div');
                cells.className = 'gpc-sms';
                const sms = [];
                for (let s = 0; s < gpc.sms; s++) {
                    const sm = document.createElement('span');
                    sm.className = 'gpc-sm';
                    sm.title = 'GPC ' + g + ', SM ' + s;
                    const slots = [];
                    for (let b = 0; b < slotsPerSm; b++) {
                        const slot = document.createElement('span');
                        slot.className = 'gpc-slot';
                        sm.appendChild(slot);
                        slots.push(slot);
                    }
                    cells.appendChild(sm);
                    sms.push({ sm, slots });
                }
                row.append(label, cells);
                this.view.appendChild(row);
                return { row, label, sms, index: g };
            });
        }

        render(r) {
            this.legend.hidden = false;
            const slotsPerSm = Math.max(r.blocks_per_sm, 1);
            this.build(r, slotsPerSm);
            let clusterBase = 0;
            r.gpcs.forEach((gpc, g) => {
                const view = this.rows[g];
                const blocks = gpc.clusters * r.cluster_size;
                view.label.textContent = 'GPC ' + g + ': ' + plural(gpc.clusters, 'cluster', 'clusters') +
                    ', ' + gpc.activeSms + '/' + gpc.sms + ' SMs';
                view.row.dataset.clusters = String(gpc.clusters);
                view.row.dataset.idle = String(gpc.sms - gpc.activeSms);
                view.sms.forEach(({ sm, slots }, s) => {
                    const idle = s >= gpc.activeSms;
                    setClass(sm, idle ? 'gpc-sm idle' : 'gpc-sm');
                    slots.forEach((slot, b) => {
                        // Block j of the GPC's clusters sits on SM j % SMs, slot j / SMs.
                        const j = b * gpc.sms + s;
                        setClass(slot, idle ? 'gpc-slot'
                            : j < blocks ? 'gpc-slot cl' + ((clusterBase + Math.floor(j / r.cluster_size)) % clusterColours)
                                : 'gpc-slot free');
                    });
                });
                clusterBase += gpc.clusters;
            });
            this.view.setAttribute('aria-label', this.summary.textContent);
        }

        // Cluster results in, the rows, the summary line and the note out.
        show(r, note) {
            this.summary.textContent = occWeb.clusterSummary(r);
            this.render(r);
            this.note.textContent = note;
        }

        // No cluster answer: the reason, and no rows.
        clear(reason) {
            this.summary.textContent = '';
            this.view.textContent = '';
            this.view.removeAttribute('aria-label');
            this.layoutKey = '';
            this.rows = [];
            this.legend.hidden = true;
            this.note.textContent = reason;
        }
    }

    occWeb.GpcView = GpcView;
}(window.occWeb));
