package dev.sluice.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.sluice.api.v1beta2.Workload;
import dev.sluice.sim.KueueBenchmark;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The driver's own Workload requests and watch against the benchmark's API server (with its shared watches, and with
 * fabric8's unchanged store): creation, every change in order, a status patch guarded by the resource version.
 */
class WorkloadWatchTest {

    private static final KubernetesSerialization JSON = new KubernetesSerialization();

    private static Workload workload(String ns, int i) {
        return BenchObjects.workload(ns, KueueBenchmark.BASELINE.streams().get(0), 0, i);
    }

    @ParameterizedTest(name = "indexed={0}")
    @ValueSource(booleans = {true, false})
    void theWatchSeesEveryChangeAndAStalePatchIsRefused(boolean indexed) throws Exception {
        try (LocalApiServer server = new LocalApiServer(indexed)) {
            for (String ns : List.of("a", "b")) {
                server.bench.resource(BenchObjects.namespace(ns)).create();
            }
            WorkloadApi api = new WorkloadApi(server.url);
            // one Workload exists before the watch opens: it arrives as ADDED
            assertThat(api.create("a", JSON.asJson(workload("a", 0))).get().statusCode()).isEqualTo(201);
            List<String> seen = new CopyOnWriteArrayList<>();
            try (WorkloadWatch watch = new WorkloadWatch(api, e -> seen.add(e.type() + " " + e.workload().key()
                    + (e.workload().isTrue("Finished") ? " finished" : "") + (e.workload().admission() == null ? "" : " admitted"))).start()) {
                await().atMost(Duration.ofSeconds(10)).until(() -> seen.contains("ADDED a/small-0-0-0"));
                assertThat(api.create("b", JSON.asJson(workload("b", 0))).get().statusCode()).isEqualTo(201);
                assertThat(api.create("b", JSON.asJson(workload("b", 0))).get().statusCode()).isEqualTo(409);

                WorkloadView b0 = api.get("b", "small-0-0-0");
                assertThat(b0.key()).isEqualTo("b/small-0-0-0");
                assertThat(api.get("b", "none")).isNull();

                // an admission, as the controller would write it (any status write will do)
                String admit = "[{\"op\":\"add\",\"path\":\"/status\",\"value\":{\"admission\":{\"clusterQueue\":\"cq\","
                        + "\"podSetAssignments\":[{\"name\":\"main\",\"flavors\":{\"cpu\":\"rf\"},\"resourceUsage\":{\"cpu\":\"1\"},\"count\":1}]},"
                        + "\"conditions\":[]}}]";
                assertThat(api.patchStatus("b", "small-0-0-0", admit) / 100).isEqualTo(2);
                WorkloadView admitted = api.get("b", "small-0-0-0");
                assertThat(admitted.admission().clusterQueue()).isEqualTo("cq");
                assertThat(admitted.resourceVersion()).isNotEqualTo(b0.resourceVersion());

                // the runner's patch, computed from the state before the admission: refused, nothing changes
                String finishStale = Runner.statusPatch(b0, true, Runner.set(b0, List.of(
                        Runner.condition(b0, "Finished", "True", "Succeeded", "done"))));
                assertThat(api.patchStatus("b", "small-0-0-0", finishStale)).isEqualTo(409);
                assertThat(api.get("b", "small-0-0-0")).isEqualTo(admitted);

                // from the current state it applies: conditions set, admission cleared
                String finish = Runner.statusPatch(admitted, true, Runner.set(admitted, List.of(
                        Runner.condition(admitted, "Finished", "True", "Succeeded", "done"))));
                assertThat(api.patchStatus("b", "small-0-0-0", finish) / 100).isEqualTo(2);
                WorkloadView done = api.get("b", "small-0-0-0");
                assertThat(done.admission()).isNull();
                assertThat(done.condition("Finished").reason()).isEqualTo("Succeeded");

                server.bench.resources(Workload.class).inNamespace("a").withName("small-0-0-0").delete();
                await().atMost(Duration.ofSeconds(10)).until(() -> seen.size() >= 5);
                assertThat(seen).containsExactly("ADDED a/small-0-0-0", "ADDED b/small-0-0-0", "MODIFIED b/small-0-0-0 admitted",
                        "MODIFIED b/small-0-0-0 finished", "DELETED a/small-0-0-0");
                assertThat(watch.events()).isEqualTo(5);
            }
        }
    }
}
