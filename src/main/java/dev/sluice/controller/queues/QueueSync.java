package dev.sluice.controller.queues;

import dev.sluice.api.v1beta2.AdmissionCheck;
import dev.sluice.api.v1beta2.ClusterQueue;
import dev.sluice.api.v1beta2.Cohort;
import dev.sluice.api.v1beta2.LocalQueue;
import dev.sluice.api.v1beta2.ResourceFlavor;
import dev.sluice.api.v1beta2.Workload;
import dev.sluice.bridge.CohortObjects;
import dev.sluice.bridge.InvalidObjectException;
import dev.sluice.bridge.QueueObjects;
import dev.sluice.controller.cache.ClusterCache;
import dev.sluice.controller.cache.Ref;
import dev.sluice.controller.session.Session;
import dev.sluice.engine.AdmissionCheckRule;
import dev.sluice.engine.ClusterQueueSpec;
import io.fabric8.kubernetes.api.model.Namespace;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jboss.logging.Logger;

/** ResourceFlavors, Cohorts, ClusterQueues, LocalQueues and Namespaces, from the caches into the engine. */
public final class QueueSync {

    private static final Logger LOG = Logger.getLogger(QueueSync.class);

    private final Session s;
    /** The last problem reported per object, so a bad object is reported once, not on every event. */
    private final Map<String, String> reported = new HashMap<>();
    /** Each ClusterQueue's admission checks as last upserted: a change sends its reserving Workloads round again. */
    private final Map<String, List<AdmissionCheckRule>> checksByQueue = new HashMap<>();

    public QueueSync(Session session) {
        this.s = session;
    }

    public void handle(Ref ref) {
        switch (ref.type()) {
            case Ref.FLAVOR -> flavor(ref.name());
            case Ref.ADMISSION_CHECK -> admissionCheck(ref.name());
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

    /**
     * An AdmissionCheck: whether its controller says it is Active (Kueue reads the condition, never writes it);
     * ClusterQueues naming it become active or inactive with it.
     */
    public void admissionCheck(String name) {
        AdmissionCheck ac = ClusterCache.get(s.cache.admissionChecks, null, name);
        if (ac == null) {
            s.engine.deleteAdmissionCheck(name);
        } else {
            s.engine.upsertAdmissionCheck(QueueObjects.admissionCheck(ac));
        }
    }

    public void clusterQueue(String name) {
        ClusterQueue cq = ClusterCache.get(s.cache.clusterQueues, null, name);
        if (cq == null) {
            s.engine.deleteClusterQueue(name);
            reported.remove("cq/" + name);
            checksByQueue.remove(name);
            return;
        }
        try {
            ClusterQueueSpec spec = QueueObjects.clusterQueue(cq);
            s.engine.upsertClusterQueue(spec);
            reported.remove("cq/" + name);
            List<AdmissionCheckRule> before = checksByQueue.put(name, spec.admissionChecks());
            if (before != null && !before.equals(spec.admissionChecks())) {
                // their status.admissionChecks follow the queue's: those holding quota and those waiting in it
                reservingWorkloads(name).forEach(s.requeue);
                List<dev.sluice.engine.WorkloadKey> waiting = s.engine.pendingOrder(name);
                if (waiting != null) {
                    waiting.forEach(k -> s.requeue.accept(new Ref(Ref.WORKLOAD, k.namespace(), k.name())));
                }
            }
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

    /** The Workloads holding quota in the ClusterQueue, as the cache shows them. */
    private List<Ref> reservingWorkloads(String clusterQueue) {
        List<Ref> out = new ArrayList<>();
        for (Workload wl : s.cache.workloads.getStore().list()) {
            if (wl.getStatus() != null && wl.getStatus().getAdmission() != null
                    && clusterQueue.equals(wl.getStatus().getAdmission().getClusterQueue())) {
                out.add(new Ref(Ref.WORKLOAD, wl.getMetadata().getNamespace(), wl.getMetadata().getName()));
            }
        }
        return out;
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
