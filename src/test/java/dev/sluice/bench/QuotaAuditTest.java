package dev.sluice.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.api.v1beta2.Admission;
import dev.sluice.api.v1beta2.ClusterQueue;
import dev.sluice.api.v1beta2.PodSetAssignment;
import dev.sluice.api.v1beta2.Workload;
import dev.sluice.api.v1beta2.WorkloadStatus;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The auditor's rules on made-up sequences of Workload changes. */
class QuotaAuditTest {

    private static final String T1 = "2026-01-01T00:00:01Z";
    private static final String T2 = "2026-01-01T00:00:02Z";

    /** Two ClusterQueues of 20 cpu in one cohort (borrowing limit 100) and one of 20 cpu alone. */
    private static QuotaAudit audit() {
        QuotaAudit audit = new QuotaAudit();
        audit.clusterQueue(BenchObjects.clusterQueue("cq-0-0-cohort-0"));
        audit.clusterQueue(BenchObjects.clusterQueue("cq-0-1-cohort-0"));
        ClusterQueue alone = BenchObjects.clusterQueue("cq-0-0-cohort-9");
        alone.getSpec().setCohortName(null);
        audit.clusterQueue(alone);
        return audit;
    }

    @Test
    void borrowingUpToTheCohortsQuotaIsAllowed() {
        QuotaAudit audit = audit();
        audit.workload("a/1", admitted("1", "cq-0-0-cohort-0", 20, T1));
        audit.workload("a/2", admitted("2", "cq-0-0-cohort-0", 20, T1));
        assertThat(audit.violations()).isEmpty();
        assertThat(audit.usage("cq-0-0-cohort-0", "rf", "cpu")).isEqualByComparingTo("40");
    }

    @Test
    void aCohortAboveTheSumOfItsNominalQuotasIsAViolation() {
        QuotaAudit audit = audit();
        audit.workload("a/1", admitted("1", "cq-0-0-cohort-0", 20, T1));
        audit.workload("a/2", admitted("2", "cq-0-1-cohort-0", 20, T1));
        audit.workload("a/3", admitted("3", "cq-0-0-cohort-0", 1, T1));
        assertThat(audit.violations()).singleElement().satisfies(v -> {
            assertThat(v.rule()).isEqualTo("over quota");
            assertThat(v.detail()).contains("cohort cohort-0 uses 41").contains("nominal quotas 40");
        });
    }

    @Test
    void aClusterQueueAboveNominalPlusBorrowingLimitIsAViolation() {
        QuotaAudit audit = new QuotaAudit();
        ClusterQueue small = BenchObjects.clusterQueue("cq-0-0-cohort-0");
        small.getSpec().getResourceGroups().get(0).getFlavors().get(0).getResources().get(0).setBorrowingLimit(new Quantity("5"));
        ClusterQueue big = BenchObjects.clusterQueue("cq-0-1-cohort-0");
        big.getSpec().getResourceGroups().get(0).getFlavors().get(0).getResources().get(0).setNominalQuota(new Quantity("100"));
        audit.clusterQueue(small);
        audit.clusterQueue(big);
        audit.workload("a/1", admitted("1", "cq-0-0-cohort-0", 25, T1));
        assertThat(audit.violations()).isEmpty();
        audit.workload("a/2", admitted("2", "cq-0-0-cohort-0", 1, T1));
        assertThat(audit.violations()).singleElement()
                .satisfies(v -> assertThat(v.detail()).contains("ClusterQueue cq-0-0-cohort-0 uses 26").contains("limit 25"));
    }

    @Test
    void withoutACohortTheNominalQuotaIsTheLimit() {
        QuotaAudit audit = audit();
        audit.workload("a/1", admitted("1", "cq-0-0-cohort-9", 20, T1));
        audit.workload("a/2", admitted("2", "cq-0-0-cohort-9", 1, T1));
        assertThat(audit.violations()).extracting(QuotaAudit.Violation::rule).containsExactly("over quota");
    }

    @Test
    void finishingOrDeletingReleasesQuotaButAnEvictionDoesNotUntilTheAdmissionIsCleared() {
        QuotaAudit audit = audit();
        Workload first = admitted("1", "cq-0-0-cohort-9", 20, T1);
        audit.workload("a/1", first);
        audit.workload("a/1", with(admitted("1", "cq-0-0-cohort-9", 20, T1), condition("Finished", "True", T2)));
        audit.workload("a/2", admitted("2", "cq-0-0-cohort-9", 20, T2));
        audit.deleted("a/2");
        assertThat(audit.violations()).isEmpty();
        assertThat(audit.usage("cq-0-0-cohort-9", "rf", "cpu")).isZero();

        audit.workload("a/3", admitted("3", "cq-0-0-cohort-9", 20, T1));
        audit.workload("a/3", with(admitted("3", "cq-0-0-cohort-9", 20, T1), condition("Evicted", "True", T2)));
        audit.workload("a/4", admitted("4", "cq-0-0-cohort-9", 20, T2));
        assertThat(audit.violations()).extracting(QuotaAudit.Violation::rule).containsExactly("over quota");
    }

    @Test
    void aNewAdmissionWithoutReleaseIsAdmittedTwice() {
        QuotaAudit audit = audit();
        audit.workload("a/1", admitted("1", "cq-0-0-cohort-0", 5, T1));
        audit.workload("a/1", admitted("1", "cq-0-1-cohort-0", 5, T1));
        assertThat(audit.violations()).singleElement().satisfies(v -> {
            assertThat(v.rule()).isEqualTo("admitted twice");
            assertThat(v.detail()).contains("a/1").contains("cq-0-0-cohort-0").contains("cq-0-1-cohort-0");
        });
        // the old admission no longer counts: only the new one holds quota
        assertThat(audit.usage("cq-0-0-cohort-0", "rf", "cpu")).isZero();
        assertThat(audit.usage("cq-0-1-cohort-0", "rf", "cpu")).isEqualByComparingTo("5");
    }

    @Test
    void quotaReservedSetAgainWithoutReleaseIsAdmittedTwice() {
        QuotaAudit audit = audit();
        audit.workload("a/1", admitted("1", "cq-0-0-cohort-0", 5, T1));
        audit.workload("a/1", admitted("1", "cq-0-0-cohort-0", 5, T1)); // a rewrite of the same admission is fine
        assertThat(audit.violations()).isEmpty();
        audit.workload("a/1", admitted("1", "cq-0-0-cohort-0", 5, T2));
        assertThat(audit.violations()).extracting(QuotaAudit.Violation::rule).containsExactly("admitted twice");
    }

    @Test
    void admittedAgainAfterTheReservationWasReleasedIsFine() {
        QuotaAudit audit = audit();
        audit.workload("a/1", admitted("1", "cq-0-0-cohort-0", 5, T1));
        audit.workload("a/1", with(workload("1"), condition("QuotaReserved", "False", T2)));
        audit.workload("a/1", admitted("1", "cq-0-1-cohort-0", 5, T2));
        assertThat(audit.violations()).isEmpty();
        assertThat(audit.changes()).isEqualTo(3);
    }

    @Test
    void workloadsMissingOrNotFinishedAtTheEndAreNamed() {
        QuotaAudit audit = audit();
        audit.workload("a/1", with(admitted("1", "cq-0-0-cohort-0", 5, T1), condition("Finished", "True", T2)));
        audit.workload("a/2", admitted("2", "cq-0-0-cohort-0", 5, T1));
        audit.workload("a/4", workload("4"));
        audit.deleted("a/4");
        assertThat(audit.notFinished(List.of("a/1", "a/2", "a/3", "a/4")))
                .containsExactly("a/2 (not finished)", "a/3 (lost: not found)", "a/4 (lost: not found)");
    }

    @Test
    void cohortSumsFollowEveryChange() {
        QuotaAudit audit = audit();
        audit.workload("a/1", admitted("1", "cq-0-0-cohort-0", 15, T1));
        audit.workload("a/2", admitted("2", "cq-0-1-cohort-0", 20, T1));
        assertThat(audit.cohortUsage("cohort-0", "rf", "cpu")).isEqualByComparingTo("35");
        audit.workload("a/1", with(admitted("1", "cq-0-0-cohort-0", 15, T1), condition("Finished", "True", T2)));
        assertThat(audit.cohortUsage("cohort-0", "rf", "cpu")).isEqualByComparingTo("20");
        // the released quota can be used again: 20 + 20 = the cohort's 40
        audit.workload("a/3", admitted("3", "cq-0-0-cohort-0", 20, T2));
        assertThat(audit.violations()).isEmpty();
        audit.deleted("a/2");
        assertThat(audit.cohortUsage("cohort-0", "rf", "cpu")).isEqualByComparingTo("20");
        // a ClusterQueue registered again (say, updated) keeps what its Workloads hold
        audit.clusterQueue(BenchObjects.clusterQueue("cq-0-1-cohort-0"));
        assertThat(audit.cohortUsage("cohort-0", "rf", "cpu")).isEqualByComparingTo("20");
        audit.workload("a/4", admitted("4", "cq-0-1-cohort-0", 21, T2));
        assertThat(audit.violations()).singleElement().satisfies(v -> assertThat(v.detail())
                .contains("cohort cohort-0 uses 41").contains("nominal quotas 40"));
    }

    @Test
    void aResourceTheClusterQueueHasNoQuotaForIsOverQuota() {
        QuotaAudit audit = audit();
        Workload w = admitted("1", "cq-0-0-cohort-0", 1, T1);
        w.getStatus().getAdmission().getPodSetAssignments().get(0).setFlavors(Map.of("cpu", "other"));
        audit.workload("a/1", w);
        assertThat(audit.violations()).singleElement().satisfies(v -> assertThat(v.detail())
                .contains("ClusterQueue cq-0-0-cohort-0 uses 1 cpu of flavor other, which it has no quota for"));
    }

    @Test
    void theSameAmountWrittenDifferentlyIsTheSameAdmission() {
        QuotaAudit audit = audit();
        audit.workload("a/1", admitted("1", "cq-0-0-cohort-0", 2, T1));
        Workload again = admitted("1", "cq-0-0-cohort-0", 2, T1);
        again.getStatus().getAdmission().getPodSetAssignments().get(0).setResourceUsage(Map.of("cpu", new Quantity("2000m")));
        audit.workload("a/1", again);
        assertThat(audit.violations()).isEmpty();
        assertThat(audit.usage("cq-0-0-cohort-0", "rf", "cpu")).isEqualByComparingTo("2");
    }

    /**
     * A release stored after the admission it made room for (as the real API server once stored a Finished after the
     * next admission): the stored records were over quota in between, though the final state is within it.
     */
    @Test
    void anAdmissionStoredBeforeTheReleaseItUsesIsOverQuotaEvenIfTheReleaseFollows() {
        QuotaAudit audit = audit();
        audit.workload("a/b", at(admitted("b", "cq-0-0-cohort-9", 20, T1), "10"));
        audit.workload("a/d", at(admitted("d", "cq-0-0-cohort-9", 1, T2), "11"));
        audit.workload("a/b", at(with(admitted("b", "cq-0-0-cohort-9", 20, T1), condition("Finished", "True", T2)), "12"));
        assertThat(audit.usage("cq-0-0-cohort-9", "rf", "cpu")).isEqualByComparingTo("1");
        assertThat(audit.violations()).singleElement().satisfies(v -> {
            assertThat(v.rule()).isEqualTo("over quota");
            assertThat(v.detail()).contains("uses 21 cpu");
        });
    }

    /** The same two changes reaching the auditor in another order than the server's are not judged as if in order. */
    @Test
    void aChangeOlderThanOneAlreadyJudgedIsOutOfOrder() {
        QuotaAudit audit = audit();
        audit.workload("a/b", at(admitted("b", "cq-0-0-cohort-9", 20, T1), "10"));
        audit.workload("a/b", at(with(admitted("b", "cq-0-0-cohort-9", 20, T1), condition("Finished", "True", T2)), "12"));
        audit.workload("a/d", at(admitted("d", "cq-0-0-cohort-9", 1, T2), "11"));
        audit.deleted("a/b", "13");
        assertThat(audit.violations()).singleElement().satisfies(v -> {
            assertThat(v.rule()).isEqualTo("out of order");
            assertThat(v.detail()).contains("a/d at resourceVersion 11", "after a/b at resourceVersion 12");
        });
        audit.deleted("a/x"); // found missing after a cut watch: no version to order it by
        assertThat(audit.violations()).hasSize(1);
    }

    private static Workload at(Workload w, String resourceVersion) {
        w.getMetadata().setResourceVersion(resourceVersion);
        return w;
    }

    private static Workload workload(String name) {
        Workload w = new Workload();
        w.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace("a").build());
        w.setStatus(new WorkloadStatus());
        return w;
    }

    private static Workload admitted(String name, String cq, int cpu, String at) {
        Workload w = workload(name);
        PodSetAssignment psa = new PodSetAssignment();
        psa.setName("main");
        psa.setCount(1);
        psa.setFlavors(Map.of("cpu", "rf"));
        psa.setResourceUsage(Map.of("cpu", new Quantity(Integer.toString(cpu))));
        Admission a = new Admission();
        a.setClusterQueue(cq);
        a.setPodSetAssignments(List.of(psa));
        w.getStatus().setAdmission(a);
        return with(with(w, condition("QuotaReserved", "True", at)), condition("Admitted", "True", at));
    }

    private static Condition condition(String type, String status, String at) {
        return new ConditionBuilder().withType(type).withStatus(status).withReason(type).withLastTransitionTime(at).build();
    }

    private static Workload with(Workload w, Condition c) {
        List<Condition> conditions = new ArrayList<>(w.getStatus().getConditions() == null ? List.of() : w.getStatus().getConditions());
        conditions.removeIf(x -> x.getType().equals(c.getType()));
        conditions.add(c);
        w.getStatus().setConditions(conditions);
        return w;
    }
}
