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
 * (TASFailedNodeReplacement, TASReplaceNodeOnPodTermination and TASFailedNodeReplacementFailFast on;
 * TASReplaceNodeDueToNotReadyOverFixedTime off): a node of an admitted Workload's topology assignment (its hostname
 * level) is unhealthy for that Workload when it is gone, has no Ready condition, or is NotReady with none of the
 * Workload's pods still running on it (their termination is the grace: no fixed delay). An unhealthy node is added
 * to the Workload's {@code status.unhealthyNodes}, where the scheduler looks for a replacement domain; a second
 * unhealthy node evicts the Workload (reason {@code NodeFailures}, Kueue's message and event). A node that is Ready
 * again, or NotReady with the Workload's pods still running, is taken off the list.
 * <p>
 * Not done as Kueue does: the untolerated-taint path (TASReplaceNodeOnNodeTaints) and the termination of pods that
 * wait for a node that failed (Kueue marks them Failed via pods/status).
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

    NodeFailures(Function<String, Node> nodes, ClusterCache cache, TasPods pods, Writes writes, WriteFailures failures,
            EventRecorder events, AdmissionEvents metrics, Clock clock, ScheduledExecutorService worker) {
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

    /** Kueue's predicates: a node added or deleted, or its Ready status changed (informer thread). */
    void nodeChanged(Node old, Node node) {
        if (old == null || node == null || Nodes.readyStatus(old) != Nodes.readyStatus(node)) {
            enqueue((node != null ? node : old).getMetadata().getName(), BATCH_MILLIS);
        }
    }

    /** A pod that ended or is being deleted on its node: the node's Workloads may have no pod left there. */
    void podChanged(Pod pod, boolean deleted) {
        String node = pod.getSpec() == null ? null : pod.getSpec().getNodeName();
        if (node != null && !node.isEmpty() && TasPods.workloadOf(pod) != null
                && (deleted || TasPods.terminated(pod) || pod.getMetadata().getDeletionTimestamp() != null)) {
            enqueue(node, BATCH_MILLIS);
        }
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
            } else if (!"True".equals(ready.getStatus())) {
                unhealthy = !hasRunningPods(wl, nodeName);
            } else {
                unhealthy = false;
            }
            try {
                if (unhealthy) {
                    unhealthy(wl, nodeName);
                } else {
                    healthy(wl, nodeName);
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
