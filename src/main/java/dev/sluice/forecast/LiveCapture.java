package dev.sluice.forecast;

import dev.sluice.api.v1beta2.ClusterQueue;
import dev.sluice.api.v1beta2.Cohort;
import dev.sluice.api.v1beta2.LocalQueue;
import dev.sluice.api.v1beta2.ResourceFlavor;
import dev.sluice.api.v1beta2.Workload;
import dev.sluice.bridge.CohortObjects;
import dev.sluice.bridge.EngineRebuild;
import dev.sluice.bridge.QueueObjects;
import dev.sluice.controller.LiveState;
import dev.sluice.engine.ClusterQueueSpec;
import dev.sluice.engine.CohortSpec;
import dev.sluice.engine.Engine;
import dev.sluice.engine.FlavorSpec;
import dev.sluice.engine.LocalQueueSpec;
import dev.sluice.engine.WorkloadKey;
import dev.sluice.engine.WorkloadSpec;
import dev.sluice.engine.WorkloadState;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Namespace;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.Collections;

/**
 * The capture of the controller's live state, on the engine thread: the engine's phases and assignments (its own
 * truth, ahead of the Workloads' status), the cached queue objects in engine form, and the estimates. Also records
 * the run time of every newly finished Workload in the history, and notes what the annotation writer needs.
 */
final class LiveCapture {

    /** The annotation a Workload carries now, and the version it was read at. */
    record Annotated(String value, String resourceVersion, boolean waiting, boolean hasAnnotations) {
    }

    record Result(Capture capture, Map<WorkloadKey, Annotated> annotations) {
    }

    private final RunTimeHistory history = new RunTimeHistory();
    /** uids already counted in the history (bounded: the oldest forgotten first). */
    private final Set<String> counted = Collections.newSetFromMap(new LinkedHashMap<>(64, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
            return size() > 20_000;
        }
    });

    Result capture(LiveState st, String annotationKey) {
        Engine engine = st.engine();
        List<FlavorSpec> flavors = new ArrayList<>();
        for (ResourceFlavor f : st.flavors()) {
            try {
                flavors.add(QueueObjects.flavor(f));
            } catch (RuntimeException skipped) {
                // refused by the live engine too
            }
        }
        List<ClusterQueueSpec> cqs = new ArrayList<>();
        for (ClusterQueue cq : st.clusterQueues()) {
            try {
                cqs.add(QueueObjects.clusterQueue(cq));
            } catch (RuntimeException skipped) {
                // as above
            }
        }
        List<LocalQueueSpec> lqs = new ArrayList<>();
        for (LocalQueue lq : st.localQueues()) {
            try {
                lqs.add(QueueObjects.localQueue(lq));
            } catch (RuntimeException skipped) {
                // as above
            }
        }
        List<CohortSpec> cohorts = new ArrayList<>();
        for (Cohort cohort : st.cohorts()) {
            try {
                cohorts.add(CohortObjects.cohort(cohort));
            } catch (RuntimeException skipped) {
                // as above
            }
        }
        List<Capture.LocalQueueBooks> usage = new ArrayList<>();
        for (LocalQueueSpec lq : lqs) {
            var last = engine.localQueueUsageLastUpdate(lq.namespace(), lq.name());
            if (last.isPresent()) {
                usage.add(new Capture.LocalQueueBooks(lq.namespace(), lq.name(),
                        engine.localQueueConsumedResources(lq.namespace(), lq.name()).orElse(Map.of()),
                        engine.localQueueEntryPenalty(lq.namespace(), lq.name()).orElse(Map.of()), last.getAsLong()));
            }
        }
        Map<String, Map<String, String>> namespaces = new HashMap<>();
        for (Namespace ns : st.namespaces()) {
            namespaces.put(ns.getMetadata().getName(), ns.getMetadata().getLabels());
        }
        Map<WorkloadKey, Forecast> positions = new HashMap<>();
        for (String cq : engine.clusterQueueNames()) {
            List<WorkloadKey> order = engine.pendingOrder(cq);
            for (int i = 0; i < order.size(); i++) {
                positions.put(order.get(i), new Forecast(null, Basis.unknown, cq, i));
            }
        }
        List<Capture.Admitted> admitted = new ArrayList<>();
        List<WorkloadSpec> waiting = new ArrayList<>();
        Map<WorkloadKey, Estimate> estimates = new HashMap<>();
        Map<WorkloadKey, Annotated> annotations = new HashMap<>();
        for (Workload wl : st.workloads()) {
            countIfFinished(wl);
            WorkloadKey key = new WorkloadKey(wl.getMetadata().getNamespace(), wl.getMetadata().getName());
            Optional<WorkloadState> state = engine.workload(key);
            String current = wl.getMetadata().getAnnotations() == null ? null
                    : wl.getMetadata().getAnnotations().get(annotationKey);
            if (state.isEmpty()) {
                continue;
            }
            WorkloadState s = state.get();
            estimates.put(key, Estimates.of(wl, st.ownerJob(wl), history));
            switch (s.phase()) {
                case ADMITTED, EVICTING -> {
                    admitted.add(new Capture.Admitted(s.spec(), s.assignment(),
                            s.admittedAtMillis() == null ? st.nowMillis() : s.admittedAtMillis()));
                    if (current != null) {
                        annotations.put(key, new Annotated(current, wl.getMetadata().getResourceVersion(), false, true));
                    }
                }
                case PENDING, INADMISSIBLE -> {
                    waiting.add(s.spec());
                    annotations.put(key, new Annotated(current, wl.getMetadata().getResourceVersion(), true,
                            wl.getMetadata().getAnnotations() != null && !wl.getMetadata().getAnnotations().isEmpty()));
                }
                default -> {
                }
            }
        }
        return new Result(new Capture(st.nowMillis(), flavors, namespaces, cqs, lqs, admitted, waiting, positions,
                estimates, cohorts, st.fairSharing(), st.admissionFairSharing(), usage), annotations);
    }

    private void countIfFinished(Workload wl) {
        Condition finished = condition(wl, "Finished");
        if (finished == null || !"True".equals(finished.getStatus()) || wl.getMetadata().getUid() == null
                || counted.contains(wl.getMetadata().getUid()) || wl.getSpec() == null) {
            return;
        }
        counted.add(wl.getMetadata().getUid());
        Condition reserved = condition(wl, "QuotaReserved");
        if (reserved == null || reserved.getLastTransitionTime() == null || finished.getLastTransitionTime() == null) {
            return;
        }
        try {
            long run = Instant.parse(finished.getLastTransitionTime()).toEpochMilli() - EngineRebuild.reservedAt(wl);
            history.record(wl.getMetadata().getNamespace(), wl.getSpec().getQueueName(),
                    wl.getSpec().getPriority() == null ? 0 : wl.getSpec().getPriority(), run);
        } catch (RuntimeException ignored) {
            // an unreadable time: not counted
        }
    }

    private static Condition condition(Workload wl, String type) {
        if (wl.getStatus() == null || wl.getStatus().getConditions() == null) {
            return null;
        }
        for (Condition c : wl.getStatus().getConditions()) {
            if (type.equals(c.getType())) {
                return c;
            }
        }
        return null;
    }
}
