package dev.sluice.chart;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.http.HttpClient;
import java.util.ServiceLoader;

/**
 * Test-only: the HTTP client factory fabric8 picks in this JVM (highest priority), which builds clients with the
 * factory that would have been picked otherwise (Quarkus's, or Vert.x's) plus {@link ApiRequestLog}. So every
 * fabric8 client of the suite, however it was built, records what it asks the API server (clients that test code
 * builds record nothing).
 */
public final class RecordingHttpClientFactory implements HttpClient.Factory {

    static {
        // the Lease client picks its factory itself (a Vert.x of its own): its requests are recorded the same way
        dev.sluice.controller.lease.LeaseClientRecording.install(RecordingHttpClientFactory::recording);
    }

    /** {@code factory}'s clients, with the recorder. */
    static HttpClient.Factory recording(HttpClient.Factory factory) {
        return new HttpClient.Factory() {
            @Override
            public HttpClient.Builder newBuilder(Config config) {
                return factory.newBuilder(config).addOrReplaceInterceptor("sluice-api-request-log", log());
            }

            @Override
            public HttpClient.Builder newBuilder() {
                return factory.newBuilder().addOrReplaceInterceptor("sluice-api-request-log", log());
            }
        };
    }

    private HttpClient.Factory delegate;

    private synchronized HttpClient.Factory delegate() {
        if (delegate == null) {
            HttpClient.Factory best = null;
            ClassLoader loader = Thread.currentThread().getContextClassLoader();
            for (HttpClient.Factory f : ServiceLoader.load(HttpClient.Factory.class,
                    loader != null ? loader : getClass().getClassLoader())) {
                if (!(f instanceof RecordingHttpClientFactory) && (best == null || f.priority() > best.priority())) {
                    best = f;
                }
            }
            if (best == null) {
                throw new IllegalStateException("no fabric8 HTTP client factory besides " + getClass().getName());
            }
            delegate = best;
        }
        return delegate;
    }

    @Override
    public HttpClient.Builder newBuilder(Config config) {
        return delegate().newBuilder(config).addOrReplaceInterceptor("sluice-api-request-log", log());
    }

    @Override
    public HttpClient.Builder newBuilder() {
        return delegate().newBuilder().addOrReplaceInterceptor("sluice-api-request-log", log());
    }

    /** A client built by test code is the tests' own: even its requests from other threads (watch reconnects) are not Sluice's. */
    private static ApiRequestLog log() {
        return new ApiRequestLog(ApiRequestLog.calledFromTestCode());
    }

    @Override
    public int priority() {
        return 100;
    }
}
