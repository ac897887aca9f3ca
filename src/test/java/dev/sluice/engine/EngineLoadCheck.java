package dev.sluice.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;

/**
 * Not a test: prints how long engine cycles take at scale. Run after test-compile with
 * {@code java -cp target/classes:target/test-classes dev.sluice.engine.EngineLoadCheck}.
 * Part 1: 1,000 ClusterQueues (10 cohorts x 100) and 50,000 pending workloads, per-cycle time.
 * Part 2: Kueue's scheduler benchmark shapes replayed in virtual time, total engine wall time.
 */
public final class EngineLoadCheck {

    public static void main(String[] args) {
        for (int warm = 0; warm < 2; warm++) {
            boolean print = true;
            manyQueues(print);
            benchmark("baseline (5 cohorts x 6 CQs, 15,000 workloads)", 5, 6,
                    new int[][] {{350, 100, 200, 50, 1}, {100, 500, 500, 100, 5}, {50, 1200, 1000, 200, 20}}, 20,
                    print);
            benchmark("large (10 cohorts x 100 CQs, 50,000 workloads)", 10, 100,
                    new int[][] {{35, 60, 150, 50, 1}, {11, 300, 350, 100, 5}, {4, 700, 700, 200, 20}}, 20, print);
        }
    }

    private static Engine world(int cohorts, int perCohort, long nominal, Long borrowingLimit) {
        Engine e = new Engine();
        e.upsertFlavor(new FlavorSpec("default", Map.of(), List.of(), List.of()));
        for (int c = 0; c < cohorts; c++) {
            for (int q = 0; q < perCohort; q++) {
                String name = "cq-" + c + "-" + q;
                e.upsertClusterQueue(new ClusterQueueSpec(name, "cohort-" + c, List.of(new ResourceGroupSpec(
                        List.of("cpu"), List.of(new FlavorQuotas("default", List.of(new ResourceQuota("cpu",
                                nominal * 1000, borrowingLimit, null)))))),
                        QueueingStrategy.BestEffortFIFO, LabelSelector.everything(),
                        new PreemptionSpec(ReclaimWithinCohort.Any, null, null, WithinClusterQueue.LowerPriority),
                        FlavorFungibility.defaults(), StopPolicy.None));
                e.upsertLocalQueue(new LocalQueueSpec("ns", "lq-" + name, name, StopPolicy.None));
            }
        }
        return e;
    }

    private static WorkloadSpec workload(String name, String queue, int priority, long created, long cpu) {
        return new WorkloadSpec(new WorkloadKey("ns", name), name, queue, priority, created,
                List.of(PodSetSpec.of("main", 1, Map.of("cpu", cpu * 1000))), true);
    }

    private static void manyQueues(boolean print) {
        Engine e = world(10, 100, 20, 100_000L);
        for (int i = 0; i < 50_000; i++) {
            int c = i % 10;
            int q = (i / 10) % 100;
            e.submit(workload("w" + i, "lq-cq-" + c + "-" + q, i % 3 * 50, i, 1 + i % 5));
        }
        int cycles = 0;
        int admitted = 0;
        long start = System.nanoTime();
        long worst = 0;
        List<WorkloadKey> running = new ArrayList<>();
        for (int round = 0; round < 200; round++) {
            long t0 = System.nanoTime();
            CycleResult r = e.schedule(100_000 + round);
            worst = Math.max(worst, System.nanoTime() - t0);
            cycles++;
            admitted += r.admissions().size();
            for (Admission a : r.admissions()) {
                running.add(a.workload());
            }
            // Free a little every cycle so there is always work: finish the oldest 500 running.
            for (int i = 0; i < Math.min(500, running.size()); i++) {
                e.finish(running.get(i));
            }
            running.subList(0, Math.min(500, running.size())).clear();
        }
        double ms = (System.nanoTime() - start) / 1e6;
        if (print) {
            System.out.printf("1,000 CQs, 50,000 workloads: %d cycles, %d admissions, %.2f ms per cycle"
                    + " (incl. finishes), worst cycle %.2f ms%n", cycles, admitted, ms / cycles, worst / 1e6);
        }
    }

    /** kind 0 = finish (valid only for run `run` of the workload), 1 = submit. */
    private record Event(long time, int kind, WorkloadSpec workload, int run) {
    }

    /** streams: {count, interval ms, runtime ms, priority, cpu} per ClusterQueue. */
    private static void benchmark(String label, int cohorts, int perCohort, int[][] streams, long nominal,
                                  boolean print) {
        Engine e = world(cohorts, perCohort, nominal, 100_000L);
        PriorityQueue<Event> events = new PriorityQueue<>((a, b) -> a.time != b.time ? Long.compare(a.time, b.time)
                : a.kind != b.kind ? Integer.compare(a.kind, b.kind)
                : a.workload.key().compareTo(b.workload.key()));
        Map<WorkloadKey, Long> runtime = new java.util.HashMap<>();
        Map<WorkloadKey, Integer> runs = new java.util.HashMap<>();
        int total = 0;
        for (int c = 0; c < cohorts; c++) {
            for (int q = 0; q < perCohort; q++) {
                for (int s = 0; s < streams.length; s++) {
                    int[] st = streams[s];
                    for (int i = 0; i < st[0]; i++) {
                        long at = (long) (i + 1) * st[1];
                        WorkloadSpec w = workload("w-" + c + "-" + q + "-" + s + "-" + i, "lq-cq-" + c + "-" + q,
                                st[3], at, st[4]);
                        runtime.put(w.key(), (long) st[2]);
                        events.add(new Event(at, 1, w, 0));
                        total++;
                    }
                }
            }
        }
        long engineNanos = 0;
        int finished = 0;
        int cycles = 0;
        int preemptions = 0;
        long now = 0;
        while (!events.isEmpty()) {
            now = events.peek().time;
            long t0 = System.nanoTime();
            while (!events.isEmpty() && events.peek().time == now) {
                Event ev = events.poll();
                if (ev.kind == 0) {
                    if (runs.get(ev.workload.key()) != ev.run) {
                        continue; // preempted since: this run never finishes
                    }
                    e.finish(ev.workload.key());
                    finished++;
                } else {
                    e.submit(ev.workload);
                }
            }
            boolean busy = true;
            while (busy) {
                CycleResult r = e.schedule(now);
                cycles++;
                for (Eviction x : r.evictions()) {
                    e.evictionDone(x.workload(), now);
                    preemptions++;
                    runs.merge(x.workload(), 1, Integer::sum);
                }
                for (Admission a : r.admissions()) {
                    WorkloadKey k = a.workload();
                    events.add(new Event(now + runtime.get(k), 0, e.workload(k).orElseThrow().spec(),
                            runs.computeIfAbsent(k, x -> 0)));
                }
                busy = !r.admissions().isEmpty() || !r.evictions().isEmpty();
            }
            engineNanos += System.nanoTime() - t0;
        }
        if (print) {
            System.out.printf("%s: %d workloads, %d finished, %d preemptions, %d cycles, makespan %.1f s virtual,"
                    + " engine wall time %.0f ms%n", label, total, finished, preemptions, cycles, now / 1000.0,
                    engineNanos / 1e6);
        }
    }
}
