package dev.sluice.bench;

import dev.sluice.api.v1beta1.Admission;
import dev.sluice.api.v1beta1.ClusterQueue;
import dev.sluice.api.v1beta1.FlavorQuotas;
import dev.sluice.api.v1beta1.PodSetAssignment;
import dev.sluice.api.v1beta1.ResourceGroup;
import dev.sluice.api.v1beta1.ResourceQuota;
import dev.sluice.api.v1beta1.Workload;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Quantity;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

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
 * <li>At the end: every created Workload exists and is Finished (else lost or unfinished).</li>
 * </ul>
 */
public final class QuotaAudit {

    /** One broken rule and what showed it. */
    public record Violation(String rule, String detail) {
    }

    private record Key(String clusterQueue, String flavor, String resource) {
    }

    private record Held(Admission admission, String reservedAt) {
    }

    private final Map<String, String> cohortOf = new HashMap<>();
    /** nominal and limit (nominal + borrowingLimit; null: unlimited) per ClusterQueue, flavor and resource. */
    private final Map<Key, BigDecimal> nominal = new HashMap<>();
    private final Map<Key, BigDecimal> limit = new HashMap<>();
    private final Map<Key, BigDecimal> usage = new HashMap<>();
    private final Map<String, Held> held = new HashMap<>();
    private final Map<String, Boolean> finished = new HashMap<>();
    private final List<Violation> violations = new ArrayList<>();
    private long changes;

    public synchronized void clusterQueue(ClusterQueue cq) {
        String name = cq.getMetadata().getName();
        cohortOf.put(name, cq.getSpec().getCohort());
        for (ResourceGroup rg : cq.getSpec().getResourceGroups()) {
            for (FlavorQuotas fq : rg.getFlavors()) {
                for (ResourceQuota rq : fq.getResources()) {
                    Key k = new Key(name, fq.getName(), rq.getName());
                    BigDecimal n = amount(rq.getNominalQuota());
                    nominal.put(k, n);
                    if (cq.getSpec().getCohort() == null) {
                        limit.put(k, n);
                    } else if (rq.getBorrowingLimit() != null) {
                        limit.put(k, n.add(amount(rq.getBorrowingLimit())));
                    } else {
                        limit.remove(k);
                    }
                }
            }
        }
    }

    /** A Workload was created or changed ({@code wl}) or deleted ({@code wl == null}, {@code key} given). */
    public synchronized void workload(String key, Workload wl) {
        changes++;
        Held before = held.get(key);
        Held after = wl == null || isTrue(wl, "Finished") || wl.getStatus() == null || wl.getStatus().getAdmission() == null
                ? null : new Held(wl.getStatus().getAdmission(), reservedAt(wl));
        if (wl == null) {
            finished.remove(key);
        } else {
            finished.put(key, isTrue(wl, "Finished"));
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
            add(before.admission(), -1);
        }
        if (after == null) {
            held.remove(key);
        } else {
            held.put(key, after);
            add(after.admission(), 1);
            check(after.admission().getClusterQueue());
        }
    }

    private void add(Admission a, int sign) {
        if (a.getPodSetAssignments() == null) {
            return;
        }
        for (PodSetAssignment psa : a.getPodSetAssignments()) {
            if (psa.getResourceUsage() == null) {
                continue;
            }
            for (var e : psa.getResourceUsage().entrySet()) {
                String flavor = psa.getFlavors() == null ? null : psa.getFlavors().get(e.getKey());
                Key k = new Key(a.getClusterQueue(), flavor, e.getKey());
                BigDecimal v = amount(e.getValue());
                usage.merge(k, sign > 0 ? v : v.negate(), BigDecimal::add);
            }
        }
    }

    private void check(String clusterQueue) {
        for (var e : usage.entrySet()) {
            Key k = e.getKey();
            if (!k.clusterQueue().equals(clusterQueue) || e.getValue().signum() <= 0) {
                continue;
            }
            if (!nominal.containsKey(k)) {
                violations.add(new Violation("over quota", "ClusterQueue " + clusterQueue + " uses " + e.getValue()
                        + " " + k.resource() + " of flavor " + k.flavor() + ", which it has no quota for"));
                continue;
            }
            BigDecimal max = limit.get(k);
            if (max != null && e.getValue().compareTo(max) > 0) {
                violations.add(new Violation("over quota", "ClusterQueue " + clusterQueue + " uses " + e.getValue()
                        + " " + k.resource() + " of flavor " + k.flavor() + ", above its limit " + max));
            }
            String cohort = cohortOf.get(clusterQueue);
            if (cohort != null) {
                BigDecimal used = BigDecimal.ZERO;
                BigDecimal quota = BigDecimal.ZERO;
                for (var n : nominal.entrySet()) {
                    Key m = n.getKey();
                    if (cohort.equals(cohortOf.get(m.clusterQueue())) && m.flavor().equals(k.flavor())
                            && m.resource().equals(k.resource())) {
                        quota = quota.add(n.getValue());
                        used = used.add(usage.getOrDefault(m, BigDecimal.ZERO));
                    }
                }
                if (used.compareTo(quota) > 0) {
                    violations.add(new Violation("over quota", "cohort " + cohort + " uses " + used + " " + k.resource()
                            + " of flavor " + k.flavor() + ", above the sum of its nominal quotas " + quota));
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

    static boolean sameAdmission(Admission a, Admission b) {
        if (!Objects.equals(a.getClusterQueue(), b.getClusterQueue())) {
            return false;
        }
        return Objects.equals(describe(a), describe(b));
    }

    private static String describe(Admission a) {
        StringBuilder sb = new StringBuilder(String.valueOf(a.getClusterQueue()));
        if (a.getPodSetAssignments() != null) {
            for (PodSetAssignment p : a.getPodSetAssignments()) {
                sb.append(' ').append(p.getName()).append(new java.util.TreeMap<>(
                        p.getFlavors() == null ? Map.of() : p.getFlavors()));
                if (p.getResourceUsage() != null) {
                    Map<String, BigDecimal> u = new java.util.TreeMap<>();
                    p.getResourceUsage().forEach((r, q) -> u.put(r, amount(q).stripTrailingZeros()));
                    sb.append(u);
                }
            }
        }
        return sb.toString();
    }

    private static String reservedAt(Workload wl) {
        Condition c = find(wl, "QuotaReserved");
        return c != null && "True".equals(c.getStatus()) ? c.getLastTransitionTime() : null;
    }

    static boolean isTrue(Workload wl, String type) {
        Condition c = find(wl, type);
        return c != null && "True".equals(c.getStatus());
    }

    static Condition find(Workload wl, String type) {
        if (wl.getStatus() == null || wl.getStatus().getConditions() == null) {
            return null;
        }
        return wl.getStatus().getConditions().stream().filter(c -> type.equals(c.getType())).findFirst().orElse(null);
    }

    private static BigDecimal amount(Quantity q) {
        return q == null ? BigDecimal.ZERO : q.getNumericalAmount();
    }
}
