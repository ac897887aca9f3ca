package dev.sluice.controller;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.api.v1beta2.Workload;
import dev.sluice.apiserver.ApiServerRules;
import dev.sluice.controller.conditions.Conditions;
import dev.sluice.jobs.WellKnown;
import dev.sluice.jobs.WorkloadNames;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The GKE multislice tutorial, as its README tells it: 3slice runs alone, then 1slice and 2slice together. Run twice
 * with the same story: from the seed (v1beta1 queue objects, converted by the test API server as a real one converts
 * them through the webhook) and from its v1beta2 translation in examples/gke-multislice-v1beta2.
 */
@QuarkusTest
@WithKubernetesTestServer(setup = ApiServerRules.class)
class MultisliceTutorialTest {

    static final String NS = "default";

    @Inject
    KubernetesClient client;

    @AfterEach
    void removeTheTutorial() {
        Cluster cluster = new Cluster(client);
        cluster.deleteAll(NS);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"seed (v1beta1)", "examples/gke-multislice-v1beta2"})
    void threeSliceRunsAloneThenTheOthersTogether(String manifests) throws Exception {
        Cluster cluster = new Cluster(client);
        FakeJobController jobController = new FakeJobController(client);
        boolean seed = manifests.startsWith("seed");
        List<HasMetadata> queues = seed ? cluster.load("/seeds/gke-multislice/kueue.yaml")
                : cluster.loadFile(java.nio.file.Path.of(manifests, "1-kueue.yaml"));
        assertThat(queues).extracting(HasMetadata::getApiVersion).containsOnly(
                seed ? "kueue.x-k8s.io/v1beta1" : "kueue.x-k8s.io/v1beta2");
        cluster.create(NS, queues);
        List<HasMetadata> jobSets = seed ? cluster.load("/seeds/gke-multislice/jobsets-multislice-autopilot.yaml")
                : cluster.loadFile(java.nio.file.Path.of(manifests, "2-jobsets-multislice.yaml"));
        HasMetadata oneSlice = named(jobSets, "multislice-1slice");
        HasMetadata twoSlice = named(jobSets, "multislice-2slice");
        HasMetadata threeSlice = named(jobSets, "multislice-3slice");
        double admittedBefore = Promtool.sample(Promtool.scrapeTextFormat(),
                "kueue_admitted_workloads_total{cluster_queue=\"cluster-queue\"}");

        // 3slice first: admitted by cluster-queue in flavor vlp-24 and started with the flavor's node labels
        cluster.create(NS, List.of(threeSlice));
        final GenericKubernetesResource three = cluster.jobSet(NS, "multislice-3slice");
        Workload wl3 = cluster.awaitWorkload(three, Cluster::admitted);
        assertThat(wl3.getMetadata().getName()).isEqualTo(
                WorkloadNames.forJob("JobSet", "jobset.x-k8s.io", "multislice-3slice", three.getMetadata().getUid()))
                .startsWith("jobset-multislice-3slice-");
        assertThat(wl3.getMetadata().getOwnerReferences()).singleElement()
                .satisfies(o -> assertThat(o.getUid()).isEqualTo(three.getMetadata().getUid()));
        assertThat(wl3.getSpec().getQueueName()).isEqualTo("multislice-queue");
        var assignment = wl3.getStatus().getAdmission();
        assertThat(assignment.getClusterQueue()).isEqualTo("cluster-queue");
        assertThat(assignment.getPodSetAssignments()).singleElement().satisfies(psa -> {
            assertThat(psa.getName()).isEqualTo("slice");
            assertThat(psa.getFlavors()).containsEntry("google.com/tpu", "vlp-24");
            assertThat(psa.getResourceUsage().get("google.com/tpu").toString()).isEqualTo("24");
            assertThat(psa.getCount()).isEqualTo(6);
        });
        Map<String, Object> podTemplate = podTemplate(cluster.awaitJobSet(NS, "multislice-3slice", j -> !Cluster.suspended(j)));
        assertThat(nested(podTemplate, "spec", "nodeSelector")).isEqualTo(Map.of(
                "cloud.google.com/gke-tpu-accelerator", "tpu-v5-lite-podslice", "cloud.google.com/gke-tpu-topology", "2x4"));
        assertThat(nested(podTemplate, "metadata", "labels")).isEqualTo(Map.of(WellKnown.POD_SET, "slice"));

        // 1slice and 2slice wait, with the quota message, and are held suspended
        cluster.create(NS, List.of(oneSlice, twoSlice));
        GenericKubernetesResource one = cluster.jobSet(NS, "multislice-1slice");
        GenericKubernetesResource two = cluster.jobSet(NS, "multislice-2slice");
        Workload wl1 = cluster.awaitWorkload(one, w -> Cluster.isFalse(w, "QuotaReserved", "WaitingForQuota"));
        Workload wl2 = cluster.awaitWorkload(two, w -> Cluster.isFalse(w, "QuotaReserved", "WaitingForQuota"));
        assertThat(Cluster.condition(wl1, "QuotaReserved").getMessage()).isEqualTo(
                "couldn't assign flavors to pod set slice: insufficient unused quota for google.com/tpu in flavor vlp-24, 8 more needed");
        assertThat(Cluster.condition(wl2, "QuotaReserved").getMessage()).isEqualTo(
                "couldn't assign flavors to pod set slice: insufficient unused quota for google.com/tpu in flavor vlp-24, 16 more needed");
        cluster.awaitJobSet(NS, "multislice-1slice", Cluster::suspended);
        cluster.awaitJobSet(NS, "multislice-2slice", Cluster::suspended);

        // kubectl get workloads: QUEUE, ADMITTED BY (Reserved in) and ADMITTED (False/NoReservation while waiting, Kueue v0.19)
        assertThat(printerColumns(cluster.workloadOf(three))).containsExactly("multislice-queue", "cluster-queue", "True", null);
        assertThat(printerColumns(cluster.workloadOf(one))).containsExactly("multislice-queue", null, "False", null);
        assertThat(printerColumns(cluster.workloadOf(two))).containsExactly("multislice-queue", null, "False", null);
        var cq = cluster.awaitClusterQueue("cluster-queue", c -> c.getStatus() != null
                && Integer.valueOf(2).equals(c.getStatus().getPendingWorkloads())
                && Integer.valueOf(1).equals(c.getStatus().getAdmittedWorkloads()));
        assertThat(cq.getStatus().getFlavorsReservation()).singleElement().satisfies(f -> {
            assertThat(f.getName()).isEqualTo("vlp-24");
            assertThat(f.getResources()).singleElement().satisfies(r -> assertThat(r.getTotal().toString()).isEqualTo("24"));
        });
        assertThat(Conditions.isTrue(cq.getStatus().getConditions(), "Active")).isTrue();
        cluster.awaitLocalQueue(NS, "multislice-queue", lq -> lq.getStatus() != null
                && Integer.valueOf(2).equals(lq.getStatus().getPendingWorkloads())
                && Integer.valueOf(1).equals(lq.getStatus().getAdmittedWorkloads()));
        assertThat(cluster.events(wl3)).extracting(e -> e.getReason()).contains("QuotaReserved", "Admitted");
        assertThat(cluster.events(three)).extracting(e -> e.getReason()).contains("Started");

        // 3slice completes: its quota is released at once and the other two are admitted together
        jobController.finishJobSet(NS, "multislice-3slice", true);
        Workload done = cluster.awaitWorkload(three, w -> Cluster.isTrue(w, "Finished"));
        assertThat(Cluster.condition(done, "Finished").getReason()).isEqualTo("Succeeded");
        cluster.awaitWorkload(one, Cluster::admitted);
        cluster.awaitWorkload(two, Cluster::admitted);
        cluster.awaitJobSet(NS, "multislice-1slice", j -> !Cluster.suspended(j));
        cluster.awaitJobSet(NS, "multislice-2slice", j -> !Cluster.suspended(j));
        assertThat(printerColumns(cluster.workloadOf(three))).containsExactly("multislice-queue", "cluster-queue", "True", "True");
        cluster.awaitClusterQueue("cluster-queue", c -> Integer.valueOf(0).equals(c.getStatus().getPendingWorkloads())
                && Integer.valueOf(2).equals(c.getStatus().getAdmittedWorkloads()));

        // the meters saw the same story: three admissions in cluster-queue, and the scrape is valid Prometheus text
        String scrape = Promtool.scrapeTextFormat();
        assertThat(Promtool.sample(scrape, "kueue_admitted_workloads_total{cluster_queue=\"cluster-queue\"}"))
                .isEqualTo(admittedBefore + 3);
        assertThat(scrape).containsPattern("kueue_pending_workloads\\{cluster_queue=\"cluster-queue\",status=\"active\",?} 0\\.0\n")
                .containsPattern("sluice_workload_uptime_seconds\\{namespace=\"default\",workload=\""
                        + cluster.workloadOf(one).getMetadata().getName() + "\",?} ");
        Promtool.assertValid(scrape);
    }

    static HasMetadata named(List<HasMetadata> objects, String name) {
        return objects.stream().filter(o -> name.equals(o.getMetadata().getName())).findFirst().orElseThrow();
    }

    /** Queue, Reserved in, Admitted, Finished: the Workload's printer columns (Age aside). */
    static java.util.List<String> printerColumns(Workload wl) {
        var admitted = Cluster.condition(wl, "Admitted");
        var finished = Cluster.condition(wl, "Finished");
        return java.util.Arrays.asList(wl.getSpec().getQueueName(),
                wl.getStatus() == null || wl.getStatus().getAdmission() == null ? null
                        : wl.getStatus().getAdmission().getClusterQueue(),
                admitted == null ? null : admitted.getStatus(), finished == null ? null : finished.getStatus());
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> podTemplate(GenericKubernetesResource jobSet) {
        var rj = (List<Map<String, Object>>) Cluster.spec(jobSet).get("replicatedJobs");
        return (Map<String, Object>) nested(rj.get(0), "template", "spec", "template");
    }

    @SuppressWarnings("unchecked")
    static Object nested(Map<String, Object> map, String... path) {
        Object current = map;
        for (String p : path) {
            current = current == null ? null : ((Map<String, Object>) current).get(p);
        }
        return current;
    }
}
