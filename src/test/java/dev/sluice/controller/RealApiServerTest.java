package dev.sluice.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.sluice.api.v1beta2.Workload;
import dev.sluice.app.ManagementEndpoint;
import dev.sluice.jobs.WellKnown;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClassBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The controller's life cycle on a real kube-apiserver (RBAC and validation enforced; no kube-controller-manager, so
 * no Job controller: a started Job runs no pods): admit and start a Job, preempt it while it runs for a higher one,
 * lose the Lease to another replica and lead again with nothing lost; and start on objects a Kueue 0.15 cluster still
 * stores as v1beta1, converted by this application's own webhook. Skipped, saying so, without binaries.
 */
@ExtendWith(RealApiServer.WhenBinariesArePresent.class)
@QuarkusTest
@TestProfile(RealApiServer.Profile.class)
class RealApiServerTest {

    static final String NS = "real-api";
    static KubernetesClient admin;

    @Inject
    ControllerRuntime runtime;

    @BeforeAll
    static void connect() {
        admin = RealApiServer.Resource.admin();
    }

    @AfterAll
    static void disconnect() {
        if (admin != null) {
            admin.close();
        }
    }

    Job job(String name, String priorityClass, String cpu) {
        Job job = (Job) new Cluster(admin).load("/seeds/ack-kube-queue/job-queued.yaml").get(0);
        job.getMetadata().setGenerateName(null);
        job.getMetadata().setName(name);
        job.getMetadata().setLabels(Map.of(WellKnown.QUEUE_NAME, "jobs"));
        job.getSpec().getTemplate().getSpec().setPriorityClassName(priorityClass);
        job.getSpec().getTemplate().getSpec().getContainers().get(0).getResources().getRequests()
                .put("cpu", new io.fabric8.kubernetes.api.model.Quantity(cpu));
        return admin.batch().v1().jobs().inNamespace(NS).resource(job).create();
    }

    Job read(String name) {
        return admin.batch().v1().jobs().inNamespace(NS).withName(name).get();
    }

    Lease lease() {
        return admin.leases().inNamespace(RealApiServer.RELEASE_NAMESPACE).withName("sluice-controller").get();
    }

    /**
     * What another replica's takeover writes, as one JSON merge patch without resourceVersion: the controller renews
     * this Lease every retry period, so a read-then-write (fabric8's edit) raced its renewal and was answered 409. The
     * controller's own writes carry the resourceVersion it read, so this write is never lost to one of them: a renewal
     * based on an older read is answered 409 and the controller reads the other holder.
     */
    void takeLease(String holder, ZonedDateTime renewTime, int durationSeconds) {
        admin.leases().inNamespace(RealApiServer.RELEASE_NAMESPACE).withName("sluice-controller").patch(
                PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"holderIdentity\":\"" + holder + "\",\"renewTime\":\""
                        + MICRO_TIME.format(renewTime) + "\",\"leaseDurationSeconds\":" + durationSeconds + "}}");
    }

    static final java.time.format.DateTimeFormatter MICRO_TIME = java.time.format.DateTimeFormatter
            .ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSSX").withZone(ZoneOffset.UTC);

    /**
     * Issue 25: a cluster that ran Kueue 0.15 (its objects still stored as v1beta1, {@link KueueV015Objects}) and the
     * single-process install: the API server converts every such object through this application's own /convert, so
     * the controller starts only because its HTTPS port listened before its informers listed; the admission Kueue made
     * is kept and counted.
     */
    @Test
    void startsOnObjectsKueue015StoredAsV1beta1AndKeepsTheirAdmission() throws Exception {
        var crd = admin.apiextensions().v1().customResourceDefinitions().withName("workloads.kueue.x-k8s.io").get();
        assertThat(crd.getStatus().getStoredVersions()).as("the Workloads stored so far").contains("v1beta1", "v1beta2");
        await().atMost(RealApiServer.TIMEOUT).until(() -> ManagementEndpoint.get("/q/health/ready").statusCode() == 200);
        await().atMost(RealApiServer.TIMEOUT).until(() -> runtime.role() == ControllerRuntime.Role.leading && runtime.ready());

        Cluster cluster = new Cluster(admin);
        Job running = admin.batch().v1().jobs().inNamespace(KueueV015Objects.NS).withName(KueueV015Objects.RUNNING).get();
        Workload migrated = admin.resources(Workload.class).inNamespace(KueueV015Objects.NS)
                .withName(KueueV015Objects.workloadName(running)).get(); // read as v1beta2: converted by the application
        assertThat(migrated.getStatus().getAdmission().getClusterQueue()).isEqualTo(KueueV015Objects.CLUSTER_QUEUE);
        assertThat(Cluster.isTrue(migrated, "Admitted")).isTrue();
        assertThat(migrated.getSpec().getPriorityClassRef().getName()).isEqualTo(KueueV015Objects.PRIORITY_CLASS);

        // its 2 of the queue's 3 cpu are counted again: a 2-cpu job waits, a 1-cpu job is admitted and started
        Job two = admin.batch().v1().jobs().inNamespace(KueueV015Objects.NS)
                .resource(KueueV015Objects.job("two", "2", true)).create();
        cluster.awaitWorkload(two, w -> Cluster.isFalse(w, "QuotaReserved", "WaitingForQuota"));
        Job one = admin.batch().v1().jobs().inNamespace(KueueV015Objects.NS)
                .resource(KueueV015Objects.job("one", "1", true)).create();
        cluster.awaitWorkload(one, Cluster::admitted);
        await().atMost(RealApiServer.TIMEOUT).until(() -> Boolean.FALSE.equals(admin.batch().v1().jobs()
                .inNamespace(KueueV015Objects.NS).withName("one").get().getSpec().getSuspend()));
        assertThat(cluster.workloadOf(two).getStatus().getAdmission()).isNull();
        Workload still = admin.resources(Workload.class).inNamespace(KueueV015Objects.NS)
                .withName(KueueV015Objects.workloadName(running)).get();
        assertThat(still.getStatus().getAdmission().getClusterQueue()).isEqualTo(KueueV015Objects.CLUSTER_QUEUE);
        assertThat(Cluster.isTrue(still, "Evicted")).isFalse();
        assertThat(admin.batch().v1().jobs().inNamespace(KueueV015Objects.NS).withName(KueueV015Objects.RUNNING).get()
                .getSpec().getSuspend()).isFalse();
    }

    @Test
    void admitStartPreemptAndLeadAgainUnderTheChartsRbac() throws Exception {
        Cluster cluster = new Cluster(admin);
        admin.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(NS).endMetadata().build()).create();
        admin.resource(Queues.flavor("real-flavor", "{}")).create();
        var cq = Queues.cpuQueue("real-cq", "real-flavor", "2", "{}");
        cq.getSpec().setPreemption(Queues.yaml(dev.sluice.api.v1beta2.ClusterQueue.class, """
                apiVersion: kueue.x-k8s.io/v1beta1
                kind: ClusterQueue
                metadata: {name: x}
                spec: {preemption: {withinClusterQueue: LowerPriority}}
                """).getSpec().getPreemption());
        admin.resource(cq).create();
        admin.resource(Queues.localQueue(NS, "jobs", "real-cq")).create();
        admin.scheduling().v1().priorityClasses().resource(new PriorityClassBuilder().withNewMetadata()
                .withName("real-low").endMetadata().withValue(100).build()).create();
        admin.scheduling().v1().priorityClasses().resource(new PriorityClassBuilder().withNewMetadata()
                .withName("real-high").endMetadata().withValue(1000).build()).create();

        // leads under the ServiceAccount's Role: the Lease is held and renewed (its renewTime moves)
        await().atMost(RealApiServer.TIMEOUT).until(() -> runtime.role() == ControllerRuntime.Role.leading);
        ZonedDateTime renewed = lease().getSpec().getRenewTime();
        await().atMost(RealApiServer.TIMEOUT).until(() -> lease().getSpec().getRenewTime().isAfter(renewed));
        assertThat(ManagementEndpoint.get("/q/health/ready").statusCode()).isEqualTo(200);

        // admitted and started
        Job low = job("low", "real-low", "2");
        Workload lowWl = cluster.awaitWorkload(low, Cluster::admitted);
        assertThat(lowWl.getMetadata().getOwnerReferences()).singleElement()
                .satisfies(o -> assertThat(o.getBlockOwnerDeletion()).isTrue()); // finalizers permission granted
        await().atMost(RealApiServer.TIMEOUT).until(() -> Boolean.FALSE.equals(read("low").getSpec().getSuspend()));

        // a higher-priority Job preempts the running one: the API server accepts the stop, the quota moves
        Job high = job("high", "real-high", "2");
        cluster.awaitWorkload(low, w -> Cluster.isTrue(w, "Evicted") && w.getStatus().getAdmission() == null);
        await().atMost(RealApiServer.TIMEOUT).until(() -> Boolean.TRUE.equals(read("low").getSpec().getSuspend()));
        // what kube-controller-manager's Job controller (not running here) reports once a suspended Job's pods are gone;
        // a merge patch without resourceVersion: the controller writes this Job too, and a read-then-write would race it
        admin.batch().v1().jobs().inNamespace(NS).withName("low").subresource("status").patch(
                PatchContext.of(PatchType.JSON_MERGE), "{\"status\":{\"active\":0,\"conditions\":[{\"type\":\"Suspended\","
                        + "\"status\":\"True\",\"reason\":\"JobSuspended\",\"message\":\"Job suspended\","
                        + "\"lastTransitionTime\":\"" + java.time.Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS)
                        + "\"}]}}");
        cluster.awaitWorkload(high, Cluster::admitted);
        await().atMost(RealApiServer.TIMEOUT).until(() -> Boolean.FALSE.equals(read("high").getSpec().getSuspend()));

        // another replica takes the Lease: this one stands by; when that term runs out it leads again, rebuilt
        takeLease("other-replica", ZonedDateTime.now(ZoneOffset.UTC), 3600);
        await().atMost(RealApiServer.TIMEOUT).until(() -> runtime.role() == ControllerRuntime.Role.standby);
        takeLease("other-replica", ZonedDateTime.now(ZoneOffset.UTC).minusHours(1), 1);
        await().atMost(RealApiServer.TIMEOUT).until(() -> runtime.role() == ControllerRuntime.Role.leading);
        await().atMost(RealApiServer.TIMEOUT).until(runtime::ready);
        assertThat(lease().getSpec().getHolderIdentity()).isNotEqualTo("other-replica");
        assertThat(cluster.workloadOf(high).getStatus().getAdmission()).isNotNull();
        assertThat(cluster.workloadOf(low).getStatus().getAdmission()).isNull();
        assertThat(read("high").getSpec().getSuspend()).isFalse();
        assertThat(read("low").getSpec().getSuspend()).isTrue();
    }
}
