package dev.sluice.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Which of a ClusterQueue's admission checks apply to an admission, and what its checks say of the queue's activity,
 * as Kueue v0.19.2's pkg/workload (AdmissionChecksForWorkload) and pkg/cache/scheduler (updateWithAdmissionChecks).
 */
final class AdmissionChecks {
    private AdmissionChecks() {
    }

    /**
     * The checks an admission needs, sorted: those whose flavors (every flavor of the queue when onFlavors is empty)
     * meet a flavor the admission assigned.
     */
    static List<String> forAssignment(ClusterQueueSpec spec, Assignment assignment) {
        if (spec == null || spec.admissionChecks().isEmpty() || assignment == null) {
            return List.of();
        }
        Set<String> assigned = new TreeSet<>();
        for (PodSetAssignment ps : assignment.podSets()) {
            assigned.addAll(ps.flavors().values());
        }
        TreeSet<String> out = new TreeSet<>();
        for (AdmissionCheckRule rule : spec.admissionChecks()) {
            Set<String> flavors = rule.onFlavors().isEmpty() ? allFlavors(spec) : rule.onFlavors();
            for (String f : assigned) {
                if (flavors.contains(f)) {
                    out.add(rule.name());
                    break;
                }
            }
        }
        return List.copyOf(out);
    }

    /**
     * The checks a workload waiting in the queue has before any admission: those that apply to every flavor of the
     * queue, whatever it is assigned (Kueue lists them on a pending Workload), sorted.
     */
    static List<String> forEveryFlavor(ClusterQueueSpec spec) {
        if (spec == null || spec.admissionChecks().isEmpty()) {
            return List.of();
        }
        Set<String> all = allFlavors(spec);
        TreeSet<String> out = new TreeSet<>();
        for (AdmissionCheckRule rule : spec.admissionChecks()) {
            if (rule.onFlavors().isEmpty() || rule.onFlavors().containsAll(all)) {
                out.add(rule.name());
            }
        }
        return List.copyOf(out);
    }

    static Set<String> allFlavors(ClusterQueueSpec spec) {
        Set<String> all = new TreeSet<>();
        for (ResourceGroupSpec rg : spec.resourceGroups()) {
            for (FlavorQuotas fq : rg.flavors()) {
                all.add(fq.flavor());
            }
        }
        return all;
    }

    /** Why the queue's checks keep it from admitting (Kueue's reasons), each list sorted. */
    record Problems(List<String> missing, List<String> inactive, List<String> multiKueue,
                    List<String> multiKueuePerFlavor, List<String> provisioning) {
        static final Problems NONE = new Problems(List.of(), List.of(), List.of(), List.of(), List.of());

        boolean isEmpty() {
            return missing.isEmpty() && inactive.isEmpty() && multiKueue.size() <= 1 && multiKueuePerFlavor.isEmpty()
                    && (multiKueue.isEmpty() || provisioning.isEmpty());
        }

        /** Adds Kueue's reasons and messages, in Kueue's order. */
        void describe(List<String> reasons, List<String> messages) {
            if (!missing.isEmpty()) {
                reasons.add("AdmissionCheckNotFound");
                messages.add("references missing AdmissionCheck(s): " + String.join(",", missing));
            }
            if (!inactive.isEmpty()) {
                reasons.add("AdmissionCheckInactive");
                messages.add("references inactive AdmissionCheck(s): " + String.join(",", inactive));
            }
            if (multiKueue.size() > 1) {
                reasons.add("MultipleMultiKueueAdmissionChecks");
                messages.add("Cannot use multiple MultiKueue AdmissionChecks on the same ClusterQueue, found: "
                        + String.join(",", multiKueue));
            }
            if (!multiKueuePerFlavor.isEmpty()) {
                reasons.add("MultiKueueAdmissionCheckAppliedPerFlavor");
                messages.add("Cannot specify MultiKueue AdmissionCheck per flavor, found: "
                        + String.join(",", multiKueuePerFlavor));
            }
            if (!multiKueue.isEmpty() && !provisioning.isEmpty()) {
                reasons.add("MultiKueueWithProvisioningRequest");
                messages.add("Cannot use both MultiKueue and ProvisioningRequest AdmissionChecks together, found: "
                        + String.join(",", multiKueue) + ", " + String.join(",", provisioning));
            }
        }
    }

    static Problems problems(ClusterQueueSpec spec, Map<String, AdmissionCheckSpec> checks) {
        if (spec.admissionChecks().isEmpty()) {
            return Problems.NONE;
        }
        TreeSet<String> missing = new TreeSet<>();
        TreeSet<String> inactive = new TreeSet<>();
        TreeSet<String> multiKueue = new TreeSet<>();
        TreeSet<String> perFlavor = new TreeSet<>();
        TreeSet<String> provisioning = new TreeSet<>();
        Set<String> all = allFlavors(spec);
        for (AdmissionCheckRule rule : spec.admissionChecks()) {
            AdmissionCheckSpec ac = checks.get(rule.name());
            if (ac == null) {
                missing.add(rule.name());
                continue;
            }
            if (!ac.active()) {
                inactive.add(rule.name());
            }
            if (AdmissionCheckSpec.PROVISIONING_REQUEST.equals(ac.controllerName())) {
                provisioning.add(rule.name());
            }
            if (AdmissionCheckSpec.MULTIKUEUE.equals(ac.controllerName())) {
                multiKueue.add(rule.name());
                if (!rule.onFlavors().isEmpty() && !rule.onFlavors().equals(all)) {
                    perFlavor.add(rule.name());
                }
            }
        }
        return new Problems(new ArrayList<>(missing), new ArrayList<>(inactive), new ArrayList<>(multiKueue),
                new ArrayList<>(perFlavor), new ArrayList<>(provisioning));
    }
}
