'use strict';
// app.js - the page's controller: controls and URL in, libocc's answer out.
// Every change runs occ_calc (and the sweeps, the explanation and the
// Little's-law prediction) in WebAssembly and repaints synchronously; the
// time each repaint takes is kept in occWeb.renderTimes and shown.
window.occWeb = window.occWeb || {};

(function (occWeb) {
    // Kernel controls: state key, element id (= data-testid = URL name).
    const controls = [
        { key: 'threads', id: 'threads' },
        { key: 'regs', id: 'regs' },
        { key: 'smem', id: 'smem' },
        { key: 'dynSmem', id: 'dyn-smem' },
        { key: 'carveout', id: 'carveout' },
        { key: 'barriers', id: 'barriers' },
        { key: 'cluster', id: 'cluster' },
    ];

    // Block barriers a kernel may use: occ_kernel_validate's limit (src/calc.c).
    const maxBarriers = 16;
    // Blocks per cluster: 8 portable, 16 with the kernel's
    // cudaFuncAttributeNonPortableClusterSizeAllowed (OCC_CLUSTER_PORTABLE_MAX
    // and OCC_CLUSTER_NON_PORTABLE_MAX in include/occ.h); the page sets the
    // attribute for sizes above 8, as such a kernel must.
    const clusterPortableMax = 8;
    const clusterMax = 16;
    // Clusters exist from compute capability 9.0 (Hopper) on.
    const clusterMinCcMajor = 9;
    // Slider steps for sizes; the numeric fields take any byte count.
    const smemSliderStepBytes = 256;
    // How long the address bar waits for changes to pause.
    const urlDelayMs = 100;

    const $ = (id) => document.getElementById(id);

    class App {
        constructor(api) {
            this.api = api;
            this.state = occWeb.stateFromHash(location.hash);
            this.smView = new occWeb.SmView(api);
            this.gpcView = new occWeb.GpcView();
            this.staircases = new occWeb.Staircases();
            this.latency = new occWeb.LatencyPanel(api);
            this.gpuSelect = $('gpu');
            this.presetSelect = $('preset');
            this.gpuNote = '';
            occWeb.renderTimes = [];
            $('version').textContent = api.version;
            this.fillGpuSelect();
            this.fillPresetSelect();
            this.bindEvents();
            this.render();
        }

        fillGpuSelect() {
            const groups = [['Compute capability (generic)', false], ['Named GPU', true]];
            for (const [label, named] of groups) {
                const group = document.createElement('optgroup');
                group.label = label;
                for (const gpu of this.api.gpus.filter((g) => g.named === named)) {
                    const option = document.createElement('option');
                    option.value = gpu.name;
                    option.textContent = named ? gpu.name + ' (sm_' + gpu.cc_major + gpu.cc_minor + ')'
                                               : gpu.name + ' (CC ' + gpu.cc_major + '.' + gpu.cc_minor + ')';
                    group.appendChild(option);
                }
                this.gpuSelect.appendChild(group);
            }
        }

        fillPresetSelect() {
            const groups = new Map();
            for (const preset of occWeb.presets) {
                if (!groups.has(preset.group)) {
                    const group = document.createElement('optgroup');
                    group.label = preset.group;
                    groups.set(preset.group, group);
                    this.presetSelect.appendChild(group);
                }
                const option = document.createElement('option');
                option.value = preset.id;
                option.textContent = preset.label;
                groups.get(preset.group).appendChild(option);
            }
        }

        bindEvents() {
            for (const c of controls) {
                const slider = $(c.id + '-slider');
                const field = $(c.id);
                slider.addEventListener('input', () => {
                    this.changed(c.key, Number(slider.value), slider);
                });
                field.addEventListener('input', () => {
                    const text = field.value.trim();
                    const value = Number(text);
                    if (text === '' || !Number.isInteger(value)) {
                        this.showError(c.id + ': "' + field.value + '" is not a whole number', c.id);
                        return;
                    }
                    this.changed(c.key, value, field);
                });
            }
            this.gpuSelect.addEventListener('change', () => {
                const t0 = performance.now();
                this.state.gpu = this.gpuSelect.value;
                // The memory model follows the new GPU's database entry.
                this.state.latencyNs = this.state.bandwidth = this.state.sms = null;
                this.presetSelect.value = '';
                this.render(t0);
            });
            this.presetSelect.addEventListener('change', () => {
                const preset = occWeb.presets.find((p) => p.id === this.presetSelect.value);
                if (preset !== undefined) {
                    this.applyPreset(preset);
                }
            });
            this.latency.onInput((key, value) => {
                const t0 = performance.now();
                const modelKey = key === 'latencyNs' || key === 'bandwidth' || key === 'sms';
                this.state[key] = value === null && !modelKey ? NaN : value;
                this.render(t0);
            });
            window.addEventListener('hashchange', () => {
                if (location.hash !== occWeb.hashFromState(this.state)) {
                    const t0 = performance.now();
                    this.state = occWeb.stateFromHash(location.hash);
                    this.presetSelect.value = '';
                    this.render(t0);
                }
            });
            $('share-link').addEventListener('click', (event) => {
                event.preventDefault();
                history.replaceState(null, '', occWeb.hashFromState(this.state));
            });
        }

        changed(key, value, source) {
            const t0 = performance.now();
            this.state[key] = value;
            this.presetSelect.value = '';
            this.render(t0, source);
        }

        applyPreset(preset) {
            const t0 = performance.now();
            Object.assign(this.state, {
                gpu: preset.gpu, threads: preset.threads, regs: preset.regs, smem: preset.smem,
                dynSmem: preset.dynSmem, carveout: preset.carveout, barriers: preset.barriers,
                cluster: preset.cluster ?? occWeb.defaultState().cluster,
                latencyNs: null, bandwidth: null, sms: null,
            });
            this.render(t0);
            this.presetSelect.value = preset.id;
        }

        // The database entry the state names: its exact name, else whatever
        // occ_gpu_find makes of it (an alias, "sm_90", "9.0"), else the default.
        resolveGpu() {
            let gpu = this.api.gpus.find((g) => g.name === this.state.gpu);
            if (gpu === undefined) {
                const index = this.api.findGpu(this.state.gpu);
                if (index >= 0) {
                    gpu = this.api.gpus[index];
                } else {
                    const fallback = occWeb.defaultState().gpu;
                    this.gpuNote = 'GPU "' + this.state.gpu + '": ' +
                        this.api.string(this.api.ex.occ_wasm_error()) + '; showing ' + fallback + '.';
                    gpu = this.api.gpus.find((g) => g.name === fallback);
                }
                this.state.gpu = gpu.name;
            }
            return gpu;
        }

        // Slider ranges follow the GPU: a control can reach every valid value.
        setRanges(gpu) {
            const ranges = {
                threads: [1, gpu.max_threads_per_block, 1],
                regs: [0, gpu.max_regs_per_thread, 1],
                smem: [0, gpu.smem_per_block_bytes, smemSliderStepBytes],
                'dyn-smem': [0, gpu.smem_per_block_optin_bytes, smemSliderStepBytes],
                carveout: [-1, 100, 1],
                barriers: [0, maxBarriers, 1],
                cluster: [1, clusterMax, 1],
            };
            for (const [id, [min, max, step]] of Object.entries(ranges)) {
                const slider = $(id + '-slider');
                slider.min = String(min);
                slider.max = String(max);
                slider.step = String(step);
                const field = $(id);
                field.min = String(min);
                field.max = String(max);
            }
            const noClusters = gpu.cc_major < clusterMinCcMajor;
            $('cluster-slider').disabled = noClusters;
            $('cluster').disabled = noClusters;
        }

        // Controls show the state, except the one being used (so typing
        // "12" on the way to "128" is not rewritten under the cursor).
        syncControls(gpu, source) {
            if (this.gpuSelect.value !== gpu.name) {
                this.gpuSelect.value = gpu.name;
            }
            for (const c of controls) {
                const slider = $(c.id + '-slider');
                const field = $(c.id);
                if (slider !== source) {
                    slider.value = String(this.state[c.key]);
                }
                if (field !== source) {
                    field.value = String(this.state[c.key]);
                }
            }
        }

        kernel() {
            const s = this.state;
            return { threads: s.threads, regs: s.regs, smem: s.smem, dynSmem: s.dynSmem,
                     carveout: s.carveout, barriers: s.barriers };
        }

        render(t0 = performance.now(), source = null) {
            this.gpuNote = '';
            const gpu = this.resolveGpu();
            if (gpu !== this.lastGpu) {
                this.setRanges(gpu);
                this.smView.setGpu(gpu);
                this.lastGpu = gpu;
            }
            this.syncControls(gpu, source);
            const k = this.kernel();
            const r = this.api.calc(gpu.index, k);
            if (!r.ok) {
                this.showError(r.error, r.field);
                this.clearResults();
            } else {
                this.showError(this.gpuNote);
                this.showResult(gpu, k, r);
            }
            this.updateUrl();
            // uPlot draws in a microtask queued by setData; this one runs after
            // it, and forcing layout there makes the time cover the whole repaint.
            queueMicrotask(() => {
                document.body.offsetHeight; // eslint-disable-line no-unused-expressions
                this.recordTime(performance.now() - t0);
            });
        }

        showResult(gpu, k, r) {
            $('occupancy').textContent = occWeb.formatPercent(r.occupancy);
            $('blocks-per-sm').textContent = String(r.blocks_per_sm);
            $('warps-per-sm').textContent = String(r.warps_per_sm);
            $('max-warps-per-sm').textContent = String(r.max_warps_per_sm);
            $('limiter').textContent = this.api.limiterNames(r.limiters).join(' + ');
            const notes = [];
            if (r.blocks_per_sm === 0) {
                notes.push('No block fits: ' + this.api.zeroReasonText(r.zero_reason) + '.');
            }
            if (r.needs_optin) {
                notes.push('Over ' + occWeb.formatBytes(gpu.smem_per_block_bytes) +
                    ' per block: the kernel must opt in (cudaFuncSetAttribute, ' +
                    'cudaFuncAttributeMaxDynamicSharedMemorySize).');
            }
            const zero = $('zero-reason');
            zero.textContent = notes.join(' ');
            zero.hidden = notes.length === 0;
            this.showHints(gpu, r);
            this.smView.render(gpu, k, r);
            this.staircases.render(this.sweeps(r), r.max_warps_per_sm);
            $('explain').textContent = this.api.explain();
            this.showClusters(gpu);
            this.latency.render(gpu, this.state, r.warps_per_sm);
        }

        // occ_cluster_calc for the kernel calc() just took, at the state's
        // cluster size; before CC 9.0 the control is disabled and says why.
        showClusters(gpu) {
            const size = this.state.cluster;
            const clear = (reason) => {
                $('active-clusters').textContent = '-';
                $('active-sms').textContent = '-';
                $('cluster-sm-count').textContent = gpu.sm_count > 0 ? String(gpu.sm_count) : '-';
                this.gpcView.clear(reason);
            };
            if (gpu.cc_major < clusterMinCcMajor) {
                const why = 'No thread-block clusters on ' + gpu.name + ': they need compute capability ' +
                    clusterMinCcMajor + '.0 or later, and it has ' + gpu.cc_major + '.' + gpu.cc_minor + '.';
                $('cluster-hint').textContent = 'needs CC ' + clusterMinCcMajor + '.0 or later';
                clear(why);
                return;
            }
            const nonPortable = size > clusterPortableMax;
            $('cluster-hint').textContent = nonPortable
                ? 'over ' + clusterPortableMax + ': non-portable (the kernel allows it)'
                : 'portable (up to ' + clusterPortableMax + ')';
            const c = this.api.cluster(size, nonPortable);
            if (!c.ok) {
                clear('No cluster answer: ' + c.error);
                return;
            }
            $('active-clusters').textContent = (c.exact ? '' : 'at most ') + c.max_active_clusters;
            $('active-sms').textContent = (c.exact ? '' : 'at most ') + c.active_sms;
            $('cluster-sm-count').textContent = String(c.sm_count);
            const perSm = c.blocks_per_sm + (c.blocks_per_sm === 1 ? ' block' : ' blocks') +
                ' per SM (a cluster launch counts at most 8).';
            const note = c.exact
                ? 'GPC layout: ' + c.citation + '. Each SM holds ' + perSm
                : 'The GPC layout of ' + gpu.name + ' is unknown: its ' + c.sm_count + ' SMs are drawn ' +
                  'as one group, and these counts are upper bounds (the driver may allow fewer). ' +
                  'Each SM holds ' + perSm;
            this.gpcView.show(c, note);
        }

        sweeps(r) {
            const out = {};
            for (const axis of ['regs', 'smem', 'threads']) {
                const s = this.api.sweep(axis);
                out[axis] = { values: s.values, warps: s.warps,
                              current: { x: s.current, y: r.warps_per_sm } };
            }
            return out;
        }

        showHints(gpu, r) {
            $('threads-hint').textContent = r.warps_per_block + (r.warps_per_block === 1 ? ' warp' : ' warps');
            $('regs-hint').textContent = occWeb.formatCount(r.regs_per_warp_allocated) + ' per warp';
            $('smem-hint').textContent = occWeb.formatBytes(this.state.smem);
            $('dyn-smem-hint').textContent = occWeb.formatBytes(this.state.dynSmem);
            $('carveout-hint').textContent = (this.state.carveout < 0 ? 'default: ' : '') +
                occWeb.formatBytes(r.smem_per_sm_bytes) + ' shared';
            $('barriers-hint').textContent = gpu.barriers_per_block_slot > 0
                ? gpu.barriers_per_block_slot + ' per block slot' : 'never limit here';
        }

        clearResults() {
            for (const id of ['occupancy', 'blocks-per-sm', 'warps-per-sm', 'limiter', 'active-clusters',
                              'active-sms']) {
                $(id).textContent = '-';
            }
            $('zero-reason').hidden = true;
            $('explain').textContent = '';
            this.smView.clear();
            this.staircases.clear();
            this.gpcView.clear('');
        }

        // One line, and the field at fault (libocc's name) for scripts.
        showError(message, field = '') {
            const error = $('error');
            error.textContent = message;
            error.dataset.field = field;
            error.hidden = message === '';
        }

        // The link is current at once; the address bar follows once changes
        // pause: history.replaceState takes milliseconds, and browsers throttle
        // it when called on every slider step.
        updateUrl() {
            const hash = occWeb.hashFromState(this.state);
            $('share-link').setAttribute('href', hash);
            clearTimeout(this.urlTimer);
            this.urlTimer = setTimeout(() => {
                if (location.hash !== hash) {
                    history.replaceState(null, '', hash);
                }
            }, urlDelayMs);
        }

        recordTime(ms) {
            occWeb.renderTimes.push(ms);
            if (occWeb.renderTimes.length > 1000) {
                occWeb.renderTimes.shift();
            }
            $('render-ms').textContent = ms.toFixed(1);
        }
    }

    occWeb.loadOcc().then((api) => {
        occWeb.app = new App(api);
        document.body.dataset.ready = 'true';
    }).catch((error) => {
        const node = document.getElementById('error');
        node.textContent = 'occ.wasm did not load: ' + error;
        node.hidden = false;
        document.body.dataset.ready = 'failed';
    });
}(window.occWeb));
