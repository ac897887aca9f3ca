package dev.sluice.visibility;

import dev.sluice.api.v1beta2.Workload;
import dev.sluice.controller.LiveState;
import dev.sluice.engine.Engine;
import dev.sluice.engine.LocalQueueStatus;
import dev.sluice.engine.WorkloadKey;
import dev.sluice.engine.WorkloadState;
import io.fabric8.kubernetes.api.model.OwnerReference;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Builds Kueue's PendingWorkloadsSummary from the engine's own queue order. Runs on the engine thread (through
 * {@code ControllerRuntime.read}) and copies out plain maps, so the answer is serialised elsewhere.
 */
final class PendingSummaries {

    /** The summary's body, or the failure to answer with. */
    record Answer(Map<String, Object> body, ApiStatus failure) {
    }

    private PendingSummaries() {
    }

    static Answer read(LiveState state, PendingQuery q, Annotator annotator) {
        return read(state.engine(), state::workload, q, annotator);
    }

    /**
     * @param engine the live engine (on its thread) or a copy
     * @param cached the Workload object of a key (for owner references and the creation time)
     */
    static Answer read(Engine engine, Function<WorkloadKey, Optional<Workload>> cached, PendingQuery q,
            Annotator annotator) {
        String clusterQueue = q.queue();
        if (q.localQueue()) {
            LocalQueueStatus lq = engine.localQueueStatus(q.namespace(), q.queue());
            if (lq == null) {
                return new Answer(null, ApiStatus.notFound("localqueue", q.queue()));
            }
            clusterQueue = lq.clusterQueue();
        }
        List<WorkloadKey> order = engine.pendingOrder(clusterQueue);
        if (order == null) {
            if (q.localQueue()) {
                return new Answer(summary(q.version(), List.of()), null); // the LocalQueue waits for its ClusterQueue
            }
            return new Answer(null, ApiStatus.notFound("clusterqueue", q.queue()));
        }
        Function<WorkloadKey, String> localQueueOf = k -> engine.workload(k)
                .map(w -> w.spec().queueName()).orElse("");
        List<PendingPage.Entry> page = q.localQueue()
                ? PendingPage.ofLocalQueue(order, localQueueOf, q.namespace(), q.queue(), q.offset(), q.limit())
                : PendingPage.ofClusterQueue(order, localQueueOf, q.offset(), q.limit());
        List<Map<String, Object>> items = new ArrayList<>(page.size());
        for (PendingPage.Entry e : page) {
            Optional<WorkloadState> w = engine.workload(e.key());
            if (w.isEmpty()) {
                continue; // cannot happen between two engine passes; never fail a read for it
            }
            items.add(item(e, w.get(), cached.apply(e.key()), annotator.annotations(e.key(), clusterQueue)));
        }
        return new Answer(summary(q.version(), items), null);
    }

    /** Extra annotations on an item (the forecast); none by default. */
    interface Annotator {
        Annotator NONE = (key, clusterQueue) -> Map.of();

        Map<String, String> annotations(WorkloadKey key, String clusterQueue);
    }

    static Map<String, Object> summary(String version, List<Map<String, Object>> items) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("kind", "PendingWorkloadsSummary");
        m.put("apiVersion", VisibilityPaths.GROUP + "/" + version);
        m.put("metadata", Map.of());
        m.put("items", items);
        return m;
    }

    private static Map<String, Object> item(PendingPage.Entry e, WorkloadState w, Optional<Workload> cached,
            Map<String, String> annotations) {
        Map<String, Object> meta = new LinkedHashMap<>();
        meta.put("name", e.key().name());
        meta.put("namespace", e.key().namespace());
        meta.put("creationTimestamp", cached.map(c -> c.getMetadata().getCreationTimestamp())
                .orElseGet(() -> Instant.ofEpochMilli(w.spec().creationTimeMillis()).toString()));
        if (!annotations.isEmpty()) {
            meta.put("annotations", annotations);
        }
        List<Map<String, Object>> owners = new ArrayList<>();
        cached.map(c -> c.getMetadata().getOwnerReferences()).orElse(List.of()).forEach(o -> owners.add(owner(o)));
        if (!owners.isEmpty()) {
            meta.put("ownerReferences", owners);
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("metadata", meta);
        m.put("priority", w.spec().priority());
        m.put("localQueueName", w.spec().queueName());
        m.put("positionInClusterQueue", e.positionInClusterQueue());
        m.put("positionInLocalQueue", e.positionInLocalQueue());
        return m;
    }

    private static Map<String, Object> owner(OwnerReference o) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("apiVersion", o.getApiVersion());
        m.put("kind", o.getKind());
        m.put("name", o.getName());
        m.put("uid", o.getUid());
        return m;
    }
}
