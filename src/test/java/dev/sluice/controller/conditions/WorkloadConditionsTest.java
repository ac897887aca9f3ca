package dev.sluice.controller.conditions;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.api.v1beta2.Admission;
import dev.sluice.api.v1beta2.Workload;
import dev.sluice.controller.Cluster;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class WorkloadConditionsTest {

    static final Instant T0 = Instant.parse("2026-01-01T10:00:00Z");

    static Workload workload() {
        Workload wl = new Workload();
        wl.setMetadata(new ObjectMetaBuilder().withName("w").withNamespace("ns").withGeneration(1L).build());
        return wl;
    }

    static Admission admission() {
        Admission a = new Admission();
        a.setClusterQueue("cq");
        return a;
    }

    @Test
    void admittedWorkloadMayRunUntilEvicted() {
        Workload wl = WorkloadConditions.admit(workload(), admission(), "Quota reserved in ClusterQueue cq", T0);
        assertThat(WorkloadConditions.mayRun(wl)).isTrue();
        assertThat(Cluster.condition(wl, "QuotaReserved").getReason()).isEqualTo("QuotaReserved");
        assertThat(Cluster.condition(wl, "Admitted").getReason()).isEqualTo("Admitted");

        WorkloadConditions.evict(wl, "Preempted", "InClusterQueue", "Preempted to accommodate ...", T0.plusSeconds(5));
        assertThat(WorkloadConditions.mayRun(wl)).isFalse();
        assertThat(WorkloadConditions.hasReservation(wl)).as("keeps its quota until the job is stopped").isTrue();
        assertThat(Cluster.condition(wl, "Preempted").getReason()).isEqualTo("InClusterQueue");
    }

    @Test
    void requeueReleasesTheReservationAndRecordsWhy() {
        Workload wl = WorkloadConditions.admit(workload(), admission(), "reserved", T0);
        WorkloadConditions.evict(wl, "Preempted", "InCohortReclamation", "Preempted to accommodate ...", T0);
        WorkloadConditions.requeue(wl, T0.plusSeconds(10));
        assertThat(wl.getStatus().getAdmission()).isNull();
        assertThat(Cluster.isFalse(wl, "QuotaReserved", "PendingEvaluation")).isTrue();
        assertThat(Cluster.condition(wl, "QuotaReserved").getMessage()).isEqualTo("Preempted to accommodate ...");
        assertThat(Cluster.isFalse(wl, "Admitted", "NoReservation")).isTrue();
        assertThat(Cluster.condition(wl, "Requeued").getReason()).isEqualTo("Preempted");
        assertThat(Cluster.condition(wl, "Requeued").getLastTransitionTime()).isEqualTo("2026-01-01T10:00:10Z");

        // admitted again: the eviction becomes history
        WorkloadConditions.admit(wl, admission(), "reserved again", T0.plusSeconds(20));
        assertThat(Cluster.isFalse(wl, "Evicted", "QuotaReserved")).isTrue();
        assertThat(Cluster.condition(wl, "Evicted").getMessage()).startsWith("Previously: Preempted to accommodate");
        assertThat(Cluster.isFalse(wl, "Preempted", "QuotaReserved")).isTrue();
        assertThat(WorkloadConditions.mayRun(wl)).isTrue();
    }

    @Test
    void settingTheSameStateTwiceChangesNothing() {
        Workload wl = WorkloadConditions.pending(workload(), "WaitingForQuota", "waiting", T0);
        String before = Serialization.asJson(wl.getStatus());
        WorkloadConditions.pending(wl, "WaitingForQuota", "waiting", T0.plusSeconds(30));
        assertThat(Serialization.asJson(wl.getStatus())).isEqualTo(before);
    }

    @Test
    void pendingWritesKueuesGranularReasonAndNoReservationTogether() {
        Workload wl = WorkloadConditions.pending(workload(), "WaitingForQuota", "insufficient unused quota", T0);
        assertThat(Cluster.isFalse(wl, "QuotaReserved", "WaitingForQuota")).isTrue();
        assertThat(Cluster.condition(wl, "QuotaReserved").getMessage()).isEqualTo("insufficient unused quota");
        assertThat(Cluster.isFalse(wl, "Admitted", "NoReservation")).isTrue();
        assertThat(Cluster.condition(wl, "Admitted").getMessage()).isEqualTo("The workload has no reservation");

        // deactivated (spec.active: false): Deactivated comes before any other reason, the message stays
        wl.setSpec(new dev.sluice.api.v1beta2.WorkloadSpec());
        wl.getSpec().setActive(false);
        WorkloadConditions.pending(wl, "Suspended", "The workload is deactivated", T0.plusSeconds(5));
        assertThat(Cluster.isFalse(wl, "QuotaReserved", "Deactivated")).isTrue();
        assertThat(Cluster.condition(wl, "QuotaReserved").getMessage()).isEqualTo("The workload is deactivated");
    }

    @Test
    void pendingNeverTouchesAnAdmittedWorkload() {
        Workload wl = WorkloadConditions.admit(workload(), admission(), "reserved", T0);
        WorkloadConditions.pending(wl, "Misconfigured", "late news", T0.plusSeconds(1));
        assertThat(Cluster.condition(wl, "QuotaReserved").getStatus()).isEqualTo("True");
    }

    @Test
    void finishedWorkloadMayNotRun() {
        Workload wl = WorkloadConditions.admit(workload(), admission(), "reserved", T0);
        WorkloadConditions.finish(wl, "FailedToStart", "pod set main: nodeSelector conflicts", T0);
        assertThat(WorkloadConditions.mayRun(wl)).isFalse();
        assertThat(Cluster.condition(wl, "Finished").getReason()).isEqualTo("FailedToStart");
    }
}
