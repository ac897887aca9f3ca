package dev.sluice.controller;

import dev.sluice.api.v1beta1.PodSet;
import dev.sluice.api.v1beta1.Workload;
import dev.sluice.bridge.EngineWorkloads;
import dev.sluice.bridge.InvalidObjectException;
import dev.sluice.engine.WorkloadSpec;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The Workload cache keeps what decisions read and nothing more: as each Workload arrives its pod sets are turned
 * into the engine's compact form (demand per pod, placement constraints), then the pod templates are dropped from
 * the cached object. The rare reader of a template (restoring a stopped job) reads the Workload from the API server.
 */
final class WorkloadStore extends StrippedItemStore<Workload> {

    /** The engine's view of one Workload version, or why it cannot be queued. */
    record Derived(String resourceVersion, WorkloadSpec spec, String problem) {
    }

    private final Map<String, Derived> derived = new ConcurrentHashMap<>();

    @Override
    public Workload put(String key, Workload wl) {
        String invalidJob = InvalidJobWorkloads.problem(wl);
        Derived d = invalidJob != null
                ? new Derived(wl.getMetadata().getResourceVersion(), null, invalidJob) // never queued: see InvalidJobWorkloads
                : derive(wl);
        derived.put(key, d);
        if (wl.getSpec() != null && wl.getSpec().getPodSets() != null) {
            for (PodSet ps : wl.getSpec().getPodSets()) {
                ps.setTemplate(null);
            }
        }
        return super.put(key, wl);
    }

    private static Derived derive(Workload wl) {
        try {
            return new Derived(wl.getMetadata().getResourceVersion(),
                    EngineWorkloads.toEngine(wl, EngineWorkloads.createdMillis(wl)), null);
        } catch (InvalidObjectException | IllegalArgumentException e) {
            return new Derived(wl.getMetadata().getResourceVersion(), null, e.getMessage());
        }
    }

    @Override
    public Workload remove(String key) {
        derived.remove(key);
        return super.remove(key);
    }

    Derived derived(String namespace, String name) {
        return derived.get(Cache.namespaceKeyFunc(namespace, name));
    }
}
