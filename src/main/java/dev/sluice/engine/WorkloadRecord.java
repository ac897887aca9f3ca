package dev.sluice.engine;

import java.util.Map;

/** The engine's mutable bookkeeping of one workload. Ordering fields change only while out of any queue. */
final class WorkloadRecord {
    WorkloadSpec spec;
    /** Derived from spec; set with it. */
    WorkloadShape shape;
    /**
     * As shape, with the LocalQueue: the parked groups of queues ordered by admission fair sharing. Made on first
     * use (null until then), so workloads of other queues carry no second shape.
     */
    private WorkloadShape localQueueShape;
    /** Woken from a parked group: when it leaves the queue unparked, the next of its group is woken. */
    boolean awake;
    WorkloadPhase phase = WorkloadPhase.PENDING;
    /** ClusterQueue it waits in (null if it cannot be routed) or holds quota in. */
    String clusterQueue;
    Assignment assignment;
    Map<FlavorResource, Long> usage = Map.of();
    Long admittedAt;
    /**
     * While it holds quota: its admission checks (those its admission needs, by name, sorted) and their states;
     * empty when none apply. Admitted only when every one is Ready.
     */
    java.util.TreeMap<String, CheckState> checks = new java.util.TreeMap<>();
    long queueTime;
    /** Set once evicted: ordered first among preemption candidates until re-admitted. */
    boolean evicted;
    boolean deleted;
    /** It issued preemptions and was not admitted since: it goes first among the heads. */
    boolean preempted;
    PendingReason reportedReason;
    UnadmittedReason reportedUnadmitted;
    /** Kueue's granular reason of the latest pending message (with message). */
    UnadmittedReason unadmittedReason;
    String reportedMessage;
    String message;

    WorkloadRecord(WorkloadSpec spec) {
        setSpec(spec);
        this.queueTime = spec.creationTimeMillis();
    }

    void setSpec(WorkloadSpec spec) {
        this.spec = spec;
        this.shape = new WorkloadShape(spec);
        this.localQueueShape = null;
    }

    WorkloadShape localQueueShape() {
        if (localQueueShape == null) {
            localQueueShape = new WorkloadShape(spec, true);
        }
        return localQueueShape;
    }

    /** Every admission check Ready (true with none). */
    boolean allChecksReady() {
        for (CheckState c : checks.values()) {
            if (c != CheckState.Ready) {
                return false;
            }
        }
        return true;
    }

    WorkloadKey key() {
        return spec.key();
    }

    int priority() {
        return spec.priority();
    }

    WorkloadState state() {
        return new WorkloadState(spec, phase, clusterQueue, assignment, message, admittedAt, null, checks);
    }
}
