package dev.sluice.controller;

import dev.sluice.api.v1beta2.WorkloadPriorityClass;
import dev.sluice.controller.cache.ClusterCache;
import dev.sluice.controller.cache.Ref;
import io.javaoperatorsdk.operator.api.config.informer.Informer;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.IndexedResourceCache;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import java.util.List;
import java.util.Optional;

/**
 * WorkloadPriorityClasses: the operator's cache of them is where priorities are looked up, and a new or changed
 * class gives jobs that waited for it another try. (The other kinds are watched by the engine loop's own
 * informers, which feed one thread; this one needs no ordering with them.)
 */
@ControllerConfiguration(name = "workloadpriorityclass",
        // its initial LIST paginated like the engine loop's informers (ClusterCache); classes are few, so not configurable
        informer = @Informer(informerListLimit = ClusterCache.DEFAULT_LIST_PAGE_SIZE))
public class WorkloadPriorityClassReconciler implements Reconciler<WorkloadPriorityClass> {

    private final ControllerRuntime runtime;
    private volatile IndexedResourceCache<WorkloadPriorityClass> cache;

    public WorkloadPriorityClassReconciler(ControllerRuntime runtime) {
        this.runtime = runtime;
    }

    @Override
    public List<EventSource<?, WorkloadPriorityClass>> prepareEventSources(EventSourceContext<WorkloadPriorityClass> context) {
        cache = context.getPrimaryCache();
        runtime.workloadPriorityClasses(this::value);
        return List.of();
    }

    @Override
    public UpdateControl<WorkloadPriorityClass> reconcile(WorkloadPriorityClass wpc, Context<WorkloadPriorityClass> context) {
        runtime.submit(new Ref(Ref.PRIORITY, null, wpc.getMetadata().getName()));
        return UpdateControl.noUpdate();
    }

    Optional<Integer> value(String name) {
        var c = cache;
        if (c == null) {
            return Optional.empty();
        }
        return c.list().filter(w -> name.equals(w.getMetadata().getName())).findFirst()
                .map(w -> w.getValue() == null ? 0 : w.getValue());
    }
}
