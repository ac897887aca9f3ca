package dev.sluice.controller.cache;

import dev.sluice.api.v1beta2.Topology;
import dev.sluice.bridge.Nodes;
import dev.sluice.engine.tas.TasNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.cache.BasicItemStore;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import org.jboss.logging.Logger;

/**
 * What topology-aware scheduling reads of the cluster (Kueue's tas node, non-TAS usage and topology controllers): the
 * Topology objects, the Nodes as TAS sees them, and what pods not placed by TAS take of each node. Started only while
 * some ResourceFlavor names a topology ({@code TopologySync}), so a cluster without TAS pays for no pod informer.
 *
 * <p>Only what is read is kept: per Node its {@link TasNode}; per counted pod its node and usage
 * ({@link NonTasUsage}); the informers' stores keep a skeleton of each object (name, namespace, resourceVersion, so
 * that fabric8's relist still tells changed objects from unchanged ones). A full object lives only while its event is
 * handled.
 *
 * <p>Changes are coalesced: the first change after the engine last read the view hands the loop one
 * {@link Ref#NODES}; later ones only mark the view changed until it is read again. A Node update that changes
 * nothing TAS reads (the kubelet's heartbeat: conditions' times, images, status of other conditions) changes nothing.
 */
public final class NodeView implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(NodeView.class);
    public static final Ref NODES = new Ref(Ref.NODES, null, "nodes");

    private final KubernetesClient client;
    private final Consumer<Ref> sink;
    private final long listPageSize;
    private final Map<String, TasNode> nodes = new ConcurrentHashMap<>();
    private final NonTasUsage usage = new NonTasUsage();
    /** Guards the view's content with {@link #changed}, so a reader sees both of one moment. */
    private final Object lock = new Object();
    /** Something changed since the engine last took the view. */
    private boolean changed;
    /** Node and pod events that changed the view, since the start (tests: a heartbeat adds none). */
    private long changes;
    private final LongAdder puts = new LongAdder();
    private final AtomicLong failures = new AtomicLong();

    private volatile SharedIndexInformer<Topology> topologies;
    private SharedIndexInformer<Node> nodeInformer;
    private SharedIndexInformer<Pod> podInformer;
    private final Map<SharedIndexInformer<?>, InformerRetry> retries = new LinkedHashMap<>();
    /** Set while running: done once every first list is. */
    private volatile CompletableFuture<Void> listed;

    NodeView(KubernetesClient client, Consumer<Ref> sink, long listPageSize) {
        this.client = client;
        this.sink = sink;
        this.listPageSize = listPageSize;
    }

    /** Starts the informers (when not running); the first lists complete later ({@link #synced}). */
    public synchronized void start() {
        if (listed != null) {
            return;
        }
        Long limit = listPageSize;
        topologies = client.resources(Topology.class).withLimit(limit).runnableInformer(0);
        nodeInformer = client.nodes().withLimit(limit).runnableInformer(0);
        podInformer = client.pods().inAnyNamespace().withLimit(limit).runnableInformer(0);
        watch(topologies, "Topologies (kueue.x-k8s.io/v1beta2)", new Skeletons<>(t -> t, (k, t) -> { }, k -> { }), new ResourceEventHandler<>() {
            @Override
            public void onAdd(Topology t) {
                sink.accept(new Ref(Ref.TOPOLOGY, null, t.getMetadata().getName()));
            }

            @Override
            public void onUpdate(Topology before, Topology t) {
                onAdd(t);
            }

            @Override
            public void onDelete(Topology t, boolean unknown) {
                onAdd(t);
            }
        });
        // what TAS reads is taken from each object as its store gets it (the informer hands its handlers the
        // stored form, which here is a skeleton)
        watch(nodeInformer, "Nodes (v1)", new Skeletons<>(NodeView::skeleton, (key, n) -> {
            TasNode now = Nodes.toEngine(n);
            change(() -> !now.equals(nodes.put(key, now)));
        }, key -> change(() -> nodes.remove(key) != null)), null);
        watch(podInformer, "Pods (v1)", new Skeletons<>(NodeView::skeleton,
                (key, p) -> change(() -> usage.update(key, p)),
                key -> change(() -> usage.remove(key))), null);
        listed = CompletableFuture.allOf(topologies.start().toCompletableFuture(),
                nodeInformer.start().toCompletableFuture(), podInformer.start().toCompletableFuture());
        // the loop pushes the view (and the topologies held until now) once everything is listed
        listed.thenRun(() -> {
            synchronized (lock) {
                changed = true;
            }
            sink.accept(NODES);
        });
        LOG.info("topology-aware scheduling: watching Topologies, Nodes and Pods (a ResourceFlavor names a topology)");
    }

    private <T extends HasMetadata> void watch(SharedIndexInformer<T> informer, String what, Skeletons<T> store,
            ResourceEventHandler<T> handler) {
        informer.itemStore(store);
        InformerRetry retry = new InformerRetry(what, true,
                Math.max(1, client.getConfiguration().getWatchReconnectInterval()), failures::incrementAndGet);
        retries.put(informer, retry);
        informer.exceptionHandler(retry);
        if (handler != null) {
            informer.addEventHandler(handler);
        }
    }

    /**
     * Starts and waits for the first lists while they make progress (objects or answers), as
     * {@link ClusterCache#startAndSync} does: a restart must see the nodes before its first cycle admits on a TAS flavor.
     */
    public void startAndSync(long stallSeconds) throws Exception {
        start();
        long seen = progress();
        long lastProgress = System.nanoTime();
        while (true) {
            try {
                listed.get(1, TimeUnit.SECONDS);
                return;
            } catch (TimeoutException notYet) {
                long now = progress();
                if (now != seen) {
                    seen = now;
                    lastProgress = System.nanoTime();
                } else if (System.nanoTime() - lastProgress > TimeUnit.SECONDS.toNanos(stallSeconds)) {
                    throw new TimeoutException("the initial lists of Topologies, Nodes and Pods are not done and got "
                            + "no new object for " + stallSeconds + " s");
                }
            }
        }
    }

    private long progress() {
        return puts.sum() + failures.get();
    }

    /** Stops the informers and forgets the view (no ResourceFlavor names a topology any more). */
    public synchronized void stop() {
        if (listed == null) {
            return;
        }
        for (SharedIndexInformer<?> i : retries.keySet()) {
            i.stop();
        }
        retries.clear();
        listed = null;
        topologies = null;
        nodeInformer = null;
        podInformer = null;
        synchronized (lock) {
            nodes.clear();
            usage.clear();
            changed = false;
        }
        LOG.info("topology-aware scheduling: no ResourceFlavor names a topology; Nodes and Pods are no longer watched");
    }

    public boolean running() {
        return listed != null;
    }

    /** Running and every first list done. */
    public boolean synced() {
        CompletableFuture<Void> l = listed;
        return l != null && l.isDone() && !l.isCompletedExceptionally();
    }

    /** The Topology objects listed (engine thread, once synced). */
    public List<Topology> topologies() {
        SharedIndexInformer<Topology> t = topologies;
        return t == null ? List.of() : t.getStore().list();
    }

    public Topology topology(String name) {
        SharedIndexInformer<Topology> t = topologies;
        return t == null ? null : t.getStore().getByKey(name);
    }

    /** The view as it is now, for the engine; marks it read, so the next change hands the loop a reference again. */
    public Snapshot take() {
        synchronized (lock) {
            changed = false;
            return new Snapshot(new ArrayList<>(nodes.values()), usage.perNode());
        }
    }

    /**
     * Whether the view holds what {@code seen} looks for and the engine has taken it since (tests: the engine's
     * nodes are those the test made).
     */
    public boolean taken(java.util.function.Predicate<Snapshot> seen) {
        synchronized (lock) {
            return !changed && seen.test(new Snapshot(new ArrayList<>(nodes.values()), usage.perNode()));
        }
    }

    /** The nodes, and per node the non-TAS pods' usage. */
    public record Snapshot(List<TasNode> nodes, Map<String, Map<String, Long>> nonTasUsage) {
    }

    /** Node and pod events that changed the view since this session started (a test hook). */
    public long changes() {
        synchronized (lock) {
            return changes;
        }
    }

    /** Why a first list is not done, one line per informer ("could not list Pods (v1): ..."); empty when none. */
    public synchronized List<String> listProblems() {
        List<String> out = new ArrayList<>();
        retries.forEach((informer, retry) -> {
            if (!informer.hasSynced() && retry.lastFailure() != null) {
                out.add(retry.lastFailure());
            }
        });
        return out;
    }

    /** Applies a change to the view (true when it changed something), and tells the loop if it is the first since taken. */
    private void change(java.util.function.BooleanSupplier apply) {
        boolean first;
        synchronized (lock) {
            if (!apply.getAsBoolean()) {
                return;
            }
            changes++;
            first = !changed;
            changed = true;
        }
        if (first && synced()) {
            sink.accept(NODES);
        }
    }

    /** What the store keeps of a Node: the key and resourceVersion (the view keeps the rest as a TasNode). */
    static Node skeleton(Node n) {
        return new NodeBuilder().withNewMetadata().withName(n.getMetadata().getName())
                .withResourceVersion(n.getMetadata().getResourceVersion()).endMetadata().build();
    }

    /** What the store keeps of a Pod: its key and resourceVersion (its usage is in {@link NonTasUsage}). */
    static Pod skeleton(Pod p) {
        return new PodBuilder().withNewMetadata().withName(p.getMetadata().getName())
                .withNamespace(p.getMetadata().getNamespace())
                .withResourceVersion(p.getMetadata().getResourceVersion()).endMetadata().build();
    }

    /**
     * An informer store that hands each object, whole, to {@code taken} and keeps only its skeleton; a key removed
     * (deleted, or gone at a relist) goes to {@code gone}. Counts puts (progress of the first list).
     */
    private final class Skeletons<T extends HasMetadata> extends BasicItemStore<T> {
        private final UnaryOperator<T> skeleton;
        private final BiConsumer<String, T> taken;
        private final Consumer<String> gone;

        Skeletons(UnaryOperator<T> skeleton, BiConsumer<String, T> taken, Consumer<String> gone) {
            super(Cache::metaNamespaceKeyFunc);
            this.skeleton = skeleton;
            this.taken = taken;
            this.gone = gone;
        }

        @Override
        public T put(String key, T obj) {
            puts.increment();
            taken.accept(key, obj);
            return super.put(key, skeleton.apply(obj));
        }

        @Override
        public T remove(String key) {
            T removed = super.remove(key);
            if (removed != null) {
                gone.accept(key);
            }
            return removed;
        }
    }

    @Override
    public void close() {
        stop();
    }
}
