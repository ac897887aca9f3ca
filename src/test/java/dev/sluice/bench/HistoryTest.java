package dev.sluice.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.api.v1beta2.Workload;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The history scenario's Workloads stored by the API server itself are the ones a client stores over HTTP (a create,
 * then a status patch): the same object, with a uid, a creation time and a resource version of their own, finished,
 * with their admission.
 */
class HistoryTest {

    static final List<String> NAMESPACES = List.of("cq-0-0-cohort-0", "cq-0-1-cohort-0", "cq-0-0-cohort-1");
    static final ObjectMapper JSON = new ObjectMapper();

    /** A server with the CRDs and the history's namespaces; the test gets its client and closes both. */
    record Server(KubernetesMockServer mock, ApiServer.CountingDispatcher dispatcher, KubernetesClient client, String url)
            implements AutoCloseable {
        static Server start() throws Exception {
            ApiServer.CountingDispatcher d = new ApiServer.CountingDispatcher(true);
            KubernetesMockServer mock = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(), d, false);
            mock.init(InetAddress.getByName("127.0.0.1"), 0);
            String url = "http://127.0.0.1:" + mock.getPort();
            KubernetesClient client = LoadDriver.client(url);
            LoadDriver.installCrds(client, Path.of("helm/sluice/files/crds"));
            for (String ns : NAMESPACES) {
                client.resource(BenchObjects.namespace(ns)).create();
            }
            return new Server(mock, d, client, url);
        }

        @Override
        public void close() {
            client.close();
            mock.destroy();
        }

        /** Every stored Workload's JSON by namespace/name. */
        Map<String, JsonNode> workloads() throws Exception {
            Map<String, JsonNode> out = new TreeMap<>();
            for (JsonNode item : JSON.readTree(new WorkloadApi(url).list()).get("items")) {
                out.put(item.at("/metadata/namespace").asText() + "/" + item.at("/metadata/name").asText(), item);
            }
            return out;
        }
    }

    /** What differs between two stores of one Workload: its identity and when it was made and finished. */
    static JsonNode withoutIdentity(JsonNode wl) {
        ObjectNode copy = wl.deepCopy();
        ObjectNode meta = (ObjectNode) copy.get("metadata");
        meta.remove(List.of("uid", "resourceVersion", "creationTimestamp"));
        copy.at("/status/conditions").forEach(c -> ((ObjectNode) c).remove("lastTransitionTime"));
        return copy;
    }

    @Test
    void seededWorkloadsAreTheOnesStoredOverHttp() throws Exception {
        int count = 7;
        try (Server seeded = Server.start(); Server overHttp = Server.start()) {
            History.seed(new WorkloadApi(seeded.url()), NAMESPACES, count);
            History.store(new WorkloadApi(overHttp.url()), NAMESPACES, count);
            Map<String, JsonNode> a = seeded.workloads();
            Map<String, JsonNode> b = overHttp.workloads();
            assertThat(a.keySet()).hasSize(count).isEqualTo(b.keySet());
            Set<String> uids = new HashSet<>();
            Set<String> versions = new HashSet<>();
            for (String key : a.keySet()) {
                JsonNode wl = a.get(key);
                assertThat(withoutIdentity(wl)).as(key).isEqualTo(withoutIdentity(b.get(key)));
                uids.add(wl.at("/metadata/uid").asText());
                versions.add(wl.at("/metadata/resourceVersion").asText());
                assertThat(wl.at("/metadata/creationTimestamp").asText()).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ");
            }
            assertThat(uids).hasSize(count).doesNotContain("");
            assertThat(versions).hasSize(count).allMatch(v -> Long.parseLong(v) > 0);

            // read as the controller reads them: finished, with the admission they ran with, one per namespace in turn
            List<Workload> typed = seeded.client().resources(Workload.class).inAnyNamespace().list().getItems();
            assertThat(typed).hasSize(count).allSatisfy(wl -> {
                assertThat(wl.getStatus().getConditions()).anySatisfy(c -> {
                    assertThat(c.getType()).isEqualTo("Finished");
                    assertThat(c.getStatus()).isEqualTo("True");
                });
                assertThat(wl.getStatus().getAdmission().getClusterQueue()).isEqualTo(wl.getMetadata().getNamespace());
            });
            assertThat(seeded.client().resources(Workload.class).inNamespace(NAMESPACES.get(0)).list().getItems())
                    .extracting(w -> w.getMetadata().getName()).containsExactlyInAnyOrder("history-0", "history-3", "history-6");

            // the writes are the benchmark's, not the controller's
            assertThat(LoadDriver.httpGet(seeded.url() + "/bench/writes")).contains("\"total\": 0");
        }
    }

    /** Seeded objects take the server's resource versions: later writes and paged lists see them as any other. */
    @Test
    void seededWorkloadsArePagedAndWrittenAsAnyOther() throws Exception {
        try (Server s = Server.start()) {
            History.seed(new WorkloadApi(s.url()), NAMESPACES, 10);
            var page = s.client().resources(Workload.class).inAnyNamespace()
                    .list(new ListOptionsBuilder().withLimit(4L).build());
            assertThat(page.getItems()).hasSize(4);
            assertThat(page.getMetadata().getContinue()).isNotNull();
            long listed = Long.parseLong(page.getMetadata().getResourceVersion());
            assertThat(page.getItems()).allMatch(w -> Long.parseLong(w.getMetadata().getResourceVersion()) <= listed);

            String ns = NAMESPACES.get(1);
            Workload before = s.client().resources(Workload.class).inNamespace(ns).withName("history-1").get();
            Workload after = s.client().resources(Workload.class).inNamespace(ns).withName("history-1").edit(w -> {
                w.getMetadata().getLabels().put("touched", "yes");
                return w;
            });
            assertThat(Long.parseLong(after.getMetadata().getResourceVersion()))
                    .isGreaterThan(Long.parseLong(before.getMetadata().getResourceVersion())).isGreaterThan(listed);
        }
    }
}
