package dev.sluice.controller.tas;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.api.v1beta2.Workload;
import dev.sluice.controller.write.EventRecorder;
import dev.sluice.controller.write.WriteFailures;
import dev.sluice.engine.tas.Topology;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jboss.logging.Logger;

/**
 * Kueue v0.19.2's getPodsToTerminate and markPodsFailed (pkg/controller/tas/node_controller.go): the pods of a
 * Workload that its topology sent to a failing node (their node selector names it) but that were never bound to it,
 * Pending and no longer gated, would wait there for ever; they are marked Failed with condition
 * {@code TerminatedByKueue} (reason {@code UnschedulableOnAssignedNode}) and event {@code PodTerminatedByKueue}, so
 * their job makes a replacement that the ungater sends to the replacement node.
 */
final class WaitingPods {
    private static final Logger LOG = Logger.getLogger(WaitingPods.class);
    static final String CONDITION = "TerminatedByKueue";
    static final String REASON = "UnschedulableOnAssignedNode";
    static final String MESSAGE = "Pod terminated by Kueue NodeController due to node taint";
    static final String EVENT = "PodTerminatedByKueue";

    private final KubernetesClient client;
    private final TasPods pods;
    private final WriteFailures failures;
    private final EventRecorder events;
    private final Clock clock;

    WaitingPods(KubernetesClient client, TasPods pods, WriteFailures failures, EventRecorder events, Clock clock) {
        this.client = client;
        this.pods = pods;
        this.failures = failures;
        this.events = events;
        this.clock = clock;
    }

    /** The Workload's pods sent to the node by their selector, not bound, Pending and without the topology gate. */
    List<Pod> waitingFor(Workload wl, String nodeName) {
        List<Pod> out = new ArrayList<>();
        for (Pod p : pods.ofWorkload(wl.getMetadata().getNamespace() + "/" + wl.getMetadata().getName())) {
            Map<String, String> selector = p.getSpec() == null ? null : p.getSpec().getNodeSelector();
            String bound = p.getSpec() == null ? null : p.getSpec().getNodeName();
            String phase = p.getStatus() == null ? null : p.getStatus().getPhase();
            if (selector != null && nodeName.equals(selector.get(Topology.HOSTNAME)) && (bound == null || bound.isEmpty())
                    && "Pending".equals(phase) && !TasPods.gated(p) && p.getMetadata().getDeletionTimestamp() == null) {
                out.add(p);
            }
        }
        return out;
    }

    /**
     * Marks each pod Failed by a JSON patch of its status guarded by the resourceVersion it was seen at.
     *
     * @return false when a pod changed meanwhile (409): the caller looks again
     */
    boolean markFailed(List<Pod> waiting) {
        boolean done = true;
        for (Pod p : waiting) {
            // a JSON patch (the mock serves no strategic merge; a merge patch would replace the conditions): the
            // resourceVersion it was seen at makes it conditional (409 when the pod changed), the condition appended
            ArrayNode patch = JsonNodeFactory.instance.arrayNode();
            patch.addObject().put("op", "replace").put("path", "/metadata/resourceVersion")
                    .put("value", p.getMetadata().getResourceVersion());
            patch.addObject().put("op", "add").put("path", "/status/phase").put("value", "Failed");
            ObjectNode condition = JsonNodeFactory.instance.objectNode();
            condition.put("type", CONDITION).put("status", "True").put("reason", REASON).put("message", MESSAGE)
                    .put("lastTransitionTime", clock.instant().truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString());
            boolean hasConditions = p.getStatus() != null && p.getStatus().getConditions() != null
                    && !p.getStatus().getConditions().isEmpty();
            if (hasConditions) {
                patch.addObject().put("op", "add").put("path", "/status/conditions/-").set("value", condition);
            } else {
                patch.addObject().put("op", "add").put("path", "/status/conditions").putArray("value").add(condition);
            }
            try {
                // on a stub, not withName(): fabric8 would read the pod first (a get Sluice is not granted)
                client.pods().inNamespace(p.getMetadata().getNamespace()).resource(dev.sluice.controller.write.Writes
                        .named(new Pod(), p.getMetadata().getNamespace(), p.getMetadata().getName()))
                        .subresource("status").patch(PatchContext.of(PatchType.JSON), patch.toString());
                events.normal(p, EVENT, MESSAGE);
                LOG.infof("pod %s/%s waited for a failed node: marked Failed", p.getMetadata().getNamespace(),
                        p.getMetadata().getName());
            } catch (KubernetesClientException e) {
                if (e.getCode() == 404) {
                    continue; // gone: nothing to do
                }
                if (e.getCode() == 409) {
                    done = false;
                    continue;
                }
                failures.failed(p, "pods/status", "patch", "mark pod " + p.getMetadata().getNamespace() + "/"
                        + p.getMetadata().getName() + " Failed (it waits for a failed node)", e);
                done = false;
            }
        }
        return done;
    }
}
