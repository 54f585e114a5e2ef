// presets.test.mjs - every preset: it sets the controls it names, shows
// what it claims (its `expect`, worked by hand in presets.js), agrees with
// `occ calc`, `occ explain`, `occ sweep` and `occ latency`; and a
// screenshot of each is saved as a test artifact.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { launchBrowser, openPage, readPage, occCalc, differences, occExplainParagraphs,
         readStaircases, occSweep, occLatency, readLatencyPanel, artifactsDir } from './helpers.mjs';

let browser;
let page;

before(async () => {
    browser = await launchBrowser();
    page = await openPage(browser, '', { viewport: { width: 1280, height: 1000 } });
});
after(async () => {
    await browser?.close();
});

test('every preset shows what it claims, as occ calc and occ explain do', async () => {
    const presets = await page.evaluate(() => window.occWeb.presets);
    assert.ok(presets.length >= 15, `${presets.length} presets`);
    const ids = new Set(presets.map((p) => p.id));
    for (const wanted of ['register-bound', 'shared-memory-bound', 'block-slot-bound',
                          'warp-slot-bound', 'full']) {
        assert.ok(ids.has(wanted), `a ${wanted} preset`);
    }
    // A preset says what it is: users have no "seed" documents to look up.
    for (const preset of presets) {
        assert.ok(!/seed/i.test(`${preset.id} ${preset.group} ${preset.label}`),
                  `${preset.id}: "${preset.label}" names a seed`);
    }
    for (const preset of presets) {
        await page.selectOption('[data-testid="preset"]', preset.id);
        const shown = await readPage(page);
        const cfg = { gpu: preset.gpu, threads: preset.threads, regs: preset.regs,
                      smem: preset.smem, dynSmem: preset.dynSmem, carveout: preset.carveout,
                      barriers: preset.barriers };
        // The controls and the picker show the preset.
        assert.deepEqual(
            [shown.gpu, shown.threads, shown.regs, shown.smem, shown.dynSmem, shown.carveout,
             shown.barriers],
            [cfg.gpu, ...[cfg.threads, cfg.regs, cfg.smem, cfg.dynSmem, cfg.carveout,
                          cfg.barriers].map(String)], `${preset.id}: controls`);
        // What the preset claims.
        assert.equal(shown.blocks, String(preset.expect.blocks), `${preset.id}: blocks per SM`);
        assert.deepEqual(shown.limiter.split(' + ').sort(), [...preset.expect.limiters].sort(),
                         `${preset.id}: limiter`);
        if (preset.id === 'full') {
            assert.equal(shown.occupancy, '100%');
        }
        // What occ says.
        assert.deepEqual(differences(shown, occCalc(cfg)), [], `${preset.id}: occ calc`);
        const explanation = shown.explain.replace(/\s+/g, ' ');
        for (const paragraph of occExplainParagraphs(cfg)) {
            assert.ok(explanation.includes(paragraph.replace(/\s+/g, ' ')),
                      `${preset.id}: the page explains "${paragraph}"`);
        }
        // Each staircase is occ sweep's, point for point, marked where occ marks it.
        const stairs = await readStaircases(page);
        for (const [axis, s] of Object.entries(stairs)) {
            const sweep = occSweep(cfg, axis);
            assert.deepEqual(s.x, sweep.points.map((p) => p.value), `${preset.id}: ${axis} x`);
            assert.deepEqual(s.y, sweep.points.map((p) => p.warps_per_sm), `${preset.id}: ${axis} y`);
            assert.deepEqual(s.point, { x: sweep.current.value, y: sweep.current.warps_per_sm },
                             `${preset.id}: ${axis} marker`);
        }
        // The Little's-law panel predicts what occ latency does for its inputs.
        const panel = await readLatencyPanel(page);
        const prediction = occLatency(cfg, panel);
        assert.ok(Math.abs(parseFloat(panel.fraction) / 100 - prediction.fraction_of_peak) <= 0.0005,
                  `${preset.id}: ${panel.fraction} of peak, occ latency ${prediction.fraction_of_peak}`);
        await page.screenshot({ path: join(artifactsDir, `preset-${preset.id}.png`), fullPage: true });
    }
    assert.deepEqual(page.problems, []);
});

test('moving a control after a preset clears the preset picker', async () => {
    await page.selectOption('[data-testid="preset"]', 'register-bound');
    await page.fill('[data-testid="regs"]', '32');
    assert.equal(await page.inputValue('[data-testid="preset"]'), '');
});
