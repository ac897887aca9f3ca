package dev.sluice.controller.queues;

import dev.sluice.controller.conditions.WorkloadConditions;
import dev.sluice.engine.CohortStatus;
import dev.sluice.engine.Engine;
import dev.sluice.engine.FlavorResource;
import dev.sluice.engine.LocalQueueStatus;
import dev.sluice.engine.WorkloadKey;
import dev.sluice.metrics.AdmissionEvents.ClusterQueueMetrics;
import dev.sluice.metrics.AdmissionEvents.CohortMetrics;
import dev.sluice.metrics.AdmissionEvents.CohortResourceMetrics;
import dev.sluice.metrics.AdmissionEvents.LocalQueueMetrics;
import dev.sluice.metrics.AdmissionEvents.LocalResourceMetrics;
import dev.sluice.metrics.AdmissionEvents.ResourceMetrics;
import dev.sluice.metrics.AdmissionEvents.UnadmittedMetrics;
import dev.sluice.metrics.AdmissionEvents;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The LocalQueue and cohort gauges' snapshots, rebuilt after a queue status pass only when the ClusterQueue snapshot
 * or the LocalQueue statuses changed (whatever moves a LocalQueue's or a cohort's figures moves one of them; counting
 * the parked workloads of each LocalQueue walks the pending lists, so not on every pass), and handed to the meters
 * only when they changed.
 */
final class QueueMetricsSnapshots {
    private List<ClusterQueueMetrics> lastClusterQueues;
    private Map<String, LocalQueueStatus> lastStatuses;
    private List<LocalQueueMetrics> lastLocal;
    private List<CohortMetrics> lastCohorts;
    private List<UnadmittedMetrics> lastUnadmitted;

    /** Called on the engine thread with the ClusterQueue snapshot of the same pass. */
    void publish(Engine engine, Map<String, LocalQueueStatus> local, List<ClusterQueueMetrics> clusterQueues,
            AdmissionEvents metrics) {
        // a workload's reason changes without any count moving (tried: PendingEvaluation, then WaitingForQuota), so
        // the reasons are counted on every pass, from the same engine state as the queue gauges
        Map<String, Integer> inadmissible = new HashMap<>();
        List<UnadmittedMetrics> unadmitted = unadmitted(engine, inadmissible);
        if (!unadmitted.equals(lastUnadmitted)) {
            lastUnadmitted = unadmitted;
            metrics.unadmittedChanged(unadmitted);
        }
        if (clusterQueues.equals(lastClusterQueues) && local.equals(lastStatuses)) {
            return;
        }
        lastClusterQueues = List.copyOf(clusterQueues);
        lastStatuses = Map.copyOf(local);
        Map<String, ClusterQueueMetrics> byName = new HashMap<>();
        clusterQueues.forEach(cq -> byName.put(cq.name(), cq));
        List<LocalQueueMetrics> lqs = localQueues(local, byName, inadmissible);
        if (!lqs.equals(lastLocal)) {
            lastLocal = lqs;
            metrics.localQueuesChanged(lqs);
        }
        List<CohortMetrics> cohorts = cohorts(engine, byName);
        if (!cohorts.equals(lastCohorts)) {
            lastCohorts = cohorts;
            metrics.cohortsChanged(cohorts);
        }
    }

    /**
     * The waiting workloads of every ClusterQueue by LocalQueue and reasons: none has a reservation (Sluice has no
     * admission checks), so the Admitted reason is NoReservation; the underlying cause is the QuotaReserved reason the
     * controller writes (the engine's granular one, Deactivated for a deactivated workload). The same walk counts the
     * inadmissible (parked) workloads of each LocalQueue into {@code inadmissible}, keyed "namespace/name".
     */
    static List<UnadmittedMetrics> unadmitted(Engine engine, Map<String, Integer> inadmissible) {
        // counted in a hash map, sorted once at the end: once a second over every waiting workload, so no view or
        // sorted queue per workload (that walk was a third of the controller's CPU on Kueue's baseline)
        Map<List<String>, Integer> counts = new HashMap<>();
        engine.forEachWaiting((cq, key, queueName, active, reason, parked) -> {
            if (reason != null) {
                counts.merge(List.of(cq, key.namespace(), queueName, underlyingCause(active, reason)), 1, Integer::sum);
            }
            if (parked) {
                inadmissible.merge(key.namespace() + "/" + queueName, 1, Integer::sum);
            }
        });
        // waiting in no queue (its ClusterQueue missing, its LocalQueue stopped, deactivated): counted, as Kueue
        // counts them, under the ClusterQueue its LocalQueue names; without a LocalQueue no ClusterQueue is known
        // and Kueue reports no series (pkg/cache/queue unadmitted_workloads.go)
        Map<List<String>, java.util.Optional<String>> clusterQueueOf = new HashMap<>();
        for (WorkloadKey k : engine.unqueuedWorkloads()) {
            engine.workload(k).filter(w -> w.unadmittedReason() != null && w.spec().queueName() != null)
                    .ifPresent(w -> {
                        java.util.Optional<String> named = clusterQueueOf.computeIfAbsent(
                                List.of(k.namespace(), w.spec().queueName()), lq -> java.util.Optional.ofNullable(
                                        engine.localQueueStatus(lq.get(0), lq.get(1))).map(LocalQueueStatus::clusterQueue)
                                        .filter(name -> !name.isEmpty()));
                        named.ifPresent(cq -> counts.merge(List.of(cq, k.namespace(), w.spec().queueName(),
                                underlyingCause(w.spec().active(), w.unadmittedReason())), 1, Integer::sum));
                    });
        }
        List<Map.Entry<List<String>, Integer>> sorted = new ArrayList<>(counts.entrySet());
        sorted.sort(Map.Entry.comparingByKey(SERIES_ORDER));
        List<UnadmittedMetrics> out = new ArrayList<>(sorted.size());
        for (Map.Entry<List<String>, Integer> e : sorted) {
            List<String> key = e.getKey();
            out.add(new UnadmittedMetrics(key.get(0), key.get(1), key.get(2), WorkloadConditions.NO_RESERVATION,
                    key.get(3), e.getValue()));
        }
        return out;
    }

    /** Series in the order of their label values, left to right. */
    private static final Comparator<List<String>> SERIES_ORDER = (a, b) -> {
        for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
            int c = a.get(i).compareTo(b.get(i));
            if (c != 0) {
                return c;
            }
        }
        return Integer.compare(a.size(), b.size());
    };

    /** The QuotaReserved reason the controller writes for it (see {@link WorkloadConditions#pending}). */
    private static String underlyingCause(boolean active, dev.sluice.engine.UnadmittedReason reason) {
        return active ? reason.name() : WorkloadConditions.DEACTIVATED;
    }

    /** {@code parked}: the inadmissible workloads waiting in each LocalQueue's ClusterQueue, see {@link #unadmitted}. */
    static List<LocalQueueMetrics> localQueues(Map<String, LocalQueueStatus> local,
            Map<String, ClusterQueueMetrics> clusterQueues, Map<String, Integer> parked) {
        List<LocalQueueMetrics> out = new ArrayList<>();
        for (LocalQueueStatus lq : new TreeMap<>(local).values()) {
            int inadmissible = parked.getOrDefault(lq.namespace() + "/" + lq.name(), 0);
            List<LocalResourceMetrics> resources = new ArrayList<>();
            ClusterQueueMetrics cq = lq.clusterQueue() == null ? null : clusterQueues.get(lq.clusterQueue());
            // the flavors and resources of its ClusterQueue, 0 when unused (as Kueue reports them)
            for (ResourceMetrics r : cq == null ? List.<ResourceMetrics>of() : cq.resources()) {
                FlavorResource fr = new FlavorResource(r.flavor(), r.resource());
                resources.add(new LocalResourceMetrics(r.flavor(), r.resource(),
                        lq.flavorsReservation().getOrDefault(fr, 0L), lq.flavorUsage().getOrDefault(fr, 0L)));
            }
            out.add(new LocalQueueMetrics(lq.namespace(), lq.name(), lq.active() ? "True" : "False",
                    Math.max(0, lq.pendingWorkloads() - inadmissible), inadmissible, lq.reservingWorkloads(),
                    lq.admittedWorkloads(), resources));
        }
        return out;
    }

    static List<CohortMetrics> cohorts(Engine engine, Map<String, ClusterQueueMetrics> clusterQueues) {
        List<CohortMetrics> out = new ArrayList<>();
        for (String name : engine.cohortNames()) {
            CohortStatus c = engine.cohortStatus(name).orElse(null);
            if (c == null) {
                continue;
            }
            int admitted = 0;
            for (String member : c.clusterQueues()) {
                ClusterQueueMetrics m = clusterQueues.get(member);
                admitted += m == null ? 0 : m.admittedWorkloads();
            }
            // every flavor/resource with subtree quota or reservations, as Kueue's collectCohortMetricPoints
            java.util.TreeSet<FlavorResource> keys = new java.util.TreeSet<>(c.nominalQuota().keySet());
            keys.addAll(c.usage().keySet());
            List<CohortResourceMetrics> resources = new ArrayList<>();
            for (FlavorResource fr : keys) {
                resources.add(new CohortResourceMetrics(fr.flavor(), fr.resource(),
                        c.nominalQuota().getOrDefault(fr, 0L), c.usage().getOrDefault(fr, 0L)));
            }
            out.add(new CohortMetrics(name, admitted, resources));
        }
        out.sort(Comparator.comparing(CohortMetrics::name));
        return out;
    }
}
