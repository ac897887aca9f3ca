package dev.sluice.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.sluice.sim.KueueBenchmark;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The runner against the benchmark's API server, fed by the driver's watch: an admitted Workload is finished after
 * its runtime, an evicted one has its reservation released; the auditor, fed by the same watch, sees no violation.
 */
class RunnerTest {

    private static final KubernetesSerialization JSON = new KubernetesSerialization();

    /** What the controller writes to admit a Workload into cq-0-0-cohort-0 (quota reserved at {@code at}). */
    private static String admit(String at) {
        return "[{\"op\":\"add\",\"path\":\"/status\",\"value\":{\"admission\":{\"clusterQueue\":\"cq-0-0-cohort-0\","
                + "\"podSetAssignments\":[{\"name\":\"main\",\"flavors\":{\"cpu\":\"rf\"},\"resourceUsage\":{\"cpu\":\"5\"},\"count\":1}]},"
                + "\"conditions\":[" + condition("QuotaReserved", "True", at) + "," + condition("Admitted", "True", at) + "]}}]";
    }

    private static String condition(String type, String status, String at) {
        return "{\"type\":\"" + type + "\",\"status\":\"" + status + "\",\"reason\":\"" + type + "\",\"message\":\"m\","
                + "\"lastTransitionTime\":\"" + at + "\"}";
    }

    @Test
    void admittedWorkloadsFinishAndEvictedOnesAreReleased() throws Exception {
        try (LocalApiServer server = new LocalApiServer(true)) {
            server.bench.resource(BenchObjects.namespace("cq-0-0-cohort-0")).create();
            BenchObjects.Planned quick = BenchObjects.planned("cq-0-0-cohort-0", KueueBenchmark.BASELINE, 1, 0, 50);
            BenchObjects.Planned slow = BenchObjects.planned("cq-0-0-cohort-0", KueueBenchmark.BASELINE, 1, 1, 600_000);
            WorkloadApi api = new WorkloadApi(server.url);
            QuotaAudit audit = new QuotaAudit();
            audit.clusterQueue(BenchObjects.clusterQueue("cq-0-0-cohort-0"));
            try (Runner runner = new Runner(api, List.of(quick, slow), System.nanoTime());
                 WorkloadWatch watch = new WorkloadWatch(api, e -> {
                     if ("DELETED".equals(e.type())) {
                         audit.deleted(e.workload().key());
                     } else {
                         audit.workload(e.workload().key(), e.workload());
                     }
                     runner.changed(e);
                 }).start()) {
                for (BenchObjects.Planned p : List.of(quick, slow)) {
                    runner.created(p.key(), runner.now());
                    assertThat(api.create("cq-0-0-cohort-0", JSON.asJson(p.workload())).get().statusCode()).isEqualTo(201);
                }
                assertThat(api.patchStatus("cq-0-0-cohort-0", "medium-1-0-0", admit("2026-01-01T00:00:01Z")) / 100).isEqualTo(2);
                assertThat(api.patchStatus("cq-0-0-cohort-0", "medium-1-1-0", admit("2026-01-01T00:00:01Z")) / 100).isEqualTo(2);

                await().atMost(Duration.ofSeconds(10)).until(() -> runner.finished() == 1);
                WorkloadView finished = api.get("cq-0-0-cohort-0", "medium-1-0-0");
                assertThat(finished.condition("Finished")).satisfies(c -> {
                    assertThat(c.status()).isEqualTo("True");
                    assertThat(c.reason()).isEqualTo("Succeeded");
                });
                assertThat(finished.admission()).as("a finished Workload keeps its admission").isNotNull();
                assertThat(runner.seen().get(quick.key()).firstAdmittedAt).isNotNegative();

                // the slow one is evicted by the controller before it finishes
                WorkloadView running = api.get("cq-0-0-cohort-0", "medium-1-1-0");
                String evict = "[{\"op\":\"add\",\"path\":\"/status/conditions/-\",\"value\":"
                        + condition("Evicted", "True", "2026-01-01T00:00:02Z") + "}]";
                assertThat(api.patchStatus("cq-0-0-cohort-0", running.name(), evict) / 100).isEqualTo(2);
                await().atMost(Duration.ofSeconds(10)).until(() -> {
                    WorkloadView wl = api.get("cq-0-0-cohort-0", "medium-1-1-0");
                    return wl.admission() == null && wl.isTrue("Requeued");
                });
                WorkloadView released = api.get("cq-0-0-cohort-0", "medium-1-1-0");
                assertThat(released.condition("QuotaReserved").status()).isEqualTo("False");
                assertThat(released.condition("Admitted").status()).isEqualTo("False");
                assertThat(runner.releases()).isEqualTo(1);
                assertThat(runner.finished()).isEqualTo(1);
                assertThat(runner.writeErrors()).isZero();

                await().atMost(Duration.ofSeconds(10)).until(() -> audit.usage("cq-0-0-cohort-0", "rf", "cpu").signum() == 0);
                assertThat(audit.violations()).isEmpty();
                assertThat(audit.notFinished(List.of(quick.key(), slow.key()))).containsExactly(slow.key() + " (not finished)");
                // the report of one left unfinished tells its versions in the order seen: admitted, evicted, released
                assertThat(runner.lastSeen(slow.key())).containsSubsequence("its versions as seen",
                        "QuotaReserved=True", "Evicted=True", "Requeued=True");
            }
        }
    }
}
