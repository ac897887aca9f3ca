package dev.sluice.bridge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.api.v1beta2.ClusterQueue;
import dev.sluice.engine.CohortSpec;
import dev.sluice.engine.ResourceQuota;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.Test;

/** Cohort objects of both versions, and ClusterQueue weights, as the engine takes them. */
class CohortObjectsTest {

    static final String BODY = """
            metadata: {name: team}
            spec:
              parentName: org
              fairSharing: {weight: "2.5"}
              resourceGroups:
              - coveredResources: [cpu, memory]
                flavors:
                - name: default
                  resources:
                  - {name: cpu, nominalQuota: "4", borrowingLimit: "1", lendingLimit: 500m}
                  - {name: memory, nominalQuota: 8Gi}
            """;

    @Test
    void bothVersionsGiveTheSameSpec() {
        CohortSpec v1beta2 = CohortObjects.cohort(Serialization.unmarshal(
                "apiVersion: kueue.x-k8s.io/v1beta2\nkind: Cohort\n" + BODY, dev.sluice.api.v1beta2.Cohort.class));
        CohortSpec v1beta1 = CohortObjects.cohort(Serialization.unmarshal(
                "apiVersion: kueue.x-k8s.io/v1beta1\nkind: Cohort\n" + BODY, dev.sluice.api.v1beta1.Cohort.class));
        assertThat(v1beta1).isEqualTo(v1beta2);
        assertThat(v1beta2.name()).isEqualTo("team");
        assertThat(v1beta2.parent()).isEqualTo("org");
        assertThat(v1beta2.fairSharingWeight()).isEqualTo(2.5);
        assertThat(v1beta2.resourceGroups()).hasSize(1);
        assertThat(v1beta2.resourceGroups().get(0).flavors().get(0).resources()).containsExactly(
                new ResourceQuota("cpu", 4000, 1000L, 500L), new ResourceQuota("memory", 8L * 1024 * 1024 * 1024 * 1000, null, null));
    }

    @Test
    void aRootWithoutQuotaOrWeightTakesKueuesDefaults() {
        CohortSpec root = CohortObjects.cohort(Serialization.unmarshal(
                "apiVersion: kueue.x-k8s.io/v1beta1\nkind: Cohort\nmetadata: {name: org}\n", dev.sluice.api.v1beta1.Cohort.class));
        assertThat(root.parent()).isNull();
        assertThat(root.resourceGroups()).isEmpty();
        assertThat(root.fairSharingWeight()).isNull();
        assertThat(root.weight()).isEqualTo(1.0);
    }

    @Test
    void badQuotasAndWeightsNameTheField() {
        assertThatThrownBy(() -> CohortObjects.cohort(Serialization.unmarshal("""
                apiVersion: kueue.x-k8s.io/v1beta2
                kind: Cohort
                metadata: {name: bad}
                spec: {fairSharing: {weight: "-1"}}
                """, dev.sluice.api.v1beta2.Cohort.class)))
                .isInstanceOf(InvalidObjectException.class)
                .hasMessage("Cohort bad: spec.fairSharing.weight: must not be negative, got -1");
        assertThatThrownBy(() -> CohortObjects.cohort(Serialization.unmarshal("""
                apiVersion: kueue.x-k8s.io/v1beta2
                kind: Cohort
                metadata: {name: bad}
                spec:
                  resourceGroups:
                  - coveredResources: [cpu]
                    flavors: [{name: f, resources: [{name: cpu}]}]
                """, dev.sluice.api.v1beta2.Cohort.class)))
                .isInstanceOf(InvalidObjectException.class)
                .hasMessageStartingWith("Cohort bad: spec.resourceGroups[0].flavors[0].resources[0].nominalQuota: required");
    }

    @Test
    void aClusterQueuesWeightReachesTheEngine() {
        ClusterQueue cq = Serialization.unmarshal("""
                apiVersion: kueue.x-k8s.io/v1beta2
                kind: ClusterQueue
                metadata: {name: cq}
                spec: {cohortName: team, fairSharing: {weight: 250m}}
                """, ClusterQueue.class);
        assertThat(QueueObjects.clusterQueue(cq).fairSharingWeight()).isEqualTo(0.25);
        cq.getSpec().setFairSharing(null);
        assertThat(QueueObjects.clusterQueue(cq).fairSharingWeight()).isNull();
    }
}
