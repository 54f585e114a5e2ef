'use strict';
// url_state.js - the page's state in the URL fragment, so a configuration
// can be shared as a link: #gpu=H200&threads=256&regs=64&smem=16384...
// The fragment (not the query) works the same from file:// and a server,
// and changing it never reloads the page. Names are the controls'
// data-testid values; docs/web.md lists them.
window.occWeb = window.occWeb || {};

(function (occWeb) {
    // The kernel `make run` explains, on the GPU it names.
    const defaults = {
        gpu: 'H200',
        threads: 256,
        regs: 64,
        smem: 16384,
        dynSmem: 0,
        carveout: -1,
        barriers: 1,
        cluster: 1,        // blocks per cluster (CC 9.0 on); 1: each block its own cluster
        ilp: 1,
        bytesPerLoad: 4,
        latencyNs: null,   // null: the GPU database's value
        bandwidth: null,
        sms: null,
    };

    // state key -> URL parameter, and whether it holds an integer.
    const params = [
        ['gpu', 'gpu', 'text'],
        ['threads', 'threads', 'int'],
        ['regs', 'regs', 'int'],
        ['smem', 'smem', 'int'],
        ['dynSmem', 'dyn-smem', 'int'],
        ['carveout', 'carveout', 'carveout'],
        ['barriers', 'barriers', 'int'],
        ['cluster', 'cluster', 'int'],
        ['ilp', 'ilp', 'number'],
        ['bytesPerLoad', 'bytes-per-load', 'number'],
        ['latencyNs', 'latency-ns', 'number'],
        ['bandwidth', 'bandwidth', 'number'],
        ['sms', 'sms', 'int'],
    ];

    // A size may carry K (1024), as on occ's command line: smem=48K.
    function parseValue(kind, text) {
        if (kind === 'text') {
            return text;
        }
        if (kind === 'carveout' && text === 'default') {
            return -1;
        }
        const match = /^(-?\d+(?:\.\d+)?)([kK])?$/.exec(text);
        if (match === null) {
            return undefined;
        }
        const value = Number(match[1]) * (match[2] ? 1024 : 1);
        if (kind !== 'number' && !Number.isInteger(value)) {
            return undefined;
        }
        return value;
    }

    occWeb.defaultState = function () {
        return Object.assign({}, defaults);
    };

    // The state a fragment describes; unknown or malformed values keep the
    // default (the page still computes, and says nothing is shared wrongly).
    occWeb.stateFromHash = function (hash) {
        const state = occWeb.defaultState();
        const search = new URLSearchParams(hash.replace(/^#/, ''));
        for (const [key, name, kind] of params) {
            const text = search.get(name);
            if (text === null || text === '') {
                continue;
            }
            const value = parseValue(kind, text.trim());
            if (value !== undefined) {
                state[key] = value;
            }
        }
        return state;
    };

    // The fragment for a state: every kernel field, and the memory-model
    // fields only where they differ from the database's (null).
    occWeb.hashFromState = function (state) {
        const search = new URLSearchParams();
        for (const [key, name, kind] of params) {
            const value = state[key];
            if (value === null || value === undefined) {
                continue;
            }
            search.set(name, kind === 'carveout' && value === -1 ? 'default' : String(value));
        }
        return '#' + search.toString();
    };
}(window.occWeb));
