package dev.sluice.controller.queues;

import dev.sluice.api.v1beta2.ClusterQueue;
import dev.sluice.api.v1beta2.ClusterQueueStatus;
import dev.sluice.api.v1beta2.FlavorUsage;
import dev.sluice.api.v1beta2.LocalQueue;
import dev.sluice.api.v1beta2.LocalQueueFlavorUsage;
import dev.sluice.api.v1beta2.LocalQueueResourceUsage;
import dev.sluice.api.v1beta2.LocalQueueStatus;
import dev.sluice.api.v1beta2.ResourceUsage;
import dev.sluice.bridge.InvalidObjectException;
import dev.sluice.bridge.Quantities;
import dev.sluice.bridge.QueueObjects;
import dev.sluice.controller.cache.ClusterCache;
import dev.sluice.controller.conditions.Conditions;
import dev.sluice.controller.session.Session;
import dev.sluice.engine.ClusterQueueSpec;
import dev.sluice.engine.FlavorQuotas;
import dev.sluice.engine.FlavorResource;
import dev.sluice.engine.ResourceGroupSpec;
import dev.sluice.engine.ResourceQuota;
import dev.sluice.metrics.AdmissionEvents;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.jboss.logging.Logger;

/**
 * ClusterQueue and LocalQueue status from the engine's counts and usage, written only when it differs from what the
 * object shows (conditions keep their lastTransitionTime); and the same figures for the meters. A queue whose engine
 * figures and cached object are both as at the last pass is skipped without building its status; the writes go to
 * the lanes, where a newer status for the same queue replaces one not yet written.
 */
public final class QueueStatusSync {

    private static final Logger LOG = Logger.getLogger(QueueStatusSync.class);

    private final Session s;
    private List<AdmissionEvents.ClusterQueueMetrics> lastSnapshot;
    private Map<String, Long> lastShares = Map.of();
    private List<AdmissionEvents.LocalQueueFairSharingUsage> lastAfsUsage = List.of();
    /** kueue_local_queue_* and kueue_cohort_subtree_* gauges, at a bounded rate. */
    private final QueueMetricsSnapshots localAndCohortMetrics = new QueueMetricsSnapshots();
    /** Per queue, what the last pass saw: the engine's figures and the cached object's resourceVersion. */
    private final Map<String, Seen> seen = new ConcurrentHashMap<>();
    /** Per ClusterQueue, its quotas in spec order, parsed once per version of the object. */
    private final Map<String, Quotas> quotaCache = new HashMap<>();

    private record Seen(Object engineStatus, String resourceVersion) {
    }

    private record Quotas(ClusterQueue from, List<FlavorQuota> list) {
    }

    public QueueStatusSync(Session session) {
        this.s = session;
    }

    public void sync() {
        List<AdmissionEvents.ClusterQueueMetrics> snapshot = new ArrayList<>();
        Set<String> present = new HashSet<>();
        Set<String> clusterQueueNames = new HashSet<>();
        Map<String, Long> shares = new TreeMap<>();
        for (ClusterQueue cq : s.cache.list(s.cache.clusterQueues)) {
            String name = cq.getMetadata().getName();
            clusterQueueNames.add(name);
            present.add("cq/" + name);
            var status = s.engine.clusterQueueStatus(name);
            if (status == null) {
                continue;
            }
            List<FlavorQuota> quotas = quotas(cq);
            snapshot.add(metrics(status, quotas));
            // a share depends on the siblings too (what the cohort can lend), so it is part of what was seen
            Long share = s.fairSharing.enabled() ? s.engine.clusterQueueWeightedShare(name).orElse(0) : null;
            if (share != null) {
                shares.put(name, share);
            }
            String key = "cq/" + name;
            if (unchanged(key, share == null ? status : List.of(status, share), cq)) {
                continue;
            }
            ClusterQueueStatus next = Serialization.clone(cq.getStatus() == null ? new ClusterQueueStatus() : cq.getStatus());
            next.setPendingWorkloads(status.pendingWorkloads());
            next.setReservingWorkloads(status.reservingWorkloads());
            next.setAdmittedWorkloads(status.admittedWorkloads());
            next.setFlavorsReservation(flavorUsage(quotas, status.flavorsReservation()));
            next.setFlavorsUsage(flavorUsage(quotas, status.flavorsUsage()));
            next.setConditions(Conditions.set(next.getConditions(), "Active", status.active(), status.reason(),
                    status.message(), cq.getMetadata().getGeneration(), s.now()));
            next.setFairSharing(CohortStatusSync.fairSharing(share)); // Kueue clears it while fair sharing is off
            ClusterQueue copy = Serialization.clone(cq);
            copy.setStatus(next);
            write(key, cq, () -> s.writes.queueStatus(cq, copy, cq.getStatus(), next));
        }
        Map<String, dev.sluice.engine.LocalQueueStatus> local = s.engine.localQueueStatuses();
        List<AdmissionEvents.LocalQueueFairSharingUsage> afsUsage = new ArrayList<>();
        for (LocalQueue lq : s.cache.list(s.cache.localQueues)) {
            var status = local.get(lq.getMetadata().getNamespace() + "/" + lq.getMetadata().getName());
            if (status == null) {
                continue;
            }
            String key = "lq/" + lq.getMetadata().getNamespace() + "/" + lq.getMetadata().getName();
            present.add(key);
            LocalQueueFairSharingStatuses.usage(s, lq, status.clusterQueue()).ifPresent(afsUsage::add);
            if (unchanged(key, java.util.Arrays.asList(status, LocalQueueFairSharingStatuses.books(s, lq)), lq)) {
                continue;
            }
            var afs = LocalQueueFairSharingStatuses.of(s, lq);
            ClusterQueue cq = status.clusterQueue() == null ? null
                    : ClusterCache.get(s.cache.clusterQueues, null, status.clusterQueue());
            List<FlavorQuota> quotas = cq == null ? List.of() : quotas(cq);
            LocalQueueStatus next = Serialization.clone(lq.getStatus() == null ? new LocalQueueStatus() : lq.getStatus());
            next.setPendingWorkloads(status.pendingWorkloads());
            next.setReservingWorkloads(status.reservingWorkloads());
            next.setAdmittedWorkloads(status.admittedWorkloads());
            next.setFlavorsReservation(localUsage(quotas, status.flavorsReservation()));
            next.setFlavorsUsage(localUsage(quotas, status.flavorUsage()));
            if (s.admissionFairSharing.enabled()) {
                next.setFairSharing(afs);
            } // off: as Kueue v0.19, what an earlier run recorded stays, and is resumed from when switched on again
            String message = switch (status.reason()) {
                case "ClusterQueueDoesNotExist" -> "Can't submit new workloads to clusterQueue: ClusterQueue "
                        + status.clusterQueue() + " doesn't exist";
                case "ClusterQueueIsInactive" -> "Can't submit new workloads to clusterQueue: ClusterQueue "
                        + status.clusterQueue() + " is inactive";
                default -> status.message();
            };
            next.setConditions(Conditions.set(next.getConditions(), "Active", status.active(), status.reason(), message,
                    lq.getMetadata().getGeneration(), s.now()));
            LocalQueue copy = Serialization.clone(lq);
            copy.setStatus(next);
            write(key, lq, () -> s.writes.queueStatus(lq, copy, lq.getStatus(), next));
        }
        // a deleted queue's books go with it
        seen.keySet().retainAll(present);
        quotaCache.keySet().retainAll(clusterQueueNames);
        snapshot.sort(java.util.Comparator.comparing(AdmissionEvents.ClusterQueueMetrics::name));
        if (!snapshot.equals(lastSnapshot)) {
            lastSnapshot = snapshot;
            s.metrics.queuesChanged(snapshot);
        }
        if (!shares.equals(lastShares)) {
            lastShares = shares;
            s.metrics.clusterQueueSharesChanged(CohortStatusSync.gaugeValues(shares));
        }
        localAndCohortMetrics.publish(s.engine, local, snapshot, s.metrics);
        if (s.admissionFairSharing.enabled() && !afsUsage.equals(lastAfsUsage)) {
            lastAfsUsage = afsUsage;
            s.metrics.localQueueAdmissionFairSharingUsageChanged(afsUsage);
        }
    }

    /** True when neither the engine's figures nor the cached object changed since the last pass. */
    private boolean unchanged(String key, Object engineStatus, io.fabric8.kubernetes.api.model.HasMetadata cached) {
        Seen now = new Seen(engineStatus, cached.getMetadata().getResourceVersion());
        return now.equals(seen.put(key, now));
    }

    private void write(String key, io.fabric8.kubernetes.api.model.HasMetadata queue, Runnable write) {
        s.lanes.latest(key, () -> {
            try {
                write.run();
            } catch (KubernetesClientException e) {
                seen.remove(key); // not written: the next pass builds it again
                s.failures.failed(queue, key.startsWith("cq/") ? "clusterqueues/status" : "localqueues/status",
                        "patch", "write the status of " + queue.getKind() + " " + queue.getMetadata().getName(), e);
            }
        });
    }

    /** One flavor/resource quota of a ClusterQueue, in spec order. */
    private record FlavorQuota(String flavor, ResourceQuota quota) {
    }

    private List<FlavorQuota> quotas(ClusterQueue cq) {
        Quotas known = quotaCache.get(cq.getMetadata().getName());
        if (known != null && known.from() == cq) {
            return known.list();
        }
        List<FlavorQuota> list = parseQuotas(cq);
        quotaCache.put(cq.getMetadata().getName(), new Quotas(cq, list));
        return list;
    }

    private static List<FlavorQuota> parseQuotas(ClusterQueue cq) {
        ClusterQueueSpec spec;
        try {
            spec = QueueObjects.clusterQueue(cq);
        } catch (InvalidObjectException | IllegalArgumentException e) {
            return List.of();
        }
        List<FlavorQuota> out = new ArrayList<>();
        for (ResourceGroupSpec rg : spec.resourceGroups()) {
            for (FlavorQuotas fq : rg.flavors()) {
                for (ResourceQuota rq : fq.resources()) {
                    out.add(new FlavorQuota(fq.flavor(), rq));
                }
            }
        }
        return out;
    }

    private static List<FlavorUsage> flavorUsage(List<FlavorQuota> quotas, Map<FlavorResource, Long> used) {
        Map<String, FlavorUsage> byFlavor = new LinkedHashMap<>();
        for (FlavorQuota q : quotas) {
            FlavorUsage fu = byFlavor.computeIfAbsent(q.flavor(), f -> {
                FlavorUsage u = new FlavorUsage();
                u.setName(f);
                u.setResources(new ArrayList<>());
                return u;
            });
            long total = used.getOrDefault(new FlavorResource(q.flavor(), q.quota().resource()), 0L);
            ResourceUsage ru = new ResourceUsage();
            ru.setName(q.quota().resource());
            ru.setTotal(Quantities.of(total));
            ru.setBorrowed(Quantities.of(Math.max(0, total - q.quota().nominal())));
            fu.getResources().add(ru);
        }
        return new ArrayList<>(byFlavor.values());
    }

    private static List<LocalQueueFlavorUsage> localUsage(List<FlavorQuota> quotas, Map<FlavorResource, Long> used) {
        Map<String, LocalQueueFlavorUsage> byFlavor = new LinkedHashMap<>();
        for (FlavorQuota q : quotas) {
            LocalQueueFlavorUsage fu = byFlavor.computeIfAbsent(q.flavor(), f -> {
                LocalQueueFlavorUsage u = new LocalQueueFlavorUsage();
                u.setName(f);
                u.setResources(new ArrayList<>());
                return u;
            });
            LocalQueueResourceUsage ru = new LocalQueueResourceUsage();
            ru.setName(q.quota().resource());
            ru.setTotal(Quantities.of(used.getOrDefault(new FlavorResource(q.flavor(), q.quota().resource()), 0L)));
            fu.getResources().add(ru);
        }
        return new ArrayList<>(byFlavor.values());
    }

    private static AdmissionEvents.ClusterQueueMetrics metrics(dev.sluice.engine.ClusterQueueStatus status,
            List<FlavorQuota> quotas) {
        List<AdmissionEvents.ResourceMetrics> resources = new ArrayList<>();
        Map<FlavorResource, Long> reserved = new TreeMap<>(status.flavorsReservation());
        for (FlavorQuota q : quotas) {
            FlavorResource fr = new FlavorResource(q.flavor(), q.quota().resource());
            resources.add(new AdmissionEvents.ResourceMetrics(q.flavor(), q.quota().resource(), q.quota().nominal(),
                    q.quota().borrowingLimit(), q.quota().lendingLimit(), reserved.getOrDefault(fr, 0L),
                    status.flavorsUsage().getOrDefault(fr, 0L)));
        }
        return new AdmissionEvents.ClusterQueueMetrics(status.name(), status.cohort(), status.active(),
                status.pendingWorkloads() - status.inadmissibleWorkloads(), status.inadmissibleWorkloads(),
                status.reservingWorkloads(), status.admittedWorkloads(), resources);
    }
}
