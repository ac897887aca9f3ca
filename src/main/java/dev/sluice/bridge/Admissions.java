package dev.sluice.bridge;

import dev.sluice.api.v1beta2.Admission;
import dev.sluice.engine.Assignment;
import dev.sluice.engine.PodSetAssignment;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** The engine's assignment and a Workload's status.admission, both ways (status.admission is the record). */
public final class Admissions {

    private Admissions() {
    }

    public static Admission toApi(Assignment assignment) {
        Admission admission = new Admission();
        admission.setClusterQueue(assignment.clusterQueue());
        List<dev.sluice.api.v1beta2.PodSetAssignment> podSets = new ArrayList<>();
        for (PodSetAssignment psa : assignment.podSets()) {
            var out = new dev.sluice.api.v1beta2.PodSetAssignment();
            out.setName(psa.name());
            out.setFlavors(new TreeMap<>(psa.flavors()));
            Map<String, io.fabric8.kubernetes.api.model.Quantity> usage = new TreeMap<>();
            psa.resourceUsage().forEach((resource, milli) -> usage.put(resource, Quantities.of(milli)));
            out.setResourceUsage(usage);
            out.setCount(psa.count());
            out.setTopologyAssignment(Topologies.toApi(psa.topologyAssignment()));
            podSets.add(out);
        }
        admission.setPodSetAssignments(podSets);
        return admission;
    }

    /**
     * @throws InvalidObjectException the recorded admission cannot be read (it is then not counted; the caller
     *         reports it)
     */
    public static Assignment fromApi(Admission admission, String where) {
        List<PodSetAssignment> podSets = new ArrayList<>();
        var recorded = admission.getPodSetAssignments() == null ? List.<dev.sluice.api.v1beta2.PodSetAssignment> of()
                : admission.getPodSetAssignments();
        for (int i = 0; i < recorded.size(); i++) {
            var psa = recorded.get(i);
            Map<String, Long> usage = new LinkedHashMap<>();
            if (psa.getResourceUsage() != null) {
                for (var e : new TreeMap<>(psa.getResourceUsage()).entrySet()) {
                    usage.put(e.getKey(), Quantities.milli(e.getValue(), where,
                            "status.admission.podSetAssignments[" + i + "].resourceUsage[" + e.getKey() + "]"));
                }
            }
            podSets.add(new PodSetAssignment(psa.getName(), psa.getFlavors() == null ? Map.of() : psa.getFlavors(), usage,
                    psa.getCount() == null ? 0 : psa.getCount(), Topologies.fromApi(psa.getTopologyAssignment(), where,
                    "status.admission.podSetAssignments[" + i + "].topologyAssignment")));
        }
        return new Assignment(admission.getClusterQueue(), podSets);
    }
}
