package dev.sluice.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.api.v1beta2.ClusterQueue;
import dev.sluice.api.v1beta2.Cohort;
import dev.sluice.api.v1beta2.Workload;
import dev.sluice.apiserver.ApiServerRules;
import dev.sluice.app.ManagementEndpoint;
import dev.sluice.dashboard.HeadlessChromium;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import jakarta.inject.Inject;
import java.net.http.HttpResponse;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import org.junit.jupiter.api.Test;

/**
 * A replica that does not lead answers the dashboard from its own engine copy, rebuilt from the cluster as the
 * visibility API's standby answers are (Cohort pools included), and says on the page that it is a standby view (seen in
 * headless Chromium where it is installed; CI installs it).
 */
@QuarkusTest
@WithKubernetesTestServer(setup = ApiServerRules.class)
class StandbyDashboardTest {
    static final String NS = "standby-dash";
    private static final ObjectMapper JSON = new ObjectMapper();

    @Inject
    KubernetesClient client;

    @Inject
    ControllerRuntime runtime;

    @Test
    void aStandbyShowsItsRebuiltQueuesAndSaysSo() throws Exception {
        new Cluster(client).namespace(NS);
        await().atMost(Cluster.TIMEOUT).until(() -> runtime.role() == ControllerRuntime.Role.leading);
        takeLease("other-replica", ZonedDateTime.now(ZoneOffset.UTC), 3600);
        // the other replica renews as a leader does: this one judges expiry by its own lease duration
        java.util.concurrent.ScheduledExecutorService renewer = java.util.concurrent.Executors
                .newSingleThreadScheduledExecutor();
        renewer.scheduleAtFixedRate(() -> takeLease("other-replica", ZonedDateTime.now(ZoneOffset.UTC), 3600), 2, 2,
                java.util.concurrent.TimeUnit.SECONDS);
        try {
            await().atMost(Cluster.TIMEOUT).until(() -> runtime.role() == ControllerRuntime.Role.standby);
            // made while this replica stands by: only the leader (the other replica) would admit the Workload
            client.resource(Queues.flavor("standby-flavor", "{}")).create();
            client.resource(Queues.yaml(Cohort.class, """
                    apiVersion: kueue.x-k8s.io/v1beta2
                    kind: Cohort
                    metadata: {name: standby-org}
                    spec:
                      resourceGroups:
                      - coveredResources: [cpu]
                        flavors:
                        - name: standby-flavor
                          resources:
                          - {name: cpu, nominalQuota: "4"}
                    """)).create();
            client.resource(Queues.yaml(ClusterQueue.class, """
                    apiVersion: kueue.x-k8s.io/v1beta2
                    kind: ClusterQueue
                    metadata: {name: standby-cq}
                    spec:
                      cohortName: standby-org
                      namespaceSelector: {}
                      resourceGroups:
                      - coveredResources: [cpu]
                        flavors:
                        - name: standby-flavor
                          resources:
                          - {name: cpu, nominalQuota: "2"}
                    """)).create();
            client.resource(Queues.localQueue(NS, "jobs", "standby-cq")).create();
            client.resource(Queues.yaml(Workload.class, """
                    apiVersion: kueue.x-k8s.io/v1beta2
                    kind: Workload
                    metadata: {name: waits-on-standby, namespace: %s}
                    spec:
                      queueName: jobs
                      podSets:
                      - name: main
                        count: 1
                        template: {spec: {containers: [{name: c, image: busybox, resources: {requests: {cpu: "1"}}}]}}
                    """.formatted(NS))).create();

            JsonNode state = await().atMost(Cluster.TIMEOUT).until(this::state, s -> queue(s, "standby-cq") != null
                    && queue(s, "standby-cq").path("pendingWorkloads").size() == 1);
            assertThat(state.path("view").asText()).isEqualTo("standby");
            assertThat(state.path("viewNote").asText()).startsWith("Standby view: this replica does not lead");
            JsonNode cq = queue(state, "standby-cq");
            assertThat(cq.path("pendingWorkloads").get(0).path("name").asText()).isEqualTo("waits-on-standby");
            assertThat(cq.path("resources").get(0).path("nominal").asText()).isEqualTo("2");
            assertThat(cq.path("admitted").asInt()).isZero();
            JsonNode org = null;
            for (JsonNode c : state.path("cohorts")) {
                if (c.path("name").asText().equals("standby-org")) {
                    org = c;
                }
            }
            assertThat(org).as("the Cohort object in the standby's copy: " + state.path("cohorts")).isNotNull();
            assertThat(org.path("resources").get(0).path("nominal").asText()).as("its pool and the queue's quota")
                    .isEqualTo("6");
            assertThat(get("/dashboard/api/workload?namespace=" + NS + "&name=waits-on-standby").statusCode())
                    .isEqualTo(200);
            if (HeadlessChromium.available()) {
                // the page itself says so, above the queues it shows
                org.openqa.selenium.chrome.ChromeDriver browser = HeadlessChromium.start();
                try {
                    browser.get(ManagementEndpoint.uri("/dashboard/").toString());
                    HeadlessChromium.Wait wait = new HeadlessChromium.Wait(browser);
                    assertThat(wait.<String>until(b -> HeadlessChromium.text(b, "#view")))
                            .startsWith("Standby view: this replica does not lead");
                    assertThat(wait.<String>until(b -> HeadlessChromium.text(b,
                            "#cq-standby-cq tr.pending[data-workload='" + NS + "/waits-on-standby']")))
                            .contains("waits-on-standby");
                } finally {
                    browser.quit();
                }
            }
        } finally {
            renewer.shutdownNow();
            renewer.awaitTermination(10, java.util.concurrent.TimeUnit.SECONDS);
            takeLease("other-replica", ZonedDateTime.now(ZoneOffset.UTC).minusHours(2), 1);
        }
        // leading again: the live view, without the standby note
        await().atMost(Cluster.TIMEOUT).until(() -> runtime.role() == ControllerRuntime.Role.leading);
        JsonNode live = await().atMost(Cluster.TIMEOUT).until(this::state, s -> s.path("view").asText().equals("live"));
        assertThat(live.has("viewNote")).isFalse();
        client.resources(Workload.class).inNamespace(NS).withName("waits-on-standby").delete();
        client.resource(Queues.localQueue(NS, "jobs", "standby-cq")).delete();
    }

    private JsonNode state() throws Exception {
        HttpResponse<String> r = get("/dashboard/api/state");
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return JSON.readTree(r.body());
    }

    private static JsonNode queue(JsonNode state, String name) {
        for (JsonNode q : state.path("clusterQueues")) {
            if (q.path("name").asText().equals(name)) {
                return q;
            }
        }
        return null;
    }

    private static HttpResponse<String> get(String path) throws Exception {
        return ManagementEndpoint.get(path);
    }

    private void takeLease(String holder, ZonedDateTime renewed, int seconds) {
        client.leases().inNamespace("default").withName("sluice-controller").edit(lease -> {
            lease.getSpec().setHolderIdentity(holder);
            lease.getSpec().setAcquireTime(renewed);
            lease.getSpec().setRenewTime(renewed);
            lease.getSpec().setLeaseDurationSeconds(seconds);
            return lease;
        });
    }
}
