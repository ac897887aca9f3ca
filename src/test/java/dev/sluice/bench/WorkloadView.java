package dev.sluice.bench;

import dev.sluice.api.v1beta2.Admission;
import dev.sluice.api.v1beta2.PodSetAssignment;
import dev.sluice.api.v1beta2.Workload;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Quantity;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the runner and the auditor need of a Workload: its identity, resource version and generation, its
 * admission and its conditions. Decoded straight from the API server's JSON ({@link WorkloadJson}) instead of the
 * full model, whose pod templates nobody here reads. Amounts are normalised (trailing zeros stripped), so that two
 * admissions are equal exactly when they assign the same flavors and amounts.
 */
record WorkloadView(String namespace, String name, String resourceVersion, long generation, AdmissionView admission,
                    List<ConditionView> conditions) {

    /** status.admission: the ClusterQueue and, per pod set, its flavors and the resources it uses. */
    record AdmissionView(String clusterQueue, List<PodSetUsage> podSets) {
    }

    /** One podSetAssignment: flavor per resource and the amount per resource of the whole pod set. */
    record PodSetUsage(String name, Map<String, String> flavors, Map<String, BigDecimal> usage, Integer count) {
    }

    /** One status condition. */
    record ConditionView(String type, String status, String reason, String message, String lastTransitionTime,
                         Long observedGeneration) {
    }

    String key() {
        return namespace + "/" + name;
    }

    ConditionView condition(String type) {
        for (ConditionView c : conditions) {
            if (type.equals(c.type())) {
                return c;
            }
        }
        return null;
    }

    boolean isTrue(String type) {
        ConditionView c = condition(type);
        return c != null && "True".equals(c.status());
    }

    /**
     * Deactivated by waitForPodsReady and released: no admission, Requeued=False with a reason Deactivated... (Kueue's
     * DeactivatedDueToRequeuingLimitExceeded). Such a Workload is done (never admitted again unless someone activates
     * it).
     */
    boolean isDeactivated() {
        ConditionView requeued = condition("Requeued");
        return admission == null && requeued != null && "False".equals(requeued.status())
                && requeued.reason() != null && requeued.reason().startsWith("Deactivated");
    }

    /** The cpu the admission assigns (0 without an admission). */
    double cpu() {
        double sum = 0;
        if (admission != null) {
            for (PodSetUsage p : admission.podSets()) {
                BigDecimal v = p.usage().get("cpu");
                sum += v == null ? 0 : v.doubleValue();
            }
        }
        return sum;
    }

    private static final Map<String, BigDecimal> AMOUNTS = new ConcurrentHashMap<>();

    /** A quantity's amount ("500m" is 0.5), normalised; the few distinct strings of a run are parsed once. */
    static BigDecimal amount(String quantity) {
        return AMOUNTS.computeIfAbsent(quantity, q -> new Quantity(q).getNumericalAmount().stripTrailingZeros());
    }

    /** The view of a Workload model object (tests, and what the harness creates itself). */
    static WorkloadView of(Workload wl) {
        AdmissionView admission = null;
        List<ConditionView> conditions = new ArrayList<>();
        if (wl.getStatus() != null) {
            Admission a = wl.getStatus().getAdmission();
            if (a != null) {
                List<PodSetUsage> podSets = new ArrayList<>();
                if (a.getPodSetAssignments() != null) {
                    for (PodSetAssignment p : a.getPodSetAssignments()) {
                        Map<String, BigDecimal> usage = new HashMap<>();
                        if (p.getResourceUsage() != null) {
                            p.getResourceUsage().forEach((r, q) -> usage.put(r, amount(q.toString())));
                        }
                        podSets.add(new PodSetUsage(p.getName(), p.getFlavors() == null ? Map.of() : Map.copyOf(p.getFlavors()),
                                usage, p.getCount()));
                    }
                }
                admission = new AdmissionView(a.getClusterQueue(), podSets);
            }
            if (wl.getStatus().getConditions() != null) {
                for (Condition c : wl.getStatus().getConditions()) {
                    conditions.add(new ConditionView(c.getType(), c.getStatus(), c.getReason(), c.getMessage(),
                            c.getLastTransitionTime(), c.getObservedGeneration()));
                }
            }
        }
        var m = wl.getMetadata();
        return new WorkloadView(m.getNamespace(), m.getName(), m.getResourceVersion(),
                m.getGeneration() == null ? 0 : m.getGeneration(), admission, conditions);
    }
}
