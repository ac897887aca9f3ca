package dev.sluice.controller.tas;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.api.v1beta2.Admission;
import dev.sluice.api.v1beta2.PodSetAssignment;
import dev.sluice.api.v1beta2.UnhealthyNode;
import dev.sluice.api.v1beta2.Workload;
import dev.sluice.api.v1beta2.WorkloadStatus;
import dev.sluice.bridge.Topologies;
import dev.sluice.engine.tas.TopologyAssignment;
import dev.sluice.engine.tas.TopologyDomainAssignment;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The Workload cases of Kueue v0.19.2's topology_ungater_test.go TestReconcile (its names): which Workloads the
 * ungater plans for at all (IsAdmittedByTAS), and what it reads of them.
 */
class UngateInputsTest {
    private static final TopologyAssignment TA = new TopologyAssignment(UngateCase.DEFAULT_LEVELS,
            List.of(new TopologyDomainAssignment(List.of("b1", "r1"), 1)));

    private static Workload workload(boolean withAdmission, boolean withTopology, String... trueConditions) {
        Workload wl = new Workload();
        wl.setMetadata(new ObjectMetaBuilder().withName("unit-test").withNamespace("ns").build());
        WorkloadStatus status = new WorkloadStatus();
        if (withAdmission) {
            Admission a = new Admission();
            a.setClusterQueue("cq");
            PodSetAssignment psa = new PodSetAssignment();
            psa.setName("main");
            psa.setFlavors(Map.of("cpu", "unit-test-flavor"));
            psa.setCount(2);
            if (withTopology) {
                psa.setTopologyAssignment(Topologies.toApi(TA));
            }
            a.setPodSetAssignments(List.of(psa));
            status.setAdmission(a);
        }
        List<Condition> conditions = new ArrayList<>();
        for (String type : trueConditions) {
            conditions.add(new ConditionBuilder().withType(type).withStatus("True").withReason(type)
                    .withLastTransitionTime("2026-12-02T16:00:00Z").build());
        }
        status.setConditions(conditions);
        wl.setStatus(status);
        return wl;
    }

    @Test
    @DisplayName("workload without admission - pod remains gated")
    void workloadWithoutAdmissionPodRemainsGated() {
        Workload wl = workload(false, false);
        assertThat(UngateInputs.admittedByTas(wl)).isFalse();
        assertThat(UngateInputs.podSets(wl, null)).isEmpty();
    }

    @Test
    @DisplayName("workload admitted but without topology assignment - pod remains gated")
    void workloadAdmittedButWithoutTopologyAssignmentPodRemainsGated() {
        Workload wl = workload(true, false, "QuotaReserved", "Admitted");
        assertThat(UngateInputs.admittedByTas(wl)).isFalse();
    }

    @Test
    @DisplayName("workload with admission (reserved quota), but not admitted - pod remains gated")
    void workloadWithAdmissionReservedQuotaButNotAdmittedPodRemainsGated() {
        Workload wl = workload(true, true, "QuotaReserved");
        assertThat(UngateInputs.admittedByTas(wl)).isFalse();
        assertThat(UngateInputs.podSets(wl, null)).isEmpty();
    }

    @Test
    void anAdmittedWorkloadGivesItsAssignmentsAndUnhealthyNodes() {
        Workload wl = workload(true, true, "QuotaReserved", "Admitted");
        wl.getStatus().setUnhealthyNodes(List.of(new UnhealthyNode("x1")));
        assertThat(UngateInputs.admittedByTas(wl)).isTrue();
        assertThat(UngateInputs.podSets(wl, null)).containsExactly(new UngatePlan.PodSetInput("main", 2, TA, null));
        assertThat(UngateInputs.unhealthyNodes(wl)).isEqualTo(Set.of("x1"));
    }
}
