package dev.sluice.engine;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/** What the engine shows of its queues and workloads (for status writes and metrics); reads only. */
final class StatusViews {
    private final QuotaCache cache;
    private final QueueManager queues;

    StatusViews(QuotaCache cache, QueueManager queues) {
        this.cache = cache;
        this.queues = queues;
    }

    ClusterQueueStatus clusterQueue(String name) {
        ClusterQueueState cq = cache.get(name);
        if (cq == null || !cq.exists()) {
            return null;
        }
        Map<FlavorResource, Long> usage = new TreeMap<>(cq.usageView());
        String[] cond = cq.activeCondition();
        Map<FlavorResource, Long> admittedUsage = usage;
        int admittedCount = cq.admitted.size();
        for (WorkloadRecord r : cq.admitted.values()) {
            if (!r.allChecksReady()) {
                // reserving but not admitted yet: its quota is reserved, not in use (Kueue's flavorsUsage)
                if (admittedUsage == usage) {
                    admittedUsage = new TreeMap<>(usage);
                }
                admittedCount--;
                for (Map.Entry<FlavorResource, Long> e : r.usage.entrySet()) {
                    admittedUsage.merge(e.getKey(), -e.getValue(), Long::sum);
                }
            }
        }
        return new ClusterQueueStatus(name, cq.spec.cohort(), cq.queue.size(), cq.queue.parkedCount(),
                cq.admitted.size(), admittedCount, usage, admittedUsage, cq.isActive(), cond[0], cond[1]);
    }

    LocalQueueStatus localQueue(String namespace, String name) {
        String key = QueueManager.lqKey(namespace, name);
        LocalQueueSpec lq = queues.localQueues.get(key);
        return lq == null ? null : localQueue(lq, queues.localQueueMembers.get(key));
    }

    Map<String, LocalQueueStatus> localQueues() {
        Map<String, LocalQueueStatus> out = new HashMap<>();
        for (Map.Entry<String, LocalQueueSpec> e : queues.localQueues.entrySet()) {
            out.put(e.getKey(), localQueue(e.getValue(), queues.localQueueMembers.get(e.getKey())));
        }
        return out;
    }

    private LocalQueueStatus localQueue(LocalQueueSpec lq, Set<WorkloadKey> members) {
        int pending = 0;
        int holding = 0;
        int admitted = 0;
        Map<FlavorResource, Long> usage = new TreeMap<>();
        Map<FlavorResource, Long> admittedUsage = new TreeMap<>();
        if (members != null) {
            for (WorkloadKey k : members) {
                WorkloadRecord r = queues.workload(k);
                if (r.phase == WorkloadPhase.PENDING) {
                    pending++;
                } else {
                    holding++;
                    r.usage.forEach((fr, v) -> usage.merge(fr, v, Long::sum));
                    if (r.allChecksReady()) {
                        admitted++;
                        r.usage.forEach((fr, v) -> admittedUsage.merge(fr, v, Long::sum));
                    }
                }
            }
        }
        ClusterQueueState cq = cache.get(lq.clusterQueue());
        boolean active;
        String reason;
        String message;
        if (lq.stopPolicy() != StopPolicy.None) {
            active = false;
            reason = "Stopped";
            message = "LocalQueue is stopped";
        } else if (cq == null || !cq.exists()) {
            active = false;
            reason = "ClusterQueueDoesNotExist";
            message = "Can't submit new workloads to clusterQueue";
        } else if (!cq.isActive()) {
            active = false;
            reason = "ClusterQueueIsInactive";
            message = "Can't submit new workloads to clusterQueue";
        } else {
            active = true;
            reason = "Ready";
            message = "Can submit new workloads to localQueue";
        }
        return new LocalQueueStatus(lq.namespace(), lq.name(), lq.clusterQueue(), pending, holding, admitted, usage,
                admittedUsage, active, reason, message);
    }

    Optional<WorkloadState> workload(WorkloadKey key) {
        WorkloadRecord r = queues.workload(key);
        if (r == null) {
            return Optional.empty();
        }
        WorkloadPhase phase = r.phase;
        if (phase == WorkloadPhase.PENDING && (r.reportedReason == PendingReason.Inadmissible || queues.isParked(r))) {
            phase = WorkloadPhase.INADMISSIBLE;
        }
        UnadmittedReason unadmitted = phase == WorkloadPhase.PENDING || phase == WorkloadPhase.INADMISSIBLE
                ? r.unadmittedReason : null;
        return Optional.of(new WorkloadState(r.spec, phase, r.clusterQueue, r.assignment, r.message, r.admittedAt,
                unadmitted, r.checks));
    }
}
