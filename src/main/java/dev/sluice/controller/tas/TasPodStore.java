package dev.sluice.controller.tas;

import dev.sluice.api.v1beta2.TopologyAnnotations;
import dev.sluice.jobs.WellKnown;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.client.informers.cache.BasicItemStore;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The ungater's and the node failure reporting's pod cache keeps of each pod only what they read (pods can be many):
 * its key, uid, resourceVersion (the patches' precondition), creation and deletion time, labels, the annotations
 * that mark TAS pods and name their Workload, node selector, scheduling gates, node name and phase.
 */
final class TasPodStore extends BasicItemStore<Pod> {

    private static final Set<String> KEPT_ANNOTATIONS = Set.of(WellKnown.WORKLOAD, WellKnown.POD_INDEX_OFFSET,
            TopologyAnnotations.REQUIRED, TopologyAnnotations.PREFERRED, TopologyAnnotations.UNCONSTRAINED,
            TopologyAnnotations.SLICE_REQUIRED, TopologyAnnotations.SLICE_REQUIRED_CONSTRAINTS);

    TasPodStore() {
        super(Cache::metaNamespaceKeyFunc);
    }

    @Override
    public Pod put(String key, Pod pod) {
        return super.put(key, lean(pod));
    }

    static Pod lean(Pod pod) {
        ObjectMeta m = pod.getMetadata();
        ObjectMeta meta = new ObjectMeta();
        meta.setName(m.getName());
        meta.setNamespace(m.getNamespace());
        meta.setUid(m.getUid());
        meta.setResourceVersion(m.getResourceVersion());
        meta.setCreationTimestamp(m.getCreationTimestamp());
        meta.setDeletionTimestamp(m.getDeletionTimestamp());
        meta.setLabels(m.getLabels());
        if (m.getAnnotations() != null) {
            Map<String, String> kept = new TreeMap<>();
            m.getAnnotations().forEach((k, v) -> {
                if (KEPT_ANNOTATIONS.contains(k)) {
                    kept.put(k, v);
                }
            });
            meta.setAnnotations(kept);
        }
        PodSpec spec = new PodSpec();
        if (pod.getSpec() != null) {
            spec.setNodeSelector(pod.getSpec().getNodeSelector());
            spec.setSchedulingGates(pod.getSpec().getSchedulingGates());
            spec.setNodeName(pod.getSpec().getNodeName());
        }
        PodStatus status = new PodStatus();
        if (pod.getStatus() != null) {
            status.setPhase(pod.getStatus().getPhase());
            if ("Pending".equals(pod.getStatus().getPhase())) {
                // kept for a pod that may wait for a failed node: marking it Failed appends to them (WaitingPods)
                status.setConditions(pod.getStatus().getConditions());
            }
        }
        Pod out = new Pod();
        out.setMetadata(meta);
        out.setSpec(spec);
        out.setStatus(status);
        return out;
    }
}
