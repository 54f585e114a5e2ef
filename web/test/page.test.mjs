// page.test.mjs - the page as a whole: its state survives a trip through the
// URL, it makes no request beyond its own files (from file:// and from a
// static server), the wasm stays under 100 KB, and it fits a phone's screen.
// (Its repaint times are repaint.test.mjs's: a test that runs alone.)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { readFileSync, statSync } from 'node:fs';
import { join, normalize, extname } from 'node:path';
import { launchBrowser, openPage, readPage, setControls, settledHash, occCalc, differences,
         occLatency, readLatencyPanel, webDir,
         artifactsDir } from './helpers.mjs';

let browser;

before(async () => {
    browser = await launchBrowser();
});
after(async () => {
    await browser?.close();
});

const sample = { gpu: 'RTX 4090', threads: 384, regs: 72, smem: 12288, dynSmem: 20000,
                 carveout: 40, barriers: 3 };

test('a configuration survives a trip through the URL', async () => {
    const page = await openPage(browser);
    await setControls(page, sample);
    await page.fill('[data-testid="ilp"]', '4');
    await page.fill('[data-testid="bytes-per-load"]', '16');
    const first = await readPage(page);
    const latency = await page.textContent('[data-testid="bandwidth-fraction"]');
    assert.match(first.hash, /gpu=RTX\+4090/);
    assert.equal(await settledHash(page), first.hash);

    // A new page opened on the link shows the same controls and results.
    const second = await openPage(browser, first.hash);
    const again = await readPage(second);
    assert.deepEqual(again, first);
    assert.equal(await second.textContent('[data-testid="bandwidth-fraction"]'), latency);
    assert.equal(await second.inputValue('[data-testid="ilp"]'), '4');
    assert.deepEqual(differences(again, occCalc(sample)), []);

    // Editing the fragment of an open page moves it too.
    await second.evaluate(() => { location.hash = '#gpu=T4&threads=64&regs=40'; });
    await second.waitForFunction(() =>
        document.querySelector('[data-testid="threads"]').value === '64');
    const edited = await readPage(second);
    const defaults = { smem: 16384, dynSmem: 0, carveout: -1, barriers: 1 };
    assert.deepEqual(differences(edited, occCalc({ gpu: 'T4', threads: 64, regs: 40, ...defaults })), []);
    assert.deepEqual([...page.problems, ...second.problems], []);
});

test('the Little\'s-law panel predicts what occ latency does, for any inputs', async () => {
    const page = await openPage(browser);
    await setControls(page, sample);
    const inputs = [['4', '16', null, null, null], ['2', '8', '650', '1000', '80'], ['0.5', '4', null, null, null]];
    for (const [ilp, bytes, latency, bandwidth, sms] of inputs) {
        await page.fill('[data-testid="ilp"]', ilp);
        await page.fill('[data-testid="bytes-per-load"]', bytes);
        if (latency !== null) {
            await page.fill('[data-testid="latency-ns"]', latency);
            await page.fill('[data-testid="bandwidth"]', bandwidth);
            await page.fill('[data-testid="sms"]', sms);
        }
        const panel = await readLatencyPanel(page);
        assert.deepEqual([panel.ilp, panel.bytesPerLoad], [ilp, bytes]);
        if (latency !== null) {
            assert.deepEqual([panel.latencyNs, panel.bandwidth, panel.sms], [latency, bandwidth, sms]);
        }
        const prediction = occLatency(sample, panel);
        assert.ok(Math.abs(parseFloat(panel.fraction) / 100 - prediction.fraction_of_peak) <= 0.0005,
                  `ILP ${ilp}: page ${panel.fraction}, occ latency ${prediction.fraction_of_peak}`);
    }
    // Edits to the model travel in the link.
    assert.match((await readPage(page)).hash, /latency-ns=650&bandwidth=1000&sms=80/);
});

test('links may use aliases, K sizes and "default"; bad values fall back', async () => {
    const page = await openPage(browser, '#gpu=h100&threads=128&smem=48K&carveout=default&regs=x');
    const shown = await readPage(page);
    assert.equal(shown.gpu, 'H100 SXM');
    assert.equal(shown.smem, String(48 * 1024));
    assert.equal(shown.carveout, '-1');
    assert.equal(shown.regs, '64'); // "x" is not a number: the default
    assert.match(shown.hash, /gpu=H100\+SXM/);
    assert.equal(await settledHash(page), shown.hash);
    const unknown = await openPage(browser, '#gpu=NoSuchGPU');
    const fallback = await readPage(unknown);
    assert.equal(fallback.gpu, 'H200');
    assert.match(fallback.error, /NoSuchGPU/);
});

test('no request leaves the page from file://, and the wasm is under 100 KB', async () => {
    const page = await openPage(browser, '#gpu=A100+SXM+80GB');
    await page.selectOption('[data-testid="preset"]', 'shared-memory-bound');
    assert.deepEqual(page.problems, []);
    const wasmBytes = statSync(join(webDir, 'occ.wasm')).size;
    assert.ok(wasmBytes < 100 * 1000, `occ.wasm is ${wasmBytes} bytes`);
});

const types = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css',
                '.wasm': 'application/wasm' };

test('it works from a plain static server, asking it only for its own files', async () => {
    const asked = [];
    const server = createServer((req, res) => {
        const path = normalize(decodeURIComponent(new URL(req.url, 'http://x').pathname));
        asked.push(path);
        const file = path === '/' ? 'index.html' : path;
        try {
            const body = readFileSync(join(webDir, file));
            res.writeHead(200, { 'content-type': types[extname(file)] || 'application/octet-stream' });
            res.end(body);
        } catch {
            res.writeHead(404);
            res.end();
        }
    });
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
        const url = `http://127.0.0.1:${server.address().port}/`;
        const page = await openPage(browser, '#gpu=L4&threads=96', { url });
        const shown = await readPage(page);
        assert.deepEqual(differences(shown, occCalc({ gpu: 'L4', threads: 96, regs: 64, smem: 16384,
                                                      dynSmem: 0, carveout: -1, barriers: 1 })), []);
        assert.deepEqual(page.problems, []);
        for (const path of asked) {
            assert.ok(path === '/' || statSync(join(webDir, path)).isFile(), `asked for ${path}`);
        }
    } finally {
        server.close();
    }
});

test('it fits a phone: no sideways scrolling at 390 px', async () => {
    const page = await openPage(browser, '', { viewport: { width: 390, height: 844 } });
    const overflow = await page.evaluate(() =>
        document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 0, `${overflow} px wider than the screen`);
    await page.screenshot({ path: join(artifactsDir, 'phone.png'), fullPage: true });
});
