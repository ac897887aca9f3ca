package dev.sluice.visibility;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.api.v1beta2.ClusterQueue;
import dev.sluice.api.v1beta2.LocalQueue;
import dev.sluice.api.v1beta2.ResourceFlavor;
import dev.sluice.api.v1beta2.Workload;
import dev.sluice.controller.ControllerRuntime;
import dev.sluice.engine.WorkloadKey;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.quarkus.test.kubernetes.client.KubernetesServer;
import io.fabric8.kubernetes.client.utils.Serialization;
import dev.sluice.apiserver.ApiServerRules;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.KubernetesTestServer;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import jakarta.inject.Inject;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The visibility API end to end: HTTPS with the front proxy's client certificate, the user from its headers, a
 * SubjectAccessReview per request, and positions from the live engine's order.
 */
@QuarkusTest
@WithKubernetesTestServer(setup = ApiServerRules.class)
class VisibilityApiTest {
    static final String V2 = "/apis/visibility.kueue.x-k8s.io/v1beta2";
    static final ObjectMapper JSON = new ObjectMapper();
    static FrontProxy proxy;
    static boolean ready;
    /** SubjectAccessReviews the test API server was asked, as JSON. */
    static final List<JsonNode> reviews = new ArrayList<>();

    @Inject
    KubernetesClient client;
    @Inject
    VisibilityServer server;
    @Inject
    ControllerRuntime runtime;
    @Inject
    dev.sluice.forecast.ForecastService forecasts;
    @KubernetesTestServer
    KubernetesServer mock;

    @BeforeEach
    void setUp() throws Exception {
        if (ready) {
            return;
        }
        proxy = new FrontProxy("front-proxy-client");
        namespace("kube-system");
        client.configMaps().inNamespace("kube-system").resource(new ConfigMapBuilder().withNewMetadata()
                .withName("extension-apiserver-authentication").endMetadata()
                .addToData("requestheader-client-ca-file", proxy.caPem())
                .addToData("requestheader-allowed-names", "[\"front-proxy-client\"]")
                .addToData("requestheader-username-headers", "[\"X-Remote-User\"]")
                .addToData("requestheader-group-headers", "[\"X-Remote-Group\"]")
                .addToData("requestheader-extra-headers-prefix", "[\"X-Remote-Extra-\"]").build()).create();
        // the authorizer: alice may see everything; bob only LocalQueues of namespace team-b
        mock.expect().post().withPath("/apis/authorization.k8s.io/v1/subjectaccessreviews").andReply(201, req -> {
            try {
                JsonNode sar = JSON.readTree(req.getBody().readUtf8());
                synchronized (reviews) {
                    reviews.add(sar);
                }
                JsonNode spec = sar.get("spec");
                JsonNode ra = spec.get("resourceAttributes");
                boolean allowed = spec.get("user").asText().equals("alice")
                        || (spec.get("user").asText().equals("bob") && ra.has("namespace")
                        && ra.get("namespace").asText().equals("team-b"));
                ((com.fasterxml.jackson.databind.node.ObjectNode) sar).putObject("status").put("allowed", allowed)
                        .put("reason", allowed ? "test policy allows" : "test policy denies");
                return sar;
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }).always();

        namespace("team-a");
        namespace("team-b");
        apply(ResourceFlavor.class, "{apiVersion: kueue.x-k8s.io/v1beta1, kind: ResourceFlavor, metadata: {name: vis-f}}");
        apply(ClusterQueue.class, """
                {apiVersion: kueue.x-k8s.io/v1beta1, kind: ClusterQueue, metadata: {name: vis-cq},
                 spec: {namespaceSelector: {}, queueingStrategy: BestEffortFIFO, resourceGroups: [{coveredResources: [cpu],
                   flavors: [{name: vis-f, resources: [{name: cpu, nominalQuota: "1"}]}]}]}}""");
        apply(LocalQueue.class, "{apiVersion: kueue.x-k8s.io/v1beta1, kind: LocalQueue, metadata: {name: lq, namespace: team-a}, spec: {clusterQueue: vis-cq}}");
        apply(LocalQueue.class, "{apiVersion: kueue.x-k8s.io/v1beta1, kind: LocalQueue, metadata: {name: lq, namespace: team-b}, spec: {clusterQueue: vis-cq}}");
        workload("team-a", "running", 1000);
        await().atMost(Duration.ofSeconds(30)).until(() -> admitted("team-a", "running"));
        // mixed priorities over two LocalQueues of the same name in two namespaces
        workload("team-a", "a-low", 0);
        workload("team-b", "b-high", 100);
        workload("team-a", "a-mid", 50);
        workload("team-b", "b-low", 0);
        workload("team-a", "a-high", 100);
        await().atMost(Duration.ofSeconds(30)).until(() -> engineOrder().size() == 5);
        ready = true;
    }

    @Test
    void discoveryDocumentsAsAnAggregatedServer() throws Exception {
        JsonNode list = ok(proxy.get(port(), "/apis", "carol"));
        assertThat(list.get("kind").asText()).isEqualTo("APIGroupList");
        JsonNode group = list.get("groups").get(0);
        assertThat(group.get("name").asText()).isEqualTo("visibility.kueue.x-k8s.io");
        assertThat(group.get("preferredVersion").get("version").asText()).isEqualTo("v1beta2");
        assertThat(group.get("versions").findValuesAsText("version")).containsExactly("v1beta2", "v1beta1");
        JsonNode resources = ok(proxy.get(port(), "/apis/visibility.kueue.x-k8s.io/v1beta1", "carol"));
        assertThat(resources.get("groupVersion").asText()).isEqualTo("visibility.kueue.x-k8s.io/v1beta1");
        assertThat(resources.get("resources").findValuesAsText("name")).containsExactly("clusterqueues",
                "clusterqueues/pendingworkloads", "localqueues", "localqueues/pendingworkloads");
    }

    @Test
    void clusterQueueListFollowsTheEngineOrder() throws Exception {
        List<WorkloadKey> order = engineOrder();
        // higher priority first; within one priority the older first (the test server stamps whole seconds)
        assertThat(order.subList(0, 2)).extracting(WorkloadKey::name).containsExactlyInAnyOrder("a-high", "b-high");
        assertThat(order.get(2).name()).isEqualTo("a-mid");
        assertThat(order).extracting(WorkloadKey::name).containsSubsequence("a-mid", "a-low").hasSize(5);
        JsonNode summary = ok(proxy.get(port(), V2 + "/clusterqueues/vis-cq/pendingworkloads", "alice"));
        assertThat(summary.get("kind").asText()).isEqualTo("PendingWorkloadsSummary");
        assertThat(summary.get("apiVersion").asText()).isEqualTo("visibility.kueue.x-k8s.io/v1beta2");
        JsonNode items = summary.get("items");
        assertThat(items).hasSize(5);
        for (int i = 0; i < order.size(); i++) {
            JsonNode item = items.get(i);
            assertThat(item.get("metadata").get("name").asText()).isEqualTo(order.get(i).name());
            assertThat(item.get("metadata").get("namespace").asText()).isEqualTo(order.get(i).namespace());
            assertThat(item.get("positionInClusterQueue").asInt()).isEqualTo(i);
            assertThat(item.get("localQueueName").asText()).isEqualTo("lq");
            assertThat(item.get("metadata").get("creationTimestamp").asText()).isNotEmpty();
        }
        // each LocalQueue (namespace and name) counts its own positions
        for (String ns : List.of("team-a", "team-b")) {
            int expected = 0;
            for (JsonNode item : items) {
                if (item.get("metadata").get("namespace").asText().equals(ns)) {
                    assertThat(item.get("positionInLocalQueue").asInt()).isEqualTo(expected++);
                }
            }
        }
        assertThat(items.get(0).get("priority").asInt()).isEqualTo(100);
        // paging keeps the positions
        JsonNode page = ok(proxy.get(port(), V2 + "/clusterqueues/vis-cq/pendingworkloads?limit=2&offset=3", "alice"));
        assertThat(page.get("items").findValuesAsText("name")).containsExactly(order.get(3).name(), order.get(4).name());
        assertThat(page.get("items").get(0).get("positionInClusterQueue").asInt()).isEqualTo(3);
        // v1beta1 answers the same list in its own apiVersion
        JsonNode v1 = ok(proxy.get(port(), "/apis/visibility.kueue.x-k8s.io/v1beta1/clusterqueues/vis-cq/pendingworkloads?limit=1", "alice"));
        assertThat(v1.get("apiVersion").asText()).isEqualTo("visibility.kueue.x-k8s.io/v1beta1");
        assertThat(v1.get("items").findValuesAsText("name")).containsExactly(order.get(0).name());
    }

    @Test
    void theForecastRidesOnEachItemAsAnnotations() throws Exception {
        forecasts.runOnce();
        JsonNode items = ok(proxy.get(port(), V2 + "/clusterqueues/vis-cq/pendingworkloads?limit=2", "alice")).get("items");
        // nothing here says how long "running" runs: the forecast says so instead of guessing
        JsonNode first = items.get(0).get("metadata").get("annotations");
        assertThat(first.get("sluice.dev/forecast-basis").asText()).isEqualTo("unknown");
        assertThat(first.has("sluice.dev/expected-start")).isFalse();
        assertThat(first.get("sluice.dev/forecast").asText()).isEqualTo(
                "start time unknown (no expected run time for the workloads ahead), 1st in ClusterQueue vis-cq");
        assertThat(items.get(1).get("metadata").get("annotations").get("sluice.dev/forecast").asText())
                .endsWith("2nd in ClusterQueue vis-cq");
    }

    @Test
    void localQueueListIsItsNamespaceOnly() throws Exception {
        List<WorkloadKey> order = engineOrder();
        JsonNode items = ok(proxy.get(port(), V2 + "/namespaces/team-b/localqueues/lq/pendingworkloads", "bob")).get("items");
        List<WorkloadKey> teamB = order.stream().filter(k -> k.namespace().equals("team-b")).toList();
        assertThat(items.findValuesAsText("name")).containsExactlyElementsOf(teamB.stream().map(WorkloadKey::name).toList());
        assertThat(items.get(1).get("positionInLocalQueue").asInt()).isEqualTo(1);
        assertThat(items.get(1).get("positionInClusterQueue").asInt()).isEqualTo(order.indexOf(teamB.get(1)));
        JsonNode second = ok(proxy.get(port(), V2 + "/namespaces/team-b/localqueues/lq/pendingworkloads?offset=1", "bob"));
        assertThat(second.get("items").findValuesAsText("name")).containsExactly(teamB.get(1).name());
        assertThat(second.get("items").get(0).get("positionInLocalQueue").asInt()).isEqualTo(1);
    }

    @Test
    void aStandbyRebuildsTheSameOrderFromTheCluster() throws Exception {
        // what a replica that does not lead answers: an engine rebuilt from the API server, as on taking over
        StandbyState.Snapshot standby = new StandbyState(client, () -> dev.sluice.engine.FairSharing.OFF,
                () -> dev.sluice.engine.AdmissionFairSharing.OFF).current();
        PendingQuery q = new PendingQuery("v1beta2", null, "vis-cq", 0, 1000);
        Map<String, Object> fromStandby = PendingSummaries.read(standby.engine(), standby::workload, q,
                PendingSummaries.Annotator.NONE).body();
        JsonNode live = ok(proxy.get(port(), V2 + "/clusterqueues/vis-cq/pendingworkloads", "alice"));
        // the leader adds its forecast; a standby forecasts nothing
        live.get("items").forEach(i -> ((com.fasterxml.jackson.databind.node.ObjectNode) i.get("metadata")).remove("annotations"));
        assertThat((JsonNode) JSON.valueToTree(fromStandby)).isEqualTo(live);
        assertThat(standby.engine().pendingOrder("vis-cq")).isEqualTo(engineOrder());
    }

    @Test
    void aUserWithoutTheRightIsDenied() throws Exception {
        HttpResponse<String> r = proxy.get(port(), V2 + "/namespaces/team-a/localqueues/lq/pendingworkloads", "bob", "devs");
        assertThat(r.statusCode()).isEqualTo(403);
        JsonNode status = JSON.readTree(r.body());
        assertThat(status.get("kind").asText()).isEqualTo("Status");
        assertThat(status.get("reason").asText()).isEqualTo("Forbidden");
        assertThat(status.get("message").asText()).contains("User \"bob\" cannot get resource "
                + "\"localqueues/pendingworkloads\" in API group \"visibility.kueue.x-k8s.io\" in the namespace \"team-a\"");
        assertThat(proxy.get(port(), V2 + "/clusterqueues/vis-cq/pendingworkloads", "bob").statusCode()).isEqualTo(403);
        // the review asked about exactly this request, for this user and group
        synchronized (reviews) {
            assertThat(reviews).anySatisfy(sar -> {
                JsonNode spec = sar.get("spec");
                assertThat(spec.get("user").asText()).isEqualTo("bob");
                assertThat(spec.get("groups").findValuesAsText("groups")).isEmpty();
                assertThat(spec.get("groups").get(0).asText()).isEqualTo("devs");
                JsonNode ra = spec.get("resourceAttributes");
                assertThat(ra.get("verb").asText()).isEqualTo("get");
                assertThat(ra.get("group").asText()).isEqualTo("visibility.kueue.x-k8s.io");
                assertThat(ra.get("resource").asText()).isEqualTo("localqueues");
                assertThat(ra.get("subresource").asText()).isEqualTo("pendingworkloads");
                assertThat(ra.get("name").asText()).isEqualTo("lq");
                assertThat(ra.get("namespace").asText()).isEqualTo("team-a");
            });
        }
    }

    @Test
    void onlyTheFrontProxyMayCall() throws Exception {
        // no client certificate
        HttpResponse<String> none = FrontProxy.send(FrontProxy.anonymous(), port(), V2 + "/clusterqueues/vis-cq/pendingworkloads", "alice");
        assertThat(none.statusCode()).isEqualTo(401);
        assertThat(none.body()).contains("no client certificate");
        // a certificate from another CA, and one of the right CA with a name not allowed
        assertThat(new FrontProxy("front-proxy-client").get(port(), V2 + "/clusterqueues/vis-cq/pendingworkloads", "alice")
                .body()).contains("not signed by the requestheader client CA");
        // the right certificate but no user named
        HttpResponse<String> noUser = proxy.get(port(), V2 + "/clusterqueues/vis-cq/pendingworkloads", null);
        assertThat(noUser.statusCode()).isEqualTo(401);
        assertThat(noUser.body()).contains("named no user");
    }

    @Test
    void badRequestsGetApiServerStatuses() throws Exception {
        HttpResponse<String> negative = proxy.get(port(), V2 + "/clusterqueues/vis-cq/pendingworkloads?limit=-5", "alice");
        assertThat(negative.statusCode()).isEqualTo(400);
        JsonNode st = JSON.readTree(negative.body());
        assertThat(st.get("reason").asText()).isEqualTo("BadRequest");
        assertThat(st.get("code").asInt()).isEqualTo(400);
        assertThat(st.get("message").asText()).contains("limit=-5");
        assertThat(proxy.get(port(), V2 + "/clusterqueues/vis-cq/pendingworkloads?limit=1000000", "alice").statusCode())
                .isEqualTo(400);
        assertThat(proxy.get(port(), V2 + "/clusterqueues/vis-cq/pendingworkloads?offset=x", "alice").statusCode())
                .isEqualTo(400);
        HttpResponse<String> missing = proxy.get(port(), V2 + "/clusterqueues/no-such-cq/pendingworkloads", "alice");
        assertThat(missing.statusCode()).isEqualTo(404);
        assertThat(JSON.readTree(missing.body()).get("message").asText())
                .isEqualTo("clusterqueue.visibility.kueue.x-k8s.io \"no-such-cq\" not found");
        assertThat(proxy.get(port(), V2 + "/namespaces/team-a/localqueues/nope/pendingworkloads", "alice").statusCode())
                .isEqualTo(404);
    }

    private int port() {
        return server.actualPort();
    }

    private List<WorkloadKey> engineOrder() throws Exception {
        List<WorkloadKey> o = runtime.read(s -> s.engine().pendingOrder("vis-cq")).get(5, TimeUnit.SECONDS);
        return o == null ? List.of() : o;
    }

    private static JsonNode ok(HttpResponse<String> r) throws Exception {
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return JSON.readTree(r.body());
    }

    private boolean admitted(String ns, String name) {
        Workload w = client.resources(Workload.class).inNamespace(ns).withName(name).get();
        return w != null && w.getStatus() != null && w.getStatus().getAdmission() != null;
    }

    private void namespace(String name) {
        if (client.namespaces().withName(name).get() == null) {
            client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(name).endMetadata().build()).create();
        }
    }

    private <T extends HasMetadata> void apply(Class<T> type, String yaml) {
        client.resource(Serialization.unmarshal("---\n" + yaml, type)).create(); // YAML, not JSON
    }

    private void workload(String ns, String name, int priority) {
        apply(Workload.class, """
                {apiVersion: kueue.x-k8s.io/v1beta1, kind: Workload, metadata: {name: %s, namespace: %s},
                 spec: {queueName: lq, priority: %d, podSets: [{name: main, count: 1, template: {spec: {containers: [
                   {name: c, image: busybox, resources: {requests: {cpu: "1"}}}]}}}]}}""".formatted(name, ns, priority));
    }
}
