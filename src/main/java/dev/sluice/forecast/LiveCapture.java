package dev.sluice.forecast;

import dev.sluice.api.v1beta2.ClusterQueue;
import dev.sluice.api.v1beta2.Cohort;
import dev.sluice.api.v1beta2.LocalQueue;
import dev.sluice.api.v1beta2.ResourceFlavor;
import dev.sluice.api.v1beta2.Workload;
import dev.sluice.bridge.CohortObjects;
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
import io.fabric8.kubernetes.api.model.Namespace;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The capture of the controller's live state, on the engine thread: the engine's phases and assignments (its own
 * truth, ahead of the Workloads' status), the cached queue objects in engine form, and the estimates. Also records
 * the runs of the Workloads finished since the last capture in the history (the controller tells them as they
 * finish, so the capture walks live Workloads only), and notes what the annotation writer needs.
 */
final class LiveCapture {

    /** The annotation a Workload carries now, and the version it was read at. */
    record Annotated(String value, String resourceVersion, boolean waiting, boolean hasAnnotations) {
    }

    record Result(Capture capture, Map<WorkloadKey, Annotated> annotations) {
    }

    private final RunTimeHistory history = new RunTimeHistory();

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
        st.takeFinishedRuns(r -> history.record(r.namespace(), r.localQueue(), r.priority(), r.runMillis()));
        for (Workload wl : st.unfinishedWorkloads()) {
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
                estimates, cohorts, st.fairSharing(), st.admissionFairSharing(), usage, engine.admissionChecks()),
                annotations);
    }
}
