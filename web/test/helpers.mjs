// helpers.mjs - what the page's browser tests share: the browser, the page
// opened from build/web/, reading what it shows, and `occ calc` for the same
// inputs (the oracle: the page and the CLI must never disagree).
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';

function required(name) {
    const value = process.env[name];
    if (!value) {
        throw new Error(`${name} is not set: run these tests through CTest (web/test/run.sh)`);
    }
    return value;
}

export const webDir = required('OCC_WEB_DIR');
export const occBinary = required('OCC_BINARY');
export const artifactsDir = required('OCC_WEB_ARTIFACTS');
export const pageUrl = pathToFileURL(join(webDir, 'index.html')).href;

export async function launchBrowser() {
    return chromium.launch({
        executablePath: process.env.OCC_CHROMIUM || '/usr/bin/chromium',
        // Root in CI cannot use chromium's sandbox.
        args: ['--no-sandbox'],
    });
}

// Opens the page (from file:// unless `url` is given) and waits until libocc
// has loaded. page.problems collects page errors, console errors and any
// request that is not for the page's own files.
export async function openPage(browser, hash = '', { url = pageUrl, viewport } = {}) {
    const page = await browser.newPage({ viewport: viewport || { width: 1280, height: 900 } });
    page.problems = [];
    const origin = new URL(url).origin;
    page.on('pageerror', (e) => page.problems.push('page error: ' + e.message));
    page.on('console', (m) => {
        if (m.type() === 'error') {
            page.problems.push('console error: ' + m.text());
        }
    });
    page.on('request', (r) => {
        const u = new URL(r.url());
        const own = url.startsWith('file:') ? u.protocol === 'file:' : u.origin === origin;
        if (!own) {
            page.problems.push('request outside the page: ' + r.url());
        }
    });
    await page.goto(url + hash);
    await page.waitForSelector('body[data-ready]');
    const ready = await page.evaluate(() => document.body.dataset.ready);
    if (ready !== 'true') {
        throw new Error('the page did not start: ' + await page.textContent('[data-testid="error"]'));
    }
    return page;
}

// Everything the page shows about the result, read in one round trip.
export async function readPage(page) {
    return page.evaluate(() => {
        const text = (id) => document.querySelector(`[data-testid="${id}"]`).textContent.trim();
        const value = (id) => document.querySelector(`[data-testid="${id}"]`).value;
        const error = document.querySelector('[data-testid="error"]');
        const limits = {};
        for (const name of ['warps', 'blocks', 'registers', 'shared-mem', 'barriers']) {
            const node = document.querySelector(`[data-testid="limit-${name}"]`);
            limits[name] = {
                text: node.textContent.trim(),
                binding: node.parentElement.classList.contains('binding'),
            };
        }
        return {
            gpu: value('gpu'),
            threads: value('threads'),
            regs: value('regs'),
            smem: value('smem'),
            dynSmem: value('dyn-smem'),
            carveout: value('carveout'),
            barriers: value('barriers'),
            occupancy: text('occupancy'),
            blocks: text('blocks-per-sm'),
            warps: text('warps-per-sm'),
            maxWarps: text('max-warps-per-sm'),
            limiter: text('limiter'),
            error: error.hidden ? '' : error.textContent.trim(),
            errorField: error.hidden ? '' : error.dataset.field,
            explain: text('explain'),
            limits,
            hash: document.querySelector('[data-testid="share-link"]').getAttribute('href'),
        };
    });
}

// Waits until the address bar shows the page's state (it follows changes
// once they pause) and returns its fragment.
export async function settledHash(page) {
    await page.waitForFunction(() =>
        location.hash === document.querySelector('[data-testid="share-link"]').getAttribute('href'));
    return page.evaluate(() => location.hash);
}

// Sets the controls as a person would: GPU from the picker, numbers typed
// into the numeric fields (each typed value fires the page's input event).
export async function setControls(page, cfg) {
    await page.selectOption('[data-testid="gpu"]', cfg.gpu);
    const fields = [['threads', cfg.threads], ['regs', cfg.regs], ['smem', cfg.smem],
                    ['dyn-smem', cfg.dynSmem], ['carveout', cfg.carveout],
                    ['barriers', cfg.barriers]];
    for (const [id, v] of fields) {
        await page.fill(`[data-testid="${id}"]`, String(v));
    }
}

function occArgs(cfg) {
    return ['--gpu', cfg.gpu, '--threads', String(cfg.threads), '--regs', String(cfg.regs),
            '--smem', String(cfg.smem), '--dyn-smem', String(cfg.dynSmem),
            '--carveout', cfg.carveout < 0 ? 'default' : String(cfg.carveout),
            '--barriers', String(cfg.barriers)];
}

// `occ calc --json` (and the text form, whose "Theoretical Occupancy" row is
// the CLI's own rounding of the percentage).
export function occCalc(cfg) {
    const json = spawnSync(occBinary, ['calc', '--json', ...occArgs(cfg)], { encoding: 'utf8' });
    if (json.status !== 0) {
        return { status: json.status, stderr: json.stderr };
    }
    const text = spawnSync(occBinary, ['calc', ...occArgs(cfg)], { encoding: 'utf8' });
    const row = /Theoretical Occupancy\s+(\S+)/.exec(text.stdout);
    return { status: 0, doc: JSON.parse(json.stdout), occupancyText: row ? row[1] : null };
}

// JSON limiter names (docs/json.md) as libocc's words, which the page shows.
const limiterWords = { warps: 'warps', blocks: 'blocks', registers: 'registers',
                       shared_mem: 'shared memory', barriers: 'barriers' };

// Compares what the page shows with `occ calc` for the same inputs; returns
// a list of differences (empty when they agree).
export function differences(shown, cli) {
    const diffs = [];
    const check = (what, pageValue, cliValue) => {
        if (pageValue !== cliValue) {
            diffs.push(`${what}: page ${JSON.stringify(pageValue)}, occ calc ${JSON.stringify(cliValue)}`);
        }
    };
    if (cli.status !== 0) {
        check('error shown', shown.error !== '', true);
        // The CLI's line carries libocc's message, which the page shows, or,
        // where occ's option parser rejects the value first, names the option
        // of the field libocc names ("dyn_smem": --dyn-smem).
        const option = '--' + shown.errorField.replace(/_/g, '-');
        if (shown.error !== '' && !cli.stderr.includes(shown.error) &&
            !cli.stderr.includes(`option ${option}:`)) {
            diffs.push(`error: page "${shown.error}" (${shown.errorField}) is not occ's ` +
                       `"${cli.stderr.trim()}"`);
        }
        return diffs;
    }
    const r = cli.doc.result;
    check('error', shown.error, '');
    check('occupancy', shown.occupancy, cli.occupancyText);
    check('blocks-per-sm', shown.blocks, String(r.blocks_per_sm));
    check('warps-per-sm', shown.warps, String(r.warps_per_sm));
    check('max-warps-per-sm', shown.maxWarps, String(r.max_warps_per_sm));
    const pageLimiters = shown.limiter === '' ? [] : shown.limiter.split(' + ');
    check('limiter', [...pageLimiters].sort().join(','),
          r.limiters.map((n) => limiterWords[n]).sort().join(','));
    const limitIds = { warps: 'warps', blocks: 'blocks', registers: 'registers',
                       shared_mem: 'shared-mem', barriers: 'barriers' };
    for (const [jsonName, id] of Object.entries(limitIds)) {
        const limit = r.limits[jsonName];
        check(`limit-${id}`, shown.limits[id].text, limit === null ? 'not used' : String(limit));
        check(`limit-${id} highlighted`, shown.limits[id].binding, r.limiters.includes(jsonName));
    }
    return diffs;
}

// A small seeded generator (mulberry32), so a failing run can be repeated
// with OCC_WEB_TEST_SEED.
export function randomSource(seed) {
    let a = seed >>> 0;
    const next = () => {
        a = (a + 0x6D2B79F5) >>> 0;
        let t = a;
        t = Math.imul(t ^ (t >>> 15), t | 1);
        t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    const int = (lo, hi) => lo + Math.floor(next() * (hi - lo + 1));
    return { next, int, pick: (list) => list[int(0, list.length - 1)] };
}

// `occ explain --json` for the same inputs: the paragraphs the page's
// explanation must contain, word for word.
export function occExplainParagraphs(cfg) {
    const run = spawnSync(occBinary, ['explain', '--json', ...occArgs(cfg)], { encoding: 'utf8' });
    if (run.status !== 0) {
        throw new Error(`occ explain failed: ${run.stderr}`);
    }
    const doc = JSON.parse(run.stdout);
    return [doc.summary, ...doc.steps.map((s) => s.text), doc.waste.text,
            ...doc.changes.map((c) => c.text), doc.caution];
}

// `occ sweep AXIS --json`: the staircase's points and the current one.
export function occSweep(cfg, axis) {
    const run = spawnSync(occBinary, ['sweep', axis, '--json', ...occArgs(cfg)], { encoding: 'utf8' });
    if (run.status !== 0) {
        throw new Error(`occ sweep failed: ${run.stderr}`);
    }
    return JSON.parse(run.stdout);
}

// `occ latency --json` for the kernel and the memory model the page shows.
export function occLatency(cfg, model) {
    const run = spawnSync(occBinary, ['latency', '--json', ...occArgs(cfg),
        '--ilp', String(model.ilp), '--bytes-per-load', String(model.bytesPerLoad),
        '--latency-ns', String(model.latencyNs), '--bandwidth', String(model.bandwidth),
        '--sms', String(model.sms)], { encoding: 'utf8' });
    if (run.status !== 0) {
        throw new Error(`occ latency failed: ${run.stderr}`);
    }
    return JSON.parse(run.stdout).prediction;
}

// The Little's-law panel: its inputs and the fraction of peak it predicts.
export async function readLatencyPanel(page) {
    return page.evaluate(() => {
        const value = (id) => document.querySelector(`[data-testid="${id}"]`).value;
        return {
            ilp: value('ilp'), bytesPerLoad: value('bytes-per-load'), latencyNs: value('latency-ns'),
            bandwidth: value('bandwidth'), sms: value('sms'),
            fraction: document.querySelector('[data-testid="bandwidth-fraction"]').textContent.trim(),
        };
    });
}

// Each staircase's data and marked point, as the page drew them.
export async function readStaircases(page) {
    return page.evaluate(() => {
        const out = {};
        for (const [axis, chart] of Object.entries(window.occWeb.app.staircases.charts)) {
            out[axis] = { x: Array.from(chart.plot.data[0]), y: Array.from(chart.plot.data[1]),
                          point: chart.point };
        }
        return out;
    });
}
