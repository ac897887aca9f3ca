package dev.sluice.controller.queues;

import dev.sluice.api.v1beta2.ResourceFlavor;
import dev.sluice.api.v1beta2.Topology;
import dev.sluice.bridge.InvalidObjectException;
import dev.sluice.bridge.Topologies;
import dev.sluice.controller.cache.NodeView;
import dev.sluice.controller.session.Session;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jboss.logging.Logger;

/**
 * Topologies and the node view into the engine (engine thread). The node view runs while some ResourceFlavor names a
 * topology. Until its first lists are done the engine knows no Topology, so a TAS flavor admits nothing (its pod sets
 * read "information missing in TAS cache") rather than placing on nodes it has not seen; then the Topologies and the
 * nodes go in together. Later node and pod changes reach the engine at most once a second, however many came.
 */
public final class TopologySync {

    private static final Logger LOG = Logger.getLogger(TopologySync.class);
    /** At most one new node view per this many ms (a busy cluster's pods churn far more often). */
    static final long NODES_PERIOD_MS = 1000;

    private final Session s;
    private final NodeView view;
    /** The Topologies the engine has, as given to it. */
    private final Map<String, dev.sluice.engine.tas.Topology> pushed = new HashMap<>();
    private final Map<String, String> reported = new HashMap<>();
    private long lastNodesMillis = Long.MIN_VALUE / 2;
    private long nodePushes;

    public TopologySync(Session session) {
        this.s = session;
        this.view = session.cache.nodeView;
    }

    /** Whether some ResourceFlavor names a topology (Kueue's TAS flavors). */
    private boolean anyTasFlavor() {
        for (ResourceFlavor rf : s.cache.list(s.cache.flavors)) {
            if (rf.getSpec() != null && rf.getSpec().getTopologyName() != null) {
                return true;
            }
        }
        return false;
    }

    /** After the flavors changed: the node view starts with the first TAS flavor and stops with the last. */
    public void flavorsChanged() {
        boolean tas = anyTasFlavor();
        if (tas && !view.running()) {
            view.start();
        } else if (!tas && view.running()) {
            view.stop();
            for (String name : List.copyOf(pushed.keySet())) {
                s.engine.deleteTopology(name);
            }
            pushed.clear();
            s.engine.setNodes(List.of(), Map.of());
        }
    }

    /**
     * At the engine's rebuild, before any Workload is counted: with a TAS flavor, the node view's first lists are
     * waited for and the Topologies and nodes go in, so admitted workloads' topology assignments are booked on
     * their domains and the first cycle places on the nodes that exist.
     */
    public void rebuild(long stallSeconds) throws Exception {
        if (!anyTasFlavor()) {
            return;
        }
        view.startAndSync(stallSeconds);
        nodes();
    }

    /** A Topology changed; held while the node view is not synced (it goes in with the nodes). */
    public void topology(String name) {
        if (!view.synced()) {
            return;
        }
        Topology t = view.topology(name);
        if (t == null) {
            if (pushed.remove(name) != null) {
                s.engine.deleteTopology(name);
            }
            reported.remove(name);
            return;
        }
        try {
            dev.sluice.engine.tas.Topology engine = Topologies.toEngine(t);
            reported.remove(name);
            if (!engine.equals(pushed.get(name))) {
                pushed.put(name, engine);
                s.engine.upsertTopology(engine);
            }
        } catch (InvalidObjectException e) {
            if (!Objects.equals(reported.put(name, e.getMessage()), e.getMessage())) {
                LOG.warn(e.getMessage());
                s.events.warning(t, "InvalidSpec", e.getMessage());
            }
        }
    }

    /**
     * The node view changed ({@link NodeView#NODES}): the engine gets it now, or a little later when it got one less
     * than {@link #NODES_PERIOD_MS} ago (the reference comes back then; changes meanwhile add nothing).
     */
    public void nodes() {
        if (!view.synced()) {
            return;
        }
        if (pushed.isEmpty()) {
            view.topologies().forEach(t -> topology(t.getMetadata().getName()));
        }
        long now = System.currentTimeMillis();
        if (now - lastNodesMillis < NODES_PERIOD_MS) {
            s.retry.accept(NodeView.NODES);
            return;
        }
        lastNodesMillis = now;
        NodeView.Snapshot snapshot = view.take();
        s.engine.setNodes(snapshot.nodes(), snapshot.nonTasUsage());
        nodePushes++;
    }

    /** How many node views the engine got this session (tests). */
    public long nodePushes() {
        return nodePushes;
    }
}
