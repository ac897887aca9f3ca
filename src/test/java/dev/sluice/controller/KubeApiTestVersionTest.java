package dev.sluice.controller;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubeapitest.KubeAPIServer;
import java.io.InputStream;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/** The real-API-server tier's kube-api-test is the fabric8 client's own version (they are released together). */
class KubeApiTestVersionTest {

    @Test
    void kubeApiTestHasTheClientsVersion() throws Exception {
        Properties pom = new Properties();
        try (InputStream in = KubeAPIServer.class.getResourceAsStream(
                "/META-INF/maven/io.fabric8/kube-api-test/pom.properties")) {
            assertThat(in).as("kube-api-test's pom.properties").isNotNull();
            pom.load(in);
        }
        assertThat(pom.getProperty("version")).isEqualTo(io.fabric8.kubernetes.client.Version.clientVersion());
    }
}
