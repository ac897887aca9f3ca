package dev.sluice.controller.tas;

import dev.sluice.engine.tas.PodSetTopologyRequest;
import dev.sluice.engine.tas.Topology;
import dev.sluice.engine.tas.TopologyAssignment;
import dev.sluice.engine.tas.TopologyDomainAssignment;
import dev.sluice.jobs.WellKnown;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Which gated pods of an admitted Workload are ungated, onto which domain: Kueue v0.19's topology ungater
 * (pkg/controller/tas/topology_ungater.go, Reconcile). Pure: the Workload's pod set assignments and the pods in, the
 * node selector of each pod to ungate out.
 * <p>
 * A pod set whose pods carry its request's pod index label (and, for kinds of replicated jobs, the sub-group index
 * label with a sub-group count) is placed by rank: the rank-th pod goes to the domain the assignment lists rank-th
 * (domains in order, each repeated by its pod count). Pods of a pod set group (a leader and its workers) rank on: the
 * smaller pod set first. When any pod lacks the label, or two share a rank, or a pod already ungated sits elsewhere
 * than its rank says, the pod set falls back to the greedy order: the gated pods, in creation order, fill each
 * domain's places left by the pods already ungated on it. A domain whose node is in {@code status.unhealthyNodes} gets
 * no pod until the scheduler replaced it.
 */
public final class UngatePlan {

    private UngatePlan() {
    }

    /** One pod set assignment: its name, admitted count, where its pods go (null: not placed by topology), request. */
    public record PodSetInput(String name, int count, TopologyAssignment assignment, PodSetTopologyRequest request) {
    }

    /** Take the gate off {@code pod} and add {@code nodeSelector} (the domain's value at each level of the assignment). */
    public record Ungate(TasPod pod, Map<String, String> nodeSelector) {
        public Ungate {
            nodeSelector = Map.copyOf(nodeSelector);
        }
    }

    /** Kueue's errParseOffsetAnnotation: the pod index offset annotation is not a number; nothing is ungated. */
    public static final class BadOffsetException extends RuntimeException {
        BadOffsetException(String pod, String value) {
            super("failed to parse offset annotation: pod " + pod + " has " + WellKnown.POD_INDEX_OFFSET + "=\""
                    + value + "\", not an integer");
        }
    }

    /** Why a pod set's pods cannot be placed by rank (Kueue logs it and takes the greedy order). */
    private static final class NoRanks extends Exception {
        NoRanks(String why) {
            super(why, null, false, false);
        }
    }

    /**
     * @param workload the Workload's name: its pods carry it in their {@code kueue.x-k8s.io/workload} annotation
     * @param podSets the Workload's pod set assignments, in its order
     * @param unhealthyNodes its {@code status.unhealthyNodes}
     * @param pods pods of its namespace, any order (those of other Workloads are left alone)
     * @throws BadOffsetException a pod's index offset annotation does not parse
     */
    public static List<Ungate> plan(String workload, List<PodSetInput> podSets, Set<String> unhealthyNodes,
            List<TasPod> pods) {
        pods = pods.stream().filter(p -> workload.equals(p.annotations().get(WellKnown.WORKLOAD))).toList();
        Map<String, Integer> rankOffset = new HashMap<>();
        Map<String, Integer> maxRank = new HashMap<>();
        Map<String, List<PodSetInput>> groups = new LinkedHashMap<>();
        for (int i = 0; i < podSets.size(); i++) {
            PodSetInput ps = podSets.get(i);
            String group = ps.request() != null && ps.request().podSetGroupName() != null
                    ? ps.request().podSetGroupName() : Integer.toString(i);
            groups.computeIfAbsent(group, g -> new ArrayList<>()).add(ps);
        }
        for (List<PodSetInput> group : groups.values()) {
            if (group.size() > 1) {
                // a LeaderWorkerSet's leader ranks 0 and its workers 1..N: the smaller pod set is the leader
                PodSetInput smaller = group.get(0);
                PodSetInput larger = group.get(1);
                if (smaller.count() > larger.count()) {
                    smaller = group.get(1);
                    larger = group.get(0);
                }
                rankOffset.put(smaller.name(), 0);
                rankOffset.put(larger.name(), smaller.count());
                maxRank.put(smaller.name(), smaller.count());
                maxRank.put(larger.name(), larger.count() + smaller.count());
            } else {
                rankOffset.put(group.get(0).name(), 0);
                maxRank.put(group.get(0).name(), group.get(0).count());
            }
        }
        List<Ungate> out = new ArrayList<>();
        for (PodSetInput ps : podSets) {
            if (ps.assignment() == null) {
                continue;
            }
            List<TasPod> own = podsOf(ps.name(), pods);
            int offset = rankOffset.get(ps.name());
            int bound = maxRank.get(ps.name());
            if (!own.isEmpty()) {
                // all pods of one replica share the offset
                String value = own.get(0).annotations().get(WellKnown.POD_INDEX_OFFSET);
                if (value != null) {
                    int parsed;
                    try {
                        parsed = Integer.parseInt(value.trim());
                    } catch (NumberFormatException e) {
                        throw new BadOffsetException(own.get(0).name(), value);
                    }
                    offset += parsed;
                    bound += parsed;
                }
            }
            Map<TasPod, String> toDomain = assign(ps, own, offset, bound);
            Map<String, List<String>> valuesById = new HashMap<>();
            for (TopologyDomainAssignment d : ps.assignment().domains()) {
                valuesById.put(domainId(d.values()), d.values());
            }
            List<String> levels = ps.assignment().levels();
            boolean hostnameLeaves = !levels.isEmpty() && Topology.HOSTNAME.equals(levels.get(levels.size() - 1));
            for (TasPod pod : own) {
                String domain = toDomain.get(pod);
                if (domain == null) {
                    continue;
                }
                // Kueue's NodeNameFromDomainID: with hostname leaves the domain is the node
                if (hostnameLeaves && unhealthyNodes.contains(domain)) {
                    continue;
                }
                List<String> values = valuesById.get(domain);
                Map<String, String> selector = new TreeMap<>();
                for (int l = 0; l < levels.size(); l++) {
                    selector.put(levels.get(l), values.get(l));
                }
                out.add(new Ungate(pod, selector));
            }
        }
        return out;
    }

    /** The pods of the pod set (its label), not ended, in creation order (then name). */
    private static List<TasPod> podsOf(String podSet, List<TasPod> pods) {
        List<TasPod> own = new ArrayList<>();
        for (TasPod p : pods) {
            if (podSet.equals(p.labels().get(WellKnown.POD_SET)) && !p.terminated()) {
                own.add(p);
            }
        }
        own.sort(Comparator.comparing(TasPod::creation).thenComparing(TasPod::name));
        return own;
    }

    /** The domain of each gated pod to ungate: by rank when the pods allow it, else greedily. */
    private static Map<TasPod, String> assign(PodSetInput ps, List<TasPod> pods, int offset, int bound) {
        List<String> rankToDomain = rankToDomain(ps.assignment());
        try {
            Map<Integer, TasPod> byRank = ranks(ps, pods, offset, bound, rankToDomain);
            Map<TasPod, String> out = new LinkedHashMap<>();
            byRank.forEach((rank, pod) -> {
                if (pod.gated()) {
                    out.put(pod, rankToDomain.get(rank));
                }
            });
            return out;
        } catch (NoRanks e) {
            return greedy(ps.assignment(), pods);
        }
    }

    /** Kueue's readRanksIfAvailable: every pod's rank, or why the ranks cannot be used. */
    private static Map<Integer, TasPod> ranks(PodSetInput ps, List<TasPod> pods, int offset, int bound,
            List<String> rankToDomain) throws NoRanks {
        PodSetTopologyRequest req = ps.request();
        if (req == null || req.podIndexLabel() == null) {
            throw new NoRanks("no pod index label");
        }
        int podSetSize = ps.count();
        int singleJobSize = podSetSize;
        if (req.subGroupIndexLabel() != null) {
            if (req.subGroupCount() == null || req.subGroupCount() <= 0) {
                throw new NoRanks("invalid subgroup count for podset with subgroup index label");
            }
            singleJobSize = podSetSize / req.subGroupCount();
        }
        Map<Integer, TasPod> byRank = new TreeMap<>();
        for (TasPod pod : pods) {
            int index = label(pod, req.podIndexLabel(), bound);
            int rank = index - offset;
            if (req.subGroupIndexLabel() != null) {
                int job = label(pod, req.subGroupIndexLabel(), req.subGroupCount());
                if (index >= singleJobSize) {
                    throw new NoRanks("pod index " + index + " of " + pod.name() + " exceeds the single Job size "
                            + singleJobSize);
                }
                rank = index + job * singleJobSize - offset;
            }
            if (rank >= podSetSize) {
                throw new NoRanks("rank " + rank + " of " + pod.name() + " exceeds PodSet size " + podSetSize);
            }
            if (rank < 0) {
                throw new NoRanks("rank " + rank + " of " + pod.name() + " is below 0");
            }
            if (byRank.put(rank, pod) != null) {
                throw new NoRanks("conflicting rank " + rank + " found for pod " + pod.name());
            }
        }
        for (var e : byRank.entrySet()) {
            if (e.getKey() >= rankToDomain.size()) {
                // the assignment covers fewer pods than the pod set's count (a slice size not dividing it)
                throw new NoRanks("rank " + e.getKey() + " is beyond the assigned domains");
            }
            TasPod pod = e.getValue();
            if (!pod.gated() && !rankToDomain.get(e.getKey()).equals(domainOf(ps.assignment().levels(), pod))) {
                throw new NoRanks("running pod " + pod.name() + " is not on the domain of its rank");
            }
        }
        return byRank;
    }

    /** Kueue's ReadUIntFromLabelBelowBound. */
    private static int label(TasPod pod, String key, int bound) throws NoRanks {
        String value = pod.labels().get(key);
        if (value == null) {
            throw new NoRanks("no label " + key + " on pod " + pod.name());
        }
        long parsed;
        try {
            parsed = Long.parseUnsignedLong(value);
        } catch (NumberFormatException e) {
            throw new NoRanks("label " + key + "=" + value + " of pod " + pod.name() + " is not an unsigned integer");
        }
        if (parsed >= bound) {
            throw new NoRanks("label " + key + "=" + value + " of pod " + pod.name() + " is not below " + bound);
        }
        return (int) parsed;
    }

    /** Kueue's assignGatedPodsToDomainsGreedy. */
    private static Map<TasPod, String> greedy(TopologyAssignment ta, List<TasPod> pods) {
        List<TasPod> gated = new ArrayList<>();
        Map<String, Integer> ungatedOn = new HashMap<>();
        for (TasPod pod : pods) {
            if (pod.gated()) {
                gated.add(pod);
            } else {
                ungatedOn.merge(domainOf(ta.levels(), pod), 1, Integer::sum);
            }
        }
        Map<TasPod, String> out = new LinkedHashMap<>();
        int next = 0;
        for (TopologyDomainAssignment d : ta.domains()) {
            String id = domainId(d.values());
            int free = Math.max(d.count() - ungatedOn.getOrDefault(id, 0), 0);
            for (int i = 0; i < free && next < gated.size(); i++) {
                out.put(gated.get(next++), id);
            }
        }
        return out;
    }

    /** Kueue's rankToDomainID: the domains in order, each as many times as its pod count. */
    private static List<String> rankToDomain(TopologyAssignment ta) {
        List<String> out = new ArrayList<>();
        for (TopologyDomainAssignment d : ta.domains()) {
            String id = domainId(d.values());
            for (int i = 0; i < d.count(); i++) {
                out.add(id);
            }
        }
        return out;
    }

    /** The domain a pod's node selector points at, at the assignment's levels (Kueue's LevelValues). */
    private static String domainOf(List<String> levels, TasPod pod) {
        List<String> values = new ArrayList<>();
        for (String level : levels) {
            String v = pod.nodeSelector().get(level);
            values.add(v == null ? "" : v);
        }
        return domainId(values);
    }

    /** Kueue's utiltas.DomainID. */
    static String domainId(List<String> values) {
        return String.join(",", values);
    }
}
