package dev.sluice.controller.tas;

import dev.sluice.engine.tas.PodSetTopologyRequest;
import dev.sluice.engine.tas.TopologyAssignment;
import dev.sluice.engine.tas.TopologyDomainAssignment;
import dev.sluice.jobs.WellKnown;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/** Builders for the ungater's cases, shaped as Kueue's test wrappers (testingpod.MakePod, MakeTopologyAssignment). */
final class UngateCase {
    static final String BLOCK = "cloud.com/topology-block";
    static final String RACK = "cloud.com/topology-rack";
    static final List<String> DEFAULT_LEVELS = List.of(BLOCK, RACK);
    static final String MAIN = "main";
    static final String JOB_INDEX = "batch.kubernetes.io/job-completion-index";
    static final String JOBSET_JOB_INDEX = "jobset.sigs.k8s.io/job-index";
    static final String LWS_WORKER_INDEX = "leaderworkerset.sigs.k8s.io/worker-index";
    static final String KF_REPLICA_INDEX = "training.kubeflow.org/replica-index";
    static final String KF_ROLE = "training.kubeflow.org/job-role";
    static final String POD_GROUP_INDEX = "kueue.x-k8s.io/pod-group-pod-index";

    private UngateCase() {
    }

    static TopologyDomainAssignment domain(int count, String... values) {
        return new TopologyDomainAssignment(List.of(values), count);
    }

    static TopologyAssignment assignment(List<String> levels, TopologyDomainAssignment... domains) {
        return new TopologyAssignment(levels, List.of(domains));
    }

    static TopologyAssignment assignment(TopologyDomainAssignment... domains) {
        return assignment(DEFAULT_LEVELS, domains);
    }

    static UngatePlan.PodSetInput podSet(String name, int count, TopologyAssignment ta, PodSetTopologyRequest req) {
        return new UngatePlan.PodSetInput(name, count, ta, req);
    }

    static PodSetTopologyRequest ranked(String podIndexLabel, String subGroupIndexLabel, Integer subGroupCount,
            String group) {
        return new PodSetTopologyRequest(null, null, null, podIndexLabel, subGroupIndexLabel, subGroupCount, group,
                null, null, null);
    }

    static P pod(String name) {
        return new P(name);
    }

    /** A pod as Kueue's testingpod wrapper builds it; the pod set label and the Workload annotation by default. */
    static final class P {
        final String name;
        String uid;
        final Map<String, String> labels = new LinkedHashMap<>();
        final Map<String, String> annotations = new LinkedHashMap<>();
        final Map<String, String> selector = new TreeMap<>();
        boolean gated;
        boolean terminated;

        P(String name) {
            this.name = name;
            this.uid = name;
            labels.put(WellKnown.POD_SET, MAIN);
            annotations.put(WellKnown.WORKLOAD, "unit-test");
        }

        P uid(String u) {
            uid = u;
            return this;
        }

        P label(String k, String v) {
            labels.put(k, v);
            return this;
        }

        P podSet(String ps) {
            return label(WellKnown.POD_SET, ps);
        }

        P annotation(String k, String v) {
            annotations.put(k, v);
            return this;
        }

        P gated() {
            gated = true;
            return this;
        }

        P on(String block, String rack) {
            selector.put(BLOCK, block);
            selector.put(RACK, rack);
            return this;
        }

        P selector(String k, String v) {
            selector.put(k, v);
            return this;
        }

        P terminated() {
            terminated = true;
            return this;
        }

        TasPod build() {
            return new TasPod(name, uid, labels, annotations, selector, gated, terminated, "2026-12-02T16:00:00Z");
        }
    }

    static List<TasPod> pods(P... ps) {
        return Arrays.stream(ps).map(P::build).toList();
    }

    /** The pods after the plan's patches: ungated ones lose the gate and get the selector added. */
    static List<TasPod> apply(List<TasPod> pods, List<UngatePlan.Ungate> plan) {
        Map<String, UngatePlan.Ungate> byName = new LinkedHashMap<>();
        for (UngatePlan.Ungate u : plan) {
            if (byName.put(u.pod().name(), u) != null) {
                throw new AssertionError("pod " + u.pod().name() + " ungated twice");
            }
        }
        List<TasPod> out = new ArrayList<>();
        for (TasPod p : pods) {
            UngatePlan.Ungate u = byName.get(p.name());
            if (u == null) {
                out.add(p);
                continue;
            }
            Map<String, String> sel = new TreeMap<>(p.nodeSelector());
            sel.putAll(u.nodeSelector());
            out.add(new TasPod(p.name(), p.uid(), p.labels(), p.annotations(), sel, false, p.terminated(), p.creation()));
        }
        return out;
    }

    /** Kueue's wantCounts: pods neither gated nor ended, by node selector. */
    static Map<Map<String, String>, Integer> counts(List<TasPod> pods) {
        Map<Map<String, String>, Integer> out = new LinkedHashMap<>();
        for (TasPod p : pods) {
            if (!p.gated() && !p.terminated()) {
                out.merge(new TreeMap<>(p.nodeSelector()), 1, Integer::sum);
            }
        }
        return out;
    }

    static Map<String, String> sel(String block, String rack) {
        return new TreeMap<>(Map.of(BLOCK, block, RACK, rack));
    }

    /** Kueue's exact mode: each pod's node selector, and "gated" for those still gated. */
    static Map<String, Object> exact(List<TasPod> pods) {
        Map<String, Object> out = new TreeMap<>();
        for (TasPod p : pods) {
            out.put(p.name(), p.gated() ? "gated" : new TreeMap<>(p.nodeSelector()));
        }
        return out;
    }

    static Set<String> none() {
        return Set.of();
    }
}
