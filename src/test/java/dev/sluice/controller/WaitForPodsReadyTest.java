package dev.sluice.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.sluice.api.v1beta2.Workload;
import dev.sluice.jobs.WellKnown;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobStatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import dev.sluice.apiserver.ApiServerRules;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import org.junit.jupiter.api.Test;

/**
 * waitForPodsReady against the test API server on a fake clock (timeout 10m, recovery 5m, backoff 60 s doubling, limit
 * 2): a job whose pods never get ready is evicted with PodsReadyTimeout, its quota goes to the next job, it comes back
 * at its backoff time, is deactivated at the limit and can be activated again; a restart keeps all of it.
 */
@QuarkusTest
@WithKubernetesTestServer(setup = ApiServerRules.class)
@TestProfile(WaitForPodsReadyTest.Timeouts.class)
class WaitForPodsReadyTest {

    public static class Timeouts implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("sluice.wait-for-pods-ready.timeout", "10m",
                    "sluice.wait-for-pods-ready.recovery-timeout", "5m",
                    "sluice.wait-for-pods-ready.backoff-base-seconds", "60",
                    "sluice.wait-for-pods-ready.backoff-limit-count", "2",
                    "sluice.wait-for-pods-ready.check-period", "50ms");
        }

        @Override
        public Set<Class<?>> getEnabledAlternatives() {
            return Set.of(TestClock.class);
        }
    }

    @Inject
    KubernetesClient client;
    @Inject
    ControllerRuntime runtime;
    @Inject
    TestClock clock;

    @Test
    void neverReadyIsEvictedRequeuedAtItsBackoffThenDeactivatedAndCanBeActivatedAgain() throws Exception {
        String ns = "pods-ready-stuck";
        Cluster cluster = queue(ns, "1");
        Job stuck = job(ns, "stuck");
        Workload wl = cluster.awaitWorkload(stuck, w -> Cluster.admitted(w) && Cluster.isFalse(w, "PodsReady", "WaitForStart"));
        String name = wl.getMetadata().getName();
        Job next = job(ns, "next");
        cluster.awaitWorkload(next, w -> Cluster.isFalse(w, "QuotaReserved", "WaitingForQuota"));

        clock.advance(Duration.ofMinutes(9));
        assertStays(cluster, stuck, Cluster::admitted, "not evicted before its timeout");

        clock.advance(Duration.ofMinutes(1).plusSeconds(1));
        Instant evictedAt = clock.instant();
        Workload evicted = cluster.awaitWorkload(stuck, w -> Cluster.isFalse(w, "Requeued", "PodsReadyTimeout")
                && w.getStatus().getAdmission() == null);
        Condition ev = Cluster.condition(evicted, "Evicted");
        assertThat(ev.getReason()).isEqualTo("PodsReadyTimeout");
        assertThat(ev.getMessage()).isEqualTo("Exceeded the PodsReady timeout " + ns + "/" + name);
        assertThat(evicted.getStatus().getRequeueState().getCount()).isEqualTo(1);
        assertBackoff(evicted, evictedAt, 60);
        assertThat(cluster.events(evicted)).extracting(e -> e.getReason()).contains("EvictedDueToPodsReadyTimeout");
        await().atMost(Cluster.TIMEOUT).until(() -> Boolean.TRUE.equals(
                client.batch().v1().jobs().inNamespace(ns).withName("stuck").get().getSpec().getSuspend()));
        // its quota went to the next job, which gets ready and finishes
        cluster.awaitWorkload(next, Cluster::admitted);
        ready(ns, "next", 1);
        cluster.awaitWorkload(next, w -> Cluster.isTrue(w, "PodsReady"));
        assertThat(Cluster.condition(cluster.workloadOf(next), "PodsReady").getReason()).isEqualTo("Started");
        String scrape = Promtool.scrapeTextFormat();
        assertThat(scrape).containsPattern("kueue_evicted_workloads_total\\{cluster_queue=\"" + ns
                        + "-cq\",reason=\"PodsReadyTimeout\",underlying_cause=\"WaitForStart\",?} 1\\.0")
                .containsPattern("kueue_admitted_until_ready_wait_time_seconds_count\\{cluster_queue=\"" + ns
                        + "-cq\",?} 1\\.0");
        new FakeJobController(client).finishJob(ns, "next", true);
        cluster.awaitWorkload(next, w -> Cluster.isTrue(w, "Finished"));
        assertStays(cluster, stuck, w -> w.getStatus().getAdmission() == null, "quota free, but the backoff runs");

        clock.advance(Duration.ofSeconds(61));
        Workload back = cluster.awaitWorkload(stuck, Cluster::admitted);
        assertThat(Cluster.condition(back, "Requeued").getReason()).isEqualTo("BackoffFinished");
        assertThat(back.getStatus().getRequeueState().getCount()).isEqualTo(1);

        // second timeout: backoff doubles
        clock.advance(Duration.ofMinutes(10).plusSeconds(1));
        Instant second = clock.instant();
        Workload again = cluster.awaitWorkload(stuck, w -> Cluster.isFalse(w, "Requeued", "PodsReadyTimeout")
                && w.getStatus().getAdmission() == null && w.getStatus().getRequeueState().getCount() == 2);
        assertBackoff(again, second, 120);
        clock.advance(Duration.ofSeconds(121));
        cluster.awaitWorkload(stuck, Cluster::admitted);

        // third timeout passes backoffLimitCount 2: deactivated as Kueue v0.19 does it, three stored steps (the
        // DeactivationTarget condition, spec.active false, the eviction that drops the target), every one watched
        List<Workload> versions = new CopyOnWriteArrayList<>();
        try (var watch = client.resources(Workload.class).inNamespace(ns).withName(name).watch(new Watcher<>() {
            @Override
            public void eventReceived(Action action, Workload w) {
                versions.add(w);
            }

            @Override
            public void onClose(WatcherException cause) {
            }
        })) {
            clock.advance(Duration.ofMinutes(10).plusSeconds(1));
            Workload off = cluster.awaitWorkload(stuck, w -> Boolean.FALSE.equals(w.getSpec().getActive())
                    && w.getStatus().getAdmission() == null && Cluster.isFalse(w, "Requeued",
                    "DeactivatedDueToRequeuingLimitExceeded"));
            await().atMost(Cluster.TIMEOUT).until(() -> versions.stream().anyMatch(w -> w.getMetadata()
                    .getResourceVersion().equals(off.getMetadata().getResourceVersion())));
            assertDeactivationSteps(versions);
            // what Kueue's "should re-queue a workload evicted due to PodsReady timeout after the backoff elapses"
            // (test/integration/singlecluster/controller/jobs/job) finds at the end, QuotaReserved as Kueue's
            // workload reconciler then says it for a deactivated workload
            assertCondition(off, "Evicted", "True", "DeactivatedDueToRequeuingLimitExceeded", LIMIT_MESSAGE);
            assertCondition(off, "Requeued", "False", "DeactivatedDueToRequeuingLimitExceeded", LIMIT_MESSAGE);
            assertCondition(off, "QuotaReserved", "False", "Deactivated", "The workload is deactivated");
            assertCondition(off, "Admitted", "False", "NoReservation", "The workload has no reservation");
            assertCondition(off, "PodsReady", "False", "WaitForStart", "Not all pods are ready or succeeded");
            assertThat(Cluster.condition(off, "DeactivationTarget")).isNull();
            assertThat(off.getStatus().getRequeueState()).isNull();
            await().atMost(Cluster.TIMEOUT).until(() -> cluster.events(off).stream().anyMatch(e ->
                    "EvictedDueToDeactivatedDueToRequeuingLimitExceeded".equals(e.getReason())));
            assertThat(cluster.events(off)).filteredOn(e -> e.getReason().equals(
                    "EvictedDueToDeactivatedDueToRequeuingLimitExceeded")).singleElement().satisfies(e -> {
                        assertThat(e.getType()).isEqualTo("Normal");
                        assertThat(e.getMessage()).isEqualTo(LIMIT_MESSAGE);
                    });
            assertThat(cluster.events(off)).as("Kueue records no event for the target")
                    .noneMatch(e -> "RequeuingLimitExceeded".equals(e.getReason()));
        }
        // counted as Kueue v0.19 labels it: reason Deactivated, underlying cause RequeuingLimitExceeded
        assertThat(Promtool.scrapeTextFormat()).containsPattern("kueue_evicted_workloads_total\\{cluster_queue=\""
                + ns + "-cq\",reason=\"Deactivated\",underlying_cause=\"RequeuingLimitExceeded\",?} 1\\.0")
                .containsPattern("kueue_evicted_workloads_total\\{cluster_queue=\"" + ns
                        + "-cq\",reason=\"PodsReadyTimeout\",underlying_cause=\"WaitForStart\",?} 2\\.0");
        clock.advance(Duration.ofHours(2));
        assertStays(cluster, stuck, w -> w.getStatus().getAdmission() == null, "a deactivated workload stays out");

        // a user activates it again: queued and admitted afresh; Kueue's reconciler turns Requeued True (Reactivated)
        // only for reason Deactivated, so this one keeps its Requeued=False until the next eviction
        client.resources(Workload.class).inNamespace(ns).withName(name).edit(w -> {
            w.getSpec().setActive(true);
            return w;
        });
        Workload reactivated = cluster.awaitWorkload(stuck, Cluster::admitted);
        assertCondition(reactivated, "Requeued", "False", "DeactivatedDueToRequeuingLimitExceeded", LIMIT_MESSAGE);
        assertThat(reactivated.getStatus().getRequeueState()).isNull();
    }

    private static final String LIMIT_MESSAGE =
            "The workload is deactivated due to exceeding the maximum number of re-queuing retries";

    /**
     * Kueue's steps, each its own stored version: DeactivationTarget=True (RequeuingLimitExceeded) on the active,
     * admitted Workload; then spec.active false with the target still there; then the eviction without it.
     */
    private static void assertDeactivationSteps(List<Workload> versions) {
        int target = -1;
        int inactive = -1;
        int evicted = -1;
        for (int i = 0; i < versions.size(); i++) {
            Workload w = versions.get(i);
            Condition t = Cluster.condition(w, "DeactivationTarget");
            boolean active = !Boolean.FALSE.equals(w.getSpec().getActive());
            if (target < 0 && t != null && active) {
                assertThat(t.getStatus()).isEqualTo("True");
                assertThat(t.getReason()).isEqualTo("RequeuingLimitExceeded");
                assertThat(t.getMessage()).isEqualTo("exceeding the maximum number of re-queuing retries");
                assertThat(w.getStatus().getAdmission()).isNotNull();
                assertThat(Cluster.isTrue(w, "Evicted")).isFalse();
                target = i;
            } else if (target >= 0 && inactive < 0 && !active) {
                assertThat(t).as("the target stays until the eviction").isNotNull();
                assertThat(Cluster.isTrue(w, "Evicted")).isFalse();
                inactive = i;
            } else if (inactive >= 0 && evicted < 0 && Cluster.isTrue(w, "Evicted")) {
                assertThat(t).as("the eviction drops the target").isNull();
                evicted = i;
            }
        }
        assertThat(List.of(target, inactive, evicted)).as("versions %s", versions.stream()
                .map(w -> w.getMetadata().getResourceVersion()).toList()).doesNotContain(-1);
    }

    private static void assertCondition(Workload wl, String type, String status, String reason, String message) {
        Condition c = Cluster.condition(wl, type);
        assertThat(c).as(type).isNotNull();
        assertThat(List.of(c.getStatus(), c.getReason(), c.getMessage())).as(type)
                .containsExactly(status, reason, message);
    }

    @Test
    void aRestartKeepsTheBackoffAndNeitherEvictsEarlyNorTwice() throws Exception {
        String ns = "pods-ready-restart";
        Cluster cluster = queue(ns, "1");
        Job stuck = job(ns, "stuck");
        cluster.awaitWorkload(stuck, w -> Cluster.admitted(w) && Cluster.isFalse(w, "PodsReady", "WaitForStart"));
        clock.advance(Duration.ofMinutes(6));
        assertThat(runtime.restart(Duration.ofSeconds(30))).isTrue();
        clock.advance(Duration.ofMinutes(3));
        assertStays(cluster, stuck, Cluster::admitted, "9 minutes after admission, restart or not");
        clock.advance(Duration.ofMinutes(1).plusSeconds(1));
        Instant evictedAt = clock.instant();
        Workload evicted = cluster.awaitWorkload(stuck, w -> Cluster.isFalse(w, "Requeued", "PodsReadyTimeout")
                && w.getStatus().getAdmission() == null);
        assertBackoff(evicted, evictedAt, 60);

        // restart in the backoff: the new leader honours requeueAt from the status
        assertThat(runtime.restart(Duration.ofSeconds(30))).isTrue();
        clock.advance(Duration.ofSeconds(30));
        assertStays(cluster, stuck, w -> w.getStatus().getAdmission() == null, "requeueAt not reached");
        Workload still = cluster.workloadOf(stuck);
        assertThat(still.getStatus().getRequeueState().getCount()).as("not evicted twice").isEqualTo(1);
        assertThat(cluster.events(still)).filteredOn(e -> "EvictedDueToPodsReadyTimeout".equals(e.getReason()))
                .hasSize(1);
        clock.advance(Duration.ofSeconds(31));
        cluster.awaitWorkload(stuck, Cluster::admitted);
    }

    @Test
    void readinessLostForLongerThanTheRecoveryTimeoutEvicts() throws Exception {
        String ns = "pods-ready-recovery";
        Cluster cluster = queue(ns, "1");
        Job job = job(ns, "flaky");
        cluster.awaitWorkload(job, Cluster::admitted);
        ready(ns, "flaky", 1);
        cluster.awaitWorkload(job, w -> Cluster.isTrue(w, "PodsReady"));
        clock.advance(Duration.ofMinutes(20)); // ready: the timeout does not apply
        assertStays(cluster, job, Cluster::admitted, "a ready workload is never timed out");
        ready(ns, "flaky", 0);
        cluster.awaitWorkload(job, w -> Cluster.isFalse(w, "PodsReady", "WaitForRecovery"));
        clock.advance(Duration.ofMinutes(4));
        assertStays(cluster, job, Cluster::admitted, "within the recovery timeout");
        clock.advance(Duration.ofMinutes(1).plusSeconds(1));
        Workload evicting = cluster.awaitWorkload(job, w -> Cluster.isTrue(w, "Evicted"));
        assertThat(Cluster.condition(evicting, "Evicted").getReason()).isEqualTo("PodsReadyTimeout");
        java.util.regex.Pattern recovery = java.util.regex.Pattern.compile("kueue_evicted_workloads_total\\{cluster_queue=\""
                + ns + "-cq\",reason=\"PodsReadyTimeout\",underlying_cause=\"WaitForRecovery\",?} 1\\.0");
        await().atMost(Cluster.TIMEOUT).until(Promtool::scrapeTextFormat, scrape -> recovery.matcher(scrape).find());
        // the job is suspended; once its pod is gone (the Job controller's part) the quota is released
        await().atMost(Cluster.TIMEOUT).until(() -> Boolean.TRUE.equals(
                client.batch().v1().jobs().inNamespace(ns).withName("flaky").get().getSpec().getSuspend()));
        client.batch().v1().jobs().inNamespace(ns).withName("flaky").editStatus(j -> {
            j.setStatus(new JobStatusBuilder().withActive(0).withReady(0).build());
            return j;
        });
        Workload evicted = cluster.awaitWorkload(job, w -> Cluster.isFalse(w, "Requeued", "PodsReadyTimeout"));
        assertThat(Cluster.condition(evicted, "PodsReady").getReason()).as("reset on release").isEqualTo("WaitForStart");
    }

    @Test
    void aJobsAdmissionIsOneStatusWriteThatAlreadySaysWaitForStart() throws Exception {
        String ns = "pods-ready-one-write";
        Cluster cluster = queue(ns, "1");
        java.util.List<Workload> versions = new java.util.concurrent.CopyOnWriteArrayList<>();
        try (var watch = client.resources(Workload.class).inNamespace(ns).watch(new io.fabric8.kubernetes.client.Watcher<>() {
            @Override
            public void eventReceived(Action action, Workload w) {
                versions.add(w);
            }

            @Override
            public void onClose(io.fabric8.kubernetes.client.WatcherException e) {
            }
        })) {
            Job job = job(ns, "one-write");
            cluster.awaitWorkload(job, Cluster::admitted);
            ready(ns, "one-write", 0); // the Job runs, its pod not ready yet: PodsReady stays as the admission wrote it
            Thread.sleep(1000);
            Workload admittedVersion = versions.stream().filter(w -> w.getStatus() != null
                    && w.getStatus().getAdmission() != null).findFirst().orElseThrow();
            assertThat(Cluster.isFalse(admittedVersion, "PodsReady", "WaitForStart"))
                    .as("PodsReady False/WaitForStart is in the admission's own write").isTrue();
            assertThat(versions).as("no status write after the admission while nothing changed")
                    .last().extracting(w -> w.getMetadata().getResourceVersion())
                    .isEqualTo(admittedVersion.getMetadata().getResourceVersion());
            ready(ns, "one-write", 1);
            cluster.awaitWorkload(job, w -> Cluster.isTrue(w, "PodsReady"));
        }
    }

    // ---- helpers ----

    private Cluster queue(String ns, String cpu) {
        Cluster cluster = new Cluster(client);
        cluster.namespace(ns);
        if (client.resource(Queues.flavor("ready-flavor", "{}")).get() == null) {
            client.resource(Queues.flavor("ready-flavor", "{}")).create();
        }
        client.resource(Queues.cpuQueue(ns + "-cq", "ready-flavor", cpu, "{}")).create();
        client.resource(Queues.localQueue(ns, "jobs", ns + "-cq")).create();
        return cluster;
    }

    private Job job(String ns, String name) {
        Job job = (Job) new Cluster(client).load("/seeds/ack-kube-queue/job-queued.yaml").get(0);
        job.getMetadata().setGenerateName(null);
        job.getMetadata().setName(name);
        job.getMetadata().setLabels(Map.of(WellKnown.QUEUE_NAME, "jobs"));
        return client.batch().v1().jobs().inNamespace(ns).resource(job).create();
    }

    /** Plays the Job controller: {@code ready} of the Job's pods are ready. */
    private void ready(String ns, String name, int ready) {
        // the Job controller reports pods only for a running Job: wait for Sluice's start first (a status with active
        // pods before it would make the API server refuse the start's template change, as a real one does)
        await().atMost(Cluster.TIMEOUT).until(() -> Boolean.FALSE.equals(
                client.batch().v1().jobs().inNamespace(ns).withName(name).get().getSpec().getSuspend()));
        client.batch().v1().jobs().inNamespace(ns).withName(name).editStatus(j -> {
            j.setStatus(new JobStatusBuilder().withActive(1).withReady(ready).build());
            return j;
        });
    }

    private static void assertBackoff(Workload wl, Instant evictedAt, int seconds) {
        Instant requeueAt = Instant.parse(wl.getStatus().getRequeueState().getRequeueAt());
        evictedAt = evictedAt.truncatedTo(java.time.temporal.ChronoUnit.MILLIS); // requeueAt is written in ms
        // base × 2^(n-1), a jitter of at most 0.01 %, from the moment of the eviction (the tick may come a little later)
        assertThat(requeueAt).isBetween(evictedAt.plusSeconds(seconds), evictedAt.plusSeconds(seconds).plusSeconds(2));
    }

    /** The condition holds now and still holds a second later (the controller had time to act). */
    private static void assertStays(Cluster cluster, Job job, java.util.function.Predicate<Workload> condition,
                                    String why) throws InterruptedException {
        await().atMost(Cluster.TIMEOUT).until(() -> cluster.workloadOf(job), w -> w != null && condition.test(w));
        Thread.sleep(1000);
        assertThat(condition.test(cluster.workloadOf(job))).as(why).isTrue();
    }
}
