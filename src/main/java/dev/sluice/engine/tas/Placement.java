package dev.sluice.engine.tas;

import dev.sluice.engine.NodeSelectorRequirement;
import dev.sluice.engine.NodeSelectorTerm;
import dev.sluice.engine.Taint;
import dev.sluice.engine.Toleration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One run of Kueue v0.19's placement for a pod set (and its leader, when grouped): findTopologyAssignment of
 * pkg/cache/scheduler/tas_flavor_snapshot.go, with the gates as v0.19.2 ships them (TASProfileMixed on: unconstrained
 * uses LeastFreeCapacity, the rest BestFit; TASMultiLayerTopology on; TASBalancedPlacement and
 * TASRespectNodeAffinityPreferred off).
 *
 * <p>Phase 1 counts how many pods (and slices, and whether a leader) fit in every domain, bottom up. Phase 2 picks
 * the domains at the requested level (falling back to higher levels for preferred), then walks down level by level
 * using as few domains as possible, and builds the assignment at the lowest level.
 */
final class Placement {
    private final TasFlavorSnapshot s;
    private final TasPodSetRequest workers;
    private final TasPodSetRequest leader;
    private final Map<String, TreeMap<String, Long>> assumedUsage;
    private final boolean simulateEmpty;
    private final ExclusionStats stats = new ExclusionStats();

    private TreeMap<String, Long> requests;
    private TreeMap<String, Long> leaderRequests;
    private int count;
    private int leaderCount;
    private int sliceSize;
    private boolean required;
    private boolean unconstrained;
    private int sliceLevelIdx;
    private Map<Integer, Integer> sliceSizeAtLevel = Map.of();
    private List<SliceConstraint> multiLayerConstraints = List.of();
    private List<Toleration> tolerations;
    private String failureReason;

    /** Kueue's requiredReplacementDomain: only leaves within this domain (its id) hold pods; null: any leaf. */
    private final String requiredReplacementDomain;

    Placement(TasFlavorSnapshot s, TasPodSetRequest workers, TasPodSetRequest leader,
              Map<String, TreeMap<String, Long>> assumedUsage, boolean simulateEmpty) {
        this(s, workers, leader, assumedUsage, simulateEmpty, null);
    }

    Placement(TasFlavorSnapshot s, TasPodSetRequest workers, TasPodSetRequest leader,
              Map<String, TreeMap<String, Long>> assumedUsage, boolean simulateEmpty, String requiredReplacementDomain) {
        this.s = s;
        this.workers = workers;
        this.leader = leader;
        this.assumedUsage = assumedUsage;
        this.simulateEmpty = simulateEmpty;
        this.requiredReplacementDomain = requiredReplacementDomain == null || requiredReplacementDomain.isEmpty() ? null
                : requiredReplacementDomain;
    }

    /** Null when the placement was found. */
    String failureReason() {
        return failureReason;
    }

    private Map<String, TopologyAssignment> fail(String reason) {
        failureReason = reason;
        return Map.of();
    }

    Map<String, TopologyAssignment> run() {
        count = workers.count();
        requests = Requests.withOnePod(workers.singlePodRequests());
        if (leader != null) {
            leaderRequests = Requests.withOnePod(leader.singlePodRequests());
            // Kueue's pod set grouping validation requires the leader to have one replica
            leaderCount = 1;
        }
        PodSetTopologyRequest tr = workers.topologyRequest();
        List<SliceConstraint> constraints = tr == null ? List.of() : tr.sliceConstraints();
        if (constraints.isEmpty()) {
            sliceSize = 1;
        } else {
            sliceSize = constraints.get(0).size();
            if (sliceSize <= 0) {
                return fail("slice topology requested, but slice size not provided");
            }
        }
        required = tr != null && tr.isRequired();
        unconstrained = (tr != null && Boolean.TRUE.equals(tr.unconstrained())) || workers.implied()
                || (tr != null && tr.isSliceTopologyOnly());

        String topologyKey = s.levelKey(tr);
        if (topologyKey == null && workers.implied()) {
            topologyKey = s.topology.lowestLevel();
        }
        if (topologyKey == null) {
            return fail("topology level not specified");
        }
        int requestedLevelIdx = s.levelKeys.indexOf(topologyKey);
        if (requestedLevelIdx < 0) {
            return fail("no requested topology level: " + topologyKey);
        }
        String sliceTopologyKey = TasFlavorSnapshot.sliceLevelKeyWithDefault(tr, s.topology.lowestLevel());
        sliceLevelIdx = s.levelKeys.indexOf(sliceTopologyKey);
        if (sliceLevelIdx < 0) {
            return fail("no requested topology level for slices: " + sliceTopologyKey);
        }
        if (requestedLevelIdx > sliceLevelIdx) {
            return fail("podset slice topology " + sliceTopologyKey + " is above the podset topology " + topologyKey);
        }
        String reason = buildSliceSizeAtLevel(constraints);
        if (reason != null) {
            return fail(reason);
        }
        if (!sliceSizeAtLevel.isEmpty()) {
            multiLayerConstraints = constraints;
        }
        tolerations = new ArrayList<>(workers.tolerations());
        tolerations.addAll(s.flavorTolerations);

        // phase 1: how many pods and slices fit in each domain
        fillInCounts();

        // phase 2a: the level and the domains at it that hold all pods / slices
        int lastLevel = s.levelKeys.size() - 1;
        Fit fit = findLevelWithFitDomains(requestedLevelIdx);
        if (fit == null) {
            return Map.of();
        }
        // phase 2b: down level by level, as few domains as possible at each
        List<Domain> currFitDomain = updateCountsToMinimum(fit.domains, count, leaderCount, sliceSize, true);
        int currentLevelIdx = fit.levelIdx;
        for (; currentLevelIdx < Math.min(lastLevel, sliceLevelIdx); currentLevelIdx++) {
            // above the slice level pods / slices are spread greedily, whatever was given to the parents
            List<Domain> sortedLower = sortedDomains(lowerLevelDomains(currFitDomain));
            currFitDomain = updateCountsToMinimum(sortedLower, count, leaderCount, sliceSize, true);
        }
        for (; currentLevelIdx < lastLevel; currentLevelIdx++) {
            // at and below the slice level each parent's pods go to its own children
            int sliceSizeOnLevel = sliceSize;
            if (currentLevelIdx >= sliceLevelIdx) {
                sliceSizeOnLevel = sliceSizeAtLevel.getOrDefault(currentLevelIdx + 1, 1);
            }
            List<Domain> next = new ArrayList<>();
            for (Domain domain : currFitDomain) {
                List<Domain> sortedLower = sortedDomains(domain.children);
                if (sliceSizeOnLevel > 1) {
                    // an inner slice layer: the slice counts were for the outer layer
                    for (Domain d : sortedLower) {
                        d.sliceCount = d.podCount / sliceSizeOnLevel;
                        d.sliceCountWithLeader = d.podCountWithLeader / sliceSizeOnLevel;
                    }
                }
                next.addAll(updateCountsToMinimum(sortedLower, domain.podCount, domain.leaderCount, sliceSizeOnLevel,
                        sliceSizeOnLevel > 1));
            }
            currFitDomain = next;
        }

        Map<String, TopologyAssignment> assignments = new LinkedHashMap<>();
        if (leader != null) {
            List<Domain> leaderFit = new ArrayList<>();
            List<Domain> workerFit = new ArrayList<>();
            for (Domain d : currFitDomain) {
                if (d.leaderCount > 0) {
                    Domain c = d.cloneWithState();
                    c.podCount = d.leaderCount;
                    leaderFit.add(c);
                }
                if (d.podCount > 0) {
                    workerFit.add(d);
                }
            }
            assignments.put(leader.podSetName(), buildAssignment(leaderFit));
            currFitDomain = workerFit;
        }
        assignments.put(workers.podSetName(), buildAssignment(currFitDomain));
        return assignments;
    }

    /** Kueue's buildSliceSizeAtLevel: the inner slice layers' sizes by level; null or the reason they are invalid. */
    private String buildSliceSizeAtLevel(List<SliceConstraint> constraints) {
        Map<Integer, Integer> result = new HashMap<>();
        int prevSize = sliceSize;
        int prevLevelIdx = sliceLevelIdx;
        for (SliceConstraint layer : constraints.size() > 1 ? constraints.subList(1, constraints.size())
                : List.<SliceConstraint>of()) {
            int innerLevelIdx = s.levelKeys.indexOf(layer.topology());
            if (innerLevelIdx < 0) {
                return "no requested topology level for additional slice layer: " + layer.topology();
            }
            if (innerLevelIdx <= prevLevelIdx) {
                return "additional slice layer topology " + layer.topology() + " must be at a lower level than "
                        + s.levelKeys.get(prevLevelIdx);
            }
            if (layer.size() <= 0 || prevSize % layer.size() != 0) {
                return "additional slice layer size " + layer.size() + " must evenly divide parent layer size " + prevSize;
            }
            for (int lvl = prevLevelIdx + 1; lvl <= innerLevelIdx; lvl++) {
                result.put(lvl, layer.size());
            }
            prevSize = layer.size();
            prevLevelIdx = innerLevelIdx;
        }
        sliceSizeAtLevel = result;
        return null;
    }

    // ---- phase 1

    private void fillInCounts() {
        for (Map<String, Domain> level : s.domainsPerLevel) {
            for (Domain d : level.values()) {
                d.clearState();
            }
        }
        for (Domain leaf : s.leaves.values()) {
            stats.totalNodes++;
            // like Kueue, a node's taints, selector and affinity count only when each leaf is a node
            if (s.isLowestLevelNode && leaf.node != null && !feasible(leaf.node)) {
                continue;
            }
            fillLeafCounts(leaf);
        }
        for (Domain root : s.roots.values()) {
            fillInCountsHelper(root, 0);
        }
    }

    /** Kueue's default feasibility checker: untolerated NoSchedule/NoExecute taint, node selector, required affinity. */
    private boolean feasible(TasNode node) {
        for (Taint taint : node.taints()) {
            if (!"NoSchedule".equals(taint.effect()) && !"NoExecute".equals(taint.effect())) {
                continue;
            }
            boolean tolerated = false;
            for (Toleration t : tolerations) {
                if (t.tolerates(taint)) {
                    tolerated = true;
                    break;
                }
            }
            if (!tolerated) {
                stats.taints.merge(taintString(taint), 1, Integer::sum);
                return false;
            }
        }
        for (Map.Entry<String, String> e : workers.nodeSelector().entrySet()) {
            if (!e.getValue().equals(node.labels().get(e.getKey()))) {
                stats.nodeSelector++;
                return false;
            }
        }
        if (!workers.requiredNodeAffinity().isEmpty() && !matchesAnyTerm(workers.requiredNodeAffinity(), node.labels())) {
            stats.affinity++;
            return false;
        }
        return true;
    }

    private static boolean matchesAnyTerm(List<NodeSelectorTerm> terms, Map<String, String> labels) {
        for (NodeSelectorTerm term : terms) {
            // as Kubernetes: an empty term matches no node
            if (term.matchExpressions().isEmpty()) {
                continue;
            }
            boolean all = true;
            for (NodeSelectorRequirement r : term.matchExpressions()) {
                all &= r.matches(labels);
            }
            if (all) {
                return true;
            }
        }
        return false;
    }

    /** corev1.Taint.ToString. */
    static String taintString(Taint t) {
        if (t.effect().isEmpty()) {
            return t.value().isEmpty() ? t.key() : t.key() + "=" + t.value() + ":";
        }
        return t.value().isEmpty() ? t.key() + ":" + t.effect() : t.key() + "=" + t.value() + ":" + t.effect();
    }

    private void fillLeafCounts(Domain leaf) {
        // leaf.id is only the hostname for hostname topologies; the ancestry check needs the whole path
        if (requiredReplacementDomain != null && !belongsTo(Domain.idOf(leaf.levelValues), requiredReplacementDomain)) {
            stats.topologyDomain++;
            return;
        }
        TreeMap<String, Long> remaining = s.remaining(leaf, simulateEmpty);
        TreeMap<String, Long> assumed = assumedUsage.get(leaf.id);
        if (assumed != null) {
            Requests.sub(remaining, assumed);
        }
        Requests.Fit fit = Requests.countInWithLimitingResource(requests, remaining);
        leaf.podCount = fit.count();
        if (leaf.podCount == 0 && !fit.limitingResource().isEmpty()) {
            stats.recordResource(fit.limitingResource());
        }
        leaf.leaderCount = 0;
        if (leaderRequests != null && Requests.countIn(leaderRequests, remaining) > 0) {
            leaf.leaderCount = 1;
            Requests.sub(remaining, leaderRequests);
        }
        leaf.podCountWithLeader = Requests.countIn(requests, remaining);
    }

    /** Kueue's TopologyDomainID.BelongsTo. */
    static boolean belongsTo(String domainId, String target) {
        return target.isEmpty() || domainId.equals(target) || domainId.startsWith(target + ",");
    }

    private void fillInCountsHelper(Domain domain, int level) {
        if (domain.isLeaf()) {
            if (level == sliceLevelIdx) {
                domain.sliceCount = domain.podCount / sliceSize;
                domain.sliceCountWithLeader = domain.podCountWithLeader / sliceSize;
            }
            return;
        }
        boolean leaderRequired = leaderCount > 0;
        int childrenCapacity = 0;
        int sliceCapacity = 0;
        boolean hasWithLeaderContributor = false;
        int minPodDiff = Integer.MAX_VALUE;
        int minSliceDiff = Integer.MAX_VALUE;
        int leaders = 0;
        int childLevel = level + 1;
        // children at an inner slice layer's level contribute only whole inner slices
        Integer innerSize = sliceSizeAtLevel.get(childLevel);
        for (Domain child : domain.children) {
            fillInCountsHelper(child, childLevel);
            int childPods = child.podCount;
            int childPodsWithLeader = child.podCountWithLeader;
            if (innerSize != null) {
                childPods = (child.podCount / innerSize) * innerSize;
                childPodsWithLeader = (child.podCountWithLeader / innerSize) * innerSize;
            }
            childrenCapacity += childPods;
            sliceCapacity += child.sliceCount;
            if (!leaderRequired || child.leaderCount > 0) {
                hasWithLeaderContributor = true;
                minPodDiff = Math.min(childPods - childPodsWithLeader, minPodDiff);
                minSliceDiff = Math.min(child.sliceCount - child.sliceCountWithLeader, minSliceDiff);
            }
            leaders = Math.max(child.leaderCount, leaders);
        }
        domain.podCount = childrenCapacity;
        int sliceCountWithLeader = 0;
        if (hasWithLeaderContributor) {
            domain.podCountWithLeader = childrenCapacity - minPodDiff;
            sliceCountWithLeader = sliceCapacity - minSliceDiff;
        } else {
            domain.podCountWithLeader = 0;
        }
        domain.leaderCount = leaders;
        if (level == sliceLevelIdx) {
            sliceCapacity = domain.podCount / sliceSize;
            sliceCountWithLeader = domain.podCountWithLeader / sliceSize;
        }
        domain.sliceCount = sliceCapacity;
        domain.sliceCountWithLeader = sliceCountWithLeader;
    }

    // ---- phase 2

    private record Fit(int levelIdx, List<Domain> domains) {
    }

    private boolean leastFreeCapacity() {
        return unconstrained; // TASProfileMixed, on by default in v0.19
    }

    private boolean bestFit() {
        return !leastFreeCapacity();
    }

    /** Kueue's findLevelWithFitDomains; null (with the failure reason set) when nothing fits. */
    private Fit findLevelWithFitDomains(int searchLevelIdx) {
        Map<String, Domain> domains = s.domainsPerLevel.get(searchLevelIdx);
        if (domains.isEmpty()) {
            failureReason = "no topology domains at level: " + s.levelKeys.get(searchLevelIdx);
            return null;
        }
        List<Domain> sorted = sortedDomainsWithLeader(new ArrayList<>(domains.values()));
        Domain top = sorted.get(0);
        int sliceCount = count / sliceSize;
        if (bestFit() && top.sliceCountWithLeader >= sliceCount && top.leaderCount >= leaderCount) {
            // the tightest domain that still holds everything
            top = findBestFitDomainForSlices(sorted, sliceCount, leaderCount);
        }
        if (leastFreeCapacity()) {
            for (Domain candidate : sorted) {
                int capacity = candidate.sliceCount;
                if (leaderCount > 0) {
                    if (candidate.leaderCount < leaderCount) {
                        continue;
                    }
                    capacity = candidate.sliceCountWithLeader;
                }
                if (capacity >= sliceCount) {
                    return new Fit(searchLevelIdx, List.of(candidate));
                }
            }
            if (required) {
                failureReason = notFitReason(searchLevelIdx, sorted.get(sorted.size() - 1).podCount, sliceCount);
                return null;
            }
        }
        if (top.sliceCountWithLeader < sliceCount || top.leaderCount < leaderCount) {
            if (required) {
                failureReason = notFitReason(searchLevelIdx, top.sliceCount, sliceCount);
                return null;
            }
            if (searchLevelIdx > 0 && !unconstrained) {
                return findLevelWithFitDomains(searchLevelIdx - 1);
            }
            List<Domain> results = new ArrayList<>();
            int remainingSlices = sliceCount;
            int remainingLeaders = leaderCount;
            sorted = prioritizeLeaderDomain(sorted, count, leaderCount, sliceSize, true);
            // leaders first, from a domain that keeps the workers' capacity; then the workers by capacity
            int idx = 0;
            for (; remainingLeaders > 0 && idx < sorted.size() && sorted.get(idx).leaderCount > 0; idx++) {
                Domain d = sorted.get(idx);
                if (bestFit() && d.sliceCountWithLeader >= remainingSlices) {
                    d = findBestFitDomainForSlices(sorted.subList(idx, sorted.size()), remainingSlices, remainingLeaders);
                }
                results.add(d);
                remainingLeaders -= d.leaderCount;
                remainingSlices -= d.sliceCountWithLeader;
            }
            if (remainingLeaders > 0) {
                failureReason = notFitReason(searchLevelIdx, leaderCount - remainingLeaders, sliceCount);
                return null;
            }
            sorted = sortedDomains(sorted.subList(idx, sorted.size()));
            for (int i = 0; remainingSlices > 0 && i < sorted.size(); i++) {
                Domain d = sorted.get(i);
                if (bestFit() && d.sliceCount >= remainingSlices) {
                    d = findBestFitDomainForSlices(sorted.subList(i, sorted.size()), remainingSlices, 0);
                }
                results.add(d);
                remainingSlices -= d.sliceCount;
            }
            if (remainingSlices > 0) {
                failureReason = notFitReason(searchLevelIdx, sliceCount - remainingSlices, sliceCount);
                return null;
            }
            return new Fit(searchLevelIdx, results);
        }
        return new Fit(searchLevelIdx, List.of(top));
    }

    private String notFitReason(int searchLevelIdx, int slicesFitCount, int totalSlices) {
        if (!multiLayerConstraints.isEmpty()) {
            return multiLayerNotFitMessage(searchLevelIdx);
        }
        StringBuilder b = new StringBuilder();
        String unit = sliceSize == 1 ? "pod" : "slice";
        String name = GoQuote.quote(s.topology.name());
        if (slicesFitCount == 0) {
            b.append("topology ").append(name).append(" doesn't allow to fit any of ").append(totalSlices)
                    .append(' ').append(unit).append("(s)");
        } else {
            b.append("topology ").append(name).append(" allows to fit only ").append(slicesFitCount).append(" out of ")
                    .append(totalSlices).append(' ').append(unit).append("(s)");
        }
        appendExclusions(b);
        return b.toString();
    }

    private void appendExclusions(StringBuilder b) {
        if (stats.hasExclusions()) {
            b.append(". Total nodes: ").append(stats.totalNodes).append("; excluded: ").append(stats.formatReasons());
        }
    }

    private String multiLayerNotFitMessage(int requiredLevelIdx) {
        StringBuilder b = new StringBuilder("topology ").append(GoQuote.quote(s.topology.name()))
                .append(" doesn't allow to fit");
        Domain best = null;
        for (Domain d : s.domainsPerLevel.get(requiredLevelIdx).values()) {
            if (best == null || d.sliceCount > best.sliceCount
                    || (d.sliceCount == best.sliceCount && d.id.compareTo(best.id) < 0)) {
                best = d;
            }
        }
        if (best == null) {
            return b.toString();
        }
        for (SliceConstraint c : multiLayerConstraints) {
            int target = s.levelKeys.indexOf(c.topology());
            if (target < 0) {
                continue;
            }
            int needed = count / c.size();
            int fit = countSlicesInSubtree(best, requiredLevelIdx, target, c.size());
            b.append("; ").append(fit).append('/').append(needed).append(" slice(s) fit on level ").append(c.topology());
        }
        appendExclusions(b);
        return b.toString();
    }

    private int countSlicesInSubtree(Domain d, int currentLevel, int targetLevel, int size) {
        if (currentLevel == targetLevel) {
            return d.podCount / size;
        }
        int total = 0;
        for (Domain child : d.children) {
            total += countSlicesInSubtree(child, currentLevel + 1, targetLevel, size);
        }
        return total;
    }

    /** Kueue's findBestFitDomainBy: the first domain of the smallest count that is still at least needed, else the first. */
    private static Domain findBestFit(List<Domain> domains, int needed, int leaders, boolean slices) {
        Domain best = domains.get(0);
        int bestCount = Integer.MAX_VALUE;
        boolean found = false;
        for (Domain d : domains) {
            if (d.leaderCount < leaders) {
                continue;
            }
            int c = slices ? (leaders > 0 ? d.sliceCountWithLeader : d.sliceCount)
                    : (leaders > 0 ? d.podCountWithLeader : d.podCount);
            if (c >= needed && c < bestCount) {
                best = d;
                bestCount = c;
                found = true;
            }
        }
        return found ? best : domains.get(0);
    }

    private static Domain findBestFitDomainForSlices(List<Domain> domains, int sliceCount, int leaders) {
        return findBestFit(domains, sliceCount, leaders, true);
    }

    /**
     * Kueue's prioritizeLeaderDomain: moves to the front the first domain that can host the leaders and whose leader
     * penalty still leaves room for every pod / slice.
     */
    private static List<Domain> prioritizeLeaderDomain(List<Domain> domains, int count, int leaders, int sliceSize,
                                                       boolean slicesEnabled) {
        if (leaders == 0 || domains.size() < 2) {
            return domains;
        }
        int requiredCapacity = count;
        int availableCapacity = 0;
        if (slicesEnabled) {
            requiredCapacity /= sliceSize;
            for (Domain d : domains) {
                availableCapacity += d.sliceCount;
            }
        } else {
            for (Domain d : domains) {
                availableCapacity += d.podCount;
            }
        }
        for (int i = 0; i < domains.size(); i++) {
            Domain d = domains.get(i);
            if (d.leaderCount < leaders) {
                continue;
            }
            int penalty = slicesEnabled ? d.sliceCount - d.sliceCountWithLeader : d.podCount - d.podCountWithLeader;
            if (availableCapacity - penalty < requiredCapacity) {
                continue;
            }
            if (i == 0) {
                return domains;
            }
            List<Domain> result = new ArrayList<>(domains.size());
            result.add(d);
            for (int j = 0; j < domains.size(); j++) {
                if (j != i) {
                    result.add(domains.get(j));
                }
            }
            return result;
        }
        return domains;
    }

    /**
     * Kueue's updateCountsToMinimumGeneric: takes domains in order until count pods (or count/sliceSize slices) and
     * the leaders are placed, the last one chosen best-fit, and sets each taken domain's count to what it gets.
     */
    private List<Domain> updateCountsToMinimum(List<Domain> domains, int count, int leaders, int sliceSize,
                                               boolean slices) {
        domains = prioritizeLeaderDomain(domains, count, leaders, sliceSize, slices);
        List<Domain> result = new ArrayList<>();
        int[] remainingPrimary = {slices ? count / sliceSize : count};
        int[] remainingLeaders = {leaders};
        for (int i = 0; i < domains.size(); i++) {
            Domain dom = domains.get(i);
            if (remainingLeaders[0] > 0) {
                List<Domain> rest = domains.subList(i, domains.size());
                Domain d = consumeWithLeaders(dom, rest, remainingPrimary, remainingLeaders, slices ? sliceSize : 1,
                        slices);
                result.add(d);
                if (completed) {
                    return result;
                }
                continue;
            }
            if (slices) {
                if (bestFit() && dom.sliceCount >= remainingPrimary[0]) {
                    dom = findBestFitDomainForSlices(domains.subList(i, domains.size()), remainingPrimary[0], 0);
                }
                dom.leaderCount = 0;
                if (dom.sliceCount >= remainingPrimary[0]) {
                    dom.podCount = remainingPrimary[0] * sliceSize;
                    dom.sliceCount = remainingPrimary[0];
                    result.add(dom);
                    return result;
                }
                dom.podCount = dom.sliceCount * sliceSize;
                remainingPrimary[0] -= dom.sliceCount;
                result.add(dom);
                continue;
            }
            if (bestFit() && dom.podCount >= remainingPrimary[0]) {
                dom = findBestFit(domains.subList(i, domains.size()), remainingPrimary[0], 0, false);
            }
            dom.leaderCount = 0;
            if (dom.podCount >= remainingPrimary[0]) {
                dom.podCount = remainingPrimary[0];
                result.add(dom);
                return result;
            }
            remainingPrimary[0] -= dom.podCount;
            result.add(dom);
        }
        // Kueue logs "code assumptions violated" and places nothing here
        return List.of();
    }

    private boolean completed;

    /** Kueue's consumeWithLeadersGeneric; sets {@link #completed} when all is placed. */
    private Domain consumeWithLeaders(Domain domain, List<Domain> remainingDomains, int[] remainingPrimary,
                                      int[] remainingLeaders, int sliceSize, boolean slices) {
        if (bestFit() && withLeader(domain, slices) >= remainingPrimary[0]
                && domain.leaderCount >= remainingLeaders[0]) {
            domain = findBestFit(remainingDomains, remainingPrimary[0], remainingLeaders[0], slices);
        }
        if (withLeader(domain, slices) >= remainingPrimary[0] && domain.leaderCount >= remainingLeaders[0]) {
            setPrimary(domain, slices, remainingPrimary[0]);
            domain.leaderCount = remainingLeaders[0];
            domain.podCount = remainingPrimary[0] * sliceSize;
            completed = true;
            return domain;
        }
        if (withLeader(domain, slices) > remainingPrimary[0]) {
            setWithLeader(domain, slices, remainingPrimary[0]);
        }
        if (domain.leaderCount > remainingLeaders[0]) {
            domain.leaderCount = remainingLeaders[0];
        }
        int taken = withLeader(domain, slices);
        setPrimary(domain, slices, taken);
        domain.podCount = taken * sliceSize;
        remainingLeaders[0] -= domain.leaderCount;
        remainingPrimary[0] -= taken;
        completed = false;
        return domain;
    }

    private static int withLeader(Domain d, boolean slices) {
        return slices ? d.sliceCountWithLeader : d.podCountWithLeader;
    }

    private static void setWithLeader(Domain d, boolean slices, int v) {
        if (slices) {
            d.sliceCountWithLeader = v;
        } else {
            d.podCountWithLeader = v;
        }
    }

    private static void setPrimary(Domain d, boolean slices, int v) {
        if (slices) {
            d.sliceCount = v;
        } else {
            d.podCount = v;
        }
    }

    private static List<Domain> lowerLevelDomains(List<Domain> domains) {
        List<Domain> result = new ArrayList<>();
        for (Domain d : domains) {
            result.addAll(d.children);
        }
        return result;
    }

    private int compareLevelValues(Domain a, Domain b) {
        return DomainOrder.compareLevelValues(a, b, s.isLowestLevelNode);
    }

    private List<Domain> sortedDomainsWithLeader(List<Domain> domains) {
        return DomainOrder.sortedWithLeader(domains, leastFreeCapacity(), s.isLowestLevelNode);
    }

    private List<Domain> sortedDomains(List<Domain> domains) {
        return DomainOrder.sorted(domains, leastFreeCapacity(), s.isLowestLevelNode);
    }

    /** Kueue's buildAssignment: domains in value order, only the hostname level when the topology ends with it. */
    private TopologyAssignment buildAssignment(List<Domain> domains) {
        List<Domain> sorted = new ArrayList<>(domains);
        sorted.sort(this::compareLevelValues);
        int levelIdx = s.isLowestLevelNode ? s.levelKeys.size() - 1 : 0;
        List<TopologyDomainAssignment> out = new ArrayList<>();
        for (Domain d : sorted) {
            if (d.podCount == 0) {
                continue;
            }
            out.add(new TopologyDomainAssignment(d.levelValues.subList(levelIdx, d.levelValues.size()), d.podCount));
        }
        return new TopologyAssignment(s.levelKeys.subList(levelIdx, s.levelKeys.size()), out);
    }
}
