package dev.sluice.controller.queues;

import dev.sluice.api.v1beta2.ClusterQueue;
import dev.sluice.api.v1beta2.Cohort;
import dev.sluice.api.v1beta2.LocalQueue;
import dev.sluice.api.v1beta2.ResourceFlavor;
import dev.sluice.bridge.CohortObjects;
import dev.sluice.bridge.InvalidObjectException;
import dev.sluice.bridge.QueueObjects;
import dev.sluice.controller.cache.ClusterCache;
import dev.sluice.controller.cache.Ref;
import dev.sluice.controller.session.Session;
import io.fabric8.kubernetes.api.model.Namespace;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import org.jboss.logging.Logger;

/** ResourceFlavors, Cohorts, ClusterQueues, LocalQueues and Namespaces, from the caches into the engine. */
public final class QueueSync {

    private static final Logger LOG = Logger.getLogger(QueueSync.class);

    private final Session s;
    /** The last problem reported per object, so a bad object is reported once, not on every event. */
    private final Map<String, String> reported = new HashMap<>();

    public QueueSync(Session session) {
        this.s = session;
    }

    public void handle(Ref ref) {
        switch (ref.type()) {
            case Ref.FLAVOR -> flavor(ref.name());
            case Ref.CLUSTER_QUEUE -> clusterQueue(ref.name());
            case Ref.COHORT -> cohort(ref.name());
            case Ref.LOCAL_QUEUE -> localQueue(ref.namespace(), ref.name());
            case Ref.NAMESPACE -> namespace(ref.name());
            default -> throw new IllegalArgumentException("not a queue object: " + ref);
        }
    }

    public void flavor(String name) {
        ResourceFlavor rf = ClusterCache.get(s.cache.flavors, null, name);
        if (rf == null) {
            s.engine.deleteFlavor(name);
        } else {
            s.engine.upsertFlavor(QueueObjects.flavor(rf));
        }
    }

    public void clusterQueue(String name) {
        ClusterQueue cq = ClusterCache.get(s.cache.clusterQueues, null, name);
        if (cq == null) {
            s.engine.deleteClusterQueue(name);
            reported.remove("cq/" + name);
            return;
        }
        try {
            s.engine.upsertClusterQueue(QueueObjects.clusterQueue(cq));
            reported.remove("cq/" + name);
        } catch (InvalidObjectException | IllegalArgumentException e) {
            // the engine keeps the last valid spec; the object says what to fix
            if (!Objects.equals(reported.put("cq/" + name, e.getMessage()), e.getMessage())) {
                LOG.warn(e.getMessage());
                s.events.warning(cq, "InvalidSpec", e.getMessage());
            }
        }
    }

    /**
     * A Cohort object: its parent, quota pool and weight. Deleted, the cohort stays as an implicit one while queues
     * name it. A bad object keeps the engine's last valid spec and is reported once with the field to fix.
     */
    public void cohort(String name) {
        Cohort cohort = ClusterCache.get(s.cache.cohorts, null, name);
        if (cohort == null) {
            s.engine.deleteCohort(name);
            reported.remove("cohort/" + name);
            return;
        }
        try {
            s.engine.upsertCohort(CohortObjects.cohort(cohort));
            reported.remove("cohort/" + name);
        } catch (InvalidObjectException | IllegalArgumentException e) {
            if (!Objects.equals(reported.put("cohort/" + name, e.getMessage()), e.getMessage())) {
                LOG.warn(e.getMessage());
                s.events.warning(cohort, "InvalidSpec", e.getMessage());
            }
        }
    }

    public void localQueue(String namespace, String name) {
        LocalQueue lq = ClusterCache.get(s.cache.localQueues, namespace, name);
        if (lq == null) {
            s.engine.deleteLocalQueue(namespace, name);
        } else {
            s.engine.upsertLocalQueue(QueueObjects.localQueue(lq));
            if (s.engine.localQueueUsageLastUpdate(namespace, name).isEmpty()) {
                // first sight since start: admission fair sharing resumes from the recorded usage, as Kueue's does
                dev.sluice.bridge.RecordedLocalQueueUsage.restore(s.engine, lq, s.nowMillis());
            }
        }
    }

    public void namespace(String name) {
        Namespace ns = ClusterCache.get(s.cache.namespaces, null, name);
        if (ns == null) {
            s.engine.deleteNamespace(name);
        } else {
            s.engine.upsertNamespace(name, ns.getMetadata().getLabels());
        }
    }
}
