package dev.sluice.bridge;

import dev.sluice.api.v1beta2.ClusterQueue;
import dev.sluice.api.v1beta2.Cohort;
import dev.sluice.api.v1beta2.LocalQueue;
import dev.sluice.api.v1beta2.ResourceFlavor;
import dev.sluice.api.v1beta2.Workload;
import dev.sluice.engine.AdmissionFairSharing;
import dev.sluice.engine.Engine;
import dev.sluice.engine.FairSharing;
import dev.sluice.engine.WorkloadSpec;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Namespace;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Collection;
import java.util.List;
import java.util.function.Function;

/**
 * A fresh engine built from queue objects and Workloads the way a new leader rebuilds its own: queue objects first,
 * then every recorded admission counted again, then the waiting Workloads queued. For readers that must not touch
 * the live engine (a standby's visibility answers, the forecast's copy run forward in virtual time).
 */
public final class EngineRebuild {

    private EngineRebuild() {
    }

    /**
     * As the leader's engine is built: its fair-sharing and admission-fair-sharing settings, Cohort objects (tree,
     * pools, limits, weights) before the ClusterQueues, and each LocalQueue's usage seeded from its status.
     *
     * @param specOf a Workload's engine form, or null when it cannot be queued (skipped, as the live engine does)
     */
    public static Engine build(FairSharing fairSharing, AdmissionFairSharing admissionFairSharing,
            Collection<ResourceFlavor> flavors, Collection<Cohort> cohorts, Collection<ClusterQueue> clusterQueues,
            Collection<LocalQueue> localQueues, Collection<Namespace> namespaces, Collection<Workload> workloads,
            Function<Workload, WorkloadSpec> specOf) {
        return build(fairSharing, admissionFairSharing, flavors, List.of(), cohorts, clusterQueues, localQueues,
                namespaces, workloads, specOf);
    }

    /** As above, with the AdmissionCheck objects (a ClusterQueue naming a missing or inactive one is inactive). */
    public static Engine build(FairSharing fairSharing, AdmissionFairSharing admissionFairSharing,
            Collection<ResourceFlavor> flavors, Collection<dev.sluice.api.v1beta2.AdmissionCheck> admissionChecks,
            Collection<Cohort> cohorts, Collection<ClusterQueue> clusterQueues, Collection<LocalQueue> localQueues,
            Collection<Namespace> namespaces, Collection<Workload> workloads, Function<Workload, WorkloadSpec> specOf) {
        Engine e = new Engine(fairSharing, admissionFairSharing);
        flavors.forEach(f -> e.upsertFlavor(QueueObjects.flavor(f)));
        admissionChecks.forEach(ac -> e.upsertAdmissionCheck(QueueObjects.admissionCheck(ac)));
        for (Cohort cohort : cohorts) {
            try {
                e.upsertCohort(CohortObjects.cohort(cohort));
            } catch (InvalidObjectException | IllegalArgumentException skipped) {
                // the live engine refuses it the same way (and reports it); a copy stays silent
            }
        }
        for (ClusterQueue cq : clusterQueues) {
            try {
                e.upsertClusterQueue(QueueObjects.clusterQueue(cq));
            } catch (InvalidObjectException | IllegalArgumentException skipped) {
                // the live engine refuses it the same way (and reports it); a copy stays silent
            }
        }
        for (LocalQueue lq : localQueues) {
            try {
                e.upsertLocalQueue(QueueObjects.localQueue(lq));
                RecordedLocalQueueUsage.restore(e, lq);
            } catch (InvalidObjectException | IllegalArgumentException skipped) {
                // as above
            }
        }
        namespaces.forEach(ns -> e.upsertNamespace(ns.getMetadata().getName(), ns.getMetadata().getLabels()));
        for (Workload wl : workloads) {
            if (reserved(wl) && !finished(wl) && wl.getMetadata().getDeletionTimestamp() == null) {
                WorkloadSpec spec = specOf.apply(wl);
                if (spec != null) {
                    try {
                        e.restoreAdmitted(spec, Admissions.fromApi(wl.getStatus().getAdmission(), "Workload "
                                + wl.getMetadata().getNamespace() + "/" + wl.getMetadata().getName()), reservedAt(wl),
                                checkStates(wl));
                    } catch (InvalidObjectException skipped) {
                        // not counted by the live engine either
                    }
                }
            }
        }
        for (Workload wl : workloads) {
            if (!reserved(wl) && !finished(wl) && wl.getMetadata().getDeletionTimestamp() == null) {
                WorkloadSpec spec = specOf.apply(wl);
                if (spec != null) {
                    e.submit(spec);
                }
            }
        }
        return e;
    }

    /** The Workload's engine form computed from its pod templates (null when it has none or they are invalid). */
    public static WorkloadSpec fromTemplates(Workload wl) {
        try {
            return EngineWorkloads.toEngine(wl, EngineWorkloads.createdMillis(wl));
        } catch (InvalidObjectException | IllegalArgumentException e) {
            return null;
        }
    }

    /** The Workload's status.admissionChecks in the engine's words. */
    public static java.util.Map<String, dev.sluice.engine.CheckState> checkStates(Workload wl) {
        java.util.Map<String, dev.sluice.engine.CheckState> out = new java.util.TreeMap<>();
        if (wl.getStatus() != null && wl.getStatus().getAdmissionChecks() != null) {
            for (var c : wl.getStatus().getAdmissionChecks()) {
                out.put(c.getName(), c.getState() == null ? dev.sluice.engine.CheckState.Pending
                        : dev.sluice.engine.CheckState.valueOf(c.getState().name()));
            }
        }
        return out;
    }

    static boolean reserved(Workload wl) {
        return wl.getStatus() != null && wl.getStatus().getAdmission() != null;
    }

    static boolean finished(Workload wl) {
        return condition(wl, "Finished") != null && "True".equals(condition(wl, "Finished").getStatus());
    }

    private static Condition condition(Workload wl, String type) {
        if (wl.getStatus() == null || wl.getStatus().getConditions() == null) {
            return null;
        }
        return wl.getStatus().getConditions().stream().filter(c -> type.equals(c.getType())).findFirst().orElse(null);
    }

    /** When the quota was reserved (the QuotaReserved condition's time), else the creation time. */
    public static long reservedAt(Workload wl) {
        Condition c = condition(wl, "QuotaReserved");
        if (c != null && c.getLastTransitionTime() != null) {
            try {
                return Instant.parse(c.getLastTransitionTime()).toEpochMilli();
            } catch (DateTimeParseException ignored) {
                // fall through
            }
        }
        return EngineWorkloads.createdMillis(wl);
    }
}
