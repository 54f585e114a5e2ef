// agreement.test.mjs - the page and `occ calc --json` agree: on random
// configurations over the whole GPU database, set through the controls,
// and after each control is moved with the keyboard.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, openPage, readPage, setControls, occCalc, differences,
         occExplainParagraphs, randomSource } from './helpers.mjs';

const seed = Number(process.env.OCC_WEB_TEST_SEED || Date.now() % 1000000);
const configurations = Number(process.env.OCC_WEB_TEST_CONFIGS || 60);
let browser;
let page;

before(async () => {
    browser = await launchBrowser();
    page = await openPage(browser);
});
after(async () => {
    await browser?.close();
});

// Mostly valid launches, one in ten with one value over its limit (the page
// must then say what occ says: with two bad values occ's option parser and
// libocc could name different ones first), shared memory often zero.
function randomConfiguration(rnd, gpus) {
    const size = (max) => (rnd.next() < 0.4 ? 0 : rnd.int(0, max));
    const cfg = {
        gpu: rnd.pick(gpus),
        threads: rnd.int(1, 1024),
        regs: rnd.int(0, 255),
        smem: size(48 * 1024),
        dynSmem: size(232 * 1024),
        carveout: rnd.next() < 0.4 ? -1 : rnd.int(0, 100),
        barriers: rnd.int(0, 16),
    };
    if (rnd.next() < 0.1) {
        const over = { threads: rnd.int(1025, 1100), regs: 256, smem: rnd.int(48 * 1024 + 1, 64 * 1024),
                       barriers: 17, carveout: 101 };
        const field = rnd.pick(Object.keys(over));
        cfg[field] = over[field];
    }
    return cfg;
}

test(`random configurations agree with occ calc --json (seed ${seed})`, async () => {
    const gpus = await page.$$eval('[data-testid="gpu"] option', (os) => os.map((o) => o.value));
    assert.ok(gpus.length >= 30, `the picker holds the whole database (${gpus.length} entries)`);
    const rnd = randomSource(seed);
    // `configurations` random configurations, and more until 50 of them are
    // valid launches (the share of valid ones varies with the seed), at most
    // three times as many.
    const validWanted = Math.min(50, configurations);
    let valid = 0;
    for (let i = 0; (i < configurations || valid < validWanted) && i < 3 * configurations; i++) {
        const cfg = randomConfiguration(rnd, gpus);
        await setControls(page, cfg);
        const shown = await readPage(page);
        const cli = occCalc(cfg);
        valid += cli.status === 0 ? 1 : 0;
        assert.deepEqual(differences(shown, cli), [],
            `configuration ${i} (seed ${seed}): ${JSON.stringify(cfg)}`);
        if (cli.status === 0) {
            const explanation = shown.explain.replace(/\s+/g, ' ');
            for (const paragraph of occExplainParagraphs(cfg)) {
                assert.ok(explanation.includes(paragraph.replace(/\s+/g, ' ')),
                          `configuration ${i} (seed ${seed}): the page explains "${paragraph}"`);
            }
        }
    }
    assert.ok(valid >= validWanted, `${validWanted} valid configurations compared (${valid})`);
    assert.deepEqual(page.problems, []);
});

// Each slider moved with the arrow keys: its numeric field follows, and
// the result is occ calc's for the new value.
test('every control moves by keyboard and the result follows', async () => {
    await page.selectOption('[data-testid="gpu"]', 'H100 SXM');
    const start = { gpu: 'H100 SXM', threads: 256, regs: 64, smem: 8192, dynSmem: 4096,
                    carveout: 50, barriers: 2 };
    await setControls(page, start);
    const moves = [['threads', 'threads', 'ArrowRight', 1], ['regs', 'regs', 'ArrowRight', 1],
                   ['smem', 'smem', 'ArrowLeft', -256], ['dyn-smem', 'dynSmem', 'ArrowRight', 256],
                   ['carveout', 'carveout', 'ArrowLeft', -1], ['barriers', 'barriers', 'ArrowUp', 1]];
    const cfg = { ...start };
    for (const [id, key, arrow, step] of moves) {
        await page.focus(`[data-testid="${id}-slider"]`);
        for (let i = 0; i < 3; i++) {
            await page.keyboard.press(arrow);
        }
        cfg[key] += 3 * step;
        const shown = await readPage(page);
        assert.equal(shown[key], String(cfg[key]), `${id}: the numeric field follows its slider`);
        assert.deepEqual(differences(shown, occCalc(cfg)), [], `after moving ${id}`);
    }
    // The numeric fields step with the arrow keys too.
    await page.focus('[data-testid="regs"]');
    await page.keyboard.press('ArrowUp');
    cfg.regs += 1;
    assert.deepEqual(differences(await readPage(page), occCalc(cfg)), [], 'regs field, ArrowUp');
    // The GPU picker works from the keyboard: the next entry.
    await page.focus('[data-testid="gpu"]');
    await page.keyboard.press('ArrowDown');
    const shown = await readPage(page);
    assert.notEqual(shown.gpu, 'H100 SXM');
    assert.deepEqual(differences(shown, occCalc({ ...cfg, gpu: shown.gpu })), [], 'next GPU');
    assert.deepEqual(page.problems, []);
});

test('Tab reaches every control in order', async () => {
    await page.focus('[data-testid="gpu"]');
    const reached = [];
    for (let i = 0; i < 16; i++) {
        reached.push(await page.evaluate(() => document.activeElement.dataset.testid || ''));
        await page.keyboard.press('Tab');
    }
    const wanted = ['gpu', 'preset', 'threads-slider', 'threads', 'regs-slider', 'regs',
                    'smem-slider', 'smem', 'dyn-smem-slider', 'dyn-smem', 'carveout-slider',
                    'carveout', 'barriers-slider', 'barriers'];
    assert.deepEqual(reached.slice(0, wanted.length), wanted);
});

test('a malformed number says so and keeps the last result', async () => {
    await setControls(page, { gpu: 'H200', threads: 128, regs: 32, smem: 0, dynSmem: 0,
                              carveout: -1, barriers: 1 });
    const before = await readPage(page);
    await page.fill('[data-testid="threads"]', '');
    const after = await readPage(page);
    assert.match(after.error, /threads/);
    assert.equal(after.occupancy, before.occupancy);
});

// printf rounds an exact tie to even (6.25% -> "6.2%", 18.75% -> "18.8%")
// where JavaScript's toFixed rounds it up; one block per SM of 4, 12 and 20
// warps of 64, and 3 warps of sm_86's 48, land exactly on ties.
test('occupancy is rounded as occ calc rounds it, ties included', async () => {
    const oneBlock = { regs: 32, smem: 0, dynSmem: 200 * 1024, carveout: -1, barriers: 1 };
    const cases = [{ gpu: 'H200', threads: 128 }, { gpu: 'H200', threads: 384 },
                   { gpu: 'H200', threads: 640 }, { gpu: 'H200', threads: 96 },
                   { gpu: 'sm_86', threads: 96, dynSmem: 90 * 1024 }];
    const seen = [];
    for (const c of cases) {
        const cfg = { ...oneBlock, ...c };
        await setControls(page, cfg);
        const shown = await readPage(page);
        assert.deepEqual(differences(shown, occCalc(cfg)), [], JSON.stringify(cfg));
        seen.push(shown.occupancy);
    }
    assert.deepEqual(seen, ['6.2%', '18.8%', '31.2%', '4.7%', '6.2%']);
});
