package dev.sluice.controller.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.api.v1beta2.Workload;
import dev.sluice.engine.WorkloadPhase;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Which Workloads objectRetentionPolicies names, from when, and which it never names (Kueue v0.19's rules). */
class WorkloadRetentionTest {

    static final Instant T = Instant.parse("2026-01-01T10:00:00Z");
    static final WorkloadRetention POLICY = new WorkloadRetention(Duration.ofHours(1), Duration.ofMinutes(30));

    /** A Workload with the given spec.active and conditions (type, status, reason), each set at T. */
    static Workload wl(Boolean active, boolean admission, String... conditions) {
        StringBuilder c = new StringBuilder();
        for (int i = 0; i < conditions.length; i += 3) {
            c.append(c.isEmpty() ? "" : ",").append("""
                    {"type": "%s", "status": "%s", "reason": "%s", "message": "m", "lastTransitionTime": "%s"}"""
                    .formatted(conditions[i], conditions[i + 1], conditions[i + 2], T));
        }
        return Serialization.unmarshal("""
                {"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "Workload",
                 "metadata": {"name": "w", "namespace": "ns", "resourceVersion": "7"},
                 "spec": {"queueName": "lq", %s "podSets": []},
                 "status": {"conditions": [%s] %s}}
                """.formatted(active == null ? "" : "\"active\": " + active + ",", c,
                admission ? ", \"admission\": {\"clusterQueue\": \"cq\", \"podSetAssignments\": []}" : ""), Workload.class);
    }

    @Test
    void aFinishedWorkloadExpiresItsRetentionAfterTheFinishedCondition() {
        Workload finished = wl(null, true, "QuotaReserved", "True", "QuotaReserved", "Finished", "True", "Succeeded");
        assertThat(POLICY.expiry(finished)).contains(new WorkloadRetention.Expiry(WorkloadRetention.Cause.FINISHED,
                T.plus(Duration.ofHours(1))));
        assertThat(new WorkloadRetention(Duration.ZERO, null).expiry(finished).orElseThrow().at()).isEqualTo(T);
        assertThat(new WorkloadRetention(null, Duration.ofMinutes(30)).expiry(finished))
                .as("afterFinished unset: finished Workloads are kept, whatever else is set").isEmpty();
        // the admission a finished Workload still shows holds no quota (released when it finished)
        assertThat(WorkloadRetention.holdsQuota(finished, Optional.empty())).isFalse();
    }

    @Test
    void onlyWhatKueueDeactivatedExpiresAfterDeactivatedByKueue() {
        Workload byKueue = wl(false, false, "Evicted", "True", "DeactivatedDueToRequeuingLimitExceeded",
                "QuotaReserved", "False", "Pending");
        assertThat(POLICY.expiry(byKueue)).contains(new WorkloadRetention.Expiry(
                WorkloadRetention.Cause.DEACTIVATED_BY_KUEUE, T.plus(Duration.ofMinutes(30))));
        Workload byUser = wl(false, false, "Evicted", "True", "Deactivated");
        assertThat(POLICY.expiry(byUser)).as("deactivated by a user: kept").isEmpty();
        Workload activeAgain = wl(true, false, "Evicted", "True", "DeactivatedDueToRequeuingLimitExceeded");
        assertThat(POLICY.expiry(activeAgain)).as("active again: kept").isEmpty();
        Workload evictionOver = wl(false, false, "Evicted", "False", "DeactivatedDueToRequeuingLimitExceeded");
        assertThat(POLICY.expiry(evictionOver)).isEmpty();
        assertThat(new WorkloadRetention(Duration.ofHours(1), null).expiry(byKueue)).isEmpty();
    }

    @Test
    void pendingAndRunningWorkloadsAreNeverNamed() {
        assertThat(POLICY.expiry(wl(null, false, "QuotaReserved", "False", "Pending"))).isEmpty();
        Workload running = wl(null, true, "QuotaReserved", "True", "QuotaReserved", "Admitted", "True", "Admitted");
        assertThat(POLICY.expiry(running)).isEmpty();
        assertThat(WorkloadRetention.holdsQuota(running, Optional.of(WorkloadPhase.ADMITTED))).isTrue();
        assertThat(WorkloadRetention.holdsQuota(running, Optional.empty())).as("by its admission alone").isTrue();
        assertThat(WorkloadRetention.KEEP_ALL.enabled()).isFalse();
        assertThat(WorkloadRetention.KEEP_ALL.expiry(wl(null, true, "Finished", "True", "Succeeded"))).isEmpty();
    }

    @Test
    void aWorkloadTheEngineStillCountsHoldsQuotaWhateverItsConditionsSay() {
        Workload byKueue = wl(false, false, "Evicted", "True", "DeactivatedDueToRequeuingLimitExceeded");
        assertThat(WorkloadRetention.holdsQuota(byKueue, Optional.of(WorkloadPhase.EVICTING))).isTrue();
        assertThat(WorkloadRetention.holdsQuota(byKueue, Optional.of(WorkloadPhase.ADMITTED))).isTrue();
        assertThat(WorkloadRetention.holdsQuota(byKueue, Optional.of(WorkloadPhase.PENDING))).isFalse();
        Workload stillAdmitted = wl(false, true, "Evicted", "True", "DeactivatedDueToRequeuingLimitExceeded",
                "QuotaReserved", "True", "QuotaReserved");
        assertThat(WorkloadRetention.holdsQuota(stillAdmitted, Optional.empty())).as("quota not yet released").isTrue();
    }

    @Test
    void aConditionWithoutATimeIsKeptAndANegativeDurationIsRefusedByName() {
        Workload noTime = wl(null, false, "Finished", "True", "Succeeded");
        noTime.getStatus().getConditions().get(0).setLastTransitionTime(null);
        assertThat(POLICY.expiry(noTime)).isEmpty();
        assertThatThrownBy(() -> new WorkloadRetention(Duration.ofSeconds(-1), null))
                .hasMessageContaining("sluice.object-retention.workloads.after-finished must not be negative");
    }
}
