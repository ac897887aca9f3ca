package dev.sluice.controller.cache;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.api.v1beta2.TopologyAnnotations;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What pods not placed by TAS take of each node: Kueue v0.19.2's TestNonTasUsageCacheIncrementalUpdates
 * (pkg/cache/scheduler/tas_non_tas_pod_cache_test.go) and TestBelongsToNonTASCache
 * (pkg/controller/tas/non_tas_usage_controller_test.go), case by case; usage in milli-units, 1000 {@code pods} a pod.
 */
class NonTasUsageTest {

    static Pod pod(String name, String ns, String node, String cpu) {
        return new PodBuilder().withNewMetadata().withName(name).withNamespace(ns).endMetadata()
                .withNewSpec().withNodeName(node).addNewContainer().withName("c").withNewResources()
                .withRequests(Map.of("cpu", new Quantity(cpu))).endResources().endContainer().endSpec()
                .withNewStatus().withPhase("Running").endStatus().build();
    }

    static String key(Pod p) {
        return p.getMetadata().getNamespace() + "/" + p.getMetadata().getName();
    }

    static Map<String, Long> cpuPods(long cpuMilli, long pods) {
        return Map.of("cpu", cpuMilli, "pods", pods * 1000);
    }

    private final NonTasUsage cache = new NonTasUsage();

    private void add(Pod... pods) {
        for (Pod p : pods) {
            cache.update(key(p), p);
        }
    }

    @Test
    void addThenDeleteSamePod() {
        Pod p = pod("pod1", "ns", "node-a", "2");
        add(p);
        cache.remove(key(p));
        assertThat(cache.perNode()).isEmpty();
        assertThat(cache.pods()).isZero();
    }

    @Test
    void multiplePodsOnSameNode() {
        add(pod("pod1", "ns", "node-a", "1"), pod("pod2", "ns", "node-a", "2"));
        assertThat(cache.perNode()).isEqualTo(Map.of("node-a", cpuPods(3000, 2)));
    }

    @Test
    void podMovesBetweenNodesCleansUpSourceNode() {
        Pod p = pod("pod1", "ns", "node-a", "4");
        add(p);
        p.getSpec().setNodeName("node-b");
        assertThat(cache.update(key(p), p)).isTrue();
        assertThat(cache.perNode()).isEqualTo(Map.of("node-b", cpuPods(4000, 1)));
    }

    @Test
    void podResizeOnSameNodeUpdatesUsageToNewRequests() {
        Pod p = pod("pod1", "ns", "node-a", "1");
        add(p);
        p.getSpec().getContainers().get(0).getResources().setRequests(Map.of("cpu", new Quantity("4")));
        add(p);
        assertThat(cache.perNode()).isEqualTo(Map.of("node-a", cpuPods(4000, 1)));
    }

    @Test
    void resizeOneOfTwoPodsOnSameNodeUpdatesOnlyThatPodsContribution() {
        Pod p1 = pod("pod1", "ns", "node-a", "1");
        add(p1, pod("pod2", "ns", "node-a", "2"));
        p1.getSpec().getContainers().get(0).getResources().setRequests(Map.of("cpu", new Quantity("3")));
        add(p1);
        assertThat(cache.perNode()).isEqualTo(Map.of("node-a", cpuPods(5000, 2)));
    }

    @Test
    void terminatedPodRemovesUsage() {
        Pod p = pod("pod1", "ns", "node-a", "2");
        add(p);
        p.getStatus().setPhase("Succeeded");
        assertThat(cache.update(key(p), p)).isTrue();
        assertThat(cache.perNode()).isEmpty();
    }

    @Test
    void deleteNonExistentKeyIsNoOp() {
        assertThat(cache.remove("ns/ghost")).isFalse();
        assertThat(cache.perNode()).isEmpty();
    }

    @Test
    void removingOneOfTwoPodsLeavesNodeEntry() {
        Pod p1 = pod("pod1", "ns", "node-a", "1");
        add(p1, pod("pod2", "ns", "node-a", "1"));
        cache.remove(key(p1));
        assertThat(cache.perNode()).isEqualTo(Map.of("node-a", cpuPods(1000, 1)));
    }

    @Test
    void removingLastPodCleansUpNodeEntry() {
        Pod p1 = pod("pod1", "ns", "node-a", "1");
        Pod p2 = pod("pod2", "ns", "node-a", "1");
        add(p1, p2);
        cache.remove(key(p1));
        cache.remove(key(p2));
        assertThat(cache.perNode()).isEmpty();
    }

    @Test
    void anUnchangedPodChangesNothing() {
        Pod p = pod("pod1", "ns", "node-a", "1");
        assertThat(cache.update(key(p), p)).isTrue();
        // a status-only update (conditions, IPs) of a counted pod: no new view for the engine
        assertThat(cache.update(key(p), pod("pod1", "ns", "node-a", "1"))).isFalse();
    }

    // TestBelongsToNonTASCache

    @Test
    void scheduledNonTasPod() {
        assertThat(cache.update("ns/pod", pod("pod", "ns", "node-a", "1"))).isTrue();
    }

    @Test
    void unscheduledPod() {
        assertThat(cache.update("ns/pod", pod("pod", "ns", null, "1"))).isFalse();
        assertThat(cache.perNode()).isEmpty();
    }

    @Test
    void scheduledTasPod() {
        Pod p = pod("pod", "ns", "node-a", "1");
        p.getMetadata().setAnnotations(Map.of(TopologyAnnotations.REQUIRED, "rack"));
        assertThat(cache.update("ns/pod", p)).isFalse();
        assertThat(cache.perNode()).isEmpty();
    }

    @Test
    void scheduledUnconstrainedTasPod() {
        Pod p = pod("pod", "ns", "node-a", "1");
        p.getMetadata().setAnnotations(Map.of(TopologyAnnotations.UNCONSTRAINED, "true"));
        assertThat(cache.update("ns/pod", p)).isFalse();
    }

    @Test
    void scheduledSucceededNonTasPod() {
        Pod p = pod("pod", "ns", "node-a", "1");
        p.getStatus().setPhase("Succeeded");
        assertThat(cache.update("ns/pod", p)).isFalse();
    }

    @Test
    void scheduledFailedNonTasPod() {
        Pod p = pod("pod", "ns", "node-a", "1");
        p.getStatus().setPhase("Failed");
        assertThat(cache.update("ns/pod", p)).isFalse();
    }

    @Test
    void skeletonsKeepOnlyTheKeyAndResourceVersion() {
        Pod p = pod("pod", "ns", "node-a", "1");
        p.getMetadata().setResourceVersion("42");
        p.getMetadata().setLabels(Map.of("app", "x"));
        Pod kept = NodeView.skeleton(p);
        assertThat(kept.getSpec()).isNull();
        assertThat(kept.getStatus()).isNull();
        assertThat(kept.getMetadata().getLabels()).isNullOrEmpty();
        assertThat(kept.getMetadata().getResourceVersion()).isEqualTo("42");
        assertThat(kept.getMetadata().getNamespace()).isEqualTo("ns");
    }
}
