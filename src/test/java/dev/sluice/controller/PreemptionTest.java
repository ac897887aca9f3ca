package dev.sluice.controller;

import dev.sluice.apiserver.ApiServerRules;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.api.v1beta2.ClusterQueue;
import dev.sluice.api.v1beta2.LocalQueue;
import dev.sluice.api.v1beta2.Workload;
import dev.sluice.jobs.WellKnown;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClassBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The tutorial's preemption setup: a low-priority JobSet runs; a higher-priority one needing the whole quota
 * arrives; the low one is suspended with its templates restored and requeued; it runs again once the high one ends.
 */
@QuarkusTest
@WithKubernetesTestServer(setup = ApiServerRules.class)
class PreemptionTest {

    static final String NS = "preemption";
    static final String CQ = "preemption-queue";

    @Inject
    KubernetesClient client;

    @Test
    void higherPriorityJobSetPreemptsTheLowOne() {
        Cluster cluster = new Cluster(client);
        cluster.namespace(NS);
        // kueue-preemption.yaml, with its ClusterQueue renamed so it does not meet other tests' queues
        List<HasMetadata> queues = new ArrayList<>();
        for (HasMetadata o : cluster.load("/seeds/gke-multislice/kueue-preemption.yaml")) {
            // the seed is v1beta1 (the test API server converts it); its queues are matched by kind, whatever class
            // they were read into
            if ("ClusterQueue".equals(o.getKind())) {
                o.getMetadata().setName(CQ);
            } else if ("LocalQueue".equals(o.getKind())) {
                o.getMetadata().setNamespace(NS);
                if (o instanceof LocalQueue lq) {
                    lq.getSpec().setClusterQueue(CQ);
                } else if (o instanceof dev.sluice.api.v1beta1.LocalQueue lq) {
                    lq.getSpec().setClusterQueue(CQ);
                } else {
                    @SuppressWarnings("unchecked")
                    Map<String, Object> spec = (Map<String, Object>) ((GenericKubernetesResource) o)
                            .getAdditionalProperties().get("spec");
                    spec.put("clusterQueue", CQ);
                }
            } else if (client.resource(o).get() != null) {
                continue; // the flavor vlp-24 of an earlier test
            }
            queues.add(o);
        }
        cluster.create(NS, queues);
        if (client.scheduling().v1().priorityClasses().withName("low-priority").get() == null) {
            cluster.create(NS, cluster.load("/seeds/gke-multislice/priorityclass-low.yaml"));
        }
        client.scheduling().v1().priorityClasses().resource(new PriorityClassBuilder().withNewMetadata()
                .withName("high-priority").endMetadata().withValue(1000).build()).create();

        // the low-priority JobSet (8 chips) runs
        cluster.create(NS, cluster.load("/seeds/gke-multislice/jobset-low-priority-autopilot.yaml"));
        GenericKubernetesResource low = cluster.jobSet(NS, "low-priority");
        Workload lowWl = cluster.awaitWorkload(low, Cluster::admitted);
        assertThat(lowWl.getSpec().getPriority()).isEqualTo(100);
        String lowCq = lowWl.getStatus().getAdmission().getClusterQueue(); // no cohort: its path is "/" + name
        assertThat(lowCq).as("the renamed queue, not another test's").isEqualTo(CQ);
        assertThat(lowWl.getSpec().getPriorityClassRef().getName()).isEqualTo("low-priority");
        Map<String, Object> original = MultisliceTutorialTest.podTemplate(low);
        Map<String, Object> started = MultisliceTutorialTest.podTemplate(
                cluster.awaitJobSet(NS, "low-priority", j -> !Cluster.suspended(j)));
        assertThat(MultisliceTutorialTest.nested(started, "metadata", "labels")).isEqualTo(Map.of(WellKnown.POD_SET, "slice"));

        // a high-priority JobSet needing all 24 chips arrives
        GenericKubernetesResource high = (GenericKubernetesResource) cluster
                .load("/seeds/gke-multislice/jobsets-multislice-autopilot.yaml").get(2);
        high.getMetadata().setName("high-priority");
        Map<String, Object> highPod = MultisliceTutorialTest.podTemplate(high);
        @SuppressWarnings("unchecked")
        Map<String, Object> highPodSpec = (Map<String, Object>) highPod.get("spec");
        highPodSpec.put("priorityClassName", "high-priority");
        cluster.create(NS, List.of(high));
        GenericKubernetesResource highJob = cluster.jobSet(NS, "high-priority");

        // the low one is evicted (Preempted, InClusterQueue), stopped with its templates restored, and requeued
        Workload evicted = cluster.awaitWorkload(low, w -> Cluster.isTrue(w, "Requeued"));
        assertThat(Cluster.condition(evicted, "Evicted").getReason()).isEqualTo("Preempted");
        assertThat(Cluster.condition(evicted, "Preempted").getReason()).isEqualTo("InClusterQueue");
        assertThat(Cluster.condition(evicted, "Preempted").getMessage())
                .startsWith("Preempted to accommodate a workload (UID: ")
                .contains("JobUID: " + highJob.getMetadata().getUid())
                .endsWith("due to prioritization in the ClusterQueue; preemptor path: /" + lowCq
                        + "; preemptee path: /" + lowCq);
        GenericKubernetesResource stopped = cluster.awaitJobSet(NS, "low-priority", Cluster::suspended);
        // restored as submitted (quantities in the API server's canonical form: 4 is written "4")
        assertThat(asTemplate(MultisliceTutorialTest.podTemplate(stopped))).isEqualTo(asTemplate(original));
        Workload highWl = cluster.awaitWorkload(highJob, Cluster::admitted);
        assertThat(highWl.getSpec().getPriority()).isEqualTo(1000);
        cluster.awaitJobSet(NS, "high-priority", j -> !Cluster.suspended(j));
        Workload lowWaiting = cluster.workloadOf(low);
        assertThat(lowWaiting.getStatus().getAdmission()).isNull();
        assertThat(Cluster.condition(lowWaiting, "QuotaReserved").getStatus()).isEqualTo("False");
        assertThat(cluster.events(lowWaiting)).filteredOn(e -> "Preempted".equals(e.getReason())).singleElement()
                .satisfies(e -> assertThat(e.getMessage()).contains(highWl.getMetadata().getName()));
        assertThat(cluster.events(stopped)).extracting(e -> e.getReason()).contains("Stopped");

        // the high one finishes: the low one is admitted and started again
        new FakeJobController(client).finishJobSet(NS, "high-priority", true);
        Workload readmitted = cluster.awaitWorkload(low, Cluster::admitted);
        assertThat(Cluster.condition(readmitted, "Evicted").getStatus()).isEqualTo("False");
        cluster.awaitJobSet(NS, "low-priority", j -> !Cluster.suspended(j));
    }

    static PodTemplateSpec asTemplate(Map<String, Object> template) {
        return Serialization.jsonMapper().convertValue(template, PodTemplateSpec.class);
    }
}
