package dev.sluice.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.sluice.metrics.AdmissionEvents.ClusterQueueMetrics;
import dev.sluice.metrics.AdmissionEvents.ResourceMetrics;
import io.micrometer.prometheus.PrometheusConfig;
import io.micrometer.prometheus.PrometheusMeterRegistry;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole scrape after a tutorial-like run: exactly the expected metric families, accepted by {@code promtool
 * check metrics}. Without promtool the check is skipped locally but fails on CI (CI=true), which installs it.
 */
class PromtoolCheckTest {

    private static final Instant T0 = Instant.parse("2024-05-01T10:00:00Z");

    @TempDir
    Path tmp;

    private static PrometheusMeterRegistry tutorialRun() {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        KueueMetrics metrics = new KueueMetrics(registry, Clock.systemUTC(), 100);
        metrics.admissionAttempt(true, 0.004);
        metrics.quotaReserved("cluster-queue", 2);
        metrics.admitted("cluster-queue", 2);
        metrics.workloadStarted("default", "jobset-multislice-3slice-8c695", T0);
        metrics.admissionAttempt(false, 0.002);
        metrics.evicted("cluster-queue", "Preempted");
        metrics.preempted("cluster-queue", "InClusterQueue");
        metrics.workloadInterrupted("default", "jobset-multislice-3slice-8c695", T0.plusSeconds(600));
        metrics.workloadStarted("default", "jobset-multislice-3slice-8c695", T0.plusSeconds(630));
        metrics.queuesChanged(List.of(new ClusterQueueMetrics("cluster-queue", null, true, 2, 0, 1, 1,
                List.of(new ResourceMetrics("vlp-24", "google.com/tpu", 24_000, null, null, 24_000, 24_000)))));
        metrics.localQueuesChanged(List.of(new AdmissionEvents.LocalQueueMetrics("default", "multislice-queue", "True",
                2, 0, 1, 1, List.of(new AdmissionEvents.LocalResourceMetrics("vlp-24", "google.com/tpu", 24_000,
                        24_000)))));
        metrics.localQueueAdmitted("default", "multislice-queue", 2);
        metrics.unadmittedChanged(List.of(new AdmissionEvents.UnadmittedMetrics("cluster-queue", "default",
                "multislice-queue", "NoReservation", "WaitingForQuota", 2)));
        metrics.cohortsChanged(List.of(new AdmissionEvents.CohortMetrics("tpu-pool", 1, List.of(
                new AdmissionEvents.CohortResourceMetrics("vlp-24", "google.com/tpu", 24_000, 24_000)))));
        metrics.clusterQueueSharesChanged(java.util.Map.of("cluster-queue", 500.0));
        metrics.cohortSharesChanged(java.util.Map.of("tpu-pool", 0.0));
        metrics.localQueueAdmissionFairSharingUsageChanged(List.of(new AdmissionEvents.LocalQueueFairSharingUsage(
                "default", "multislice-queue", "cluster-queue", 12.5)));
        return registry;
    }

    @Test
    void exposesExactlyKueuesFamiliesPlusSluicesAvailability() {
        Scrape scrape = Scrape.of(tutorialRun());
        Set<String> families = new TreeSet<>(scrape.types.keySet());
        // Micrometer adds a <histogram>_max gauge beside each histogram; the rest are Kueue's names exactly
        families.removeIf(name -> name.endsWith("_seconds_max"));
        assertThat(families).containsExactlyInAnyOrder(
                "kueue_admission_attempts_total", "kueue_admission_attempt_duration_seconds",
                "kueue_pending_workloads", "kueue_quota_reserved_workloads_total",
                "kueue_quota_reserved_wait_time_seconds", "kueue_admitted_workloads_total",
                "kueue_admission_wait_time_seconds", "kueue_evicted_workloads_total", "kueue_preempted_workloads_total",
                "kueue_reserving_active_workloads", "kueue_admitted_active_workloads", "kueue_cluster_queue_status",
                "kueue_cluster_queue_resource_reservation", "kueue_cluster_queue_resource_usage",
                "kueue_cluster_queue_nominal_quota", "kueue_cluster_queue_borrowing_limit",
                "kueue_cluster_queue_lending_limit",
                "kueue_local_queue_pending_workloads", "kueue_local_queue_reserving_active_workloads",
                "kueue_local_queue_admitted_active_workloads", "kueue_local_queue_status",
                "kueue_local_queue_resource_reservation", "kueue_local_queue_resource_usage",
                "kueue_local_queue_quota_reserved_workloads_total", "kueue_local_queue_admitted_workloads_total",
                "kueue_local_queue_quota_reserved_wait_time_seconds", "kueue_local_queue_admission_wait_time_seconds",
                "kueue_cohort_subtree_quota", "kueue_cohort_subtree_resource_reservations",
                "kueue_cohort_subtree_admitted_active_workloads",
                "kueue_unadmitted_workloads", "kueue_local_queue_unadmitted_workloads",
                "kueue_cluster_queue_weighted_share", "kueue_cohort_weighted_share",
                "kueue_local_queue_admission_fair_sharing_usage",
                "sluice_workload_uptime_seconds", "sluice_workload_interruptions_total",
                "sluice_workload_time_to_recover_seconds", "sluice_workload_time_between_interruptions_seconds",
                "sluice_workload_availability_untracked_total");
        assertThat(scrape.types).containsEntry("kueue_admission_wait_time_seconds", "histogram")
                .containsEntry("kueue_admitted_workloads_total", "counter")
                .containsEntry("sluice_workload_interruptions_total", "counter")
                .containsEntry("sluice_workload_uptime_seconds", "gauge")
                .containsEntry("sluice_workload_time_to_recover_seconds", "histogram")
                .containsEntry("kueue_local_queue_admission_fair_sharing_usage", "gauge");
    }

    @Test
    void admissionFairSharingUsageHasKueuesLabelsAndGoesWithItsLocalQueue() {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        KueueMetrics metrics = new KueueMetrics(registry, Clock.systemUTC(), 100);
        metrics.localQueueAdmissionFairSharingUsageChanged(List.of(
                new AdmissionEvents.LocalQueueFairSharingUsage("team-a", "heavy", "afs", 1.75),
                new AdmissionEvents.LocalQueueFairSharingUsage("team-a", "light", "afs", 0.0)));
        String text = registry.scrape();
        assertThat(text).contains("kueue_local_queue_admission_fair_sharing_usage{cluster_queue=\"afs\","
                + "name=\"heavy\",namespace=\"team-a\",} 1.75");
        assertThat(text).contains("kueue_local_queue_admission_fair_sharing_usage{cluster_queue=\"afs\","
                + "name=\"light\",namespace=\"team-a\",} 0.0");
        metrics.localQueueAdmissionFairSharingUsageChanged(List.of(
                new AdmissionEvents.LocalQueueFairSharingUsage("team-a", "heavy", "afs", 0.5)));
        text = registry.scrape();
        assertThat(text).contains("name=\"heavy\",namespace=\"team-a\",} 0.5").doesNotContain("name=\"light\"");
    }

    @Test
    void promtoolAcceptsTheScrape() throws Exception {
        String promtool = findPromtool();
        if (promtool == null) {
            if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                throw new AssertionError("promtool is not installed; CI must install it (package prometheus, see "
                        + ".ci/run) so that the metrics format is checked");
            }
            assumeTrue(false, "promtool not installed (apt-get install prometheus); skipped outside CI");
        }
        Path scrape = tmp.resolve("scrape.txt");
        Files.writeString(scrape, tutorialRun().scrape(), StandardCharsets.UTF_8);
        Process process = new ProcessBuilder(promtool, "check", "metrics").redirectInput(scrape.toFile())
                .redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("promtool finished").isTrue();
        assertThat(process.exitValue()).as("promtool check metrics said:\n%s", output).isZero();
    }

    private static String findPromtool() {
        String path = System.getenv().getOrDefault("PATH", "");
        for (String dir : path.split(File.pathSeparator)) {
            File candidate = new File(dir, "promtool");
            if (candidate.canExecute()) {
                return candidate.getPath();
            }
        }
        return null;
    }
}
