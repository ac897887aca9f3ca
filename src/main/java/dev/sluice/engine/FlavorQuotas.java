package dev.sluice.engine;

import java.util.List;
import java.util.Objects;

/** The quotas a ClusterQueue has in one flavor of a resource group. */
public record FlavorQuotas(String flavor, List<ResourceQuota> resources) {
    public FlavorQuotas {
        Objects.requireNonNull(flavor, "flavor name");
        resources = resources == null ? List.of() : List.copyOf(resources);
    }
}
