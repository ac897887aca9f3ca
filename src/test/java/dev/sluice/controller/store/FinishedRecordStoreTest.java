package dev.sluice.controller.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.api.v1beta2.Workload;
import dev.sluice.controller.cache.ClusterCache;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.impl.cache.CacheImpl;
import io.fabric8.kubernetes.client.informers.impl.cache.ProcessorStore;
import io.fabric8.kubernetes.client.informers.impl.cache.SharedProcessor;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The Workload store as fabric8's informer uses it: its list of the store materialises a finished Workload when it is
 * read, not all of them at once, and a relist still drops the finished Workloads the API server no longer has (and
 * tells the handler, with the Workload), and updates the owner index with what the record was.
 */
class FinishedRecordStoreTest {

    private static final String UID = "0b5e1f2a-5d1e-4c7a-9f0e-000000100001";

    private static Workload finished(String name, String rv) {
        String json = """
                {"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "Workload",
                 "metadata": {"name": "%1$s", "namespace": "team-a", "uid": "%3$s", "resourceVersion": "%2$s",
                   "creationTimestamp": "2025-01-02T03:04:05Z", "generation": 1,
                   "ownerReferences": [{"apiVersion": "batch/v1", "kind": "Job", "name": "job-%1$s",
                     "uid": "6a1b2c3d-0000-4000-8000-00000000000%2$s", "controller": true}]},
                 "spec": {"queueName": "lq", "podSets": [{"name": "main", "count": 1}]},
                 "status": {"conditions": [{"type": "Finished", "status": "True", "reason": "Succeeded",
                   "message": "done", "lastTransitionTime": "2025-01-02T04:04:05Z", "observedGeneration": 1}],
                   "admission": {"clusterQueue": "cq", "podSetAssignments": [{"name": "main", "count": 1}]}}}
                """.formatted(name, rv, UID);
        return Serialization.unmarshal(json, Workload.class);
    }

    private static String summaryJson(Workload full) {
        Workload copy = Serialization.clone(full);
        StrippedItemStore.strip(copy);
        WorkloadStore.compact(copy);
        return Serialization.asJson(FinishedWorkloads.summary(copy));
    }

    @Test
    void theInformersListMaterialisesEachFinishedWorkloadWhenItIsRead() {
        WorkloadStore store = new WorkloadStore();
        CacheImpl<Workload> cache = new CacheImpl<>();
        cache.setItemStore(store);
        cache.put(finished("w1", "1"));
        assertThat(store.isRecord("team-a/w1")).isTrue();

        List<Workload> listed = cache.list(); // values().collect(Collectors.toList()), as the informer lists
        assertThat(listed).hasSize(1);
        assertThat(listed.get(0)).isNotSameAs(listed.get(0)); // made when read, not held by the list
        assertThat(Serialization.asJson(listed.get(0))).isEqualTo(summaryJson(finished("w1", "1")));
        assertThatThrownBy(() -> listed.add(finished("w2", "2"))).isInstanceOf(UnsupportedOperationException.class);
        // a caller that asks for an ArrayList gets one, and every other use of the stream is a plain stream's
        ArrayList<Workload> copy = store.values().collect(Collectors.toCollection(ArrayList::new));
        assertThat(copy).hasSize(1);
        assertThat(store.values().map(w -> w.getMetadata().getName()).collect(Collectors.toList())).containsExactly("w1");
        assertThat(store.values().count()).isEqualTo(1);
    }

    @Test
    void theNameIsTheKeysWhenTheKeyIsTheInformersAndKeptOtherwise() {
        WorkloadStore store = new WorkloadStore();
        store.put("team-a/w1", finished("w1", "1"));
        store.put("some other key", finished("w2", "2"));
        assertThat(store.isRecord("team-a/w1")).isTrue();
        assertThat(store.isRecord("some other key")).isTrue();
        assertThat(Serialization.asJson(store.get("team-a/w1"))).isEqualTo(summaryJson(finished("w1", "1")));
        assertThat(Serialization.asJson(store.get("some other key"))).isEqualTo(summaryJson(finished("w2", "2")));
    }

    @Test
    void theInitialListHandsEachWorkloadOnAsItIsPutNotAllOfThemAgainAtTheEnd() {
        WorkloadStore store = new WorkloadStore();
        CacheImpl<Workload> cache = new CacheImpl<>();
        cache.setItemStore(store);
        SharedProcessor<Workload> processor = new SharedProcessor<>(Runnable::run, "test");
        List<String> added = new ArrayList<>();
        processor.addProcessorListener(new ResourceEventHandler<>() {
            @Override
            public void onAdd(Workload obj) {
                added.add(obj.getMetadata().getName());
            }

            @Override
            public void onUpdate(Workload oldObj, Workload newObj) {
            }

            @Override
            public void onDelete(Workload obj, boolean unknown) {
            }
        }, 0, () -> List.of());
        ProcessorStore<Workload> informer = new ProcessorStore<>(cache, processor);
        informer.update(List.of(finished("w1", "1"), finished("w2", "2"))); // the initial list's page
        assertThat(added).containsExactly("w1", "w2"); // not deferred: nothing is read back after the list
        informer.retainAll(Set.of("team-a/w1", "team-a/w2"), executor -> {});
        assertThat(added).containsExactly("w1", "w2");
    }

    @Test
    void aRelistDropsTheFinishedWorkloadsTheApiServerNoLongerHas() {
        WorkloadStore store = new WorkloadStore();
        CacheImpl<Workload> cache = new CacheImpl<>();
        cache.setItemStore(store);
        cache.addIndexFunc(ClusterCache.BY_OWNER, ClusterCache::ownerKeys);
        SharedProcessor<Workload> processor = new SharedProcessor<>(Runnable::run, "test");
        List<String> deleted = new ArrayList<>();
        processor.addProcessorListener(new ResourceEventHandler<>() {
            @Override
            public void onAdd(Workload obj) {
            }

            @Override
            public void onUpdate(Workload oldObj, Workload newObj) {
            }

            @Override
            public void onDelete(Workload obj, boolean unknown) {
                deleted.add(obj.getMetadata().getName() + " " + obj.getMetadata().getUid() + " " + unknown);
            }
        }, 0, () -> List.of());
        ProcessorStore<Workload> informer = new ProcessorStore<>(cache, processor);
        informer.update(List.of(finished("w1", "1"), finished("w2", "2"), finished("w3", "3")));
        informer.retainAll(Set.of("team-a/w1", "team-a/w2", "team-a/w3"), executor -> {}); // the initial list
        assertThat(deleted).isEmpty();
        assertThat(cache.byIndex(ClusterCache.BY_OWNER, "Job.batch/team-a/job-w2")).hasSize(1);

        informer.update(List.of(finished("w1", "1"), finished("w3", "4"))); // a relist: w2 was deleted meanwhile
        informer.retainAll(Set.of("team-a/w1", "team-a/w3"), executor -> {});

        assertThat(deleted).containsExactly("w2 " + UID + " true");
        assertThat(cache.listKeys()).containsExactlyInAnyOrder("team-a/w1", "team-a/w3");
        assertThat(cache.byIndex(ClusterCache.BY_OWNER, "Job.batch/team-a/job-w2")).isEmpty();
        assertThat(cache.byIndex(ClusterCache.BY_OWNER, "Job.batch/team-a/job-w3")).singleElement()
                .extracting(w -> w.getMetadata().getResourceVersion()).isEqualTo("4");
        assertThat(store.isRecord("team-a/w3")).isTrue();
        assertThat(Map.of("w1", Serialization.asJson(store.get("team-a/w1"))))
                .containsEntry("w1", summaryJson(finished("w1", "1")));
    }
}
