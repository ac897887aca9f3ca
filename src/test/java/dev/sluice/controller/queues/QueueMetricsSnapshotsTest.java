package dev.sluice.controller.queues;

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
import dev.sluice.engine.WorkloadPhase;
import dev.sluice.engine.WorkloadSpec;
import dev.sluice.metrics.AdmissionEvents.ClusterQueueMetrics;
import dev.sluice.metrics.AdmissionEvents.LocalQueueMetrics;
import dev.sluice.metrics.AdmissionEvents.UnadmittedMetrics;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The unadmitted-workload series and each LocalQueue's inadmissible count come from one walk of the queues: a
 * workload tried and set aside counts as WaitingForQuota and inadmissible, one not tried yet as PendingEvaluation and
 * active, a held queue's as Suspended and inadmissible.
 */
class QueueMetricsSnapshotsTest {

    @Test
    void oneWalkCountsReasonsAndInadmissibleWorkloadsPerLocalQueue() {
        Engine e = new Engine();
        e.upsertFlavor(new FlavorSpec("default", Map.of(), List.of(), List.of()));
        queue(e, "a1", StopPolicy.None);
        queue(e, "held", StopPolicy.Hold);
        e.submit(workload("fits", "lq-a1", 3));
        e.submit(workload("waits", "lq-a1", 3));
        e.submit(workload("stopped", "lq-held", 1));
        e.schedule(0);
        e.schedule(1); // "waits" no longer fit after "fits" in the first cycle; tried alone now, it is set aside
        e.submit(workload("new", "lq-a1", 1)); // queued after the cycle: not tried yet
        assertThat(e.workload(new WorkloadKey("default", "waits")).orElseThrow().phase())
                .isEqualTo(WorkloadPhase.INADMISSIBLE);

        Map<String, Integer> inadmissible = new HashMap<>();
        List<UnadmittedMetrics> unadmitted = QueueMetricsSnapshots.unadmitted(e, inadmissible);

        assertThat(unadmitted).containsExactly(
                new UnadmittedMetrics("a1", "default", "lq-a1", "NoReservation", "PendingEvaluation", 1),
                new UnadmittedMetrics("a1", "default", "lq-a1", "NoReservation", "WaitingForQuota", 1),
                new UnadmittedMetrics("held", "default", "lq-held", "NoReservation", "Suspended", 1));
        assertThat(inadmissible).containsExactlyInAnyOrderEntriesOf(Map.of("default/lq-a1", 1, "default/lq-held", 1));

        Map<String, ClusterQueueMetrics> byName = new HashMap<>();
        for (String cq : List.of("a1", "held")) {
            byName.put(cq, new ClusterQueueMetrics(cq, null, true, 0, 0, 0, 0, List.of()));
        }
        List<LocalQueueMetrics> local = QueueMetricsSnapshots.localQueues(e.localQueueStatuses(), byName, inadmissible);
        assertThat(local).extracting(LocalQueueMetrics::name, LocalQueueMetrics::pendingActive,
                LocalQueueMetrics::pendingInadmissible).containsExactly(
                        org.assertj.core.groups.Tuple.tuple("lq-a1", 1, 1),
                        org.assertj.core.groups.Tuple.tuple("lq-held", 0, 1));
    }

    private static void queue(Engine e, String name, StopPolicy stop) {
        e.upsertClusterQueue(new ClusterQueueSpec(name, null, List.of(new ResourceGroupSpec(List.of("cpu"),
                List.of(new FlavorQuotas("default", List.of(new ResourceQuota("cpu", 4_000, null, null)))))),
                QueueingStrategy.BestEffortFIFO, LabelSelector.everything(), PreemptionSpec.defaults(),
                FlavorFungibility.defaults(), stop));
        e.upsertLocalQueue(new LocalQueueSpec("default", "lq-" + name, name, StopPolicy.None));
    }

    private static WorkloadSpec workload(String name, String queue, long cpu) {
        return new WorkloadSpec(new WorkloadKey("default", name), "uid-" + name, queue, 0, 0,
                List.of(PodSetSpec.of("main", 1, Map.of("cpu", cpu * 1000))), true);
    }
}
