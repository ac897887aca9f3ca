package dev.sluice.engine;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * Kueue's queue manager: the LocalQueues and namespaces, every known workload, and which ClusterQueue a pending
 * workload waits in (routing). A workload that can wait in no ClusterQueue is kept aside, with the reason, until
 * its LocalQueue or ClusterQueue appears.
 */
final class QueueManager {
    private final QuotaCache cache;
    private final StatusBook statuses;
    final TreeMap<String, LocalQueueSpec> localQueues = new TreeMap<>();
    private final TreeMap<String, Map<String, String>> namespaces = new TreeMap<>();
    /** Lookup only; never iterated for decisions. */
    final HashMap<WorkloadKey, WorkloadRecord> workloads = new HashMap<>();
    /** Every known workload per LocalQueue ("namespace/name"), pending or holding quota. */
    final TreeMap<String, TreeSet<WorkloadKey>> localQueueMembers = new TreeMap<>();
    /** Pending workloads that wait in no ClusterQueue (missing or stopped queue, inactive workload). */
    private final TreeSet<WorkloadKey> unrouted = new TreeSet<>();

    QueueManager(QuotaCache cache, StatusBook statuses) {
        this.cache = cache;
        this.statuses = statuses;
    }

    static String lqKey(String namespace, String name) {
        return namespace + "/" + name;
    }

    WorkloadRecord workload(WorkloadKey key) {
        return workloads.get(key);
    }

    /** Whether a namespace's labels changed (or it is new); the caller wakes the queues. */
    boolean putNamespace(String name, Map<String, String> labels) {
        Map<String, String> all = new TreeMap<>(labels == null ? Map.of() : labels);
        all.putIfAbsent("kubernetes.io/metadata.name", name);
        if (all.equals(namespaces.get(name))) {
            return false;
        }
        namespaces.put(name, all);
        return true;
    }

    boolean removeNamespace(String name) {
        return namespaces.remove(name) != null;
    }

    /** A namespace's labels; one the engine was not told about has only its name label. */
    Map<String, String> namespaceLabels(String namespace) {
        Map<String, String> labels = namespaces.get(namespace);
        return labels != null ? labels : Map.of("kubernetes.io/metadata.name", namespace);
    }

    /** Pending members of the LocalQueue are routed again (its spec changed or it went away). */
    void rerouteMembers(String lqKey) {
        for (WorkloadKey k : members(lqKey)) {
            WorkloadRecord r = workloads.get(k);
            if (r.phase == WorkloadPhase.PENDING) {
                unqueue(r);
                route(r);
            }
        }
    }

    List<WorkloadKey> members(String lqKey) {
        TreeSet<WorkloadKey> m = localQueueMembers.get(lqKey);
        return m == null ? List.of() : new ArrayList<>(m);
    }

    void addMember(WorkloadRecord r) {
        if (r.spec.queueName() != null) {
            localQueueMembers.computeIfAbsent(lqKey(r.key().namespace(), r.spec.queueName()), k -> new TreeSet<>())
                    .add(r.key());
        }
    }

    void removeMember(WorkloadRecord r) {
        if (r.spec.queueName() == null) {
            return;
        }
        String k = lqKey(r.key().namespace(), r.spec.queueName());
        TreeSet<WorkloadKey> m = localQueueMembers.get(k);
        if (m != null) {
            m.remove(r.key());
            if (m.isEmpty()) {
                localQueueMembers.remove(k);
            }
        }
    }

    /** Puts a pending workload in its ClusterQueue's queue, or aside with the reason it cannot wait there. */
    void route(WorkloadRecord r) {
        r.clusterQueue = null;
        WorkloadSpec s = r.spec;
        if (!s.active()) {
            park(r, UnadmittedReason.Suspended, "The workload is deactivated");
            return;
        }
        if (s.queueName() == null || s.queueName().isEmpty()) {
            park(r, UnadmittedReason.Misconfigured, "Workload has no queue name; set the label kueue.x-k8s.io/queue-name to a LocalQueue");
            return;
        }
        LocalQueueSpec lq = localQueues.get(lqKey(s.key().namespace(), s.queueName()));
        if (lq == null) {
            park(r, UnadmittedReason.Misconfigured, "LocalQueue " + s.queueName() + " doesn't exist");
            return;
        }
        if (lq.stopPolicy() != StopPolicy.None) {
            park(r, UnadmittedReason.Suspended, "LocalQueue " + s.queueName() + " is inactive");
            return;
        }
        ClusterQueueState cq = cache.get(lq.clusterQueue());
        if (cq == null || !cq.exists()) {
            park(r, UnadmittedReason.Misconfigured, "ClusterQueue " + lq.clusterQueue() + " doesn't exist");
            return;
        }
        unrouted.remove(r.key());
        r.clusterQueue = cq.name;
        cq.queue.push(r);
        if (!cq.isActive()) {
            statuses.set(r, PendingReason.Inadmissible, UnadmittedReason.Suspended,
                    "ClusterQueue " + cq.name + " is inactive");
        } else if (r.reportedMessage == null || r.reportedReason == PendingReason.Inadmissible) {
            statuses.set(r, PendingReason.Pending, UnadmittedReason.PendingEvaluation, queuedMessage(cq));
        }
    }

    static String queuedMessage(ClusterQueueState cq) {
        return "Workload is waiting in ClusterQueue " + cq.name + " for its turn";
    }

    private void park(WorkloadRecord r, UnadmittedReason unadmitted, String message) {
        unrouted.add(r.key());
        statuses.set(r, PendingReason.Inadmissible, unadmitted, message);
    }

    /** Takes a pending workload out of whatever queue it waits in. */
    void unqueue(WorkloadRecord r) {
        if (r.clusterQueue != null) {
            ClusterQueueState cq = cache.get(r.clusterQueue);
            if (cq != null) {
                cq.queue.remove(r);
                if (cq.waitingForPreemption == r) {
                    cq.waitingForPreemption = null;
                }
            }
            r.clusterQueue = null;
        }
        unrouted.remove(r.key());
    }

    /** The pending workloads kept aside in no ClusterQueue's queue, in key order. */
    List<WorkloadKey> unrouted() {
        return List.copyOf(unrouted);
    }

    /** Routes again the workloads kept aside whose LocalQueue matches. */
    void routeUnrouted(Predicate<LocalQueueSpec> which) {
        for (WorkloadKey k : new ArrayList<>(unrouted)) {
            WorkloadRecord r = workloads.get(k);
            LocalQueueSpec lq = r.spec.queueName() == null ? null
                    : localQueues.get(lqKey(k.namespace(), r.spec.queueName()));
            if (lq != null && which.test(lq)) {
                route(r);
            }
        }
    }

    /** The queue became active or inactive: tell its waiting workloads. */
    void activityChanged(ClusterQueueState cq, boolean wasActive) {
        boolean active = cq.isActive();
        if (active == wasActive) {
            return;
        }
        for (WorkloadRecord r : cq.queue.all()) {
            if (!active) {
                statuses.set(r, PendingReason.Inadmissible, UnadmittedReason.Suspended,
                    "ClusterQueue " + cq.name + " is inactive");
            } else if (r.reportedReason == PendingReason.Inadmissible) {
                statuses.set(r, PendingReason.Pending, UnadmittedReason.PendingEvaluation, queuedMessage(cq));
            }
        }
    }

    /** Whether a pending workload counts as inadmissible: it waits in no queue, or is parked in its queue. */
    boolean isParked(WorkloadRecord r) {
        if (r.clusterQueue == null) {
            return true;
        }
        ClusterQueueState cq = cache.get(r.clusterQueue);
        return cq != null && cq.queue.isParked(r);
    }
}
