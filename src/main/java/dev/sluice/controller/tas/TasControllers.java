package dev.sluice.controller.tas;

import dev.sluice.api.v1beta2.Workload;
import dev.sluice.controller.cache.ClusterCache;
import dev.sluice.controller.write.EventRecorder;
import dev.sluice.controller.write.WriteFailures;
import dev.sluice.controller.write.Writes;
import dev.sluice.metrics.AdmissionEvents;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Clock;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

/**
 * One term's topology ungater and node failure reporting: the pod and node informers they read, and their one
 * worker thread (both are level-triggered: a change of a pod, node or Workload plans it again from the caches). Built
 * with the session, started once its caches are synced, closed with it.
 */
public final class TasControllers implements AutoCloseable {

    private final TasPods pods;
    private final SharedIndexInformer<Node> nodes;
    private final ScheduledExecutorService worker;
    final TopologyUngater ungater;
    final NodeFailures nodeFailures;
    private final ClusterCache cache;

    /**
     * @param informers the client the session's informers list and watch on
     * @param client the client writes go through
     */
    public TasControllers(KubernetesClient informers, KubernetesClient client, ClusterCache cache, Writes writes,
            WriteFailures failures, EventRecorder events, AdmissionEvents metrics, Clock clock, long listPageSize,
            dev.sluice.engine.Engine engine, java.util.function.Consumer<Runnable> onEngine) {
        this.cache = cache;
        this.worker = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "sluice-tas");
            t.setDaemon(true);
            return t;
        });
        this.nodes = informers.nodes().withLimit(listPageSize).runnableInformer(0);
        this.nodes.exceptionHandler((started, t) -> true);
        Holder h = new Holder();
        this.pods = new TasPods(informers, listPageSize, (pod, deleted) -> {
            if (h.ungater != null) {
                h.ungater.podChanged(pod, deleted);
                h.nodeFailures.podChanged(pod, deleted);
            }
        });
        this.ungater = new TopologyUngater(client, cache, pods, failures, worker);
        this.nodeFailures = new NodeFailures(name -> nodes.getStore().getByKey(name), cache, pods, writes, failures,
                events, metrics, clock, worker, engine, onEngine, () -> pods.synced() && nodes.hasSynced(),
                new WaitingPods(client, pods, failures, events, clock));
        h.ungater = ungater;
        h.nodeFailures = nodeFailures;
    }

    private static final class Holder {
        volatile TopologyUngater ungater;
        volatile NodeFailures nodeFailures;
    }

    /** Once the session's caches are synced: the Workloads' events reach the ungater from then on. */
    public void start() {
        nodes.addEventHandler(new ResourceEventHandler<>() {
            @Override
            public void onAdd(Node node) {
                nodeFailures.nodeChanged(null, node);
            }

            @Override
            public void onUpdate(Node old, Node node) {
                nodeFailures.nodeChanged(old, node);
            }

            @Override
            public void onDelete(Node node, boolean unknown) {
                nodeFailures.nodeChanged(node, null);
            }
        });
        cache.workloads.addEventHandler(new ResourceEventHandler<Workload>() {
            @Override
            public void onAdd(Workload wl) {
                ungater.workloadChanged(wl);
            }

            @Override
            public void onUpdate(Workload old, Workload wl) {
                ungater.workloadChanged(wl);
                if (!UngateInputs.unhealthyNodes(wl).isEmpty() || !UngateInputs.unhealthyNodes(old).isEmpty()) {
                    return;
                }
                // a Workload newly admitted onto a node that already failed is looked at too
                if (UngateInputs.admittedByTas(wl) && !UngateInputs.admittedByTas(old)) {
                    NodeFailures.assignedNodes(wl).forEach(n -> nodeFailures.enqueue(n, NodeFailures.BATCH_MILLIS));
                }
            }

            @Override
            public void onDelete(Workload wl, boolean unknown) {
            }
        });
        nodes.start();
        pods.start();
    }

    public boolean synced() {
        return pods.synced() && nodes.hasSynced();
    }

    @Override
    public void close() {
        worker.shutdownNow();
        pods.close();
        nodes.stop();
    }
}
