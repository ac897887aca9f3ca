package dev.sluice.controller;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.webhook.OwnHttpsPort;
import io.fabric8.kubeapitest.KubeAPIServer;
import io.fabric8.kubeapitest.KubeAPIServerConfigBuilder;
import io.fabric8.kubeapitest.Utils;
import io.fabric8.kubeapitest.binary.OSInfo;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceConversion;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import io.fabric8.kubernetes.api.model.apiextensions.v1.WebhookClientConfig;
import io.fabric8.kubernetes.api.model.apiextensions.v1.WebhookConversion;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.quarkus.test.junit.QuarkusTestProfile;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The real-API-server tier: a kube-apiserver and etcd started by fabric8's kube-api-test from binaries already on
 * this machine (never downloaded: {@code ~/.kubeapitest/k8s/<version>-<os>-<arch>/}, or {@code $KUBE_API_TEST_DIR}),
 * with the RBAC objects of src/main/kubernetes/kubernetes.yml and the CRDs of helm/sluice/files/crds, installed the
 * way a cluster that ran Kueue 0.15 comes to Sluice: first the Kueue kinds in v1beta1 only (Kueue 0.15's storage
 * version), with the objects of {@link KueueV015Objects} created in it, then Sluice's CRDs (v1beta2 stored) with their
 * conversion webhook at this application's own HTTPS {@code /convert} (on a port chosen here, trusting the suite's
 * test CA). The controller's client impersonates the chart's ServiceAccount, so the API server enforces Sluice's real
 * RBAC and validation; the tests' own client is the API server's admin. Without binaries the tests are skipped and say so.
 *
 * <p>Isolated from the rest of the suite: nothing of it outlives the application. fabric8 reads the client's settings
 * from JVM system properties, which other tests' resources set and never clear (fabric8's mock sets
 * {@code kubernetes.master}, {@code kubernetes.auth.tryKubeConfig=false}, ...), so {@link Resource} sets every one the
 * application's client needs, hides the others while it runs, and puts all back as they were when it stops. The
 * profile overrides only what must be fixed at build time: Quarkus sets those overrides as system properties and does
 * not take them back when the application fails to start, so every run-time setting comes from the resource, whose
 * settings belong to this application alone.
 */
final class RealApiServer {

    static final String SERVICE_ACCOUNT = "system:serviceaccount:sluice-system:sluice";
    static final String RELEASE_NAMESPACE = "sluice-system";
    /** Where the admin's kubeconfig is for the test class (another class loader than the resource's, perhaps). */
    static final String ADMIN_KUBECONFIG = "sluice.test.real-api-server.kubeconfig";
    /** The Kueue kinds whose objects a cluster that ran Kueue 0.15 stores as v1beta1. */
    static final Set<String> KUEUE_015_KINDS = Set.of("ResourceFlavor", "ClusterQueue", "LocalQueue", "Workload",
            "WorkloadPriorityClass");

    private RealApiServer() {
    }

    static Path testDir() {
        return Path.of(Optional.ofNullable(System.getenv(KubeAPIServerConfigBuilder.KUBE_API_TEST_DIR))
                .orElse(new File(System.getProperty("user.home"), KubeAPIServerConfigBuilder.DIRECTORY_NAME).getPath()));
    }

    static Optional<Path> binaries() {
        return binaries(testDir());
    }

    /**
     * A directory of kube-apiserver, etcd and kubectl binaries for this platform, as kube-api-test lays them out
     * (kube-api-test needs all three: it checks the API server's readiness with kubectl).
     */
    static Optional<Path> binaries(Path testDir) {
        Path k8s = testDir.resolve("k8s");
        String suffix = Utils.platformSuffix(new OSInfo());
        if (!Files.isDirectory(k8s)) {
            return Optional.empty();
        }
        try (Stream<Path> dirs = Files.list(k8s)) {
            return dirs.filter(d -> d.getFileName().toString().endsWith(suffix))
                    .filter(d -> Stream.of("kube-apiserver", "etcd", "kubectl").allMatch(b -> Files.isExecutable(d.resolve(b))))
                    .findFirst();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** Skips the class, before any Quarkus application starts, when there are no binaries; prints why. */
    static final class WhenBinariesArePresent implements ExecutionCondition {
        @Override
        public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
            Optional<Path> found = binaries();
            if (found.isPresent()) {
                return ConditionEvaluationResult.enabled("kube-apiserver, etcd and kubectl in " + found.get());
            }
            String why = "SKIPPED the real-API-server tier (" + context.getDisplayName() + "): no kube-apiserver, etcd "
                    + "and kubectl binaries for " + Utils.platformSuffix(new OSInfo()).substring(1) + " under "
                    + testDir() + "/k8s/ (kube-api-test; docs/tests.md \"Tests against a real API server\" says how to provide them)";
            System.out.println("[real-api-server] " + why);
            return ConditionEvaluationResult.disabled(why);
        }
    }

    /** Only what is fixed at build time: the rest comes from {@link Resource}, for this application alone. */
    public static final class Profile implements QuarkusTestProfile {
        /** Build-time settings; harmless to the rest of the suite should Quarkus leave them set. */
        static final Map<String, String> BUILD_TIME = Map.of(
                "quarkus.kubernetes-client.devservices.enabled", "false",
                "quarkus.operator-sdk.crd.apply", "false"); // the chart's CRDs, installed by Resource

        @Override
        public Map<String, String> getConfigOverrides() {
            return BUILD_TIME;
        }

        @Override
        public List<TestResourceEntry> testResources() {
            return List.of(new TestResourceEntry(Resource.class));
        }

        @Override
        public boolean disableGlobalTestResources() {
            return false; // TestTls: the webhook port serves HTTPS only
        }
    }

    /** A started API server with what the tier installs; its kubeconfig (the admin's, client certificate files). */
    interface Server {
        String kubeconfig();

        void stop();
    }

    /**
     * Starts the API server, installs RBAC, CRDs and the Kueue 0.15 objects, and points the application's client at it
     * as the ServiceAccount through fabric8's system properties, which it puts back as they were on stop.
     */
    public static final class Resource implements QuarkusTestResourceLifecycleManager {
        private final java.util.function.Function<Integer, Server> servers;
        private Server server;
        private Path kubeconfigFile;
        private ClientProperties properties;

        public Resource() {
            this(RealApiServer::start);
        }

        /** With another way to start the server (tests of this resource's isolation). */
        Resource(java.util.function.Function<Integer, Server> servers) {
            this.servers = servers;
        }

        @Override
        public Map<String, String> start() {
            int httpsPort = OwnHttpsPort.freePort(); // the conversion webhook's URL names it before the application starts
            server = servers.apply(httpsPort);
            properties = ClientProperties.isolate();
            try {
                kubeconfigFile = Files.createTempFile("sluice-real-api", ".kubeconfig");
                Files.writeString(kubeconfigFile, server.kubeconfig());
                Config admin = Config.fromKubeconfig(server.kubeconfig());
                properties.set(ADMIN_KUBECONFIG, kubeconfigFile.toString());
                properties.set(Config.KUBERNETES_MASTER_SYSTEM_PROPERTY, admin.getMasterUrl());
                properties.set(Config.KUBERNETES_CA_CERTIFICATE_FILE_SYSTEM_PROPERTY, admin.getCaCertFile());
                properties.set(Config.KUBERNETES_CLIENT_CERTIFICATE_FILE_SYSTEM_PROPERTY, admin.getClientCertFile());
                properties.set(Config.KUBERNETES_CLIENT_KEY_FILE_SYSTEM_PROPERTY, admin.getClientKeyFile());
                properties.set(Config.KUBERNETES_TRUST_CERT_SYSTEM_PROPERTY, "false");
                // neither this machine's ~/.kube/config nor a pod's service account token
                properties.set(Config.KUBERNETES_AUTH_TRYKUBECONFIG_SYSTEM_PROPERTY, "false");
                properties.set(Config.KUBERNETES_AUTH_TRYSERVICEACCOUNT_SYSTEM_PROPERTY, "false");
                properties.set(Config.KUBERNETES_IMPERSONATE_USERNAME, SERVICE_ACCOUNT);
                properties.set(Config.KUBERNETES_IMPERSONATE_GROUP,
                        "system:serviceaccounts,system:serviceaccounts:" + RELEASE_NAMESPACE + ",system:authenticated");
            } catch (IOException | RuntimeException e) {
                stop();
                throw new IllegalStateException("the real-API-server tier could not be set up: " + e.getMessage(), e);
            }
            return settings(httpsPort);
        }

        /** The application's run-time settings: controller and webhooks in one process, as the plain install runs. */
        static Map<String, String> settings(int httpsPort) {
            Map<String, String> s = new HashMap<>();
            s.put("sluice.mode", "all");
            s.put("quarkus.http.test-ssl-port", String.valueOf(httpsPort));
            s.put("sluice.leader-election.namespace", RELEASE_NAMESPACE);
            s.put("sluice.leader-election.lease-duration", "6s");
            // the tier's CRDs are Sluice's own: no other job kind is served
            for (dev.sluice.jobs.JobKind kind : dev.sluice.jobs.JobKinds.standard().all()) {
                if (!kind.integrationName().equals("job")) {
                    s.put("sluice.integrations." + kind.integrationName() + ".enabled", "false");
                }
            }
            // the tests begin once the controller settled, which a start on a real server may take longer for
            s.put("sluice.test.controller-settle-wait", "60s");
            return s;
        }

        @Override
        public void stop() {
            if (properties != null) {
                properties.restore(); // the next applications of this JVM must not inherit them
                properties = null;
            }
            if (server != null) {
                server.stop();
                server = null;
            }
            try {
                if (kubeconfigFile != null) {
                    Files.deleteIfExists(kubeconfigFile);
                }
            } catch (IOException ignored) {
                // a temp file
            }
        }

        /**
         * The API server's administrator (the tests' client): not impersonating anyone, and configured from its
         * kubeconfig alone (no system property). The test class and this resource may be loaded by different class
         * loaders, so the file's name is passed in a system property.
         */
        static KubernetesClient admin() {
            String file = System.getProperty(ADMIN_KUBECONFIG);
            if (file == null) {
                throw new IllegalStateException("the real API server is not running");
            }
            return new KubernetesClientBuilder().withConfig(Config.fromKubeconfig(new File(file))).build();
        }
    }

    /**
     * fabric8's client settings in JVM system properties ({@code kubernetes.*}, {@code kubeconfig}) and Quarkus's global
     * {@code quarkus.tls.trust-all} (the mock's resource sets it too): {@link #isolate} hides those set now, {@link #set}
     * sets one for the tier, {@link #restore} removes the tier's and puts back exactly what was there before.
     */
    static final class ClientProperties {
        private final Map<String, String> before;

        private ClientProperties(Map<String, String> before) {
            this.before = before;
        }

        static boolean isClientProperty(String key) {
            return key.startsWith("kubernetes.") || key.equals(Config.KUBERNETES_KUBECONFIG_FILE)
                    || key.equals("quarkus.tls.trust-all") || key.equals(ADMIN_KUBECONFIG);
        }

        static ClientProperties isolate() {
            Map<String, String> before = new HashMap<>();
            for (String key : System.getProperties().stringPropertyNames()) {
                if (isClientProperty(key)) {
                    before.put(key, System.getProperty(key));
                }
            }
            before.keySet().forEach(System::clearProperty);
            return new ClientProperties(before);
        }

        void set(String key, String value) {
            if (!isClientProperty(key)) {
                throw new IllegalArgumentException(key + " would not be put back on restore");
            }
            if (value == null) {
                System.clearProperty(key);
            } else {
                System.setProperty(key, value);
            }
        }

        void restore() {
            for (String key : System.getProperties().stringPropertyNames()) {
                if (isClientProperty(key)) {
                    System.clearProperty(key);
                }
            }
            before.forEach(System::setProperty);
        }
    }

    /** The real server: kube-api-test from the binaries on disk, and what the tier installs on it. */
    static Server start(int httpsPort) {
        KubeAPIServer api = new KubeAPIServer(KubeAPIServerConfigBuilder.anAPIServerConfig().withOfflineMode(true)
                .withUpdateKubeConfig(false).build());
        api.start();
        String kubeconfig = api.getKubeConfigYaml();
        try (KubernetesClient admin = new KubernetesClientBuilder().withConfig(Config.fromKubeconfig(kubeconfig)).build()) {
            install(admin, httpsPort);
        } catch (RuntimeException e) {
            api.stop();
            throw e;
        }
        return new Server() {
            @Override
            public String kubeconfig() {
                return kubeconfig;
            }

            @Override
            public void stop() {
                api.stop();
            }
        };
    }

    private static void install(KubernetesClient admin, int httpsPort) {
        admin.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(RELEASE_NAMESPACE)
                .endMetadata().build()).create();
        Set<String> rbacKinds = Set.of("ServiceAccount", "ClusterRole", "ClusterRoleBinding", "Role", "RoleBinding");
        try (InputStream in = Files.newInputStream(Path.of("src", "main", "kubernetes", "kubernetes.yml"))) {
            for (HasMetadata o : admin.load(in).items()) {
                if (rbacKinds.contains(o.getKind())) {
                    admin.resource(o).create();
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        List<CustomResourceDefinition> sluiceCrds = new ArrayList<>();
        try (Stream<Path> files = Files.list(Path.of("helm", "sluice", "files", "crds"))) {
            for (Path file : files.filter(p -> p.toString().endsWith(".yml")).sorted().toList()) {
                try (InputStream in = Files.newInputStream(file)) {
                    for (HasMetadata o : admin.load(in).items()) {
                        sluiceCrds.add((CustomResourceDefinition) o);
                    }
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        // 1. Kueue 0.15: its kinds in v1beta1 only, stored as v1beta1, and the objects it left
        for (CustomResourceDefinition crd : sluiceCrds) {
            if (KUEUE_015_KINDS.contains(crd.getSpec().getNames().getKind())) {
                CustomResourceDefinition v015 = Serialization.clone(crd);
                List<CustomResourceDefinitionVersion> only = new ArrayList<>();
                for (CustomResourceDefinitionVersion v : v015.getSpec().getVersions()) {
                    if (v.getName().equals("v1beta1")) {
                        v.setStorage(true);
                        v.setDeprecated(null);
                        v.setDeprecationWarning(null);
                        only.add(v);
                    }
                }
                v015.getSpec().setVersions(only);
                v015.getSpec().setConversion(new CustomResourceConversion("None", null));
                createEstablished(admin, v015);
            }
        }
        createKueue015Objects(admin);
        // 2. Sluice's CRDs: v1beta2 stored, conversion by this application's /convert (a URL: no Service here)
        String caBundle = Base64.getEncoder().encodeToString(OwnHttpsPort.caBundle());
        for (CustomResourceDefinition crd : sluiceCrds) {
            WebhookClientConfig client = new WebhookClientConfig();
            client.setUrl("https://localhost:" + httpsPort + "/convert");
            client.setCaBundle(caBundle);
            crd.getSpec().setConversion(new CustomResourceConversion("Webhook", new WebhookConversion(client, List.of("v1"))));
            var existing = admin.apiextensions().v1().customResourceDefinitions().withName(crd.getMetadata().getName()).get();
            if (existing == null) {
                createEstablished(admin, crd);
            } else {
                crd.getMetadata().setResourceVersion(existing.getMetadata().getResourceVersion());
                admin.resource(crd).update();
                admin.apiextensions().v1().customResourceDefinitions().withName(crd.getMetadata().getName())
                        .waitUntilCondition(RealApiServer::established, 30, TimeUnit.SECONDS);
            }
        }
    }

    /** As Kueue 0.15 stored them: created in v1beta1 (the Workload's status through its subresource, as Kueue wrote it). */
    private static void createKueue015Objects(KubernetesClient admin) {
        admin.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(KueueV015Objects.NS).endMetadata()
                .build()).create();
        Job running = admin.batch().v1().jobs().inNamespace(KueueV015Objects.NS).resource(KueueV015Objects.runningJob())
                .create();
        // what the Job controller (not running here) would report: its pod active and ready
        running = admin.batch().v1().jobs().inNamespace(KueueV015Objects.NS)
                .resource(KueueV015Objects.withRunningStatus(running)).updateStatus();
        for (ObjectNode o : KueueV015Objects.objects(running)) {
            GenericKubernetesResource object = Serialization.jsonMapper().convertValue(o, GenericKubernetesResource.class);
            Object status = object.getAdditionalProperties().remove("status");
            GenericKubernetesResource created = admin.resource(object).create();
            if (status != null) {
                created.getAdditionalProperties().put("status", status);
                admin.resource(created).updateStatus();
            }
        }
    }

    private static void createEstablished(KubernetesClient admin, CustomResourceDefinition crd) {
        admin.resource(crd).create();
        admin.apiextensions().v1().customResourceDefinitions().withName(crd.getMetadata().getName())
                .waitUntilCondition(RealApiServer::established, 30, TimeUnit.SECONDS);
    }

    static boolean established(CustomResourceDefinition crd) {
        return crd != null && crd.getStatus() != null && crd.getStatus().getConditions() != null && crd.getStatus()
                .getConditions().stream().anyMatch(c -> "Established".equals(c.getType()) && "True".equals(c.getStatus()));
    }

    static final Duration TIMEOUT = Duration.ofSeconds(60);
}
