package dev.sluice.controller.admissionchecks.provisioning;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.api.v1beta2.PodSetMergePolicy;
import dev.sluice.api.v1beta2.ProvisioningRequestConfigSpec;
import dev.sluice.api.v1beta2.Workload;
import dev.sluice.controller.Queues;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Kueue's TestMergePodSetsSkipsZeroCounts and TestReqIsNeeded (controller_test.go), case by case. */
class PodSetsTest {

    /** Pod sets ps0.. with the spec counts given, each 1 cpu, reserved with the admission counts given (null: none). */
    static Workload workload(int[] specCounts, Integer[] admissionCounts) {
        StringBuilder podSets = new StringBuilder();
        StringBuilder assignments = new StringBuilder();
        for (int i = 0; i < specCounts.length; i++) {
            podSets.append("  - {name: ps").append(i).append(", count: ").append(specCounts[i])
                    .append(", template: {spec: {containers: [{name: c, resources: {requests: {cpu: \"1\"}}}]}}}\n");
        }
        for (int i = 0; admissionCounts != null && i < admissionCounts.length; i++) {
            assignments.append("    - {name: ps").append(i)
                    .append(admissionCounts[i] == null ? "" : ", count: " + admissionCounts[i]).append("}\n");
        }
        return Queues.yaml(Workload.class, """
                apiVersion: kueue.x-k8s.io/v1beta2
                kind: Workload
                metadata: {name: wl, namespace: ns}
                spec:
                  podSets:
                %s
                status:
                  admission:
                    clusterQueue: q
                    podSetAssignments:%s
                """.formatted(podSets, assignments.length() == 0 ? " []" : "\n" + assignments));
    }

    static ProvisioningRequestConfigSpec spec(PodSetMergePolicy policy, String... managed) {
        ProvisioningRequestConfigSpec spec = new ProvisioningRequestConfigSpec();
        spec.setPodSetMergePolicy(policy);
        spec.setManagedResources(managed.length == 0 ? null : List.of(managed));
        return spec;
    }

    private static List<String> names(List<PodSets.Merged> merged) {
        return merged.stream().map(PodSets.Merged::name).toList();
    }

    private static List<Integer> counts(List<PodSets.Merged> merged) {
        return merged.stream().map(PodSets.Merged::count).toList();
    }

    // TestMergePodSetsSkipsZeroCounts

    @Test
    void zeroSpecCount() {
        var got = PodSets.merge(workload(new int[] {0, 2}, new Integer[] {0, 2}), spec(null));
        assertThat(names(got)).containsExactly("ps1");
        assertThat(counts(got)).containsExactly(2);
    }

    @Test
    void zeroAdmissionCountOverride() {
        var got = PodSets.merge(workload(new int[] {1, 2}, new Integer[] {0, 2}), spec(null));
        assertThat(names(got)).containsExactly("ps1");
        assertThat(counts(got)).containsExactly(2);
    }

    @Test
    void zeroCountDoesNotBlockCompatibleMerging() {
        var got = PodSets.merge(workload(new int[] {1, 2, 3}, new Integer[] {0, 2, 3}),
                spec(PodSetMergePolicy.IdenticalPodTemplates));
        assertThat(names(got)).containsExactly("ps1");
        assertThat(counts(got)).containsExactly(5);
    }

    // TestReqIsNeeded (the config manages cpu)

    @Test
    void positiveAdmittedCountNeedsRequest() {
        assertThat(PodSets.requestNeeded(workload(new int[] {1}, new Integer[] {1}), spec(null, "cpu"))).isTrue();
    }

    @Test
    void missingAdmittedCountFallsBackToSpecCount() {
        assertThat(PodSets.requestNeeded(workload(new int[] {1}, new Integer[] {null}), spec(null, "cpu"))).isTrue();
    }

    @Test
    void zeroAdmittedCountDoesNotNeedRequest() {
        assertThat(PodSets.requestNeeded(workload(new int[] {1}, new Integer[] {0}), spec(null, "cpu"))).isFalse();
    }

    @Test
    void zeroSpecCountDoesNotRequireAssignment() {
        assertThat(PodSets.requestNeeded(workload(new int[] {0}, null), spec(null, "cpu"))).isFalse();
    }

    @Test
    void missingAssignmentReturnsInconsistencyError() {
        assertThatThrownBy(() -> PodSets.requestNeeded(workload(new int[] {1}, null), spec(null, "cpu")))
                .isInstanceOf(PodSets.InconsistentAssignments.class)
                .hasMessage("inconsistent podSet assignments: missing assignment for PodSet \"ps0\"");
    }

    @Test
    void neededPodsetShortCircuitsLaterMissingAssignment() {
        assertThat(PodSets.requestNeeded(workload(new int[] {1, 1}, new Integer[] {1}), spec(null, "cpu"))).isTrue();
    }

    @Test
    void aPodSetThatUsesNoManagedResourceNeedsNoRequest() {
        assertThat(PodSets.requestNeeded(workload(new int[] {1}, new Integer[] {1}), spec(null, "example.org/gpu")))
                .isFalse();
    }

    @Test
    void limitsCountAsMissingRequests() {
        var pod = new io.fabric8.kubernetes.api.model.PodSpecBuilder().addNewContainer().withName("c").withNewResources()
                .addToRequests("cpu", new io.fabric8.kubernetes.api.model.Quantity("1"))
                .addToLimits("example.com/gpu", new io.fabric8.kubernetes.api.model.Quantity("1"))
                .addToLimits("cpu", new io.fabric8.kubernetes.api.model.Quantity("2")).endResources().endContainer().build();
        PodSets.limitsAsMissingRequests(pod);
        assertThat(pod.getContainers().get(0).getResources().getRequests()).containsOnlyKeys("cpu", "example.com/gpu");
        assertThat(pod.getContainers().get(0).getResources().getRequests().get("cpu").toString()).isEqualTo("1");
    }
}
