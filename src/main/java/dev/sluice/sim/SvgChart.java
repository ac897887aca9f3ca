package dev.sluice.sim;

import java.io.IOException;
import java.io.Writer;
import java.util.List;
import java.util.Locale;

/**
 * {@code --chart FILE.svg}: quota usage over time per ClusterQueue, flavor and resource (a step line against the
 * dashed nominal quota), then one bar per workload in creation order: grey while waiting, blue while running, red
 * for a run cut short by preemption. Each workload bar is a {@code <g class="workload">} with a tooltip. With
 * topology-aware scheduling, between the two: per Topology a {@code <g class="nodes">} of rows grouped by top-level
 * domain ({@code <g class="domain-group">}), one {@code <g class="domain">} per node, or per rack or block when there
 * are more than {@value NodeOccupancy#MAX_ROWS} ({@link NodeOccupancy}), shaded by how much of it is taken over time.
 */
public final class SvgChart {

    static final int WIDTH = 1200;
    static final int LEFT = 260;
    static final int RIGHT = 20;
    static final int PANEL_HEIGHT = 60;
    static final int MAX_PANELS = 60;
    static final String WAITING = "#c8c8c8";
    static final String RUNNING = "#3a7bd5";
    static final String PREEMPTED = "#e4572e";

    private SvgChart() {
    }

    public static void write(SimResult r, Writer out) throws IOException {
        long end = Math.max(1, r.endMillis());
        double plot = WIDTH - LEFT - RIGHT;
        List<UsageTracker.Series> series = r.usage().series();
        int panels = Math.min(series.size(), MAX_PANELS);
        List<WorkloadRun> runs = r.runs();
        double rowHeight = Math.max(2, Math.min(14, 2400.0 / Math.max(1, runs.size())));
        int y = 50;
        int usageTop = y;
        int usageHeight = panels * (PANEL_HEIGHT + 10) + (series.size() > panels ? 20 : 0);
        List<NodeOccupancy.Panel> nodePanels = NodeOccupancy.of(r);
        int nodesTop = usageTop + usageHeight + 40;
        int nodesHeight = nodePanels.stream().mapToInt(SvgChart::nodesHeight).sum();
        int barsTop = nodesTop + nodesHeight + 40;
        int height = (int) Math.ceil(barsTop + runs.size() * rowHeight + 50);

        StringBuilder sb = new StringBuilder();
        sb.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        sb.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                + "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"11\">\n", WIDTH, height, WIDTH, height));
        sb.append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
        sb.append(String.format(Locale.ROOT, "<text x=\"10\" y=\"20\" font-size=\"14\" font-weight=\"bold\">%s</text>\n",
                esc(r.runs().size() + " workloads, makespan " + Durations.seconds(r.endMillis()) + "s, "
                        + r.preemptions() + " preemptions, " + r.evictions() + " evictions")));
        legend(sb, LEFT, 36);

        for (int i = 0; i < panels; i++) {
            UsageTracker.Series s = series.get(i);
            int top = usageTop + i * (PANEL_HEIGHT + 10);
            double max = Math.max(1, Math.max(s.peak(), s.nominal()));
            sb.append(String.format(Locale.ROOT, "<g class=\"usage\"><text x=\"10\" y=\"%d\">%s</text>", top + 14,
                    esc(s.clusterQueue() + " " + s.flavorResource().flavor() + "/" + s.flavorResource().resource())));
            sb.append(String.format(Locale.ROOT, "<text x=\"10\" y=\"%d\" fill=\"#666\">peak %s, nominal %s</text>",
                    top + 28, Json.format(s.peak() / 1000.0), Json.format(s.nominal() / 1000.0)));
            sb.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"#f7f7f7\"/>",
                    LEFT, top, plot, PANEL_HEIGHT));
            double ny = top + PANEL_HEIGHT - PANEL_HEIGHT * (s.nominal() / max);
            sb.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#999\" "
                    + "stroke-dasharray=\"4 3\"/>", LEFT, ny, LEFT + plot, ny));
            StringBuilder path = new StringBuilder();
            double lastY = top + PANEL_HEIGHT;
            path.append(String.format(Locale.ROOT, "M%d %.1f", LEFT, lastY));
            for (long[] p : s.points()) {
                double x = LEFT + plot * p[0] / end;
                double py = top + PANEL_HEIGHT - PANEL_HEIGHT * (p[1] / max);
                path.append(String.format(Locale.ROOT, " H%.1f V%.1f", x, py));
            }
            path.append(String.format(Locale.ROOT, " H%.1f", LEFT + plot));
            sb.append("<path d=\"").append(path).append("\" fill=\"none\" stroke=\"").append(RUNNING)
                    .append("\" stroke-width=\"1.2\"/></g>\n");
        }
        if (series.size() > panels) {
            sb.append(String.format(Locale.ROOT, "<text x=\"10\" y=\"%d\" fill=\"#666\">(%d more usage series not drawn)</text>\n",
                    usageTop + panels * (PANEL_HEIGHT + 10) + 12, series.size() - panels));
        }

        int panelTop = nodesTop;
        for (NodeOccupancy.Panel p : nodePanels) {
            nodes(sb, p, r.scenario().topology(p.topology()).levels(), panelTop, end, plot);
            panelTop += nodesHeight(p);
        }

        axis(sb, end, plot, barsTop - 8);
        for (int i = 0; i < runs.size(); i++) {
            WorkloadRun run = runs.get(i);
            double top = barsTop + i * rowHeight;
            double h = Math.max(1, rowHeight - (rowHeight >= 4 ? 1 : 0));
            sb.append("<g class=\"workload\"><title>").append(esc(title(run))).append("</title>");
            if (rowHeight >= 8) {
                sb.append(String.format(Locale.ROOT, "<text x=\"10\" y=\"%.1f\" font-size=\"%.0f\">%s</text>",
                        top + h - 1, Math.min(11, h), esc(run.workload().job())));
            }
            for (WorkloadRun.Segment seg : run.segments()) {
                double x = LEFT + plot * seg.startMillis() / end;
                double w = Math.max(0.5, plot * (seg.endMillis() - seg.startMillis()) / end);
                String color = switch (seg.phase()) {
                    case WAITING -> WAITING;
                    case RUNNING -> RUNNING;
                    case PREEMPTED -> PREEMPTED;
                };
                sb.append(String.format(Locale.ROOT, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"%s\"/>",
                        x, top, w, h, color));
            }
            sb.append("</g>\n");
            if (sb.length() > 1 << 16) {
                out.write(sb.toString());
                sb.setLength(0);
            }
        }
        sb.append("</svg>\n");
        out.write(sb.toString());
        out.flush();
    }

    static final int NODE_ROW = 9;
    static final int GROUP_GAP = 14;

    private static int nodesHeight(NodeOccupancy.Panel p) {
        long groups = p.rows().stream().map(NodeOccupancy.Row::group).distinct().count();
        return 40 + p.rows().size() * NODE_ROW + (int) (p.levelIndex() > 0 ? groups * GROUP_GAP : 0);
    }

    /**
     * One Topology's rows: a header saying what a row stands for, then per top-level domain its rows, each a strip
     * shaded by the share of the row taken (opacity, in steps of 5%).
     */
    private static void nodes(StringBuilder sb, NodeOccupancy.Panel p, List<String> levels, int top, long end,
                              double plot) {
        String rowWord = Placements.shortName(p.level());
        String what = p.nodes() + " nodes of topology " + p.topology() + ", one row per " + rowWord
                + (p.aggregated(levels) ? " (more than " + NodeOccupancy.MAX_ROWS + " "
                + Placements.shortName(levels.get(levels.size() - 1)) + "s: their nodes added up)" : "")
                + "; darker: more of it taken by placed pods";
        sb.append(String.format(Locale.ROOT, "<g class=\"nodes\" data-topology=\"%s\" data-level=\"%s\" "
                + "data-rows=\"%d\" data-nodes=\"%d\">", esc(p.topology()), esc(p.level()), p.rows().size(), p.nodes()));
        sb.append(String.format(Locale.ROOT, "<text x=\"10\" y=\"%d\" font-weight=\"bold\">%s</text>\n", top + 14,
                esc(what)));
        int y = top + 30;
        String group = null;
        for (NodeOccupancy.Row row : p.rows()) {
            if (p.levelIndex() > 0 && !row.group().equals(group)) {
                if (group != null) {
                    sb.append("</g>\n");
                }
                group = row.group();
                y += GROUP_GAP;
                sb.append(String.format(Locale.ROOT, "<g class=\"domain-group\" data-domain=\"%s\"><text x=\"10\" "
                        + "y=\"%d\" fill=\"#333\">%s %s</text>", esc(group), y - 3,
                        esc(Placements.shortName(levels.get(0))), esc(group)));
            }
            sb.append(String.format(Locale.ROOT, "<g class=\"domain\" data-domain=\"%s\" data-nodes=\"%d\"><title>%s"
                    + "</title>", esc(row.domain()), row.nodes(), esc(rowWord + " " + row.domain() + " (" + row.nodes()
                    + " node" + (row.nodes() == 1 ? "" : "s") + "), at most " + percent(row) + "% taken")));
            String label = row.domain().substring(row.domain().lastIndexOf('/') + 1);
            sb.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" font-size=\"8\" text-anchor=\"end\">%s</text>",
                    LEFT - 6, y + NODE_ROW - 2, esc(label)));
            sb.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"#f2f2f2\"/>",
                    LEFT, y, plot, NODE_ROW - 1));
            List<NodeOccupancy.Step> steps = row.steps();
            for (int i = 0; i < steps.size(); i++) {
                NodeOccupancy.Step st = steps.get(i);
                double shade = Math.round(st.share() * 20) / 20.0;
                int j = i + 1;
                while (j < steps.size() && Math.round(steps.get(j).share() * 20) / 20.0 == shade) {
                    j++; // the same shade goes on: one rect
                }
                long until = j < steps.size() ? steps.get(j).timeMillis() : end;
                if (shade > 0 && until > st.timeMillis()) {
                    double x = LEFT + plot * st.timeMillis() / end;
                    double w = Math.max(0.3, plot * (until - st.timeMillis()) / end);
                    sb.append(String.format(Locale.ROOT, "<rect class=\"occupied\" x=\"%.2f\" y=\"%d\" width=\"%.2f\" "
                            + "height=\"%d\" fill=\"%s\" fill-opacity=\"%.2f\"/>", x, y, w, NODE_ROW - 1, RUNNING, shade));
                }
                i = j - 1;
            }
            sb.append("</g>\n");
            y += NODE_ROW;
        }
        if (group != null) {
            sb.append("</g>\n");
        }
        sb.append("</g>\n");
    }

    private static long percent(NodeOccupancy.Row row) {
        return Math.round(100 * row.steps().stream().mapToDouble(NodeOccupancy.Step::share).max().orElse(0));
    }

    private static void legend(StringBuilder sb, int x, int y) {
        String[][] items = {{WAITING, "waiting"}, {RUNNING, "running / usage"}, {PREEMPTED, "run cut by preemption or eviction"}};
        for (String[] it : items) {
            sb.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"10\" fill=\"%s\"/>"
                    + "<text x=\"%d\" y=\"%d\">%s</text>\n", x, y - 9, it[0], x + 14, y, it[1]));
            x += 170;
        }
    }

    private static void axis(StringBuilder sb, long end, double plot, int y) {
        double[] steps = {0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 14400, 43200, 86400};
        double seconds = end / 1000.0;
        double step = steps[steps.length - 1];
        for (double s : steps) {
            if (seconds / s <= 12) {
                step = s;
                break;
            }
        }
        sb.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#333\"/>\n",
                LEFT, y, LEFT + plot, y));
        for (int k = 0; k * step <= seconds + 1e-9; k++) {
            double x = LEFT + plot * (k * step * 1000) / end;
            sb.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#333\"/>"
                    + "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%ss</text>\n", x, y - 4, x, y, x, y - 8,
                    Json.format(k * step)));
        }
    }

    private static String title(WorkloadRun run) {
        StringBuilder t = new StringBuilder(run.workload().job()).append(": submitted ")
                .append(Durations.seconds(run.workload().submitAtMillis())).append("s");
        if (run.firstAdmittedMillis() != null) {
            t.append(", first admitted ").append(Durations.seconds(run.firstAdmittedMillis())).append("s");
        }
        if (run.finishedMillis() != null) {
            t.append(", finished ").append(Durations.seconds(run.finishedMillis())).append("s");
        } else if (!run.isRunning()) {
            t.append(", never finished");
        }
        if (run.preemptions() > 0) {
            t.append(", preempted ").append(run.preemptions()).append("x");
        }
        if (run.evictions() > run.preemptions()) {
            t.append(", evicted ").append(run.evictions() - run.preemptions()).append("x otherwise");
        }
        return t.toString();
    }

    static String esc(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
