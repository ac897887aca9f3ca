package dev.sluice.engine;

import java.util.List;
import java.util.Objects;

/**
 * A Cohort object (Kueue's v1beta2 Cohort): its parent cohort (null = a root), its own quota, a pool for its
 * subtree (borrowingLimit bounds what it takes from its parent, lendingLimit what its subtree lends upwards), and
 * its fair-sharing weight (null = 1; 0 = only idle capacity).
 */
public record CohortSpec(String name, String parent, List<ResourceGroupSpec> resourceGroups,
                         Double fairSharingWeight) {
    public CohortSpec {
        Objects.requireNonNull(name, "Cohort name");
        parent = parent == null || parent.isEmpty() ? null : parent;
        resourceGroups = resourceGroups == null ? List.of() : List.copyOf(resourceGroups);
        if (fairSharingWeight != null && (fairSharingWeight < 0 || fairSharingWeight.isNaN())) {
            throw new IllegalArgumentException("Cohort " + name + ": fairSharing.weight must not be negative");
        }
    }

    public CohortSpec(String name, String parent, List<ResourceGroupSpec> resourceGroups) {
        this(name, parent, resourceGroups, null);
    }

    public double weight() {
        return fairSharingWeight == null ? 1.0 : fairSharingWeight;
    }
}
