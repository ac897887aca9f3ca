package dev.sluice.bench;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.HashMap;

/** The benchmark's API server in the test's own process, with the Kueue CRDs installed; for the harness's tests. */
final class LocalApiServer implements AutoCloseable {

    private final KubernetesMockServer server;
    final String url;
    /** A client with the benchmark's user agent (its writes are not counted). */
    final KubernetesClient bench;

    LocalApiServer(boolean indexed) throws Exception {
        server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(),
                new ApiServer.CountingDispatcher(indexed), false);
        server.init(InetAddress.getByName("127.0.0.1"), 0);
        url = "http://127.0.0.1:" + server.getPort();
        bench = LoadDriver.client(url);
        LoadDriver.installCrds(bench, Path.of("helm/sluice/files/crds"));
    }

    @Override
    public void close() {
        bench.close();
        server.destroy();
    }
}
