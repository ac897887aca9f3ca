package dev.sluice.chart;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HTTPGetAction;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.io.ByteArrayInputStream;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Metrics over HTTPS, as Kueue serves them: the management port speaks TLS with the chart's certificate, which names
 * the metrics Service; the ServiceMonitor scrapes with scheme https and verifies that name against the certificate's
 * CA; the kubelet probes with scheme HTTPS.
 */
class ChartMetricsTest {
    static final String METRICS_DNS = "sluice-metrics.sluice-system.svc";

    @SuppressWarnings("unchecked")
    private static Map<String, Object> endpoint(Chart.Rendered r) {
        GenericKubernetesResource monitor = r.all(GenericKubernetesResource.class).stream()
                .filter(o -> o.getKind().equals("ServiceMonitor")).findFirst().orElseThrow();
        List<Map<String, Object>> endpoints = monitor.get("spec", "endpoints");
        assertThat(endpoints).hasSize(1);
        return endpoints.get(0);
    }

    @Test
    void theMetricsServiceSaysHttpsAndTheCertificateNamesIt() {
        Chart.Rendered r = Chart.render();
        Service svc = r.one(Service.class, "sluice-metrics");
        assertThat(svc.getMetadata().getAnnotations()).containsEntry("prometheus.io/scheme", "https")
                .containsEntry("prometheus.io/path", "/q/metrics").containsEntry("prometheus.io/port", "9000");
        assertThat(svc.getSpec().getPorts()).singleElement().satisfies(p -> {
            assertThat(p.getPort()).isEqualTo(9000);
            assertThat(p.getTargetPort().getStrVal()).isEqualTo("management");
        });
        GenericKubernetesResource cert = r.one(GenericKubernetesResource.class, "sluice-webhook");
        assertThat(cert.getKind()).isEqualTo("Certificate");
        assertThat(cert.<List<String>>get("spec", "dnsNames")).contains(METRICS_DNS, METRICS_DNS + ".cluster.local");
        // the pods serve the management port with this very certificate's Secret
        assertThat(r.one(Deployment.class, "sluice").getSpec().getTemplate().getSpec().getVolumes())
                .anySatisfy(v -> assertThat(v.getSecret().getSecretName()).isEqualTo(cert.get("spec", "secretName")));
    }

    @Test
    void theServiceMonitorScrapesOverHttpsAndVerifiesTheServiceNameAgainstTheCa() {
        Chart.Rendered r = Chart.render(Chart.values("metrics.serviceMonitor.enabled", true));
        Map<String, Object> ep = endpoint(r);
        assertThat(ep).containsEntry("port", "metrics").containsEntry("path", "/q/metrics").containsEntry("scheme", "https")
                .containsEntry("bearerTokenFile", "/var/run/secrets/kubernetes.io/serviceaccount/token");
        assertThat(ep.get("tlsConfig")).isEqualTo(Map.of("serverName", METRICS_DNS, "insecureSkipVerify", false,
                "ca", Map.of("secret", Map.of("name", "sluice-webhook-tls", "key", "ca.crt"))));
        GenericKubernetesResource cert = r.one(GenericKubernetesResource.class, "sluice-webhook");
        assertThat(cert.<String>get("spec", "secretName")).isEqualTo("sluice-webhook-tls");

        // without a token still HTTPS; the Helm-generated Secret has the same name and key
        Map<String, Object> noAuth = endpoint(Chart.render(Chart.values("metrics.serviceMonitor.enabled", true,
                "metrics.auth.enabled", false, "webhook.tls.certManager", false)));
        assertThat(noAuth).containsEntry("scheme", "https").doesNotContainKey("bearerTokenFile");
        assertThat(noAuth.get("tlsConfig")).isEqualTo(ep.get("tlsConfig"));
    }

    @Test
    void aTlsConfigGivenReplacesTheVerifiedOne() {
        Map<String, Object> ep = endpoint(Chart.render(Chart.values("metrics.serviceMonitor.enabled", true,
                "metrics.serviceMonitor.tlsConfig.insecureSkipVerify", true)));
        assertThat(ep).containsEntry("scheme", "https");
        assertThat(ep.get("tlsConfig")).isEqualTo(Map.of("insecureSkipVerify", true));
    }

    @Test
    void withHelmGeneratedTlsTheCertificateNamesTheMetricsServiceAndTheSecretSaysSo() throws Exception {
        Chart.Rendered r = Chart.render(Chart.values("webhook.tls.certManager", false));
        Secret secret = r.one(Secret.class, "sluice-webhook-tls");
        CertificateFactory x509 = CertificateFactory.getInstance("X.509");
        X509Certificate ca = (X509Certificate) x509.generateCertificate(
                new ByteArrayInputStream(Base64.getDecoder().decode(secret.getData().get("ca.crt"))));
        X509Certificate crt = (X509Certificate) x509.generateCertificate(
                new ByteArrayInputStream(Base64.getDecoder().decode(secret.getData().get("tls.crt"))));
        crt.verify(ca.getPublicKey());
        List<String> names = new ArrayList<>();
        crt.getSubjectAlternativeNames().forEach(n -> names.add(String.valueOf(n.get(1))));
        assertThat(names).contains(METRICS_DNS, METRICS_DNS + ".cluster.local");
        // an upgrade keeps the Secret only while this list is what the certificate must name
        assertThat(secret.getMetadata().getAnnotations().get("sluice.dev/dns-names").split(","))
                .containsExactlyElementsOf(names);
    }

    @Test
    void theKubeletProbesTheManagementPortOverHttps() {
        for (Chart.Rendered r : List.of(Chart.render(), Chart.render(Chart.values("webhook.replicas", 2)))) {
            for (Deployment d : r.all(Deployment.class)) {
                Container c = d.getSpec().getTemplate().getSpec().getContainers().get(0);
                List<HTTPGetAction> probes = List.of(c.getStartupProbe().getHttpGet(), c.getLivenessProbe().getHttpGet(),
                        c.getReadinessProbe().getHttpGet());
                assertThat(probes).as(d.getMetadata().getName()).allSatisfy(p -> {
                    assertThat(p.getScheme()).isEqualTo("HTTPS");
                    assertThat(p.getPort().getStrVal()).isEqualTo("management");
                    assertThat(p.getPath()).startsWith("/q/health/");
                });
            }
        }
    }
}
