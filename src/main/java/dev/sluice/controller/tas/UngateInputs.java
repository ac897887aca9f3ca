package dev.sluice.controller.tas;

import dev.sluice.api.v1beta2.PodSetAssignment;
import dev.sluice.api.v1beta2.UnhealthyNode;
import dev.sluice.api.v1beta2.Workload;
import dev.sluice.bridge.InvalidObjectException;
import dev.sluice.bridge.Topologies;
import dev.sluice.controller.conditions.WorkloadConditions;
import dev.sluice.engine.PodSetSpec;
import dev.sluice.engine.WorkloadSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/** A Workload as the ungater and the node failure reporting read it: its pod set assignments and unhealthy nodes. */
final class UngateInputs {

    private UngateInputs() {
    }

    /** Kueue's IsAdmittedByTAS: admitted, and some pod set assignment has a topology assignment. */
    static boolean admittedByTas(Workload wl) {
        if (wl == null || wl.getStatus() == null || wl.getStatus().getAdmission() == null
                || wl.getStatus().getAdmission().getPodSetAssignments() == null
                || !WorkloadConditions.isTrue(wl, WorkloadConditions.ADMITTED)) {
            return false;
        }
        return wl.getStatus().getAdmission().getPodSetAssignments().stream()
                .anyMatch(psa -> psa.getTopologyAssignment() != null);
    }

    /**
     * The pod set assignments in the planner's terms (empty when not admitted by TAS); {@code spec} (nullable) is the
     * Workload's engine form, for the topology requests and the counts an assignment leaves out.
     *
     * @throws InvalidObjectException a recorded topology assignment that does not decode
     */
    static List<UngatePlan.PodSetInput> podSets(Workload wl, WorkloadSpec spec) {
        if (!admittedByTas(wl)) {
            return List.of();
        }
        String where = "Workload " + wl.getMetadata().getNamespace() + "/" + wl.getMetadata().getName();
        List<UngatePlan.PodSetInput> out = new ArrayList<>();
        List<PodSetAssignment> psas = wl.getStatus().getAdmission().getPodSetAssignments();
        for (int i = 0; i < psas.size(); i++) {
            PodSetAssignment psa = psas.get(i);
            PodSetSpec ps = spec == null ? null
                    : spec.podSets().stream().filter(p -> p.name().equals(psa.getName())).findFirst().orElse(null);
            int count = psa.getCount() != null ? psa.getCount() : ps != null ? ps.count() : 0;
            out.add(new UngatePlan.PodSetInput(psa.getName(), count, Topologies.fromApi(psa.getTopologyAssignment(),
                    where, "status.admission.podSetAssignments[" + i + "].topologyAssignment"),
                    ps == null ? null : ps.topologyRequest()));
        }
        return out;
    }

    static Set<String> unhealthyNodes(Workload wl) {
        Set<String> out = new TreeSet<>();
        if (wl.getStatus() != null && wl.getStatus().getUnhealthyNodes() != null) {
            for (UnhealthyNode n : wl.getStatus().getUnhealthyNodes()) {
                out.add(n.getName());
            }
        }
        return out;
    }
}
