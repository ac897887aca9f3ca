package dev.sluice.engine;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * One ClusterQueue: a leaf of the quota tree (its usage climbs into its cohorts), the workloads it
 * has admitted and those waiting. A state whose spec is null stands for a deleted queue that still holds
 * admitted workloads (their quota must be released when they go).
 */
final class ClusterQueueState extends QuotaNode {
    ClusterQueueSpec spec;
    final PendingQueue queue = new PendingQueue();
    final TreeMap<WorkloadKey, WorkloadRecord> admitted = new TreeMap<>();
    /**
     * The same workloads in preemption-candidate order, so a victim search reads the first few instead of
     * collecting and sorting the cohort's admitted workloads. Kept in step by admit, markEvicting and unadmit.
     */
    final TreeSet<WorkloadRecord> victimOrder = new TreeSet<>(PreemptionCandidates::compareInQueue);
    /**
     * A head that issued preemptions and waits for its victims to go: the queue takes no other head until
     * something relevant changes (as in Kueue, where that head is popped again every cycle).
     */
    WorkloadRecord waitingForPreemption;
    /** That head's assignment: its usage is held in each cycle while it waits. */
    FlavorAssigner.Result waitingResult;
    /**
     * The last head that issued preemptions, until it is admitted or leaves (Kueue's sticky preemptor workload,
     * kept by its ClusterQueue for BestEffortFIFO): once its victims are gone it is tried before the queue's
     * usual head, so a higher-priority workload woken by the same release cannot take its turn and leave the
     * room to the victim, which would be preempted again, forever.
     */
    WorkloadRecord stickyPreemptor;
    /** Whether the spec covers the "pods" resource (then each pod counts 1); derived in setSpec. */
    private boolean coversPods;
    /** Flavors named by the spec that do not exist (sorted); non-empty makes the queue inactive. */
    List<String> missingFlavors = List.of();

    /** Set by the cache when the queue's cohort chain runs into a parent cycle (the cycle's names). */
    List<String> cohortCycle;

    /** What the spec's admission checks say of the queue's activity (Kueue's rules); set by checkAdmissionChecks. */
    AdmissionChecks.Problems checkProblems = AdmissionChecks.Problems.NONE;

    ClusterQueueState(String name) {
        super(name);
    }

    @Override
    FlavorResourceQuota missingQuota() {
        return FlavorResourceQuota.NONE;
    }

    /** The cohort this queue belongs to (its parent in the tree), or null. */
    CohortState cohort() {
        return parent;
    }

    void setSpec(ClusterQueueSpec spec) {
        this.spec = spec;
        quotas.clear();
        subtreeQuota.clear();
        coversPods = false;
        if (spec == null) {
            return;
        }
        queue.groupByLocalQueue(spec.admissionMode() == AdmissionMode.UsageBasedAdmissionFairSharing);
        coversPods = coveredResources().contains("pods");
        for (ResourceGroupSpec rg : spec.resourceGroups()) {
            for (FlavorQuotas fq : rg.flavors()) {
                for (ResourceQuota q : fq.resources()) {
                    FlavorResource fr = new FlavorResource(fq.flavor(), q.resource());
                    quotas.put(fr, new FlavorResourceQuota(q.nominal(), q.borrowingLimit(), q.lendingLimit()));
                    if (q.nominal() != 0) {
                        subtreeQuota.put(fr, q.nominal());
                    }
                }
            }
        }
    }

    void checkFlavors(Map<String, FlavorSpec> flavors) {
        if (spec == null) {
            missingFlavors = List.of();
            return;
        }
        TreeSet<String> missing = new TreeSet<>();
        for (ResourceGroupSpec rg : spec.resourceGroups()) {
            for (FlavorQuotas fq : rg.flavors()) {
                if (!flavors.containsKey(fq.flavor())) {
                    missing.add(fq.flavor());
                }
            }
        }
        missingFlavors = List.copyOf(missing);
    }

    boolean exists() {
        return spec != null;
    }

    /** The spec's admission checks against the AdmissionCheck objects there are. */
    void checkAdmissionChecks(Map<String, AdmissionCheckSpec> checks) {
        checkProblems = spec == null ? AdmissionChecks.Problems.NONE : AdmissionChecks.problems(spec, checks);
    }

    boolean isActive() {
        return spec != null && spec.stopPolicy() == StopPolicy.None && missingFlavors.isEmpty()
                && cohortCycle == null && checkProblems.isEmpty();
    }

    /**
     * Kueue's Active condition: reason and message. Inactive for several reasons, the reason is the first and the
     * message names them all, as Kueue's inactiveReason joins them.
     */
    String[] activeCondition() {
        if (spec == null) {
            return new String[] {"NotFound", "ClusterQueue " + name + " doesn't exist"};
        }
        List<String> reasons = new ArrayList<>();
        List<String> messages = new ArrayList<>();
        if (spec.stopPolicy() != StopPolicy.None) {
            reasons.add("Stopped");
            messages.add("is stopped");
        }
        if (!missingFlavors.isEmpty()) {
            reasons.add("FlavorNotFound");
            messages.add("references missing ResourceFlavor(s): " + String.join(",", missingFlavors));
        }
        checkProblems.describe(reasons, messages);
        if (cohortCycle != null) {
            reasons.add("CohortHasCycle");
            messages.add("cohort " + spec.cohort() + " is in a cycle of parents: " + String.join(" -> ", cohortCycle));
        }
        if (reasons.isEmpty()) {
            return new String[] {"Ready", "Can admit new workloads"};
        }
        return new String[] {reasons.get(0), "Can't admit new workloads: " + String.join(", ", messages) + "."};
    }

    Map<FlavorResource, FlavorResourceQuota> quotas() {
        return Collections.unmodifiableMap(quotas);
    }

    /** Whether adding val of fr would take this queue above its nominal quota in a cohort. */
    boolean borrowingWith(FlavorResource fr, long val) {
        return parent != null && usage(fr) + val > quota(fr).nominal();
    }

    boolean isBorrowing(FlavorResource fr) {
        return parent != null && usage(fr) > quota(fr).nominal();
    }

    /** Counts an admitted workload (its ordering fields must be set: evicted, admittedAt). */
    void admit(WorkloadRecord r) {
        admitted.put(r.key(), r);
        victimOrder.add(r);
    }

    /** An admitted workload is being evicted: it moves to the front of the candidates. */
    void markEvicting(WorkloadRecord r) {
        boolean held = victimOrder.remove(r);
        r.evicted = true;
        if (held) {
            victimOrder.add(r);
        }
    }

    /** Forgets an admitted workload; call before its ordering fields change. */
    void unadmit(WorkloadRecord r) {
        admitted.remove(r.key());
        victimOrder.remove(r);
    }

    /** For tests: whether victimOrder holds exactly the admitted workloads, in the order a fresh sort gives. */
    boolean victimOrderConsistent() {
        List<WorkloadRecord> sorted = new ArrayList<>(admitted.values());
        sorted.sort(PreemptionCandidates::compareInQueue);
        return sorted.equals(new ArrayList<>(victimOrder));
    }

    void addUsage(Map<FlavorResource, Long> delta) {
        changeUsage(delta, 1);
    }

    void removeUsage(Map<FlavorResource, Long> delta) {
        changeUsage(delta, -1);
    }

    private void changeUsage(Map<FlavorResource, Long> delta, int sign) {
        for (Map.Entry<FlavorResource, Long> e : delta.entrySet()) {
            if (sign > 0) {
                addUsage(e.getKey(), e.getValue());
            } else {
                removeUsage(e.getKey(), e.getValue());
            }
        }
    }

    /** Whether a workload with this usage fits now (optionally without borrowing). */
    boolean fits(Map<FlavorResource, Long> request, boolean allowBorrowing) {
        for (Map.Entry<FlavorResource, Long> e : request.entrySet()) {
            if (!allowBorrowing && borrowingWith(e.getKey(), e.getValue())) {
                return false;
            }
            if (e.getValue() > available(e.getKey())) {
                return false;
            }
        }
        return true;
    }

    /** As fits(Map, boolean), for a request given as parallel arrays (the victim search asks it per candidate). */
    boolean fits(FlavorResource[] frs, long[] vals, boolean allowBorrowing) {
        for (int i = 0; i < frs.length; i++) {
            if (!allowBorrowing && borrowingWith(frs[i], vals[i])) {
                return false;
            }
            if (vals[i] > available(frs[i])) {
                return false;
            }
        }
        return true;
    }

    /** Resource groups in spec order, each as covered resources and flavor names. */
    List<ResourceGroupSpec> resourceGroups() {
        return spec == null ? List.of() : spec.resourceGroups();
    }

    boolean coversPods() {
        return coversPods;
    }

    List<String> coveredResources() {
        List<String> out = new ArrayList<>();
        for (ResourceGroupSpec rg : resourceGroups()) {
            out.addAll(rg.coveredResources());
        }
        return out;
    }
}
