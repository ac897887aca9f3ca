package dev.sluice.dashboard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The dashboard's memory of recent events: newest first, bounded overall, per Workload and in Workloads kept. */
class JournalTest {

    private static Journal.Entry e(long at, String wl, String reason, String preemptor) {
        return new Journal.Entry(at, "ns", wl, "Normal", reason, reason + " " + wl, preemptor);
    }

    @Test
    void recentIsNewestFirstWithoutTheQuotaReservedTwinOfEachAdmission() {
        Journal j = new Journal(3, 10, 10);
        j.record(e(1, "a", "QuotaReserved", null));
        j.record(e(1, "a", "Admitted", null));
        j.record(e(2, "b", "QuotaReserved", null));
        j.record(e(2, "b", "Admitted", null));
        j.record(e(3, "a", "Preempted", "ns/b"));
        assertThat(j.recent(10)).extracting(Journal.Entry::reason).containsExactly("Preempted", "Admitted", "Admitted");
        assertThat(j.recent(10).get(0).preemptor()).isEqualTo("ns/b");
        assertThat(j.recent(1)).hasSize(1);
        j.record(e(4, "c", "Admitted", null));
        assertThat(j.recent(10)).extracting(Journal.Entry::workload).containsExactly("c", "a", "b");
        // a Workload's history keeps everything, oldest first
        assertThat(j.history("ns", "a")).extracting(Journal.Entry::reason)
                .containsExactly("QuotaReserved", "Admitted", "Preempted");
        assertThat(j.history("ns", "zzz")).isEmpty();
    }

    @Test
    void boundedPerWorkloadAndInWorkloadsLeastRecentlyTouchedGoFirst() {
        Journal j = new Journal(100, 2, 2);
        j.record(e(1, "a", "Admitted", null));
        j.record(e(2, "a", "Evicted", null));
        j.record(e(3, "a", "Requeued", null));
        assertThat(j.history("ns", "a")).extracting(Journal.Entry::reason).containsExactly("Evicted", "Requeued");
        j.record(e(4, "b", "Admitted", null));
        j.history("ns", "a"); // a read touches a
        j.record(e(5, "c", "Admitted", null));
        assertThat(j.history("ns", "b")).isEmpty();
        assertThat(j.history("ns", "a")).hasSize(2);
        assertThat(j.history("ns", "c")).hasSize(1);
        assertThatThrownBy(() -> new Journal(0, 1, 1)).hasMessageContaining("at least 1");
    }
}
