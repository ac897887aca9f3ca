package dev.sluice.controller;

import dev.sluice.api.v1beta2.Admission;
import dev.sluice.api.v1beta2.PodSet;
import dev.sluice.api.v1beta2.PodSetAssignment;
import dev.sluice.api.v1beta2.Workload;
import dev.sluice.api.v1beta2.WorkloadSpec;
import dev.sluice.api.v1beta2.WorkloadStatus;
import dev.sluice.bridge.EngineWorkloads;
import dev.sluice.bridge.InvalidObjectException;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The Workload cache keeps what decisions read and nothing more: as each Workload arrives its pod sets are turned
 * into the engine's compact form (demand per pod, placement constraints), then the pod templates are dropped from
 * the cached object. The rare reader of a template (restoring a stopped job) reads the Workload from the API server.
 * A finished Workload is kept smaller still, see {@link FinishedWorkloads}. What stays is compacted (shared strings, exact-size maps), and an update that leaves the engine form as it was keeps
 * the earlier instance, so the cache and the engine hold one copy of it.
 */
final class WorkloadStore extends StrippedItemStore<Workload> {

    /** The engine's view of one Workload version, or why it cannot be queued. */
    record Derived(String resourceVersion, dev.sluice.engine.WorkloadSpec spec, String problem) {
    }

    private final Map<String, Derived> derived = new ConcurrentHashMap<>();

    /**
     * A finished Workload is kept as its {@linkplain FinishedWorkloads#summary summary}, without an engine form: it
     * holds no quota and is never queued again. Any other Workload is kept without its pod templates.
     */
    @Override
    Workload toStored(String key, Workload wl) {
        compact(wl); // first, so that the engine form and the summary refer to the shared strings
        if (FinishedWorkloads.isFinished(wl)) {
            derived.remove(key);
            return FinishedWorkloads.summary(wl);
        }
        derive(key, wl);
        return wl;
    }

    private void derive(String key, Workload wl) {
        String invalidJob = InvalidJobWorkloads.problem(wl);
        Derived d = invalidJob != null
                ? new Derived(wl.getMetadata().getResourceVersion(), null, invalidJob) // never queued: see InvalidJobWorkloads
                : derive(wl);
        Derived before = derived.get(key);
        if (before != null && d.spec() != null && d.spec().equals(before.spec())) {
            // most updates are status writes: keep the one engine form the engine already holds, not an equal copy
            d = new Derived(d.resourceVersion(), before.spec(), null);
        }
        derived.put(key, d);
        if (wl.getSpec() != null && wl.getSpec().getPodSets() != null) {
            for (PodSet ps : wl.getSpec().getPodSets()) {
                ps.setTemplate(null);
            }
        }
    }

    /** Spec and status with shared strings and exact-size maps (see {@link Compact}); the base did the metadata. */
    static void compact(Workload wl) {
        WorkloadSpec spec = wl.getSpec();
        if (spec != null) {
            spec.setQueueName(Compact.shared(spec.getQueueName()));
            if (spec.getPriorityClassRef() != null) {
                var ref = spec.getPriorityClassRef();
                ref.setGroup(Compact.shared(ref.getGroup()));
                ref.setKind(Compact.shared(ref.getKind()));
                ref.setName(Compact.shared(ref.getName()));
            }
            if (spec.getPodSets() != null) {
                spec.getPodSets().forEach(ps -> ps.setName(Compact.shared(ps.getName())));
            }
        }
        WorkloadStatus status = wl.getStatus();
        if (status == null) {
            return;
        }
        Compact.conditions(status.getConditions());
        Admission admission = status.getAdmission();
        if (admission != null) {
            admission.setClusterQueue(Compact.shared(admission.getClusterQueue()));
            if (admission.getPodSetAssignments() != null) {
                for (PodSetAssignment a : admission.getPodSetAssignments()) {
                    a.setName(Compact.shared(a.getName()));
                    a.setFlavors(Compact.map(a.getFlavors(), Compact::shared));
                    a.setResourceUsage(Compact.map(a.getResourceUsage(), Compact::quantity));
                }
            }
        }
        if (status.getRequeueState() != null) {
            status.getRequeueState().setRequeueAt(Compact.shared(status.getRequeueState().getRequeueAt()));
        }
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
