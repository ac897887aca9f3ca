package dev.sluice.bridge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.api.v1beta2.AdmissionCheckState;
import dev.sluice.api.v1beta2.CheckState;
import dev.sluice.api.v1beta2.PodSetUpdate;
import dev.sluice.api.v1beta2.Workload;
import dev.sluice.api.v1beta2.WorkloadStatus;
import dev.sluice.jobs.PodSetStart;
import dev.sluice.jobs.StartConflictException;
import io.fabric8.kubernetes.api.model.Toleration;
import io.fabric8.kubernetes.api.model.TolerationBuilder;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Kueue's getPodSetsInfoFromStatus: each check's podSetUpdate merged over the flavor's, a conflict refused. */
class PodSetUpdatesTest {

    private static final Toleration BOOKED = new TolerationBuilder().withKey("booked").withOperator("Exists").build();

    private static AdmissionCheckState check(String name, String podSet, Map<String, String> labels,
            Map<String, String> nodeSelector) {
        PodSetUpdate u = new PodSetUpdate();
        u.setName(podSet);
        u.setLabels(labels);
        u.setNodeSelector(nodeSelector);
        u.setTolerations(List.of(BOOKED));
        AdmissionCheckState c = new AdmissionCheckState();
        c.setName(name);
        c.setState(CheckState.Ready);
        c.setPodSetUpdates(List.of(u));
        return c;
    }

    private static Workload workload(AdmissionCheckState... checks) {
        Workload wl = new Workload();
        wl.setStatus(new WorkloadStatus());
        wl.getStatus().setAdmissionChecks(List.of(checks));
        return wl;
    }

    @Test
    void updatesOfEveryCheckForThePodSetAreMerged() {
        PodSetStart start = new PodSetStart("main", Map.of("pool", "a"), List.of(), 2);
        PodSetStart merged = PodSetUpdates.merge(start, workload(check("b", "main", Map.of("l2", "v"), Map.of()),
                check("a", "main", Map.of("l1", "v"), Map.of("zone", "z1")), check("c", "other", Map.of("x", "y"),
                        Map.of())));
        assertThat(merged.labels()).containsOnly(Map.entry("l1", "v"), Map.entry("l2", "v"));
        assertThat(merged.nodeSelector()).containsOnly(Map.entry("pool", "a"), Map.entry("zone", "z1"));
        assertThat(merged.tolerations()).containsExactly(BOOKED); // given twice, added once
        assertThat(merged.count()).isEqualTo(2);
    }

    @Test
    void aKeyTheFlavorSetsOtherwiseIsAConflict() {
        PodSetStart start = new PodSetStart("main", Map.of("pool", "a"), List.of(), null);
        assertThatThrownBy(() -> PodSetUpdates.merge(start, workload(check("prov", "main", Map.of(),
                Map.of("pool", "b"))))).isInstanceOf(StartConflictException.class).hasMessage("in admission check "
                + "\"prov\": invalid admission check PodSetUpdate: conflict for nodeSelector: conflict for key=pool, "
                + "value1=a, value2=b");
    }
}
