package dev.sluice.bridge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.api.v1beta2.ClusterQueue;
import dev.sluice.api.v1beta2.LocalQueue;
import dev.sluice.engine.AdmissionMode;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.Test;

/** ClusterQueue spec.admissionScope.admissionMode and LocalQueue spec.fairSharing.weight as the engine takes them. */
class AdmissionFairSharingObjectsTest {

    static ClusterQueue cq(String spec) {
        return Serialization.unmarshal("apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata: {name: cq}\n"
                + "spec:\n" + spec, ClusterQueue.class);
    }

    static LocalQueue lq(String spec) {
        return Serialization.unmarshal("apiVersion: kueue.x-k8s.io/v1beta2\nkind: LocalQueue\n"
                + "metadata: {name: team-a, namespace: ns}\nspec:\n" + spec, LocalQueue.class);
    }

    @Test
    void theAdmissionModeIsReadAndDefaultsToNone() {
        assertThat(QueueObjects.clusterQueue(cq("  admissionScope: {admissionMode: UsageBasedAdmissionFairSharing}\n"))
                .admissionMode()).isEqualTo(AdmissionMode.UsageBasedAdmissionFairSharing);
        assertThat(QueueObjects.clusterQueue(cq("  admissionScope: {admissionMode: NoAdmissionFairSharing}\n"))
                .admissionMode()).isEqualTo(AdmissionMode.NoAdmissionFairSharing);
        assertThat(QueueObjects.clusterQueue(cq("  namespaceSelector: {}\n")).admissionMode())
                .isEqualTo(AdmissionMode.NoAdmissionFairSharing);
    }

    @Test
    void theLocalQueueWeightIsReadInMilliUnits() {
        assertThat(QueueObjects.localQueue(lq("  clusterQueue: cq\n  fairSharing: {weight: \"2\"}\n")).weight()).isEqualTo(2.0);
        assertThat(QueueObjects.localQueue(lq("  clusterQueue: cq\n  fairSharing: {weight: 500m}\n")).weight()).isEqualTo(0.5);
        assertThat(QueueObjects.localQueue(lq("  clusterQueue: cq\n")).weight()).as("unset weighs 1").isEqualTo(1.0);
        assertThatThrownBy(() -> QueueObjects.localQueue(lq("  clusterQueue: cq\n  fairSharing: {weight: lots}\n")))
                .hasMessageContaining("LocalQueue ns/team-a").hasMessageContaining("spec.fairSharing.weight");
    }

    @Test
    void v1beta1CarriesTheSameFields() {
        var v1 = Serialization.unmarshal("""
                apiVersion: kueue.x-k8s.io/v1beta1
                kind: LocalQueue
                metadata: {name: team-a, namespace: ns}
                spec: {clusterQueue: cq, fairSharing: {weight: "3"}}
                """, dev.sluice.api.v1beta1.LocalQueue.class);
        assertThat(v1.getSpec().getFairSharing().getWeight().toString()).isEqualTo("3");
        var v1cq = Serialization.unmarshal("""
                apiVersion: kueue.x-k8s.io/v1beta1
                kind: ClusterQueue
                metadata: {name: cq}
                spec: {admissionScope: {admissionMode: UsageBasedAdmissionFairSharing}}
                """, dev.sluice.api.v1beta1.ClusterQueue.class);
        assertThat(v1cq.getSpec().getAdmissionScope().getAdmissionMode())
                .isEqualTo(dev.sluice.api.v1beta2.AdmissionMode.UsageBasedAdmissionFairSharing);
    }
}
