package dev.sluice.chart;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.APIService;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import java.io.ByteArrayInputStream;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The visibility API as an aggregated API: APIServices, their Service and TLS trust, and what aggregated servers need. */
class ChartVisibilityTest {

    static List<APIService> apiServices(Chart.Rendered r) {
        return r.all(APIService.class);
    }

    @Test
    void bothVersionsPointAtTheControllerPodsVisibilityPort() {
        Chart.Rendered r = Chart.render();
        List<APIService> services = apiServices(r);
        assertThat(services).extracting(s -> s.getMetadata().getName())
                .containsExactlyInAnyOrder("v1beta2.visibility.kueue.x-k8s.io", "v1beta1.visibility.kueue.x-k8s.io");
        for (APIService s : services) {
            assertThat(s.getSpec().getGroup()).isEqualTo("visibility.kueue.x-k8s.io");
            assertThat(s.getSpec().getService().getName()).isEqualTo("sluice-visibility");
            assertThat(s.getSpec().getService().getNamespace()).isEqualTo(Chart.NAMESPACE);
            assertThat(s.getSpec().getService().getPort()).isEqualTo(443);
            // cert-manager injects the CA of the certificate that names the visibility Service
            assertThat(s.getMetadata().getAnnotations()).containsEntry("cert-manager.io/inject-ca-from",
                    Chart.NAMESPACE + "/sluice-webhook");
            assertThat(s.getSpec().getInsecureSkipTLSVerify()).isNull();
        }
        APIService v2 = r.one(APIService.class, "v1beta2.visibility.kueue.x-k8s.io");
        APIService v1 = r.one(APIService.class, "v1beta1.visibility.kueue.x-k8s.io");
        assertThat(v2.getSpec().getVersion()).isEqualTo("v1beta2");
        assertThat(v2.getSpec().getVersionPriority()).isGreaterThan(v1.getSpec().getVersionPriority());

        Service svc = r.one(Service.class, "sluice-visibility");
        assertThat(svc.getSpec().getSelector()).containsEntry("app.kubernetes.io/component", "controller");
        assertThat(svc.getSpec().getPorts()).singleElement().satisfies(p -> {
            assertThat(p.getPort()).isEqualTo(443);
            assertThat(p.getTargetPort().getStrVal()).isEqualTo("visibility");
        });
        var container = r.one(Deployment.class, "sluice").getSpec().getTemplate().getSpec().getContainers().get(0);
        assertThat(container.getPorts()).anySatisfy(p -> {
            assertThat(p.getName()).isEqualTo("visibility");
            assertThat(p.getContainerPort()).isEqualTo(8082);
        });
        assertThat(container.getEnv()).anySatisfy(e -> {
            assertThat(e.getName()).isEqualTo("SLUICE_VISIBILITY_PORT");
            assertThat(e.getValue()).isEqualTo("8082");
        });
        GenericKubernetesResource cert = r.all(GenericKubernetesResource.class).stream()
                .filter(o -> o.getKind().equals("Certificate")).findFirst().orElseThrow();
        assertThat((List<String>) ((Map<String, Object>) cert.get("spec")).get("dnsNames"))
                .contains("sluice-visibility.sluice-system.svc");
    }

    @Test
    void theFrontProxyCaIsReadableAndReviewsMayBeCreated() {
        Chart.Rendered r = Chart.render();
        RoleBinding reader = r.one(RoleBinding.class, "sluice-visibility-auth-reader");
        assertThat(reader.getMetadata().getNamespace()).isEqualTo("kube-system");
        assertThat(reader.getRoleRef().getKind()).isEqualTo("Role");
        assertThat(reader.getRoleRef().getName()).isEqualTo("extension-apiserver-authentication-reader");
        assertThat(reader.getSubjects()).singleElement().satisfies(s -> {
            assertThat(s.getName()).isEqualTo("sluice");
            assertThat(s.getNamespace()).isEqualTo(Chart.NAMESPACE);
        });
        assertThat(ChartRbacTest.grants(r.one(ClusterRole.class, "sluice").getRules()))
                .contains("authorization.k8s.io/subjectaccessreviews/create");
    }

    @Test
    void withHelmGeneratedTlsTheApiServicesTrustTheGeneratedCaAndTheCertificateNamesTheService() throws Exception {
        Chart.Rendered r = Chart.render(Chart.values("webhook.tls.certManager", false));
        Secret secret = r.one(Secret.class, "sluice-webhook-tls");
        String ca = secret.getData().get("ca.crt");
        for (APIService s : apiServices(r)) {
            assertThat(s.getSpec().getCaBundle()).isEqualTo(ca);
        }
        X509Certificate crt = (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(
                new ByteArrayInputStream(Base64.getDecoder().decode(secret.getData().get("tls.crt"))));
        List<String> names = new ArrayList<>();
        crt.getSubjectAlternativeNames().forEach(n -> names.add(String.valueOf(n.get(1))));
        assertThat(names).contains("sluice-visibility.sluice-system.svc", "sluice-webhook.sluice-system.svc");
    }

    @Test
    void switchedOffNothingOfItIsRendered() {
        // (metrics.auth asks SubjectAccessReviews too: off here, so that none is left)
        Chart.Rendered r = Chart.render(Chart.values("visibility.enabled", false, "metrics.auth.enabled", false));
        assertThat(apiServices(r)).isEmpty();
        assertThat(r.find(Service.class, "sluice-visibility")).isEmpty();
        assertThat(r.find(RoleBinding.class, "sluice-visibility-auth-reader")).isEmpty();
        assertThat(ChartRbacTest.grants(r.one(ClusterRole.class, "sluice").getRules()))
                .noneMatch(g -> g.contains("subjectaccessreviews"));
        var container = r.one(Deployment.class, "sluice").getSpec().getTemplate().getSpec().getContainers().get(0);
        assertThat(container.getPorts()).noneMatch(p -> p.getName().equals("visibility"));
        assertThat(container.getEnv()).anySatisfy(e -> {
            assertThat(e.getName()).isEqualTo("SLUICE_VISIBILITY_ENABLED");
            assertThat(e.getValue()).isEqualTo("false");
        });
    }

    @Test
    void webhookOnlyPodsServeNoVisibility() {
        Chart.Rendered r = Chart.render(Chart.values("webhook.replicas", 2));
        var container = r.one(Deployment.class, "sluice-webhook").getSpec().getTemplate().getSpec().getContainers().get(0);
        assertThat(container.getPorts()).noneMatch(p -> p.getName().equals("visibility"));
    }
}
