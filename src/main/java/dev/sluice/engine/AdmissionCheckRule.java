package dev.sluice.engine;

import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * One entry of a ClusterQueue's admissionChecksStrategy: the check's name and the flavors whose admissions need it
 * (empty: every flavor of the ClusterQueue, as Kueue fills an empty onFlavors).
 */
public record AdmissionCheckRule(String name, Set<String> onFlavors) {
    public AdmissionCheckRule {
        Objects.requireNonNull(name, "admission check name");
        onFlavors = onFlavors == null ? Set.of() : Set.copyOf(new TreeSet<>(onFlavors));
    }

    public AdmissionCheckRule(String name) {
        this(name, Set.of());
    }
}
