package dev.sluice.controller;

import dev.sluice.api.v1beta1.ClusterQueue;
import dev.sluice.api.v1beta1.LocalQueue;
import dev.sluice.api.v1beta1.LocalQueueStatus;
import io.fabric8.kubernetes.api.model.Condition;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Keeps a LocalQueue's Active condition: False with reason ClusterQueueDoesNotExist while its ClusterQueue is
 * missing (Kueue's wording), True otherwise. Patches status only when the condition changes; a ClusterQueue informer brings the change in.
 */
@ControllerConfiguration(name = "localqueue")
public class LocalQueueReconciler implements Reconciler<LocalQueue> {

    private static final String BY_CLUSTER_QUEUE = "byClusterQueue";

    /** A ClusterQueue appearing or going away re-reconciles the LocalQueues that name it. */
    @Override
    public List<EventSource<?, LocalQueue>> prepareEventSources(EventSourceContext<LocalQueue> context) {
        context.getPrimaryCache().addIndexer(BY_CLUSTER_QUEUE,
                lq -> lq.getSpec() == null || lq.getSpec().getClusterQueue() == null ? List.of()
                        : List.of(lq.getSpec().getClusterQueue()));
        var config = InformerEventSourceConfiguration.from(ClusterQueue.class, LocalQueue.class)
                .withSecondaryToPrimaryMapper(cq -> localQueuesOf(context, cq.getMetadata().getName()))
                .withPrimaryToSecondaryMapper((LocalQueue lq) -> clusterQueueOf(lq))
                .build();
        return List.of(new InformerEventSource<>(config, context));
    }

    private static Set<ResourceID> clusterQueueOf(LocalQueue lq) {
        return lq.getSpec() == null || lq.getSpec().getClusterQueue() == null ? Set.of()
                : Set.of(new ResourceID(lq.getSpec().getClusterQueue()));
    }

    private static Set<ResourceID> localQueuesOf(EventSourceContext<LocalQueue> context, String clusterQueue) {
        return context.getPrimaryCache().byIndex(BY_CLUSTER_QUEUE, clusterQueue).stream()
                .map(ResourceID::fromResource).collect(Collectors.toSet());
    }

    @Override
    public UpdateControl<LocalQueue> reconcile(LocalQueue queue, Context<LocalQueue> context) {
        String clusterQueue = queue.getSpec() == null ? null : queue.getSpec().getClusterQueue();
        boolean exists = clusterQueue != null && context.getSecondaryResources(ClusterQueue.class).stream()
                .anyMatch(cq -> clusterQueue.equals(cq.getMetadata().getName()));
        String reason = exists ? "Ready" : "ClusterQueueDoesNotExist";
        String message = exists ? "Can submit new workloads to localQueue"
                : "Can't submit new workloads to clusterQueue " + clusterQueue + ": it doesn't exist";
        List<Condition> current = queue.getStatus() == null ? null : queue.getStatus().getConditions();
        List<Condition> next = Conditions.set(current, "Active", exists, reason, message,
                queue.getMetadata().getGeneration(), Instant.now());
        if (Objects.equals(current, next)) {
            return UpdateControl.<LocalQueue> noUpdate();
        }
        if (queue.getStatus() == null) {
            queue.setStatus(new LocalQueueStatus());
        }
        queue.getStatus().setConditions(next);
        return UpdateControl.patchStatus(queue);
    }
}
