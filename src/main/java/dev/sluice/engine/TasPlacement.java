package dev.sluice.engine;

import dev.sluice.engine.tas.PlacementResult;
import dev.sluice.engine.tas.PodSetTopologyRequest;
import dev.sluice.engine.tas.TasFlavorSnapshot;
import dev.sluice.engine.tas.TasPodSetRequest;
import dev.sluice.engine.tas.Topology;
import dev.sluice.engine.tas.TopologyAssignment;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Topology-aware scheduling in the flavor assignment, as Kueue v0.19's flavorassigner does it
 * (pkg/scheduler/flavorassigner/tas_flavorassigner.go, the TAS step of assignFlavors): which flavors a pod set may
 * take, and, once the quota fits, a placement for every pod set that asks for one.
 */
final class TasPlacement {
    private TasPlacement() {
    }

    /** Kueue's IsExplicitlyRequestingTAS. */
    static boolean explicit(PodSetSpec ps) {
        PodSetTopologyRequest tr = ps.topologyRequest();
        return tr != null && (tr.unconstrained() != null || tr.required() != null || tr.preferred() != null
                || tr.podSetSliceRequiredTopology() != null || tr.podSetSliceSize() != null
                || !tr.podsetSliceRequiredTopologyConstraints().isEmpty());
    }

    /** Kueue's IsTASOnly: every flavor of the ClusterQueue is a TAS flavor. */
    static boolean tasOnly(TasState tas, ClusterQueueState cq) {
        if (!tas.any()) {
            return false;
        }
        boolean any = false;
        for (ResourceGroupSpec rg : cq.resourceGroups()) {
            for (FlavorQuotas fq : rg.flavors()) {
                if (!tas.isTasFlavor(fq.flavor())) {
                    return false;
                }
                any = true;
            }
        }
        return any;
    }

    /** Kueue's isTASImplied: no explicit request, in a TAS-only ClusterQueue. */
    static boolean implied(TasState tas, PodSetSpec ps, ClusterQueueState cq) {
        return !explicit(ps) && tasOnly(tas, cq);
    }

    /**
     * Kueue's checkPodSetAndFlavorMatchForTAS: why the flavor cannot serve the pod set, or null. A pod set asking for
     * TAS needs a flavor with a known topology holding the requested levels; one not asking cannot take a TAS flavor.
     */
    static String flavorMismatch(TasState tas, PodSetSpec ps, ClusterQueueState cq, FlavorSpec f) {
        if (explicit(ps) || implied(tas, ps, cq)) {
            if (implied(tas, ps, cq)) {
                return null;
            }
            if (f.topologyName() == null) {
                return "Flavor \"" + f.name() + "\" does not support TopologyAwareScheduling";
            }
            Topology t = tas.topologyOf(f);
            if (t == null) {
                return "Flavor \"" + f.name() + "\" information missing in TAS cache";
            }
            if (!new TasFlavorSnapshot(t, Map.of(), List.of(), List.of()).hasLevel(ps.topologyRequest())) {
                return "Flavor \"" + f.name() + "\" does not contain the requested level";
            }
            return null;
        }
        if (f.topologyName() != null) {
            return "Flavor \"" + f.name() + "\" supports only TopologyAwareScheduling";
        }
        return null;
    }

    /**
     * The TAS step's outcome: the pod sets with their topology assignments, or the first pod set without a
     * placement, Kueue's message for it and the granular reason.
     */
    record Outcome(List<PodSetAssignment> podSets, String failedPodSet, String message, UnadmittedReason reason) {
    }

    /**
     * Places the pod sets asking for TAS on their TAS flavor (flavors in name order, pod sets in order, as Kueue's
     * FindTopologyAssignmentsForWorkload). When the quota fits (fit true) the placement is made on the nodes as they
     * are and attached. When it needs preemption only a placement on nodes without TAS workloads is checked
     * (Kueue's WithSimulateEmpty); the placement is made once the victims are gone. Null when no pod set asks.
     *
     * <p>Where Kueue would try preemption for a placement that fits only without the admitted TAS workloads (quota
     * fits, the nodes are fragmented), Sluice waits (WaitingForQuota) instead: its preemptor picks victims by quota,
     * not by node.
     */
    static Outcome place(TasState tas, WorkloadSpec wl, ClusterQueueState cq, List<PodSetAssignment> podSets,
                         boolean fit) {
        if (!tas.any()) {
            return null;
        }
        Map<String, List<TasPodSetRequest>> perFlavor = new TreeMap<>();
        for (PodSetAssignment psa : podSets) {
            PodSetSpec ps = TasState.podSet(wl, psa.name());
            if (ps == null || psa.count() == 0 || !(explicit(ps) || implied(tas, ps, cq))) {
                continue;
            }
            String flavor = tas.tasFlavorOf(psa);
            if (flavor == null) {
                continue;
            }
            perFlavor.computeIfAbsent(flavor, k -> new ArrayList<>()).add(new TasPodSetRequest(ps.name(), psa.count(),
                    ps.requestsPerPod(), implied(tas, ps, cq) ? null : ps.topologyRequest(), ps.nodeSelector(),
                    ps.requiredNodeAffinity(), ps.tolerations()));
        }
        if (perFlavor.isEmpty()) {
            return null;
        }
        Map<String, TopologyAssignment> placed = new LinkedHashMap<>();
        if (fit) {
            PlacementResult failed = null;
            String failedPodSet = null;
            for (Map.Entry<String, List<TasPodSetRequest>> e : perFlavor.entrySet()) {
                for (Map.Entry<String, PlacementResult> r
                        : tas.snapshot(e.getKey()).findTopologyAssignments(e.getValue(), false).entrySet()) {
                    if (!r.getValue().fits() && failed == null) {
                        failed = r.getValue();
                        failedPodSet = r.getKey();
                    }
                    placed.put(r.getKey(), r.getValue().assignment());
                }
            }
            if (failed == null) {
                List<PodSetAssignment> out = new ArrayList<>();
                for (PodSetAssignment psa : podSets) {
                    TopologyAssignment ta = placed.get(psa.name());
                    out.add(ta == null ? psa : psa.withTopologyAssignment(ta));
                }
                return new Outcome(out, null, null, null);
            }
            Outcome empty = placeOnEmpty(tas, perFlavor);
            if (empty != null) {
                return empty;
            }
            return new Outcome(podSets, failedPodSet, failed.failureReason(), UnadmittedReason.WaitingForQuota);
        }
        return placeOnEmpty(tas, perFlavor);
    }

    /** Kueue's WithSimulateEmpty check: the first pod set that does not fit even without TAS workloads, or null. */
    private static Outcome placeOnEmpty(TasState tas, Map<String, List<TasPodSetRequest>> perFlavor) {
        for (Map.Entry<String, List<TasPodSetRequest>> e : perFlavor.entrySet()) {
            for (Map.Entry<String, PlacementResult> r
                    : tas.snapshot(e.getKey()).findTopologyAssignments(e.getValue(), true).entrySet()) {
                if (!r.getValue().fits()) {
                    return new Outcome(null, r.getKey(), r.getValue().failureReason(),
                            UnadmittedReason.TopologyPlacementFailed);
                }
            }
        }
        return null;
    }
}
