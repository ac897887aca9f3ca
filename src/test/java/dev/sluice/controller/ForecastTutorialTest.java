package dev.sluice.controller;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.api.v1beta2.ClusterQueue;
import dev.sluice.api.v1beta2.LocalQueue;
import dev.sluice.api.v1beta2.ResourceFlavor;
import dev.sluice.api.v1beta2.Workload;
import dev.sluice.engine.WorkloadKey;
import dev.sluice.engine.WorkloadState;
import dev.sluice.forecast.Basis;
import dev.sluice.forecast.Forecast;
import dev.sluice.forecast.ForecastService;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import dev.sluice.apiserver.ApiServerRules;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The forecast on the GKE multislice tutorial: with 3slice expected to run 10 minutes, 1slice and 2slice are forecast
 * to start exactly when those 10 minutes end, the Workloads say so for kubectl describe, and forecasting changes
 * nothing the engine decided.
 */
@QuarkusTest
@WithKubernetesTestServer(setup = ApiServerRules.class)
class ForecastTutorialTest {
    static final String NS = "forecast";

    @Inject
    KubernetesClient client;
    @Inject
    ForecastService forecasts;
    @Inject
    ControllerRuntime runtime;

    @Test
    void waitingJobSetsStartWhenThreeSlicesExpectedDurationEnds() throws Exception {
        Cluster cluster = new Cluster(client);
        cluster.namespace(NS);
        // the seed's queue objects under names of their own (other tests apply the seed as it is)
        for (HasMetadata loaded : cluster.load("/seeds/gke-multislice/kueue.yaml")) {
            String yaml = io.fabric8.kubernetes.client.utils.Serialization.asYaml(loaded);
            Class<? extends HasMetadata> type = switch (loaded.getKind()) {
                case "ResourceFlavor" -> ResourceFlavor.class;
                case "ClusterQueue" -> ClusterQueue.class;
                default -> LocalQueue.class;
            };
            HasMetadata o = io.fabric8.kubernetes.client.utils.Serialization.unmarshal(yaml, type);
            if (o instanceof ResourceFlavor rf) {
                rf.getMetadata().setName("forecast-vlp-24");
                client.resource(rf).create();
            } else if (o instanceof ClusterQueue cq) {
                cq.getMetadata().setName("forecast-cq");
                cq.getSpec().getResourceGroups().get(0).getFlavors().get(0).setName("forecast-vlp-24");
                client.resource(cq).create();
            } else if (o instanceof LocalQueue lq) {
                lq.getMetadata().setNamespace(NS);
                lq.getSpec().setClusterQueue("forecast-cq");
                client.resource(lq).create();
            }
        }
        List<HasMetadata> jobSets = cluster.load("/seeds/gke-multislice/jobsets-multislice-autopilot.yaml");
        HasMetadata threeSlice = jobSets.get(2);
        threeSlice.getMetadata().getAnnotations().put("sluice.dev/expected-duration", "10m");
        cluster.create(NS, List.of(threeSlice));
        Workload wl3 = cluster.awaitWorkload(cluster.jobSet(NS, "multislice-3slice"), Cluster::admitted);
        cluster.create(NS, List.of(jobSets.get(0), jobSets.get(1)));
        Workload wl1 = cluster.awaitWorkload(cluster.jobSet(NS, "multislice-1slice"), w -> Cluster.isFalse(w, "QuotaReserved", "WaitingForQuota"));
        Workload wl2 = cluster.awaitWorkload(cluster.jobSet(NS, "multislice-2slice"), w -> Cluster.isFalse(w, "QuotaReserved", "WaitingForQuota"));
        List<WorkloadKey> keys = List.of(key(wl3), key(wl1), key(wl2));
        Map<WorkloadKey, WorkloadState> before = states(keys);
        List<WorkloadKey> orderBefore = order();

        forecasts.runOnce();

        long threeAdmittedAt = before.get(key(wl3)).admittedAtMillis();
        ForecastService.Published p = forecasts.latest();
        Forecast f1 = p.forecasts().get(key(wl1));
        Forecast f2 = p.forecasts().get(key(wl2));
        assertThat(f1.startAtMillis()).isEqualTo(threeAdmittedAt + 600_000);
        assertThat(f2.startAtMillis()).isEqualTo(threeAdmittedAt + 600_000);
        assertThat(f1.basis()).isEqualTo(Basis.annotation);
        assertThat(List.of(f1.position(), f2.position())).containsExactlyInAnyOrder(0, 1);
        assertThat(f1.clusterQueue()).isEqualTo("forecast-cq");

        // kubectl describe shows it: an annotation on each waiting Workload
        String text = annotation(wl1);
        assertThat(text).matches("expected to start in about (9|10) min \\(\\d\\d:\\d\\d UTC, from the expected-duration"
                + " annotations\\), (1st|2nd) in ClusterQueue forecast-cq");
        assertThat(annotation(wl2)).contains("in ClusterQueue forecast-cq");
        assertThat(annotation(wl3)).isNull();

        // the forecast changed nothing the engine holds
        assertThat(states(keys)).isEqualTo(before);
        assertThat(order()).isEqualTo(orderBefore);
        assertThat(cluster.workloadOf(cluster.jobSet(NS, "multislice-1slice")).getStatus().getAdmission()).isNull();
        assertThat(p.cpuNanos()).isPositive();
        // a second run right after writes nothing new: the forecast did not move
        String rv = cluster.workloadOf(cluster.jobSet(NS, "multislice-1slice")).getMetadata().getResourceVersion();
        forecasts.runOnce();
        assertThat(cluster.workloadOf(cluster.jobSet(NS, "multislice-1slice")).getMetadata().getResourceVersion()).isEqualTo(rv);
    }

    private String annotation(Workload wl) {
        Workload now = client.resources(Workload.class).inNamespace(NS).withName(wl.getMetadata().getName()).get();
        return now.getMetadata().getAnnotations() == null ? null
                : now.getMetadata().getAnnotations().get(ForecastService.ANNOTATION);
    }

    private static WorkloadKey key(Workload wl) {
        return new WorkloadKey(wl.getMetadata().getNamespace(), wl.getMetadata().getName());
    }

    private Map<WorkloadKey, WorkloadState> states(List<WorkloadKey> keys) throws Exception {
        return runtime.read(st -> {
            Map<WorkloadKey, WorkloadState> m = new HashMap<>();
            keys.forEach(k -> m.put(k, st.engine().workload(k).orElseThrow()));
            return m;
        }).get(5, TimeUnit.SECONDS);
    }

    private List<WorkloadKey> order() throws Exception {
        return runtime.read(st -> new ArrayList<>(st.engine().pendingOrder("forecast-cq"))).get(5, TimeUnit.SECONDS);
    }
}
