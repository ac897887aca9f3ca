package dev.sluice.forecast;

import dev.sluice.engine.ClusterQueueSpec;
import dev.sluice.engine.CohortSpec;
import dev.sluice.engine.Engine;
import dev.sluice.engine.LocalQueueSpec;
import dev.sluice.engine.WorkloadKey;
import dev.sluice.engine.WorkloadSpec;
import java.util.HashMap;
import java.util.Map;

/** A capture run forward: builds the engine copy (off the engine thread) and runs it. */
public final class Forecasts {

    private Forecasts() {
    }

    public static Map<WorkloadKey, Forecast> compute(Capture c, ForwardRun.Budget budget) {
        Engine copy = copy(c);
        Map<WorkloadKey, ForwardRun.Running> running = new HashMap<>();
        for (Capture.Admitted a : c.admitted()) {
            running.put(a.spec().key(), new ForwardRun.Running(a.admittedAtMillis(),
                    c.estimates().getOrDefault(a.spec().key(), Estimate.UNKNOWN)));
        }
        return ForwardRun.run(copy, running, c.positions(), k -> c.estimates().getOrDefault(k, Estimate.UNKNOWN),
                c.nowMillis(), budget);
    }

    /**
     * The engine copy a forecast runs forward: the leader's settings, queue objects (Cohort objects before the
     * ClusterQueues, as the leader orders them), admission fair sharing's books, the admissions counted, the waiting
     * workloads queued.
     */
    public static Engine copy(Capture c) {
        Engine copy = new Engine(c.fairSharing(), c.admissionFairSharing());
        c.flavors().forEach(copy::upsertFlavor);
        c.namespaces().forEach(copy::upsertNamespace);
        c.admissionChecks().forEach(copy::upsertAdmissionCheck);
        for (CohortSpec cohort : c.cohorts()) {
            try {
                copy.upsertCohort(cohort);
            } catch (IllegalArgumentException skipped) {
                // the live engine refused it too
            }
        }
        for (ClusterQueueSpec cq : c.clusterQueues()) {
            try {
                copy.upsertClusterQueue(cq);
            } catch (IllegalArgumentException skipped) {
                // the live engine refused it too
            }
        }
        for (LocalQueueSpec lq : c.localQueues()) {
            copy.upsertLocalQueue(lq);
        }
        for (Capture.LocalQueueBooks b : c.localQueueUsage()) {
            copy.restoreLocalQueueUsage(b.namespace(), b.name(), b.consumed(), b.penalty(), b.lastUpdateMillis());
        }
        for (Capture.Admitted a : c.admitted()) {
            copy.restoreAdmitted(a.spec(), a.assignment(), a.admittedAtMillis());
        }
        for (WorkloadSpec w : c.waiting()) {
            copy.submit(w);
        }
        return copy;
    }
}
