package dev.sluice.sim;

import dev.sluice.engine.ClusterQueueSpec;
import dev.sluice.engine.Engine;
import dev.sluice.engine.LocalQueueSpec;
import dev.sluice.engine.WorkloadKey;
import dev.sluice.forecast.Basis;
import dev.sluice.forecast.Estimate;
import dev.sluice.forecast.Forecast;
import dev.sluice.forecast.ForwardRun;
import dev.sluice.forecast.RunTimeHistory;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * How good the admission forecast is on a simulated run: once a virtual second, as the controller would, the live
 * simulation's state is copied and run forward; each workload's first forecast after its submission is kept and
 * compared with when it was actually admitted. Two estimate sources are measured side by side: the observed run
 * times of finished workloads (what the controller has without annotations) and the exact run times (what a perfect
 * {@code sluice.dev/expected-duration} would give: what remains is the error of not knowing later arrivals).
 * Reads the simulation only; the run's decisions are those of a run without it.
 */
final class ForecastAccuracy implements Simulation.Observer {
    static final long EVERY_MILLIS = 1_000;
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private final Scenario scenario;
    private final RunTimeHistory history = new RunTimeHistory();
    private final Set<WorkloadKey> counted = new HashSet<>();
    private final Map<WorkloadKey, Forecast> byHistory = new HashMap<>();
    private final Map<WorkloadKey, Forecast> byExact = new HashMap<>();
    private final Map<WorkloadKey, WorkloadRun> runs = new HashMap<>();
    private long nextAt = 0;
    private int forecasts;
    private long maxCpuNanos;
    private long totalCpuNanos;
    private int maxPending;

    ForecastAccuracy(Scenario scenario) {
        this.scenario = scenario;
    }

    @Override
    public void settled(long now, Engine engine, Collection<WorkloadRun> all) {
        for (WorkloadRun r : all) {
            runs.putIfAbsent(r.workload.key(), r);
            if (r.finishedMillis != null && counted.add(r.workload.key())) {
                var s = r.workload.spec();
                history.record(s.key().namespace(), s.queueName(), s.priority(), r.workload.durationMillis());
            }
        }
        if (now < nextAt) {
            return;
        }
        Map<WorkloadKey, Forecast> fresh = new HashMap<>();
        int pending = 0;
        for (String cq : engine.clusterQueueNames()) {
            List<WorkloadKey> order = engine.pendingOrder(cq);
            pending += order.size();
            for (int i = 0; i < order.size(); i++) {
                if (!byHistory.containsKey(order.get(i))) {
                    fresh.put(order.get(i), new Forecast(null, Basis.unknown, cq, i));
                }
            }
        }
        if (fresh.isEmpty()) {
            return;
        }
        nextAt = now + EVERY_MILLIS;
        maxPending = Math.max(maxPending, pending);
        long cpu0 = cpu();
        Function<WorkloadKey, Estimate> observed = k -> {
            var s = runs.get(k).workload.spec();
            Long m = history.median(s.key().namespace(), s.queueName(), s.priority());
            return m == null ? Estimate.UNKNOWN : new Estimate(m, Basis.history);
        };
        Function<WorkloadKey, Estimate> exact = k -> new Estimate(runs.get(k).workload.durationMillis(), Basis.annotation);
        byHistory.putAll(forward(now, all, fresh, observed));
        byExact.putAll(forward(now, all, fresh, exact));
        long spent = cpu() - cpu0;
        forecasts++;
        totalCpuNanos += spent;
        maxCpuNanos = Math.max(maxCpuNanos, spent);
    }

    /** A copy of the simulation's state (as the controller copies its engine's), run forward. */
    private Map<WorkloadKey, Forecast> forward(long now, Collection<WorkloadRun> all, Map<WorkloadKey, Forecast> fresh,
            Function<WorkloadKey, Estimate> estimateOf) {
        Engine copy = new Engine();
        scenario.topologies().forEach(copy::upsertTopology);
        scenario.flavors().forEach(copy::upsertFlavor);
        if (!scenario.nodes().isEmpty()) {
            copy.setNodes(scenario.nodes(), Map.of());
        }
        scenario.namespaces().forEach(copy::upsertNamespace);
        for (ClusterQueueSpec cq : scenario.clusterQueues()) {
            copy.upsertClusterQueue(cq);
        }
        for (LocalQueueSpec lq : scenario.localQueues()) {
            copy.upsertLocalQueue(lq);
        }
        Map<WorkloadKey, ForwardRun.Running> running = new HashMap<>();
        for (WorkloadRun r : all) {
            if (r.assignment != null) {
                copy.restoreAdmitted(r.workload.spec(), r.assignment, r.phaseStart);
                running.put(r.workload.key(), new ForwardRun.Running(r.phaseStart, estimateOf.apply(r.workload.key())));
            }
        }
        for (WorkloadRun r : all) {
            if (r.submitted && r.assignment == null && r.finishedMillis == null) {
                copy.submit(r.workload.spec());
            }
        }
        return ForwardRun.run(copy, running, fresh, estimateOf, now, ForwardRun.Budget.DEFAULT);
    }

    /** Median and 90th percentile of |forecast - actual| per estimate source, and what the forecasts cost. */
    void report(PrintStream out, boolean json) {
        Stats h = stats(byHistory);
        Stats x = stats(byExact);
        if (json) {
            out.printf(Locale.ROOT, "{\"event\":\"ForecastAccuracy\",\"forecastEverySeconds\":%.1f,\"forecasts\":%d,"
                    + "\"observedRunTimes\":%s,\"exactRunTimes\":%s,\"maxPending\":%d,\"maxCpuMillis\":%.1f,"
                    + "\"meanCpuMillis\":%.1f}%n", EVERY_MILLIS / 1000.0, forecasts, h.json(), x.json(), maxPending,
                    maxCpuNanos / 1e6, forecasts == 0 ? 0 : totalCpuNanos / 1e6 / forecasts);
            return;
        }
        out.println();
        out.printf(Locale.ROOT, "Forecast accuracy (forecast at submission vs actual admission; %d forecasts, one a "
                + "virtual second; up to %d pending; CPU per forecast max %.0f ms, mean %.0f ms)%n", forecasts,
                maxPending, maxCpuNanos / 1e6, forecasts == 0 ? 0 : totalCpuNanos / 1e6 / forecasts);
        out.println("  from observed run times: " + h.text());
        out.println("  from exact run times:    " + x.text());
    }

    private Stats stats(Map<WorkloadKey, Forecast> forecasts) {
        List<Long> errors = new ArrayList<>();
        long signed = 0;
        int unknown = 0;
        for (Map.Entry<WorkloadKey, Forecast> e : forecasts.entrySet()) {
            WorkloadRun r = runs.get(e.getKey());
            if (e.getValue().startAtMillis() == null || r == null || r.firstAdmittedMillis == null) {
                unknown++;
                continue;
            }
            long d = r.firstAdmittedMillis - e.getValue().startAtMillis();
            signed += d;
            errors.add(Math.abs(d));
        }
        Collections.sort(errors);
        return new Stats(errors.size(), unknown, pick(errors, 0.5), pick(errors, 0.9),
                errors.isEmpty() ? 0 : signed / errors.size());
    }

    private static long pick(List<Long> sorted, double q) {
        return sorted.isEmpty() ? 0 : sorted.get((int) Math.min(sorted.size() - 1, Math.floor(q * sorted.size())));
    }

    private record Stats(int forecast, int unknown, long medianMillis, long p90Millis, long biasMillis) {
        String text() {
            return String.format(Locale.ROOT, "median error %.1f s, p90 %.1f s, mean (actual - forecast) %+.1f s; "
                    + "%d forecast, %d unknown", medianMillis / 1000.0, p90Millis / 1000.0, biasMillis / 1000.0,
                    forecast, unknown);
        }

        String json() {
            return String.format(Locale.ROOT, "{\"medianErrorSeconds\":%.3f,\"p90ErrorSeconds\":%.3f,"
                    + "\"meanLateSeconds\":%.3f,\"forecast\":%d,\"unknown\":%d}", medianMillis / 1000.0,
                    p90Millis / 1000.0, biasMillis / 1000.0, forecast, unknown);
        }
    }

    private static long cpu() {
        return THREADS.isCurrentThreadCpuTimeSupported() ? THREADS.getCurrentThreadCpuTime() : System.nanoTime();
    }
}
