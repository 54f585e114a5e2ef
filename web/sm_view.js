'use strict';
// sm_view.js - draws one SM from an occ_calc result: the block count each
// resource allows as bars, the warp slots filled block by block, and the
// register file and shared memory as used / reserved / rounding / free.
// It only draws: every number it shows is a field of the result or of the
// GPU's database entry.
window.occWeb = window.occWeb || {};

(function (occWeb) {
    const UNLIMITED = 2147483647; // OCC_UNLIMITED in include/occ.h

    // Limit rows in the order of Nsight Compute's occupancy section.
    const limitRows = [
        { bit: 2, field: 'limit_registers', testid: 'limit-registers', nsight: 'Block Limit Registers' },
        { bit: 4, field: 'limit_shared_mem', testid: 'limit-shared-mem', nsight: 'Block Limit Shared Mem' },
        { bit: 1, field: 'limit_warps', testid: 'limit-warps', nsight: 'Block Limit Warps' },
        { bit: 8, field: 'limit_blocks', testid: 'limit-blocks', nsight: 'Block Limit SM' },
        { bit: 16, field: 'limit_barriers', testid: 'limit-barriers', nsight: 'Block Limit Barriers' },
    ];

    const numberFormat = new Intl.NumberFormat('en-US');

    function el(tag, className, text) {
        const node = document.createElement(tag);
        if (className) {
            node.className = className;
        }
        if (text !== undefined) {
            node.textContent = text;
        }
        return node;
    }

    occWeb.formatBytes = function (bytes) {
        if (bytes >= 1024 && bytes % 1024 === 0) {
            return numberFormat.format(bytes / 1024) + ' KB';
        }
        if (bytes >= 1024) {
            return (bytes / 1024).toFixed(1) + ' KB';
        }
        return numberFormat.format(bytes) + ' B';
    };
    occWeb.formatCount = (n) => numberFormat.format(n);

    // The bars are built once; each repaint sets widths and texts.
    function buildLimitBars(container, api) {
        container.textContent = '';
        const rows = limitRows.map((row) => {
            const line = el('div', 'limit-row');
            const name = el('span', 'limit-name', api.limiterName(row.bit));
            name.title = row.nsight;
            const track = el('div', 'limit-track');
            const fill = el('div', 'limit-fill');
            track.appendChild(fill);
            const value = el('span', 'limit-value');
            value.dataset.testid = row.testid;
            line.append(name, track, value);
            container.appendChild(line);
            return { row, line, fill, value };
        });
        return rows;
    }

    occWeb.SmView = class {
        constructor(api) {
            this.api = api;
            this.limitBars = buildLimitBars(document.getElementById('limit-bars'), api);
            this.warpSlots = document.getElementById('warp-slots');
            this.regFile = document.getElementById('reg-file');
            this.regFileText = document.getElementById('reg-file-text');
            this.smemUsage = document.getElementById('smem-usage');
            this.smemUsageText = document.getElementById('smem-usage-text');
            this.slotCount = -1;
        }

        render(gpu, kernel, r) {
            this.renderLimits(gpu, r);
            this.renderWarpSlots(gpu, kernel, r);
            this.renderRegisters(gpu, kernel, r);
            this.renderSharedMemory(kernel, r);
        }

        clear() {
            for (const bar of this.limitBars) {
                bar.value.textContent = '';
                bar.fill.style.width = '0';
                bar.line.classList.remove('binding');
            }
            this.warpSlots.textContent = '';
            this.slotCount = -1;
            for (const node of [this.regFile, this.smemUsage, this.regFileText, this.smemUsageText]) {
                node.textContent = '';
            }
        }

        // A bar's full width is the SM's block slots: no limit above it can bind.
        renderLimits(gpu, r) {
            const scale = gpu.max_blocks_per_sm;
            for (const bar of this.limitBars) {
                const limit = r[bar.row.field];
                const binding = (r.limiters & bar.row.bit) !== 0;
                bar.line.classList.toggle('binding', binding);
                bar.line.classList.toggle('unused', limit === UNLIMITED);
                if (limit === UNLIMITED) {
                    bar.value.textContent = 'not used';
                    bar.fill.style.width = '0';
                } else {
                    bar.value.textContent = String(limit);
                    bar.fill.style.width = (100 * Math.min(limit, scale) / scale) + '%';
                }
                bar.line.title = bar.row.nsight + ': ' + bar.value.textContent +
                    (binding ? ' (binds)' : '');
            }
        }

        renderWarpSlots(gpu, kernel, r) {
            const slots = r.max_warps_per_sm;
            if (this.slotCount !== slots) {
                this.warpSlots.textContent = '';
                for (let i = 0; i < slots; i++) {
                    this.warpSlots.appendChild(el('span', 'slot'));
                }
                this.slotCount = slots;
            }
            // Threads of a block's last warp (a partial warp still takes a slot).
            const lastWarpThreads = r.threads_per_block - (r.warps_per_block - 1) * gpu.warp_size_threads;
            const cells = this.warpSlots.children;
            for (let i = 0; i < slots; i++) {
                const cell = cells[i];
                if (i < r.warps_per_sm) {
                    const block = Math.floor(i / r.warps_per_block);
                    const warp = i % r.warps_per_block;
                    const partial = warp === r.warps_per_block - 1 && lastWarpThreads < gpu.warp_size_threads;
                    cell.className = 'slot filled b' + (block % 8) + (partial ? ' partial' : '');
                    cell.title = 'block ' + block + ', warp ' + warp +
                        (partial ? ' (' + lastWarpThreads + ' of 32 threads)' : '');
                } else {
                    cell.className = 'slot';
                    cell.title = 'empty warp slot';
                }
            }
            this.warpSlots.setAttribute('aria-label', r.warps_per_sm + ' of ' + slots +
                ' warp slots filled by ' + r.blocks_per_sm + ' blocks of ' + r.warps_per_block + ' warps');
        }

        renderRegisters(gpu, kernel, r) {
            const total = gpu.regs_per_sm;
            const used = kernel.regs * r.threads_per_block * r.blocks_per_sm;
            const allocated = r.regs_per_block_allocated * r.blocks_per_sm;
            drawUsage(this.regFile, total, [
                ['used', used], ['rounding', allocated - used], ['free', total - allocated],
            ]);
            this.regFileText.textContent = occWeb.formatCount(allocated) + ' of ' +
                occWeb.formatCount(total) + ' registers allocated: ' +
                occWeb.formatCount(r.regs_per_warp_allocated) + ' per warp (' + kernel.regs +
                ' per thread x 32, in units of ' + gpu.reg_alloc_unit + '), ' +
                occWeb.formatCount(r.regs_per_block_allocated) + ' per block; threads use ' +
                occWeb.formatCount(used) + '.';
            this.regFile.setAttribute('aria-label', this.regFileText.textContent);
        }

        renderSharedMemory(kernel, r) {
            const total = r.smem_per_sm_bytes;
            const blocks = r.blocks_per_sm;
            const requested = kernel.smem + kernel.dynSmem;
            const perBlock = r.smem_per_block_allocated_bytes;
            // libocc's allocation is request + the driver's reservation, rounded
            // up to the allocation unit; the rest of it is rounding.
            const rounding = Math.max(0, perBlock - requested - this.reservedBytes);
            drawUsage(this.smemUsage, total, [
                ['used', requested * blocks], ['reserved', this.reservedBytes * blocks],
                ['rounding', rounding * blocks], ['free', total - perBlock * blocks],
            ]);
            this.smemUsageText.textContent = occWeb.formatBytes(perBlock * blocks) + ' of ' +
                occWeb.formatBytes(total) + ' configured is allocated: ' +
                occWeb.formatBytes(perBlock) + ' per block (' + occWeb.formatBytes(kernel.smem) +
                ' static + ' + occWeb.formatBytes(kernel.dynSmem) + ' dynamic + ' +
                occWeb.formatBytes(this.reservedBytes) + ' reserved, in units of ' +
                occWeb.formatBytes(this.allocUnit) + ').';
            this.smemUsage.setAttribute('aria-label', this.smemUsageText.textContent);
        }

        setGpu(gpu) {
            this.reservedBytes = gpu.smem_reserved_per_block_bytes;
            this.allocUnit = gpu.smem_alloc_unit_bytes;
        }
    };

    // One bar of segments whose widths are shares of `total`.
    function drawUsage(container, total, segments) {
        if (container.children.length !== segments.length) {
            container.textContent = '';
            for (const [kind] of segments) {
                container.appendChild(el('span', 'seg ' + kind));
            }
        }
        segments.forEach(([kind, amount], i) => {
            const seg = container.children[i];
            const share = total > 0 ? Math.max(0, amount) / total : 0;
            seg.style.width = (100 * share) + '%';
            seg.title = kind + ': ' + occWeb.formatCount(Math.max(0, amount));
        });
    }
}(window.occWeb));
