package dev.sluice.controller.tas;

import dev.sluice.api.v1beta2.PodSetAssignment;
import dev.sluice.api.v1beta2.UnhealthyNode;
import dev.sluice.api.v1beta2.Workload;
import dev.sluice.bridge.InvalidObjectException;
import dev.sluice.bridge.Topologies;
import dev.sluice.controller.cache.ClusterCache;
import dev.sluice.controller.conditions.WorkloadConditions;
import dev.sluice.controller.write.EventRecorder;
import dev.sluice.controller.write.WriteFailures;
import dev.sluice.controller.write.Writes;
import dev.sluice.engine.tas.Topology;
import dev.sluice.engine.tas.TopologyAssignment;
import dev.sluice.engine.tas.TopologyDomainAssignment;
import dev.sluice.metrics.AdmissionEvents;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.jboss.logging.Logger;

/**
 * Kueue v0.19's node failure controller (pkg/controller/tas/node_controller.go) with its default feature gates
 * (TASFailedNodeReplacement, TASReplaceNodeOnPodTermination, TASReplaceNodeOnNodeTaints and
 * TASFailedNodeReplacementFailFast on; TASReplaceNodeDueToNotReadyOverFixedTime off): a node of an admitted Workload's
 * topology assignment (its hostname level) is unhealthy for that Workload when it is gone, has no Ready condition, or
 * is NotReady or carries a scheduling taint its pods do not tolerate for good ({@link NodeTaints}) with none of the
 * Workload's pods still running on it (their termination is the grace: no fixed delay). An unhealthy node is added
 * to the Workload's {@code status.unhealthyNodes}, where the scheduler looks for a replacement domain; a second
 * unhealthy node evicts the Workload (reason {@code NodeFailures}, Kueue's message and event). A node that is Ready
 * again, or NotReady with the Workload's pods still running, is taken off the list.
 * <p>
 * Not done as Kueue does: the termination of pods that wait for a node that failed (Kueue marks them Failed via
 * pods/status).
 */
final class NodeFailures {
    private static final Logger LOG = Logger.getLogger(NodeFailures.class);
    static final String NODE_FAILURES = "NodeFailures";
    static final String MULTIPLE_FAILURES = "Workload eviction triggered due to multiple TAS assigned node failures, including: %s";
    static final long BATCH_MILLIS = 100;
    static final long RETRY_MILLIS = 2_000;

    private final Function<String, Node> nodes;
    private final ClusterCache cache;
    private final TasPods pods;
    private final Writes writes;
    private final WriteFailures failures;
    private final EventRecorder events;
    private final AdmissionEvents metrics;
    private final Clock clock;
    private final ScheduledExecutorService worker;
    private final Set<String> queued = ConcurrentHashMap.newKeySet();
    /** Where the replacement of a failed node is looked for: the engine, on its thread (null: nowhere). */
    private final dev.sluice.engine.Engine engine;
    private final java.util.function.Consumer<Runnable> onEngine;
    /** The node and pod caches have listed once. */
    private final java.util.function.BooleanSupplier synced;
    /** Pods sent to a failing node but never bound there (null: not marked, as in unit tests without a client). */
    private final WaitingPods waiting;

    NodeFailures(Function<String, Node> nodes, ClusterCache cache, TasPods pods, Writes writes, WriteFailures failures,
            EventRecorder events, AdmissionEvents metrics, Clock clock, ScheduledExecutorService worker,
            dev.sluice.engine.Engine engine, java.util.function.Consumer<Runnable> onEngine,
            java.util.function.BooleanSupplier synced, WaitingPods waiting) {
        this.synced = synced;
        this.waiting = waiting;
        this.engine = engine;
        this.onEngine = onEngine;
        this.nodes = nodes;
        this.cache = cache;
        this.pods = pods;
        this.writes = writes;
        this.failures = failures;
        this.events = events;
        this.metrics = metrics;
        this.clock = clock;
        this.worker = worker;
    }

    /** Kueue's predicates: a node added or deleted, its Ready status or its taints changed (informer thread). */
    void nodeChanged(Node old, Node node) {
        if (old == null || node == null || Nodes.readyStatus(old) != Nodes.readyStatus(node)
                || !java.util.Objects.equals(taints(old), taints(node))) {
            enqueue((node != null ? node : old).getMetadata().getName(), BATCH_MILLIS);
        }
    }

    /**
     * Kueue's nodeFailurePodHandler: a pod not bound but sent to a node by its selector (it may wait there for a node
     * that failed), or a pod that ended or is being deleted on its node (the node's Workloads may have no pod left
     * there).
     */
    void podChanged(Pod pod, boolean deleted) {
        String bound = pod.getSpec() == null ? null : pod.getSpec().getNodeName();
        java.util.Map<String, String> selector = pod.getSpec() == null ? null : pod.getSpec().getNodeSelector();
        if ((bound == null || bound.isEmpty()) && selector != null && selector.get(Topology.HOSTNAME) != null
                && !selector.get(Topology.HOSTNAME).isEmpty() && TasPods.workloadOf(pod) != null) {
            enqueue(selector.get(Topology.HOSTNAME), BATCH_MILLIS);
        }
        String node = bound;
        if (node != null && !node.isEmpty() && TasPods.workloadOf(pod) != null
                && (deleted || TasPods.terminated(pod) || pod.getMetadata().getDeletionTimestamp() != null)) {
            enqueue(node, BATCH_MILLIS);
        }
    }

    private static Object taints(Node node) {
        return node.getSpec() == null || node.getSpec().getTaints() == null ? java.util.List.of()
                : node.getSpec().getTaints();
    }

    void enqueue(String node, long delayMillis) {
        if (queued.add(node)) {
            worker.schedule(() -> {
                queued.remove(node);
                try {
                    reconcile(node);
                } catch (RuntimeException e) {
                    LOG.warnf(e, "checking the Workloads on node %s failed; trying again", node);
                    enqueue(node, RETRY_MILLIS);
                }
            }, delayMillis, TimeUnit.MILLISECONDS);
        }
    }

    void reconcile(String nodeName) {
        if (!synced.getAsBoolean()) {
            enqueue(nodeName, RETRY_MILLIS); // before the first lists a node not yet listed would look gone
            return;
        }
        Node node = nodes.apply(nodeName);
        List<Workload> affected = workloadsOn(nodeName);
        if (affected.isEmpty()) {
            return;
        }
        NodeCondition ready = node == null ? null : Nodes.readyCondition(node);
        for (Workload wl : affected) {
            boolean unhealthy;
            if (node == null || ready == null) {
                unhealthy = true; // gone, or no Ready condition: failed at once
            } else if (!"True".equals(ready.getStatus())
                    || NodeTaints.notToleratedForGood(node, wl, f -> ClusterCache.get(cache.flavors, null, f))) {
                unhealthy = !hasRunningPods(wl, nodeName); // NotReady, or tainted: failed once its pods end
            } else {
                unhealthy = false;
            }
            boolean failing = node == null || ready == null || !"True".equals(ready.getStatus())
                    || NodeTaints.notToleratedForGood(node, wl, f -> ClusterCache.get(cache.flavors, null, f));
            Set<String> recorded = UngateInputs.unhealthyNodes(wl);
            boolean evicts = unhealthy && !recorded.isEmpty() && !recorded.contains(nodeName);
            try {
                if (unhealthy) {
                    unhealthy(wl, nodeName);
                } else {
                    healthy(wl, nodeName);
                }
                if (failing && !evicts && waiting != null && !waiting.markFailed(waiting.waitingFor(wl, nodeName))) {
                    enqueue(nodeName, RETRY_MILLIS);
                }
            } catch (KubernetesClientException e) {
                failures.failed(wl, "workloads", "patch", (unhealthy ? "record node " + nodeName + " as unhealthy on "
                        : "take node " + nodeName + " off the unhealthy nodes of ") + "Workload "
                        + wl.getMetadata().getNamespace() + "/" + wl.getMetadata().getName(), e);
                enqueue(nodeName, RETRY_MILLIS);
            }
        }
    }

    /** Kueue's AdmittedWorkloadNodesKey index: unfinished, not evicted, the node in a topology assignment. */
    List<Workload> workloadsOn(String nodeName) {
        List<Workload> out = new ArrayList<>();
        for (Workload wl : cache.workloadStore.unfinished()) {
            if (WorkloadConditions.isTrue(wl, WorkloadConditions.FINISHED)
                    || WorkloadConditions.isTrue(wl, WorkloadConditions.EVICTED) || !UngateInputs.admittedByTas(wl)) {
                continue;
            }
            if (assignedNodes(wl).contains(nodeName)) {
                out.add(wl);
            }
        }
        return out;
    }

    /** Kueue's TASAssignedNodeNames: the hostname-level values of the Workload's topology assignments. */
    static Set<String> assignedNodes(Workload wl) {
        Set<String> out = new LinkedHashSet<>();
        if (wl.getStatus() == null || wl.getStatus().getAdmission() == null
                || wl.getStatus().getAdmission().getPodSetAssignments() == null) {
            return out;
        }
        for (PodSetAssignment psa : wl.getStatus().getAdmission().getPodSetAssignments()) {
            TopologyAssignment ta;
            try {
                ta = Topologies.fromApi(psa.getTopologyAssignment(), "Workload " + wl.getMetadata().getName(),
                        "status.admission.podSetAssignments.topologyAssignment");
            } catch (InvalidObjectException e) {
                continue;
            }
            if (ta == null || ta.levels().isEmpty()
                    || !Topology.HOSTNAME.equals(ta.levels().get(ta.levels().size() - 1))) {
                continue;
            }
            for (TopologyDomainAssignment d : ta.domains()) {
                out.add(d.values().get(d.values().size() - 1));
            }
        }
        return out;
    }

    /** Kueue's hasProgressingPods: a pod of the Workload bound to the node, neither ended nor being deleted. */
    private boolean hasRunningPods(Workload wl, String nodeName) {
        String key = wl.getMetadata().getNamespace() + "/" + wl.getMetadata().getName();
        for (Pod p : pods.onNode(nodeName)) {
            if (key.equals(TasPods.workloadOf(p)) && !TasPods.terminated(p)
                    && p.getMetadata().getDeletionTimestamp() == null) {
                return true;
            }
        }
        return false;
    }

    /** Kueue's handleUnhealthyNode: a second failed node evicts, the first is recorded. */
    private void unhealthy(Workload wl, String nodeName) {
        Set<String> recorded = UngateInputs.unhealthyNodes(wl);
        if (recorded.contains(nodeName)) {
            return;
        }
        if (!recorded.isEmpty()) {
            List<String> all = new ArrayList<>(recorded);
            all.add(nodeName);
            String message = String.format(MULTIPLE_FAILURES, String.join(", ", all));
            Writes.Written w = writes.workloadStatus(wl, x -> {
                if (WorkloadConditions.isTrue(x, WorkloadConditions.EVICTED)) {
                    return x;
                }
                x.getStatus().setUnhealthyNodes(null); // Kueue's resetUnhealthyNodes
                return WorkloadConditions.evict(x, NODE_FAILURES, null, message, clock.instant());
            });
            if (w.changed()) {
                evicted(w.workload(), message);
            }
            return;
        }
        writes.workloadStatus(wl, x -> {
            List<UnhealthyNode> list = x.getStatus().getUnhealthyNodes() == null ? new ArrayList<>()
                    : new ArrayList<>(x.getStatus().getUnhealthyNodes());
            if (list.stream().noneMatch(n -> Objects.equals(n.getName(), nodeName))) {
                list.add(new UnhealthyNode(nodeName));
            }
            x.getStatus().setUnhealthyNodes(list);
            return x;
        });
        LOG.infof("node %s of Workload %s/%s failed: recorded in status.unhealthyNodes for a replacement", nodeName,
                wl.getMetadata().getNamespace(), wl.getMetadata().getName());
        replace(wl.getMetadata().getNamespace(), wl.getMetadata().getName(), nodeName);
    }

    /**
     * Kueue's second scheduling pass for the failed node: the engine looks for a replacement on its thread; found, the
     * new topology assignment is written and {@code status.unhealthyNodes} cleared (Kueue's admit after recovery);
     * not found, the Workload is evicted (TASFailedNodeReplacementFailFast, on by default in v0.19.2).
     */
    private void replace(String namespace, String name, String nodeName) {
        if (engine == null) {
            return;
        }
        onEngine.accept(() -> {
            var results = engine.replaceNode(new dev.sluice.engine.WorkloadKey(namespace, name), nodeName);
            if (!results.isEmpty()) {
                worker.execute(() -> writeReplacement(namespace, name, nodeName, results));
            }
        });
    }

    private void writeReplacement(String namespace, String name, String nodeName,
            java.util.Map<String, dev.sluice.engine.tas.NodeReplacement.Result> results) {
        Workload wl = ClusterCache.get(cache.workloads, namespace, name);
        if (wl == null) {
            return;
        }
        boolean found = results.values().stream().allMatch(dev.sluice.engine.tas.NodeReplacement.Result::found);
        try {
            if (found) {
                writes.workloadStatus(wl, x -> {
                    for (PodSetAssignment psa : x.getStatus().getAdmission().getPodSetAssignments()) {
                        var r = results.get(psa.getName());
                        if (r != null) {
                            psa.setTopologyAssignment(Topologies.toApi(r.assignment()));
                        }
                    }
                    x.getStatus().setUnhealthyNodes(null);
                    return x;
                });
                LOG.infof("node %s of Workload %s/%s replaced", nodeName, namespace, name);
                return;
            }
            Set<String> failed = new java.util.TreeSet<>(UngateInputs.unhealthyNodes(wl));
            failed.add(nodeName);
            String message = "Workload was evicted as there was no replacement for unhealthy node(s): "
                    + String.join(",", failed);
            Writes.Written w = writes.workloadStatus(wl, x -> {
                if (WorkloadConditions.isTrue(x, WorkloadConditions.EVICTED)) {
                    return x;
                }
                x.getStatus().setUnhealthyNodes(null);
                return WorkloadConditions.evict(x, NODE_FAILURES, null, message, clock.instant());
            });
            if (w.changed()) {
                evicted(w.workload(), message);
            }
        } catch (KubernetesClientException e) {
            failures.failed(wl, "workloads", "patch", (found ? "write the replacement of node " : "evict for node ")
                    + nodeName + " Workload " + namespace + "/" + name, e);
        }
    }

    /** Kueue's reportEvictedWorkload: the event and the eviction counter. */
    private void evicted(Workload wl, String message) {
        events.normal(wl, "EvictedDueTo" + NODE_FAILURES, message);
        var admission = wl.getStatus() == null ? null : wl.getStatus().getAdmission();
        if (admission != null && admission.getClusterQueue() != null) {
            metrics.evicted(admission.getClusterQueue(), NODE_FAILURES, "");
        }
    }

    /** Kueue's handleHealthyNode: off the list. */
    private void healthy(Workload wl, String nodeName) {
        if (!UngateInputs.unhealthyNodes(wl).contains(nodeName)) {
            return;
        }
        writes.workloadStatus(wl, x -> {
            List<UnhealthyNode> list = new ArrayList<>(x.getStatus().getUnhealthyNodes());
            list.removeIf(n -> Objects.equals(n.getName(), nodeName));
            x.getStatus().setUnhealthyNodes(list.isEmpty() ? null : list);
            return x;
        });
    }

    /** Node conditions as Kueue reads them. */
    static final class Nodes {
        private Nodes() {
        }

        static NodeCondition readyCondition(Node node) {
            if (node.getStatus() == null || node.getStatus().getConditions() == null) {
                return null;
            }
            return node.getStatus().getConditions().stream().filter(c -> "Ready".equals(c.getType())).findFirst()
                    .orElse(null);
        }

        /** Kueue's IsNodeStatusConditionTrue(Ready). */
        static boolean readyStatus(Node node) {
            NodeCondition c = readyCondition(node);
            return c != null && "True".equals(c.getStatus());
        }
    }
}
