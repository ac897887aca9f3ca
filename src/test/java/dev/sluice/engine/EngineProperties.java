package dev.sluice.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;

/**
 * Random topologies (cohort or not, quotas, limits, policies) driven by random sequences of submissions,
 * finishes, deletions, evictionDone and cycles. A seed makes each run reproducible.
 */
class EngineProperties {
    private static final String[] FLAVORS = {"f1", "f2"};

    /** A random world and a random script; the test keeps its own books to check the engine. */
    private static final class World {
        final Random rnd;
        final List<ClusterQueueSpec> cqs = new ArrayList<>();
        final Map<String, ClusterQueueSpec> byName = new TreeMap<>();
        final Engine engine = new Engine();
        final Map<WorkloadKey, WorkloadSpec> specs = new HashMap<>();
        final Map<WorkloadKey, Assignment> holding = new TreeMap<>();
        final List<WorkloadKey> evicting = new ArrayList<>();
        final List<WorkloadKey> known = new ArrayList<>();
        final List<Object> trace = new ArrayList<>();
        int next;

        World(long seed) {
            rnd = new Random(seed);
            for (String f : FLAVORS) {
                engine.upsertFlavor(Fixtures.flavor(f));
            }
            int n = 2 + rnd.nextInt(3);
            for (int i = 0; i < n; i++) {
                String name = "cq" + i;
                String cohort = rnd.nextInt(4) == 0 ? null : "co";
                List<FlavorQuotas> fq = new ArrayList<>();
                for (String f : FLAVORS) {
                    if (fq.isEmpty() || rnd.nextBoolean()) {
                        long nominal = rnd.nextInt(7);
                        Long borrowing = rnd.nextBoolean() ? null : (long) rnd.nextInt(5);
                        Long lending = rnd.nextBoolean() ? null : (long) rnd.nextInt((int) nominal + 1);
                        fq.add(new FlavorQuotas(f, List.of(new ResourceQuota("cpu", nominal * 1000,
                                borrowing == null ? null : borrowing * 1000, lending == null ? null : lending * 1000))));
                    }
                }
                PreemptionSpec p = new PreemptionSpec(pick(ReclaimWithinCohort.values()),
                        pick(BorrowWithinCohortPolicy.values()), rnd.nextBoolean() ? null : rnd.nextInt(5),
                        pick(WithinClusterQueue.values()));
                ClusterQueueSpec spec = new ClusterQueueSpec(name, cohort,
                        List.of(new ResourceGroupSpec(List.of("cpu"), fq)), pick(QueueingStrategy.values()),
                        LabelSelector.everything(), p,
                        new FlavorFungibility(pick(WhenCanBorrow.values()), pick(WhenCanPreempt.values())),
                        StopPolicy.None);
                cqs.add(spec);
                byName.put(name, spec);
                engine.upsertClusterQueue(spec);
                engine.upsertLocalQueue(Fixtures.lq("default", "lq" + i, name));
            }
        }

        <T> T pick(T[] values) {
            return values[rnd.nextInt(values.length)];
        }

        <T> T pick(List<T> values) {
            return values.get(rnd.nextInt(values.size()));
        }

        /** One random step; returns the cycle result when the step was a cycle. */
        CycleResult step(long now) {
            int action = rnd.nextInt(10);
            if (action < 4 || known.isEmpty()) {
                int q = rnd.nextInt(cqs.size());
                WorkloadSpec w = new WorkloadSpec(new WorkloadKey("default", "w" + next++), "u" + next, "lq" + q,
                        rnd.nextInt(5), now, List.of(PodSetSpec.of("main", 1 + rnd.nextInt(3),
                        Map.of("cpu", 1000L * (1 + rnd.nextInt(3))))), true);
                specs.put(w.key(), w);
                known.add(w.key());
                engine.submit(w);
                trace.add("submit " + w.key());
                return null;
            }
            if (action == 4) {
                WorkloadKey k = pick(known);
                engine.finish(k);
                forget(k);
                trace.add("finish " + k);
                return null;
            }
            if (action == 5) {
                WorkloadKey k = pick(known);
                engine.delete(k);
                forget(k);
                trace.add("delete " + k);
                return null;
            }
            if (action == 6 && !evicting.isEmpty()) {
                WorkloadKey k = evicting.remove(rnd.nextInt(evicting.size()));
                engine.evictionDone(k, now);
                holding.remove(k);
                trace.add("evictionDone " + k);
                return null;
            }
            return cycle(now);
        }

        void forget(WorkloadKey k) {
            known.remove(k);
            holding.remove(k);
            evicting.remove(k);
        }

        CycleResult cycle(long now) {
            CycleResult r = engine.schedule(now);
            trace.add(r);
            for (Eviction e : r.evictions()) {
                assertThat(holding).containsKey(e.workload());
                assertThat(evicting).doesNotContain(e.workload());
                evicting.add(e.workload());
            }
            for (Admission a : r.admissions()) {
                assertThat(holding).doesNotContainKey(a.workload());
                holding.put(a.workload(), a.assignment());
            }
            return r;
        }

        /** The test's own books: usage per ClusterQueue and (flavor, resource). */
        Map<String, Map<FlavorResource, Long>> usage() {
            Map<String, Map<FlavorResource, Long>> out = new TreeMap<>();
            for (Assignment a : holding.values()) {
                Map<FlavorResource, Long> u = out.computeIfAbsent(a.clusterQueue(), k -> new TreeMap<>());
                a.usage().forEach((fr, v) -> u.merge(fr, v, Long::sum));
            }
            return out;
        }

        FlavorResourceQuota quota(ClusterQueueSpec cq, FlavorResource fr) {
            for (FlavorQuotas fq : cq.resourceGroups().get(0).flavors()) {
                if (fq.flavor().equals(fr.flavor())) {
                    ResourceQuota q = fq.resources().get(0);
                    return new FlavorResourceQuota(q.nominal(), q.borrowingLimit(), q.lendingLimit());
                }
            }
            return new FlavorResourceQuota(0, 0L, null);
        }

        /** Independent reference of what a ClusterQueue may still take (Kueue's formula). */
        long available(ClusterQueueSpec cq, FlavorResource fr, Map<String, Map<FlavorResource, Long>> usage) {
            FlavorResourceQuota q = quota(cq, fr);
            long u = usage.getOrDefault(cq.name(), Map.of()).getOrDefault(fr, 0L);
            if (cq.cohort() == null) {
                return Math.max(0, q.nominal() - u);
            }
            long pool = 0;
            for (ClusterQueueSpec m : cqs) {
                if (cq.cohort().equals(m.cohort())) {
                    FlavorResourceQuota mq = quota(m, fr);
                    long mu = usage.getOrDefault(m.name(), Map.of()).getOrDefault(fr, 0L);
                    pool += mq.lendable() - Math.max(0, mu - mq.guaranteed());
                }
            }
            long fromPool = Math.max(0, pool);
            if (q.borrowingLimit() != null) {
                fromPool = Math.min(fromPool, Math.max(0, q.lendable() - Math.max(0, u - q.guaranteed())
                        + q.borrowingLimit()));
            }
            return Math.max(0, q.guaranteed() - u) + fromPool;
        }

        void checkQuota() {
            Map<String, Map<FlavorResource, Long>> usage = usage();
            Map<FlavorResource, Long> cohortUsed = new TreeMap<>();
            Map<FlavorResource, Long> cohortPool = new TreeMap<>();
            for (ClusterQueueSpec cq : cqs) {
                Map<FlavorResource, Long> u = usage.getOrDefault(cq.name(), Map.of());
                assertThat(engine.clusterQueueStatus(cq.name()).flavorsUsage()).isEqualTo(u);
                for (String f : FLAVORS) {
                    FlavorResource fr = new FlavorResource(f, "cpu");
                    FlavorResourceQuota q = quota(cq, fr);
                    long used = u.getOrDefault(fr, 0L);
                    long limit = cq.cohort() == null ? q.nominal()
                            : q.borrowingLimit() == null ? Long.MAX_VALUE : q.nominal() + q.borrowingLimit();
                    assertThat(used).as("%s %s usage", cq.name(), fr).isLessThanOrEqualTo(limit);
                    if (cq.cohort() != null) {
                        cohortUsed.merge(fr, Math.max(0, used - q.guaranteed()), Long::sum);
                        cohortPool.merge(fr, q.lendable(), Long::sum);
                    }
                }
            }
            cohortUsed.forEach((fr, used) -> assertThat(used).as("cohort %s", fr)
                    .isLessThanOrEqualTo(cohortPool.get(fr)));
        }

        void checkVictims(CycleResult r) {
            for (Eviction e : r.evictions()) {
                assertThat(e.reason()).isEqualTo(EvictionReason.Preempted);
                WorkloadSpec victim = specs.get(e.workload());
                WorkloadSpec preemptor = specs.get(e.preemptor());
                ClusterQueueSpec own = byName.get(cqOf(preemptor));
                ClusterQueueSpec theirs = byName.get(holding.get(e.workload()).clusterQueue());
                PreemptionSpec p = own.preemption();
                if (own == theirs) {
                    assertThat(e.preemptionReason()).isEqualTo(PreemptionReason.InClusterQueue);
                    assertThat(p.withinClusterQueue()).isNotEqualTo(WithinClusterQueue.Never);
                    boolean lower = victim.priority() < preemptor.priority();
                    boolean newerEqual = victim.priority() == preemptor.priority()
                            && p.withinClusterQueue() == WithinClusterQueue.LowerOrNewerEqualPriority;
                    assertThat(lower || newerEqual).as("victim %s of %s", victim.key(), preemptor.key()).isTrue();
                } else {
                    assertThat(own.cohort()).isNotNull().isEqualTo(theirs.cohort());
                    assertThat(p.reclaimWithinCohort()).isNotEqualTo(ReclaimWithinCohort.Never);
                    if (p.reclaimWithinCohort() == ReclaimWithinCohort.LowerPriority) {
                        assertThat(victim.priority()).isLessThan(preemptor.priority());
                    }
                }
            }
        }

        String cqOf(WorkloadSpec w) {
            return "cq" + w.queueName().substring(2);
        }

        /** With all evictions done and cycles settled, a BestEffortFIFO workload that fits is not left waiting. */
        void checkNoIdleCapacity(long now) {
            for (int round = 0; ; round++) {
                assertThat(round).as("settling").isLessThan(100);
                for (WorkloadKey k : new ArrayList<>(evicting)) {
                    engine.evictionDone(k, now);
                    holding.remove(k);
                }
                evicting.clear();
                boolean busy = true;
                while (busy) {
                    CycleResult r = cycle(now);
                    checkVictims(r);
                    busy = !r.admissions().isEmpty() || !r.evictions().isEmpty();
                }
                if (evicting.isEmpty()) {
                    break;
                }
            }
            checkQuota();
            Map<String, Map<FlavorResource, Long>> usage = usage();
            for (WorkloadKey k : known) {
                if (holding.containsKey(k)) {
                    continue;
                }
                WorkloadSpec w = specs.get(k);
                ClusterQueueSpec cq = byName.get(cqOf(w));
                if (cq.queueingStrategy() != QueueingStrategy.BestEffortFIFO) {
                    continue;
                }
                PodSetSpec ps = w.podSets().get(0);
                long need = ps.requestsPerPod().get("cpu") * ps.count();
                for (FlavorQuotas fq : cq.resourceGroups().get(0).flavors()) {
                    long avail = available(cq, new FlavorResource(fq.flavor(), "cpu"), usage);
                    assertThat(need).as("%s waits in %s though %s has %d free; %s", k, cq.name(), fq.flavor(),
                            avail, engine.workload(k).orElseThrow().message()).isGreaterThan(avail);
                }
            }
        }
    }

    @Property(tries = 200)
    void usageStaysWithinQuotaAndVictimsAreAllowed(@ForAll @LongRange(min = 0, max = 1_000_000) long seed,
                                                     @ForAll @IntRange(min = 1, max = 80) int steps) {
        World w = new World(seed);
        for (int i = 0; i < steps; i++) {
            CycleResult r = w.step(i);
            if (r != null) {
                w.checkVictims(r);
            }
            w.checkQuota();
        }
    }

    @Property(tries = 200)
    void fittingWorkloadsDoNotWaitWhileCapacityIsIdle(@ForAll @LongRange(min = 0, max = 1_000_000) long seed,
                                                       @ForAll @IntRange(min = 1, max = 80) int steps) {
        World w = new World(seed);
        for (int i = 0; i < steps; i++) {
            CycleResult r = w.step(i);
            if (r != null) {
                w.checkVictims(r);
            }
        }
        w.checkNoIdleCapacity(steps);
    }

    @Property(tries = 100)
    void sameInputsGiveSameDecisions(@ForAll @LongRange(min = 0, max = 1_000_000) long seed,
                                     @ForAll @IntRange(min = 1, max = 80) int steps) {
        World a = new World(seed);
        World b = new World(seed);
        for (int i = 0; i < steps; i++) {
            a.step(i);
            b.step(i);
        }
        a.checkNoIdleCapacity(steps);
        b.checkNoIdleCapacity(steps);
        assertThat(a.trace).isEqualTo(b.trace);
    }
}
