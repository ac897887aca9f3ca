package dev.sluice.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.metrics.AdmissionEvents.CohortMetrics;
import dev.sluice.metrics.AdmissionEvents.CohortResourceMetrics;
import dev.sluice.metrics.AdmissionEvents.LocalQueueMetrics;
import dev.sluice.metrics.AdmissionEvents.LocalResourceMetrics;
import io.micrometer.prometheus.PrometheusConfig;
import io.micrometer.prometheus.PrometheusMeterRegistry;
import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Kueue's LocalQueue and cohort subtree gauges from snapshots: names, labels, units, and removal of gone series. */
class LocalQueueAndCohortGaugesTest {

    private PrometheusMeterRegistry registry;
    private KueueMetrics metrics;

    @BeforeEach
    void setUp() {
        registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        metrics = new KueueMetrics(registry, Clock.systemUTC(), 100);
    }

    private static LocalQueueMetrics queue(String active, int pending, int parked, int admitted, long cpuMilli) {
        return new LocalQueueMetrics("team-a", "lq-a", active, pending, parked, admitted, admitted,
                List.of(new LocalResourceMetrics("default-flavor", "cpu", cpuMilli, cpuMilli)));
    }

    @Test
    void localQueueSeriesWithKueuesLabels() {
        metrics.localQueuesChanged(List.of(queue("True", 3, 2, 1, 1500)));

        Scrape scrape = Scrape.of(registry);
        String[] lq = {"name", "lq-a", "namespace", "team-a"};
        assertThat(scrape.value("kueue_local_queue_pending_workloads", "name", "lq-a", "namespace", "team-a",
                "status", "active")).isEqualTo(3.0);
        assertThat(scrape.value("kueue_local_queue_pending_workloads", "name", "lq-a", "namespace", "team-a",
                "status", "inadmissible")).isEqualTo(2.0);
        assertThat(scrape.value("kueue_local_queue_reserving_active_workloads", lq)).isEqualTo(1.0);
        assertThat(scrape.value("kueue_local_queue_admitted_active_workloads", lq)).isEqualTo(1.0);
        assertThat(scrape.value("kueue_local_queue_status", "name", "lq-a", "namespace", "team-a", "active", "True"))
                .isEqualTo(1.0);
        assertThat(scrape.value("kueue_local_queue_status", "name", "lq-a", "namespace", "team-a", "active", "False"))
                .isZero();
        assertThat(scrape.value("kueue_local_queue_status", "name", "lq-a", "namespace", "team-a", "active",
                "Unknown")).isZero();
        String[] cpu = {"name", "lq-a", "namespace", "team-a", "flavor", "default-flavor", "resource", "cpu"};
        assertThat(scrape.value("kueue_local_queue_resource_usage", cpu)).isEqualTo(1.5);
        assertThat(scrape.value("kueue_local_queue_resource_reservation", cpu)).isEqualTo(1.5);
        assertThat(scrape.types).containsEntry("kueue_local_queue_pending_workloads", "gauge");

        // the next snapshot replaces the values; an inactive queue flips its status series
        metrics.localQueuesChanged(List.of(queue("False", 0, 0, 0, 0)));
        scrape = Scrape.of(registry);
        assertThat(scrape.value("kueue_local_queue_status", "name", "lq-a", "namespace", "team-a", "active", "False"))
                .isEqualTo(1.0);
        assertThat(scrape.value("kueue_local_queue_resource_usage", cpu)).isZero();

        // a deleted LocalQueue's series go with it
        metrics.localQueuesChanged(List.of());
        assertThat(registry.scrape()).doesNotContain("kueue_local_queue_");
    }

    @Test
    void cohortSubtreeSeries() {
        metrics.cohortsChanged(List.of(new CohortMetrics("all-teams", 4, List.of(
                new CohortResourceMetrics("default-flavor", "cpu", 18_000, 12_500),
                new CohortResourceMetrics("default-flavor", "memory", 36L * 1024 * 1024 * 1024 * 1000, 0)))));

        Scrape scrape = Scrape.of(registry);
        String[] cpu = {"cohort", "all-teams", "flavor", "default-flavor", "resource", "cpu"};
        assertThat(scrape.value("kueue_cohort_subtree_quota", cpu)).isEqualTo(18.0);
        assertThat(scrape.value("kueue_cohort_subtree_resource_reservations", cpu)).isEqualTo(12.5);
        assertThat(scrape.value("kueue_cohort_subtree_quota", "cohort", "all-teams", "flavor", "default-flavor",
                "resource", "memory")).isEqualTo(36.0 * 1024 * 1024 * 1024);
        assertThat(scrape.value("kueue_cohort_subtree_admitted_active_workloads", "cohort", "all-teams"))
                .isEqualTo(4.0);
        // nothing reserved of memory: no series, as Kueue deletes a subtree series that is not above 0
        assertThat(scrape.find("kueue_cohort_subtree_resource_reservations", "cohort", "all-teams", "flavor",
                "default-flavor", "resource", "memory")).isEmpty();

        // cohort and LocalQueue snapshots are independent: replacing one keeps the other
        metrics.localQueuesChanged(List.of(queue("True", 1, 0, 0, 0)));
        assertThat(Scrape.of(registry).value("kueue_cohort_subtree_quota", cpu)).isEqualTo(18.0);
        metrics.cohortsChanged(List.of());
        assertThat(registry.scrape()).doesNotContain("kueue_cohort_subtree_").contains("kueue_local_queue_status");
    }

    @Test
    void localQueueCountersAndWaitTimesGoWithTheirQueue() {
        metrics.localQueuesChanged(List.of(queue("True", 0, 0, 1, 1000)));
        metrics.localQueueAdmitted("team-a", "lq-a", 3);
        metrics.localQueueAdmitted("team-a", "lq-a", 30);

        Scrape scrape = Scrape.of(registry);
        String[] lq = {"name", "lq-a", "namespace", "team-a"};
        assertThat(scrape.value("kueue_local_queue_quota_reserved_workloads_total", lq)).isEqualTo(2.0);
        assertThat(scrape.value("kueue_local_queue_admitted_workloads_total", lq)).isEqualTo(2.0);
        assertThat(scrape.value("kueue_local_queue_admission_wait_time_seconds_count", lq)).isEqualTo(2.0);
        assertThat(scrape.value("kueue_local_queue_admission_wait_time_seconds_sum", lq)).isEqualTo(33.0);
        assertThat(scrape.value("kueue_local_queue_quota_reserved_wait_time_seconds_count", lq)).isEqualTo(2.0);
        assertThat(scrape.types).containsEntry("kueue_local_queue_admitted_workloads_total", "counter")
                .containsEntry("kueue_local_queue_admission_wait_time_seconds", "histogram");

        // another LocalQueue's deletion leaves them; their own deletion removes them
        metrics.localQueuesChanged(List.of(queue("True", 0, 0, 1, 1000),
                new LocalQueueMetrics("team-b", "lq-b", "True", 0, 0, 0, 0, List.of())));
        metrics.localQueuesChanged(List.of(queue("True", 0, 0, 1, 1000)));
        assertThat(registry.scrape()).contains("kueue_local_queue_admitted_workloads_total");
        metrics.localQueuesChanged(List.of());
        assertThat(registry.scrape()).doesNotContain("kueue_local_queue_");
    }

    @Test
    void unadmittedWorkloadsByClusterQueueAndLocalQueueWithBothReasons() {
        metrics.unadmittedChanged(List.of(
                new AdmissionEvents.UnadmittedMetrics("cq", "team-a", "lq-a", "NoReservation", "WaitingForQuota", 2),
                new AdmissionEvents.UnadmittedMetrics("cq", "team-b", "lq-b", "NoReservation", "WaitingForQuota", 1),
                new AdmissionEvents.UnadmittedMetrics("cq", "team-b", "lq-b", "NoReservation", "ExceedsMaxQuota", 1)));
        Scrape scrape = Scrape.of(registry);
        // the ClusterQueue series sums its LocalQueues
        assertThat(scrape.value("kueue_unadmitted_workloads", "cluster_queue", "cq", "reason", "NoReservation",
                "underlying_cause", "WaitingForQuota")).isEqualTo(3.0);
        assertThat(scrape.value("kueue_unadmitted_workloads", "cluster_queue", "cq", "reason", "NoReservation",
                "underlying_cause", "ExceedsMaxQuota")).isEqualTo(1.0);
        assertThat(scrape.value("kueue_local_queue_unadmitted_workloads", "name", "lq-a", "namespace", "team-a",
                "cluster_queue", "cq", "reason", "NoReservation", "underlying_cause", "WaitingForQuota")).isEqualTo(2.0);
        assertThat(scrape.types).containsEntry("kueue_unadmitted_workloads", "gauge")
                .containsEntry("kueue_local_queue_unadmitted_workloads", "gauge");

        // a cause no workload has any more loses its series
        metrics.unadmittedChanged(List.of(
                new AdmissionEvents.UnadmittedMetrics("cq", "team-a", "lq-a", "NoReservation", "WaitingForQuota", 1)));
        assertThat(registry.scrape()).doesNotContain("ExceedsMaxQuota").doesNotContain("lq-b");
        assertThat(Scrape.of(registry).value("kueue_unadmitted_workloads", "cluster_queue", "cq", "reason",
                "NoReservation", "underlying_cause", "WaitingForQuota")).isEqualTo(1.0);
        metrics.unadmittedChanged(List.of());
        assertThat(registry.scrape()).doesNotContain("unadmitted_workloads");
    }
}
