package dev.sluice.controller;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubeapitest.Utils;
import io.fabric8.kubeapitest.binary.OSInfo;
import io.fabric8.kubernetes.client.Config;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 25: with the binaries present the real-API-server tier failed the rest of the suite. fabric8's mock resource
 * leaves its client settings in system properties ({@code kubernetes.auth.tryKubeConfig=false}, {@code kubernetes.master}
 * ...), so the tier's application, configured by a kubeconfig file, came up without credentials and against the old
 * mock, failed to start, and Quarkus left the tier's profile overrides (its job kinds off, its Lease settings) as system
 * properties for every later application. Here the tier's resource runs against a stand-in server (no binaries needed).
 */
class RealApiServerIsolationTest {

    @TempDir
    Path dir;

    private Properties saved;

    @BeforeEach
    void save() {
        saved = (Properties) System.getProperties().clone();
    }

    @AfterEach
    void putBack() {
        System.setProperties(saved);
    }

    private RealApiServer.Server standIn(AtomicBoolean stopped) throws Exception {
        for (String f : new String[] {"apiserver.crt", "client.crt"}) {
            Files.writeString(dir.resolve(f), "-----BEGIN CERTIFICATE-----\n-----END CERTIFICATE-----\n");
        }
        Files.writeString(dir.resolve("client.key"), "-----BEGIN RSA PRIVATE KEY-----\n-----END RSA PRIVATE KEY-----\n");
        String kubeconfig = """
                apiVersion: v1
                kind: Config
                clusters:
                - name: kubeapitest
                  cluster: {server: "https://127.0.0.1:6443", certificate-authority: "%1$s/apiserver.crt"}
                users:
                - name: kubeapitest
                  user: {client-certificate: "%1$s/client.crt", client-key: "%1$s/client.key"}
                contexts:
                - name: kubeapitest
                  context: {cluster: kubeapitest, user: kubeapitest, namespace: default}
                current-context: kubeapitest
                """.formatted(dir);
        return new RealApiServer.Server() {
            @Override
            public String kubeconfig() {
                return kubeconfig;
            }

            @Override
            public void stop() {
                stopped.set(true);
            }
        };
    }

    @Test
    void theTiersClientIgnoresWhatEarlierTestsLeftAndTheTierLeavesNothingBehind() throws Exception {
        // what fabric8's mock resource leaves set after any earlier test class, and a developer's own kubeconfig
        System.setProperty(Config.KUBERNETES_AUTH_TRYKUBECONFIG_SYSTEM_PROPERTY, "false");
        System.setProperty(Config.KUBERNETES_MASTER_SYSTEM_PROPERTY, "http://localhost:40001/");
        System.setProperty(Config.KUBERNETES_NAMESPACE_SYSTEM_PROPERTY, "test");
        System.setProperty(Config.KUBERNETES_TRUST_CERT_SYSTEM_PROPERTY, "true");
        System.setProperty("quarkus.tls.trust-all", "true");
        System.setProperty(Config.KUBERNETES_KUBECONFIG_FILE, dir.resolve("developer.kubeconfig").toString());
        Map<String, String> before = copy(System.getProperties());

        AtomicBoolean stopped = new AtomicBoolean();
        RealApiServer.Server server = standIn(stopped);
        RealApiServer.Resource resource = new RealApiServer.Resource(port -> server);
        Map<String, String> settings = resource.start();

        // the application's client, configured as Quarkus configures it (fabric8's auto-configuration)
        Config app = Config.autoConfigure(null);
        assertThat(app.getMasterUrl()).isEqualTo("https://127.0.0.1:6443/");
        assertThat(app.getClientCertFile()).isEqualTo(dir.resolve("client.crt").toString());
        assertThat(app.getClientKeyFile()).isEqualTo(dir.resolve("client.key").toString());
        assertThat(app.getCaCertFile()).isEqualTo(dir.resolve("apiserver.crt").toString());
        assertThat(app.isTrustCerts()).isFalse();
        assertThat(app.getImpersonateUsername()).isEqualTo(RealApiServer.SERVICE_ACCOUNT);
        assertThat(System.getProperty("quarkus.tls.trust-all")).isNull();
        // the tests' admin: the server's own kubeconfig, not impersonating
        Config admin = Config.fromKubeconfig(new java.io.File(System.getProperty(RealApiServer.ADMIN_KUBECONFIG)));
        assertThat(admin.getMasterUrl()).isEqualTo("https://127.0.0.1:6443/");
        assertThat(admin.getImpersonateUsername()).isNull();
        // every run-time setting is the application's own (the resource's); the profile only fixes the build
        assertThat(settings).containsEntry("sluice.mode", "all").containsEntry("sluice.integrations.jobset.enabled", "false")
                .containsEntry("sluice.leader-election.namespace", RealApiServer.RELEASE_NAMESPACE)
                .containsKey("quarkus.http.test-ssl-port");
        assertThat(new RealApiServer.Profile().getConfigOverrides()).containsOnlyKeys(
                "quarkus.kubernetes-client.devservices.enabled", "quarkus.operator-sdk.crd.apply");

        resource.stop();
        assertThat(stopped).isTrue();
        assertThat(copy(System.getProperties())).isEqualTo(before);
    }

    @Test
    void aStartThatFailsPutsEverythingBack() throws Exception {
        System.setProperty(Config.KUBERNETES_AUTH_TRYKUBECONFIG_SYSTEM_PROPERTY, "false");
        Map<String, String> before = copy(System.getProperties());
        RealApiServer.Resource resource = new RealApiServer.Resource(port -> new RealApiServer.Server() {
            @Override
            public String kubeconfig() {
                return "[not a kubeconfig";
            }

            @Override
            public void stop() {
            }
        });
        org.assertj.core.api.Assertions.assertThatThrownBy(resource::start).hasMessageContaining("could not be set up");
        resource.stop(); // Quarkus stops the resources of an application that did not start
        assertThat(copy(System.getProperties())).isEqualTo(before);
    }

    @Test
    void theTierNeedsKubectlToo() throws Exception {
        Path bin = Files.createDirectories(dir.resolve("k8s").resolve("1.36.3" + Utils.platformSuffix(new OSInfo())));
        for (String b : new String[] {"kube-apiserver", "etcd"}) {
            Files.writeString(bin.resolve(b), "#!/bin/sh\n");
            bin.resolve(b).toFile().setExecutable(true);
        }
        // kube-api-test checks the API server's readiness with kubectl: without it the start fails (and so did the suite)
        assertThat(RealApiServer.binaries(dir)).isEmpty();
        Files.writeString(bin.resolve("kubectl"), "#!/bin/sh\n");
        bin.resolve("kubectl").toFile().setExecutable(true);
        assertThat(RealApiServer.binaries(dir)).contains(bin);
    }

    private static Map<String, String> copy(Properties p) {
        Map<String, String> m = new HashMap<>();
        p.stringPropertyNames().forEach(k -> m.put(k, p.getProperty(k)));
        return m;
    }
}
