package dev.sluice.chart;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Records, during the surefire suite, every distinct API request Sluice's own code makes (controller, leader election,
 * webhooks, the Operator SDK on its behalf) to {@value #FILE}, for {@link RbacCoverageIT}. Requests whose call stack
 * has test code on it (a test creating its fixtures, the fake Job controller), and every request of a client that
 * test code built, are the tests', not Sluice's, and are left out; so is the Operator SDK applying CRDs, which only the test profile does (crd.apply). Creating an object
 * whose ownerReference sets blockOwnerDeletion also needs update on the owner's finalizers (the API server's
 * OwnerReferencesPermissionEnforcement): recorded as such a request.
 */
public final class ApiRequestLog implements Interceptor {

    static final String FILE = "target/api-requests.tsv";
    private static final Set<String> SEEN = ConcurrentHashMap.newKeySet();
    private static final Map<String, Boolean> TEST_CLASS = new ConcurrentHashMap<>();
    private static final Path TEST_CLASSES = Path.of("target", "test-classes");
    private static final String LOCK = "dev.sluice.chart.ApiRequestLog";
    private static final String STARTED = "sluice.api-request-log.started";
    private static final KubernetesSerialization JSON = new KubernetesSerialization();

    private final boolean testClient;

    ApiRequestLog(boolean testClient) {
        this.testClient = testClient;
    }

    /** Whether test code is on the current call stack (this package's recorder aside). */
    static boolean calledFromTestCode() {
        return StackWalker.getInstance().walk(s -> s.anyMatch(f -> isTestCode(f.getClassName())));
    }

    @Override
    public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
        if (testClient) {
            return;
        }
        StackWalker.StackFrame[] frames = StackWalker.getInstance().walk(s -> s.toArray(StackWalker.StackFrame[]::new));
        boolean lease = false;
        for (StackWalker.StackFrame f : frames) {
            String cls = f.getClassName();
            if (cls.startsWith("io.quarkiverse.operatorsdk.runtime.CRDUtils")) {
                return; // test profile only
            }
            if (isTestCode(cls)) {
                return;
            }
            lease |= cls.equals("dev.sluice.controller.lease.ObservedLeaseLock");
        }
        ApiRequest r = ApiRequest.of(request.method(), request.uri(), lease);
        record(r);
        if (r.verb().equals("create") && request.bodyString() != null) {
            impliedByOwnerReferences(request.bodyString(), r.scope());
        }
    }

    private static void impliedByOwnerReferences(String body, String scope) {
        HasMetadata created;
        try {
            created = JSON.unmarshal(body, io.fabric8.kubernetes.api.model.GenericKubernetesResource.class);
        } catch (RuntimeException notAnObject) {
            return;
        }
        if (created.getMetadata() == null || created.getMetadata().getOwnerReferences() == null) {
            return;
        }
        for (OwnerReference owner : created.getMetadata().getOwnerReferences()) {
            if (Boolean.TRUE.equals(owner.getBlockOwnerDeletion())) {
                String apiVersion = owner.getApiVersion();
                String group = apiVersion.contains("/") ? apiVersion.substring(0, apiVersion.indexOf('/')) : "";
                // every owner kind Sluice sets is a job kind whose plural is its lower-cased kind plus "s"
                record(new ApiRequest("update", group, owner.getKind().toLowerCase() + "s/finalizers", scope, "-"));
            }
        }
    }

    private static boolean isTestCode(String cls) {
        if (!cls.startsWith("dev.sluice.") || cls.startsWith(ApiRequestLog.class.getName())
                || cls.startsWith(RecordingHttpClientFactory.class.getName())) {
            return false;
        }
        int dollar = cls.indexOf('$');
        String top = dollar < 0 ? cls : cls.substring(0, dollar);
        return TEST_CLASS.computeIfAbsent(top,
                c -> Files.exists(TEST_CLASSES.resolve(c.replace('.', '/') + ".class")));
    }

    private static void record(ApiRequest r) {
        if (!SEEN.add(r.line())) {
            return;
        }
        // Quarkus loads this class once per application and plain tests once more: the lock and the "started" mark
        // must be the JVM's (an interned literal, a system property), not this class's
        synchronized (LOCK) {
            try {
                Path file = Path.of(FILE);
                if (System.getProperty(STARTED) == null) {
                    // a new suite: what an earlier run recorded no longer counts
                    System.setProperty(STARTED, "true");
                    Files.createDirectories(file.getParent());
                    String test = System.getProperty("test");
                    Files.writeString(file, "# verb\tgroup\tresource\tscope\tname; surefire -Dtest="
                            + (test == null ? "" : test) + "\n", StandardCharsets.UTF_8);
                }
                Files.writeString(file, r.line() + "\n", StandardCharsets.UTF_8, StandardOpenOption.APPEND);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
