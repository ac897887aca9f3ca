package dev.sluice.controller.tas;

import static dev.sluice.controller.tas.UngateCase.*;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.engine.tas.TopologyAssignment;
import dev.sluice.engine.tas.TopologyDomainAssignment;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * The ungater's node selectors agree with the assignment: over random assignments and random pods (with or without
 * an index label, in any order, some already ungated where the assignment puts them), once every pod was ungated each
 * pod has exactly one domain of the assignment and each domain as many pods as its count; by rank, pod i is on the
 * i-th place; and planning again changes nothing (level-triggered, idempotent).
 */
class UngatePlanProperties {

    @Property(tries = 300)
    void selectorsAgreeWithTheAssignment(@ForAll long seed, @ForAll @IntRange(min = 1, max = 6) int domains,
            @ForAll boolean ranked, @ForAll @IntRange(min = 0, max = 100) int alreadyUngatedPercent) {
        Random rnd = new Random(seed);
        List<TopologyDomainAssignment> ds = new ArrayList<>();
        for (int i = 0; i < domains; i++) {
            ds.add(domain(1 + rnd.nextInt(4), "b" + (i / 3), "r" + i));
        }
        TopologyAssignment ta = new TopologyAssignment(DEFAULT_LEVELS, ds);
        int n = ta.podCount();
        List<String> rankToRack = new ArrayList<>();
        for (TopologyDomainAssignment d : ds) {
            for (int i = 0; i < d.count(); i++) {
                rankToRack.add(d.values().get(1));
            }
        }
        // which ranks are already placed: each on its rank's domain (a valid earlier ungating)
        List<P> ps = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            P p = pod(String.format("pod-%03d", rnd.nextInt(1000)) + "-" + i);
            if (ranked) {
                p.label(JOB_INDEX, Integer.toString(i));
            }
            if (rnd.nextInt(100) < alreadyUngatedPercent) {
                TopologyDomainAssignment d = ds.get(domainIndexOfRank(ds, i));
                p.on(d.values().get(0), d.values().get(1));
            } else {
                p.gated();
            }
            ps.add(p);
        }
        Collections.shuffle(ps, rnd);
        List<TasPod> pods = pods(ps.toArray(P[]::new));
        var input = List.of(podSet(MAIN, n, ta, ranked ? ranked(JOB_INDEX, null, null, null) : null));

        List<UngatePlan.Ungate> plan = UngatePlan.plan("unit-test", input, none(), pods);
        List<TasPod> after = apply(pods, plan);

        assertThat(after).allMatch(p -> !p.gated());
        Map<Map<String, String>, Integer> want = new TreeMap<>(java.util.Comparator.comparing(Object::toString));
        for (TopologyDomainAssignment d : ds) {
            want.put(sel(d.values().get(0), d.values().get(1)), d.count());
        }
        Map<Map<String, String>, Integer> got = new TreeMap<>(java.util.Comparator.comparing(Object::toString));
        got.putAll(counts(after));
        assertThat(got).isEqualTo(want);
        for (UngatePlan.Ungate u : plan) {
            assertThat(u.nodeSelector()).containsOnlyKeys(DEFAULT_LEVELS);
        }
        if (ranked) {
            for (TasPod p : after) {
                int rank = Integer.parseInt(p.labels().get(JOB_INDEX));
                assertThat(p.nodeSelector().get(RACK)).as(p.name()).isEqualTo(rankToRack.get(rank));
            }
        }
        assertThat(UngatePlan.plan("unit-test", input, none(), after)).isEmpty();
    }

    private static int domainIndexOfRank(List<TopologyDomainAssignment> ds, int rank) {
        int seen = 0;
        for (int i = 0; i < ds.size(); i++) {
            seen += ds.get(i).count();
            if (rank < seen) {
                return i;
            }
        }
        throw new IllegalArgumentException("rank " + rank);
    }
}
