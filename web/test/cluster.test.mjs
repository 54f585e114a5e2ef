// cluster.test.mjs - the cluster control and the GPC view: the page's
// cluster numbers against `occ calc --cluster N --json` (result.cluster) for
// the same inputs, the H200's 7-block case against the driver's answer the
// issue quotes, the control off before compute capability 9.0, and the
// cluster size kept in the link.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { launchBrowser, openPage, setControls, readPage, settledHash, differences, occCalc,
         occBinary } from './helpers.mjs';

let browser;

before(async () => {
    browser = await launchBrowser();
});
after(async () => {
    await browser?.close();
});

// `occ calc --json --cluster N` (non-portable above 8): result.cluster.
function occCluster(cfg) {
    const args = ['calc', '--json', '--gpu', cfg.gpu, '--threads', String(cfg.threads),
                  '--regs', String(cfg.regs), '--smem', String(cfg.smem),
                  '--dyn-smem', String(cfg.dynSmem), '--carveout', 'default',
                  '--barriers', '1', '--cluster', String(cfg.cluster)];
    if (cfg.cluster > 8) {
        args.push('--cluster-non-portable');
    }
    const run = spawnSync(occBinary, args, { encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr);
    return JSON.parse(run.stdout).result.cluster;
}

async function setCluster(page, cfg) {
    await setControls(page, { carveout: -1, barriers: 1, ...cfg });
    await page.fill('[data-testid="cluster"]', String(cfg.cluster));
}

// What the page shows about clusters: the figures, the summary and each GPC
// row's clusters and idle SMs, counted from the cells themselves.
async function readClusters(page) {
    return page.evaluate(() => {
        const text = (id) => document.querySelector(`[data-testid="${id}"]`).textContent.trim();
        const rows = Array.from(document.querySelectorAll('[data-testid="gpc"]'), (row) => {
            const colours = new Set();
            for (const slot of row.querySelectorAll('.gpc-slot')) {
                const match = /\bcl\d\b/.exec(slot.className);
                if (match) {
                    colours.add(match[0]);
                }
            }
            return { sms: row.querySelectorAll('.gpc-sm').length,
                     idle: row.querySelectorAll('.gpc-sm.idle').length,
                     filledSlots: row.querySelectorAll('.gpc-slot[class*="cl"]').length,
                     colours: colours.size,
                     clusters: Number(row.dataset.clusters) };
        });
        return { clusters: text('active-clusters'), activeSms: text('active-sms'),
                 smCount: text('cluster-sm-count'), summary: text('gpc-summary'),
                 note: text('gpc-note'), rows,
                 disabled: document.querySelector('[data-testid="cluster"]').disabled };
    });
}

const base = { threads: 256, regs: 64, smem: 16384, dynSmem: 0 };
const configs = [
    { gpu: 'H200', ...base, cluster: 7 },
    { gpu: 'H200', ...base, threads: 1024, cluster: 7 },
    { gpu: 'H200', ...base, threads: 128, regs: 32, smem: 0, cluster: 2 },
    { gpu: 'H200', ...base, threads: 512, dynSmem: 100000, cluster: 16 },
    { gpu: 'H200', ...base, threads: 96, regs: 40, cluster: 12 },
    { gpu: 'H200', ...base, cluster: 1 },
    { gpu: 'H100 SXM', ...base, threads: 1024, cluster: 7 },
    { gpu: 'H100 PCIe', ...base, threads: 384, cluster: 4 },
];

test('the cluster numbers and the GPC view agree with occ calc --cluster', async () => {
    const page = await openPage(browser);
    for (const cfg of configs) {
        await setCluster(page, cfg);
        const shown = await readClusters(page);
        const cli = occCluster(cfg);
        const where = JSON.stringify(cfg);
        // Without a measured layout the page says the counts are bounds.
        const prefix = cli.exact ? '' : 'at most ';
        assert.equal(shown.clusters, prefix + cli.max_active_clusters, where);
        assert.equal(shown.activeSms, prefix + cli.active_sms, where);
        assert.equal(shown.rows.length, cli.gpcs.length, where);
        let filled = 0;
        cli.gpcs.forEach((gpc, g) => {
            assert.equal(shown.rows[g].sms, gpc.sms, `${where} GPC ${g}`);
            assert.equal(shown.rows[g].clusters, gpc.clusters, `${where} GPC ${g}`);
            assert.equal(shown.rows[g].idle, gpc.sms - gpc.active_sms, `${where} GPC ${g}`);
            filled += shown.rows[g].filledSlots;
        });
        // Every block of every active cluster has a coloured slot.
        assert.equal(filled, cli.active_blocks, where);
        assert.equal(cli.exact, !/upper bounds/.test(shown.note), where);
        // The rest of the page still agrees with occ calc.
        assert.deepEqual(differences(await readPage(page), occCalc({ carveout: -1, barriers: 1, ...cfg })),
                         [], where);
    }
    assert.deepEqual(page.problems, []);
});

// The case, as the driver (cudaOccupancyMaxActiveClusters) answers it
// on an H200: 7-block clusters of one block per SM (1024 threads of 64
// registers fill the register file) -> 15 clusters on 105 of the 132 SMs, the
// GPC layout of 12 groups measured there.
test('H200, 7-block clusters, one block per SM: 12 GPCs, 27 SMs idle', async () => {
    const page = await openPage(browser, '#gpu=H200&threads=1024&regs=64&cluster=7');
    const shown = await readClusters(page);
    assert.equal(shown.rows.length, 12);
    assert.equal(shown.rows.reduce((n, r) => n + r.idle, 0), 27);
    assert.equal(shown.rows.reduce((n, r) => n + r.sms, 0), 132);
    assert.equal(shown.clusters, '15');
    assert.equal(shown.activeSms, '105');
    assert.equal(shown.summary, '15 clusters of 7 on 105 of 132 SMs; 27 SMs idle');
    // One block per SM: 105 coloured cells, neighbouring clusters in different colours.
    assert.equal(shown.rows.reduce((n, r) => n + r.filledSlots, 0), 105);
    assert.ok(shown.rows.every((r) => r.colours === Math.min(r.clusters, 8)), JSON.stringify(shown.rows));
    assert.match(shown.note, /measured|probe/);
    assert.deepEqual(page.problems, []);
});

test('the cluster size travels in the link; before CC 9.0 the control is off and says why', async () => {
    const page = await openPage(browser);
    await setCluster(page, { gpu: 'H200', ...base, cluster: 12 });
    const shown = await readPage(page);
    assert.match(shown.hash, /cluster=12/);
    assert.equal(await settledHash(page), shown.hash);
    const again = await openPage(browser, shown.hash);
    assert.equal(await again.inputValue('[data-testid="cluster"]'), '12');
    assert.deepEqual(await readClusters(again), await readClusters(page));
    assert.match(await again.textContent('[data-testid="cluster-hint"]'), /non-portable/);

    for (const gpu of ['A100 SXM 80GB', 'RTX 4090', 'T4']) {
        await page.selectOption('[data-testid="gpu"]', gpu);
        const off = await readClusters(page);
        assert.equal(off.disabled, true, gpu);
        assert.equal(off.rows.length, 0, gpu);
        assert.equal(off.clusters, '-', gpu);
        assert.match(off.note, /compute capability 9\.0/, gpu);
    }
    // Back on a 9.0 GPU the control works again.
    await page.selectOption('[data-testid="gpu"]', 'H200');
    const on = await readClusters(page);
    assert.equal(on.disabled, false);
    assert.equal(on.rows.length, 12);
    assert.deepEqual([...page.problems, ...again.problems], []);
});
