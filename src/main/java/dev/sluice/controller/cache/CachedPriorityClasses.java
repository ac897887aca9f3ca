package dev.sluice.controller.cache;

import dev.sluice.bridge.PriorityClasses;
import io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClass;
import java.util.Optional;
import java.util.function.Function;

/** Priority classes as the caches see them: PriorityClasses from the engine loop's informer, WorkloadPriorityClasses from the operator's. */
public final class CachedPriorityClasses implements PriorityClasses {

    private final ClusterCache cache;
    private final Function<String, Optional<Integer>> workloadPriorityClasses;

    public CachedPriorityClasses(ClusterCache cache, Function<String, Optional<Integer>> workloadPriorityClasses) {
        this.cache = cache;
        this.workloadPriorityClasses = workloadPriorityClasses;
    }

    @Override
    public Optional<Integer> workloadPriorityClass(String name) {
        return workloadPriorityClasses.apply(name);
    }

    @Override
    public Optional<Integer> priorityClass(String name) {
        PriorityClass pc = ClusterCache.get(cache.priorityClasses, null, name);
        return pc == null ? Optional.empty() : Optional.of(pc.getValue() == null ? 0 : pc.getValue());
    }

    @Override
    public Optional<Named> globalDefault() {
        return cache.list(cache.priorityClasses).stream()
                .filter(pc -> Boolean.TRUE.equals(pc.getGlobalDefault()))
                .map(pc -> new Named(pc.getMetadata().getName(), pc.getValue() == null ? 0 : pc.getValue()))
                .findFirst();
    }
}
