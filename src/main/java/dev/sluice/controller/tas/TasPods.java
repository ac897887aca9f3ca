package dev.sluice.controller.tas;

import dev.sluice.jobs.WellKnown;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSchedulingGate;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * The pods of started jobs (those with the {@code kueue.x-k8s.io/podset} label every started pod template gets), as
 * the ungater and the node failure reporting read them: lean ({@link TasPodStore}), indexed by Workload (namespace
 * and {@code kueue.x-k8s.io/workload}, TAS pods only) and by the node a pod is bound to.
 */
final class TasPods implements AutoCloseable {
    private static final org.jboss.logging.Logger LOG = org.jboss.logging.Logger.getLogger(TasPods.class);
    static final String BY_WORKLOAD = "tasByWorkload";
    static final String BY_NODE = "tasByNode";

    final SharedIndexInformer<Pod> informer;

    /** {@code changed} gets each added, updated or deleted pod (deleted: true) on the informer's thread. */
    TasPods(KubernetesClient client, long listPageSize, BiConsumer<Pod, Boolean> changed) {
        informer = client.pods().inAnyNamespace().withLabel(WellKnown.POD_SET).withLimit(listPageSize)
                .runnableInformer(0);
        informer.itemStore(new TasPodStore());
        informer.addIndexers(Map.of(BY_WORKLOAD, TasPods::workloadKeys, BY_NODE, TasPods::nodeKeys));
        // a failed list or watch is tried again (the informer's back-off), not given up: pods come and go for good
        informer.exceptionHandler((started, t) -> {
            LOG.infof("listing or watching the pods of started jobs failed (%s); trying again", t.toString());
            return true;
        });
        informer.addEventHandler(new ResourceEventHandler<>() {
            @Override
            public void onAdd(Pod pod) {
                changed.accept(pod, false);
            }

            @Override
            public void onUpdate(Pod old, Pod pod) {
                changed.accept(pod, false);
            }

            @Override
            public void onDelete(Pod pod, boolean unknown) {
                changed.accept(pod, true);
            }
        });
    }

    void start() {
        informer.start();
    }

    boolean synced() {
        return informer.hasSynced();
    }

    /** The Workload of a TAS pod, "namespace/name"; null for another pod. */
    static String workloadOf(Pod pod) {
        Map<String, String> a = pod.getMetadata().getAnnotations();
        if (a == null || !a.containsKey(WellKnown.WORKLOAD) || !TasStart.isTas(a)) {
            return null;
        }
        return pod.getMetadata().getNamespace() + "/" + a.get(WellKnown.WORKLOAD);
    }

    private static List<String> workloadKeys(Pod pod) {
        String key = workloadOf(pod);
        return key == null ? List.of() : List.of(key);
    }

    private static List<String> nodeKeys(Pod pod) {
        String node = pod.getSpec() == null ? null : pod.getSpec().getNodeName();
        return node == null || node.isEmpty() ? List.of() : List.of(node);
    }

    List<Pod> ofWorkload(String key) {
        return informer.getIndexer().byIndex(BY_WORKLOAD, key);
    }

    /** The TAS pods bound to the node. */
    List<Pod> onNode(String node) {
        return informer.getIndexer().byIndex(BY_NODE, node);
    }

    static boolean gated(Pod pod) {
        return pod.getSpec() != null && pod.getSpec().getSchedulingGates() != null && pod.getSpec().getSchedulingGates()
                .stream().map(PodSchedulingGate::getName).anyMatch(WellKnown.TOPOLOGY_GATE::equals);
    }

    static boolean terminated(Pod pod) {
        String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
        return "Succeeded".equals(phase) || "Failed".equals(phase);
    }

    /** The planner's view of a cached pod. */
    static TasPod view(Pod pod) {
        var m = pod.getMetadata();
        return new TasPod(m.getName(), m.getUid(), m.getLabels(), m.getAnnotations(),
                pod.getSpec() == null ? null : pod.getSpec().getNodeSelector(), gated(pod), terminated(pod),
                m.getCreationTimestamp());
    }

    static List<TasPod> views(List<Pod> pods) {
        List<TasPod> out = new ArrayList<>();
        pods.forEach(p -> out.add(view(p)));
        return out;
    }

    @Override
    public void close() {
        informer.stop();
    }
}
