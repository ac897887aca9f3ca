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
import io.fabric8.kubernetes.client.KubernetesClientException;
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
 * rebuilt engine by creation time) and by what happened in the last seconds. One per process: the visibility API and
 * the dashboard read the same copy.
 */
@jakarta.inject.Singleton
public final class StandbyState {
    private static final long MAX_AGE_MS = 5_000;
    private static final long PAGE = 500;

    /** One rebuilt engine and the Workloads and ClusterQueues it was built from. */
    public record Snapshot(Engine engine, Map<WorkloadKey, Workload> workloads, List<ClusterQueue> clusterQueues,
            long builtAtMillis) {
        public Optional<Workload> workload(WorkloadKey key) {
            return Optional.ofNullable(workloads.get(key));
        }
    }

    private final KubernetesClient client;
    private final Supplier<FairSharing> fairSharing;
    private final Supplier<AdmissionFairSharing> admissionFairSharing;
    private Snapshot snapshot;

    /** The leader's settings, from the same configuration: a copy with other settings would answer otherwise. */
    @jakarta.inject.Inject
    public StandbyState(KubernetesClient client, dev.sluice.controller.ControllerRuntime runtime) {
        this(client, runtime::fairSharingSettings, runtime::admissionFairSharingSettings);
    }

    StandbyState(KubernetesClient client, Supplier<FairSharing> fairSharing,
            Supplier<AdmissionFairSharing> admissionFairSharing) {
        this.client = client;
        this.fairSharing = fairSharing;
        this.admissionFairSharing = admissionFairSharing;
    }

    /** The engine as a new leader would rebuild it now (at most a few seconds old); shared by its readers. */
    public synchronized Snapshot current() {
        long now = System.currentTimeMillis();
        if (snapshot == null || now - snapshot.builtAtMillis() > MAX_AGE_MS) {
            List<Workload> workloads = list(client.resources(Workload.class));
            Map<WorkloadKey, Workload> byKey = new HashMap<>();
            workloads.forEach(w -> byKey.put(EngineWorkloads.key(w), w));
            List<ClusterQueue> clusterQueues = list(client.resources(ClusterQueue.class));
            Engine e = EngineRebuild.build(fairSharing.get(), admissionFairSharing.get(),
                    list(client.resources(ResourceFlavor.class)),
                    list(client.resources(dev.sluice.api.v1beta2.AdmissionCheck.class)), cohorts(),
                    clusterQueues, list(client.resources(LocalQueue.class)),
                    client.namespaces().list().getItems(), workloads, EngineRebuild::fromTemplates);
            snapshot = new Snapshot(e, byKey, List.copyOf(clusterQueues), now);
        }
        return snapshot;
    }

    /** The Cohort objects; none where the Cohort CRD is not installed (the live controller then has none either). */
    private List<Cohort> cohorts() {
        try {
            return list(client.resources(Cohort.class));
        } catch (KubernetesClientException e) {
            if (e.getCode() == 404) {
                return List.of();
            }
            throw e;
        }
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
