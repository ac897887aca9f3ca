package dev.sluice.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.sluice.app.ManagementEndpoint;
import dev.sluice.apiserver.ApiServerRules;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.KubernetesServer;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import jakarta.inject.Inject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.function.Consumer;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 25: an informer's first LIST that the API server refuses (here 403, as before the chart's RBAC is applied; a
 * conversion webhook that cannot be reached is a 500 the same way) is tried again with back-off: the controller keeps
 * running and alive, is not ready, logs what the API server answered once per attempt, and is ready once a list succeeds.
 * fabric8 would have stopped that informer for good, and the engine with it.
 */
@QuarkusTest
@WithKubernetesTestServer(setup = FirstListRefusedTest.RefuseClusterQueueLists.class)
@QuarkusTestResource(value = FirstListRefusedTest.StartUnsettled.class, restrictToAnnotatedClass = true)
class FirstListRefusedTest {

    /** While set (a system property: the test API server's rule may be in another class loader), LISTs are refused. */
    static final String REFUSING = "sluice.test.refuse-clusterqueue-lists";
    static final String COLLECTION = "/apis/kueue.x-k8s.io/v1beta2/clusterqueues";
    static final String MESSAGE = "clusterqueues.kueue.x-k8s.io is forbidden: User \"system:serviceaccount:sluice-system:"
            + "sluice\" cannot list resource \"clusterqueues\" in API group \"kueue.x-k8s.io\" at the cluster scope";

    /** ClusterQueue LISTs are answered 403 with kube-apiserver's Status while {@link #REFUSING} is set. */
    public static class RefuseClusterQueueLists implements Consumer<KubernetesServer> {
        @Override
        public void accept(KubernetesServer server) {
            ApiServerRules.install(server.getKubernetesMockServer());
            System.setProperty(REFUSING, "true");
            try {
                var serverField = io.fabric8.mockwebserver.DefaultMockServer.class.getDeclaredField("server");
                serverField.setAccessible(true);
                var web = (io.fabric8.mockwebserver.MockWebServer) serverField.get(server.getKubernetesMockServer());
                var dispatcherField = io.fabric8.mockwebserver.MockWebServer.class.getDeclaredField("dispatcher");
                dispatcherField.setAccessible(true);
                Dispatcher next = (Dispatcher) dispatcherField.get(web);
                web.setDispatcher(new Dispatcher() {
                    @Override
                    public MockResponse dispatch(RecordedRequest request) {
                        String path = request.getPath();
                        boolean list = "GET".equals(request.getMethod()) && (path.equals(COLLECTION)
                                || path.startsWith(COLLECTION + "?")) && !path.contains("watch=true");
                        if (list && System.getProperty(REFUSING) != null) {
                            return new MockResponse().setResponseCode(403).setHeader("Content-Type", "application/json")
                                    .setBody("{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":"
                                            + "\"Failure\",\"message\":" + com.fasterxml.jackson.databind.node.TextNode
                                                    .valueOf(MESSAGE) + ",\"reason\":\"Forbidden\",\"details\":{\"group\":"
                                            + "\"kueue.x-k8s.io\",\"kind\":\"clusterqueues\"},\"code\":403}");
                        }
                        return next.dispatch(request);
                    }
                });
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    /** The test looks at the start while it is still retrying: no wait for the controller to settle first. */
    public static class StartUnsettled implements QuarkusTestResourceLifecycleManager {
        @Override
        public Map<String, String> start() {
            return Map.of("sluice.test.controller-settle-wait", "0s");
        }

        @Override
        public void stop() {
        }
    }

    @Inject
    KubernetesClient client;

    @Inject
    ControllerRuntime runtime;

    @AfterAll
    static void stopRefusing() {
        System.clearProperty(REFUSING);
    }

    @Test
    void aRefusedFirstListIsTriedAgainWhileTheControllerStaysUpAndNotReady() throws Exception {
        Path log = Path.of(ConfigProvider.getConfig().getValue("quarkus.log.file.path", String.class));
        // tried again: the second attempt is logged, with what the API server answered
        await().atMost(Cluster.TIMEOUT).until(() -> Files.readAllLines(log).stream()
                .anyMatch(l -> l.contains("could not list ClusterQueues (kueue.x-k8s.io/v1beta2) (attempt 2)")));
        assertThat(Files.readAllLines(log)).filteredOn(l -> l.contains("could not list ClusterQueues"))
                .allSatisfy(l -> assertThat(l).contains("the API server answered HTTP 403 (Forbidden): " + MESSAGE)
                        .contains("the controller is not ready until it succeeds"));
        assertThat(runtime.role()).isEqualTo(ControllerRuntime.Role.leading);
        assertThat(ManagementEndpoint.get("/q/health/ready").statusCode()).isEqualTo(503);
        assertThat(ManagementEndpoint.get("/q/health/live").statusCode()).isEqualTo(200);
        client.resource(Queues.flavor("refused-flavor", "{}")).create();
        client.resource(Queues.cpuQueue("refused-cq", "refused-flavor", "2", "{}")).create();

        // the RBAC is granted: the next attempt lists, the caches sync, the engine rebuilds and the replica is ready
        System.clearProperty(REFUSING);
        await().atMost(Cluster.TIMEOUT).until(() -> ManagementEndpoint.get("/q/health/ready").statusCode() == 200);
        assertThat(runtime.ready()).isTrue();
        assertThat(ManagementEndpoint.get("/q/health/live").statusCode()).isEqualTo(200);
        new Cluster(client).awaitClusterQueue("refused-cq", cq -> cq.getStatus() != null);
    }
}
