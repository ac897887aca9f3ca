package dev.sluice.engine;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Picks a flavor for each resource group of each pod set, in the ClusterQueue's listed order, as Kueue's
 * flavorassigner does: a flavor must exist, its taints must be tolerated, its node labels must agree with the
 * pod's node selector and required affinity, and its quota must fit (or be freeable by preemption).
 */
final class FlavorAssigner {

    /** Ordered worst to best. */
    enum Mode { NO_FIT, PREEMPT, FIT }

    /** What the assigner found for a workload; message is Kueue's text when mode is not FIT. */
    /** borrowLevel: 0 without borrowing, else the height of the lowest cohort subtree that holds the usage. */
    /** noFitReason: Kueue's granular reason when mode is NO_FIT (resolveNoFitReason), else null. */
    record Result(Mode mode, List<PodSetAssignment> podSets, Map<FlavorResource, Long> usage, int borrowLevel,
                  Set<FlavorResource> needPreemption, String message, UnadmittedReason noFitReason) {
        Assignment assignment(String clusterQueue) {
            return new Assignment(clusterQueue, podSets);
        }
    }

    /**
     * Kueue's preemptionMode of a flavor for a resource, worst to best: no fit; preemption with a victim in the own
     * ClusterQueue; reclamation (every victim in other queues); fit. (A flavor where preemption finds no candidates
     * is never chosen, as Kueue ranks it below every mode that can admit.)
     */
    enum PreemptionMode { NO_FIT, PREEMPT, RECLAIM, FIT }

    /** Kueue's granularMode: the preemption mode and the borrowing level (0: none; after the victims are gone). */
    record Granular(PreemptionMode mode, int borrow) {
        static final Granular BEST = new Granular(PreemptionMode.FIT, 0);
    }

    /**
     * Kueue's preemption oracle (SimulatePreemption): what preemption could do to fit val of fr for this workload,
     * PREEMPT or RECLAIM with the borrowing level once the victims are gone, or null when there are no candidates.
     */
    interface PreemptionOracle {
        Granular simulate(FlavorResource fr, long val);
    }

    /** mode: the worst of the resources' modes; rep: Kueue's representative mode; borrow: the deepest. */
    private record Choice(String flavor, Mode mode, Granular rep, int borrow, Set<FlavorResource> needPreemption) {
    }

    private final Map<String, FlavorSpec> flavors;
    private final FairSharing fairSharing;
    private final TasState tas;

    FlavorAssigner(Map<String, FlavorSpec> flavors, FairSharing fairSharing) {
        this(flavors, fairSharing, new TasState(flavors));
    }

    FlavorAssigner(Map<String, FlavorSpec> flavors, FairSharing fairSharing, TasState tas) {
        this.flavors = flavors;
        this.fairSharing = fairSharing;
        this.tas = tas;
    }

    Result assign(WorkloadSpec wl, ClusterQueueState cq, int[] counts, PreemptionOracle oracle) {
        Map<FlavorResource, Long> assumed = new TreeMap<>();
        List<PodSetAssignment> out = new ArrayList<>();
        Set<FlavorResource> needPreemption = new TreeSet<>();
        Mode wlMode = Mode.FIT;
        int borrows = 0;
        StringBuilder message = new StringBuilder();
        UnadmittedReason noFit = null;
        boolean countPods = cq.coversPods();
        for (int i = 0; i < wl.podSets().size(); i++) {
            PodSetSpec ps = wl.podSets().get(i);
            Map<String, Long> requests = requests(ps, counts[i], countPods);
            Map<String, String> flavorOf = new TreeMap<>();
            List<String> reasons = new ArrayList<>();
            Mode psMode = Mode.FIT;
            Set<String> covered = new HashSet<>();
            for (ResourceGroupSpec rg : cq.resourceGroups()) {
                List<String> resources = new ArrayList<>();
                for (String r : rg.coveredResources()) {
                    if (requests.containsKey(r)) {
                        resources.add(r);
                    }
                }
                if (resources.isEmpty()) {
                    continue;
                }
                Collections.sort(resources);
                covered.addAll(resources);
                UnadmittedReason[] groupReason = new UnadmittedReason[1];
                Choice c = chooseFlavor(ps, cq, rg, resources, requests, assumed, oracle, reasons, groupReason);
                if (c == null) {
                    psMode = Mode.NO_FIT;
                    // Kueue: the mildest failure among a group's flavors (alternatives); the worst across groups.
                    noFit = UnadmittedReason.worse(noFit, groupReason[0] == null ? UnadmittedReason.NoMatchingFlavor
                            : groupReason[0]);
                    break;
                }
                for (String r : resources) {
                    flavorOf.put(r, c.flavor());
                    assumed.merge(new FlavorResource(c.flavor(), r), requests.get(r), Long::sum);
                }
                needPreemption.addAll(c.needPreemption());
                psMode = min(psMode, c.mode());
                borrows = Math.max(borrows, c.borrow());
            }
            if (psMode != Mode.NO_FIT) {
                for (String r : requests.keySet()) {
                    if (!covered.contains(r)) {
                        reasons.add("resource " + r + " unavailable in ClusterQueue");
                        psMode = Mode.NO_FIT;
                        noFit = UnadmittedReason.worse(noFit, UnadmittedReason.NoMatchingFlavor);
                    }
                }
            }
            if (psMode != Mode.FIT) {
                Collections.sort(reasons);
                if (message.length() > 0) {
                    message.append("; ");
                }
                message.append("couldn't assign flavors to pod set ").append(ps.name()).append(": ")
                        .append(String.join(", ", reasons));
            }
            wlMode = min(wlMode, psMode);
            if (psMode == Mode.NO_FIT) {
                break;
            }
            out.add(new PodSetAssignment(ps.name(), flavorOf, requests, counts[i]));
        }
        if (wlMode != Mode.NO_FIT) {
            TasPlacement.Outcome t = TasPlacement.place(tas, wl, cq, out, wlMode == Mode.FIT);
            if (t != null) {
                if (t.failedPodSet() == null) {
                    out = t.podSets();
                } else {
                    wlMode = Mode.NO_FIT;
                    noFit = t.reason();
                    if (message.length() > 0) {
                        message.append("; ");
                    }
                    message.append("couldn't assign flavors to pod set ").append(t.failedPodSet()).append(": ")
                            .append(t.message());
                }
            }
        }
        return new Result(wlMode, out, Collections.unmodifiableMap(assumed), borrows,
                Collections.unmodifiableSet(needPreemption), message.toString(),
                wlMode == Mode.NO_FIT ? noFit : null);
    }

    private static Map<String, Long> requests(PodSetSpec ps, int count, boolean countPods) {
        Map<String, Long> out = new TreeMap<>();
        for (Map.Entry<String, Long> e : ps.requestsPerPod().entrySet()) {
            long total = Math.multiplyExact(e.getValue(), (long) count);
            if (total != 0) {
                out.put(e.getKey(), total);
            }
        }
        if (countPods && count > 0) {
            out.put("pods", count * 1000L);
        }
        return out;
    }

    private Choice chooseFlavor(PodSetSpec ps, ClusterQueueState cq, ResourceGroupSpec rg, List<String> resources,
                                Map<String, Long> requests, Map<FlavorResource, Long> assumed,
                                PreemptionOracle oracle, List<String> reasons, UnadmittedReason[] groupReason) {
        // Only a pod set that selects nodes needs the group's label keys.
        Set<String> labelKeys = Set.of();
        if (!ps.nodeSelector().isEmpty() || !ps.requiredNodeAffinity().isEmpty()) {
            labelKeys = new HashSet<>();
            for (FlavorQuotas fq : rg.flavors()) {
                FlavorSpec f = flavors.get(fq.flavor());
                if (f != null) {
                    labelKeys.addAll(f.nodeLabels().keySet());
                }
            }
        }
        ClusterQueueSpec spec = cq.spec;
        Choice best = null;
        for (FlavorQuotas fq : rg.flavors()) {
            String name = fq.flavor();
            FlavorSpec f = flavors.get(name);
            if (f == null) {
                reasons.add("flavor " + name + " not found");
                groupReason[0] = UnadmittedReason.milder(groupReason[0], UnadmittedReason.NoMatchingFlavor);
                continue;
            }
            Taint taint = untoleratedTaint(f, ps);
            if (taint != null) {
                reasons.add("untolerated taint {" + taint.key() + " " + taint.value() + " " + taint.effect()
                        + " <nil>} in flavor " + name);
                groupReason[0] = UnadmittedReason.milder(groupReason[0], UnadmittedReason.NoMatchingFlavor);
                continue;
            }
            if (!NodeAffinity.matches(ps, f.nodeLabels(), labelKeys)) {
                reasons.add("flavor " + name + " doesn't match node affinity");
                groupReason[0] = UnadmittedReason.milder(groupReason[0], UnadmittedReason.NoMatchingFlavor);
                continue;
            }
            String tasMismatch = TasPlacement.flavorMismatch(tas, ps, cq, f);
            if (tasMismatch != null) {
                reasons.add(tasMismatch);
                groupReason[0] = UnadmittedReason.milder(groupReason[0], UnadmittedReason.NoMatchingFlavor);
                continue;
            }
            Mode mode = Mode.FIT;
            Granular rep = Granular.BEST;
            int borrow = 0;
            Set<FlavorResource> need = new TreeSet<>();
            for (String r : resources) {
                FlavorResource fr = new FlavorResource(name, r);
                long before = assumed.getOrDefault(fr, 0L);
                long request = requests.get(r);
                long val = before + request;
                long max = cq.potentialAvailable(fr);
                if (val > max) {
                    reasons.add(before == 0
                            ? "insufficient quota for " + r + " in flavor " + name + ", request > maximum capacity ("
                                    + fmt(val) + " > " + fmt(max) + ")"
                            : "insufficient quota for " + r + " in flavor " + name
                                    + ", previously considered podsets requests (" + fmt(before)
                                    + ") + current podset request (" + fmt(request) + ") > maximum capacity ("
                                    + fmt(max) + ")");
                    mode = Mode.NO_FIT;
                    groupReason[0] = UnadmittedReason.milder(groupReason[0], UnadmittedReason.ExceedsMaxQuota);
                    break;
                }
                Granular g;
                long available = cq.available(fr);
                if (val <= available) {
                    g = new Granular(PreemptionMode.FIT, cq.borrowingWith(fr, val) ? borrowHeight(cq, fr, val) : 0);
                } else {
                    reasons.add("insufficient unused quota for " + r + " in flavor " + name + ", "
                            + fmt(val - available) + " more needed");
                    g = preemptionMayHelp(cq, fr, val) ? oracle.simulate(fr, val) : null;
                    if (g == null) {
                        mode = Mode.NO_FIT;
                        groupReason[0] = UnadmittedReason.milder(groupReason[0], UnadmittedReason.WaitingForQuota);
                        break;
                    }
                    mode = Mode.PREEMPT;
                    need.add(fr);
                }
                // the flavor is as good as its worst resource
                if (isPreferred(rep, g, spec.flavorFungibility().preference())) {
                    rep = g;
                }
                borrow = Math.max(borrow, g.borrow());
            }
            if (mode == Mode.NO_FIT) {
                continue;
            }
            Choice c = new Choice(name, mode, rep, borrow, need);
            if (best == null || isPreferred(c.rep(), best.rep(), spec.flavorFungibility().preference())) {
                best = c;
            }
            if (!shouldTryNextFlavor(rep, spec.flavorFungibility())) {
                return c;
            }
        }
        return best;
    }

    /**
     * Kueue's isPreferred (flavorassigner.go): whether a is better than b. BorrowingOverPreemption: the better
     * preemption mode (fit, then reclamation, then preemption in the own queue), then the lower borrowing level;
     * PreemptionOverBorrowing: the lower borrowing level, then the better mode. No fit is worse than anything.
     */
    static boolean isPreferred(Granular a, Granular b, FlavorFungibilityPreference preference) {
        if (a.mode() == PreemptionMode.NO_FIT) {
            return false;
        }
        if (b.mode() == PreemptionMode.NO_FIT) {
            return true;
        }
        if (preference == FlavorFungibilityPreference.PreemptionOverBorrowing && a.borrow() != b.borrow()) {
            return a.borrow() < b.borrow();
        }
        if (a.mode() != b.mode()) {
            return a.mode().compareTo(b.mode()) > 0;
        }
        return a.borrow() < b.borrow();
    }

    /**
     * Kueue's fitsResourceQuota: preemption is considered on a flavor only if the request fits the queue's
     * nominal quota, or a subtree below the tree's root could hold it (it may reclaim in the hierarchy), or the
     * queue may preempt while borrowing (canPreemptWhileBorrowing: borrowWithinCohort, or fair sharing with
     * reclaimWithinCohort not Never). Otherwise the flavor does not fit: a queue that would borrow after preempting
     * does not preempt, not even its own lower-priority workloads.
     */
    private boolean preemptionMayHelp(ClusterQueueState cq, FlavorResource fr, long val) {
        PreemptionSpec policy = cq.spec.preemption();
        return val <= cq.quota(fr).nominal() || mayReclaimInHierarchy(cq, fr, val)
                || policy.borrowPolicy() != BorrowWithinCohortPolicy.Never
                || (fairSharing.enabled() && policy.reclaimWithinCohort() != ReclaimWithinCohort.Never);
    }

    /**
     * Kueue's FindHeightOfLowestSubtreeThatFits: whether the lowest cohort whose quota holds val (after what each
     * level keeps locally) has a parent, i.e. is not the root. In a flat cohort the only such cohort is the root.
     */
    static boolean mayReclaimInHierarchy(ClusterQueueState cq, FlavorResource fr, long val) {
        if (cq.parent == null) {
            return false;
        }
        if (!cq.aboveQuotaWith(fr, val)) {
            return true;
        }
        long remaining = val - cq.localAvailable(fr);
        for (CohortState n = cq.parent; n != null; n = n.parent) {
            if (!n.aboveQuotaWith(fr, remaining)) {
                return n.parent != null;
            }
            remaining -= n.localAvailable(fr);
        }
        return false;
    }

    /**
     * Kueue's borrowing level: the height of the lowest cohort on the queue's path whose quota holds val (after
     * what each level below keeps locally), or of the root if none does. A flat cohort's height is 1.
     */
    static int borrowHeight(ClusterQueueState cq, FlavorResource fr, long val) {
        long remaining = val - cq.localAvailable(fr);
        CohortState n = cq.parent;
        for (; n.parent != null; n = n.parent) {
            if (!n.aboveQuotaWith(fr, remaining)) {
                return height(n);
            }
            remaining -= n.localAvailable(fr);
        }
        return height(n);
    }

    private static int height(CohortState c) {
        int h = c.isEmpty() ? 0 : 1;
        for (CohortState child : c.childCohorts.values()) {
            h = Math.max(h, height(child) + 1);
        }
        return h;
    }

    /** Kueue's shouldTryNextFlavor: stop at this flavor, or look further for a better one. */
    private static boolean shouldTryNextFlavor(Granular rep, FlavorFungibility f) {
        if (rep.mode() != PreemptionMode.FIT && f.whenCanPreempt() == WhenCanPreempt.TryNextFlavor) {
            return true;
        }
        return rep.borrow() > 0 && f.whenCanBorrow() == WhenCanBorrow.TryNextFlavor;
    }

    /** A NoSchedule/NoExecute taint of the flavor that neither the pod nor the flavor tolerates. */
    private static Taint untoleratedTaint(FlavorSpec f, PodSetSpec ps) {
        for (Taint t : f.nodeTaints()) {
            if (!"NoSchedule".equals(t.effect()) && !"NoExecute".equals(t.effect())) {
                continue;
            }
            boolean tolerated = false;
            for (Toleration tol : ps.tolerations()) {
                tolerated |= tol.tolerates(t);
            }
            for (Toleration tol : f.tolerations()) {
                tolerated |= tol.tolerates(t);
            }
            if (!tolerated) {
                return t;
            }
        }
        return null;
    }

    private static Mode min(Mode a, Mode b) {
        return a.compareTo(b) <= 0 ? a : b;
    }

    private static String fmt(long milli) {
        return Quantity.formatMilli(milli);
    }
}
