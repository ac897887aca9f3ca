package dev.sluice.sim;

import dev.sluice.bridge.InvalidObjectException;
import dev.sluice.bridge.Nodes;
import dev.sluice.bridge.Quantities;
import dev.sluice.engine.tas.TasNode;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A Node manifest of the simulator's input as TAS counts it: as {@link Nodes#toEngine} reads a live node, with the
 * defaults a hand-written Node needs (it has no kubelet to fill its status), and every unreadable quantity an error
 * rather than a node that silently offers none of it.
 */
final class SimNodes {

    /** The kubelet's default maxPods: the pod slots of a Node that gives none. */
    static final int DEFAULT_PODS = 110;

    private SimNodes() {
    }

    /** The node, or null with {@code problems} filled. */
    static TasNode toEngine(Node node, Origin origin, List<InputError> problems) {
        String name = node.getMetadata().getName();
        var status = node.getStatus();
        Map<String, Quantity> offered = status == null ? null : status.getAllocatable();
        String field = "status.allocatable";
        if ((offered == null || offered.isEmpty()) && status != null && status.getCapacity() != null) {
            offered = status.getCapacity(); // the API server's default: allocatable is capacity
            field = "status.capacity";
        }
        if (offered == null || offered.isEmpty()) {
            problems.add(origin.error("status.allocatable", "required; give what the node offers, e.g."
                    + " {cpu: \"96\", memory: 256Gi, nvidia.com/gpu: \"8\"} (pods defaults to " + DEFAULT_PODS + ")"));
            return null;
        }
        Map<String, Long> allocatable = new TreeMap<>();
        for (var e : offered.entrySet()) {
            try {
                allocatable.put(e.getKey(), Quantities.milli(e.getValue(), "Node " + name, field + "." + e.getKey()));
            } catch (InvalidObjectException ex) {
                String prefix = ex.object() + ": " + ex.field() + ": ";
                String m = ex.getMessage();
                problems.add(origin.error(ex.field(), m.startsWith(prefix) ? m.substring(prefix.length()) : m));
            }
        }
        if (!problems.isEmpty()) {
            return null;
        }
        allocatable.putIfAbsent(Nodes.PODS, DEFAULT_PODS * 1000L);
        TasNode read = Nodes.toEngine(node);
        boolean ready = hasReadyCondition(node) ? read.ready() : true;
        return new TasNode(name, read.labels(), allocatable, read.taints(), ready, read.unschedulable());
    }

    private static boolean hasReadyCondition(Node node) {
        if (node.getStatus() == null || node.getStatus().getConditions() == null) {
            return false;
        }
        for (NodeCondition c : node.getStatus().getConditions()) {
            if ("Ready".equals(c.getType())) {
                return true;
            }
        }
        return false;
    }
}
