package dev.sluice.forecast;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.engine.ClusterQueueSpec;
import dev.sluice.engine.Engine;
import dev.sluice.engine.FlavorFungibility;
import dev.sluice.engine.FlavorQuotas;
import dev.sluice.engine.FlavorSpec;
import dev.sluice.engine.LabelSelector;
import dev.sluice.engine.LocalQueueSpec;
import dev.sluice.engine.PodSetSpec;
import dev.sluice.engine.PreemptionSpec;
import dev.sluice.engine.QueueingStrategy;
import dev.sluice.engine.ResourceGroupSpec;
import dev.sluice.engine.ResourceQuota;
import dev.sluice.engine.StopPolicy;
import dev.sluice.engine.WorkloadKey;
import dev.sluice.engine.WorkloadSpec;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The engine copy run forward: start times follow the estimates, the least sure estimate is named, unknown stops. */
class ForwardRunTest {
    static final long MIN = 60_000;

    static WorkloadKey k(String name) {
        return new WorkloadKey("ns", name);
    }

    static WorkloadSpec wl(String name, int priority, long created) {
        return new WorkloadSpec(k(name), "uid-" + name, "lq", priority, created,
                List.of(PodSetSpec.of("main", 1, Map.of("cpu", 1000L))), true);
    }

    /** One ClusterQueue with room for one workload; "running" admitted at time 0. */
    static Engine oneSlot() {
        Engine e = new Engine();
        e.upsertFlavor(new FlavorSpec("f", Map.of(), List.of(), List.of()));
        e.upsertClusterQueue(new ClusterQueueSpec("cq", null, List.of(new ResourceGroupSpec(List.of("cpu"),
                List.of(new FlavorQuotas("f", List.of(new ResourceQuota("cpu", 1000L)))))),
                QueueingStrategy.BestEffortFIFO, LabelSelector.everything(), PreemptionSpec.defaults(),
                FlavorFungibility.defaults(), StopPolicy.None));
        e.upsertLocalQueue(new LocalQueueSpec("ns", "lq", "cq", StopPolicy.None));
        e.submit(wl("running", 0, 0));
        assertThat(e.schedule(0).admissions()).hasSize(1);
        return e;
    }

    static Map<WorkloadKey, Forecast> waiting(String... names) {
        Map<WorkloadKey, Forecast> m = new HashMap<>();
        for (int i = 0; i < names.length; i++) {
            m.put(k(names[i]), new Forecast(null, Basis.unknown, "cq", i));
        }
        return m;
    }

    @Test
    void eachStartsWhenTheOneBeforeIsExpectedToEnd() {
        Engine e = oneSlot();
        e.submit(wl("b", 100, 10));
        e.submit(wl("c", 0, 20));
        e.submit(wl("d", 0, 30));
        Map<WorkloadKey, Estimate> est = Map.of(k("b"), new Estimate(5 * MIN, Basis.history),
                k("c"), Estimate.UNKNOWN, k("d"), new Estimate(MIN, Basis.annotation));
        long now = 2 * MIN;
        Map<WorkloadKey, Forecast> f = ForwardRun.run(e, Map.of(k("running"),
                new ForwardRun.Running(0, new Estimate(10 * MIN, Basis.annotation))), waiting("b", "c", "d"),
                key -> est.getOrDefault(key, Estimate.UNKNOWN), now, ForwardRun.Budget.DEFAULT);
        assertThat(f.get(k("b"))).isEqualTo(new Forecast(10 * MIN, Basis.annotation, "cq", 0));
        // c waits for b, whose run time is only observed: the forecast is as sure as that
        assertThat(f.get(k("c"))).isEqualTo(new Forecast(15 * MIN, Basis.history, "cq", 1));
        // nobody knows how long c runs, so d cannot be forecast
        assertThat(f.get(k("d"))).isEqualTo(new Forecast(null, Basis.unknown, "cq", 2));
        assertThat(f.get(k("b")).describe(now)).startsWith("expected to start in about 8 min (")
                .endsWith(", from the expected-duration annotations), 1st in ClusterQueue cq");
    }

    @Test
    void aRunningWorkloadPastItsEstimateEndsNowAndAnUnknownOneBlocksAll() {
        Engine e = oneSlot();
        e.submit(wl("b", 0, 10));
        Map<WorkloadKey, Forecast> f = ForwardRun.run(e, Map.of(k("running"),
                new ForwardRun.Running(0, new Estimate(MIN, Basis.activeDeadlineSeconds))), waiting("b"),
                key -> Estimate.UNKNOWN, 5 * MIN, ForwardRun.Budget.DEFAULT);
        assertThat(f.get(k("b"))).isEqualTo(new Forecast(5 * MIN, Basis.activeDeadlineSeconds, "cq", 0));

        Engine e2 = oneSlot();
        e2.submit(wl("b", 0, 10));
        Map<WorkloadKey, Forecast> unknown = ForwardRun.run(e2, Map.of(k("running"),
                new ForwardRun.Running(0, Estimate.UNKNOWN)), waiting("b"), key -> Estimate.UNKNOWN, MIN,
                ForwardRun.Budget.DEFAULT);
        assertThat(unknown.get(k("b")).startAtMillis()).isNull();
        assertThat(unknown.get(k("b")).describe(MIN)).isEqualTo(
                "start time unknown (no expected run time for the workloads ahead), 1st in ClusterQueue cq");
    }

    @Test
    void theHorizonBoundsTheRun() {
        Engine e = oneSlot();
        e.submit(wl("b", 0, 10));
        Map<WorkloadKey, Forecast> f = ForwardRun.run(e, Map.of(k("running"),
                new ForwardRun.Running(0, new Estimate(30L * 24 * 60 * MIN, Basis.annotation))), waiting("b"),
                key -> Estimate.UNKNOWN, 0, ForwardRun.Budget.DEFAULT);
        assertThat(f.get(k("b")).startAtMillis()).as("beyond a week: unknown").isNull();
    }

    @Test
    void ordinalsAndCoarseDurations() {
        assertThat(List.of(Forecast.ordinal(1), Forecast.ordinal(2), Forecast.ordinal(3), Forecast.ordinal(11),
                Forecast.ordinal(22), Forecast.ordinal(113))).containsExactly("1st", "2nd", "3rd", "11th", "22nd", "113th");
        assertThat(Forecast.human(12 * MIN + 10_000)).isEqualTo("12 min");
        assertThat(Forecast.human(95 * MIN)).isEqualTo("1 h 30 min");
        assertThat(Forecast.human(5 * 60 * MIN)).isEqualTo("5 h");
    }

    @Test
    void historyKeepsTheLastRunsPerQueueAndPriority() {
        RunTimeHistory h = new RunTimeHistory();
        for (int i = 1; i <= 30; i++) {
            h.record("ns", "lq", 5, i * 1000L);
        }
        assertThat(h.median("ns", "lq", 5)).isEqualTo(21_000L); // runs 11..30 kept
        assertThat(h.median("ns", "lq", 6)).isNull();
        assertThat(h.median("other", "lq", 5)).isNull();
    }

    /**
     * The CPU budget bounds settling one instant too, not only the steps between finishes: with no budget left after
     * the first cycle, what later cycles of the same instant would admit stays unknown.
     */
    @Test
    void theBudgetStopsTheCyclesOfOneInstant() {
        Engine e = new Engine();
        e.upsertFlavor(new FlavorSpec("f", Map.of(), List.of(), List.of()));
        for (String cq : List.of("cq")) {
            e.upsertClusterQueue(new ClusterQueueSpec(cq, null, List.of(new ResourceGroupSpec(List.of("cpu"),
                    List.of(new FlavorQuotas("f", List.of(new ResourceQuota("cpu", 5000L)))))),
                    QueueingStrategy.StrictFIFO, LabelSelector.everything(), PreemptionSpec.defaults(),
                    FlavorFungibility.defaults(), StopPolicy.None));
        }
        e.upsertLocalQueue(new LocalQueueSpec("ns", "lq", "cq", StopPolicy.None));
        for (int i = 0; i < 5; i++) {
            e.submit(wl("w" + i, 0, i));
        }
        Map<WorkloadKey, Forecast> f = ForwardRun.run(e, Map.of(), waiting("w0", "w1", "w2", "w3", "w4"),
                key -> new Estimate(MIN, Basis.annotation), 0, new ForwardRun.Budget(200_000, 7L * 24 * 3_600_000, 0));
        long known = f.values().stream().filter(x -> x.startAtMillis() != null).count();
        assertThat(known).as("admitted by the first cycle only: %s", f).isGreaterThan(0).isLessThan(5);
    }
}
