package dev.sluice.controller.store;

import dev.sluice.api.v1beta2.Admission;
import dev.sluice.api.v1beta2.PodSet;
import dev.sluice.api.v1beta2.Workload;
import dev.sluice.api.v1beta2.WorkloadSpec;
import dev.sluice.api.v1beta2.WorkloadStatus;
import dev.sluice.controller.conditions.WorkloadConditions;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A finished Workload as the cache keeps it: it holds no quota and is never queued again, so its pod sets (and the
 * engine form derived from them) and its admission's pod-set assignments (flavors, usage per pod set) are dropped.
 * Everything the controller reads of a finished Workload stays: the metadata (key, uid, resourceVersion, labels,
 * annotations, owners), queue name, priority, active, every condition (Finished and its time for retention and the
 * forecast's history, Evicted for retention) and the ClusterQueue it ran in. With a year of history nothing deleted,
 * these are most of the cache, so each costs a few hundred bytes instead of a few kilobytes.
 * <p>
 * The store holds a summary as a {@link FinishedRecord} (one small object instead of fabric8's), making the summary
 * again on every read; {@link #isSummary} holds for that one too.
 * <p>
 * The rare writer that needs the whole object (a status write) reads it from the API server first, see
 * {@link #isSummary}; the patch it builds is then the one it would have built from the full object.
 */
public final class FinishedWorkloads {

    /** The pod sets of every summary: this one instance, so that a summary is told from a Workload by identity. */
    private static final List<PodSet> DROPPED = Collections.unmodifiableList(new ArrayList<>());

    private FinishedWorkloads() {
    }

    /** A Workload whose Finished condition is True: it will not be queued again. */
    static boolean isFinished(Workload wl) {
        return WorkloadConditions.isTrue(wl, WorkloadConditions.FINISHED);
    }

    /** Whether this is a cached summary (pod sets and assignments dropped), not a Workload as the API server has it. */
    public static boolean isSummary(Workload wl) {
        return wl != null && wl.getSpec() != null && wl.getSpec().getPodSets() == DROPPED;
    }

    /** Makes a spec a summary's: {@link #isSummary} tells a Workload with it as one (see {@link FinishedRecord}). */
    static void markSummary(WorkloadSpec spec) {
        spec.setPodSets(DROPPED);
    }

    /**
     * The summary of a finished Workload: a new object sharing the (stripped, compacted) metadata and conditions of
     * the one given, which is not changed.
     */
    static Workload summary(Workload wl) {
        Workload s = new Workload();
        Compact.customResource(s);
        s.setApiVersion(wl.getApiVersion());
        s.setKind(wl.getKind());
        s.setMetadata(wl.getMetadata());
        WorkloadSpec spec = new WorkloadSpec();
        WorkloadSpec full = wl.getSpec();
        if (full != null) {
            spec.setQueueName(full.getQueueName());
            spec.setPriorityClassRef(full.getPriorityClassRef());
            spec.setPriority(full.getPriority());
            spec.setActive(full.getActive());
        }
        markSummary(spec);
        s.setSpec(spec);
        WorkloadStatus status = wl.getStatus();
        if (status != null) {
            WorkloadStatus kept = new WorkloadStatus();
            kept.setConditions(status.getConditions());
            kept.setRequeueState(status.getRequeueState());
            if (status.getAdmission() != null) {
                Admission admission = new Admission();
                admission.setClusterQueue(status.getAdmission().getClusterQueue());
                kept.setAdmission(admission);
            }
            s.setStatus(kept);
        }
        return s;
    }
}
