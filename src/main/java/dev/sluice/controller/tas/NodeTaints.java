package dev.sluice.controller.tas;

import dev.sluice.api.v1beta2.AdmissionCheckState;
import dev.sluice.api.v1beta2.PodSet;
import dev.sluice.api.v1beta2.PodSetAssignment;
import dev.sluice.api.v1beta2.PodSetUpdate;
import dev.sluice.api.v1beta2.ResourceFlavor;
import dev.sluice.api.v1beta2.Workload;
import dev.sluice.bridge.Topologies;
import dev.sluice.engine.tas.TopologyDomainAssignment;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.Toleration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * Kueue v0.19.2's TASReplaceNodeOnNodeTaints (Beta, on by default; pkg/controller/tas/node_controller.go
 * classifyTaints): a Ready node of a Workload's assignment with a {@code NoSchedule} or {@code NoExecute} taint that
 * the Workload's pods on it do not tolerate for good (some pod set does not tolerate it, or only with
 * {@code tolerationSeconds}) is failing for that Workload; with TASReplaceNodeOnPodTermination (on) it counts as failed
 * once none of the Workload's pods on it still runs, as a NotReady node does. A pod set's tolerations are its
 * template's, its flavors' and its admission checks' podSetUpdates' (Kueue's podSetsWithEffectiveTolerationsOnNode).
 */
final class NodeTaints {

    private NodeTaints() {
    }

    /** Whether the node has a scheduling taint not permanently tolerated by every pod set the node holds. */
    static boolean notToleratedForGood(Node node, Workload wl, Function<String, ResourceFlavor> flavors) {
        List<Taint> taints = node.getSpec() == null || node.getSpec().getTaints() == null ? List.of()
                : node.getSpec().getTaints();
        List<Taint> scheduling = taints.stream().filter(NodeTaints::scheduling).toList();
        if (scheduling.isEmpty()) {
            return false;
        }
        List<List<Toleration>> podSets = effectiveTolerations(wl, node.getMetadata().getName(), flavors);
        for (Taint taint : scheduling) {
            for (List<Toleration> tolerations : podSets) {
                boolean forGood = tolerations.stream().anyMatch(t -> t.getTolerationSeconds() == null
                        && tolerates(t, taint));
                if (!forGood) {
                    return true;
                }
            }
        }
        return false;
    }

    static boolean scheduling(Taint t) {
        return "NoSchedule".equals(t.getEffect()) || "NoExecute".equals(t.getEffect());
    }

    /** Kubernetes' ToleratesTaint. */
    static boolean tolerates(Toleration t, Taint taint) {
        if (t.getEffect() != null && !t.getEffect().isEmpty() && !t.getEffect().equals(taint.getEffect())) {
            return false;
        }
        String key = t.getKey() == null ? "" : t.getKey();
        String op = t.getOperator() == null || t.getOperator().isEmpty() ? "Equal" : t.getOperator();
        if (key.isEmpty()) {
            return "Exists".equals(op);
        }
        if (!key.equals(taint.getKey())) {
            return false;
        }
        return switch (op) {
            case "Exists" -> true;
            case "Equal" -> Objects.equals(t.getValue() == null ? "" : t.getValue(),
                    taint.getValue() == null ? "" : taint.getValue());
            default -> false;
        };
    }

    /** Per pod set whose topology assignment holds the node: the tolerations its pods get. */
    static List<List<Toleration>> effectiveTolerations(Workload wl, String nodeName,
            Function<String, ResourceFlavor> flavors) {
        List<List<Toleration>> out = new ArrayList<>();
        if (wl.getStatus() == null || wl.getStatus().getAdmission() == null
                || wl.getStatus().getAdmission().getPodSetAssignments() == null) {
            return out;
        }
        for (PodSetAssignment psa : wl.getStatus().getAdmission().getPodSetAssignments()) {
            if (!holds(wl, psa, nodeName)) {
                continue;
            }
            List<Toleration> tolerations = new ArrayList<>();
            PodSet ps = wl.getSpec().getPodSets().stream().filter(p -> Objects.equals(p.getName(), psa.getName()))
                    .findFirst().orElse(null);
            if (ps != null && ps.getTemplate() != null && ps.getTemplate().getSpec() != null
                    && ps.getTemplate().getSpec().getTolerations() != null) {
                tolerations.addAll(ps.getTemplate().getSpec().getTolerations());
            }
            if (psa.getFlavors() != null) {
                for (String flavor : new TreeSet<>(psa.getFlavors().values())) {
                    ResourceFlavor rf = flavors.apply(flavor);
                    if (rf != null && rf.getSpec() != null && rf.getSpec().getTolerations() != null) {
                        tolerations.addAll(rf.getSpec().getTolerations());
                    }
                }
            }
            if (wl.getStatus().getAdmissionChecks() != null) {
                for (AdmissionCheckState check : wl.getStatus().getAdmissionChecks()) {
                    if (check.getPodSetUpdates() == null) {
                        continue;
                    }
                    for (PodSetUpdate u : check.getPodSetUpdates()) {
                        if (Objects.equals(u.getName(), psa.getName())) {
                            if (u.getTolerations() != null) {
                                tolerations.addAll(u.getTolerations());
                            }
                            break;
                        }
                    }
                }
            }
            out.add(tolerations);
        }
        return out;
    }

    private static boolean holds(Workload wl, PodSetAssignment psa, String nodeName) {
        if (psa.getTopologyAssignment() == null) {
            return false;
        }
        var ta = Topologies.fromApi(psa.getTopologyAssignment(), "Workload " + wl.getMetadata().getNamespace() + "/"
                + wl.getMetadata().getName(), "status.admission.podSetAssignments.topologyAssignment");
        for (TopologyDomainAssignment d : ta.domains()) {
            if (nodeName.equals(d.values().get(d.values().size() - 1))) {
                return true;
            }
        }
        return false;
    }
}
