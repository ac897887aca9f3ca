package dev.sluice.bridge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.sluice.api.v1beta2.ClusterQueue;
import dev.sluice.api.v1beta2.LocalQueue;
import dev.sluice.api.v1beta2.ResourceFlavor;
import dev.sluice.api.v1beta2.Workload;
import dev.sluice.engine.Assignment;
import dev.sluice.engine.FlavorFungibility;
import dev.sluice.engine.FlavorFungibilityPreference;
import dev.sluice.engine.FlavorResource;
import dev.sluice.engine.PodSetAssignment;
import dev.sluice.engine.QueueingStrategy;
import dev.sluice.engine.ReclaimWithinCohort;
import dev.sluice.engine.WhenCanBorrow;
import dev.sluice.engine.WhenCanPreempt;
import dev.sluice.engine.WithinClusterQueue;
import dev.sluice.engine.WorkloadSpec;
import dev.sluice.jobs.JobKinds;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class BridgeTest {

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    static List<GenericKubernetesResource> read(String resource) throws Exception {
        try (InputStream in = BridgeTest.class.getResourceAsStream(resource)) {
            List<GenericKubernetesResource> out = new ArrayList<>();
            for (var it = YAML.readValues(new YAMLFactory().createParser(in), GenericKubernetesResource.class); it.hasNext();) {
                out.add(it.next());
            }
            return out;
        }
    }

    static <T> T as(GenericKubernetesResource r, Class<T> type) {
        return Serialization.jsonMapper().convertValue(r, type);
    }

    static final PriorityClasses CLASSES = new PriorityClasses() {
        @Override
        public Optional<Integer> workloadPriorityClass(String name) {
            return "high".equals(name) ? Optional.of(10000) : Optional.empty();
        }

        @Override
        public Optional<Integer> priorityClass(String name) {
            return "low-priority".equals(name) ? Optional.of(100) : Optional.empty();
        }

        @Override
        public Optional<Named> globalDefault() {
            return Optional.empty();
        }
    };

    @Test
    void tutorialQueueObjectsBecomeEngineSpecs() throws Exception {
        var docs = read("/seeds/gke-multislice/kueue-preemption.yaml");
        var flavor = QueueObjects.flavor(as(docs.get(0), ResourceFlavor.class));
        assertThat(flavor.nodeLabels()).containsEntry("cloud.google.com/gke-tpu-topology", "2x4");

        var cq = QueueObjects.clusterQueue(as(docs.get(1), ClusterQueue.class));
        assertThat(cq.queueingStrategy()).isEqualTo(QueueingStrategy.BestEffortFIFO);
        assertThat(cq.preemption().reclaimWithinCohort()).isEqualTo(ReclaimWithinCohort.Any);
        assertThat(cq.preemption().withinClusterQueue()).isEqualTo(WithinClusterQueue.LowerPriority);
        assertThat(cq.namespaceSelector().matches(Map.of("any", "namespace"))).isTrue();
        var quota = cq.resourceGroups().get(0).flavors().get(0).resources().get(0);
        assertThat(quota.resource()).isEqualTo("google.com/tpu");
        assertThat(quota.nominal()).isEqualTo(24_000L);

        var lq = QueueObjects.localQueue(as(docs.get(2), LocalQueue.class));
        assertThat(lq.namespace()).isEqualTo("default");
        assertThat(lq.clusterQueue()).isEqualTo("cluster-queue");
    }

    /** flavorFungibility reaches the engine: MayStopSearch as Borrow/Preempt, the preference as written. */
    @Test
    void flavorFungibilityAndItsPreferenceReachTheEngine() throws Exception {
        ClusterQueue cq = as(read("/seeds/gke-multislice/kueue.yaml").get(1), ClusterQueue.class);
        var f = new dev.sluice.api.v1beta2.FlavorFungibility();
        f.setWhenCanBorrow(dev.sluice.api.v1beta2.WhenCanBorrow.TryNextFlavor);
        f.setWhenCanPreempt(dev.sluice.api.v1beta2.WhenCanPreempt.TryNextFlavor);
        f.setPreference(dev.sluice.api.v1beta2.FlavorFungibilityPreference.PreemptionOverBorrowing);
        cq.getSpec().setFlavorFungibility(f);
        assertThat(QueueObjects.clusterQueue(cq).flavorFungibility()).isEqualTo(new FlavorFungibility(
                WhenCanBorrow.TryNextFlavor, WhenCanPreempt.TryNextFlavor,
                FlavorFungibilityPreference.PreemptionOverBorrowing));
        f.setPreference(null);
        f.setWhenCanBorrow(dev.sluice.api.v1beta2.WhenCanBorrow.MayStopSearch);
        f.setWhenCanPreempt(dev.sluice.api.v1beta2.WhenCanPreempt.MayStopSearch);
        assertThat(QueueObjects.clusterQueue(cq).flavorFungibility()).isEqualTo(new FlavorFungibility(
                WhenCanBorrow.Borrow, WhenCanPreempt.Preempt, FlavorFungibilityPreference.BorrowingOverPreemption));
    }

    @Test
    void badQuotaIsNamedWithItsField() throws Exception {
        ClusterQueue cq = as(read("/seeds/gke-multislice/kueue.yaml").get(1), ClusterQueue.class);
        cq.getSpec().getResourceGroups().get(0).getFlavors().get(0).getResources().get(0).setNominalQuota(new Quantity("-3"));
        assertThatThrownBy(() -> QueueObjects.clusterQueue(cq))
                .isInstanceOf(InvalidObjectException.class)
                .hasMessageContaining("spec.resourceGroups[0].flavors[0].resources[0].nominalQuota")
                .hasMessageContaining("negative");
    }

    @Test
    void lowPriorityJobSetBecomesAWorkloadWithPodPriority() throws Exception {
        GenericKubernetesResource jobSet = read("/seeds/gke-multislice/jobset-low-priority-autopilot.yaml").get(0);
        jobSet.getMetadata().setNamespace("default");
        jobSet.getMetadata().setUid("0b5d7e52-1f6b-4c07-9d1e-3e2b1c7d9a10");
        var kind = JobKinds.standard().forJob(jobSet).orElseThrow();

        Workload workload = JobWorkloads.forJob(kind, jobSet, CLASSES);

        assertThat(workload.getMetadata().getName()).startsWith("jobset-low-priority-").hasSize("jobset-low-priority-".length() + 5);
        assertThat(workload.getMetadata().getLabels()).containsEntry("kueue.x-k8s.io/job-uid", jobSet.getMetadata().getUid());
        assertThat(workload.getMetadata().getOwnerReferences().get(0).getKind()).isEqualTo("JobSet");
        assertThat(workload.getSpec().getQueueName()).isEqualTo("multislice-queue");
        assertThat(workload.getSpec().getPriority()).isEqualTo(100);
        assertThat(workload.getSpec().getPriorityClassRef().isPodPriorityClass()).isTrue();
        assertThat(workload.getSpec().getPriorityClassRef().getGroup()).isEqualTo("scheduling.k8s.io");

        workload.getMetadata().setCreationTimestamp("2026-11-30T09:00:00Z");
        WorkloadSpec spec = EngineWorkloads.toEngine(workload, EngineWorkloads.createdMillis(workload));
        assertThat(spec.priority()).isEqualTo(100);
        assertThat(spec.creationTimeMillis()).isEqualTo(java.time.Instant.parse("2026-11-30T09:00:00Z").toEpochMilli());
        assertThat(spec.podSets()).hasSize(1);
        assertThat(spec.podSets().get(0).name()).isEqualTo("slice");
        assertThat(spec.podSets().get(0).count()).isEqualTo(2);
        assertThat(spec.podSets().get(0).requestsPerPod()).containsEntry("google.com/tpu", 4_000L);
        assertThat(spec.podSets().get(0).nodeSelector()).containsEntry("cloud.google.com/gke-tpu-topology", "2x4");
    }

    @Test
    void missingPriorityClassIsReportedNotGuessed() throws Exception {
        GenericKubernetesResource job = read("/seeds/ack-kube-queue/job-queued.yaml").get(0);
        job.getMetadata().setName("pi");
        job.getMetadata().setNamespace("default");
        job.getMetadata().setLabels(Map.of("kueue.x-k8s.io/priority-class", "urgent"));
        var kind = JobKinds.standard().forJob(job).orElseThrow();
        assertThatThrownBy(() -> JobWorkloads.forJob(kind, job, CLASSES))
                .hasMessageContaining("WorkloadPriorityClass \"urgent\" not found");

        job.getMetadata().setLabels(Map.of("kueue.x-k8s.io/priority-class", "high"));
        Workload workload = JobWorkloads.forJob(kind, job, CLASSES);
        assertThat(workload.getSpec().getPriority()).isEqualTo(10000);
        assertThat(workload.getSpec().getPriorityClassRef().getKind()).isEqualTo("WorkloadPriorityClass");
        assertThat(workload.getSpec().getPriorityClassRef().getGroup()).isEqualTo("kueue.x-k8s.io");
    }

    /** Kueue's NewWorkload: the job's provreq.kueue.x-k8s.io/ annotations (ProvisioningRequest parameters), no others. */
    @Test
    void provisioningRequestParametersOfTheJobAreCopiedToItsWorkload() throws Exception {
        GenericKubernetesResource job = read("/seeds/ack-kube-queue/job-queued.yaml").get(0);
        job.getMetadata().setName("pi");
        job.getMetadata().setNamespace("default");
        job.getMetadata().setAnnotations(Map.of("provreq.kueue.x-k8s.io/ValidUntilSeconds", "60",
                "invalid-provreq-prefix/Foo1", "Bar1"));
        var kind = JobKinds.standard().forJob(job).orElseThrow();
        Workload workload = JobWorkloads.forJob(kind, job, CLASSES);
        assertThat(workload.getMetadata().getAnnotations())
                .containsExactlyEntriesOf(Map.of("provreq.kueue.x-k8s.io/ValidUntilSeconds", "60"));
    }

    @Test
    void admissionRoundTripsThroughWorkloadStatus() {
        Assignment assignment = new Assignment("cluster-queue", List.of(new PodSetAssignment("slice",
                Map.of("google.com/tpu", "vlp-24"), Map.of("google.com/tpu", 24_000L, "memory", 1_073_741_824_000L), 6)));
        var api = Admissions.toApi(assignment);
        assertThat(api.getPodSetAssignments().get(0).getResourceUsage().get("google.com/tpu").toString()).isEqualTo("24");
        var json = Serialization.asJson(api);
        var back = Admissions.fromApi(Serialization.unmarshal(json, dev.sluice.api.v1beta2.Admission.class), "w");
        assertThat(back.usage()).isEqualTo(assignment.usage());
        assertThat(back.usage()).containsEntry(new FlavorResource("vlp-24", "google.com/tpu"), 24_000L);
        assertThat(back.podSets().get(0).count()).isEqualTo(6);
    }
}
