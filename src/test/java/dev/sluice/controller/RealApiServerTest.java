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
 * lose the Lease to another replica and lead again with nothing lost. Skipped, saying so, without binaries.
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
        // what kube-controller-manager's Job controller (not running here) reports once a suspended Job's pods are gone
        admin.batch().v1().jobs().inNamespace(NS).withName("low").editStatus(j -> {
            if (j.getStatus() == null) {
                j.setStatus(new io.fabric8.kubernetes.api.model.batch.v1.JobStatus());
            }
            j.getStatus().setActive(0);
            j.getStatus().getConditions().add(new io.fabric8.kubernetes.api.model.batch.v1.JobConditionBuilder()
                    .withType("Suspended").withStatus("True").withReason("JobSuspended").withMessage("Job suspended")
                    .withLastTransitionTime(java.time.Instant.now().toString()).build());
            return j;
        });
        cluster.awaitWorkload(high, Cluster::admitted);
        await().atMost(RealApiServer.TIMEOUT).until(() -> Boolean.FALSE.equals(read("high").getSpec().getSuspend()));

        // another replica takes the Lease: this one stands by; when that term runs out it leads again, rebuilt
        admin.leases().inNamespace(RealApiServer.RELEASE_NAMESPACE).withName("sluice-controller").edit(l -> {
            l.getSpec().setHolderIdentity("other-replica");
            l.getSpec().setRenewTime(ZonedDateTime.now(ZoneOffset.UTC));
            l.getSpec().setLeaseDurationSeconds(3600);
            return l;
        });
        await().atMost(RealApiServer.TIMEOUT).until(() -> runtime.role() == ControllerRuntime.Role.standby);
        admin.leases().inNamespace(RealApiServer.RELEASE_NAMESPACE).withName("sluice-controller").edit(l -> {
            l.getSpec().setRenewTime(ZonedDateTime.now(ZoneOffset.UTC).minusHours(1));
            l.getSpec().setLeaseDurationSeconds(1);
            return l;
        });
        await().atMost(RealApiServer.TIMEOUT).until(() -> runtime.role() == ControllerRuntime.Role.leading);
        await().atMost(RealApiServer.TIMEOUT).until(runtime::ready);
        assertThat(lease().getSpec().getHolderIdentity()).isNotEqualTo("other-replica");
        assertThat(cluster.workloadOf(high).getStatus().getAdmission()).isNotNull();
        assertThat(cluster.workloadOf(low).getStatus().getAdmission()).isNull();
        assertThat(read("high").getSpec().getSuspend()).isFalse();
        assertThat(read("low").getSpec().getSuspend()).isTrue();
    }
}
