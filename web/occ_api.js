'use strict';
// occ_api.js - libocc in WebAssembly, wrapped for the page (web/occ_wasm.h).
// The module comes from occ_wasm_data.js as base64: a page opened from
// file:// may not fetch() it, and embedding it means no request at all.
window.occWeb = window.occWeb || {};

(function (occWeb) {
    const decoder = new TextDecoder();

    function base64Bytes(base64) {
        const binary = atob(base64);
        const bytes = new Uint8Array(binary.length);
        for (let i = 0; i < binary.length; i++) {
            bytes[i] = binary.charCodeAt(i);
        }
        return bytes;
    }

    // The buffers' layouts are lists of names the C side writes.
    function fieldNames(text) {
        return text.split(',').filter((name) => name !== '');
    }

    class OccApi {
        constructor(exports) {
            this.ex = exports;
            this.gpuFields = fieldNames(this.string(exports.occ_wasm_gpu_fields()));
            this.calcFields = fieldNames(this.string(exports.occ_wasm_calc_fields()));
            this.modelFields = fieldNames(this.string(exports.occ_wasm_model_fields()));
            this.latencyFields = fieldNames(this.string(exports.occ_wasm_latency_fields()));
            this.clusterFields = fieldNames(this.string(exports.occ_wasm_cluster_fields()));
            this.maxGpcs = exports.occ_wasm_max_gpcs();
            this.version = this.string(exports.occ_wasm_version());
            this.gpus = [];
            const count = exports.occ_wasm_gpu_count();
            for (let i = 0; i < count; i++) {
                this.gpus.push(this.gpuAt(i));
            }
        }

        string(ptr) {
            const memory = new Uint8Array(this.ex.memory.buffer);
            let end = ptr;
            while (memory[end] !== 0) {
                end++;
            }
            return decoder.decode(memory.subarray(ptr, end));
        }

        doubles(ptr, count) {
            return new Float64Array(this.ex.memory.buffer, ptr, count);
        }

        record(ptr, names) {
            const values = this.doubles(ptr, names.length);
            const out = {};
            names.forEach((name, i) => { out[name] = values[i]; });
            return out;
        }

        failure() {
            return { ok: false, error: this.string(this.ex.occ_wasm_error()),
                     field: this.string(this.ex.occ_wasm_error_field()) };
        }

        gpuAt(index) {
            const ptr = this.ex.occ_wasm_gpu(index);
            // carveout_steps_bytes, the last name, starts the carveout_step_count steps.
            const stepsAt = this.gpuFields.indexOf('carveout_steps_bytes');
            const gpu = this.record(ptr, this.gpuFields.slice(0, stepsAt));
            const steps = this.doubles(ptr + stepsAt * Float64Array.BYTES_PER_ELEMENT,
                                       gpu.carveout_step_count);
            gpu.carveout_steps_bytes = Array.from(steps);
            gpu.named = gpu.named === 1;
            gpu.index = index;
            gpu.name = this.string(this.ex.occ_wasm_gpu_name(index));
            const aliases = this.string(this.ex.occ_wasm_gpu_aliases(index));
            gpu.aliases = aliases === '' ? [] : aliases.split(',');
            return gpu;
        }

        // The database index for a name, alias, arch or compute capability; -1 if none.
        findGpu(query) {
            const bytes = new TextEncoder().encode(String(query));
            const cap = this.ex.occ_wasm_input_bytes();
            if (bytes.length >= cap) {
                return -1;
            }
            const input = new Uint8Array(this.ex.memory.buffer, this.ex.occ_wasm_input(), cap);
            input.set(bytes);
            input[bytes.length] = 0;
            return this.ex.occ_wasm_gpu_find();
        }

        // occ_calc: {ok: true, ...occ_result fields} or {ok: false, error, field}.
        calc(gpuIndex, k) {
            const status = this.ex.occ_wasm_calc(gpuIndex, k.threads, k.regs, k.smem, k.dynSmem,
                                                 k.carveout, k.barriers);
            if (status !== 0) {
                return this.failure();
            }
            const r = this.record(this.ex.occ_wasm_result(), this.calcFields);
            r.ok = true;
            return r;
        }

        // Nsight's staircase along one axis for the last kernel calc() took:
        // {values, warps, current} (x values, warps per SM, the kernel's x).
        sweep(axis) {
            const axes = { regs: 0, smem: 1, threads: 2, barriers: 3 }; // occ_sweep_axis
            const count = this.ex.occ_wasm_sweep(axes[axis]);
            if (count < 0) {
                return { values: [], warps: [], current: 0, error: this.failure().error };
            }
            return {
                values: Array.from(this.doubles(this.ex.occ_wasm_sweep_values(), count)),
                warps: Array.from(this.doubles(this.ex.occ_wasm_sweep_warps(), count)),
                current: this.ex.occ_wasm_sweep_current(axes[axis]),
            };
        }

        // occ_explain_text for the last kernel calc() took. libocc never cuts
        // the text (the buffer is OCC_EXPLAIN_TEXT_MAX); if it ever reports
        // an error, show it rather than a partial explanation.
        explain() {
            const text = this.string(this.ex.occ_wasm_explain());
            const error = this.string(this.ex.occ_wasm_error());
            if (error !== '') {
                throw new Error(`occ_explain_text: ${error}`);
            }
            return text;
        }

        // occ_cluster_calc for a 1-D cluster of `size` blocks and the last kernel
        // calc() took: {ok: true, ...scalar fields, gpcs: [{sms, clusters,
        // activeSms}], citation} or {ok: false, error, field}.
        cluster(size, nonPortable) {
            const status = this.ex.occ_wasm_cluster(size, nonPortable ? 1 : 0);
            if (status !== 0) {
                return this.failure();
            }
            // gpc_sms, the first array name, starts the three per-GPC arrays.
            const arraysAt = this.clusterFields.indexOf('gpc_sms');
            const ptr = this.ex.occ_wasm_cluster_result();
            const r = this.record(ptr, this.clusterFields.slice(0, arraysAt));
            const arrays = this.doubles(ptr + arraysAt * Float64Array.BYTES_PER_ELEMENT,
                                        3 * this.maxGpcs);
            r.gpcs = [];
            for (let g = 0; g < r.gpc_count; g++) {
                r.gpcs.push({ sms: arrays[g], clusters: arrays[this.maxGpcs + g],
                              activeSms: arrays[2 * this.maxGpcs + g] });
            }
            r.exact = r.exact === 1;
            r.launch_refused = r.launch_refused === 1;
            r.citation = this.string(this.ex.occ_wasm_gpc_citation());
            r.ok = true;
            return r;
        }

        limiterNames(bits) {
            const names = [];
            for (let bit = 1; bit <= bits; bit <<= 1) {
                if ((bits & bit) !== 0) {
                    names.push(this.string(this.ex.occ_wasm_limiter_name(bit)));
                }
            }
            return names;
        }

        limiterName(bit) {
            return this.string(this.ex.occ_wasm_limiter_name(bit));
        }

        zeroReasonText(reason) {
            return this.string(this.ex.occ_wasm_zero_reason_text(reason));
        }

        // The database's latency, bandwidth and SM count (0 where unknown), and
        // which fact is missing when one is.
        memoryModel(gpuIndex) {
            const status = this.ex.occ_wasm_memory_model(gpuIndex);
            const model = this.record(this.ex.occ_wasm_model(), this.modelFields);
            model.missing = status === 0 ? '' : this.string(this.ex.occ_wasm_error());
            return model;
        }

        latency(warpsPerSm, ilp, bytesPerLoad, m) {
            const status = this.ex.occ_wasm_latency(warpsPerSm, ilp, bytesPerLoad, m.latency_ns,
                                                    m.peak_gb_per_s, m.sm_count);
            if (status !== 0) {
                return this.failure();
            }
            const r = this.record(this.ex.occ_wasm_latency_result(), this.latencyFields);
            r.ok = true;
            r.boundName = this.string(this.ex.occ_wasm_latency_bound_name(r.bound));
            return r;
        }
    }

    occWeb.loadOcc = async function () {
        const { instance } = await WebAssembly.instantiate(base64Bytes(window.OCC_WASM_BASE64), {});
        return new OccApi(instance.exports);
    };

    // 0.625 -> "62.5%", 0.5 -> "50%": `occ calc`'s printf("%.1f") with its
    // ".0" dropped. printf rounds an exact tie (6.25) to even ("6.2") where
    // toFixed rounds it up, so ties are settled here first.
    occWeb.formatPercent = function (fraction) {
        const percent = fraction * 100.0;
        const tenths = percent * 10;
        let text;
        if (tenths - Math.floor(tenths) === 0.5) {
            const down = Math.floor(tenths);
            text = ((down % 2 === 0 ? down : down + 1) / 10).toFixed(1);
        } else {
            text = percent.toFixed(1);
        }
        return (text.endsWith('.0') ? text.slice(0, -2) : text) + '%';
    };
}(window.occWeb));
