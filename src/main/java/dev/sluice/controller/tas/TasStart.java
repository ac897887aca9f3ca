package dev.sluice.controller.tas;

import dev.sluice.api.v1beta2.TopologyAnnotations;
import dev.sluice.engine.tas.PodSetTopologyRequest;
import dev.sluice.jobs.PodSetStart;
import dev.sluice.jobs.WellKnown;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What start adds to the pod template of a pod set placed by topology, as Kueue v0.19's pkg/podset FromAssignment and
 * jobframework's getPodSetsInfoFromStatus: the {@code kueue.x-k8s.io/topology} scheduling gate (the pods wait for
 * the ungater), the Workload's name in {@code kueue.x-k8s.io/workload} (the ungater finds the pods' Workload by it),
 * and for a pod set that asked for no level (implicit TAS, a flavor with a topology) {@code
 * kueue.x-k8s.io/podset-unconstrained-topology: "true"}, which marks its pods as TAS pods.
 * <p>
 * Kueue puts the Workload annotation on every pod set while TopologyAwareScheduling is on; Sluice only on the pod
 * sets of a Workload admitted with a topology assignment (the only pods that read it).
 */
public final class TasStart {

    private TasStart() {
    }

    /** {@code base} unchanged when the pod set has no topology assignment. */
    public static PodSetStart withTopology(PodSetStart base, String workload, boolean placedByTopology,
            PodSetTopologyRequest request) {
        if (!placedByTopology) {
            return base;
        }
        Map<String, String> annotations = new LinkedHashMap<>(base.annotations());
        annotations.put(WellKnown.WORKLOAD, workload);
        if (request == null || (request.required() == null && request.preferred() == null
                && request.unconstrained() == null)) {
            annotations.put(TopologyAnnotations.UNCONSTRAINED, "true");
        }
        List<String> gates = new java.util.ArrayList<>(base.schedulingGates());
        if (!gates.contains(WellKnown.TOPOLOGY_GATE)) {
            gates.add(WellKnown.TOPOLOGY_GATE);
        }
        return new PodSetStart(base.podSet(), base.nodeSelector(), base.tolerations(), base.count(), base.labels(),
                annotations, gates);
    }

    /** Kueue's utiltas.IsTAS: a pod of a pod set placed by topology carries one of the topology annotations. */
    public static boolean isTas(Map<String, String> podAnnotations) {
        return podAnnotations.containsKey(TopologyAnnotations.PREFERRED)
                || podAnnotations.containsKey(TopologyAnnotations.REQUIRED)
                || podAnnotations.containsKey(TopologyAnnotations.SLICE_REQUIRED)
                || podAnnotations.containsKey(TopologyAnnotations.SLICE_REQUIRED_CONSTRAINTS)
                || podAnnotations.containsKey(TopologyAnnotations.UNCONSTRAINED);
    }
}
