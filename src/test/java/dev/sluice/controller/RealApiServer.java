package dev.sluice.controller;

import io.fabric8.kubeapitest.KubeAPIServer;
import io.fabric8.kubeapitest.KubeAPIServerConfigBuilder;
import io.fabric8.kubeapitest.Utils;
import io.fabric8.kubeapitest.binary.OSInfo;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.quarkus.test.junit.QuarkusTestProfile;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The real-API-server tier: a kube-apiserver and etcd started by fabric8's kube-api-test from binaries already on
 * this machine (never downloaded: {@code ~/.kubeapitest/k8s/<version>-<os>-<arch>/}, or {@code $KUBE_API_TEST_DIR}).
 * The CRDs of helm/sluice/files/crds (their conversion set to None: the webhook cannot be reached before the controller
 * has started, and this tier writes only v1beta2, the version the controller reads and the API server stores;
 * ConvertJarIT tests conversion over HTTPS) and the RBAC objects of src/main/kubernetes/kubernetes.yml are installed, and the
 * controller's client impersonates the chart's ServiceAccount, so the API server enforces Sluice's real RBAC and
 * validation. The tests' own client is the API server's admin. Without binaries the tests are skipped and say so.
 */
final class RealApiServer {

    static final String SERVICE_ACCOUNT = "system:serviceaccount:sluice-system:sluice";
    static final String RELEASE_NAMESPACE = "sluice-system";

    private RealApiServer() {
    }

    static Path testDir() {
        return Path.of(Optional.ofNullable(System.getenv(KubeAPIServerConfigBuilder.KUBE_API_TEST_DIR))
                .orElse(new File(System.getProperty("user.home"), KubeAPIServerConfigBuilder.DIRECTORY_NAME).getPath()));
    }

    /** A directory of kube-apiserver and etcd binaries for this platform, as kube-api-test lays them out. */
    static Optional<Path> binaries() {
        Path k8s = testDir().resolve("k8s");
        String suffix = Utils.platformSuffix(new OSInfo());
        if (!Files.isDirectory(k8s)) {
            return Optional.empty();
        }
        try (Stream<Path> dirs = Files.list(k8s)) {
            return dirs.filter(d -> d.getFileName().toString().endsWith(suffix))
                    .filter(d -> Files.isExecutable(d.resolve("kube-apiserver")) && Files.isExecutable(d.resolve("etcd")))
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
                return ConditionEvaluationResult.enabled("kube-apiserver and etcd in " + found.get());
            }
            String why = "SKIPPED the real-API-server tier (" + context.getDisplayName() + "): no kube-apiserver and "
                    + "etcd binaries for " + Utils.platformSuffix(new OSInfo()).substring(1) + " under " + testDir()
                    + "/k8s/ (kube-api-test; README \"Tests against a real API server\" says how to provide them)";
            System.out.println("[real-api-server] " + why);
            return ConditionEvaluationResult.disabled(why);
        }
    }

    /** The application of this tier: controller only (no webhook configuration is installed), Lease in sluice-system. */
    public static final class Profile implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.ofEntries(
                    Map.entry("sluice.mode", "all"),
                    Map.entry("quarkus.kubernetes-client.devservices.enabled", "false"),
                    Map.entry("quarkus.operator-sdk.crd.apply", "false"), // the chart's CRDs, installed by Resource
                    Map.entry("sluice.leader-election.namespace", RELEASE_NAMESPACE),
                    Map.entry("sluice.leader-election.lease-duration", "6s"),
                    Map.entry("sluice.integrations.jobset.enabled", "false"),
                    Map.entry("sluice.integrations.tfjob.enabled", "false"),
                    Map.entry("sluice.integrations.pytorchjob.enabled", "false"),
                    Map.entry("sluice.integrations.mpijob.enabled", "false"),
                    Map.entry("sluice.integrations.rayjob.enabled", "false"),
                    Map.entry("sluice.integrations.sparkapplication.enabled", "false"),
                    Map.entry("sluice.integrations.workflow.enabled", "false"));
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

    /**
     * Starts the API server, installs CRDs and RBAC, and points the application's client at it as the ServiceAccount
     * (fabric8 reads the kubeconfig and the impersonation from system properties when the client is configured).
     */
    public static final class Resource implements QuarkusTestResourceLifecycleManager {
        private KubeAPIServer server;
        private Path kubeconfigFile;

        @Override
        public Map<String, String> start() {
            server = new KubeAPIServer(KubeAPIServerConfigBuilder.anAPIServerConfig().withOfflineMode(true)
                    .withUpdateKubeConfig(false).build());
            server.start();
            String kubeconfig = server.getKubeConfigYaml();
            try {
                kubeconfigFile = Files.createTempFile("sluice-real-api", ".kubeconfig");
                Files.writeString(kubeconfigFile, kubeconfig);
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
            System.setProperty(Config.KUBERNETES_KUBECONFIG_FILE, kubeconfigFile.toString());
            try (KubernetesClient admin = admin()) {
                install(admin);
            }
            System.setProperty(Config.KUBERNETES_IMPERSONATE_USERNAME, SERVICE_ACCOUNT);
            System.setProperty(Config.KUBERNETES_IMPERSONATE_GROUP,
                    "system:serviceaccounts,system:serviceaccounts:" + RELEASE_NAMESPACE + ",system:authenticated");
            return Map.of("quarkus.kubernetes-client.api-server-url", Config.fromKubeconfig(kubeconfig).getMasterUrl());
        }

        @Override
        public void stop() {
            // the next applications of this JVM must not inherit them
            System.clearProperty(Config.KUBERNETES_KUBECONFIG_FILE);
            System.clearProperty(Config.KUBERNETES_IMPERSONATE_USERNAME);
            System.clearProperty(Config.KUBERNETES_IMPERSONATE_GROUP);
            if (server != null) {
                server.stop();
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
         * The API server's administrator (the tests' client): not impersonating anyone. Read from the kubeconfig file
         * (a system property): the test class and this resource may be loaded by different class loaders.
         */
        static KubernetesClient admin() {
            String file = System.getProperty(Config.KUBERNETES_KUBECONFIG_FILE);
            if (file == null) {
                throw new IllegalStateException("the real API server is not running");
            }
            return new KubernetesClientBuilder().withConfig(Config.fromKubeconfig(new File(file))).build();
        }

        private static void install(KubernetesClient admin) {
            admin.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(RELEASE_NAMESPACE)
                    .endMetadata().build()).create();
            try (Stream<Path> crds = Files.list(Path.of("helm", "sluice", "files", "crds"))) {
                for (Path crd : crds.filter(p -> p.toString().endsWith(".yml")).sorted().toList()) {
                    try (InputStream in = Files.newInputStream(crd)) {
                        for (HasMetadata o : admin.load(in).items()) {
                            ((CustomResourceDefinition) o).getSpec().setConversion(
                                    new io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceConversion("None", null));
                            admin.resource(o).create();
                            admin.apiextensions().v1().customResourceDefinitions().withName(o.getMetadata().getName())
                                    .waitUntilCondition(RealApiServer::established, 30, java.util.concurrent.TimeUnit.SECONDS);
                        }
                    }
                }
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
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
        }
    }

    static boolean established(CustomResourceDefinition crd) {
        return crd != null && crd.getStatus() != null && crd.getStatus().getConditions() != null && crd.getStatus()
                .getConditions().stream().anyMatch(c -> "Established".equals(c.getType()) && "True".equals(c.getStatus()));
    }

    static final Duration TIMEOUT = Duration.ofSeconds(60);
}
