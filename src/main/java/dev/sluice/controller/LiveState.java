package dev.sluice.controller;

import dev.sluice.api.v1beta2.Workload;
import dev.sluice.controller.cache.ClusterCache;
import dev.sluice.controller.session.FinishedRuns;
import dev.sluice.controller.session.Session;
import dev.sluice.controller.store.WorkloadStore;
import dev.sluice.engine.Engine;
import dev.sluice.engine.WorkloadKey;
import java.util.Optional;

/**
 * What a reader (visibility API, forecast, dashboard) may look at, on the engine thread only and only for the
 * duration of one {@link ControllerRuntime#read} call: the live engine and the cached Workloads. Readers must not
 * change either; they copy what they need out.
 */
public final class LiveState {
    private final Session session;

    LiveState(Session session) {
        this.session = session;
    }

    public Engine engine() {
        return session.engine;
    }

    /** The cached Workload (its pod sets only in the engine form, see {@link #spec}), if any. */
    public Optional<Workload> workload(WorkloadKey key) {
        return Optional.ofNullable(session.cache.workloads.getStore().getByKey(key.namespace() + "/" + key.name()));
    }

    /**
     * Every cached Workload that has not finished (pod sets only in the engine form; see {@link #spec}); finished
     * ones are history, told once each by {@link #takeFinishedRuns}.
     */
    public java.util.List<Workload> unfinishedWorkloads() {
        return session.cache.workloadStore.unfinished();
    }

    /** The runs of Workloads that finished since the last call (and, the first time, those stored before start). */
    public void takeFinishedRuns(java.util.function.Consumer<FinishedRuns.Run> to) {
        session.finishedRuns.drain(to);
    }

    /** The engine form of a cached Workload, null when it cannot be queued. */
    public dev.sluice.engine.WorkloadSpec spec(Workload wl) {
        WorkloadStore.Derived d = session.cache.workloadStore.derived(wl.getMetadata().getNamespace(),
                wl.getMetadata().getName());
        return d == null ? null : d.spec();
    }

    /** Topology-aware scheduling's view of Topologies, Nodes and pods (read-only: whether it runs, how often it changed). */
    public dev.sluice.controller.cache.NodeView nodeView() {
        return session.cache.nodeView;
    }

    public java.util.List<dev.sluice.api.v1beta2.ResourceFlavor> flavors() {
        return session.cache.list(session.cache.flavors);
    }

    public java.util.List<dev.sluice.api.v1beta2.ClusterQueue> clusterQueues() {
        return session.cache.list(session.cache.clusterQueues);
    }

    public java.util.List<dev.sluice.api.v1beta2.LocalQueue> localQueues() {
        return session.cache.list(session.cache.localQueues);
    }

    public java.util.List<io.fabric8.kubernetes.api.model.Namespace> namespaces() {
        return session.cache.list(session.cache.namespaces);
    }

    /** The cached job that owns a Workload (of a kind switched on), if any. */
    public Optional<io.fabric8.kubernetes.api.model.GenericKubernetesResource> ownerJob(Workload wl) {
        if (wl.getMetadata().getOwnerReferences() == null) {
            return Optional.empty();
        }
        for (var o : wl.getMetadata().getOwnerReferences()) {
            var kind = session.kinds.forApiVersionKind(o.getApiVersion(), o.getKind());
            if (kind.isPresent() && session.cache.jobs.get(kind.get()) != null) {
                var job = ClusterCache.get(session.cache.jobs.get(kind.get()), wl.getMetadata().getNamespace(), o.getName());
                if (job != null) {
                    return Optional.of(job);
                }
            }
        }
        return Optional.empty();
    }

    public java.util.List<dev.sluice.api.v1beta2.Cohort> cohorts() {
        return session.cache.list(session.cache.cohorts);
    }

    /** The leader's fair-sharing settings, for engine copies that must decide as it does. */
    public dev.sluice.engine.FairSharing fairSharing() {
        return session.fairSharing;
    }

    /** The leader's admission-fair-sharing settings, for engine copies that must order as it does. */
    public dev.sluice.engine.AdmissionFairSharing admissionFairSharing() {
        return session.admissionFairSharing;
    }

    /** Milliseconds of the controller's clock. */
    public long nowMillis() {
        return session.nowMillis();
    }
}
