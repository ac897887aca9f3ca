package dev.sluice.sim;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The outcome of a simulation: the timeline, every workload's run, quota usage over time, and the engine's cost.
 *
 * @param endMillis   virtual time of the last event (the makespan when everything finished)
 * @param engineNanos    real time spent inside the engine's calls
 * @param engineCpuNanos CPU time of those calls (robust on a busy machine)
 * @param shares         the cohort tree's weighted shares over time, or null (no Cohort objects, fair sharing off)
 * @param localQueueUsage admission fair sharing's LocalQueue usage, or null (admission fair sharing off)
 */
public record SimResult(Scenario scenario, List<WorkloadRun> runs, List<SimEvent> events, UsageTracker usage,
                        long endMillis, long engineNanos, int admissions, int evictions, int cycles,
                        long engineCpuNanos, ShareTracker shares, List<LocalQueueUsageTracker.Row> localQueueUsage) {

    /** A result without admission fair sharing. */
    public SimResult(Scenario scenario, List<WorkloadRun> runs, List<SimEvent> events, UsageTracker usage,
            long endMillis, long engineNanos, int admissions, int evictions, int cycles, long engineCpuNanos,
            ShareTracker shares) {
        this(scenario, runs, events, usage, endMillis, engineNanos, admissions, evictions, cycles, engineCpuNanos,
                shares, null);
    }

    /** A result without a cohort tree. */
    public SimResult(Scenario scenario, List<WorkloadRun> runs, List<SimEvent> events, UsageTracker usage,
            long endMillis, long engineNanos, int admissions, int evictions, int cycles, long engineCpuNanos) {
        this(scenario, runs, events, usage, endMillis, engineNanos, admissions, evictions, cycles, engineCpuNanos, null);
    }

    /** Evictions for a preemption (reason Preempted), as kueue_preempted_workloads_total counts them. */
    public int preemptions() {
        return runs.stream().mapToInt(WorkloadRun::preemptions).sum();
    }

    /** Evictions per Kueue reason (Preempted, PodsReadyTimeout, ...), as kueue_evicted_workloads_total{reason}. */
    public Map<String, Integer> evictionsByReason() {
        Map<String, Integer> out = new TreeMap<>();
        for (WorkloadRun r : runs) {
            r.evictionsByReason().forEach((reason, n) -> out.merge(reason, n, Integer::sum));
        }
        return out;
    }

    public long finished() {
        return runs.stream().filter(r -> r.finishedMillis() != null).count();
    }

    public long everAdmitted() {
        return runs.stream().filter(r -> r.firstAdmittedMillis() != null).count();
    }

    public long pending() {
        return runs.stream().filter(r -> r.finishedMillis() == null && !r.isRunning()).count();
    }

    public double wallSeconds() {
        return engineNanos / 1e9;
    }

    public double cpuSeconds() {
        return engineCpuNanos / 1e9;
    }

    /** Admissions and evictions per second of engine time. */
    public double decisionsPerSecond() {
        double wall = wallSeconds();
        return wall <= 0 ? 0 : (admissions + evictions) / wall;
    }

    /** Average total wait (seconds) per priority class, every submitted workload counted. */
    public Map<String, Double> averageWaitByPriorityClass() {
        Map<String, double[]> acc = new TreeMap<>();
        for (WorkloadRun r : runs) {
            double[] a = acc.computeIfAbsent(r.workload().priorityClass(), k -> new double[2]);
            a[0] += r.waitedMillis();
            a[1]++;
        }
        return averages(acc);
    }

    /** Average time (seconds) from submission to first admission per workload class; empty for manifests. */
    public Map<String, Double> averageTimeToAdmissionByClass() {
        Map<String, double[]> acc = new TreeMap<>();
        for (WorkloadRun r : runs) {
            if (r.workload().workloadClass() != null && r.firstAdmittedMillis() != null) {
                double[] a = acc.computeIfAbsent(r.workload().workloadClass(), k -> new double[2]);
                a[0] += r.firstAdmittedMillis() - r.workload().submitAtMillis();
                a[1]++;
            }
        }
        return averages(acc);
    }

    private static Map<String, Double> averages(Map<String, double[]> acc) {
        Map<String, Double> out = new TreeMap<>();
        acc.forEach((k, a) -> out.put(k, a[1] == 0 ? 0 : a[0] / a[1] / 1000.0));
        return out;
    }
}
