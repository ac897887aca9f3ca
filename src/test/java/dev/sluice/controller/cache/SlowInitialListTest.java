package dev.sluice.controller.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.apiserver.ApiServerRules;
import dev.sluice.jobs.JobKinds;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Start-up at any size: an informer's initial list may take as long as it takes while it makes progress (a quarter of
 * a million Workloads take minutes on a small machine; a replica that gave up after a fixed time would start again
 * from nothing and never become ready), and fails once it got nothing new for the stall time (the API server stopped
 * answering). The test API server pages as kube-apiserver does and answers each Workload page after a delay.
 */
class SlowInitialListTest {

    KubernetesMockServer server;
    KubernetesClient client;
    /** Delay of each continued Workload page, by page number (from 1; the first page has no token). */
    volatile java.util.function.IntFunction<Duration> delay = page -> Duration.ZERO;
    final AtomicInteger continued = new AtomicInteger();

    @BeforeEach
    void slowPages() throws Exception {
        // a server of this test's own: the wrapper below must be the outermost, and installed once
        server = new KubernetesMockServer(new io.fabric8.mockwebserver.Context(), new io.fabric8.mockwebserver.MockWebServer(),
                new java.util.HashMap<>(), new io.fabric8.kubernetes.client.server.mock.KubernetesMixedDispatcher(
                        new java.util.HashMap<>()), false);
        server.init();
        client = server.createClient();
        ApiServerRules.install(server);
        var serverField = io.fabric8.mockwebserver.DefaultMockServer.class.getDeclaredField("server");
        serverField.setAccessible(true);
        var web = (io.fabric8.mockwebserver.MockWebServer) serverField.get(server);
        var dispatcherField = io.fabric8.mockwebserver.MockWebServer.class.getDeclaredField("dispatcher");
        dispatcherField.setAccessible(true);
        Dispatcher paging = (Dispatcher) dispatcherField.get(web);
        web.setDispatcher(new Dispatcher() {
            @Override
            public MockResponse dispatch(RecordedRequest request) {
                MockResponse r = paging.dispatch(request);
                if (request.getPath().startsWith(PagedStartupTest.WORKLOADS) && request.getPath().contains("continue=")) {
                    Duration d = delay.apply(continued.incrementAndGet());
                    if (!d.isZero()) {
                        r.setBodyDelay(d); // a Vert.x timer: none of 0 ms
                    }
                }
                return r;
            }
        });
        for (int i = 0; i < 12; i++) {
            client.resource(PagedStartupTest.workload(PagedStartupTest.NAMESPACES.get(i % 3), "wl-" + i)).create();
        }
    }

    @AfterEach
    void stop() {
        client.close();
        server.destroy();
    }

    @Test
    void aListThatKeepsComingIsWaitedForPastTheStallTime() throws Exception {
        delay = page -> Duration.ofMillis(600); // 5 continued pages: 3 s in all, each page well inside the 2 s stall time
        try (ClusterCache cache = new ClusterCache(client, new JobKinds(List.of()), r -> { }, 2)) {
            cache.startAndSync(2);
            assertThat(cache.list(cache.workloads)).hasSize(12);
            assertThat(continued.get()).isEqualTo(5);
            assertThat(cache.synced()).isTrue();
        }
    }

    @Test
    void aListThatStopsFailsAfterTheStallTimeNamingWhatItListed() {
        delay = page -> page == 2 ? Duration.ofSeconds(30) : Duration.ZERO; // the third page never comes in time
        try (ClusterCache cache = new ClusterCache(client, new JobKinds(List.of()), r -> { }, 2)) {
            assertThatThrownBy(() -> cache.startAndSync(1)).isInstanceOf(TimeoutException.class)
                    .hasMessageContaining("Workload").hasMessageContaining("no informer got a new object for 1 s")
                    .hasMessageContaining("(4 objects listed in all)");
        }
    }
}
