package dev.sluice.sim;

import dev.sluice.engine.Assignment;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** What happened to one workload during a simulation: its waits and runs, in order. */
public final class WorkloadRun {

    public enum Phase { WAITING, RUNNING, PREEMPTED }

    /** [start, end) of one phase; a run cut short by an eviction (a preemption or another reason) is PREEMPTED. */
    public record Segment(long startMillis, long endMillis, Phase phase) {
    }

    final SimWorkload workload;
    final List<Segment> segments = new ArrayList<>();
    boolean submitted;
    long phaseStart;
    Long firstAdmittedMillis;
    Long finishedMillis;
    int admissions;
    /** Evictions by Kueue's reason (Preempted, PodsReadyTimeout, InactiveWorkload...), as kueue_evicted_workloads_total. */
    private final Map<String, Integer> evictions = new TreeMap<>();
    long waitedMillis;
    /** Bumped at every admission and eviction, so a stale finish event is ignored. */
    int runId;
    String clusterQueue;
    Assignment assignment;
    String lastInadmissibleMessage;
    String lastMessage;
    /** PodsReadyTimeout requeues so far (requeueState.count), and when the last one was evicted. */
    int requeues;
    Long timedOutAt;

    WorkloadRun(SimWorkload workload) {
        this.workload = workload;
    }

    public SimWorkload workload() {
        return workload;
    }

    public List<Segment> segments() {
        return segments;
    }

    public boolean isSubmitted() {
        return submitted;
    }

    public boolean isRunning() {
        return assignment != null && finishedMillis == null;
    }

    public Long firstAdmittedMillis() {
        return firstAdmittedMillis;
    }

    public Long finishedMillis() {
        return finishedMillis;
    }

    public int admissions() {
        return admissions;
    }

    /** Evictions for a preemption (reason Preempted), as kueue_preempted_workloads_total counts them. */
    public int preemptions() {
        return evictions.getOrDefault("Preempted", 0);
    }

    /** Evictions of any reason. */
    public int evictions() {
        return evictions.values().stream().mapToInt(Integer::intValue).sum();
    }

    /** Evictions per reason, by reason name. */
    public Map<String, Integer> evictionsByReason() {
        return Collections.unmodifiableMap(evictions);
    }

    void evicted(String reason) {
        evictions.merge(reason, 1, Integer::sum);
    }

    /** Total time spent waiting for quota (every wait, including after preemptions), up to the end of the run. */
    public long waitedMillis() {
        return waitedMillis;
    }

    /** The ClusterQueue of its latest admission, null if never admitted. */
    public String clusterQueue() {
        return clusterQueue;
    }

    /** Latest engine message about it. */
    public String lastMessage() {
        return lastMessage;
    }

    void close(long now, Phase phase) {
        if (phase == Phase.WAITING) {
            waitedMillis += now - phaseStart;
        }
        segments.add(new Segment(phaseStart, now, phase));
        phaseStart = now;
    }
}
