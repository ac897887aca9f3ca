package dev.sluice.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.api.v1beta2.Admission;
import dev.sluice.api.v1beta2.PodSetAssignment;
import dev.sluice.api.v1beta2.Workload;
import dev.sluice.api.v1beta2.WorkloadStatus;
import dev.sluice.sim.KueueBenchmark;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The streaming reader keeps exactly what the model holds of identity, admission and conditions. */
class WorkloadJsonTest {

    private static final KubernetesSerialization JSON = new KubernetesSerialization();

    private static Workload admitted() {
        Workload w = BenchObjects.workload("ns-1", KueueBenchmark.BASELINE.streams().get(1), 1, 7);
        w.getMetadata().setResourceVersion("42");
        w.getMetadata().setGeneration(3L);
        PodSetAssignment psa = new PodSetAssignment();
        psa.setName("main");
        psa.setCount(1);
        psa.setFlavors(Map.of("cpu", "rf", "memory", "rf-mem"));
        psa.setResourceUsage(Map.of("cpu", new Quantity("1500m"), "memory", new Quantity("2Gi")));
        Admission a = new Admission();
        a.setClusterQueue("cq-0-1-cohort-0");
        a.setPodSetAssignments(List.of(psa));
        WorkloadStatus status = new WorkloadStatus();
        status.setAdmission(a);
        status.setConditions(List.of(
                new ConditionBuilder().withType("QuotaReserved").withStatus("True").withReason("QuotaReserved")
                        .withMessage("Quota reserved in ClusterQueue \"cq-0-1-cohort-0\"").withLastTransitionTime("2026-01-01T00:00:01Z")
                        .withObservedGeneration(3L).build(),
                new ConditionBuilder().withType("Admitted").withStatus("True").withReason("Admitted")
                        .withMessage("The workload is admitted").withLastTransitionTime("2026-01-01T00:00:01Z").build()));
        w.setStatus(status);
        return w;
    }

    @Test
    void aWorkloadReadsAsItsModelDoes() {
        Workload w = admitted();
        WorkloadView view = WorkloadJson.workload(JSON.asJson(w));
        assertThat(view).isEqualTo(WorkloadView.of(w));
        assertThat(view.key()).isEqualTo("ns-1/medium-1-7-0");
        assertThat(view.resourceVersion()).isEqualTo("42");
        assertThat(view.generation()).isEqualTo(3);
        assertThat(view.admission().podSets().get(0).usage())
                .containsEntry("cpu", new BigDecimal("1.5")).containsEntry("memory", new BigDecimal("2147483648"));
        assertThat(view.cpu()).isEqualTo(1.5);
        assertThat(view.isTrue("Admitted")).isTrue();
        assertThat(view.isTrue("Finished")).isFalse();
        assertThat(view.condition("QuotaReserved").message()).isEqualTo("Quota reserved in ClusterQueue \"cq-0-1-cohort-0\"");
    }

    @Test
    void withoutStatusThereIsNoAdmissionAndNoCondition() {
        Workload w = BenchObjects.workload("ns-1", KueueBenchmark.BASELINE.streams().get(0), 0, 0);
        WorkloadView view = WorkloadJson.workload(JSON.asJson(w));
        assertThat(view.admission()).isNull();
        assertThat(view.conditions()).isEmpty();
        assertThat(view).isEqualTo(WorkloadView.of(w));
    }

    @Test
    void anAdmissionClearedToNullReadsAsNone() {
        String json = JSON.asJson(admitted()).replaceFirst("\"admission\":\\{.*?\\]\\}", "\"admission\":null");
        assertThat(json).contains("\"admission\":null");
        assertThat(WorkloadJson.workload(json).admission()).isNull();
        assertThat(WorkloadJson.workload(json).conditions()).hasSize(2);
    }

    @Test
    void watchEventsAndListsCarryTheSameView() {
        Workload w = admitted();
        String object = JSON.asJson(w);
        WorkloadJson.Event e = WorkloadJson.event(LeanCrudDispatcher.event("MODIFIED", object));
        assertThat(e.type()).isEqualTo("MODIFIED");
        assertThat(e.isChange()).isTrue();
        assertThat(e.workload()).isEqualTo(WorkloadView.of(w));
        // fields in any order, as another server may write them
        WorkloadJson.Event reordered = WorkloadJson.event("{\"object\": " + object + ", \"type\": \"DELETED\"}");
        assertThat(reordered.type()).isEqualTo("DELETED");
        assertThat(reordered.workload()).isEqualTo(e.workload());

        List<WorkloadView> items = WorkloadJson.list("{\"apiVersion\":\"kueue.x-k8s.io/v1beta2\",\"items\":[" + object + ","
                + JSON.asJson(BenchObjects.workload("ns-2", KueueBenchmark.BASELINE.streams().get(0), 0, 1))
                + "],\"kind\":\"WorkloadList\",\"metadata\":{\"resourceVersion\":\"9\"}}");
        assertThat(items).extracting(WorkloadView::key).containsExactly("ns-1/medium-1-7-0", "ns-2/small-0-1-0");
    }

    @Test
    void anErrorEventIsNoChange() {
        WorkloadJson.Event e = WorkloadJson.event("{\"type\":\"ERROR\",\"object\":{\"kind\":\"Status\",\"apiVersion\":\"v1\","
                + "\"metadata\":{},\"status\":\"Failure\",\"message\":\"too old resource version\",\"code\":410}}");
        assertThat(e.isChange()).isFalse();
    }

    @Test
    void brokenTextIsReportedWithWhatWasRead() {
        assertThatThrownBy(() -> WorkloadJson.event("[1, 2]")).hasMessageContaining("bad watch event: [1, 2]");
        assertThatThrownBy(() -> WorkloadJson.workload("{\"metadata\": {\"name\": ")).hasMessageContaining("bad Workload");
    }
}
