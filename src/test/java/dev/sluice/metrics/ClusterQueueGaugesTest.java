package dev.sluice.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.metrics.AdmissionEvents.ClusterQueueMetrics;
import dev.sluice.metrics.AdmissionEvents.ResourceMetrics;
import io.micrometer.prometheus.PrometheusConfig;
import io.micrometer.prometheus.PrometheusMeterRegistry;
import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Kueue's per-ClusterQueue gauges from snapshots: values, units, status, and removal of vanished series. */
class ClusterQueueGaugesTest {

    private PrometheusMeterRegistry registry;
    private KueueMetrics metrics;

    @BeforeEach
    void setUp() {
        registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        metrics = new KueueMetrics(registry, Clock.systemUTC(), 100);
    }

    private static ClusterQueueMetrics tutorialQueue(int pending, int admitted, long usedTpuMilli) {
        return new ClusterQueueMetrics("cluster-queue", null, true, pending, 0, admitted, admitted,
                List.of(new ResourceMetrics("vlp-24", "google.com/tpu", 24_000, null, null, usedTpuMilli,
                        usedTpuMilli)));
    }

    @Test
    void tutorialQueueWithTheThreeSliceJobSetAdmitted() {
        metrics.queuesChanged(List.of(tutorialQueue(2, 1, 24_000)));

        Scrape scrape = Scrape.of(registry);
        assertThat(scrape.types).containsEntry("kueue_pending_workloads", "gauge")
                .containsEntry("kueue_cluster_queue_nominal_quota", "gauge");
        assertThat(scrape.value("kueue_pending_workloads", "cluster_queue", "cluster-queue", "status", "active"))
                .isEqualTo(2.0);
        assertThat(scrape.value("kueue_pending_workloads", "cluster_queue", "cluster-queue", "status", "inadmissible"))
                .isZero();
        assertThat(scrape.value("kueue_reserving_active_workloads", "cluster_queue", "cluster-queue")).isEqualTo(1.0);
        assertThat(scrape.value("kueue_admitted_active_workloads", "cluster_queue", "cluster-queue")).isEqualTo(1.0);
        String[] tpu = {"cohort", "", "cluster_queue", "cluster-queue", "flavor", "vlp-24", "resource",
            "google.com/tpu"};
        assertThat(scrape.value("kueue_cluster_queue_nominal_quota", tpu)).isEqualTo(24.0);
        assertThat(scrape.value("kueue_cluster_queue_resource_reservation", tpu)).isEqualTo(24.0);
        assertThat(scrape.value("kueue_cluster_queue_resource_usage", tpu)).isEqualTo(24.0);
        assertThat(scrape.value("kueue_cluster_queue_borrowing_limit", tpu)).isEqualTo(Double.POSITIVE_INFINITY);
        assertThat(scrape.value("kueue_cluster_queue_lending_limit", tpu)).isEqualTo(Double.POSITIVE_INFINITY);
        assertThat(scrape.text).contains("kueue_cluster_queue_borrowing_limit{cluster_queue=\"cluster-queue\","
                + "cohort=\"\",flavor=\"vlp-24\",resource=\"google.com/tpu\",} +Inf\n");
        assertThat(scrape.value("kueue_cluster_queue_status", "cluster_queue", "cluster-queue", "status", "active"))
                .isEqualTo(1.0);
        assertThat(scrape.value("kueue_cluster_queue_status", "cluster_queue", "cluster-queue", "status", "pending"))
                .isZero();
        assertThat(scrape.value("kueue_cluster_queue_status", "cluster_queue", "cluster-queue", "status",
                "terminating")).isZero();
    }

    @Test
    void laterSnapshotReplacesValues() {
        metrics.queuesChanged(List.of(tutorialQueue(2, 1, 24_000)));
        metrics.queuesChanged(List.of(tutorialQueue(0, 2, 24_000)));
        metrics.queuesChanged(List.of(tutorialQueue(0, 0, 0)));

        Scrape scrape = Scrape.of(registry);
        assertThat(scrape.value("kueue_pending_workloads", "cluster_queue", "cluster-queue", "status", "active"))
                .isZero();
        assertThat(scrape.value("kueue_admitted_active_workloads", "cluster_queue", "cluster-queue")).isZero();
        assertThat(scrape.all("kueue_cluster_queue_resource_usage")).singleElement()
                .extracting(Scrape.Series::value).isEqualTo(0.0);
    }

    @Test
    void milliUnitsBecomeTheResourcesUnitsAndLimitsAreReported() {
        metrics.queuesChanged(List.of(new ClusterQueueMetrics("team-a", "research", true, 0, 0, 1, 1, List.of(
                new ResourceMetrics("default", "cpu", 9_000, 3_000L, 500L, 1_500, 500),
                new ResourceMetrics("default", "memory", 36L * 1024 * 1024 * 1024 * 1000, null, 0L, 0, 0)))));

        Scrape scrape = Scrape.of(registry);
        String[] cpu = {"cohort", "research", "cluster_queue", "team-a", "flavor", "default", "resource", "cpu"};
        assertThat(scrape.value("kueue_cluster_queue_nominal_quota", cpu)).isEqualTo(9.0);
        assertThat(scrape.value("kueue_cluster_queue_borrowing_limit", cpu)).isEqualTo(3.0);
        assertThat(scrape.value("kueue_cluster_queue_lending_limit", cpu)).isEqualTo(0.5);
        assertThat(scrape.value("kueue_cluster_queue_resource_reservation", cpu)).isEqualTo(1.5);
        assertThat(scrape.value("kueue_cluster_queue_resource_usage", cpu)).isEqualTo(0.5);
        String[] memory = {"cohort", "research", "cluster_queue", "team-a", "flavor", "default", "resource",
            "memory"};
        assertThat(scrape.value("kueue_cluster_queue_nominal_quota", memory)).isEqualTo(36.0 * 1024 * 1024 * 1024);
        assertThat(scrape.value("kueue_cluster_queue_lending_limit", memory)).isZero();
    }

    @Test
    void inactiveQueueIsPending() {
        metrics.queuesChanged(List.of(new ClusterQueueMetrics("stopped", null, false, 3, 1, 0, 0, List.of())));

        Scrape scrape = Scrape.of(registry);
        assertThat(scrape.value("kueue_cluster_queue_status", "cluster_queue", "stopped", "status", "pending"))
                .isEqualTo(1.0);
        assertThat(scrape.value("kueue_cluster_queue_status", "cluster_queue", "stopped", "status", "active"))
                .isZero();
        assertThat(scrape.value("kueue_pending_workloads", "cluster_queue", "stopped", "status", "inadmissible"))
                .isEqualTo(1.0);
    }

    @Test
    void deletedQueueLosesAllItsSeriesAndOthersKeepTheirs() {
        ClusterQueueMetrics other = new ClusterQueueMetrics("other", null, true, 1, 0, 0, 0,
                List.of(new ResourceMetrics("default", "cpu", 1_000, null, null, 0, 0)));
        metrics.queuesChanged(List.of(tutorialQueue(2, 1, 24_000), other));
        metrics.admitted("cluster-queue", 1);
        metrics.quotaReserved("cluster-queue", 1);
        metrics.evicted("cluster-queue", "Preempted");
        metrics.preempted("cluster-queue", "InClusterQueue");
        metrics.admitted("other", 1);
        metrics.admissionAttempt(true, 0.01);

        metrics.queuesChanged(List.of(other));

        Scrape scrape = Scrape.of(registry);
        assertThat(scrape.series).noneMatch(s -> "cluster-queue".equals(s.labels().get("cluster_queue"))
                || "cluster-queue".equals(s.labels().get("preempting_cluster_queue")));
        assertThat(scrape.value("kueue_pending_workloads", "cluster_queue", "other", "status", "active"))
                .isEqualTo(1.0);
        assertThat(scrape.value("kueue_admitted_workloads_total", "cluster_queue", "other")).isEqualTo(1.0);
        assertThat(scrape.value("kueue_cluster_queue_nominal_quota", "cohort", "", "cluster_queue", "other", "flavor",
                "default", "resource", "cpu")).isEqualTo(1.0);
        // not tied to a queue: kept
        assertThat(scrape.value("kueue_admission_attempts_total", "result", "success")).isEqualTo(1.0);

        metrics.queuesChanged(List.of());
        assertThat(Scrape.of(registry).series).noneMatch(s -> s.labels().containsKey("cluster_queue"));
    }

    @Test
    void recreatedQueueStartsCountingAgain() {
        metrics.queuesChanged(List.of(tutorialQueue(0, 1, 0)));
        metrics.admitted("cluster-queue", 1);
        metrics.queuesChanged(List.of());
        metrics.queuesChanged(List.of(tutorialQueue(0, 1, 0)));
        metrics.admitted("cluster-queue", 1);

        assertThat(Scrape.of(registry).value("kueue_admitted_workloads_total", "cluster_queue", "cluster-queue"))
                .isEqualTo(1.0);
    }

    @Test
    void droppedFlavorAndChangedCohortRemoveStaleResourceSeries() {
        metrics.queuesChanged(List.of(new ClusterQueueMetrics("team-a", "old", true, 0, 0, 0, 0, List.of(
                new ResourceMetrics("spot", "cpu", 1_000, null, null, 0, 0),
                new ResourceMetrics("on-demand", "cpu", 2_000, null, null, 0, 0)))));
        metrics.queuesChanged(List.of(new ClusterQueueMetrics("team-a", "new", true, 0, 0, 0, 0, List.of(
                new ResourceMetrics("on-demand", "cpu", 2_000, null, null, 0, 0)))));

        Scrape scrape = Scrape.of(registry);
        for (String gauge : List.of("kueue_cluster_queue_nominal_quota", "kueue_cluster_queue_borrowing_limit",
                "kueue_cluster_queue_lending_limit", "kueue_cluster_queue_resource_reservation",
                "kueue_cluster_queue_resource_usage")) {
            assertThat(scrape.all(gauge)).singleElement().satisfies(s -> assertThat(s.labels())
                    .containsEntry("cohort", "new").containsEntry("flavor", "on-demand"));
        }
        assertThat(scrape.all("kueue_cluster_queue_status")).hasSize(3);
    }
}
