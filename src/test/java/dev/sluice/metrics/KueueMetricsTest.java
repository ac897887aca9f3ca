package dev.sluice.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.prometheus.PrometheusConfig;
import io.micrometer.prometheus.PrometheusMeterRegistry;
import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Kueue's event metrics (counters and histograms), checked in the scraped text format. */
class KueueMetricsTest {

    private PrometheusMeterRegistry registry;
    private KueueMetrics metrics;

    @BeforeEach
    void setUp() {
        registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        metrics = new KueueMetrics(registry, Clock.systemUTC(), 100);
    }

    @Test
    void tutorialThreeAdmissionsIntoClusterQueue() {
        metrics.admitted("cluster-queue", 0);
        metrics.admitted("cluster-queue", 12);
        metrics.admitted("cluster-queue", 12);

        Scrape scrape = Scrape.of(registry);
        assertThat(scrape.text).contains("# TYPE kueue_admitted_workloads_total counter\n");
        assertThat(scrape.text).contains("kueue_admitted_workloads_total{cluster_queue=\"cluster-queue\",} 3.0\n");
        assertThat(scrape.value("kueue_admission_wait_time_seconds_count", "cluster_queue", "cluster-queue"))
                .isEqualTo(3.0);
        assertThat(scrape.value("kueue_admission_wait_time_seconds_sum", "cluster_queue", "cluster-queue"))
                .isEqualTo(24.0);
    }

    @Test
    void podsReadyWaitTimesAndReadyToEvictedWithKueuesNamesAndLabels() {
        metrics.podsReady("cluster-queue", 30, 90);
        metrics.evictedAfterReady("cluster-queue", "PodsReadyTimeout", "", 600);
        metrics.evictedAfterReady("cluster-queue", "Deactivated", "RequeuingLimitExceeded", 60);

        Scrape scrape = Scrape.of(registry);
        assertThat(scrape.types).containsEntry("kueue_admitted_until_ready_wait_time_seconds", "histogram")
                .containsEntry("kueue_ready_wait_time_seconds", "histogram")
                .containsEntry("kueue_pods_ready_to_evicted_time_seconds", "histogram");
        assertThat(scrape.value("kueue_admitted_until_ready_wait_time_seconds_sum", "cluster_queue", "cluster-queue"))
                .isEqualTo(30.0);
        assertThat(scrape.value("kueue_ready_wait_time_seconds_sum", "cluster_queue", "cluster-queue"))
                .isEqualTo(90.0);
        assertThat(scrape.value("kueue_pods_ready_to_evicted_time_seconds_sum", "cluster_queue", "cluster-queue",
                "reason", "PodsReadyTimeout", "underlying_cause", "")).isEqualTo(600.0);
        assertThat(scrape.value("kueue_pods_ready_to_evicted_time_seconds_count", "cluster_queue", "cluster-queue",
                "reason", "Deactivated", "underlying_cause", "RequeuingLimitExceeded")).isEqualTo(1.0);
    }

    @Test
    void quotaReservationCountsAndWaitTimeInKueuesBuckets() {
        metrics.quotaReserved("cq", 0.5);
        metrics.quotaReserved("cq", 2.5);
        metrics.quotaReserved("cq", 3);
        metrics.quotaReserved("cq", 20000);

        Scrape scrape = Scrape.of(registry);
        assertThat(scrape.types).containsEntry("kueue_quota_reserved_workloads_total", "counter")
                .containsEntry("kueue_quota_reserved_wait_time_seconds", "histogram");
        assertThat(scrape.value("kueue_quota_reserved_workloads_total", "cluster_queue", "cq")).isEqualTo(4.0);
        List<String> bounds = scrape.all("kueue_quota_reserved_wait_time_seconds_bucket", "cluster_queue", "cq")
                .stream().map(s -> s.labels().get("le")).toList();
        assertThat(bounds).containsExactly("1.0", "2.5", "5.0", "10.0", "20.0", "40.0", "80.0", "160.0", "320.0",
                "640.0", "1280.0", "2560.0", "5120.0", "10240.0", "+Inf");
        assertThat(bucket(scrape, "kueue_quota_reserved_wait_time_seconds", "cluster_queue", "cq", "1.0")).isEqualTo(1);
        assertThat(bucket(scrape, "kueue_quota_reserved_wait_time_seconds", "cluster_queue", "cq", "2.5")).isEqualTo(2);
        assertThat(bucket(scrape, "kueue_quota_reserved_wait_time_seconds", "cluster_queue", "cq", "5.0")).isEqualTo(3);
        assertThat(bucket(scrape, "kueue_quota_reserved_wait_time_seconds", "cluster_queue", "cq", "10240.0"))
                .isEqualTo(3);
        assertThat(bucket(scrape, "kueue_quota_reserved_wait_time_seconds", "cluster_queue", "cq", "+Inf")).isEqualTo(4);
        assertThat(scrape.value("kueue_quota_reserved_wait_time_seconds_sum", "cluster_queue", "cq"))
                .isEqualTo(20006.0);
    }

    @Test
    void evictionsAndPreemptionsByQueueAndReason() {
        metrics.evicted("team-a", "Preempted");
        metrics.evicted("team-a", "Preempted");
        metrics.evicted("team-a", "ClusterQueueStopped");
        metrics.evicted("team-a", "Deactivated", "RequeuingLimitExceeded");
        metrics.evicted("team-a", "PodsReadyTimeout", "WaitForRecovery");
        metrics.preempted("team-b", "InCohortReclamation");
        metrics.preempted("team-a", "InClusterQueue");

        Scrape scrape = Scrape.of(registry);
        assertThat(scrape.value("kueue_evicted_workloads_total", "cluster_queue", "team-a", "reason", "Preempted",
                "underlying_cause", "")).isEqualTo(2.0);
        assertThat(scrape.value("kueue_evicted_workloads_total", "cluster_queue", "team-a", "reason",
                "ClusterQueueStopped", "underlying_cause", "")).isEqualTo(1.0);
        // Kueue v0.19's labels for a requeuing-limit deactivation and a recovery timeout
        assertThat(scrape.value("kueue_evicted_workloads_total", "cluster_queue", "team-a", "reason", "Deactivated",
                "underlying_cause", "RequeuingLimitExceeded")).isEqualTo(1.0);
        assertThat(scrape.value("kueue_evicted_workloads_total", "cluster_queue", "team-a", "reason",
                "PodsReadyTimeout", "underlying_cause", "WaitForRecovery")).isEqualTo(1.0);
        assertThat(scrape.value("kueue_preempted_workloads_total", "preempting_cluster_queue", "team-b", "reason",
                "InCohortReclamation")).isEqualTo(1.0);
        assertThat(scrape.value("kueue_preempted_workloads_total", "preempting_cluster_queue", "team-a", "reason",
                "InClusterQueue")).isEqualTo(1.0);
        assertThat(scrape.all("kueue_evicted_workloads_total")).hasSize(4);
    }

    @Test
    void admissionAttemptsByResultWithSubSecondLatencyBuckets() {
        metrics.admissionAttempt(true, 0.01);
        metrics.admissionAttempt(false, 0.003);
        metrics.admissionAttempt(false, 0.2);

        Scrape scrape = Scrape.of(registry);
        assertThat(scrape.value("kueue_admission_attempts_total", "result", "success")).isEqualTo(1.0);
        assertThat(scrape.value("kueue_admission_attempts_total", "result", "inadmissible")).isEqualTo(2.0);
        List<String> bounds = scrape.all("kueue_admission_attempt_duration_seconds_bucket", "result", "success")
                .stream().map(s -> s.labels().get("le")).toList();
        assertThat(bounds).containsExactly("0.005", "0.01", "0.025", "0.05", "0.1", "0.25", "0.5", "1.0", "2.5",
                "5.0", "10.0", "+Inf");
        // 0.01 s is counted in le=0.01: the histogram keeps sub-second precision
        assertThat(bucket(scrape, "kueue_admission_attempt_duration_seconds", "result", "success", "0.005")).isZero();
        assertThat(bucket(scrape, "kueue_admission_attempt_duration_seconds", "result", "success", "0.01")).isEqualTo(1);
        assertThat(bucket(scrape, "kueue_admission_attempt_duration_seconds", "result", "inadmissible", "0.005"))
                .isEqualTo(1);
        assertThat(bucket(scrape, "kueue_admission_attempt_duration_seconds", "result", "inadmissible", "0.1"))
                .isEqualTo(1);
        assertThat(bucket(scrape, "kueue_admission_attempt_duration_seconds", "result", "inadmissible", "0.25"))
                .isEqualTo(2);
        assertThat(scrape.value("kueue_admission_attempt_duration_seconds_sum", "result", "inadmissible"))
                .isCloseTo(0.203, org.assertj.core.data.Offset.offset(1e-9));
    }

    @Test
    void negativeWaitCountsAsZero() {
        metrics.admitted("cq", -3);
        Scrape scrape = Scrape.of(registry);
        assertThat(scrape.value("kueue_admission_wait_time_seconds_sum", "cluster_queue", "cq")).isZero();
        assertThat(bucket(scrape, "kueue_admission_wait_time_seconds", "cluster_queue", "cq", "1.0")).isEqualTo(1);
    }

    @Test
    void rejectsEventsWithoutQueueOrReason() {
        assertThatThrownBy(() -> metrics.admitted(null, 1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("ClusterQueue name");
        assertThatThrownBy(() -> metrics.evicted("cq", "")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("reason");
        assertThatThrownBy(() -> metrics.queuesChanged(null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("snapshot");
    }

    static double bucket(Scrape scrape, String histogram, String label, String value, String le) {
        return scrape.value(histogram + "_bucket", label, value, "le", le);
    }
}
