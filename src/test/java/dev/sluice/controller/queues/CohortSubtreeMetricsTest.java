package dev.sluice.controller.queues;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.engine.ClusterQueueSpec;
import dev.sluice.engine.CohortSpec;
import dev.sluice.engine.CycleResult;
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
import dev.sluice.metrics.AdmissionEvents.ClusterQueueMetrics;
import dev.sluice.metrics.AdmissionEvents.CohortMetrics;
import dev.sluice.metrics.AdmissionEvents.CohortResourceMetrics;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code kueue_cohort_subtree_*} as Kueue v0.19 counts them (pkg/cache/scheduler/cohort_metrics.go and
 * resource_node.go): the quota is the cohort's own pool plus what each child may lend it (a child's lendingLimit
 * bounds it), reservations and admitted workloads are those of every ClusterQueue of the subtree, child cohorts'
 * included.
 */
class CohortSubtreeMetricsTest {

    /**
     * org (pool 10 cpu) has ClusterQueue b1 (5) and child cohort team-a (pool 4), which has ClusterQueue a1 (6, of
     * which it lends 2). team-a: 4 + 2 = 6; org: 10 + 5 + 6 = 21 (team-a lends all it has: no lendingLimit).
     */
    @Test
    void subtreeCountsTheCohortsOwnPoolChildCohortsAndLendingLimits() {
        Engine e = new Engine();
        e.upsertFlavor(new FlavorSpec("default", Map.of(), List.of(), List.of()));
        e.upsertCohort(new CohortSpec("org", null, cpu(10, null)));
        e.upsertCohort(new CohortSpec("team-a", "org", cpu(4, null)));
        queue(e, "a1", "team-a", cpu(6, 2L));
        queue(e, "b1", "org", cpu(5, null));
        e.submit(workload("a-job", "lq-a1", 3));
        e.submit(workload("b-job", "lq-b1", 2));
        e.submit(workload("b-job-2", "lq-b1", 1));
        settle(e);

        Map<String, ClusterQueueMetrics> queues = new HashMap<>();
        queues.put("a1", new ClusterQueueMetrics("a1", "team-a", true, 0, 0, 1, 1, List.of()));
        queues.put("b1", new ClusterQueueMetrics("b1", "org", true, 0, 0, 2, 2, List.of()));
        List<CohortMetrics> cohorts = QueueMetricsSnapshots.cohorts(e, queues);

        assertThat(cohorts).extracting(CohortMetrics::name).containsExactly("org", "team-a");
        CohortMetrics org = cohorts.get(0);
        CohortMetrics team = cohorts.get(1);
        assertThat(team.resources()).containsExactly(new CohortResourceMetrics("default", "cpu", 6_000, 3_000));
        assertThat(org.resources()).containsExactly(new CohortResourceMetrics("default", "cpu", 21_000, 6_000));
        assertThat(team.admittedActiveWorkloads()).isEqualTo(1);
        assertThat(org.admittedActiveWorkloads()).as("a1's through team-a, and b1's").isEqualTo(3);

        assertThat(e.cohortStatus("org").orElseThrow().clusterQueues()).containsExactly("a1", "b1");
        assertThat(e.cohortStatus("org").orElseThrow().memberQueues()).containsExactly("b1");
        assertThat(e.cohortStatus("org").orElseThrow().childCohorts()).containsExactly("team-a");
    }

    /** A cohort with a pool and no queue of its own still has its quota; nothing reserved gives no reservation. */
    @Test
    void aPoolWithoutQueuesHasQuotaAndNoReservations() {
        Engine e = new Engine();
        e.upsertFlavor(new FlavorSpec("default", Map.of(), List.of(), List.of()));
        e.upsertCohort(new CohortSpec("org", null, cpu(10, null)));
        e.upsertCohort(new CohortSpec("team-a", "org", List.of()));
        queue(e, "a1", "team-a", cpu(6, 0L));

        List<CohortMetrics> cohorts = QueueMetricsSnapshots.cohorts(e, Map.of());
        assertThat(cohorts.get(0).resources()).containsExactly(new CohortResourceMetrics("default", "cpu", 10_000, 0));
        assertThat(cohorts.get(1).name()).isEqualTo("team-a");
        assertThat(cohorts.get(1).resources()).as("a1 lends nothing: lendingLimit 0").isEmpty();
    }

    private static List<ResourceGroupSpec> cpu(long nominal, Long lendingLimit) {
        return List.of(new ResourceGroupSpec(List.of("cpu"), List.of(new FlavorQuotas("default", List.of(
                new ResourceQuota("cpu", nominal * 1000, null, lendingLimit == null ? null : lendingLimit * 1000))))));
    }

    private static void queue(Engine e, String name, String cohort, List<ResourceGroupSpec> groups) {
        e.upsertClusterQueue(new ClusterQueueSpec(name, cohort, groups, QueueingStrategy.BestEffortFIFO,
                LabelSelector.everything(), PreemptionSpec.defaults(), FlavorFungibility.defaults(), StopPolicy.None));
        e.upsertLocalQueue(new LocalQueueSpec("default", "lq-" + name, name, StopPolicy.None));
    }

    private static WorkloadSpec workload(String name, String queue, long cpu) {
        return new WorkloadSpec(new WorkloadKey("default", name), "uid-" + name, queue, 0, 0,
                List.of(PodSetSpec.of("main", 1, Map.of("cpu", cpu * 1000))), true);
    }

    private static void settle(Engine e) {
        for (int i = 0; i < 10; i++) {
            CycleResult r = e.schedule(0);
            if (r.admissions().isEmpty() && r.evictions().isEmpty()) {
                return;
            }
        }
    }
}
