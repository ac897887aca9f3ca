package dev.sluice.forecast;

import dev.sluice.engine.Admission;
import dev.sluice.engine.CycleResult;
import dev.sluice.engine.Engine;
import dev.sluice.engine.Eviction;
import dev.sluice.engine.WorkloadKey;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.HashMap;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.function.Function;

/**
 * Runs a copy of the engine forward in virtual time: each running workload finishes when its estimate says, the
 * engine admits what then fits (preempting as it would), admitted ones finish after their own estimate, and so on.
 * The time each waiting workload is first admitted is its forecast. The copy is the caller's and is used up; the live
 * engine is never touched. Bounded by a number of events, a horizon and a CPU budget: what lies beyond is unknown.
 */
public final class ForwardRun {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    /** When a running workload started (its admission) and how long it is expected to run. */
    public record Running(long admittedAtMillis, Estimate estimate) {
    }

    /** Limits of one run. */
    public record Budget(int maxFinishes, long horizonMillis, long cpuNanos) {
        public static final Budget DEFAULT = new Budget(200_000, 7L * 24 * 3_600_000, 2_000_000_000L);
    }

    private record Finish(long atMillis, long seq, WorkloadKey key, int runId, Basis basis) {
    }

    private ForwardRun() {
    }

    /**
     * @param copy a fresh engine holding the running workloads (restored) and the waiting ones (submitted)
     * @param running the running workloads of the copy
     * @param waiting the waiting workloads to forecast, with their ClusterQueue and position
     * @param estimateOf how long a workload runs once admitted
     */
    public static Map<WorkloadKey, Forecast> run(Engine copy, Map<WorkloadKey, Running> running,
            Map<WorkloadKey, Forecast> waiting, Function<WorkloadKey, Estimate> estimateOf, long nowMillis,
            Budget budget) {
        long cpuStart = cpu();
        PriorityQueue<Finish> finishes = new PriorityQueue<>((a, b) -> a.atMillis != b.atMillis
                ? Long.compare(a.atMillis, b.atMillis) : Long.compare(a.seq, b.seq));
        Map<WorkloadKey, Integer> runIds = new HashMap<>();
        long[] seq = {0};
        running.forEach((k, r) -> {
            if (r.estimate().known()) {
                finishes.add(new Finish(Math.max(nowMillis, r.admittedAtMillis() + r.estimate().durationMillis()),
                        seq[0]++, k, 0, r.estimate().basis()));
            }
            runIds.put(k, 0);
        });
        Map<WorkloadKey, Forecast> out = new HashMap<>();
        Basis resting = Basis.annotation; // the least sure estimate behind what has happened so far
        long t = nowMillis;
        int done = 0;
        long cpuEnd = cpuStart + budget.cpuNanos();
        while (true) {
            boolean inBudget = settle(copy, t, waiting, out, resting, finishes, runIds, estimateOf, seq, cpuEnd);
            if (!inBudget || out.size() == waiting.size() || finishes.isEmpty() || done >= budget.maxFinishes()
                    || cpu() > cpuEnd) {
                break;
            }
            Finish f = finishes.poll();
            if (!runIds.getOrDefault(f.key(), -1).equals(f.runId())) {
                continue; // preempted in the forward run since: that run ended early
            }
            if (f.atMillis() - nowMillis > budget.horizonMillis()) {
                break;
            }
            t = f.atMillis();
            resting = resting.weaker(f.basis());
            copy.finish(f.key());
            runIds.remove(f.key());
            done++;
        }
        for (Map.Entry<WorkloadKey, Forecast> w : waiting.entrySet()) {
            out.putIfAbsent(w.getKey(), new Forecast(null, Basis.unknown, w.getValue().clusterQueue(),
                    w.getValue().position()));
        }
        return out;
    }

    /**
     * Cycles at time t until nothing more happens; false when the CPU budget ran out first (checked after every
     * cycle: with tens of thousands waiting, settling one instant takes many cycles, far more than the budget).
     */
    private static boolean settle(Engine copy, long t, Map<WorkloadKey, Forecast> waiting, Map<WorkloadKey, Forecast> out,
            Basis resting, PriorityQueue<Finish> finishes, Map<WorkloadKey, Integer> runIds,
            Function<WorkloadKey, Estimate> estimateOf, long[] seq, long cpuEnd) {
        for (int i = 0; i < 100_000; i++) {
            if (i > 0 && cpu() > cpuEnd) {
                return false;
            }
            CycleResult r = copy.schedule(t);
            for (Eviction e : r.evictions()) {
                runIds.computeIfPresent(e.workload(), (k, id) -> id + 1); // its pending finish no longer counts
                copy.evictionDone(e.workload(), t);
            }
            for (Admission a : r.admissions()) {
                Forecast w = waiting.get(a.workload());
                if (w != null && !out.containsKey(a.workload())) {
                    out.put(a.workload(), new Forecast(t, resting, w.clusterQueue(), w.position()));
                }
                Estimate e = estimateOf.apply(a.workload());
                int id = runIds.merge(a.workload(), 1, Integer::sum);
                if (e.known()) {
                    finishes.add(new Finish(t + e.durationMillis(), seq[0]++, a.workload(), id, e.basis()));
                }
            }
            if (r.admissions().isEmpty() && r.evictions().isEmpty()) {
                return true;
            }
        }
        return true;
    }

    private static long cpu() {
        return THREADS.isCurrentThreadCpuTimeSupported() ? THREADS.getCurrentThreadCpuTime() : System.nanoTime();
    }
}
