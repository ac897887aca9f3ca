package dev.sluice.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;

/**
 * Random queues with admission checks (for every flavor or some), AdmissionCheck objects that come, go and change
 * activity, and a test acting as the check controllers (random states for reserved workloads; Retry evicted, Rejected
 * deactivated, as the controller does). After every step: no workload is admitted with a check that is not Ready,
 * a reservation lists exactly the checks of its flavors, and only active queues reserve.
 */
class AdmissionCheckProperties {
    private static final String[] FLAVORS = {"f1", "f2"};
    private static final String[] CHECKS = {"a", "b", "c"};

    @Property(tries = 300)
    void noWorkloadIsAdmittedWithACheckNotReady(@ForAll @LongRange(min = 0, max = 1_000_000) long seed,
                                                @ForAll @IntRange(min = 1, max = 120) int steps) {
        Random rnd = new Random(seed);
        Engine e = new Engine();
        for (String f : FLAVORS) {
            e.upsertFlavor(Fixtures.flavor(f));
        }
        Map<String, AdmissionCheckSpec> objects = new TreeMap<>();
        for (String c : CHECKS) {
            if (rnd.nextInt(4) != 0) {
                AdmissionCheckSpec s = new AdmissionCheckSpec(c, "ctrl", rnd.nextInt(4) != 0);
                objects.put(c, s);
                e.upsertAdmissionCheck(s);
            }
        }
        Map<String, ClusterQueueSpec> cqs = new TreeMap<>();
        int n = 1 + rnd.nextInt(3);
        for (int i = 0; i < n; i++) {
            List<AdmissionCheckRule> rules = new ArrayList<>();
            for (String c : CHECKS) {
                if (rnd.nextInt(3) == 0) {
                    rules.add(rnd.nextBoolean() ? new AdmissionCheckRule(c)
                            : new AdmissionCheckRule(c, Set.of(FLAVORS[rnd.nextInt(FLAVORS.length)])));
                }
            }
            ClusterQueueSpec spec = Fixtures.cq("cq" + i, rnd.nextBoolean() ? "co" : null, "cpu",
                    "f1", rnd.nextInt(5), "f2", rnd.nextInt(5)).withAdmissionChecks(rules);
            cqs.put(spec.name(), spec);
            e.upsertClusterQueue(spec);
            e.upsertLocalQueue(Fixtures.lq("default", "lq" + i, spec.name()));
        }
        List<WorkloadKey> known = new ArrayList<>();
        List<WorkloadKey> evicting = new ArrayList<>();
        int next = 0;
        for (long now = 1; now <= steps; now++) {
            int action = rnd.nextInt(10);
            if (action < 3 || known.isEmpty()) {
                WorkloadSpec w = new WorkloadSpec(new WorkloadKey("default", "w" + next), "u" + next,
                        "lq" + rnd.nextInt(n), rnd.nextInt(3), now, List.of(PodSetSpec.of("main", 1 + rnd.nextInt(2),
                        Map.of("cpu", 1000L))), true);
                next++;
                known.add(w.key());
                e.submit(w);
            } else if (action == 3) {
                // an AdmissionCheck object appears, goes or changes activity
                String c = CHECKS[rnd.nextInt(CHECKS.length)];
                if (objects.containsKey(c) && rnd.nextBoolean()) {
                    objects.remove(c);
                    e.deleteAdmissionCheck(c);
                } else {
                    AdmissionCheckSpec s = new AdmissionCheckSpec(c, "ctrl", rnd.nextBoolean());
                    objects.put(c, s);
                    e.upsertAdmissionCheck(s);
                }
            } else if (action == 4 || action == 5) {
                // the check controllers decide for a reserved workload
                WorkloadKey k = known.get(rnd.nextInt(known.size()));
                WorkloadState st = e.workload(k).orElseThrow();
                if (st.phase() == WorkloadPhase.ADMITTED && !st.admissionChecks().isEmpty()) {
                    Map<String, CheckState> states = new TreeMap<>();
                    for (String c : st.admissionChecks().keySet()) {
                        int r = rnd.nextInt(10);
                        states.put(c, r < 6 ? CheckState.Ready : r < 8 ? CheckState.Pending
                                : r == 8 ? CheckState.Retry : CheckState.Rejected);
                    }
                    e.setAdmissionCheckStates(k, states);
                    if (states.containsValue(CheckState.Rejected)) {
                        WorkloadSpec s = st.spec();
                        e.submit(new WorkloadSpec(s.key(), s.uid(), s.queueName(), s.priority(),
                                s.creationTimeMillis(), s.podSets(), false));
                        e.drainEvictions().forEach(ev -> evicting.add(ev.workload()));
                    } else if (states.containsValue(CheckState.Retry)) {
                        Eviction ev = e.evict(k, EvictionReason.AdmissionCheck, "retry", now);
                        assertThat(ev).isNotNull();
                        evicting.add(k);
                    }
                }
            } else if (action == 6 && !evicting.isEmpty()) {
                e.evictionDone(evicting.remove(rnd.nextInt(evicting.size())), now);
            } else if (action == 7) {
                WorkloadKey k = known.remove(rnd.nextInt(known.size()));
                evicting.remove(k);
                e.finish(k);
            } else {
                CycleResult r = e.schedule(now);
                for (Admission a : r.admissions()) {
                    ClusterQueueSpec spec = cqs.get(a.assignment().clusterQueue());
                    assertThat(e.clusterQueueStatus(spec.name()).active())
                            .as("%s reserved in inactive %s", a.workload(), spec.name()).isTrue();
                    assertThat(a.admissionChecks()).isEqualTo(expectedChecks(spec, a.assignment()));
                }
                r.evictions().forEach(ev -> evicting.add(ev.workload()));
            }
            check(e, known, cqs);
        }
    }

    /** The checks of the queue whose flavors (all of the queue's when none are named) meet the assignment's. */
    private static List<String> expectedChecks(ClusterQueueSpec spec, Assignment assignment) {
        Set<String> assigned = new java.util.TreeSet<>();
        assignment.podSets().forEach(ps -> assigned.addAll(ps.flavors().values()));
        List<String> out = new ArrayList<>();
        for (String c : CHECKS) {
            for (AdmissionCheckRule rule : spec.admissionChecks()) {
                if (rule.name().equals(c) && (rule.onFlavors().isEmpty()
                        || assigned.stream().anyMatch(rule.onFlavors()::contains))) {
                    out.add(c);
                }
            }
        }
        return out;
    }

    private static void check(Engine e, List<WorkloadKey> known, Map<String, ClusterQueueSpec> cqs) {
        Map<String, Integer> admittedPerQueue = new TreeMap<>();
        Map<String, Integer> reservingPerQueue = new TreeMap<>();
        for (WorkloadKey k : known) {
            WorkloadState st = e.workload(k).orElseThrow();
            if (st.admitted()) {
                assertThat(st.admissionChecks().values()).as("checks of admitted %s", k)
                        .allMatch(c -> c == CheckState.Ready);
                assertThat(st.admissionChecks().keySet()).as("checks of admitted %s", k)
                        .containsAll(expectedChecks(cqs.get(st.clusterQueue()), st.assignment()));
                admittedPerQueue.merge(st.clusterQueue(), 1, Integer::sum);
            } else {
                assertThat(st.phase() == WorkloadPhase.ADMITTED && st.admissionChecks().values().stream()
                        .allMatch(c -> c == CheckState.Ready)).as("%s", k).isFalse();
            }
            if (st.phase() == WorkloadPhase.ADMITTED || st.phase() == WorkloadPhase.EVICTING) {
                reservingPerQueue.merge(st.clusterQueue(), 1, Integer::sum);
            }
        }
        for (String cq : cqs.keySet()) {
            ClusterQueueStatus st = e.clusterQueueStatus(cq);
            assertThat(st.reservingWorkloads()).isEqualTo(reservingPerQueue.getOrDefault(cq, 0));
            assertThat(st.admittedWorkloads()).isLessThanOrEqualTo(st.reservingWorkloads());
        }
    }
}
