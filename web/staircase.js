'use strict';
// staircase.js - Nsight Compute's "Impact of Varying ..." charts: resident
// warps per SM as registers, shared memory or block size vary with the rest
// of the kernel fixed, from libocc's occ_sweep, drawn with uPlot. The
// kernel's own point is marked on each.
window.occWeb = window.occWeb || {};

(function (occWeb) {
    const markerRadius = 5;

    // Draws the current point over the plot (a hook, so no extra series).
    function markerPlugin(chart) {
        return {
            hooks: {
                draw: [(u) => {
                    if (chart.point === null) {
                        return;
                    }
                    const x = u.valToPos(chart.point.x, 'x', true);
                    const y = u.valToPos(chart.point.y, 'y', true);
                    const ctx = u.ctx;
                    ctx.save();
                    ctx.fillStyle = getComputedStyle(u.root).getPropertyValue('--marker') || '#d33';
                    ctx.beginPath();
                    ctx.arc(x, y, markerRadius * devicePixelRatio, 0, 2 * Math.PI);
                    ctx.fill();
                    ctx.restore();
                }],
            },
        };
    }

    class Staircase {
        constructor(container, axisName) {
            this.container = container;
            this.point = null;
            this.maxWarps = 64;
            const stepped = uPlot.paths.stepped({ align: 1 });
            this.plot = new uPlot({
                width: this.width(),
                height: 180,
                legend: { show: false },
                cursor: { drag: { x: false, y: false } },
                scales: { x: { time: false }, y: { range: () => [0, this.maxWarps] } },
                axes: [{ label: axisName, size: 40 }, { label: 'warps per SM', size: 50 }],
                series: [{}, { stroke: '#2563eb', width: 2, paths: stepped,
                               fill: 'rgba(37, 99, 235, 0.08)', points: { show: false } }],
                plugins: [markerPlugin(this)],
            }, [[0], [0]], container);
        }

        width() {
            return Math.max(200, Math.floor(this.container.clientWidth || 300));
        }

        resize() {
            this.plot.setSize({ width: this.width(), height: 180 });
        }

        update(points, current, maxWarps) {
            this.point = current;
            this.maxWarps = maxWarps;
            this.plot.setData([points.values, points.warps]);
            this.container.dataset.points = String(points.values.length);
            this.container.setAttribute('aria-label', current === null ? '' :
                current.y + ' warps per SM at ' + current.x);
        }
    }

    occWeb.Staircases = class {
        constructor() {
            this.charts = {
                regs: new Staircase(document.getElementById('chart-regs'), 'registers per thread'),
                smem: new Staircase(document.getElementById('chart-smem'), 'bytes per block'),
                threads: new Staircase(document.getElementById('chart-threads'), 'threads per block'),
            };
            const observer = new ResizeObserver(() => {
                for (const chart of Object.values(this.charts)) {
                    chart.resize();
                }
            });
            for (const chart of Object.values(this.charts)) {
                observer.observe(chart.container);
            }
        }

        // sweeps: {regs, smem, threads}, each {values, warps, current: {x, y}}.
        render(sweeps, maxWarps) {
            for (const [axis, chart] of Object.entries(this.charts)) {
                const s = sweeps[axis];
                chart.update(s, s.current, maxWarps);
            }
        }

        clear() {
            for (const chart of Object.values(this.charts)) {
                chart.update({ values: [0], warps: [0] }, null, chart.maxWarps);
            }
        }
    };
}(window.occWeb));
