package dev.sluice.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.sluice.api.v1beta2.AdmissionCheck;
import dev.sluice.api.v1beta2.AdmissionCheckState;
import dev.sluice.api.v1beta2.CheckState;
import dev.sluice.api.v1beta2.ClusterQueue;
import dev.sluice.api.v1beta2.PodSetUpdate;
import dev.sluice.api.v1beta2.Workload;
import dev.sluice.apiserver.ApiServerRules;
import dev.sluice.controller.conditions.Conditions;
import dev.sluice.jobs.WellKnown;
import io.fabric8.kubernetes.api.model.TolerationBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The admission-check framework against the test API server, the test acting as the checks' controller (it sets each
 * AdmissionCheck's Active condition and writes the Workload's status.admissionChecks, as a check controller does).
 * Cases from Kueue v0.19.2's test/integration/singlecluster/controller/core (workload_controller_test.go "the queue has
 * admission checks", clusterqueue_controller_test.go) keep their names; each test has its own namespace and queue.
 */
@QuarkusTest
@WithKubernetesTestServer(setup = ApiServerRules.class)
class AdmissionChecksTest {

    @Inject
    KubernetesClient client;

    Cluster cluster;

    @BeforeEach
    void setUp() {
        cluster = new Cluster(client);
        if (client.resource(Queues.flavor("ac-flavor", "{}")).get() == null) {
            client.resource(Queues.flavor("ac-flavor", "{pool: ac}")).create();
        }
    }

    private void check(String name, boolean active) {
        AdmissionCheck ac = Queues.yaml(AdmissionCheck.class, """
                apiVersion: kueue.x-k8s.io/v1beta2
                kind: AdmissionCheck
                metadata: {name: %s}
                spec: {controllerName: example.com/test-check}
                """.formatted(name));
        if (client.resource(ac).get() == null) {
            client.resource(ac).create();
        }
        setActive(name, active);
    }

    private void setActive(String name, boolean active) {
        client.resources(AdmissionCheck.class).withName(name).editStatus(ac -> {
            if (ac.getStatus() == null) {
                ac.setStatus(new dev.sluice.api.v1beta2.AdmissionCheckStatus());
            }
            ac.getStatus().setConditions(Conditions.set(ac.getStatus().getConditions(), "Active", active,
                    active ? "Active" : "NotReady", active ? "The check is ready" : "The controller is starting", 1L,
                    Instant.now()));
            return ac;
        });
    }

    /** LocalQueue "jobs" in ClusterQueue {@code <namespace>-cq} (2 cpus) naming {@code checks}. */
    private String queues(String namespace, String... checks) {
        cluster.namespace(namespace);
        ClusterQueue cq = Queues.cpuQueue(namespace + "-cq", "ac-flavor", "2", "{}");
        cq.getSpec().setAdmissionChecksStrategy(strategy(checks));
        client.resource(cq).create();
        client.resource(Queues.localQueue(namespace, "jobs", namespace + "-cq")).create();
        return namespace + "-cq";
    }

    private static dev.sluice.api.v1beta2.AdmissionChecksStrategy strategy(String... checks) {
        var strategy = new dev.sluice.api.v1beta2.AdmissionChecksStrategy();
        strategy.setAdmissionChecks(java.util.Arrays.stream(checks).map(c -> {
            var rule = new dev.sluice.api.v1beta2.AdmissionCheckStrategyRule();
            rule.setName(c);
            return rule;
        }).toList());
        return strategy;
    }

    private Job job(String namespace, String name) {
        Job job = (Job) cluster.load("/seeds/ack-kube-queue/job-queued.yaml").get(0);
        job.getMetadata().setGenerateName(null);
        job.getMetadata().setName(name);
        job.getMetadata().setNamespace(namespace);
        job.getMetadata().setLabels(Map.of(WellKnown.QUEUE_NAME, "jobs"));
        return client.batch().v1().jobs().inNamespace(namespace).resource(job).create();
    }

    private Job get(Job job) {
        return client.batch().v1().jobs().inNamespace(job.getMetadata().getNamespace())
                .withName(job.getMetadata().getName()).get();
    }

    /** As a user: a spec change, made again over the newer object when Sluice's status write came first (409). */
    private void editClusterQueue(String name, Consumer<ClusterQueue> change) {
        await().atMost(Cluster.TIMEOUT).ignoreExceptions().until(() -> {
            client.resources(ClusterQueue.class).withName(name).edit(q -> {
                change.accept(q);
                return q;
            });
            return true;
        });
    }

    /** As a check controller: changes one check's state of the Workload (its lastTransitionTime with it). */
    private void setCheck(Workload wl, String check, CheckState state, String message,
            Consumer<AdmissionCheckState> more) {
        await().atMost(Cluster.TIMEOUT).ignoreExceptions().until(() -> {
            editCheck(wl, check, state, message, more);
            return true;
        });
    }

    private void editCheck(Workload wl, String check, CheckState state, String message,
            Consumer<AdmissionCheckState> more) {
        client.resources(Workload.class).inNamespace(wl.getMetadata().getNamespace())
                .withName(wl.getMetadata().getName()).editStatus(w -> {
                    AdmissionCheckState c = w.getStatus().getAdmissionChecks().stream()
                            .filter(x -> x.getName().equals(check)).findFirst().orElseThrow();
                    if (c.getState() != state) {
                        c.setLastTransitionTime(Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString());
                    }
                    c.setState(state);
                    c.setMessage(message);
                    more.accept(c);
                    return w;
                });
    }

    private static String activeReason(ClusterQueue q) {
        var c = q.getStatus() == null ? null : Conditions.find(q.getStatus().getConditions(), "Active");
        return c == null ? null : c.getReason();
    }

    private static List<String> checkNames(Workload wl) {
        return wl.getStatus() == null || wl.getStatus().getAdmissionChecks() == null ? List.of()
                : wl.getStatus().getAdmissionChecks().stream().map(AdmissionCheckState::getName).toList();
    }

    private static boolean reservedWaitingForChecks(Workload wl) {
        return Cluster.isTrue(wl, "QuotaReserved") && Cluster.isFalse(wl, "Admitted", "UnsatisfiedAdmissionChecks");
    }

    @Test
    void jobIsReservedButNotStartedUntilItsChecksAreReadyThenStartsWithTheirPodSetUpdates() {
        check("ac-ready-1", true);
        check("ac-ready-2", true);
        String cq = queues("ac-ready", "ac-ready-1", "ac-ready-2");
        Job job = job("ac-ready", "pi");
        Workload wl = cluster.awaitWorkload(job, AdmissionChecksTest::reservedWaitingForChecks);
        assertThat(Cluster.condition(wl, "Admitted").getMessage()).isEqualTo("The workload has not all checks ready");
        assertThat(wl.getStatus().getAdmissionChecks()).extracting(AdmissionCheckState::getName, AdmissionCheckState::getState)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("ac-ready-1", CheckState.Pending),
                        org.assertj.core.groups.Tuple.tuple("ac-ready-2", CheckState.Pending));
        assertThat(wl.getStatus().getAdmissionChecks()).allSatisfy(c -> assertThat(c.getLastTransitionTime()).isNotNull());
        cluster.awaitClusterQueue(cq, q -> q.getStatus() != null && Integer.valueOf(1).equals(q.getStatus().getReservingWorkloads())
                && Integer.valueOf(0).equals(q.getStatus().getAdmittedWorkloads()));
        assertThat(get(job).getSpec().getSuspend()).isTrue();

        PodSetUpdate update = new PodSetUpdate();
        update.setName("main");
        update.setLabels(Map.of("capacity", "booked"));
        update.setAnnotations(Map.of("example.com/booking", "b-1"));
        update.setNodeSelector(Map.of("zone", "z1"));
        update.setTolerations(List.of(new TolerationBuilder().withKey("booked").withOperator("Exists")
                .withEffect("NoSchedule").build()));
        setCheck(wl, "ac-ready-1", CheckState.Ready, "capacity is booked", c -> c.setPodSetUpdates(List.of(update)));
        // one check Ready is not enough
        await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(5))
                .until(() -> Boolean.TRUE.equals(get(job).getSpec().getSuspend()));
        assertThat(cluster.workloadOf(job)).matches(AdmissionChecksTest::reservedWaitingForChecks);

        setCheck(cluster.workloadOf(job), "ac-ready-2", CheckState.Ready, "", c -> { });
        Workload admitted = cluster.awaitWorkload(job, Cluster::admitted);
        assertThat(Cluster.condition(admitted, "Admitted").getReason()).isEqualTo("Admitted");
        Job running = await().atMost(Cluster.TIMEOUT).until(() -> get(job),
                j -> Boolean.FALSE.equals(j.getSpec().getSuspend()));
        var template = running.getSpec().getTemplate();
        assertThat(template.getMetadata().getLabels()).containsEntry("capacity", "booked")
                .containsEntry(WellKnown.POD_SET, "main");
        assertThat(template.getMetadata().getAnnotations()).containsEntry("example.com/booking", "b-1");
        assertThat(template.getSpec().getNodeSelector()).containsEntry("zone", "z1").containsEntry("pool", "ac");
        assertThat(template.getSpec().getTolerations()).anySatisfy(t -> assertThat(t.getKey()).isEqualTo("booked"));
        await().atMost(Cluster.TIMEOUT).until(() -> cluster.events(admitted).stream()
                .anyMatch(e -> "Admitted".equals(e.getReason())
                        && e.getMessage().startsWith("Admitted by ClusterQueue " + cq + ", wait time since reservation was")));
    }

    @Test
    void conflictingPodSetUpdatesFailTheStart() {
        check("ac-conflict", true);
        queues("ac-conflict", "ac-conflict");
        Job job = job("ac-conflict", "pi");
        Workload wl = cluster.awaitWorkload(job, AdmissionChecksTest::reservedWaitingForChecks);
        PodSetUpdate update = new PodSetUpdate();
        update.setName("main");
        update.setNodeSelector(Map.of("pool", "other")); // the flavor says pool=ac
        setCheck(wl, "ac-conflict", CheckState.Ready, "", c -> c.setPodSetUpdates(List.of(update)));
        Workload finished = cluster.awaitWorkload(job, w -> Cluster.isTrue(w, "Finished"));
        assertThat(Cluster.condition(finished, "Finished").getReason()).isEqualTo("FailedToStart");
        assertThat(Cluster.condition(finished, "Finished").getMessage()).isEqualTo("in admission check \"ac-conflict\": "
                + "invalid admission check PodSetUpdate: conflict for nodeSelector: conflict for key=pool, value1=ac, "
                + "value2=other");
        assertThat(get(job).getSpec().getSuspend()).isTrue();
    }

    @Test
    void retryReleasesTheQuotaAndRequeuesWithTheChecksReset() {
        check("ac-retry", true);
        String cq = queues("ac-retry", "ac-retry");
        Job job = job("ac-retry", "pi");
        Workload wl = cluster.awaitWorkload(job, AdmissionChecksTest::reservedWaitingForChecks);
        setCheck(wl, "ac-retry", CheckState.Retry, "no capacity yet", c -> c.setRequeueAfterSeconds(2));
        Workload evicted = cluster.awaitWorkload(job, w -> Cluster.isTrue(w, "Evicted")
                && w.getStatus().getAdmission() == null);
        assertThat(Cluster.condition(evicted, "Evicted").getReason()).isEqualTo("AdmissionCheck");
        assertThat(Cluster.condition(evicted, "Evicted").getMessage())
                .isEqualTo("Evicted due to AdmissionCheck in Retry state: \"ac-retry\" (no capacity yet)");
        assertThat(evicted.getStatus().getAdmissionChecks()).singleElement().satisfies(c -> {
            assertThat(c.getState()).isEqualTo(CheckState.Pending);
            assertThat(c.getRetryCount()).isEqualTo(1);
            assertThat(c.getMessage()).isEqualTo("Reset to Pending after eviction. Previously: Retry");
        });
        assertThat(evicted.getStatus().getRequeueState()).isNotNull();
        assertThat(evicted.getStatus().getRequeueState().getRequeueAt()).isNotNull();
        assertThat(get(job).getSpec().getSuspend()).isTrue();
        // after its backoff it reserves again, its check Pending once more
        Workload again = cluster.awaitWorkload(job, w -> reservedWaitingForChecks(w) && !Cluster.isTrue(w, "Evicted"));
        assertThat(Cluster.condition(again, "Requeued").getReason()).isEqualTo("BackoffFinished");
        assertThat(again.getStatus().getAdmissionChecks()).singleElement()
                .satisfies(c -> assertThat(c.getRetryCount()).isEqualTo(1));
        await().atMost(Cluster.TIMEOUT).until(() -> cluster.events(again).stream()
                .anyMatch(e -> "EvictedDueToAdmissionCheck".equals(e.getReason())));
        cluster.awaitClusterQueue(cq, q -> q.getStatus() != null
                && Integer.valueOf(1).equals(q.getStatus().getReservingWorkloads()));
    }

    @Test
    void shouldFinishAnUnadmittedWorkloadWithFailureWhenACheckIsRejected() {
        check("ac-reject", true);
        queues("ac-reject", "ac-reject");
        Job job = job("ac-reject", "pi");
        Workload wl = cluster.awaitWorkload(job, AdmissionChecksTest::reservedWaitingForChecks);
        setCheck(wl, "ac-reject", CheckState.Rejected, "check rejected", c -> { });
        Workload deactivated = cluster.awaitWorkload(job, w -> Boolean.FALSE.equals(w.getSpec().getActive())
                && Cluster.isTrue(w, "Evicted") && w.getStatus().getAdmission() == null);
        assertThat(Cluster.condition(deactivated, "Evicted").getReason()).isEqualTo("DeactivatedDueToAdmissionCheck");
        assertThat(Cluster.condition(deactivated, "Evicted").getMessage()).isEqualTo(
                "The workload is deactivated due to AdmissionCheck in Rejected state: \"ac-reject\" (check rejected)");
        await().atMost(Cluster.TIMEOUT).until(() -> cluster.events(deactivated).stream()
                .anyMatch(e -> "AdmissionCheckRejected".equals(e.getReason()) && "Warning".equals(e.getType())
                        && e.getMessage().equals("Deactivated due to AdmissionCheck in Rejected state: \"ac-reject\" "
                                + "(check rejected)")));
        assertThat(get(job).getSpec().getSuspend()).isTrue();
    }

    @Test
    void shouldEvictThenFinishWithFailureAnAdmittedWorkloadWhenACheckIsRejected() {
        check("ac-reject-run", true);
        String cq = queues("ac-reject-run", "ac-reject-run");
        Job job = job("ac-reject-run", "pi");
        Workload wl = cluster.awaitWorkload(job, AdmissionChecksTest::reservedWaitingForChecks);
        setCheck(wl, "ac-reject-run", CheckState.Ready, "check ready", c -> { });
        Workload admitted = cluster.awaitWorkload(job, Cluster::admitted);
        assertThat(Cluster.condition(admitted, "Admitted").getMessage()).isEqualTo("The workload is admitted");
        await().atMost(Cluster.TIMEOUT).until(() -> Boolean.FALSE.equals(get(job).getSpec().getSuspend()));
        cluster.awaitClusterQueue(cq, q -> q.getStatus() != null
                && Integer.valueOf(1).equals(q.getStatus().getAdmittedWorkloads()));

        setCheck(admitted, "ac-reject-run", CheckState.Rejected, "check rejected", c -> { });
        Workload deactivated = cluster.awaitWorkload(job, w -> Boolean.FALSE.equals(w.getSpec().getActive())
                && Cluster.isTrue(w, "Evicted") && w.getStatus().getAdmission() == null);
        assertThat(Cluster.condition(deactivated, "Evicted").getReason()).isEqualTo("DeactivatedDueToAdmissionCheck");
        assertThat(Cluster.condition(deactivated, "Admitted").getStatus()).isEqualTo("False");
        await().atMost(Cluster.TIMEOUT).until(() -> Boolean.TRUE.equals(get(job).getSpec().getSuspend()));
    }

    @Test
    void theWorkloadShouldHaveChecksUpdatedWhenChangedOnTheClusterQueue() {
        check("ac-update-1", true);
        check("ac-update-2", true);
        check("ac-update-3", true);
        String cq = queues("ac-update", "ac-update-1", "ac-update-2");
        // the queue is full: the Workload waits, listing the checks for every flavor
        editClusterQueue(cq, q -> q.getSpec().getResourceGroups().get(0).getFlavors().get(0).getResources().get(0)
                .setNominalQuota(new io.fabric8.kubernetes.api.model.Quantity("0")));
        Job job = job("ac-update", "pi");
        Workload wl = cluster.awaitWorkload(job, w -> checkNames(w).equals(List.of("ac-update-1", "ac-update-2")));
        assertThat(wl.getStatus().getAdmission()).isNull();
        setCheck(wl, "ac-update-2", CheckState.Retry, "check rejected", c -> { });
        AdmissionCheckState before = cluster.workloadOf(job).getStatus().getAdmissionChecks().get(1);

        editClusterQueue(cq, q -> q.getSpec().setAdmissionChecksStrategy(strategy("ac-update-2", "ac-update-3")));
        Workload updated = cluster.awaitWorkload(job, w -> checkNames(w).equals(List.of("ac-update-2", "ac-update-3")));
        AdmissionCheckState after = updated.getStatus().getAdmissionChecks().get(0);
        assertThat(after.getState()).isEqualTo(before.getState());
        assertThat(after.getMessage()).isEqualTo(before.getMessage());
        assertThat(after.getLastTransitionTime()).isEqualTo(before.getLastTransitionTime());
    }

    @Test
    void shouldUpdateStatusConditionsWhenAdmissionChecksAreCreated() {
        String cq = queues("ac-missing", "ac-missing-check");
        ClusterQueue missing = cluster.awaitClusterQueue(cq, q -> "AdmissionCheckNotFound".equals(activeReason(q)));
        assertThat(Conditions.find(missing.getStatus().getConditions(), "Active").getMessage())
                .isEqualTo("Can't admit new workloads: references missing AdmissionCheck(s): ac-missing-check.");
        Job job = job("ac-missing", "pi");
        await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(5))
                .until(() -> cluster.workloadOf(job) != null && cluster.workloadOf(job).getStatus() != null
                        && cluster.workloadOf(job).getStatus().getAdmission() == null);

        check("ac-missing-check", false);
        ClusterQueue inactive = cluster.awaitClusterQueue(cq, q -> "AdmissionCheckInactive"
                .equals(activeReason(q)));
        assertThat(Conditions.find(inactive.getStatus().getConditions(), "Active").getMessage())
                .isEqualTo("Can't admit new workloads: references inactive AdmissionCheck(s): ac-missing-check.");

        setActive("ac-missing-check", true);
        cluster.awaitClusterQueue(cq, q -> "Ready".equals(activeReason(q)));
        cluster.awaitWorkload(job, AdmissionChecksTest::reservedWaitingForChecks);
    }
}
