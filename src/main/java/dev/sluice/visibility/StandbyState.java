package dev.sluice.visibility;

import dev.sluice.api.v1beta2.ClusterQueue;
import dev.sluice.api.v1beta2.Cohort;
import dev.sluice.api.v1beta2.LocalQueue;
import dev.sluice.api.v1beta2.ResourceFlavor;
import dev.sluice.api.v1beta2.Workload;
import dev.sluice.bridge.EngineRebuild;
import dev.sluice.bridge.EngineWorkloads;
import dev.sluice.engine.AdmissionFairSharing;
import dev.sluice.engine.Engine;
import dev.sluice.engine.FairSharing;
import dev.sluice.engine.WorkloadKey;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesResourceList;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.MixedOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * How a replica that does not lead answers: it holds no engine, so it builds one from the cluster exactly as it
 * would on becoming leader (queue objects, recorded admissions counted, waiting Workloads queued) and reads the
 * order there, with the leader's fair-sharing settings, the Cohort objects and each LocalQueue's recorded usage
 * (status.fairSharing.admissionFairSharingStatus). Rebuilt at most every few seconds. Chosen over forwarding to the leader: no peer addresses, no second
 * authentication hop, and the answer is the order a new leader would use after a failover. It can differ from the
 * leader's live order only for workloads requeued after an eviction (the leader orders them by eviction time, a
 * rebuilt engine by creation time) and by what happened in the last seconds.
 */
final class StandbyState {
    private static final long MAX_AGE_MS = 5_000;
    private static final long PAGE = 500;

    /** One rebuilt engine and the Workloads it was built from. */
    record Snapshot(Engine engine, Map<WorkloadKey, Workload> workloads, long builtAtMillis) {
        Optional<Workload> workload(WorkloadKey key) {
            return Optional.ofNullable(workloads.get(key));
        }
    }

    private final KubernetesClient client;
    private final Supplier<FairSharing> fairSharing;
    private final Supplier<AdmissionFairSharing> admissionFairSharing;
    private Snapshot snapshot;

    /** The settings are the leader's (the same configuration): a copy with other settings would answer otherwise. */
    StandbyState(KubernetesClient client, Supplier<FairSharing> fairSharing,
            Supplier<AdmissionFairSharing> admissionFairSharing) {
        this.client = client;
        this.fairSharing = fairSharing;
        this.admissionFairSharing = admissionFairSharing;
    }

    synchronized Snapshot current() {
        long now = System.currentTimeMillis();
        if (snapshot == null || now - snapshot.builtAtMillis() > MAX_AGE_MS) {
            List<Workload> workloads = list(client.resources(Workload.class));
            Map<WorkloadKey, Workload> byKey = new HashMap<>();
            workloads.forEach(w -> byKey.put(EngineWorkloads.key(w), w));
            Engine e = EngineRebuild.build(fairSharing.get(), admissionFairSharing.get(),
                    list(client.resources(ResourceFlavor.class)), list(client.resources(Cohort.class)),
                    list(client.resources(ClusterQueue.class)), list(client.resources(LocalQueue.class)),
                    client.namespaces().list().getItems(), workloads, EngineRebuild::fromTemplates);
            snapshot = new Snapshot(e, byKey, now);
        }
        return snapshot;
    }

    /** Every object, in pages (a large cluster's Workloads in one answer would be one huge allocation). */
    private static <T extends HasMetadata, L extends KubernetesResourceList<T>> List<T> list(
            MixedOperation<T, L, Resource<T>> op) {
        List<T> out = new ArrayList<>();
        String next = null;
        do {
            L page = op.inAnyNamespace().list(new ListOptionsBuilder().withLimit(PAGE).withContinue(next).build());
            out.addAll(page.getItems());
            next = page.getMetadata() == null ? null : page.getMetadata().getContinue();
        } while (next != null && !next.isEmpty());
        return out;
    }
}
