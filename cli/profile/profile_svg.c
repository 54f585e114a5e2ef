/*
 * profile_svg.c - `occ profile --svg FILE`: GPU time by theoretical
 * occupancy, one bar per tenth, the time-weighted occupancy marked.
 */
#include <stdio.h>

#include "profile_output.h"
#include "svg.h"

bool profile_write_svg(const char *path, const profile_view *v)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        return false;
    }
    const occ_profile_summary *s = occ_profile_summary_of(v->result);
    const double width = 800, height = 480, left = 80, right = 30, top = 70, bottom = 70;
    const double plot_w = width - left - right, plot_h = height - top - bottom;
    double total = 0, max_share = 0;
    for (int i = 0; i < OCC_PROFILE_HISTOGRAM_BINS; i++) {
        total += s->histogram_us[i];
    }
    for (int i = 0; i < OCC_PROFILE_HISTOGRAM_BINS; i++) {
        double share = total > 0 ? s->histogram_us[i] / total : 0;
        max_share = share > max_share ? share : max_share;
    }
    double y_max = max_share > 0 ? max_share * 1.1 : 1;
    svg g;
    svg_begin(&g, f, width, height, "GPU time by theoretical occupancy");
    char text[160];
    svg_text(&g, width / 2, 28, "middle", 18, "#222", 0, "GPU time by theoretical occupancy");
    double t = s->gpu_time_us;
    snprintf(text, sizeof text,
             "%lld kernel launches, %.3g %s of GPU time; weighted occupancy %.1f%% (occ profile)",
             s->launches_read,
             t >= 1e6   ? t / 1e6
             : t >= 1e3 ? t / 1e3
                        : t,
             t >= 1e6   ? "s"
             : t >= 1e3 ? "ms"
                        : "us",
             s->weighted_occupancy * 100);
    svg_text(&g, width / 2, 50, "middle", 12, "#555", 0, text);
    double ticks[16];
    int n = chart_ticks(0, y_max * 100, 6, ticks, 16);
    for (int i = 0; i < n; i++) {
        double y = top + plot_h - ticks[i] / 100 / y_max * plot_h;
        svg_line(&g, left, y, left + plot_w, y, "#ddd", 1, NULL);
        snprintf(text, sizeof text, "%g%%", ticks[i]);
        svg_text(&g, left - 8, y + 4, "end", 11, "#444", 0, text);
    }
    double bar_w = plot_w / OCC_PROFILE_HISTOGRAM_BINS;
    for (int i = 0; i < OCC_PROFILE_HISTOGRAM_BINS; i++) {
        double share = total > 0 ? s->histogram_us[i] / total : 0;
        double h = share / y_max * plot_h;
        svg_bar(&g, left + i * bar_w + 4, top + plot_h - h, bar_w - 8, h, "#4878d0", 0.9);
        snprintf(text, sizeof text, "%d-%d%%", i * 10, i * 10 + 10);
        svg_text(&g, left + (i + 0.5) * bar_w, top + plot_h + 18, "middle", 11, "#444", 0, text);
        if (share > 0) {
            snprintf(text, sizeof text, "%.1f%%", share * 100);
            svg_text(&g, left + (i + 0.5) * bar_w, top + plot_h - h - 6, "middle", 11, "#222", 0,
                     text);
        }
    }
    double wx = left + s->weighted_occupancy * plot_w;
    svg_line(&g, wx, top, wx, top + plot_h, "#d65f5f", 2, "5 4");
    snprintf(text, sizeof text, "weighted %.1f%%", s->weighted_occupancy * 100);
    svg_text(&g, wx + 4, top + 12, "start", 11, "#d65f5f", 0, text);
    svg_line(&g, left, top + plot_h, left + plot_w, top + plot_h, "#444", 1, NULL);
    svg_text(&g, left + plot_w / 2, height - 24, "middle", 13, "#222", 0,
             "theoretical occupancy of the launch (libocc, at its launch-time configuration)");
    svg_text(&g, 22, top + plot_h / 2, "middle", 13, "#222", -90, "share of GPU time");
    svg_end(&g);
    bool ok = !ferror(f);
    return fclose(f) == 0 && ok;
}
