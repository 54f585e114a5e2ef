// repaint.test.mjs - every control change repaints within one 16 ms frame.
// A timing test: CTest runs it alone (web_repaint, RUN_SERIAL), apart from the
// page's other tests (web_page), which may share the CPU with anything.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, openPage } from './helpers.mjs';

let browser;

before(async () => {
    browser = await launchBrowser();
});
after(async () => {
    await browser?.close();
});

// The page times each repaint from the input event to laid-out DOM and drawn
// charts (performance.now() in app.js). Changes are made in the page, each in
// a task of its own as a person's would be, to time the page rather than the
// test's round trips. The sequence of 320 changes is played five times and
// each change keeps its best time. The five tries of one change lie a whole
// pass apart: on a shared two-core machine a slow spell (another process's
// turn on the CPU, a JIT compile, a collection) can cover five tries in a row,
// as it once did in CI (one change at 16 ms five times running, with the
// median change at 3 ms), and that is not the page's cost.
test('every control change repaints within one frame (16 ms)', async () => {
    const page = await openPage(browser);
    const times = await page.evaluate(async () => {
        const fire = (id, value) => {
            const input = document.querySelector(`[data-testid="${id}"]`);
            input.value = String(value);
            input.dispatchEvent(new Event(input.tagName === 'SELECT' ? 'change' : 'input'));
        };
        const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));
        const gpus = Array.from(document.querySelectorAll('[data-testid="gpu"] option'), (o) => o.value);
        const sequence = [];
        for (let i = 0; i < 40; i++) {
            sequence.push(['gpu', gpus[(i * 7) % gpus.length]], ['threads-slider', 32 + (i * 97) % 993],
                          ['regs-slider', (i * 37) % 256], ['smem', (i * 1531) % 49152],
                          ['dyn-smem-slider', (i * 4099) % 65536], ['carveout', (i * 13) % 102 - 1],
                          ['barriers-slider', i % 17], ['cluster-slider', 1 + (i * 5) % 16]);
        }
        const tries = sequence.map(() => []);
        const all = [];
        for (let pass = 0; pass < 5; pass++) {
            for (let k = 0; k < sequence.length; k++) {
                fire(...sequence[k]);
                await nextTask();
                const ms = window.occWeb.renderTimes.at(-1);
                tries[k].push(ms);
                all.push(ms);
            }
        }
        const best = sequence.map(([id, value], k) => ({ id, value, ms: Math.min(...tries[k]), tries: tries[k] }));
        return { best, all };
    });
    assert.equal(times.best.length, 320);
    const sorted = times.all.sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)];
    const worstBest = times.best.reduce((a, b) => (b.ms > a.ms ? b : a));
    console.log(`repaint: median ${median.toFixed(2)} ms; slowest single ${sorted.at(-1).toFixed(2)} ms; ` +
                `slowest change (best of 5) ${worstBest.ms.toFixed(2)} ms (${worstBest.id})`);
    assert.ok(worstBest.ms < 16, `every change repaints in under 16 ms: ${JSON.stringify(worstBest)}`);
});
