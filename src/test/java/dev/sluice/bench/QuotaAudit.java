package dev.sluice.bench;

import dev.sluice.api.v1beta2.ClusterQueue;
import dev.sluice.api.v1beta2.FlavorQuotas;
import dev.sluice.api.v1beta2.ResourceGroup;
import dev.sluice.api.v1beta2.ResourceQuota;
import dev.sluice.api.v1beta2.Workload;
import io.fabric8.kubernetes.api.model.Quantity;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The auditor's rules, fed one Workload change at a time in the API server's order (no I/O, so it can be tested on
 * made-up sequences).
 * <ul>
 * <li>A Workload <em>holds</em> quota while it has {@code status.admission} and is not Finished (an evicted Workload
 * holds it until its admission is cleared). Usage per ClusterQueue, flavor and resource is the sum of
 * {@code podSetAssignments[].resourceUsage} of the Workloads that hold quota.</li>
 * <li>Over quota: a ClusterQueue uses more than nominal + borrowingLimit (no cohort: more than nominal), or a
 * cohort's members together use more than the sum of their nominal quotas.</li>
 * <li>Admitted twice: a Workload that holds quota gets a different admission (ClusterQueue or pod set assignments),
 * or its QuotaReserved condition is set True anew, without its admission being cleared in between.</li>
 * <li>At the end: every created Workload exists and is Finished, or deactivated by waitForPodsReady and released
 * (else lost or unfinished).</li>
 * <li>Out of order: the changes must reach the auditor in the order the API server applied them, the order of their
 * resource versions (one counter for every object, as etcd's revision is); a change older than one already judged
 * is a violation, since the sums would then be judged on states the server never had. So a transient state is judged
 * as the server had it: an admission stored before another Workload's release is over quota even if the release
 * lands a moment later.</li>
 * </ul>
 * Each change costs what it touches: usage is kept per ClusterQueue and per cohort as running sums, and only the
 * sums a change raised are compared with their limits (a sum that did not grow cannot newly exceed its limit).
 */
public final class QuotaAudit {

    /** One broken rule and what showed it. */
    public record Violation(String rule, String detail) {
    }

    private record Key(String clusterQueue, String flavor, String resource) {
    }

    private record CohortKey(String cohort, String flavor, String resource) {
    }

    private record Held(WorkloadView.AdmissionView admission, String reservedAt) {
    }

    private final Map<String, String> cohortOf = new HashMap<>();
    /** nominal and limit (nominal + borrowingLimit; null: unlimited) per ClusterQueue, flavor and resource. */
    private final Map<Key, BigDecimal> nominal = new HashMap<>();
    private final Map<Key, BigDecimal> limit = new HashMap<>();
    private final Map<CohortKey, BigDecimal> cohortNominal = new HashMap<>();
    private final Map<Key, BigDecimal> usage = new HashMap<>();
    /** Usage of the cohort's members, counted only where the member has a nominal quota (as the quota sum is). */
    private final Map<CohortKey, BigDecimal> cohortUsage = new HashMap<>();
    private final Map<String, Held> held = new HashMap<>();
    private final Map<String, Boolean> finished = new HashMap<>();
    private final List<Violation> violations = new ArrayList<>();
    private long changes;
    /** The resource version of the last change judged (-1: none yet). */
    private long lastVersion = -1;
    private String lastChange;

    public synchronized void clusterQueue(ClusterQueue cq) {
        String name = cq.getMetadata().getName();
        cohortOf.put(name, cq.getSpec().getCohortName());
        nominal.keySet().removeIf(k -> k.clusterQueue().equals(name));
        limit.keySet().removeIf(k -> k.clusterQueue().equals(name));
        for (ResourceGroup rg : cq.getSpec().getResourceGroups()) {
            for (FlavorQuotas fq : rg.getFlavors()) {
                for (ResourceQuota rq : fq.getResources()) {
                    Key k = new Key(name, fq.getName(), rq.getName());
                    BigDecimal n = amount(rq.getNominalQuota());
                    nominal.put(k, n);
                    if (cq.getSpec().getCohortName() == null) {
                        limit.put(k, n);
                    } else if (rq.getBorrowingLimit() != null) {
                        limit.put(k, n.add(amount(rq.getBorrowingLimit())));
                    }
                }
            }
        }
        // the cohorts' sums, from scratch: ClusterQueues are few and set up once
        cohortNominal.clear();
        cohortUsage.clear();
        for (var e : nominal.entrySet()) {
            String cohort = cohortOf.get(e.getKey().clusterQueue());
            if (cohort != null) {
                CohortKey ck = new CohortKey(cohort, e.getKey().flavor(), e.getKey().resource());
                cohortNominal.merge(ck, e.getValue(), BigDecimal::add);
                cohortUsage.merge(ck, usage.getOrDefault(e.getKey(), BigDecimal.ZERO), BigDecimal::add);
            }
        }
    }

    /** A Workload model object was created or changed; tests feed these. */
    public void workload(String key, Workload wl) {
        workload(key, WorkloadView.of(wl));
    }

    /** A Workload was deleted (found missing after a watch was cut: no resource version to order it by). */
    public void deleted(String key) {
        workload(key, (WorkloadView) null);
    }

    /** A Workload was deleted at {@code resourceVersion}, as its DELETED event says. */
    public synchronized void deleted(String key, String resourceVersion) {
        inOrder(key, resourceVersion);
        workload(key, (WorkloadView) null);
    }

    /** A Workload was created or changed ({@code wl}) or deleted ({@code wl == null}, {@code key} given). */
    public synchronized void workload(String key, WorkloadView wl) {
        changes++;
        if (wl != null) {
            inOrder(key, wl.resourceVersion());
        }
        Held before = held.get(key);
        boolean isFinished = wl != null && wl.isTrue("Finished");
        Held after = wl == null || isFinished || wl.admission() == null ? null : new Held(wl.admission(), reservedAt(wl));
        if (wl == null) {
            finished.remove(key);
        } else {
            finished.put(key, isFinished || wl.isDeactivated());
        }
        if (before != null && after != null) {
            if (!sameAdmission(before.admission(), after.admission())) {
                violations.add(new Violation("admitted twice", key + ": admission changed from "
                        + describe(before.admission()) + " to " + describe(after.admission()) + " without being released"));
            } else if (after.reservedAt() != null && before.reservedAt() != null && !after.reservedAt().equals(before.reservedAt())) {
                violations.add(new Violation("admitted twice", key + ": QuotaReserved set True again at "
                        + after.reservedAt() + " (was " + before.reservedAt() + ") without being released"));
            }
        }
        if (before != null) {
            add(before.admission(), false);
        }
        if (after == null) {
            held.remove(key);
        } else {
            held.put(key, after);
            add(after.admission(), true);
            check(after.admission());
        }
    }

    /** The change must be newer than every change judged before it (resource versions that are not numbers: unchecked). */
    private void inOrder(String key, String resourceVersion) {
        long v;
        try {
            v = Long.parseLong(resourceVersion);
        } catch (NumberFormatException | NullPointerException e) {
            return;
        }
        String change = key + " at resourceVersion " + v;
        if (v <= lastVersion) {
            violations.add(new Violation("out of order", change + " reached the auditor after " + lastChange
                    + ": the sums are judged in the API server's order only"));
            return;
        }
        lastVersion = v;
        lastChange = change;
    }

    private void add(WorkloadView.AdmissionView a, boolean plus) {
        String cohort = cohortOf.get(a.clusterQueue());
        for (WorkloadView.PodSetUsage psa : a.podSets()) {
            for (var e : psa.usage().entrySet()) {
                Key k = new Key(a.clusterQueue(), psa.flavors().get(e.getKey()), e.getKey());
                BigDecimal v = plus ? e.getValue() : e.getValue().negate();
                usage.merge(k, v, BigDecimal::add);
                if (cohort != null && nominal.containsKey(k)) {
                    cohortUsage.merge(new CohortKey(cohort, k.flavor(), k.resource()), v, BigDecimal::add);
                }
            }
        }
    }

    /** The sums this admission raised, against their limits. */
    private void check(WorkloadView.AdmissionView a) {
        String clusterQueue = a.clusterQueue();
        String cohort = cohortOf.get(clusterQueue);
        for (WorkloadView.PodSetUsage psa : a.podSets()) {
            for (var e : psa.usage().entrySet()) {
                if (e.getValue().signum() <= 0) {
                    continue;
                }
                Key k = new Key(clusterQueue, psa.flavors().get(e.getKey()), e.getKey());
                BigDecimal used = usage.getOrDefault(k, BigDecimal.ZERO);
                if (!nominal.containsKey(k)) {
                    violations.add(new Violation("over quota", "ClusterQueue " + clusterQueue + " uses " + used
                            + " " + k.resource() + " of flavor " + k.flavor() + ", which it has no quota for"));
                    continue;
                }
                BigDecimal max = limit.get(k);
                if (max != null && used.compareTo(max) > 0) {
                    violations.add(new Violation("over quota", "ClusterQueue " + clusterQueue + " uses " + used
                            + " " + k.resource() + " of flavor " + k.flavor() + ", above its limit " + max));
                }
                if (cohort != null) {
                    CohortKey ck = new CohortKey(cohort, k.flavor(), k.resource());
                    BigDecimal cohortUsed = cohortUsage.getOrDefault(ck, BigDecimal.ZERO);
                    BigDecimal quota = cohortNominal.getOrDefault(ck, BigDecimal.ZERO);
                    if (cohortUsed.compareTo(quota) > 0) {
                        violations.add(new Violation("over quota", "cohort " + cohort + " uses " + cohortUsed + " "
                                + k.resource() + " of flavor " + k.flavor() + ", above the sum of its nominal quotas " + quota));
                    }
                }
            }
        }
    }

    /** Workloads created (by key) that are missing (lost) or not Finished at the end. */
    public synchronized List<String> notFinished(Iterable<String> created) {
        List<String> out = new ArrayList<>();
        for (String key : created) {
            Boolean f = finished.get(key);
            if (f == null) {
                out.add(key + " (lost: not found)");
            } else if (!f) {
                out.add(key + " (not finished)");
            }
        }
        return out;
    }

    public synchronized List<Violation> violations() {
        return List.copyOf(violations);
    }

    public synchronized long changes() {
        return changes;
    }

    /** Quota held now per ClusterQueue/flavor/resource; for tests and the summary. */
    public synchronized BigDecimal usage(String clusterQueue, String flavor, String resource) {
        return usage.getOrDefault(new Key(clusterQueue, flavor, resource), BigDecimal.ZERO);
    }

    /** Quota held now by a cohort's members (where they have a nominal quota); for tests. */
    public synchronized BigDecimal cohortUsage(String cohort, String flavor, String resource) {
        return cohortUsage.getOrDefault(new CohortKey(cohort, flavor, resource), BigDecimal.ZERO);
    }

    /** Same ClusterQueue, and per pod set the same name, flavors and amounts (amounts are normalised). */
    static boolean sameAdmission(WorkloadView.AdmissionView a, WorkloadView.AdmissionView b) {
        if (!Objects.equals(a.clusterQueue(), b.clusterQueue()) || a.podSets().size() != b.podSets().size()) {
            return false;
        }
        for (int i = 0; i < a.podSets().size(); i++) {
            WorkloadView.PodSetUsage x = a.podSets().get(i);
            WorkloadView.PodSetUsage y = b.podSets().get(i);
            if (!Objects.equals(x.name(), y.name()) || !x.flavors().equals(y.flavors()) || !x.usage().equals(y.usage())) {
                return false;
            }
        }
        return true;
    }

    private static String describe(WorkloadView.AdmissionView a) {
        StringBuilder sb = new StringBuilder(String.valueOf(a.clusterQueue()));
        for (WorkloadView.PodSetUsage p : a.podSets()) {
            sb.append(' ').append(p.name()).append(new TreeMap<>(p.flavors())).append(new TreeMap<>(p.usage()));
        }
        return sb.toString();
    }

    private static String reservedAt(WorkloadView wl) {
        WorkloadView.ConditionView c = wl.condition("QuotaReserved");
        return c != null && "True".equals(c.status()) ? c.lastTransitionTime() : null;
    }

    private static BigDecimal amount(Quantity q) {
        return q == null ? BigDecimal.ZERO : q.getNumericalAmount();
    }
}
