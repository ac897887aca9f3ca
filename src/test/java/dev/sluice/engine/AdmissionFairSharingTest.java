package dev.sluice.engine;

import static dev.sluice.engine.Fixtures.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Admission fair sharing (Kueue v0.19, KEP-4136): in a ClusterQueue with admissionScope.admissionMode
 * UsageBasedAdmissionFairSharing the LocalQueue with the lower decayed usage (over its weight) goes first.
 */
class AdmissionFairSharingTest {
    private static final long MINUTE = 60_000L;
    private static final long HALF_LIFE = 10 * MINUTE;

    private static Engine engine(AdmissionFairSharing afs, AdmissionMode mode, int quota, double weightA,
                                 double weightB) {
        Engine e = new Engine(FairSharing.OFF, afs);
        e.upsertFlavor(flavor("default"));
        e.upsertClusterQueue(cq("cq", null, "cpu", "default", quota).withAdmissionMode(mode));
        e.upsertLocalQueue(lq("default", "a", "cq").withFairSharingWeight(weightA));
        e.upsertLocalQueue(lq("default", "b", "cq").withFairSharingWeight(weightB));
        return e;
    }

    private static Engine engine(AdmissionMode mode) {
        return engine(AdmissionFairSharing.on(HALF_LIFE, MINUTE), mode, 1, 1, 1);
    }

    /** a used the queue recently; then a2 (older) and b1 (newer) wait: returns who is admitted first. */
    private static WorkloadKey firstAfterRecentUsageOfA(Engine e) {
        e.schedule(0);
        e.submit(wl("a1", "a", 0, 0, "cpu", 1, 1));
        assertThat(admitted(settle(e, 0))).containsExactly(key("a1"));
        e.schedule(MINUTE); // a's usage is sampled while a1 runs
        e.finish(key("a1"));
        e.submit(wl("a2", "a", 0, 1000, "cpu", 1, 1));
        e.submit(wl("b1", "b", 0, 2000, "cpu", 1, 1));
        List<WorkloadKey> first = admitted(settle(e, MINUTE));
        assertThat(first).hasSize(1);
        return first.get(0);
    }

    @Test
    void theLocalQueueWithLessRecentUsageGoesFirst() {
        assertThat(firstAfterRecentUsageOfA(engine(AdmissionMode.UsageBasedAdmissionFairSharing)))
                .isEqualTo(key("b1"));
    }

    @Test
    void withoutTheAdmissionModeTheOlderWorkloadGoesFirst() {
        assertThat(firstAfterRecentUsageOfA(engine(AdmissionMode.NoAdmissionFairSharing))).isEqualTo(key("a2"));
    }

    @Test
    void withAdmissionFairSharingOffTheModeChangesNothing() {
        Engine e = engine(AdmissionFairSharing.OFF, AdmissionMode.UsageBasedAdmissionFairSharing, 1, 1, 1);
        assertThat(firstAfterRecentUsageOfA(e)).isEqualTo(key("a2"));
        assertThat(e.localQueueConsumedResources("default", "a")).isEmpty();
        assertThat(e.localQueueAdmissionFairSharingUsage("default", "a")).isEmpty();
    }

    /** The visibility API's order is the order heads are taken in: the LocalQueue of lower usage first. */
    @Test
    void thePendingOrderIsTheAdmissionOrder() {
        for (AdmissionMode mode : AdmissionMode.values()) {
            Engine e = engine(mode);
            e.schedule(0);
            e.submit(wl("a1", "a", 0, 0, "cpu", 1, 1));
            assertThat(admitted(settle(e, 0))).containsExactly(key("a1"));
            e.schedule(MINUTE); // a's usage is sampled while a1 runs
            e.submit(wl("a2", "a", 0, 1000, "cpu", 1, 1));
            e.submit(wl("b1", "b", 0, 2000, "cpu", 1, 1));
            e.submit(wl("a3", "a", 0, 3000, "cpu", 1, 1));
            assertThat(admitted(settle(e, MINUTE))).isEmpty(); // a1 holds the one core
            List<WorkloadKey> order = e.pendingOrder("cq");
            assertThat(order).as(mode.name()).containsExactly(mode == AdmissionMode.UsageBasedAdmissionFairSharing
                    ? new WorkloadKey[] {key("b1"), key("a2"), key("a3")}
                    : new WorkloadKey[] {key("a2"), key("b1"), key("a3")});
            e.finish(key("a1"));
            assertThat(admitted(settle(e, MINUTE))).as(mode.name()).containsExactly(order.get(0));
        }
    }

    @Test
    void priorityOrdersWithinALocalQueue() {
        Engine e = engine(AdmissionMode.UsageBasedAdmissionFairSharing);
        e.schedule(0);
        e.submit(wl("low", "a", 0, 0, "cpu", 1, 1));
        e.submit(wl("high", "a", 5, 10, "cpu", 1, 1));
        assertThat(admitted(settle(e, 0))).containsExactly(key("high"));
    }

    /** Under steady load (every workload runs one interval), weights 2:1 give about 2:1 admissions. */
    @Test
    void weightsTwoToOneGiveAboutTwiceTheAdmissions() {
        Engine e = engine(AdmissionFairSharing.on(HALF_LIFE, MINUTE), AdmissionMode.UsageBasedAdmissionFairSharing,
                3, 2, 1);
        for (int i = 0; i < 700; i++) {
            // b's workloads are older: without admission fair sharing b would go first every time.
            e.submit(wl("b" + i, "b", 0, 2L * i, "cpu", 1, 1));
            e.submit(wl("a" + i, "a", 0, 2L * i + 1, "cpu", 1, 1));
        }
        int a = 0;
        int b = 0;
        List<List<WorkloadKey>> steps = steadyLoad(e, 300, 3);
        for (List<WorkloadKey> step : steps.subList(100, 300)) { // after the warm-up of ten half-lives
            for (WorkloadKey k : step) {
                if (k.name().startsWith("a")) {
                    a++;
                } else {
                    b++;
                }
            }
        }
        assertThat(a + b).isEqualTo(600);
        assertThat((double) a / b).isCloseTo(2.0, within(0.15));
    }

    /**
     * Steady load: at each interval the sample sees what ran during it, then that finishes and the freed quota is
     * filled again. Returns the admissions of each interval (each must fill the quota of 'slots' one-core pods).
     */
    private static List<List<WorkloadKey>> steadyLoad(Engine e, int intervals, int slots) {
        List<List<WorkloadKey>> out = new ArrayList<>();
        List<WorkloadKey> running = List.of();
        for (int step = 0; step < intervals; step++) {
            long now = step * MINUTE;
            List<WorkloadKey> admitted = new ArrayList<>(admitted(e.schedule(now)));
            running.forEach(e::finish);
            admitted.addAll(admitted(settle(e, now)));
            assertThat(admitted).hasSize(slots);
            out.add(admitted);
            running = admitted;
        }
        return out;
    }

    @Test
    void equalWeightsShareEqually() {
        Engine e = engine(AdmissionFairSharing.on(HALF_LIFE, MINUTE), AdmissionMode.UsageBasedAdmissionFairSharing,
                2, 1, 1);
        for (int i = 0; i < 300; i++) {
            e.submit(wl("a" + i, "a", 0, i, "cpu", 1, 1));
            e.submit(wl("b" + i, "b", 0, 1000 + i, "cpu", 1, 1));
        }
        int a = 0;
        for (List<WorkloadKey> step : steadyLoad(e, 200, 2)) {
            for (WorkloadKey k : step) {
                a += k.name().startsWith("a") ? 1 : 0;
            }
        }
        assertThat(a).isBetween(198, 202);
    }

    /** The decay: what was consumed halves after one half-life, however many samples it takes. */
    @Test
    void usageHalvesAfterOneHalfLife() {
        Engine e = engine(AdmissionFairSharing.on(HALF_LIFE, MINUTE), AdmissionMode.UsageBasedAdmissionFairSharing,
                4, 1, 1);
        e.schedule(0);
        assertThat(e.localQueueConsumedResources("default", "a")).contains(Map.of());
        assertThat(e.localQueueUsageLastUpdate("default", "a")).hasValue(0);
        e.submit(wl("a1", "a", 0, 0, "cpu", 2, 1));
        settle(e, 0);
        // 2 cores for one half-life: half of the current usage comes in.
        e.schedule(HALF_LIFE);
        assertThat(e.localQueueConsumedResources("default", "a").orElseThrow().get("cpu"))
                .isCloseTo(1.0, within(1e-9));
        assertThat(e.localQueueUsageLastUpdate("default", "a")).hasValue(HALF_LIFE);
        e.finish(key("a1"));
        e.schedule(2 * HALF_LIFE);
        assertThat(e.localQueueConsumedResources("default", "a").orElseThrow().get("cpu"))
                .isCloseTo(0.5, within(1e-9));
        // in two samples of half a half-life each: the same
        e.schedule(2 * HALF_LIFE + HALF_LIFE / 2);
        e.schedule(3 * HALF_LIFE);
        assertThat(e.localQueueConsumedResources("default", "a").orElseThrow().get("cpu"))
                .isCloseTo(0.25, within(1e-9));
        assertThat(e.localQueueAdmissionFairSharingUsage("default", "a").orElseThrow()).isCloseTo(0.25,
                within(1e-9));
        assertThat(e.localQueueConsumedResources("default", "b")).contains(Map.of());
    }

    @Test
    void noSampleBeforeTheIntervalHasPassed() {
        Engine e = engine(AdmissionMode.UsageBasedAdmissionFairSharing);
        e.schedule(0);
        e.submit(wl("a1", "a", 0, 0, "cpu", 1, 1));
        settle(e, 0);
        e.schedule(MINUTE - 1);
        assertThat(e.localQueueConsumedResources("default", "a")).contains(Map.of());
        assertThat(e.localQueueUsageLastUpdate("default", "a")).hasValue(0);
        // the entry penalty counts at once: one core times the decay of one interval
        double alpha = 1 - Math.pow(0.5, 0.1);
        assertThat(e.localQueueAdmissionFairSharingUsage("default", "a").orElseThrow()).isCloseTo(alpha,
                within(1e-9));
        e.schedule(MINUTE);
        assertThat(e.localQueueConsumedResources("default", "a").orElseThrow().get("cpu"))
                .isCloseTo(alpha, within(1e-9));
    }

    @Test
    void weightsDivideAndResourceWeightsMultiply() {
        AdmissionFairSharing afs = new AdmissionFairSharing(true, HALF_LIFE, MINUTE, Map.of("cpu", 3.0));
        Engine e = engine(afs, AdmissionMode.UsageBasedAdmissionFairSharing, 4, 2, 0.5);
        e.schedule(0);
        e.submit(wl("a1", "a", 0, 0, "cpu", 2, 1));
        e.submit(wl("b1", "b", 0, 0, "cpu", 1, 1));
        settle(e, 0);
        e.schedule(MINUTE); // one sample: the current usage times the decay of one interval
        double alpha = 1 - Math.pow(0.5, 0.1);
        assertThat(e.localQueueAdmissionFairSharingUsage("default", "a").orElseThrow()).isCloseTo(3.0 * 2 * alpha / 2,
                within(1e-9));
        assertThat(e.localQueueAdmissionFairSharingUsage("default", "b").orElseThrow()).isCloseTo(3.0 * 1 * alpha / 0.5,
                within(1e-9));
    }

    /** Kueue v0.19's CalculateUsage: a LocalQueue of weight 0 counts as +Inf, used or not, so it goes last. */
    @Test
    void aZeroWeightGoesLastEvenWithoutUsage() {
        Engine e = engine(AdmissionFairSharing.on(HALF_LIFE, MINUTE), AdmissionMode.UsageBasedAdmissionFairSharing,
                1, 0, 1);
        e.schedule(0);
        assertThat(e.localQueueAdmissionFairSharingUsage("default", "a").orElseThrow()).isInfinite();
        e.submit(wl("a1", "a", 0, 0, "cpu", 1, 1));
        e.submit(wl("b1", "b", 0, 1000, "cpu", 1, 1));
        assertThat(admitted(settle(e, 0))).as("a1 is older, but a weighs 0").containsExactly(key("b1"));
    }

    /** Kueue v0.19: "If set to 0, usage will be reset to 0 immediately": no consumed resources, no penalty. */
    @Test
    void aZeroHalfLifeKeepsNoUsageSoTheUsualOrderDecides() {
        Engine e = engine(AdmissionFairSharing.on(0, MINUTE), AdmissionMode.UsageBasedAdmissionFairSharing, 1, 1, 1);
        assertThat(firstAfterRecentUsageOfA(e)).as("a2 is older; a's usage counts for nothing").isEqualTo(key("a2"));
        assertThat(e.localQueueConsumedResources("default", "a")).contains(Map.of());
        assertThat(e.localQueueAdmissionFairSharingUsage("default", "a").orElseThrow()).isZero();
    }

    /** The controller's timer: the next sample is due one interval after the earliest last sample. */
    @Test
    void theNextSampleIsDueOneIntervalAfterTheEarliestLastSample() {
        Engine off = engine(AdmissionFairSharing.OFF, AdmissionMode.UsageBasedAdmissionFairSharing, 1, 1, 1);
        off.schedule(0);
        assertThat(off.nextLocalQueueUsageSampleMillis()).isEmpty();
        Engine e = engine(AdmissionMode.UsageBasedAdmissionFairSharing);
        assertThat(e.nextLocalQueueUsageSampleMillis()).as("nothing sampled yet").isEmpty();
        e.schedule(1000);
        assertThat(e.nextLocalQueueUsageSampleMillis()).hasValue(1000 + MINUTE);
        e.schedule(1000 + MINUTE - 1); // not due: nothing moves
        assertThat(e.nextLocalQueueUsageSampleMillis()).hasValue(1000 + MINUTE);
        e.upsertLocalQueue(lq("default", "c", "cq"));
        e.schedule(1000 + MINUTE + 5); // a and b sampled now, c booked now
        assertThat(e.nextLocalQueueUsageSampleMillis()).hasValue(1000 + MINUTE + 5 + MINUTE);
        e.deleteLocalQueue("default", "c");
        e.deleteLocalQueue("default", "a");
        e.deleteLocalQueue("default", "b");
        e.schedule(1000 + 2 * MINUTE + 5);
        assertThat(e.nextLocalQueueUsageSampleMillis()).as("no LocalQueue left").isEmpty();
    }

    @Test
    void badSettingsAreRefusedWithTheField() {
        assertThatThrownBy(() -> AdmissionFairSharing.on(-1, MINUTE))
                .hasMessageContaining("usageHalfLifeTime");
        assertThatThrownBy(() -> AdmissionFairSharing.on(HALF_LIFE, 0))
                .hasMessageContaining("usageSamplingInterval");
        assertThatThrownBy(() -> new AdmissionFairSharing(true, 1, 1, Map.of("cpu", -1.0)))
                .hasMessageContaining("resourceWeights.cpu");
        assertThatThrownBy(() -> lq("ns", "q", "cq").withFairSharingWeight(-2.0))
                .hasMessageContaining("ns/q").hasMessageContaining("spec.fairSharing.weight");
    }
}
