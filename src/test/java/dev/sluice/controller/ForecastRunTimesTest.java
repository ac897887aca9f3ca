package dev.sluice.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.sluice.api.v1beta2.Workload;
import dev.sluice.apiserver.ApiServerRules;
import dev.sluice.controller.session.FinishedRuns;
import dev.sluice.engine.WorkloadKey;
import dev.sluice.forecast.Basis;
import dev.sluice.forecast.Forecast;
import dev.sluice.forecast.ForecastService;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The forecast learns run times from the controller as Workloads finish (it no longer walks every cached Workload to
 * find them): a finished run is told once, whatever else happens to the finished Workload, and is what the forecast
 * expects of the next one in its LocalQueue; a new term tells the stored runs that finished after those told before it
(under another leader), not the whole history again.
 */
@QuarkusTest
@WithKubernetesTestServer(setup = ApiServerRules.class)
class ForecastRunTimesTest {

    static final String NS = "forecast-runs";
    static final long RUN_MILLIS = 90_000;

    @Inject
    KubernetesClient client;
    @Inject
    ForecastService forecasts;
    @Inject
    ControllerRuntime runtime;

    @Test
    void aFinishedRunIsToldOnceAndForecastsTheNextOne() throws Exception {
        Cluster cluster = new Cluster(client);
        cluster.namespace(NS);
        client.resource(Queues.flavor("runs-flavor", "{}")).create();
        client.resource(Queues.cpuQueue("runs-cq", "runs-flavor", "1", "{}")).create();
        client.resource(Queues.localQueue(NS, "jobs", "runs-cq")).create();

        Workload first = client.resource(bare("first")).create();
        cluster.awaitWorkload(first, Cluster::admitted);
        Workload second = client.resource(bare("second")).create();
        cluster.awaitWorkload(second, w -> Cluster.isFalse(w, "QuotaReserved", "WaitingForQuota"));

        // the runner finishes the first one, 90 s after the engine admitted it
        long firstAdmitted = admittedAt(key("first"));
        long finishedAt = firstAdmitted + RUN_MILLIS;
        setCondition("first", "Finished", "Succeeded", Instant.ofEpochMilli(finishedAt));
        cluster.awaitWorkload(second, Cluster::admitted);
        Workload third = client.resource(bare("third")).create();
        cluster.awaitWorkload(third, w -> Cluster.isFalse(w, "QuotaReserved", "WaitingForQuota"));

        forecasts.runOnce();
        Forecast f = forecasts.latest().forecasts().get(key("third"));
        assertThat(f.basis()).isEqualTo(Basis.history);
        assertThat(f.startAtMillis()).as("the second runs as long as the first did")
                .isEqualTo(admittedAt(key("second")) + RUN_MILLIS);

        // later changes of the finished Workload tell nothing again
        client.resources(Workload.class).inNamespace(NS).withName("first")
                .edit(w -> {
                    w.getMetadata().setLabels(Map.of("touched", "yes"));
                    return w;
                });
        setCondition("first", "Touched", "ByATest", Instant.now());
        await().atMost(Cluster.TIMEOUT).until(() -> runtime.read(st -> st.workload(key("first"))
                .map(w -> w.getMetadata().getLabels().containsKey("touched")
                        && Cluster.isTrue(w, "Touched")).orElse(false)).get(5, TimeUnit.SECONDS));
        assertThat(runsHere()).isEmpty();

        // one that ran and finished under another leader (its LocalQueue is gone from here): stored as such
        Workload elsewhere = client.resource(Queues.bareWorkload(NS, "elsewhere", "other", "1")).create();
        cluster.awaitWorkload(elsewhere, w -> Cluster.condition(w, "QuotaReserved") != null);
        Instant reservedAt = Instant.ofEpochMilli(finishedAt + 10_000);
        client.resources(Workload.class).inNamespace(NS).withName("elsewhere").editStatus(w -> {
            w.getStatus().setAdmission(admission("runs-cq"));
            w.getStatus().setConditions(List.of(condition("QuotaReserved", "QuotaReserved", reservedAt),
                    condition("Admitted", "Admitted", reservedAt),
                    condition("Finished", "Succeeded", reservedAt.plusMillis(50_000))));
            return w;
        });
        await().atMost(Cluster.TIMEOUT).until(() -> runtime.read(st -> st.workload(key("elsewhere"))
                .map(w -> Cluster.isTrue(w, "Finished")).orElse(false)).get(5, TimeUnit.SECONDS));
        assertThat(runsHere()).as("never admitted here: no run told").isEmpty();

        // a new term tells the stored run that finished after those told before it, and not the first one again
        assertThat(runtime.restart(Duration.ofSeconds(30))).isTrue();
        assertThat(runsHere()).containsExactly(new FinishedRuns.Run(NS, "other", 0, 50_000));
    }

    private static dev.sluice.api.v1beta2.Admission admission(String clusterQueue) {
        var psa = new dev.sluice.api.v1beta2.PodSetAssignment();
        psa.setName("main");
        psa.setCount(1);
        psa.setFlavors(java.util.Map.of("cpu", "runs-flavor"));
        psa.setResourceUsage(java.util.Map.of("cpu", new io.fabric8.kubernetes.api.model.Quantity("1")));
        var a = new dev.sluice.api.v1beta2.Admission();
        a.setClusterQueue(clusterQueue);
        a.setPodSetAssignments(List.of(psa));
        return a;
    }

    private static io.fabric8.kubernetes.api.model.Condition condition(String type, String reason, Instant at) {
        return new ConditionBuilder().withType(type).withStatus("True").withReason(reason).withMessage(reason)
                .withLastTransitionTime(at.toString()).build();
    }

    /** Takes the runs told since the last take and keeps those of this test's namespace. */
    private List<FinishedRuns.Run> runsHere() throws Exception {
        return runtime.read(st -> {
            List<FinishedRuns.Run> runs = new ArrayList<>();
            st.takeFinishedRuns(r -> {
                if (NS.equals(r.namespace())) {
                    runs.add(r);
                }
            });
            return runs;
        }).get(5, TimeUnit.SECONDS);
    }

    private long admittedAt(WorkloadKey key) throws Exception {
        return runtime.read(st -> st.engine().workload(key).orElseThrow().admittedAtMillis()).get(5, TimeUnit.SECONDS);
    }

    private void setCondition(String name, String type, String reason, Instant at) {
        Cluster.setCondition(client, NS, name, new ConditionBuilder().withType(type).withStatus("True")
                .withReason(reason).withMessage(reason).withLastTransitionTime(at.toString()).build());
    }

    private static WorkloadKey key(String name) {
        return new WorkloadKey(NS, name);
    }

    private static Workload bare(String name) {
        return Queues.bareWorkload(NS, name, "jobs", "1");
    }
}
