package dev.sluice.controller.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.api.v1beta2.Workload;
import dev.sluice.controller.conditions.WorkloadConditions;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.Test;

/** The Workload cache: what it keeps of each object, and that keeping less changes nothing an object says. */
class WorkloadStoreTest {

    static final String ADMITTED = """
            {"apiVersion": "kueue.x-k8s.io/v1beta1", "kind": "Workload",
             "metadata": {"name": "%s", "namespace": "team-a", "uid": "uid-%s", "resourceVersion": "%s",
               "creationTimestamp": "2025-01-02T03:04:05Z", "generation": 1,
               "labels": {"class": "small", "run-time": "150"},
               "annotations": {"kubectl.kubernetes.io/last-applied-configuration": "{}", "note": "kept"},
               "managedFields": [{"manager": "kubectl", "operation": "Update"}]},
             "spec": {"queueName": "lq", "priority": %d, "podSets": [{"name": "main", "count": 2,
               "template": {"spec": {"containers": [{"name": "c", "resources": {"requests": {"cpu": "500m"}}}]}}}]},
             "status": {"conditions": [
               {"type": "QuotaReserved", "status": "True", "reason": "QuotaReserved", "message": "Quota reserved in ClusterQueue cq",
                "lastTransitionTime": "2025-01-02T03:04:06Z", "observedGeneration": 1},
               {"type": "Admitted", "status": "True", "reason": "Admitted", "message": "The workload is admitted",
                "lastTransitionTime": "2025-01-02T03:04:06Z"}],
               "admission": {"clusterQueue": "cq", "podSetAssignments": [{"name": "main", "count": 2,
                 "flavors": {"cpu": "default"}, "resourceUsage": {"cpu": "1"}}]},
               "requeueState": {"count": 1, "requeueAt": "2025-01-02T03:05:00Z"}}}
            """;

    static Workload parse(String name, String resourceVersion, int priority) {
        return Serialization.unmarshal(ADMITTED.formatted(name, name, resourceVersion, priority), Workload.class);
    }

    @Test
    void keepsEverythingButPodSetsManagedFieldsAndLastApplied() {
        Workload wl = parse("w1", "10", 5);
        String json = Serialization.asJson(wl);
        WorkloadStore store = new WorkloadStore();
        store.put("team-a/w1", wl);

        Workload expected = Serialization.unmarshal(json, Workload.class);
        expected.getSpec().setPodSets(java.util.List.of()); // in the engine form only
        expected.getMetadata().setManagedFields(null);
        expected.getMetadata().getAnnotations().remove(StrippedItemStore.LAST_APPLIED);
        Workload cached = store.get("team-a/w1");
        assertThat(Serialization.asJson(cached)).isEqualTo(Serialization.asJson(expected));
        assertThat(cached.getMetadata().getAnnotations()).containsEntry("note", "kept");
        // what JobSync starts the job with: the pod sets' names and counts, from the engine form
        assertThat(store.podSets(cached)).containsExactly(new WorkloadStore.PodSetCount("main", 2));
        store.remove("team-a/w1");
        assertThat(store.podSets(cached)).as("gone from the cache: read it from the API server").isNull();
    }

    @Test
    void theUnfinishedWorkloadsAreTheCachedOnesThemselvesWithoutTheFinished() {
        WorkloadStore store = new WorkloadStore();
        store.put("team-a/running", parse("running", "10", 0));
        Workload done = parse("done", "11", 0);
        done.getStatus().getConditions().add(new io.fabric8.kubernetes.api.model.ConditionBuilder().withType("Finished")
                .withStatus("True").withReason("Succeeded").withMessage("done")
                .withLastTransitionTime("2025-01-02T03:09:00Z").build());
        store.put("team-a/done", done);
        assertThat(store.isRecord("team-a/done")).isTrue();
        assertThat(store.size()).isEqualTo(2);
        // the cached object itself (nothing made anew), and no finished one
        assertThat(store.unfinished()).singleElement().isSameAs(store.get("team-a/running"));
    }

    @Test
    void aWorkloadWithoutAnEngineFormKeepsItsPodSetsWithoutTemplates() {
        Workload wl = parse("w1", "10", 5);
        wl.getSpec().getPodSets().get(0).getTemplate().getSpec().getContainers().get(0).getResources().getRequests()
                .put("cpu", new io.fabric8.kubernetes.api.model.Quantity("-1")); // cannot be queued
        WorkloadStore store = new WorkloadStore();
        store.put("team-a/w1", wl);
        Workload cached = store.get("team-a/w1");
        assertThat(store.derived("team-a", "w1").spec()).isNull();
        assertThat(cached.getSpec().getPodSets()).singleElement().satisfies(ps -> {
            assertThat(ps.getTemplate()).isNull();
            assertThat(ps.getCount()).isEqualTo(2);
        });
        assertThat(store.podSets(cached)).containsExactly(new WorkloadStore.PodSetCount("main", 2));
    }

    @Test
    void labelsAndAnnotationsArePackedAndCannotBeChangedInTheCache() {
        WorkloadStore store = new WorkloadStore();
        store.put("team-a/w1", parse("w1", "10", 5));
        Workload a = store.get("team-a/w1");
        assertThat(a.getMetadata().getLabels()).isInstanceOf(PackedMap.class)
                .containsExactly(java.util.Map.entry("class", "small"), java.util.Map.entry("run-time", "150"));
        assertThat(a.getMetadata().getLabels()).isEqualTo(java.util.Map.of("class", "small", "run-time", "150"));
        assertThat(a.getMetadata().getAnnotations()).isInstanceOf(PackedMap.class).containsOnlyKeys("note");
        assertThatThrownBy(() -> a.getMetadata().getLabels().put("more", "x"))
                .isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void everyCachedWorkloadSharesOneCopyOfItsApiVersionAndCrdName() {
        WorkloadStore store = new WorkloadStore();
        store.put("team-a/w1", parse("w1", "10", 5));
        Workload finished = WorkloadConditions.finish(parse("w2", "20", 5), "Succeeded", "done",
                java.time.Instant.parse("2025-01-02T04:00:00Z"));
        store.put("team-a/w2", finished);
        Workload a = store.get("team-a/w1");
        Workload b = store.get("team-a/w2");
        assertThat(FinishedWorkloads.isSummary(b)).isTrue();
        assertThat(a.getApiVersion()).isEqualTo("kueue.x-k8s.io/v1beta2").isSameAs(b.getApiVersion());
        assertThat(a.getCRDName()).isEqualTo("workloads.kueue.x-k8s.io").isSameAs(b.getCRDName());
    }

    @Test
    void derivesTheEngineFormBeforeDroppingTheTemplate() {
        WorkloadStore store = new WorkloadStore();
        store.put("team-a/w1", parse("w1", "10", 5));
        WorkloadStore.Derived d = store.derived("team-a", "w1");
        assertThat(d.problem()).isNull();
        assertThat(d.resourceVersion()).isEqualTo("10");
        assertThat(d.spec().priority()).isEqualTo(5);
        assertThat(d.spec().podSets().get(0).count()).isEqualTo(2);
        assertThat(d.spec().podSets().get(0).requestsPerPod()).containsEntry("cpu", 500L);
    }

    @Test
    void anUpdateThatLeavesTheEngineFormAsItWasKeepsTheSameInstance() {
        WorkloadStore store = new WorkloadStore();
        store.put("team-a/w1", parse("w1", "10", 5));
        var first = store.derived("team-a", "w1").spec();

        store.put("team-a/w1", parse("w1", "11", 5)); // a status write: same spec
        assertThat(store.derived("team-a", "w1").resourceVersion()).isEqualTo("11");
        assertThat(store.derived("team-a", "w1").spec()).isSameAs(first);

        store.put("team-a/w1", parse("w1", "12", 7)); // the priority changed
        assertThat(store.derived("team-a", "w1").spec()).isNotSameAs(first);
        assertThat(store.derived("team-a", "w1").spec().priority()).isEqualTo(7);

        store.remove("team-a/w1");
        assertThat(store.derived("team-a", "w1")).isNull();
    }

    @Test
    void objectsShareTheirRepeatedStrings() {
        WorkloadStore store = new WorkloadStore();
        store.put("team-a/w1", parse("w1", "10", 5));
        store.put("team-a/w2", parse("w2", "20", 5));
        Workload a = store.get("team-a/w1");
        Workload b = store.get("team-a/w2");
        assertThat(a.getMetadata().getNamespace()).isSameAs(b.getMetadata().getNamespace());
        assertThat(a.getMetadata().getLabels().get("class")).isSameAs(b.getMetadata().getLabels().get("class"));
        assertThat(a.getSpec().getQueueName()).isSameAs(b.getSpec().getQueueName());
        var ca = a.getStatus().getConditions().get(1);
        var cb = b.getStatus().getConditions().get(1);
        assertThat(ca.getMessage()).isSameAs(cb.getMessage());
        assertThat(ca.getLastTransitionTime()).isSameAs(cb.getLastTransitionTime());
        var pa = a.getStatus().getAdmission().getPodSetAssignments().get(0);
        var pb = b.getStatus().getAdmission().getPodSetAssignments().get(0);
        assertThat(pa.getFlavors().get("cpu")).isSameAs(pb.getFlavors().get("cpu"));
        assertThat(pa.getResourceUsage().get("cpu").getAmount()).isSameAs(pb.getResourceUsage().get("cpu").getAmount());
        // the engine form refers to the same shared strings
        assertThat(store.derived("team-a", "w1").spec().queueName()).isSameAs(a.getSpec().getQueueName());
    }

    @Test
    void emptyUnknownFieldMapsAreOneSharedEmptyMapThatCannotBeChanged() {
        WorkloadStore store = new WorkloadStore();
        store.put("team-a/w1", parse("w1", "10", 5));
        store.put("team-a/w2", parse("w2", "20", 5));
        Workload a = store.get("team-a/w1");
        Workload b = store.get("team-a/w2");
        assertThat(a.getMetadata().getAdditionalProperties()).isEmpty();
        assertThat(a.getMetadata().getAdditionalProperties()).isSameAs(b.getMetadata().getAdditionalProperties());
        assertThat(a.getStatus().getConditions().get(0).getAdditionalProperties())
                .isSameAs(b.getStatus().getConditions().get(0).getAdditionalProperties());
        assertThatThrownBy(() -> a.getMetadata().setAdditionalProperty("x", 1))
                .isInstanceOf(UnsupportedOperationException.class);
        // a clone (what every write changes) is an ordinary object again
        Workload copy = Serialization.clone(a);
        copy.getMetadata().setAdditionalProperty("x", 1);
        copy.getMetadata().getLabels().put("more", "x");
        assertThat(a.getMetadata().getLabels()).doesNotContainKey("more");
    }
}
