package dev.sluice.engine;

import java.util.List;

/** A resource group: resources that are assigned together, and the flavors to try, in order. */
public record ResourceGroupSpec(List<String> coveredResources, List<FlavorQuotas> flavors) {
    public ResourceGroupSpec {
        coveredResources = coveredResources == null ? List.of() : List.copyOf(coveredResources);
        flavors = flavors == null ? List.of() : List.copyOf(flavors);
    }
}
