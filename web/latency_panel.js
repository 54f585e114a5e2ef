'use strict';
// latency_panel.js - the Little's-law panel: loads in flight per thread and
// bytes per load in, libocc's occ_latency_predict out (the fraction of peak
// bandwidth the resident warps can sustain). Latency, bandwidth and SM count
// come from the GPU database where it knows them and are editable always.
window.occWeb = window.occWeb || {};

(function (occWeb) {
    // Where the database has no measured latency: 400 cycles at the GPU's
    // boost clock, the global-memory load latency the seeds' worked examples
    // use (seed 004 example 7, seed 001 "400 cycles"). Marked as assumed.
    const assumedLatencyCycles = 400;

    occWeb.LatencyPanel = class {
        constructor(api) {
            this.api = api;
            this.fields = {
                ilp: document.getElementById('ilp'),
                bytesPerLoad: document.getElementById('bytes-per-load'),
                latencyNs: document.getElementById('latency-ns'),
                bandwidth: document.getElementById('bandwidth'),
                sms: document.getElementById('sms'),
            };
            this.source = document.getElementById('model-source');
            this.fraction = document.getElementById('bandwidth-fraction');
            this.text = document.getElementById('latency-text');
        }

        // The model for a GPU: the database's facts, the assumed latency, and
        // the state's own values (non-null) over both.
        model(gpu, state) {
            const db = this.api.memoryModel(gpu.index);
            const notes = [];
            let latency = db.latency_ns;
            if (latency > 0) {
                notes.push('latency from the GPU database');
            } else if (gpu.sm_clock_mhz > 0) {
                // Whole nanoseconds: the value in the field is the value used.
                latency = Math.round(assumedLatencyCycles * 1000 / gpu.sm_clock_mhz);
                notes.push('latency assumed: ' + assumedLatencyCycles + ' cycles at ' +
                    gpu.sm_clock_mhz + ' MHz (no measurement in the database)');
            }
            const model = {
                latency_ns: state.latencyNs !== null ? state.latencyNs : latency,
                peak_gb_per_s: state.bandwidth !== null ? state.bandwidth : db.peak_gb_per_s,
                sm_count: state.sms !== null ? state.sms : db.sm_count,
            };
            if (state.bandwidth === null && db.peak_gb_per_s > 0) {
                notes.push('bandwidth and SM count from the GPU database');
            }
            if (!(model.latency_ns > 0) || !(model.peak_gb_per_s > 0) || !(model.sm_count > 0)) {
                notes.push('this entry lacks a fact: enter latency, bandwidth and SMs');
            }
            model.note = notes.join('; ');
            return model;
        }

        render(gpu, state, warpsPerSm) {
            const m = this.model(gpu, state);
            setValue(this.fields.ilp, state.ilp);
            setValue(this.fields.bytesPerLoad, state.bytesPerLoad);
            setValue(this.fields.latencyNs, m.latency_ns > 0 ? m.latency_ns : '');
            setValue(this.fields.bandwidth, m.peak_gb_per_s > 0 ? m.peak_gb_per_s : '');
            setValue(this.fields.sms, m.sm_count > 0 ? m.sm_count : '');
            this.source.textContent = m.note;
            const r = this.api.latency(warpsPerSm, state.ilp, state.bytesPerLoad, m);
            if (!r.ok) {
                this.fraction.textContent = '-';
                this.text.textContent = r.error;
                return;
            }
            this.fraction.textContent = occWeb.formatPercent(r.fraction_of_peak);
            this.text.textContent =
                round(r.predicted_gb_per_s, 0) + ' GB/s of ' + m.peak_gb_per_s + ' GB/s, ' +
                r.boundName + '-bound: ' + occWeb.formatBytes(Math.round(r.bytes_in_flight_per_sm)) +
                ' in flight per SM, ' + occWeb.formatBytes(Math.round(r.bytes_in_flight_needed_per_sm)) +
                ' needed to saturate. At this ILP that takes ' + round(r.warps_needed_per_sm, 1) +
                ' warps per SM; at these warps, ' + round(r.loads_per_thread_needed, 1) +
                ' loads in flight per thread.';
        }

        // Field edits: the key changed and its value, or null to clear it.
        onInput(handler) {
            for (const [key, input] of Object.entries(this.fields)) {
                input.addEventListener('input', () => {
                    const value = input.value === '' ? NaN : Number(input.value);
                    handler(key, Number.isFinite(value) ? value : null);
                });
            }
        }
    };

    function round(x, digits) {
        const f = Math.pow(10, digits);
        return Math.round(x * f) / f;
    }

    // Leaves the field alone while someone types in it.
    function setValue(input, value) {
        if (document.activeElement !== input) {
            input.value = String(value);
        }
    }
}(window.occWeb));
