package dev.sluice.controller.tas;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.api.v1beta2.Workload;
import dev.sluice.bridge.InvalidObjectException;
import dev.sluice.controller.cache.ClusterCache;
import dev.sluice.controller.write.WriteFailures;
import dev.sluice.controller.write.Writes;
import dev.sluice.jobs.WellKnown;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSchedulingGate;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.jboss.logging.Logger;

/**
 * Kueue v0.19's topology ungater (pkg/controller/tas/topology_ungater.go): for each Workload admitted with a topology
 * assignment, takes the {@code kueue.x-k8s.io/topology} gate off its gated pods while adding the node selector of the
 * domain {@link UngatePlan} gives each. Level-triggered: any change of the Workload or of one of its pods plans the
 * Workload again from the caches; a plan that finds nothing to do writes nothing.
 * <p>
 * Each pod is written by one JSON patch ({@link #patch}): {@code spec.schedulingGates} without the gate, {@code
 * spec.nodeSelector} plus the domain's labels (the API server lets a gated pod's node selector be added to), and the
 * resourceVersion the plan saw as the precondition. A pod that changed meanwhile is answered 409 and planned again once the cache has
 * its new version (a pod already ungated then needs nothing); a pod gone is nothing to do; any other refusal is
 * reported with the server's message ({@link WriteFailures}) and tried again after a while.
 */
final class TopologyUngater {
    private static final Logger LOG = Logger.getLogger(TopologyUngater.class);
    /** Pod events of one Workload come in bursts (a Job creates its pods together): planned once per burst. */
    static final long BATCH_MILLIS = 100;
    static final long RETRY_MILLIS = 2_000;

    private final KubernetesClient client;
    private final ClusterCache cache;
    private final TasPods pods;
    private final WriteFailures failures;
    private final ScheduledExecutorService worker;
    private final UngateExpectations expectations = new UngateExpectations();
    private final Set<String> queued = ConcurrentHashMap.newKeySet();
    private final Function<String, dev.sluice.engine.WorkloadSpec> engineForm;

    TopologyUngater(KubernetesClient client, ClusterCache cache, TasPods pods, WriteFailures failures,
            ScheduledExecutorService worker) {
        this.client = client;
        this.cache = cache;
        this.pods = pods;
        this.failures = failures;
        this.worker = worker;
        this.engineForm = key -> {
            int slash = key.indexOf('/');
            var d = cache.workloadStore.derived(key.substring(0, slash), key.substring(slash + 1));
            return d == null ? null : d.spec();
        };
    }

    /** A pod of a started job changed (informer thread). */
    void podChanged(Pod pod, boolean deleted) {
        String key = TasPods.workloadOf(pod);
        if (key == null) {
            return;
        }
        // a pod may be deleted before it was seen ungated: it is observed either way
        if (deleted || !TasPods.gated(pod)) {
            expectations.observed(key, pod.getMetadata().getUid());
        }
        enqueue(key, BATCH_MILLIS);
    }

    /** A Workload changed (informer thread). */
    void workloadChanged(Workload wl) {
        if (UngateInputs.admittedByTas(wl)) {
            enqueue(wl.getMetadata().getNamespace() + "/" + wl.getMetadata().getName(), BATCH_MILLIS);
        }
    }

    void enqueue(String key, long delayMillis) {
        if (queued.add(key)) {
            worker.schedule(() -> {
                queued.remove(key);
                try {
                    reconcile(key);
                } catch (RuntimeException e) {
                    LOG.warnf(e, "ungating the pods of Workload %s failed; trying again", key);
                    enqueue(key, RETRY_MILLIS);
                }
            }, delayMillis, TimeUnit.MILLISECONDS);
        }
    }

    void reconcile(String key) {
        int slash = key.indexOf('/');
        String namespace = key.substring(0, slash);
        String name = key.substring(slash + 1);
        if (!pods.synced()) {
            enqueue(key, RETRY_MILLIS); // a partial list of the pods would miss those already ungated
            return;
        }
        Workload wl = ClusterCache.get(cache.workloads, namespace, name);
        if (wl == null) {
            expectations.forget(key);
            return;
        }
        if (!expectations.satisfied(key)) {
            enqueue(key, BATCH_MILLIS); // Kueue's errPendingUngateOps: again once the cache shows the patches
            return;
        }
        // a safeguard against the Workload being evicted before this ran (Kueue's IsAdmittedByTAS)
        if (!UngateInputs.admittedByTas(wl)) {
            return;
        }
        List<UngatePlan.Ungate> plan;
        try {
            plan = UngatePlan.plan(name, UngateInputs.podSets(wl, engineForm.apply(key)), UngateInputs.unhealthyNodes(wl),
                    TasPods.views(pods.ofWorkload(key)));
        } catch (UngatePlan.BadOffsetException | InvalidObjectException e) {
            LOG.warnf("not ungating the pods of Workload %s: %s", key, e.getMessage());
            return; // a pod event or a Workload change plans it again
        }
        for (UngatePlan.Ungate u : plan) {
            Pod cached = cachedPod(namespace, u.pod().name());
            if (cached == null) {
                continue;
            }
            expectations.expect(key, cached.getMetadata().getUid());
            if (!ungate(cached, u.nodeSelector())) {
                expectations.observed(key, cached.getMetadata().getUid()); // no event will show it
            }
        }
    }

    private Pod cachedPod(String namespace, String name) {
        return pods.informer.getStore().getByKey(namespace + "/" + name);
    }

    /** The pod's patch; false when nothing was written (already ungated, gone, refused). */
    boolean ungate(Pod pod, Map<String, String> nodeSelector) {
        String ref = "Pod " + pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName();
        ArrayNode patch = patch(pod, nodeSelector);
        try {
            client.pods().inNamespace(pod.getMetadata().getNamespace())
                    .resource(Writes.named(new Pod(), pod.getMetadata().getNamespace(), pod.getMetadata().getName()))
                    .patch(PatchContext.of(PatchType.JSON), patch.toString());
            LOG.debugf("ungated %s onto %s", ref, nodeSelector);
            return true;
        } catch (KubernetesClientException e) {
            String key = pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getAnnotations().get(WellKnown.WORKLOAD);
            if (Writes.isNotFound(e)) {
                return false;
            }
            if (Writes.isConflict(e)) {
                enqueue(key, BATCH_MILLIS); // changed meanwhile: planned again on its new version
                return false;
            }
            failures.failed(pod, "pods", "patch", "ungate " + ref + " onto " + nodeSelector, e);
            enqueue(key, RETRY_MILLIS);
            return false;
        }
    }

    /**
     * The JSON patch of one ungating, each step one that always applies to the pod (so the server answers a stale plan
     * with 409 from the precondition, never 422 from a step that does not apply): the resourceVersion planned on as
     * the precondition (as {@link Writes} guards every write), the gates without the topology gate, and the node
     * selector with the domain's labels added to the ones the pod had.
     */
    static ArrayNode patch(Pod pod, Map<String, String> nodeSelector) {
        ArrayNode patch = JsonNodeFactory.instance.arrayNode();
        patch.addObject().put("op", "replace").put("path", "/metadata/resourceVersion")
                .put("value", pod.getMetadata().getResourceVersion());
        var gates = patch.addObject().put("op", "add").put("path", "/spec/schedulingGates").putArray("value");
        if (pod.getSpec().getSchedulingGates() != null) {
            pod.getSpec().getSchedulingGates().stream().filter(g -> !WellKnown.TOPOLOGY_GATE.equals(g.getName()))
                    .forEach(g -> gates.addObject().put("name", g.getName()));
        }
        Map<String, String> selector = new TreeMap<>();
        if (pod.getSpec().getNodeSelector() != null) {
            selector.putAll(pod.getSpec().getNodeSelector());
        }
        selector.putAll(nodeSelector);
        ObjectNode value = patch.addObject().put("op", "add").put("path", "/spec/nodeSelector").putObject("value");
        selector.forEach(value::put);
        return patch;
    }
}
