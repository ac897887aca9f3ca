package dev.sluice.bridge;

import dev.sluice.engine.Taint;
import dev.sluice.engine.tas.TasNode;
import dev.sluice.jobs.InvalidJobException;
import dev.sluice.jobs.PodDemand;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.api.model.PodSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Nodes and the pods on them as topology-aware scheduling counts them (milli-units, {@code pods} 1000 per pod). */
public final class Nodes {

    /** The resource a node's pod slots are counted in. */
    public static final String PODS = "pods";

    private Nodes() {
    }

    /**
     * A Node object as TAS sees it. An allocatable quantity that cannot be read is left out (the node then offers
     * none of it), as the scheduler would not place on it either.
     */
    public static TasNode toEngine(Node node) {
        var md = node.getMetadata();
        var status = node.getStatus();
        Map<String, Long> allocatable = new TreeMap<>();
        if (status != null && status.getAllocatable() != null) {
            status.getAllocatable().forEach((resource, q) -> {
                try {
                    allocatable.put(resource, Quantities.milli(q, "Node " + md.getName(), "status.allocatable"));
                } catch (InvalidObjectException e) {
                    // unreadable: offers none of it
                }
            });
        }
        List<Taint> taints = new ArrayList<>();
        if (node.getSpec() != null && node.getSpec().getTaints() != null) {
            node.getSpec().getTaints().forEach(t -> taints.add(new Taint(t.getKey(), t.getValue(), t.getEffect())));
        }
        boolean unschedulable = node.getSpec() != null && Boolean.TRUE.equals(node.getSpec().getUnschedulable());
        return new TasNode(md.getName(), md.getLabels(), allocatable, taints, ready(node), unschedulable);
    }

    /** The node's Ready condition is True. */
    public static boolean ready(Node node) {
        if (node.getStatus() == null || node.getStatus().getConditions() == null) {
            return false;
        }
        for (NodeCondition c : node.getStatus().getConditions()) {
            if ("Ready".equals(c.getType())) {
                return "True".equals(c.getStatus());
            }
        }
        return false;
    }

    /**
     * What one pod takes of its node: its effective requests (the larger of the sum of its containers and each init
     * container, plus overhead) and one pod slot; null when its requests cannot be read.
     */
    public static Map<String, Long> podUsage(PodSpec spec) {
        try {
            Map<String, Long> usage = new TreeMap<>(PodDemand.milliOf(spec));
            usage.merge(PODS, 1000L, Long::sum);
            return usage;
        } catch (InvalidJobException e) {
            return null;
        }
    }
}
